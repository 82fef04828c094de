"""Build the depth-one rule problems of `docs/formulations.md` as Pyomo models.

One builder serves the five operators: each operator is a table of row blocks (which samples,
whether the row counts true or false literals, and the coefficients of η, q and k), so a
formulation is stated once and every solver path (ILP, QUBO) starts from the same model.
Rows are built as `LinearExpression`s from a vectorised choice of `b_j` or `bt_j` per
sample (`t_i` has exactly one term per feature), which keeps Breast Cancer under 0.1 s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression

from ..exceptions import InputError
from ..metrics import balanced_sample_weight
from ..rules import OPERATORS, resolve_operator
from ..validation import (
    check_binary_labels,
    check_binary_matrix,
    check_bool,
    check_integer,
    check_number,
    check_sample_weight,
)
from .preselection import FEATURE_SCORES, select_features
from .problem import DepthOneProblem

__all__ = ["depth_one", "build_model", "RowBlock", "row_blocks"]


@dataclass(frozen=True)
class RowBlock:
    """One family of sample constraints: `count_i + eta·η_i + q·q_i + k·k` within [lower, upper].

    `samples` is "positive" or "negative"; `count` is "true" (t_i) or "false" (f_i = L - t_i).
    """

    name: str
    samples: str
    count: str
    eta: int
    q: int
    k: int
    lower: float | None
    upper: float | None


def row_blocks(operator: str, max_num_literals: int) -> list[RowBlock]:
    """The sample constraints of `operator` (the table in `docs/formulations.md`, "The five operators")."""
    M, M1 = max_num_literals, max_num_literals + 1
    table = {
        "Or": [
            RowBlock("positive_rows", "positive", "true", 1, 0, 0, 1, None),
            RowBlock("negative_rows", "negative", "true", -M, 0, 0, None, 0),
        ],
        "And": [
            RowBlock("positive_rows", "positive", "false", -M, 0, 0, None, 0),
            RowBlock("negative_rows", "negative", "false", 1, 0, 0, 1, None),
        ],
        "AtLeast": [
            RowBlock("positive_rows", "positive", "true", M, 0, -1, 0, None),
            RowBlock("negative_rows", "negative", "true", -M1, 0, -1, None, -1),
        ],
        "AtMost": [
            RowBlock("positive_rows", "positive", "true", -M, 0, -1, None, 0),
            RowBlock("negative_rows", "negative", "true", M1, 0, -1, 1, None),
        ],
        "Choose": [
            RowBlock("positive_at_least_k", "positive", "true", M, 0, -1, 0, None),
            RowBlock("positive_at_most_k", "positive", "true", -M, 0, -1, None, 0),
            RowBlock("negative_above_k", "negative", "true", M1, M1, -1, 1, None),
            RowBlock("negative_below_k", "negative", "true", -M1, M1, -1, None, M),
        ],
    }
    return table[operator]


def _weights(sample_weight, y: np.ndarray) -> np.ndarray:
    if isinstance(sample_weight, str):
        if sample_weight == "balanced":
            return balanced_sample_weight(y)
        if sample_weight == "uniform":
            return np.ones(len(y))
        raise InputError(f"sample_weight must be 'balanced', 'uniform' or an array, got {sample_weight!r}")
    return check_sample_weight(sample_weight, len(y))


def depth_one(
    X,
    y,
    operator,
    *,
    max_num_literals: int,
    min_num_literals: int = 0,
    lam: float = 0.0,
    sample_weight="balanced",
    negated: bool = False,
    exclusive_literals: bool = True,
    features: list[int] | np.ndarray | None = None,
    max_features: int | None = None,
    feature_score: str = "error",
    feature_names=None,
) -> DepthOneProblem:
    """The depth-one problem: choose literals (and k) under `operator` minimising Σ w_i η_i + λ L.

    `negated=True` solves for `~operator(...)` by flipping the labels (weights stay with their
    samples). `sample_weight` is "balanced" (weighted error = n (1 - balanced accuracy)),
    "uniform" or an array of per-sample weights. `features` (column indices of X) builds the
    problem on those columns only, and `max_features` on that many of them, the best on these rows
    by `feature_score` ("error" or "mutual_info", `preselection.py`), to fit a backend's size; the
    rules still name X's original columns (`problem.features`). `feature_names` (default: a
    DataFrame's column names) names X's columns: a `Result` of this problem prints its rule with them.
    """
    if feature_names is None and hasattr(X, "columns"):
        feature_names = X.columns
    X = check_binary_matrix(X)
    n, m = X.shape
    if feature_names is not None:
        feature_names = [str(name) for name in feature_names]
        if len(feature_names) != m:
            raise InputError(f"feature_names has {len(feature_names)} names but X has {m} columns")
    if n == 0 or m == 0:
        raise InputError(f"X must have at least one row and one column, got shape {X.shape}")
    y = check_binary_labels(y, "y", n)
    name = resolve_operator(operator).__name__
    weights = _weights(sample_weight, y)
    if feature_score not in FEATURE_SCORES:
        raise InputError(f"feature_score must be one of {', '.join(FEATURE_SCORES)}, got {feature_score!r}")
    kept = np.arange(m) if features is None else _check_features(features, m)
    if max_features is not None:
        kept = kept[select_features(X[:, kept], y, weights, max_features, feature_score)]
    kept = kept if len(kept) < m else None  # sorted and distinct: all m of them are X itself
    if kept is not None:
        if check_integer(max_num_literals, "max_num_literals", 1) > 2 * len(kept):
            raise InputError(f"max_num_literals ({max_num_literals}) must be <= {2 * len(kept)}, twice the "
                             f"{len(kept)} features kept (features, max_features)")
        X, m = X[:, kept], len(kept)
    max_lit = check_integer(max_num_literals, "max_num_literals", 1, 2 * m)
    min_lit = check_integer(min_num_literals, "min_num_literals", 0)
    if min_lit > max_lit:
        raise InputError(f"min_num_literals ({min_lit}) must not exceed max_num_literals ({max_lit})")
    if exclusive_literals and min_lit > m:
        raise InputError(f"min_num_literals ({min_lit}) exceeds the {m} features available with exclusive literals")
    lam = check_number(lam, "lam", 0)
    negated = check_bool(negated, "negated")
    exclusive_literals = check_bool(exclusive_literals, "exclusive_literals")
    return DepthOneProblem(
        X=X,
        y=y,
        operator=name,
        negated=bool(negated),
        max_num_literals=max_lit,
        min_num_literals=min_lit,
        lam=lam,
        weights=weights,
        exclusive_literals=bool(exclusive_literals),
        row_blocks=tuple(row_blocks(name, max_lit)),
        builder=build_model,
        features=kept,
        feature_names=feature_names,
    )


def _check_features(features, m: int) -> np.ndarray:
    """`features` as sorted distinct column indices of a matrix with `m` columns."""
    kept = np.asarray(features)
    if kept.ndim != 1 or kept.size == 0 or not np.issubdtype(kept.dtype, np.integer):
        raise InputError(f"features must be a non-empty list of column indices, got {features!r:.80}")
    if kept.min() < 0 or kept.max() >= m or len(np.unique(kept)) != len(kept):
        raise InputError(f"features must be distinct column indices in 0..{m - 1}, got {features!r:.80}")
    return np.sort(kept)


def build_model(problem: DepthOneProblem) -> pyo.ConcreteModel:
    """The Pyomo model of `problem` (`docs/formulations.md`, "The five operators"): built by
    `DepthOneProblem.model` on first access, so that a solver working on the arrays alone
    (`backends/native.py`) never pays for it."""
    X, name, negated, weights, lam = problem.X, problem.operator, problem.negated, problem.weights, problem.lam
    max_lit, min_lit = problem.max_num_literals, problem.min_num_literals
    n, m = X.shape
    target = problem.target
    model = pyo.ConcreteModel(name=f"depth_one_{'not_' if negated else ''}{name}")
    model.features = pyo.RangeSet(0, m - 1)
    model.samples = pyo.RangeSet(0, n - 1)
    model.b = pyo.Var(model.features, domain=pyo.Binary, doc="feature j is a literal of the rule")
    model.bt = pyo.Var(model.features, domain=pyo.Binary, doc="negated feature j is a literal")
    model.eta = pyo.Var(model.samples, domain=pyo.Binary, doc="sample i is misclassified")
    b = np.empty(m, dtype=object)
    b[:] = list(model.b.values())
    bt = np.empty(m, dtype=object)
    bt[:] = list(model.bt.values())
    eta = list(model.eta.values())
    literals = LinearExpression([*b, *bt])

    model.max_literals = pyo.Constraint(expr=literals <= max_lit)
    if min_lit > 0:
        model.min_literals = pyo.Constraint(expr=literals >= min_lit)
    if problem.exclusive_literals:
        model.exclusive_literals = pyo.Constraint(model.features, rule=lambda _, j: b[j] + bt[j] <= 1)

    parameterized = OPERATORS[name].parameterized
    if parameterized:
        model.k = pyo.Var(domain=pyo.NonNegativeIntegers, bounds=(0, max_lit), doc="operator parameter")
        model.k_at_most_literals = pyo.Constraint(expr=model.k - literals <= 0)
    blocks = problem.row_blocks
    model.positive_samples = pyo.Set(initialize=np.flatnonzero(target == 1).tolist(), doc="label 1 (after any flip)")
    model.negative_samples = pyo.Set(initialize=np.flatnonzero(target == 0).tolist(), doc="label 0 (after any flip)")
    if any(block.q for block in blocks):
        model.q = pyo.Var(model.negative_samples, domain=pyo.Binary, doc="count above k (0) or below k (1)")

    true_rows = np.where(X.astype(bool), b[None, :], bt[None, :])  # t_i: one term per feature
    false_rows = np.where(X.astype(bool), bt[None, :], b[None, :])  # f_i = L - t_i
    for block in blocks:
        samples = model.positive_samples if block.samples == "positive" else model.negative_samples
        rows = list(samples)
        terms = (true_rows if block.count == "true" else false_rows)[rows].tolist()
        bodies = {}
        for i, row_terms in zip(rows, terms):
            row_terms.append(MonomialTermExpression((block.eta, eta[i])))
            if block.q:
                row_terms.append(MonomialTermExpression((block.q, model.q[i])))
            if block.k:
                row_terms.append(MonomialTermExpression((block.k, model.k)))
            bodies[i] = LinearExpression(row_terms)
        rule = lambda _, i, bodies=bodies, block=block: (block.lower, bodies[i], block.upper)  # noqa: E731
        setattr(model, block.name, pyo.Constraint(samples, rule=rule))

    model.objective = pyo.Objective(
        expr=LinearExpression([MonomialTermExpression((float(w), e)) for w, e in zip(weights, eta)])
        + lam * literals,
        sense=pyo.minimize,
    )
    return model
