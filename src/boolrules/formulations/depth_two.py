"""Build the depth-two rule problems of `docs/formulations.md` ("Depth-two subtrees") as Pyomo models.

A shape `outer(inner(literals), ...)` is DNF (Or of Ands) or CNF (And of Ors). CNF is DNF under De
Morgan: `And_k Or_j l_kj = ~Or_k And_j ~l_kj`, so one model serves both. A term *fires* on a sample
when it decides the outer operator there (an And term true in DNF, an Or term false in CNF); a
literal *breaks* a term on a sample when it stops it firing (an And term's literal that is false, an
Or term's literal that is true): `V_ij`. The rule predicts the outer operator's "fired" value (True
for DNF, False for CNF) when some term fires, so the samples the model wants fired, `P`, are the
positives for DNF and the negatives for CNF (the other way round when `negated`).

Variables: `z[k, j]` literal j (of the 2m: features, then their negations) is in term k; `u[k]` term
k is used; `s[k]` term k is a single literal (it decodes to that literal: one node, not two; with
`M = 1` every term is, and `s` is left out);
`a[i, k]` term k fires on sample i of P; `eta[i]` sample i is misclassified. With the number of
literals of term k that break it on sample i, `F_ik = Σ_j V_ij z[k, j]`, and `M` literals per term:

- terms: `Σ_j z[k, j] <= M u[k] - (M - 1) s[k]`, `Σ_j z[k, j] >= u[k]`, `s[k] <= u[k]`, and
  `z[k, j] + z[k, j + m] <= 1` (no term holds a feature and its negation);
- i in P: `M a[i, k] + F_ik <= M u[k]` (a used term without a breaking literal may fire) and
  `Σ_k a[i, k] + eta[i] >= 1`; i not in P: `F_ik + eta[i] >= u[k]` for every k (a used term
  without a breaking literal fires, an error);
- symmetry: `u[k] >= u[k + 1]` and `Σ_j (j + 1) z[k, j] >= Σ_j (j + 1) z[k + 1, j]` (used terms
  first, in non-increasing order of a key that is positive exactly for used terms: every rule keeps
  one representative);
- complexity, the number of nodes of the decoded rule: `C = u[1] + Σ_k (u[k] - s[k]) + Σ z` (the
  outer node exists when a second term is used; a single term is the rule itself; `C = u[1] + Σ z`
  when `M = 1`); optionally
  `C <= max_complexity`, and `Σ_k u[k] >= min_terms`.

Objective: `Σ_i w_i eta_i + λ C`. Depth-one problems charge `λ L` (literals only); here λ is charged
per node, as the native search and the non-local oracle count complexity, so that the cap and the
objective speak of the same quantity.
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression

from ..exceptions import InputError
from ..rules import resolve_shape
from ..validation import check_binary_labels, check_binary_matrix, check_bool, check_integer, check_number
from .depth_one import _weights
from .depth_two_problem import DepthTwoProblem

__all__ = ["depth_two"]


def depth_two(
    X,
    y,
    shape,
    *,
    max_terms: int,
    max_literals_per_term: int,
    max_complexity: int | None = None,
    min_terms: int = 0,
    lam: float = 0.0,
    sample_weight="balanced",
    negated: bool = False,
) -> DepthTwoProblem:
    """The depth-two problem: choose up to `max_terms` terms of up to `max_literals_per_term`
    literals under `shape` ("DNF", "CNF" or a `rules.Shape`) minimising Σ w_i η_i + λ C, with C the
    rule's number of nodes, C <= `max_complexity` when given and at least `min_terms` terms.
    `negated=True` solves for `~shape(...)`; `sample_weight` as in `depth_one`."""
    X = check_binary_matrix(X)
    n, m = X.shape
    if n == 0 or m == 0:
        raise InputError(f"X must have at least one row and one column, got shape {X.shape}")
    y = check_binary_labels(y, "y", n)
    shape = resolve_shape(shape)
    K = check_integer(max_terms, "max_terms", 1)
    M = check_integer(max_literals_per_term, "max_literals_per_term", 1, m)
    min_terms = check_integer(min_terms, "min_terms", 0, K)
    if min_terms > max(n, 2):
        raise InputError(f"min_terms ({min_terms}) asks for more terms than the {n} samples could use")
    if max_complexity is not None:
        max_complexity = check_integer(max_complexity, "max_complexity", 0)
        smallest = 0 if min_terms == 0 else (1 if min_terms == 1 else 1 + min_terms)
        if max_complexity < smallest:
            raise InputError(f"max_complexity ({max_complexity}) is below the {smallest} nodes of the smallest rule "
                             f"with min_terms={min_terms}")
    lam = check_number(lam, "lam", 0)
    negated = check_bool(negated, "negated")
    weights = _weights(sample_weight, y)
    cnf = shape.name == "CNF"
    fired = (y == 1) ^ cnf ^ negated  # the samples the model wants a term to fire on: P
    # A term that fires on no sample of P only costs errors and λ: past one term per sample of P (and
    # the min_terms asked for) more terms cannot lower the objective, and would only grow the model.
    K = min(K, max(int(fired.sum()), min_terms, 1))
    truth = np.concatenate([X, 1 - X], axis=1).astype(bool)
    breaks = truth if cnf else ~truth  # V: literal j stops a term firing on sample i

    model = pyo.ConcreteModel(name=f"depth_two_{'not_' if negated else ''}{shape.name}")
    model.terms = pyo.RangeSet(0, K - 1)
    model.literals = pyo.RangeSet(0, 2 * m - 1)
    model.samples = pyo.RangeSet(0, n - 1)
    model.fired_samples = pyo.Set(initialize=np.flatnonzero(fired).tolist(), doc="P: a term should fire")
    model.quiet_samples = pyo.Set(initialize=np.flatnonzero(~fired).tolist(), doc="no term should fire")
    model.z = pyo.Var(model.terms, model.literals, domain=pyo.Binary, doc="literal j is in term k")
    model.u = pyo.Var(model.terms, domain=pyo.Binary, doc="term k is used")
    if M > 1:
        model.s = pyo.Var(model.terms, domain=pyo.Binary, doc="term k is a single literal")
    model.a = pyo.Var(model.fired_samples, model.terms, domain=pyo.Binary, doc="term k fires on sample i")
    model.eta = pyo.Var(model.samples, domain=pyo.Binary, doc="sample i is misclassified")
    z = np.empty((K, 2 * m), dtype=object)
    z[:] = [[model.z[k, j] for j in range(2 * m)] for k in range(K)]
    u = [model.u[k] for k in range(K)]
    s = [model.s[k] for k in range(K)] if M > 1 else None
    eta = list(model.eta.values())

    def linear(pairs) -> LinearExpression:
        return LinearExpression([MonomialTermExpression((c, v)) for c, v in pairs])

    size = [LinearExpression(z[k].tolist()) for k in range(K)]
    single = (lambda k: [((M - 1), s[k])]) if M > 1 else (lambda k: [])
    model.term_max = pyo.Constraint(model.terms, rule=lambda _, k: linear(
        [(1, v) for v in z[k]] + [(-M, u[k])] + single(k)) <= 0)
    model.term_min = pyo.Constraint(model.terms, rule=lambda _, k: size[k] - u[k] >= 0)
    if M > 1:
        model.single_used = pyo.Constraint(model.terms, rule=lambda _, k: s[k] - u[k] <= 0)
    model.exclusive_literals = pyo.Constraint(
        model.terms, pyo.RangeSet(0, m - 1), rule=lambda _, k, j: z[k, j] + z[k, j + m] <= 1)
    if K > 1:
        order = pyo.RangeSet(0, K - 2)
        model.used_order = pyo.Constraint(order, rule=lambda _, k: u[k] - u[k + 1] >= 0)
        keys = np.arange(1, 2 * m + 1)
        model.term_order = pyo.Constraint(order, rule=lambda _, k: linear(
            [(int(c), v) for c, v in zip(keys, z[k])] + [(-int(c), v) for c, v in zip(keys, z[k + 1])]) >= 0)
    term_nodes = [(1, v) for v in u] + [(-1, v) for v in s] if M > 1 else []  # with M = 1 every term is a literal
    complexity = linear(([(1, u[1])] if K > 1 else []) + term_nodes + [(1, v) for v in z.ravel()])
    if max_complexity is not None:
        model.max_complexity = pyo.Constraint(expr=complexity <= max_complexity)
    if min_terms > 0:
        model.min_terms = pyo.Constraint(expr=LinearExpression(u) >= min_terms)

    def broken(i, k) -> list:
        """The terms of F_ik: the literals of term k that break it on sample i."""
        return z[k][breaks[i]].tolist()

    model.fired_terms = pyo.Constraint(model.fired_samples, model.terms, rule=lambda _, i, k: linear(
        [(M, model.a[i, k]), (-M, u[k])]) + LinearExpression(broken(i, k)) <= 0)
    model.fired_rows = pyo.Constraint(model.fired_samples, rule=lambda _, i: LinearExpression(
        [model.a[i, k] for k in range(K)] + [eta[i]]) >= 1)
    model.quiet_rows = pyo.Constraint(model.quiet_samples, model.terms, rule=lambda _, i, k: LinearExpression(
        broken(i, k) + [eta[i], MonomialTermExpression((-1, u[k]))]) >= 0)
    model.objective = pyo.Objective(
        expr=LinearExpression([MonomialTermExpression((float(w), e)) for w, e in zip(weights, eta)])
        + lam * complexity,
        sense=pyo.minimize,
    )
    return DepthTwoProblem(
        model=model, X=X, y=y, shape=shape, negated=bool(negated), max_terms=K, max_literals_per_term=M,
        max_complexity=max_complexity, min_terms=min_terms, lam=lam, weights=weights,
    )
