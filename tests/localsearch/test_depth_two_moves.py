"""Depth-two non-local moves: a node replaced by the best DNF/CNF subtree within its budget."""

import itertools
import random

import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.backends import get_backend
from boolrules.localsearch.moves import SearchSpace, random_rule
from boolrules.localsearch.oracle import NonLocalOracle, depth_two_bounds
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import OPERATORS, SHAPES, And, BitMatrix, Literal, Or, Shape

from ..errors import assert_raises_clearly
from ..fakes import Recording
from ..formulations.brute_force import best_depth_two_objective
from ..planted import planted

ALL = tuple(OPERATORS.values())
DNF_TRUTH = Or(And(Literal(0), Literal(1)), And(Literal(2), ~Literal(3)))
CNF_TRUTH = And(Or(Literal(0), Literal(1)), Or(~Literal(2), Literal(3)))


def make_oracle(X, y, max_complexity=7, max_depth=None, operators=ALL, seed=0, max_samples=1000):
    space = SearchSpace(X.shape[1], ALL, max_complexity, max_depth)
    return NonLocalOracle(
        BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend("highs"),
        operators=operators, max_samples=max_samples, time_limit=10.0, rng=random.Random(seed),
    )


@pytest.mark.parametrize("shape, truth", [("DNF", DNF_TRUTH), ("CNF", CNF_TRUTH)])
def test_one_call_at_the_root_finds_the_planted_rule(shape, truth):
    X, y = planted(truth, 300, 8)
    start = And(Literal(4), Literal(5))
    new = make_oracle(X, y).replace(start, (), SHAPES[shape])
    assert np.array_equal(new.evaluate(X), y.astype(bool))
    assert new.complexity <= 7


@pytest.mark.parametrize("shape", ["DNF", "CNF"])
@pytest.mark.parametrize("path", [(), (1,)])
def test_replacement_is_the_brute_force_best(shape, path):
    """The subtree put at the node is the best depth-two subtree within the node's budget on the
    subproblem's rows, their labels and original weights."""
    X, y = planted(Or(And(Literal(0), ~Literal(1)), Literal(2)), 60, 4, seed=3)
    y[:6] = 1 - y[:6]  # noise, so that the best subtree is not trivially exact
    rule = Or(Literal(3), And(Literal(1), Literal(2)))
    oracle = make_oracle(X, y, max_complexity=7)
    small = Shape(shape, *((Or, And) if shape == "DNF" else (And, Or)), max_literals_per_term=2)
    rows, labels = oracle.subproblem(rule, path)
    new = oracle.replace(rule, path, small)
    assert new is not None and oracle.space.contains(new)
    subtree = new
    for i in path:
        subtree = subtree.subrules[i]
    weights = balanced_sample_weight(y)[rows]
    target = rule
    for i in path:
        target = target.subrules[i]
    budget = 7 - (rule.complexity - target.complexity)
    bounds = depth_two_bounds(small, budget, None, not path, 4)
    expected = best_depth_two_objective(
        X[rows], labels, weights, shape, max_terms=bounds["max_terms"], max_lit=bounds["max_literals_per_term"],
        lam=0.0, negated=False, max_complexity=budget, min_terms=bounds["min_terms"],
    )
    assert float(weights @ (subtree.evaluate(X[rows]) != labels)) == pytest.approx(expected)


def test_bounds_follow_the_budget_and_the_depth():
    dnf = SHAPES["DNF"]
    assert depth_two_bounds(dnf, 2, None, False, 8) is None  # no room for two literals and an outer node
    assert depth_two_bounds(dnf, 9, 1, False, 8) is None  # one level left: no depth-two subtree
    assert depth_two_bounds(dnf, 7, 2, True, 8) == {
        "max_terms": 2, "max_literals_per_term": 4, "max_complexity": 7, "min_terms": 2}
    assert depth_two_bounds(dnf, 3, None, False, 8)["max_literals_per_term"] == 1
    assert depth_two_bounds(Shape("CNF", And, Or, 3, 2), 20, None, False, 8)["max_literals_per_term"] == 2


def test_no_call_when_the_depth_two_subtree_does_not_fit():
    X, y = planted(DNF_TRUTH, 100, 6)
    rule = And(Literal(4), Or(Literal(1), Literal(5)))
    oracle = make_oracle(X, y, max_complexity=7, max_depth=2)
    assert oracle.replace(rule, (1,), SHAPES["DNF"]) is None  # depth 1 + 2 > 2
    assert oracle.stats.nothing == 1 and oracle.stats.failed == 0


@pytest.mark.parametrize("seed", range(4))
def test_every_depth_two_move_is_valid(seed):
    rng = random.Random(seed)
    X, y = planted(DNF_TRUTH, 80, 6, seed=seed)
    max_complexity, max_depth = rng.choice([(7, None), (9, 3), (6, 2)])
    # 30 rows per subproblem: validity is about the budget; HiGHS took seconds on some depth-two subproblems of 80
    oracle = make_oracle(X, y, max_complexity, max_depth, operators=(SHAPES["DNF"], SHAPES["CNF"]), seed=seed,
                         max_samples=30)
    for _ in range(4):
        rule = random_rule(oracle.space, rng)
        new = oracle.propose(rule)
        assert new is None or oracle.space.contains(new)
    assert oracle.stats.proposed > 0


def test_classifier_recovers_a_planted_dnf_with_depth_two_moves():
    """400 clean rows x 8 features of Or(And(x0, x1), And(x2, ~x3)): with DNF moves on HiGHS the
    search finds a rule equal to the planted one on every input."""
    X, y = planted(DNF_TRUTH, 400, 8)
    inputs = np.array(list(itertools.product((0, 1), repeat=8)), dtype=np.uint8)
    for seed in (0, 1):
        clf = RuleClassifier(
            max_complexity=7, operators=["Or", "And"], num_starts=1, num_iterations=100, num_iterations_burn_in=0,
            nonlocal_backend="highs", nonlocal_operators=["DNF"], random_state=seed,
        ).fit(X, y)
        assert np.array_equal(clf.best_rule_.evaluate(inputs), DNF_TRUTH.evaluate(inputs)), clf.best_rule_
        assert clf.nonlocal_stats_.proposed > 0 and clf.nonlocal_stats_.failed == 0


def test_nonlocal_operators_take_shapes_and_name_bad_ones():
    X, y = planted(DNF_TRUTH, 50, 4)
    clf = RuleClassifier(nonlocal_operators=["Or", "CNF", Shape("DNF", Or, And, max_terms=3)])
    config = clf._search_config(4)
    assert config.nonlocal_operators == (Or, SHAPES["CNF"], Shape("DNF", Or, And, max_terms=3))
    bad = RuleClassifier(nonlocal_backend="highs", nonlocal_operators=["Or", "XOR"], num_iterations=5, num_starts=1)
    assert_raises_clearly(ValueError, lambda: bad.fit(X, y), "nonlocal_operators")
    assert_raises_clearly(ValueError, lambda: Shape("ANF", Or, Or), "Or of Ands")


def test_a_depth_one_backend_refuses_shapes_before_any_work():
    """A backend without the depth_two capability: a fit asking it for DNF moves stops at once, naming both."""
    X, y = planted(DNF_TRUTH, 50, 4)
    clf = RuleClassifier(nonlocal_backend=Recording(), nonlocal_operators=["Or", "DNF"], num_iterations=5,
                         num_starts=1)
    assert_raises_clearly(ValueError, lambda: clf.fit(X, y), "recording", "DNF")
    clf.set_params(nonlocal_operators=["Or", "And"]).fit(X, y)
