"""Compile a depth-one problem's linear model to a QUBO (dimod BQM) with the minimal-bound slack recipe.

`formulations.md`, "ILP → QUBO": tight body bounds from the model's cardinality structure,
effective bounds, equality detection, dropped redundant rows, merged parallel rows, capped
binary slacks, the minimal-bound side per row, slack-free `P·x·y` for `x + y <= 1`, and the
penalty `Σ_r W_r (C_r x + d_r)²` assembled as `Cᵀ W C` with sparse matrix algebra.
`PenaltyQubo` is the last reduction of the chain; `QuboProblem` holds the result.
"""

from __future__ import annotations

from dataclasses import dataclass

import dimod
import numpy as np
import scipy.sparse as sp

from .reductions import LinearForm, capped_binary_bits, capped_binary_weights

__all__ = ["PenaltyQubo", "Penalties", "SLACK_MODES", "body_bounds"]

SLACK_MODES = ("minimal", "below", "above")


@dataclass(frozen=True)
class Penalties:
    """Penalty weights: a soft (sample) row r costs `soft * row_weight[r] * residual²`, a hard row
    `hard * residual²`."""

    soft: float
    hard: float


def body_bounds(form: LinearForm, group_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Smallest and largest value each row's body can take over binary variables, with each
    cardinality group contributing at most its `group_bound` largest (smallest) coefficients.
    A group does not bound the rows that define it (`group_rows[r]` is that group's id)."""
    A = form.A.tocsc()
    in_group = form.groups >= 0
    free = A[:, ~in_group]
    lo = np.asarray(free.minimum(0).sum(axis=1)).ravel()
    hi = np.asarray(free.maximum(0).sum(axis=1)).ravel()
    for g, bound in enumerate(form.group_bound):
        members = np.flatnonzero(form.groups == g)
        block = A[:, members].toarray()
        count = int(min(bound, len(members)))
        top = -np.partition(-block, count - 1, axis=1)[:, :count].sum(axis=1) if count else 0.0
        bottom = np.partition(block, count - 1, axis=1)[:, :count].sum(axis=1) if count else 0.0
        own = group_rows == g
        hi += np.where(own, np.maximum(block, 0).sum(axis=1), np.maximum(top, 0) if count else 0.0)
        lo += np.where(own, np.minimum(block, 0).sum(axis=1), np.minimum(bottom, 0) if count else 0.0)
    return lo, hi


def _merge_parallel_rows(form: LinearForm, group_rows):
    """Rows with identical coefficients and the same owner (hard, or the same sample) become one
    row with the intersected bounds: e.g. `L >= m_min` and `L <= m'`, or a sample's two Choose
    rows once η is gone. Rows of different samples are never merged."""
    A = form.A
    rng = np.random.default_rng(0)
    keys = np.column_stack([A @ rng.standard_normal((A.shape[1], 2)), form.row_sample])
    _, first, inverse = np.unique(np.round(keys, 9), axis=0, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    rep = first[inverse]
    same = (np.asarray(abs(A - A[rep]).sum(axis=1)).ravel() == 0) & (form.row_sample == form.row_sample[rep])
    rep = np.where(same, rep, np.arange(A.shape[0]))
    keep = np.unique(rep)
    lower = np.full(A.shape[0], -np.inf)
    upper = np.full(A.shape[0], np.inf)
    np.maximum.at(lower, rep, form.lower)
    np.minimum.at(upper, rep, form.upper)
    weight = np.zeros(A.shape[0])
    np.maximum.at(weight, rep, form.row_weight)
    g_rows = np.full(A.shape[0], -1)
    np.maximum.at(g_rows, rep, group_rows)
    return keep, lower[keep], upper[keep], weight[keep], g_rows[keep]


class PenaltyQubo:
    """The final reduction: `LinearForm` over binaries -> penalty matrices `C`, `d` with slack bits.

    `apply` stores the compiled pieces; `bqm(penalties)` assembles a BQM for any penalty weights
    without recompiling; `decode` strips the slack bits. Soft rows are those of a sample
    (`row_sample >= 0`), weighted by `row_weight`; all others are hard.
    """

    def __init__(self, slack: str = "minimal"):
        if slack not in SLACK_MODES:
            raise ValueError(f"slack must be one of {', '.join(SLACK_MODES)}, got {slack!r}")
        self.slack = slack

    def apply(self, form: LinearForm, group_rows: np.ndarray) -> PenaltyQubo:
        keep, lower, upper, row_weight, group_rows = _merge_parallel_rows(form, group_rows)
        A = form.A[keep]
        names = [form.row_names[r] for r in keep]
        merged = LinearForm(A, lower, upper, form.c, form.c0, form.var_lower, form.var_upper, form.var_names,
                            names, row_weight, form.row_sample[keep], form.groups, form.group_bound)
        b_lo, b_hi = body_bounds(merged, group_rows)
        low = np.maximum(lower, b_lo)
        high = np.minimum(upper, b_hi)
        if (low > high + 1e-9).any():
            r = int(np.argmax(low > high + 1e-9))
            raise ValueError(
                f"constraint {names[r]} can never be satisfied: its body ranges over [{b_lo[r]:g}, {b_hi[r]:g}] "
                f"but must lie in [{lower[r]:g}, {upper[r]:g}]"
            )
        active = ~((lower <= b_lo + 1e-9) & (upper >= b_hi - 1e-9))  # redundant rows are dropped
        nnz = A.getnnz(axis=1)
        ones = np.zeros(A.shape[0], dtype=np.int64)  # coefficients equal to 1 per row
        np.add.at(ones, np.repeat(np.arange(A.shape[0]), nnz), A.data == 1)
        pair = active & (nnz == 2) & (ones == 2) & (np.round(high) == 1) & (lower <= b_lo + 1e-9)
        penalised = active & ~pair
        rows = np.flatnonzero(penalised)
        low, high = low[rows], high[rows]
        b_lo, b_hi = b_lo[rows], b_hi[rows]
        span = np.round(high - low).astype(np.int64)
        if self.slack == "minimal":
            below = np.abs(low) <= np.abs(high)
        else:
            below = np.full(len(rows), self.slack == "below")
        owner, position, weight = capped_binary_weights(span)
        num_z = A.shape[1]
        sign = np.where(below[owner], -1.0, 1.0)
        slack_part = sp.csr_matrix(
            (sign * weight, (owner, np.arange(len(owner)))), shape=(len(rows), len(owner))
        )
        self.C = sp.hstack([A[rows], slack_part], format="csr")
        self.d = -np.where(below, low, high)
        soft = form.row_sample[keep] >= 0
        self.row_weight = row_weight[rows]
        self.soft = soft[rows]
        self.row_names = [names[r] for r in rows]
        self.row_low, self.row_high, self.row_below = low, high, below
        # Largest |residual| per row: body in [b_lo, b_hi], slack in [0, span].
        self.max_residual = np.where(below, np.maximum(b_hi - low, low + span - b_lo), np.maximum(high - b_lo, b_hi - high + span))
        self.slack_owner, self.slack_weight, self.slack_position = owner, weight, position
        self.row_span = span
        pair_rows = A[np.flatnonzero(pair)].tocsr()
        self.pairs = pair_rows.indices.reshape(-1, 2)
        self.pair_weight = row_weight[np.flatnonzero(pair)]
        self.pair_soft = soft[np.flatnonzero(pair)]
        self.c = np.concatenate([form.c, np.zeros(len(owner))])
        self.c0 = form.c0
        self.num_z = num_z
        self.labels = list(form.var_names) + [
            f"s[{self.row_names[r]}]#{p}" for r, p in zip(owner.tolist(), position.tolist())
        ]
        return self

    def max_soft_penalty(self) -> float:
        """An upper bound on Σ_soft row_weight · residual² (for sufficient hard penalties)."""
        return float(self.row_weight @ self.max_residual**2)

    def bqm(self, penalties: Penalties) -> dimod.BinaryQuadraticModel:
        """The BQM `Σ_r W_r (C_r x + d_r)² + Σ_pairs W x_i x_j + c x + c0` for these weights."""
        W = np.where(self.soft, penalties.soft * self.row_weight, penalties.hard)
        WC = self.C.multiply(W[:, None]).tocsr()
        Q = (self.C.T @ WC).tocsr()
        linear = Q.diagonal() + 2 * (WC.T @ self.d) + self.c
        upper = sp.triu(Q, k=1).tocoo()
        pair_w = np.where(self.pair_soft, penalties.soft * self.pair_weight, penalties.hard)
        rows = np.concatenate([upper.row, self.pairs[:, 0]])
        cols = np.concatenate([upper.col, self.pairs[:, 1]])
        data = np.concatenate([2 * upper.data, pair_w])
        # Terms that cancel in exact arithmetic leave ~1e-17 residues; they are noise, not biases
        # (and they upset downstream tools such as Qiskit's transpiler), so they become exact zeros.
        noise = 1e-12 * max(np.abs(linear).max(initial=0), np.abs(data).max(initial=0))
        linear = np.where(np.abs(linear) < noise, 0.0, linear)
        keep = np.abs(data) >= noise
        rows, cols, data = rows[keep], cols[keep], data[keep]
        offset = float(self.d @ (W * self.d)) + self.c0
        return dimod.BinaryQuadraticModel.from_numpy_vectors(
            linear, (rows, cols, data), offset, dimod.BINARY, variable_order=self.labels
        )

    def encode(self, z: np.ndarray) -> np.ndarray:
        """Values of the binary form's variables -> QUBO samples (columns in `labels` order), the
        forward map of `decode`: each row's slack takes its best value, the one nearest to a zero
        residual (exactly zero when the row holds), so a feasible point gets no penalty."""
        z = np.atleast_2d(np.asarray(z, dtype=float))
        body = (self.C[:, : self.num_z] @ z.T).T  # A z per penalised row
        wanted = np.where(self.row_below, body - self.row_low, self.row_high - body)
        slack = np.clip(np.round(wanted), 0, self.row_span)
        bits = capped_binary_bits(slack, self.slack_owner, self.slack_position, self.slack_weight)
        return np.concatenate([z, bits], axis=1)

    def decode(self, samples: np.ndarray) -> np.ndarray:
        """QUBO samples (columns in `labels` order) -> values of the binary form's variables."""
        return np.atleast_2d(samples)[:, : self.num_z]

    def residuals(self, samples: np.ndarray) -> np.ndarray:
        """`C x + d` per penalised row for each sample (0 where the row is satisfied exactly)."""
        return (self.C @ np.atleast_2d(samples).T).T + self.d
