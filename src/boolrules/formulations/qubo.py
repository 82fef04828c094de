"""The last reduction of the QUBO chain: a standard form over binaries -> the penalty QUBO, with the
minimal-bound slack recipe.

`docs/formulations.md`, "ILP → QUBO": tight body bounds from the model's cardinality structure,
effective bounds, equality detection, dropped redundant rows, merged parallel rows, capped
binary slacks, the minimal-bound side per row, slack-free `P·x·y` for `x + y <= 1`, and the
penalty `Σ_r W_r (C_r x + d_r)²` assembled as `Cᵀ W C` with sparse matrix algebra.
`PenaltyQubo.apply` returns the `PenaltyForm` (its `bqm(penalties)` gives a dimod BQM for any
weights without recompiling) and the `SlackLayout` that `invert` and `encode` use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import dimod
import numpy as np
import scipy.sparse as sp

from .chain import Reduction
from .reductions import capped_binary_bits, capped_binary_weights
from .standard_form import StandardForm

__all__ = ["PenaltyQubo", "PenaltyForm", "SlackLayout", "Penalties", "SLACK_MODES", "body_bounds"]

SLACK_MODES = ("minimal", "below", "above")


@dataclass(frozen=True)
class Penalties:
    """Penalty weights: a soft (sample) row r costs `soft * row_weight[r] * residual²`, a hard row
    `hard * residual²`."""

    soft: float
    hard: float


def body_bounds(form: StandardForm) -> tuple[np.ndarray, np.ndarray]:
    """Smallest and largest value each row's body can take over binary variables, with each
    cardinality group (`form.col_group`) contributing at most its `group_bound` largest (smallest)
    coefficients. A group does not bound the rows that define it (`form.row_group`)."""
    A = form.A.tocsc()
    in_group = form.col_group >= 0
    free = A[:, ~in_group]
    lo = np.asarray(free.minimum(0).sum(axis=1)).ravel()
    hi = np.asarray(free.maximum(0).sum(axis=1)).ravel()
    for g, bound in enumerate(form.group_bound):
        members = np.flatnonzero(form.col_group == g)
        block = A[:, members].toarray()
        count = int(min(bound, len(members)))
        top = -np.partition(-block, count - 1, axis=1)[:, :count].sum(axis=1) if count else 0.0
        bottom = np.partition(block, count - 1, axis=1)[:, :count].sum(axis=1) if count else 0.0
        own = form.row_group == g
        hi += np.where(own, np.maximum(block, 0).sum(axis=1), np.maximum(top, 0) if count else 0.0)
        lo += np.where(own, np.minimum(block, 0).sum(axis=1), np.minimum(bottom, 0) if count else 0.0)
    return lo, hi


def _merge_parallel_rows(form: StandardForm) -> StandardForm:
    """Rows with identical coefficients and the same owner (hard, or the same sample) become one
    row with the intersected bounds: e.g. `L >= m_min` and `L <= m'`, or a sample's two Choose
    rows once η is gone. Rows of different samples are never merged. A merged row keeps the
    block and index of its first row."""
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
    row_group = np.full(A.shape[0], -1)
    np.maximum.at(row_group, rep, form.row_group)
    return replace(
        form,
        A=A[keep],
        lower=lower[keep],
        upper=upper[keep],
        row_names=[form.row_names[r] for r in keep],
        row_block=form.row_block[keep],
        row_index=form.row_index[keep],
        row_sample=form.row_sample[keep],
        row_weight=weight[keep],
        row_group=row_group[keep],
    )


@dataclass(frozen=True, eq=False)
class SlackLayout:
    """Where the slack bits of the penalised rows sit and what they encode (the inverse data of
    `PenaltyQubo`): the first `num_vars` QUBO variables are the binary form's, then the capped
    binary bits (owner row, position, weight) of each row's slack in [0, span]; a row's body is
    `body @ z`, its effective bounds [low, high], penalised from below (`below`) or above."""

    num_vars: int
    body: sp.csr_matrix
    low: np.ndarray
    high: np.ndarray
    below: np.ndarray
    span: np.ndarray
    owner: np.ndarray
    position: np.ndarray
    weight: np.ndarray


@dataclass(frozen=True, eq=False)
class PenaltyForm:
    """The penalty QUBO `Σ_r W_r (C_r x + d_r)² + Σ_pairs W x_i x_j + c x + c0` over `labels`.

    Penalised rows: soft (a sample's, weight `row_weight` times the soft penalty) or hard; their
    names (`row_names`) and the largest residual each can reach (`max_residual`). `pairs` are the
    slack-free `x_i + x_j <= 1` rows. `label_block[v]` is the block of variable v: its model
    block ("b", "eta", "k", ...) or "slack <row block>" for a slack bit.
    """

    C: sp.csr_matrix
    d: np.ndarray
    soft: np.ndarray
    row_weight: np.ndarray
    row_names: list[str]
    max_residual: np.ndarray
    pairs: np.ndarray
    pair_weight: np.ndarray
    pair_soft: np.ndarray
    c: np.ndarray
    c0: float
    labels: list[str]
    label_block: np.ndarray
    slack: SlackLayout

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

    def residuals(self, samples: np.ndarray) -> np.ndarray:
        """`C x + d` per penalised row for each sample (0 where the row is satisfied exactly)."""
        return (self.C @ np.atleast_2d(samples).T).T + self.d


@dataclass(frozen=True)
class PenaltyQubo(Reduction):
    """A standard form over binaries -> its `PenaltyForm` (slack bits added), inverse `SlackLayout`.

    Soft rows are those of a sample (`row_sample >= 0`), weighted by `row_weight`; all others are
    hard. `slack`: "minimal" penalises each row from the bound of smaller magnitude, "below" or
    "above" always from that side.
    """

    slack: str = "minimal"

    def __post_init__(self):
        if self.slack not in SLACK_MODES:
            raise ValueError(f"slack must be one of {', '.join(SLACK_MODES)}, got {self.slack!r}")

    def apply(self, form: StandardForm) -> tuple[PenaltyForm, SlackLayout]:
        merged = _merge_parallel_rows(form)
        A, lower, upper, names = merged.A, merged.lower, merged.upper, merged.row_names
        b_lo, b_hi = body_bounds(merged)
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
        rows = np.flatnonzero(active & ~pair)
        low, high = low[rows], high[rows]
        b_lo, b_hi = b_lo[rows], b_hi[rows]
        span = np.round(high - low).astype(np.int64)
        if self.slack == "minimal":
            below = np.abs(low) <= np.abs(high)
        else:
            below = np.full(len(rows), self.slack == "below")
        owner, position, weight = capped_binary_weights(span)
        sign = np.where(below[owner], -1.0, 1.0)
        slack_part = sp.csr_matrix((sign * weight, (owner, np.arange(len(owner)))), shape=(len(rows), len(owner)))
        body = A[rows]
        soft = merged.row_sample >= 0
        row_names = [names[r] for r in rows]
        pair_rows = np.flatnonzero(pair)
        layout = SlackLayout(form.num_vars, body, low, high, below, span, owner, position, weight)
        penalty_form = PenaltyForm(
            C=sp.hstack([body, slack_part], format="csr"),
            d=-np.where(below, low, high),
            soft=soft[rows],
            row_weight=merged.row_weight[rows],
            row_names=row_names,
            # Largest |residual| per row: body in [b_lo, b_hi], slack in [0, span].
            max_residual=np.where(
                below, np.maximum(b_hi - low, low + span - b_lo), np.maximum(high - b_lo, b_hi - high + span)
            ),
            pairs=A[pair_rows].tocsr().indices.reshape(-1, 2),
            pair_weight=merged.row_weight[pair_rows],
            pair_soft=soft[pair_rows],
            c=np.concatenate([form.c, np.zeros(len(owner))]),
            c0=form.c0,
            labels=list(form.var_names)
            + [f"s[{row_names[r]}]#{p}" for r, p in zip(owner.tolist(), position.tolist())],
            label_block=np.concatenate([form.col_block, np.char.add("slack ", merged.row_block[rows][owner])]),
            slack=layout,
        )
        return penalty_form, layout

    def invert(self, samples: np.ndarray, layout: SlackLayout) -> np.ndarray:
        """QUBO samples (columns in `labels` order) -> values of the binary form's variables."""
        return np.atleast_2d(samples)[:, : layout.num_vars]

    def encode(self, z: np.ndarray, layout: SlackLayout) -> np.ndarray:
        """Values of the binary form's variables -> QUBO samples (columns in `labels` order): each
        row's slack takes its best value, the one nearest to a zero residual (exactly zero when
        the row holds), so a feasible point gets no penalty."""
        z = np.atleast_2d(np.asarray(z, dtype=float))
        body = (layout.body @ z.T).T
        wanted = np.where(layout.below, body - layout.low, layout.high - body)
        slack = np.clip(np.round(wanted), 0, layout.span)
        bits = capped_binary_bits(slack, layout.owner, layout.position, layout.weight)
        return np.concatenate([z, bits], axis=1)
