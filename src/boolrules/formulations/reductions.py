"""Reductions on a linear standard form, each with a forward `apply` and an inverse `decode`.

`LinearForm` is `lower <= A x <= upper` over variables with bounds, an objective `c x + c0`,
and per-row penalty classes. The QUBO compiler is a chain of these steps (as in cvxpy):
`FixToZero` (drop η for the without-η QUBO), `BinaryExpansion` (integers to capped binary
bits), then `qubo.PenaltyQubo`; a sample flows back through the `decode`s in reverse.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from .problem import StandardForm

__all__ = ["LinearForm", "FixToZero", "BinaryExpansion", "capped_binary_bits", "capped_binary_weights"]


@dataclass(frozen=True)
class LinearForm(StandardForm):
    """A standard form with what the QUBO compiler needs to know of its rows and variables:
    `row_sample[r]` is the sample a soft row belongs to (-1 for hard rows) and `row_weight[r]`
    its weight; `groups` maps a variable to a cardinality group id (-1: none) whose members sum
    to at most `group_bound[id]`."""

    row_weight: np.ndarray
    row_sample: np.ndarray
    groups: np.ndarray
    group_bound: np.ndarray

    @property
    def num_vars(self) -> int:
        return self.A.shape[1]


def capped_binary_weights(span: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bit weights 1, 2, 4, ... with a capped last weight, so the encoded values are exactly
    0..span for each span (formulations.md, slack recipe step 3). Returns (owner, position,
    weight): for every bit, the index of the span it encodes, its place there, and its weight.
    Spans of 0 get no bits."""
    span = np.asarray(span, dtype=np.int64)
    nbits = np.where(span > 0, np.ceil(np.log2(span + 1)).astype(np.int64), 0)
    owner = np.repeat(np.arange(len(span)), nbits)
    first = np.cumsum(nbits) - nbits
    position = np.arange(nbits.sum()) - np.repeat(first, nbits)
    weight = np.left_shift(1, position).astype(np.int64)
    last = first + nbits - 1
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
    nbits = np.bincount(owner, minlength=values.shape[-1]).astype(np.int64)
    last_weight = np.zeros(values.shape[-1], dtype=np.int64)
    is_last = position == nbits[owner] - 1
    last_weight[owner[is_last]] = weight[is_last]
    span = np.left_shift(1, np.maximum(nbits - 1, 0)) - 1 + last_weight
    if (np.abs(values - rounded) > 1e-9).any() or (rounded < 0).any() or (rounded > span).any():
        raise ValueError("values must be integers within 0..span of their encoding")
    last_on = rounded > np.left_shift(1, np.maximum(nbits - 1, 0)) - 1
    rest = rounded - np.where(last_on, last_weight, 0)
    bits = np.where(is_last, last_on[..., owner], np.right_shift(rest[..., owner], position) & 1)
    return bits.astype(np.int8)


class FixToZero:
    """Fix the variables in `mask` to 0 (their columns and objective terms disappear)."""

    def __init__(self, mask: np.ndarray):
        self.mask = np.asarray(mask, dtype=bool)

    def apply(self, form: LinearForm) -> LinearForm:
        keep = ~self.mask
        return replace(
            form,
            A=form.A[:, keep].tocsr(),
            c=form.c[keep],
            var_lower=form.var_lower[keep],
            var_upper=form.var_upper[keep],
            var_names=[n for n, k in zip(form.var_names, keep) if k],
            groups=form.groups[keep],
        )

    def encode(self, x: np.ndarray) -> np.ndarray:
        """Values of all variables -> values of the kept ones (the forward map of `decode`)."""
        return np.atleast_2d(x)[:, ~self.mask]

    def decode(self, x: np.ndarray) -> np.ndarray:
        """Values of the reduced variables -> values of all variables (the fixed ones 0)."""
        x = np.atleast_2d(x)
        full = np.zeros((x.shape[0], len(self.mask)), dtype=x.dtype)
        full[:, ~self.mask] = x
        return full


class BinaryExpansion:
    """Replace each integer variable of range [lo, hi] by capped binary bits: x = E z + x0."""

    def apply(self, form: LinearForm) -> LinearForm:
        lo = np.ceil(form.var_lower).astype(np.int64)
        hi = np.floor(form.var_upper).astype(np.int64)
        if (hi < lo).any():
            bad = form.var_names[int(np.argmax(hi < lo))]
            raise ValueError(f"variable {bad} has an empty range")
        integer = (hi - lo) > 1
        owner, position, weight = capped_binary_weights(np.where(integer, hi - lo, 0))
        self.bits = (owner, position, weight)
        binary_cols = np.flatnonzero(~integer)
        self.binary_cols = binary_cols
        num_new = len(binary_cols) + len(owner)
        rows = np.concatenate([binary_cols, owner])
        cols = np.arange(num_new)
        vals = np.concatenate([np.ones(len(binary_cols)), weight]).astype(float)
        self.E = sp.csr_matrix((vals, (rows, cols)), shape=(form.num_vars, num_new))
        self.x0 = np.where(integer, lo, 0).astype(float)
        self.integer = integer
        names = [form.var_names[j] for j in binary_cols]
        names += [f"{form.var_names[j]}#{b}" for j, b in zip(owner.tolist(), position.tolist())]
        shift = form.A @ self.x0
        groups = np.concatenate([form.groups[binary_cols], np.full(len(owner), -1)])
        return replace(
            form,
            A=(form.A @ self.E).tocsr(),
            lower=form.lower - shift,
            upper=form.upper - shift,
            c=self.E.T @ form.c,
            c0=form.c0 + float(form.c @ self.x0),
            var_lower=np.zeros(num_new),
            var_upper=np.ones(num_new),
            var_names=names,
            groups=groups,
        )

    def encode(self, x: np.ndarray) -> np.ndarray:
        """Original variable values -> bits (the forward map of `decode`): binary variables are
        kept, each integer becomes the capped binary bits of its offset from its lower bound."""
        x = np.atleast_2d(np.asarray(x, dtype=float))
        bits = capped_binary_bits(np.where(self.integer, x - self.x0, 0.0), *self.bits)
        return np.concatenate([x[:, self.binary_cols], bits], axis=1)

    def decode(self, z: np.ndarray) -> np.ndarray:
        """Bits -> original variable values (integers recombined)."""
        z = np.atleast_2d(z)
        return (self.E @ z.T).T + self.x0
