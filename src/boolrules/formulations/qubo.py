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

from ..exceptions import InputError
from .chain import Reduction
from .reductions import capped_binary_bits, capped_binary_weights, paired_offset_bits, paired_offset_weights
from .standard_form import StandardForm

__all__ = ["PenaltyQubo", "PenaltyForm", "SlackLayout", "Penalties", "SLACK_MODES", "UNBALANCED_RHO", "body_bounds"]

SLACK_MODES = ("minimal", "below", "above", "paired", "window", "unbalanced")
# slack="unbalanced": a one-sided sample row costs w·(h² - ρh)/(1 + ρ) at margin h (Montanez-Barrera
# et al., Quantum Sci. Technol. 9, 025022, 2024): w for a miss by one, 0 at h = 0, -w/3 at h = 1 and
# 0 at h = 2 with ρ = 2, the best of 1, 2, 3 on the issue-23 problems (benchmarks/studies/qubo-quality.md)
UNBALANCED_RHO = 2.0


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


def _effective_rows(form: StandardForm):
    """The rows every penalty mode starts from (slack recipe steps 1-2): parallel rows merged, tight
    body bounds `b_lo`, `b_hi`, effective bounds `low`, `high` (an error names a row that can never
    hold), `active` (not redundant: dropped otherwise) and `pair` (`x + y <= 1`: slack-free `x·y`)."""
    merged = _merge_parallel_rows(form)
    A, lower, upper, names = merged.A, merged.lower, merged.upper, merged.row_names
    b_lo, b_hi = body_bounds(merged)
    low = np.maximum(lower, b_lo)
    high = np.minimum(upper, b_hi)
    if (low > high + 1e-9).any():
        r = int(np.argmax(low > high + 1e-9))
        raise InputError(
            f"constraint {names[r]} can never be satisfied: its body ranges over [{b_lo[r]:g}, {b_hi[r]:g}] "
            f"but must lie in [{lower[r]:g}, {upper[r]:g}]"
        )
    active = ~((lower <= b_lo + 1e-9) & (upper >= b_hi - 1e-9))
    nnz = A.getnnz(axis=1)
    ones = np.zeros(A.shape[0], dtype=np.int64)  # coefficients equal to 1 per row
    np.add.at(ones, np.repeat(np.arange(A.shape[0]), nnz), A.data == 1)
    pair = active & (nnz == 2) & (ones == 2) & (np.round(high) == 1) & (lower <= b_lo + 1e-9)
    return merged, b_lo, b_hi, low, high, active, pair


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
    # slack="paired": the offsets' encoding (`reductions.paired_offset_weights`) and the binary
    # form's columns kept (the η of samples whose error became a row's own penalty are dropped).
    paired: bool = False
    keep: np.ndarray | None = None
    window: Window | None = None


@dataclass(frozen=True, eq=False)
class Window:
    """slack="window": the error windows of the penalised rows `rows` (indices among the quadratic
    rows, all penalised from below). A row deep below its bound gets an error bit `e` that moves
    its pair two steps down (o = -2 - p, p a paired offset over `below_span`), one deep above it an
    error bit that moves it past its range (o = span + 1 + p over `above_span`); the p bits are
    gated by their e. Then come the error bits of the product rows made from linear ones
    (`prod_rows`, indices among the product rows). Column order after the slack bits: e below, p
    below, e above, p above, e of the products."""

    rows: np.ndarray
    below_rows: np.ndarray
    below_span: np.ndarray
    below_bits: tuple
    above_rows: np.ndarray
    above_span: np.ndarray
    above_bits: tuple
    prod_body: sp.csr_matrix
    prod_bound: np.ndarray


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

    # slack="paired" only (empty otherwise): each quadratic row's penalty is scaled by `scale` and
    # reduced by `linear_part` times its residual (`W·scale·(r² - linear_part·r)`); `fixed` rows cost
    # their `row_weight` whatever the penalties (a sample's error itself). Linear rows cost
    # `W·(lin_C x + lin_d)`, product rows `W·(prod_C x + prod_d)·(1 - x[prod_eta])`.
    scale: np.ndarray | None = None
    linear_part: np.ndarray | None = None
    fixed: np.ndarray | None = None
    lin_C: sp.csr_matrix | None = None
    lin_d: np.ndarray | None = None
    lin_soft: np.ndarray | None = None
    lin_weight: np.ndarray | None = None
    lin_fixed: np.ndarray | None = None
    prod_C: sp.csr_matrix | None = None
    prod_d: np.ndarray | None = None
    prod_eta: np.ndarray | None = None
    prod_weight: np.ndarray | None = None
    prod_fixed: np.ndarray | None = None
    # slack="unbalanced": the lowest penalty of each quadratic row per unit weight (< 0 where the
    # row rewards a margin, 0 elsewhere): what sufficient hard weights must make up for
    reward_floor: np.ndarray | None = None

    def soft_floor(self, penalties: Penalties) -> float:
        """The lowest total the soft rows' penalties can reach (0 unless rows reward margins)."""
        if self.reward_floor is None:
            return 0.0
        W = self._weights(self.soft, self.row_weight, self.fixed, penalties)
        return float(W @ self.reward_floor)

    def max_soft_penalty(self) -> float:
        """An upper bound on Σ_soft row_weight · residual² (for sufficient hard penalties)."""
        return float(self.row_weight @ self.max_residual**2)

    def _weights(self, soft, row_weight, fixed, penalties: Penalties) -> np.ndarray:
        W = np.where(soft, penalties.soft * row_weight, penalties.hard)
        return W if fixed is None else np.where(fixed, row_weight, W)

    def bqm(self, penalties: Penalties) -> dimod.BinaryQuadraticModel:
        """The BQM `Σ_r W_r (C_r x + d_r)² + Σ_pairs W x_i x_j + c x + c0` for these weights (and,
        with slack="paired", the scaled and linear parts, linear rows and product rows)."""
        W = self._weights(self.soft, self.row_weight, self.fixed, penalties)
        if self.scale is not None:
            W = W * self.scale
        WC = self.C.multiply(W[:, None]).tocsr()
        Q = (self.C.T @ WC).tocsr()
        linear = Q.diagonal() + 2 * (WC.T @ self.d) + self.c
        offset = float(self.d @ (W * self.d)) + self.c0
        upper = sp.triu(Q, k=1).tocoo()
        pair_w = np.where(self.pair_soft, penalties.soft * self.pair_weight, penalties.hard)
        rows = [upper.row, self.pairs[:, 0]]
        cols = [upper.col, self.pairs[:, 1]]
        data = [2 * upper.data, pair_w]
        if self.linear_part is not None:
            Wp = W * self.linear_part
            linear = linear - self.C.T @ Wp
            offset -= float(Wp @ self.d)
        if self.lin_C is not None and self.lin_C.shape[0]:
            Wl = self._weights(self.lin_soft, self.lin_weight, self.lin_fixed, penalties)
            linear = linear + self.lin_C.T @ Wl
            offset += float(Wl @ self.lin_d)
        if self.prod_C is not None and self.prod_C.shape[0]:
            Wx = penalties.soft * self.prod_weight
            if self.prod_fixed is not None:
                Wx = np.where(self.prod_fixed, self.prod_weight, Wx)
            linear = linear + self.prod_C.T @ Wx
            np.add.at(linear, self.prod_eta, -Wx * self.prod_d)
            offset += float(Wx @ self.prod_d)
            P = self.prod_C.tocoo()
            eta = self.prod_eta[P.row]
            rows.append(np.minimum(P.col, eta))
            cols.append(np.maximum(P.col, eta))
            data.append(-Wx[P.row] * P.data)
        n = len(self.labels)
        coupling = sp.csr_matrix((np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
        coupling.sum_duplicates()
        coupling = coupling.tocoo()
        rows, cols, data = coupling.row, coupling.col, coupling.data
        # Terms that cancel in exact arithmetic leave ~1e-17 residues; they are noise, not biases
        # (and they upset downstream tools such as Qiskit's transpiler), so they become exact zeros.
        noise = 1e-12 * max(np.abs(linear).max(initial=0), np.abs(data).max(initial=0))
        linear = np.where(np.abs(linear) < noise, 0.0, linear)
        keep = np.abs(data) >= noise
        rows, cols, data = rows[keep], cols[keep], data[keep]
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
    hard. `slack`: "paired" (the default) pair penalties with offsets and slack-free error and
    product rows (`_apply_paired`), "window" the same with error windows, "unbalanced" the same
    with slack-free one-sided sample rows that reward a margin (`UNBALANCED_RHO`); "minimal" binary
    slack from the bound of smaller magnitude (the paper's recipe), "below" or "above" always from that side.
    """

    slack: str = "paired"

    def __post_init__(self):
        if self.slack not in SLACK_MODES:
            raise InputError(f"slack must be one of {', '.join(SLACK_MODES)}, got {self.slack!r}")

    def apply(self, form: StandardForm) -> tuple[PenaltyForm, SlackLayout]:
        if self.slack in ("paired", "window", "unbalanced"):
            return _apply_paired(form, window=self.slack == "window", unbalanced=self.slack == "unbalanced")
        merged, b_lo, b_hi, low, high, active, pair = _effective_rows(form)
        A, names = merged.A, merged.row_names
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
        """QUBO samples (columns in `labels` order) -> values of the binary form's variables (a
        dropped η, slack="paired", is 0: its sample's error is its row's own penalty)."""
        samples = np.atleast_2d(samples)
        if layout.keep is None:
            return samples[:, : layout.num_vars]
        full = np.zeros((samples.shape[0], layout.num_vars), dtype=samples.dtype)
        full[:, layout.keep] = samples[:, : int(layout.keep.sum())]
        return full

    def encode(self, z: np.ndarray, layout: SlackLayout) -> np.ndarray:
        """Values of the binary form's variables -> QUBO samples (columns in `labels` order): each
        row's slack takes its best value, the one nearest to a zero residual (exactly zero when
        the row holds), so a feasible point gets no penalty."""
        z = np.atleast_2d(np.asarray(z, dtype=float))
        if layout.keep is not None:
            z = z[:, layout.keep]
        body = (layout.body @ z.T).T
        wanted = np.where(layout.below, body - layout.low, layout.high - body)
        window = layout.window
        if window is not None:  # a row above its range uses its window: no offset of its own
            beyond = np.zeros_like(wanted, dtype=bool)
            beyond[:, window.above_rows] = wanted[:, window.above_rows] > layout.span[window.above_rows]
            wanted = np.where(beyond, 0, wanted)
        slack = np.clip(np.round(wanted), 0, layout.span)
        encode = paired_offset_bits if layout.paired else capped_binary_bits
        bits = encode(slack, layout.owner, layout.position, layout.weight)
        parts = [z, bits]
        if window is not None:
            rho = body - layout.low  # window rows are penalised from below
            lo = rho[:, window.below_rows]
            e_lo = lo < 0
            nu = np.where(e_lo, np.clip(-1 - lo, 0, window.below_span), 0)
            hi = rho[:, window.above_rows]
            e_hi = hi > layout.span[window.above_rows]
            mu = np.where(e_hi, np.clip(hi - layout.span[window.above_rows] - 1, 0, window.above_span), 0)
            prod = (window.prod_body @ z.T).T - window.prod_bound
            parts += [e_lo.astype(np.int8), paired_offset_bits(nu, *window.below_bits),
                      e_hi.astype(np.int8), paired_offset_bits(mu, *window.above_bits),
                      (np.abs(prod) > 1e-9).astype(np.int8)]
        return np.concatenate(parts, axis=1)


def _apply_paired(form: StandardForm, window: bool = False, unbalanced: bool = False) -> tuple[PenaltyForm, SlackLayout]:
    """`PenaltyQubo("paired")` (`docs/formulations.md`, "Paired slack"): every row is penalised with
    the smallest violation costing exactly its weight W (soft·w_i, hard, or w_i for an error row):

    - *error rows*: a sample with a single row whose only possible violation is a residual of 1
      (Or's and And's covering rows `t_i + η_i >= 1`, and any such row without η) loses its η:
      the row's penalty, weight w_i, is the sample's error itself;
    - *product rows*: `body - M·η_i <= u` with `body >= u` always and `body - M <= u`: the
      slack-free `W·(body - u)·(1 - η_i)` (Or's negatives, And's positives), and the mirror;
    - *linear rows*: a row whose only allowed value is a bound of its body: `W·(body - bound)`
      (sign as needed), no slack and no quadratic terms;
    - *paired rows*: the rest with span >= 1: `W/2·r·(r - 1)` with `r = body - low - o` (or
      `high - body - o`, the minimal-bound side), `o` in the offsets of `paired_offset_weights`:
      zero when body is o or o + 1 from the bound, so moving one step needs no slack flip half
      the time, and one bit fewer than binary slack;
    - equalities inside their body's range: `W·r²`; `x + y <= 1`: `W·x·y` (as the other modes);
    - `unbalanced`: a sample row without η bounded on one side only (AtLeast's and AtMost's rows)
      has no offset: `W·(h² - ρh)/(1 + ρ)` with h its margin from the bound (no slack bit to follow
      the body; heuristic: it rewards margins, so a valid rule costs its surrogate objective).
    """
    merged, b_lo, b_hi, low, high, active, pair = _effective_rows(form)
    A, lower, upper, names = merged.A.tocsr(), merged.lower, merged.upper, merged.row_names
    soft = merged.row_sample >= 0
    sample = merged.row_sample
    # η of each row (at most one: its sample's), its coefficient, and the rest of the body's range
    eta_cols = np.flatnonzero(form.col_block == "eta")
    E = A[:, eta_cols].tocsr()
    a_eta = np.asarray(E.sum(axis=1)).ravel()
    has_eta = E.getnnz(axis=1) > 0
    eta_of_row = np.full(A.shape[0], -1)
    eta_of_row[has_eta] = eta_cols[E.indices[E.indptr[:-1][has_eta]]]
    rest_lo = b_lo - np.minimum(a_eta, 0)
    rest_hi = b_hi - np.maximum(a_eta, 0)
    # bounds that hold in every state, hard rows broken or not (a cardinality group's bound need not):
    # linear and product penalties must stay >= 0 everywhere, or a state breaking hard rows could
    # earn more from them than its hard penalty costs
    any_lo = np.asarray(A.minimum(0).sum(axis=1)).ravel() - np.minimum(a_eta, 0)
    any_hi = np.asarray(A.maximum(0).sum(axis=1)).ravel() - np.maximum(a_eta, 0)
    tol = 1e-9
    penalised = active & ~pair
    # error rows: the sample's only penalised row, violated only by a residual of 1 once η is 0
    rows_per_sample = np.bincount(sample[penalised & soft], minlength=max(int(sample.max(initial=-1)) + 1, 1))
    single = soft & penalised & (rows_per_sample[np.maximum(sample, 0)] == 1)
    cover_up = (a_eta >= 0) & (np.abs(rest_lo - (lower - 1)) < tol) & (upper >= rest_hi - tol)
    cover_down = (a_eta <= 0) & (np.abs(rest_hi - (upper + 1)) < tol) & (lower <= rest_lo + tol)
    error = single & (cover_up | cover_down)
    # product rows: body - M η <= u with body >= u (or the mirror), η = 1 always satisfying the row
    prod_up = (soft & penalised & ~error & has_eta & (a_eta < 0) & np.isfinite(upper) & (lower <= b_lo + tol)
               & (any_lo >= upper - tol) & (rest_hi + a_eta <= upper + tol))
    prod_down = (soft & penalised & ~error & has_eta & (a_eta > 0) & np.isfinite(lower) & (upper >= b_hi - tol)
                 & (any_hi <= lower + tol) & (rest_lo + a_eta >= lower - tol))
    product = prod_up | prod_down
    # the η of error rows are dropped, with their objective terms (the row's penalty is the error)
    dropped = np.zeros(form.num_vars, dtype=bool)
    dropped[eta_of_row[error & has_eta]] = True
    keep = ~dropped
    A_rest = A.multiply(np.where(np.isin(np.arange(form.num_vars), eta_cols), 0.0, 1.0)[None, :]).tocsr()
    A_rest.eliminate_zeros()
    # bounds of the error rows without their η
    low = np.where(error & has_eta, np.maximum(lower, rest_lo), low)
    high = np.where(error & has_eta, np.minimum(upper, rest_hi), high)
    body_lo = np.where(error & has_eta, rest_lo, b_lo)
    body_hi = np.where(error & has_eta, rest_hi, b_hi)
    body_all = _rows_without(A, A_rest, error & has_eta)[:, keep]
    # kinds of the remaining rows
    span = np.round(high - low).astype(np.int64)
    quad_rows = penalised & ~product
    at_bottom = (span == 0) & (np.abs(low - body_lo) < tol) & (np.abs(low - any_lo) < tol)
    at_top = (span == 0) & (np.abs(high - body_hi) < tol) & (np.abs(high - any_hi) < tol) & ~at_bottom
    linear_rows = quad_rows & (at_bottom | at_top)
    quad_rows &= ~linear_rows
    row_weight = merged.row_weight
    # objective: c without the dropped η (their error is now their row's penalty)
    c = form.c[keep]
    fixed_rows = error.copy()
    new_products = np.zeros(A.shape[0], dtype=bool)
    if window:
        # slack="window": a sample row without η costs exactly w_i when broken, however deep
        free_soft = soft & ~has_eta & penalised
        fixed_rows |= free_soft & quad_rows
        # a linear sample row that can break by more than one unit becomes a product with a new error bit
        new_products = free_soft & linear_rows & (body_hi - body_lo >= 2)
        linear_rows &= ~new_products
    # quadratic rows (paired when span >= 1, squared when 0)
    rows = np.flatnonzero(quad_rows)
    q_low, q_high, q_span = low[rows], high[rows], span[rows]
    below = np.abs(q_low) <= np.abs(q_high)
    windowed = (fixed_rows[rows] & soft[rows] & ~has_eta[rows] & (q_span >= 1)) if window else np.zeros(len(rows), bool)
    below = below | windowed
    tilted = np.zeros(len(rows), dtype=bool)
    if unbalanced:
        from_below = np.abs(q_high - body_hi[rows]) < tol  # nothing above the body's top: only `low` can break
        from_above = (np.abs(q_low - body_lo[rows]) < tol) & ~from_below
        tilted = soft[rows] & ~has_eta[rows] & ~fixed_rows[rows] & (q_span >= 1) & (from_below | from_above)
        below = np.where(tilted, from_below, below)
    owner, position, weight = paired_offset_weights(np.where(tilted, 0, q_span))
    sign = np.where(below[owner], -1.0, 1.0)
    slack_part = sp.csr_matrix((sign * weight, (owner, np.arange(len(owner)))), shape=(len(rows), len(owner)))
    body = body_all[rows]
    is_paired = (q_span >= 1) & ~tilted
    row_names = [names[r] for r in rows]
    r_hi = np.where(below, body_hi[rows] - q_low, q_high - body_lo[rows])  # largest residual, o = 0
    o_max = np.where(tilted, 0, np.maximum(q_span - 1, 0))
    r_lo = np.where(below, body_lo[rows] - q_low - o_max, q_high - body_hi[rows] - o_max)
    max_residual = np.maximum(np.abs(r_hi), np.abs(r_lo))
    # linear rows: W·(body - bound) at the bottom, W·(bound - body) at the top
    lrows = np.flatnonzero(linear_rows)
    lsign = np.where(at_bottom[lrows], 1.0, -1.0)
    lin_C = body_all[lrows].multiply(lsign[:, None]).tocsr()
    lin_d = -lsign * low[lrows]
    # product rows: W·(s·body_rest - s·bound)·(1 - η)
    prows = np.flatnonzero(product)
    psign = np.where(prod_up[prows], 1.0, -1.0)
    pbound = np.where(prod_up[prows], upper[prows], lower[prows])
    prod_C = A_rest[prows][:, keep].multiply(psign[:, None]).tocsr()
    prod_d = -psign * pbound
    new_index = np.cumsum(keep) - 1
    prod_eta = new_index[eta_of_row[prows]]
    prod_weight = row_weight[prows]
    prod_fixed = np.zeros(len(prows), dtype=bool)
    pair_rows = np.flatnonzero(pair)
    kept_cols = np.flatnonzero(keep)
    pairs = new_index[A[pair_rows].tocsr().indices.reshape(-1, 2)]
    labels = [form.var_names[j] for j in kept_cols]
    num_kept = int(keep.sum())
    extra_labels, extra_blocks, extra_c = [], [], []
    C = sp.hstack([body, slack_part], format="csr")
    win = None
    if window:
        C, win, prod, extra = _windows(C, rows, windowed, q_low, q_span, body_lo[rows], body_hi[rows], row_weight[rows],
                                       num_kept + len(owner), [names[r] for r in rows], merged.row_block[rows],
                                       body_all[new_products], body_lo[new_products], body_hi[new_products],
                                       low[new_products], at_bottom[new_products], row_weight[new_products],
                                       [names[r] for r in np.flatnonzero(new_products)],
                                       merged.row_block[new_products])
        extra_labels, extra_blocks, extra_c = extra
        total = num_kept + len(owner) + len(extra_labels)
        prod_C = sp.vstack([_padded(prod_C, total - prod_C.shape[1]), prod[0]], format="csr")
        prod_d = np.concatenate([prod_d, prod[1]])
        prod_eta = np.concatenate([prod_eta, prod[2]]).astype(np.int64)
        prod_weight = np.concatenate([prod_weight, prod[3]])
        prod_fixed = np.concatenate([prod_fixed, prod[4]])
        lin_C = _padded(lin_C, num_kept + len(owner) - lin_C.shape[1])
    layout = SlackLayout(form.num_vars, body, q_low, q_high, below, q_span, owner, position, weight, paired=True,
                         keep=keep, window=win)
    total = num_kept + len(owner) + len(extra_labels)
    penalty_form = PenaltyForm(
        C=_padded(C, total - C.shape[1]),
        d=-np.where(below, q_low, q_high),
        soft=soft[rows],
        row_weight=row_weight[rows],
        row_names=row_names,
        max_residual=max_residual,
        pairs=pairs,
        pair_weight=row_weight[pair_rows],
        pair_soft=soft[pair_rows],
        c=np.concatenate([c, np.zeros(len(owner)), np.asarray(extra_c, dtype=float)]),
        c0=form.c0,
        labels=labels + [f"s[{row_names[r]}]#{p}" for r, p in zip(owner.tolist(), position.tolist())] + extra_labels,
        label_block=np.concatenate([form.col_block[keep], np.char.add("slack ", merged.row_block[rows][owner]),
                                    np.asarray(extra_blocks, dtype=str)]),
        slack=layout,
        scale=np.where(tilted, 1.0 / (1.0 + UNBALANCED_RHO), np.where(is_paired, 0.5, 1.0)),
        # r(r - 1) from below, r(r + 1) from above; unbalanced r(r - ρ), r(r + ρ)
        linear_part=np.where(below, 1.0, -1.0) * np.where(tilted, UNBALANCED_RHO, is_paired),
        fixed=fixed_rows[rows],
        lin_C=_padded(lin_C, total - lin_C.shape[1]),
        lin_d=lin_d,
        lin_soft=soft[lrows],
        lin_weight=row_weight[lrows],
        lin_fixed=fixed_rows[lrows],
        prod_C=_padded(prod_C, total - prod_C.shape[1]),
        prod_d=prod_d,
        prod_eta=prod_eta,
        prod_weight=prod_weight,
        prod_fixed=prod_fixed,
        reward_floor=np.where(tilted, _reward_floor(q_span), 0.0) if unbalanced else None,
    )
    return penalty_form, layout


def _reward_floor(span: np.ndarray) -> np.ndarray:
    """The lowest `(h² - ρh)/(1 + ρ)` over the integer margins h in 0..span (the unbalanced rows')."""
    h = np.clip(np.round(UNBALANCED_RHO / 2), 0, span)
    return (h * h - UNBALANCED_RHO * h) / (1.0 + UNBALANCED_RHO)


def _rows_without(A: sp.csr_matrix, A_rest: sp.csr_matrix, mask: np.ndarray) -> sp.csr_matrix:
    """A with the rows of `mask` taken from `A_rest` (their η removed)."""
    D = sp.diags(mask.astype(float))
    K = sp.diags((~mask).astype(float))
    return (K @ A + D @ A_rest).tocsr()


def _padded(M: sp.csr_matrix, extra: int) -> sp.csr_matrix:
    """M with `extra` zero columns appended (the slack bits, which linear and product rows lack)."""
    return sp.hstack([M, sp.csr_matrix((M.shape[0], extra))], format="csr")


def _windows(C, rows, windowed, low, span, body_lo, body_hi, weight, first, names, blocks,
             pbody, pbody_lo, pbody_hi, plow, pbottom, pweight, pnames, pblocks):
    """The error windows of slack="window" (see `Window`): new columns from `first` on, their
    entries in the quadratic rows' matrix `C`, the gating and new product rows, and the labels,
    blocks and objective (w_i per error bit) of the new columns."""
    q = len(rows)
    depth_lo = np.round(low - body_lo).astype(np.int64)  # how far below its bound a body can go
    depth_hi = np.round(body_hi - low - span).astype(np.int64)
    below_rows = np.flatnonzero(windowed & (depth_lo >= 2))
    above_rows = np.flatnonzero(windowed & (depth_hi >= 2))
    below_span, above_span = depth_lo[below_rows] - 1, depth_hi[above_rows] - 1
    b_owner, b_pos, b_w = paired_offset_weights(below_span)
    a_owner, a_pos, a_w = paired_offset_weights(above_span)
    nb, na = len(below_rows), len(above_rows)
    cols_e_lo = first + np.arange(nb)
    cols_p_lo = first + nb + np.arange(len(b_owner))
    cols_e_hi = first + nb + len(b_owner) + np.arange(na)
    cols_p_hi = first + nb + len(b_owner) + na + np.arange(len(a_owner))
    first_prod = first + nb + len(b_owner) + na + len(a_owner)
    np_rows = pbody.shape[0]
    cols_e_prod = first_prod + np.arange(np_rows)
    total = first_prod + np_rows
    # r = body - low - o with o = -2 e_lo - p_lo (below) or (span + 1) e_hi + p_hi (above)
    entries = [
        (below_rows, cols_e_lo, np.full(nb, 2.0)),
        (below_rows[b_owner], cols_p_lo, b_w.astype(float)),
        (above_rows, cols_e_hi, -(span[above_rows] + 1.0)),
        (above_rows[a_owner], cols_p_hi, -a_w.astype(float)),
    ]
    r_idx = np.concatenate([e[0] for e in entries])
    c_idx = np.concatenate([e[1] for e in entries])
    vals = np.concatenate([e[2] for e in entries])
    C = sp.hstack([C, sp.csr_matrix((C.shape[0], total - C.shape[1]))], format="csr")
    C = (C + sp.csr_matrix((vals, (r_idx, c_idx)), shape=C.shape)).tocsr()
    # gating: each p bit costs w while its e is 0 (a product row p·(1 - e)); new products: the
    # linear row's body - bound, times (1 - e), with e costing w
    gate_cols = np.concatenate([cols_p_lo, cols_p_hi])
    gate_eta = np.concatenate([cols_e_lo[b_owner], cols_e_hi[a_owner]])
    gate_w = np.concatenate([weight[below_rows][b_owner], weight[above_rows][a_owner]])
    G = sp.csr_matrix((np.ones(len(gate_cols)), (np.arange(len(gate_cols)), gate_cols)), shape=(len(gate_cols), total))
    psign = np.where(pbottom, 1.0, -1.0)
    P = _padded(pbody.multiply(psign[:, None]).tocsr(), total - pbody.shape[1])
    prod = (sp.vstack([G, P], format="csr"), np.concatenate([np.zeros(len(gate_cols)), -psign * plow]),
            np.concatenate([gate_eta, cols_e_prod]), np.concatenate([gate_w, pweight]),
            np.concatenate([np.ones(len(gate_cols), bool), np.zeros(np_rows, bool)]))
    labels = ([f"e[{names[r]}]#below" for r in below_rows] + [f"s[{names[below_rows[o]]}]#below{p}" for o, p in zip(b_owner, b_pos)]
              + [f"e[{names[r]}]#above" for r in above_rows] + [f"s[{names[above_rows[o]]}]#above{p}" for o, p in zip(a_owner, a_pos)]
              + [f"e[{name}]" for name in pnames])
    label_blocks = ([f"slack error {blocks[r]}" for r in below_rows] + [f"slack window {blocks[below_rows[o]]}" for o in b_owner]
                    + [f"slack error {blocks[r]}" for r in above_rows] + [f"slack window {blocks[above_rows[o]]}" for o in a_owner]
                    + [f"slack error {block}" for block in pblocks])
    objective = np.concatenate([weight[below_rows], np.zeros(len(b_owner)), weight[above_rows], np.zeros(len(a_owner)), pweight])
    win = Window(rows=np.flatnonzero(windowed), below_rows=below_rows, below_span=below_span,
                 below_bits=(b_owner, b_pos, b_w), above_rows=above_rows, above_span=above_span,
                 above_bits=(a_owner, a_pos, a_w), prod_body=pbody, prod_bound=plow)
    return C, win, prod, (labels, label_blocks, objective)
