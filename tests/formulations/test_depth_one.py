import itertools

import numpy as np
import pyomo.environ as pyo
import pytest

from boolrules import load_dataset
from boolrules.backends import get_backend
from boolrules.formulations import depth_one
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import AtLeast, AtMost, Choose, Literal, One, Or, Zero

from ..reference import depth_one_predictions
from .brute_force import all_depth_one_rules, best_objective

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]


def instance(seed, n=10, m=4):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    y[:2] = [0, 1]
    return X, y


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("lam", [0.0, 0.3])
@pytest.mark.parametrize("min_lit", [0, 1])
@pytest.mark.parametrize("negated", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_ilp_optimum_equals_brute_force(operator, lam, min_lit, negated, seed):
    X, y = instance(seed)
    max_lit = 3
    problem = depth_one(X, y, operator, max_num_literals=max_lit, min_num_literals=min_lit, lam=lam, negated=negated)
    result = get_backend("highs").solve(problem)
    expected = best_objective(
        X, y, balanced_sample_weight(y), operator, min_lit=min_lit, max_lit=max_lit, lam=lam, negated=negated
    )
    assert result.status == "optimal"
    assert result.solver_objective == pytest.approx(expected, abs=1e-6)
    assert result.objective == pytest.approx(expected, abs=1e-6)  # the decoded rule, re-evaluated
    assert problem.objective(result.rule) == pytest.approx(expected, abs=1e-6)
    assert_within_bounds(result.rule, operator, min_lit, max_lit, negated, X.shape[1])


def assert_within_bounds(rule, operator, min_lit, max_lit, negated, num_features):
    """`rule` computes what some depth-one rule of `operator` with min_lit..max_lit literals computes
    on every input (decoding may shorten an operator over one literal to a literal or a constant)."""
    inputs = np.array(list(itertools.product((0, 1), repeat=num_features)), dtype=np.uint8)
    truth = rule.evaluate(inputs)
    assert any(
        np.array_equal(truth, depth_one_predictions(inputs, operator, literals, k) != negated)
        for literals, k in all_depth_one_rules(num_features, operator, min_lit, max_lit)
    ), f"{rule} is no {operator} rule of {min_lit}..{max_lit} literals"


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("negated", [False, True])
def test_literal_bounds_bind_when_literals_do_not_pay(operator, negated):
    """λ above any error a literal can remove: the optimum takes exactly min_num_literals literals."""
    X, y = instance(0)
    problem = depth_one(X, y, operator, max_num_literals=3, min_num_literals=2, lam=20.0, negated=negated)
    result = get_backend("highs").solve(problem)
    expected = best_objective(X, y, balanced_sample_weight(y), operator, min_lit=2, max_lit=3, lam=20.0, negated=negated)
    assert result.objective == pytest.approx(expected, abs=1e-6) and expected >= 40
    assert len(result.rule.literals()) == 2


@pytest.mark.parametrize("operator", OPERATORS)
def test_arbitrary_weights_and_overlapping_literals(operator):
    """Per-sample weights (what the non-local oracle uses) and non-exclusive literals."""
    X, y = instance(5, n=9, m=3)
    weights = np.random.default_rng(5).uniform(0.1, 3.0, len(y))
    for exclusive in (True, False):
        problem = depth_one(
            X, y, operator, max_num_literals=3, min_num_literals=1, sample_weight=weights,
            exclusive_literals=exclusive, lam=0.05,
        )
        result = get_backend("highs").solve(problem)
        expected = best_objective(X, y, weights, operator, min_lit=1, max_lit=3, lam=0.05, negated=False,
                                  exclusive=exclusive)
        assert result.objective == pytest.approx(expected, abs=1e-6)


def test_single_class_subproblem_is_allowed_with_explicit_weights():
    X, y = instance(2)
    problem = depth_one(X, np.ones_like(y), "Or", max_num_literals=2, sample_weight="uniform")
    result = get_backend("highs").solve(problem)
    assert result.objective == pytest.approx(best_objective(
        X, np.ones_like(y), np.ones(len(y)), "Or", min_lit=0, max_lit=2, lam=0, negated=False))


@pytest.mark.parametrize(
    "operator, extra",
    [("Or", 0), ("And", 0), ("AtLeast", 1), ("AtMost", 1), ("Choose", 1)],
)
def test_variable_counts_follow_the_spec(operator, extra):
    X, y = instance(3, n=12, m=5)
    problem = depth_one(X, y, operator, max_num_literals=3)
    negatives = int((y == 0).sum())
    expected = 2 * 5 + 12 + extra + (negatives if operator == "Choose" else 0)
    assert problem.num_variables == expected == problem.paper_num_variables()
    assert set(problem.variable_counts()) >= {"b", "bt", "eta"}


def test_breast_cancer_counts_equal_the_paper():
    data = load_dataset("breast_cancer", paper_layout=True)
    counts = {op: depth_one(data.X, data.y, op, max_num_literals=4).num_variables for op in OPERATORS}
    assert counts == {"Or": 1169, "And": 1169, "AtLeast": 1170, "AtMost": 1170, "Choose": 1527}


def test_model_is_named_for_what_it_holds():
    X, y = instance(0)
    model = depth_one(X, y, "Choose", max_num_literals=2, min_num_literals=1).model
    names = {c.local_name for c in model.component_objects(pyo.Constraint)}
    assert names == {
        "max_literals", "min_literals", "exclusive_literals", "k_at_most_literals",
        "positive_at_least_k", "positive_at_most_k", "negative_above_k", "negative_below_k",
    }


def test_summary_and_html():
    X, y = instance(0)
    problem = depth_one(X, y, "AtLeast", max_num_literals=2, negated=True)
    summary = problem.summary()
    assert summary["operator"] == "~AtLeast"
    assert summary["num_variables"] == problem.num_variables
    assert summary["nonzeros"] == problem.standard_form.A.nnz
    assert summary["coefficient_range"] == (1.0, 3.0)  # the deactivation coefficient m'+1
    assert "~AtLeast" in problem._repr_html_() and "<table>" in problem._repr_html_()


def test_standard_form_reproduces_the_constraints():
    X, y = instance(4)
    problem = depth_one(X, y, "Choose", max_num_literals=2, min_num_literals=1)
    result = get_backend("highs").solve(problem)
    assert result.status == "optimal"
    form = problem.standard_form
    x = result.raw  # HiGHS's answer over the standard form's columns
    body = form.A @ x
    assert np.all(body >= form.lower - 1e-9) and np.all(body <= form.upper + 1e-9)
    assert form.c @ x + form.c0 == pytest.approx(result.solver_objective)
    model = problem.model.clone()  # the same point satisfies the Pyomo model's own constraints
    for name, value in zip(form.var_names, x):
        pyo.ComponentUID(name).find_component_on(model).set_value(value)
    for con in model.component_data_objects(pyo.Constraint):
        assert (con.lower is None or pyo.value(con.body) >= pyo.value(con.lower) - 1e-9) and (
            con.upper is None or pyo.value(con.body) <= pyo.value(con.upper) + 1e-9), con.name
    assert pyo.value(model.objective) == pytest.approx(result.solver_objective)


@pytest.mark.parametrize(
    "operator, k, literal, expected",
    [
        (Or, None, Literal(2), Literal(2)),
        (AtLeast, 0, Literal(2), One()),
        (AtLeast, 1, Literal(2, True), Literal(2, True)),
        (AtMost, 0, Literal(2), Literal(2, True)),
        (AtMost, 1, Literal(2), One()),
        (Choose, 0, Literal(2, True), Literal(2)),
    ],
)
def test_decode_simplifies_one_literal(operator, k, literal, expected):
    X, y = instance(0)
    problem = depth_one(X, y, operator.__name__, max_num_literals=2)
    b = np.zeros(4)
    bt = np.zeros(4)
    (bt if literal.negated else b)[literal.index] = 1
    values = {"b": b, "bt": bt, "k": k}
    assert problem.decode(values) == expected
    full = problem.decode(values, simplify=False)
    assert np.array_equal(full.evaluate(X), expected.evaluate(X))


def test_decode_empty_selection_and_negation():
    X, y = instance(0)
    empty = {"b": np.zeros(4), "bt": np.zeros(4), "k": 0}
    assert depth_one(X, y, "Or", max_num_literals=2).decode(empty) == Zero()
    assert depth_one(X, y, "Or", max_num_literals=2, negated=True).decode(empty) == One()
    assert depth_one(X, y, "Choose", max_num_literals=2).decode(empty) == One()
    two = {"b": np.array([1, 0, 0, 1]), "bt": np.zeros(4), "k": 1}
    assert depth_one(X, y, "AtMost", max_num_literals=2, negated=True).decode(two) == ~AtMost(1, Literal(0), Literal(3))
    with pytest.raises(ValueError, match="k=3 is outside"):
        depth_one(X, y, "AtMost", max_num_literals=2).decode({**two, "k": 3})


def test_inputs_not_modified():
    X, y = instance(0)
    w = np.linspace(1, 2, len(y))
    before = (X.copy(), y.copy(), w.copy())
    problem = depth_one(X, y, "And", max_num_literals=2, sample_weight=w, negated=True)
    problem.weights[:] = 0
    assert all(np.array_equal(a, b) for a, b in zip((X, y, w), before))
