"""Reductions between standard forms: `FixToZero` (drop a variable block, e.g. η for the
without-η QUBO) and `BinaryExpansion` (integers to capped binary bits, or unary ones), with the
capped binary encoding they and the penalty QUBO share (`docs/formulations.md`, slack recipe steps 3 and 5).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from ..exceptions import InputError
from .chain import Reduction
from .standard_form import StandardForm

__all__ = [
    "FixToZero", "BinaryExpansion", "Expansion", "capped_binary_bits", "capped_binary_weights", "paired_offset_bits",
    "paired_offset_weights", "unary_bits", "unary_weights",
]


def _bit_layout(nbits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For spans of `nbits` bits each: every bit's owner (its span), its position there, and the
    index of each span's last bit."""
    owner = np.repeat(np.arange(len(nbits)), nbits)
    first = np.cumsum(nbits) - nbits
    position = np.arange(nbits.sum()) - np.repeat(first, nbits)
    return owner, position, first + nbits - 1


def _last_bits(num_spans: int, owner, position, weight) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of an encoding (owner, position, weight) of `num_spans` spans: each span's number of bits,
    whether each bit is its span's last, and each span's last weight (0 without bits)."""
    nbits = np.bincount(owner, minlength=num_spans).astype(np.int64)
    is_last = position == nbits[owner] - 1
    last_weight = np.zeros(num_spans, dtype=np.int64)
    last_weight[owner[is_last]] = weight[is_last]
    return nbits, is_last, last_weight


def capped_binary_weights(span: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bit weights 1, 2, 4, ... with a capped last weight, so the encoded values are exactly
    0..span for each span (docs/formulations.md, slack recipe step 3). Returns (owner, position,
    weight): for every bit, the index of the span it encodes, its place there, and its weight.
    Spans of 0 get no bits."""
    span = np.asarray(span, dtype=np.int64)
    nbits = np.where(span > 0, np.ceil(np.log2(span + 1)).astype(np.int64), 0)
    owner, position, last = _bit_layout(nbits)
    weight = np.left_shift(1, position).astype(np.int64)
    has_bits = nbits > 0
    weight[last[has_bits]] = span[has_bits] - (np.left_shift(1, nbits[has_bits] - 1) - 1)
    return owner, position, weight


def capped_binary_bits(values, owner: np.ndarray, position: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The bits encoding `values` (..., one value per span, each in 0..span) in the capped binary
    encoding (owner, position, weight) of `capped_binary_weights`: the inverse of summing
    `weight * bit` per owner. The capped last bit is set when a value exceeds what the other bits
    reach (2^(nbits-1) - 1); the rest is plain binary. Returns (..., number of bits) of 0/1."""
    values = np.asarray(values)
    rounded = np.round(values).astype(np.int64)
    nbits, is_last, last_weight = _last_bits(values.shape[-1], owner, position, weight)
    span = np.left_shift(1, np.maximum(nbits - 1, 0)) - 1 + last_weight
    if (np.abs(values - rounded) > 1e-9).any() or (rounded < 0).any() or (rounded > span).any():
        raise InputError("values must be integers within 0..span of their encoding")
    last_on = rounded > np.left_shift(1, np.maximum(nbits - 1, 0)) - 1
    rest = rounded - np.where(last_on, last_weight, 0)
    bits = np.where(is_last, last_on[..., owner], np.right_shift(rest[..., owner], position) & 1)
    return bits.astype(np.int8)


def unary_weights(span: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`span` bits of weight 1 per span (in no order: the value is how many are set), so that a
    change of one unit is one flip from any state. Returns (owner, position, weight) like
    `capped_binary_weights`."""
    span = np.asarray(span, dtype=np.int64)
    owner, position, _ = _bit_layout(np.maximum(span, 0))
    return owner, position, np.ones(len(owner), dtype=np.int64)


def unary_bits(values, owner: np.ndarray, position: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The unary bits of `values` (..., one per span, each in 0..span): the first `value` bits set."""
    values = np.asarray(values)
    rounded = np.round(values).astype(np.int64)
    nbits = np.bincount(owner, minlength=values.shape[-1])
    if (np.abs(values - rounded) > 1e-9).any() or (rounded < 0).any() or (rounded > nbits).any():
        raise InputError("values must be integers within 0..span of their encoding")
    return (position < rounded[..., owner]).astype(np.int8)


def paired_offset_weights(span: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bits of the offset `o` of a paired penalty (`docs/formulations.md`, "Paired slack"): for a
    row whose residual from its bound must lie in 0..span, `o` takes values with every value
    0..span in some pair {o, o + 1} and never o + 1 > span, so `(v - o)(v - o - 1)`, zero exactly
    when v is o or o + 1, vanishes for some encodable o iff v is in 0..span. With
    n = ceil(log2(span // 2 + 1)) bits: weights 2, 4, ..., 2^(n-1) and a capped last weight
    span + 1 - 2^n (>= 1): the encoded values are the even numbers 0..2^n - 2 and the last weight
    plus those, which reach span - 1. Spans 0 and 1 get no bits. Returns (owner, position, weight)
    like `capped_binary_weights`."""
    span = np.asarray(span, dtype=np.int64)
    pairs = span // 2 + 1
    nbits = np.where(span > 1, np.ceil(np.log2(np.maximum(pairs, 1))).astype(np.int64), 0)
    owner, position, last = _bit_layout(nbits)
    weight = np.left_shift(2, position).astype(np.int64)
    has_bits = nbits > 0
    weight[last[has_bits]] = span[has_bits] + 1 - np.left_shift(1, nbits[has_bits])
    return owner, position, weight


def paired_offset_bits(values, owner: np.ndarray, position: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The bits of the best offset for `values` (..., one residual per row, each in 0..span) in
    the encoding of `paired_offset_weights`: an encodable o with o <= value <= o + 1."""
    values = np.asarray(values)
    rounded = np.round(values).astype(np.int64)
    nbits, is_last, last_weight = _last_bits(values.shape[-1], owner, position, weight)
    if (np.abs(values - rounded) > 1e-9).any() or (rounded < 0).any():
        raise InputError("values must be integers >= 0")
    last_on = (nbits > 0) & (rounded > np.left_shift(1, nbits) - 1)
    rest = rounded - np.where(last_on, last_weight, 0)
    bits = np.where(is_last, last_on[..., owner], np.right_shift(rest[..., owner], position + 1) & 1)
    return bits.astype(np.int8)


@dataclass(frozen=True)
class FixToZero(Reduction):
    """Fix the variable blocks `blocks` (e.g. ("eta",)) to 0: their columns and objective terms
    disappear. Inverse data: the mask of the fixed columns."""

    blocks: tuple[str, ...]

    def __post_init__(self):
        object.__setattr__(self, "blocks", tuple(self.blocks))

    def apply(self, form: StandardForm) -> tuple[StandardForm, np.ndarray]:
        mask = np.isin(form.col_block, self.blocks)
        keep = ~mask
        reduced = replace(
            form,
            A=form.A[:, keep].tocsr(),
            c=form.c[keep],
            var_lower=form.var_lower[keep],
            var_upper=form.var_upper[keep],
            var_names=[n for n, k in zip(form.var_names, keep) if k],
            col_block=form.col_block[keep],
            col_index=form.col_index[keep],
            col_group=form.col_group[keep],
        )
        return reduced, mask

    def invert(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Values of the kept variables -> values of all variables (the fixed ones 0)."""
        x = np.atleast_2d(x)
        full = np.zeros((x.shape[0], len(mask)), dtype=x.dtype)
        full[:, ~mask] = x
        return full

    def encode(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Values of all variables -> values of the kept ones."""
        return np.atleast_2d(x)[:, ~mask]


@dataclass(frozen=True, eq=False)
class Expansion:
    """Inverse data of `BinaryExpansion`: x = E z + x0 over the original variables; `integer`
    marks the expanded ones, `binary_cols` the kept binaries, and (owner, position, weight) the
    bits of the integers' offsets from their lower bounds (`capped_binary_weights`, or
    `unary_weights` when `unary`)."""

    E: sp.csr_matrix
    x0: np.ndarray
    integer: np.ndarray
    binary_cols: np.ndarray
    owner: np.ndarray
    position: np.ndarray
    weight: np.ndarray
    unary: bool = False


@dataclass(frozen=True)
class BinaryExpansion(Reduction):
    """Replace each integer variable of range [lo, hi] by capped binary bits (`unary`: hi - lo bits
    of weight 1, so that every unit step is one flip): x = E z + x0. A bit keeps its variable's
    block and index (its name gets `#position`); it is in no group."""

    unary: bool = False

    def apply(self, form: StandardForm) -> tuple[StandardForm, Expansion]:
        lo = np.ceil(form.var_lower).astype(np.int64)
        hi = np.floor(form.var_upper).astype(np.int64)
        if (hi < lo).any():
            bad = form.var_names[int(np.argmax(hi < lo))]
            raise InputError(f"variable {bad} has an empty range")
        integer = (hi - lo) > 1
        encoding = unary_weights if self.unary else capped_binary_weights
        owner, position, weight = encoding(np.where(integer, hi - lo, 0))
        binary_cols = np.flatnonzero(~integer)
        num_new = len(binary_cols) + len(owner)
        rows = np.concatenate([binary_cols, owner])
        cols = np.arange(num_new)
        vals = np.concatenate([np.ones(len(binary_cols)), weight]).astype(float)
        E = sp.csr_matrix((vals, (rows, cols)), shape=(form.num_vars, num_new))
        x0 = np.where(integer, lo, 0).astype(float)
        names = [form.var_names[j] for j in binary_cols]
        names += [f"{form.var_names[j]}#{b}" for j, b in zip(owner.tolist(), position.tolist())]
        shift = form.A @ x0
        new = np.concatenate([binary_cols, owner])  # the original column of each new one
        expanded = replace(
            form,
            A=(form.A @ E).tocsr(),
            lower=form.lower - shift,
            upper=form.upper - shift,
            c=E.T @ form.c,
            c0=form.c0 + float(form.c @ x0),
            var_lower=np.zeros(num_new),
            var_upper=np.ones(num_new),
            var_names=names,
            col_block=form.col_block[new],
            col_index=form.col_index[new],
            col_group=np.concatenate([form.col_group[binary_cols], np.full(len(owner), -1)]),
        )
        return expanded, Expansion(E, x0, integer, binary_cols, owner, position, weight, self.unary)

    def invert(self, z: np.ndarray, inverse: Expansion) -> np.ndarray:
        """Bits -> original variable values (integers recombined)."""
        z = np.atleast_2d(z)
        return (inverse.E @ z.T).T + inverse.x0

    def encode(self, x: np.ndarray, inverse: Expansion) -> np.ndarray:
        """Original variable values -> bits: binary variables are kept, each integer becomes the
        bits of its offset from its lower bound."""
        x = np.atleast_2d(np.asarray(x, dtype=float))
        offsets = np.where(inverse.integer, x - inverse.x0, 0.0)
        encode = unary_bits if inverse.unary else capped_binary_bits
        bits = encode(offsets, inverse.owner, inverse.position, inverse.weight)
        return np.concatenate([x[:, inverse.binary_cols], bits], axis=1)
