"""Bit-packed rule evaluation: samples are bits of uint64 words, operators are word operations.

A `BitMatrix` holds every literal (feature and negated feature) as a row of words, so an
Or/And over literals is one gather and one reduction. Counting operators (AtLeast, AtMost,
Choose) add their children's bits per sample: for narrow data by unpacking to bytes and
summing, for wide data with a bit-sliced ripple counter on the words, whichever is fewer
numpy calls for the width (see `benchmarks/bench_evaluation.py`).

A node is told apart by its `kind` ("literal", "constant", "operator") and an operator by its class
name, as `semantics.py` does, so evaluation needs no node class and the nodes' `evaluate` calls it.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..exceptions import InputError, InputTypeError
from ..validation import check_binary_matrix
from .depth import SHALLOW_DEPTH
from .semantics import operator_output

__all__ = ["BitMatrix", "evaluate"]


def pack_rows(B: np.ndarray) -> np.ndarray:
    """Pack a (r, n) 0/1 array into (r, ceil(n/64)) uint64 words, sample i at bit i % 64."""
    r, n = B.shape
    num_words = (n + 63) // 64
    packed = np.zeros((r, num_words * 8), dtype=np.uint8)
    packed[:, : (n + 7) // 8] = np.packbits(B, axis=1, bitorder="little")
    return packed.view("<u8").astype(np.uint64, copy=False)


def unpack_row(words: np.ndarray, n: int) -> np.ndarray:
    """Inverse of `pack_rows` for one row: bool array of length n."""
    bits = np.unpackbits(words.astype("<u8", copy=False).view(np.uint8), bitorder="little", count=n)
    return bits.view(bool)


class BitMatrix:
    """A binary data matrix packed for fast evaluation of many rules on the same rows.

    Counting operators use the bit-sliced counter when a row has at least `sliced_count_min_words`
    words (64 by default: where it beats unpack-and-sum, `benchmarks/bench_evaluation.py`)."""

    def __init__(self, X, *, checked: bool = False, sliced_count_min_words: int = 64):
        X = X if checked else check_binary_matrix(X)
        self.n, self.m = X.shape
        self.num_words = (self.n + 63) // 64
        self.sliced_count_min_words = sliced_count_min_words
        # Rows 0..m-1 are the features, rows m..2m-1 their negations.
        self.literal_words = pack_rows(np.concatenate([X.T, 1 - X.T]))
        self.ones = pack_rows(np.ones((1, self.n), np.uint8))[0]
        self.zeros = np.zeros(self.num_words, np.uint64)

    def literal_row(self, literal) -> int:
        """Row of `literal_words` that holds this literal (a feature beyond the data is an error,
        not silently the negation of another feature)."""
        if literal.index >= self.m:
            raise InputError(f"the rule references feature {literal.index} but the data has only {self.m} columns")
        return literal.index + self.m * literal.negated

    def evaluate(self, rule, memo: dict | None = None) -> np.ndarray:
        """Packed truth values of `rule`; `memo` caches sub-rule results between calls."""
        kind = getattr(rule, "kind", None)
        if kind == "literal":
            return self.literal_words[self.literal_row(rule)]
        if memo is not None:
            hit = memo.get(rule)
            if hit is not None:
                return hit
        if kind == "operator":
            words = self._operator(rule, memo) if rule.depth <= SHALLOW_DEPTH else self._deep(rule, memo)
        elif kind == "constant":
            words = self.ones if rule.value else self.zeros
        else:
            raise InputTypeError(f"cannot evaluate {type(rule).__name__}")
        if memo is not None:
            memo[rule] = words
        return words

    def _children(self, op, memo) -> np.ndarray:
        subs = op.subrules
        if all(s.kind == "literal" for s in subs):
            rows = [self.literal_row(s) for s in subs]
            return self.literal_words[rows]
        return np.stack([self.evaluate(s, memo) for s in subs])

    def _deep(self, rule, memo) -> np.ndarray:
        """`evaluate` of a rule deeper than `SHALLOW_DEPTH`: its deep nodes in post-order from an
        explicit stack, shallow subtrees by recursion. Results are kept in `memo`; without one, a
        node's only until its last parent is done, so memory does not grow with the depth."""
        done = {} if memo is None else memo
        order, uses, seen = [], Counter(), set()
        stack = [(rule, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                for sub in node.subrules:
                    if sub.depth > SHALLOW_DEPTH:
                        uses[sub] += 1
                        if sub not in seen and sub not in done:
                            stack.append((sub, False))
        for node in order:
            children = np.stack([done[sub] if sub.depth > SHALLOW_DEPTH else self.evaluate(sub, memo)
                                 for sub in node.subrules])
            done[node] = self._operator(node, memo, children)
            if memo is None:
                for sub in node.subrules:
                    if sub.depth > SHALLOW_DEPTH:
                        uses[sub] -= 1
                        if not uses[sub]:
                            del done[sub]
        return done[rule]

    def _operator(self, op, memo, children: np.ndarray | None = None) -> np.ndarray:
        """`op`'s packed truth values, from its children's (one row each) when they are given."""
        if children is None:
            children = self._children(op, memo)
        name = type(op).__name__
        if name == "Or":
            words = np.bitwise_or.reduce(children, axis=0)
        elif name == "And":
            words = np.bitwise_and.reduce(children, axis=0)
        else:
            words = self._count_compare(children, name, op.k)
        if op.negated:
            words = words ^ self.ones
        return words

    def _count_compare(self, children: np.ndarray, name: str, k: int) -> np.ndarray:
        if self.num_words < self.sliced_count_min_words:
            counts = np.add.reduce(
                np.unpackbits(children.view(np.uint8), axis=1, bitorder="little"), axis=0
            )
            hit = operator_output(name, counts, len(children), k)
            packed = np.packbits(hit, bitorder="little").view(np.uint64)
            return packed & self.ones
        greater, equal = _sliced_compare(children, k)
        if name == "AtLeast":
            return (greater | equal) & self.ones
        if name == "AtMost":
            return ~greater & self.ones
        return equal & self.ones

    def unpack(self, words: np.ndarray) -> np.ndarray:
        """Bool array of length n from packed words."""
        return unpack_row(words, self.n)


def _sliced_compare(children: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-sample (count > k, count == k) from a bit-sliced ripple counter over `children`."""
    num_levels = max(len(children).bit_length(), k.bit_length())
    levels = [np.zeros_like(children[0]) for _ in range(num_levels)]
    for child in children:
        carry = child
        for level in levels:
            next_carry = level & carry
            level ^= carry
            carry = next_carry
    greater = np.zeros_like(children[0])
    equal = ~greater
    for bit in reversed(range(num_levels)):
        level = levels[bit]
        if (k >> bit) & 1:
            equal &= level
        else:
            greater |= equal & level
            equal &= ~level
    return greater, equal


def evaluate(rule, X) -> np.ndarray:
    """Evaluate `rule` on each row of the 0/1 matrix `X` (bool array)."""
    X = check_binary_matrix(X)
    needed = rule.max_feature_index() + 1
    if needed > X.shape[1]:
        raise InputError(
            f"the rule references feature {needed - 1} but X has only {X.shape[1]} columns"
        )
    bits = BitMatrix(X, checked=True)
    return bits.unpack(bits.evaluate(rule))
