"""The native backend on depth-two problems (`depth_two_search.py`): exact on tiny instances (the
brute-force optimum and HiGHS's), a good heuristic beyond, within its time limit, and in the
non-local moves of `RuleClassifier`."""

import itertools

import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.backends import get_backend
from boolrules.backends import depth_two_search
from boolrules.backends.depth_two_search import _branch_and_bound, _Rows, _Settings, search_depth_two
from boolrules.formulations import depth_two
from boolrules.rules import And, Literal, Or

from ..formulations.brute_force import best_depth_two_objective
from ..formulations.test_depth_two import CASES, SHAPES, assert_in_class, instance
from ..planted import planted

DNF_TRUTH = Or(And(Literal(0), Literal(1)), And(Literal(2), ~Literal(3), Literal(4)), And(~Literal(5), Literal(6)))


def random_case(seed):
    """A tiny problem with every setting drawn: shape, negated root, weights, λ, terms, literals per
    term, min_terms and max_complexity (at least the smallest rule `depth_two` accepts)."""
    rng = np.random.default_rng([seed, 28])
    n, m = int(rng.integers(4, 14)), int(rng.integers(1, 4))
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    max_terms = int(rng.integers(1, 4))
    min_terms = int(rng.integers(0, max_terms + 1))
    smallest = 0 if min_terms == 0 else (1 if min_terms == 1 else 1 + min_terms)
    settings = {
        "shape": SHAPES[seed % 2], "negated": bool(rng.integers(0, 2)), "max_terms": max_terms,
        "max_literals_per_term": int(rng.integers(1, min(m, 3) + 1)), "min_terms": min_terms,
        "lam": float(rng.choice([0.0, 0.05, 0.3])),
        "max_complexity": None if rng.random() < 0.4 else int(rng.integers(max(smallest, 1), 9)),
    }
    return X, y, rng.uniform(0.1, 3.0, n), settings


def brute_force(X, y, weights, s):
    return best_depth_two_objective(
        X, y, weights, s["shape"], max_terms=s["max_terms"], max_lit=s["max_literals_per_term"], lam=s["lam"],
        negated=s["negated"], max_complexity=s["max_complexity"], min_terms=s["min_terms"])


@pytest.mark.parametrize("seed", range(24))
def test_native_equals_brute_force(seed):
    """Every setting drawn at random, with weights: native proves the brute-force optimum, and its
    decoded rule has it."""
    X, y, weights, s = random_case(seed)
    problem = depth_two(X, y, sample_weight=weights, **s)
    result = get_backend("native").solve(problem)
    expected = brute_force(X, y, weights, s)
    assert result.status == "optimal"
    assert result.solver_objective == pytest.approx(expected, abs=1e-9)
    assert result.objective == pytest.approx(expected, abs=1e-9)
    assert result.bound == pytest.approx(expected, abs=1e-9)
    assert_in_class(result.rule, s["shape"], s["max_terms"], s["max_literals_per_term"], s["max_complexity"])


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("negated", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_native_equals_highs(shape, negated, case):
    """The settings of the ILP's brute-force test: native's optimum is HiGHS's."""
    X, y = instance(case)
    problem = depth_two(X, y, shape, negated=negated, **CASES[case])
    native, highs = get_backend("native").solve(problem), get_backend("highs").solve(problem)
    assert native.status == highs.status == "optimal"
    assert native.objective == pytest.approx(highs.objective, abs=1e-6)


@pytest.mark.parametrize("seed", range(24))
def test_the_exact_search_alone_equals_brute_force(seed):
    """The branch and bound with no incumbent, so that its bounds and dominance do all the pruning."""
    X, y, weights, s = random_case(seed)
    problem = depth_two(X, y, sample_weight=weights, **s)
    rows = _Rows(~X.astype(bool) if s["shape"] == "CNF" else X.astype(bool), problem.fired, weights)
    settings = _Settings(problem.max_terms, s["max_literals_per_term"],  # depth_two cuts max_terms at the fired rows
                         np.inf if s["max_complexity"] is None else s["max_complexity"], s["min_terms"], s["lam"])
    terms, objective, bound, proven = _branch_and_bound(rows, settings, np.inf, None)
    assert proven and objective + rows.constant == pytest.approx(brute_force(X, y, weights, s), abs=1e-9)
    assert bound == objective
    z = np.zeros((problem.max_terms, 2 * X.shape[1]), int)
    for k, literals in enumerate(terms):
        z[k, literals] = 1
    assert problem.objective(problem.decode({"z": z.ravel()})) == pytest.approx(objective + rows.constant)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_heuristic_finds_a_planted_three_term_rule(shape):
    """200 rows x 12 features of a three-term DNF (2, 3 and 2 literals), or its negation as a CNF:
    too many terms to list, so no proof (status feasible), but the heuristic's rule is the planted one."""
    X, y = planted(DNF_TRUTH, 200, 12)
    y = 1 - y if shape == "CNF" else y  # ~DNF is the CNF of the complemented literals
    problem = depth_two(X, y, shape, max_terms=3, max_literals_per_term=4, lam=0.001)
    result = get_backend("native").solve(problem)
    assert result.status == "feasible" and result.bound is None
    assert (result.rule.evaluate(X) == y.astype(bool)).all() and result.rule.complexity == 11


def test_a_time_limit_returns_a_valid_rule():
    """With no time at all the search returns a rule within the bounds (min_terms met), status
    time_limit, with its true objective and no proof."""
    X, y = planted(DNF_TRUTH, 100, 8, seed=1)
    problem = depth_two(X, y, "DNF", max_terms=3, max_literals_per_term=3, min_terms=2, max_complexity=9)
    result = get_backend("native", time_limit=0.0).solve(problem)
    assert result.status == "time_limit" and result.bound is None
    assert result.objective == pytest.approx(problem.objective(result.rule))
    assert_in_class(result.rule, "DNF", 3, 3, 9)
    assert len(result.rule.subrules) >= 2
    found = search_depth_two(X, problem.fired, problem.weights, False, max_terms=3, max_literals=3, max_complexity=9,
                             min_terms=2, lam=0.0, time_limit=0.0)
    assert found.stopped and not found.optimal and found.terms.any(axis=1).sum() >= 2


def test_dominance_keeps_the_cheaper_term():
    """And(f0, f1) fires on the one positive row and f0 also on a light negative one: with λ = 0.3 the
    literal (0.1 + 0.3) beats the And (3 x 0.3), which covers better but costs more nodes."""
    X = np.array([[1, 1], [1, 0], [0, 0], [0, 1]], dtype=np.uint8)
    y = np.array([1, 0, 0, 0], dtype=np.uint8)
    weights = np.array([1.0, 0.1, 1.0, 1.0])
    rows = _Rows(X.astype(bool), y.astype(bool), weights)
    terms, objective, _, proven = _branch_and_bound(rows, _Settings(2, 2, np.inf, 0, 0.3), np.inf, None)
    assert proven and objective == pytest.approx(0.4) and [list(t) for t in terms] == [[0]]


def noisy_case(seed):
    """Random labels on 20-60 rows x 4-6 features, 2-3 terms of 2-3 literals: hard for covering."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(20, 60)), int(rng.integers(4, 7))
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    weights = rng.uniform(0.1, 3, n)
    settings = {"max_terms": int(rng.integers(2, 4)), "max_literals": int(rng.integers(2, 4)), "max_complexity": None,
                "min_terms": 0, "lam": float(rng.choice([0.0, 0.05]))}
    return X, y, weights, SHAPES[seed % 2], settings


@pytest.mark.parametrize("seed", [1, 12, 14, 21, 23, 0, 10, 28, 35])
def test_re_optimising_terms_reaches_the_optimum(seed):
    """Instances where one covering sweep stops short (seeds 1-23), or where the sweeps from a broad
    literal stay in a worse optimum and the run taking Ands first does not (0-35): the heuristic
    reaches the optimum the exact search proves, without listing terms."""
    X, y, weights, shape, settings = noisy_case(seed)
    problem = depth_two(X, y, shape, max_terms=settings["max_terms"], max_literals_per_term=settings["max_literals"],
                        lam=settings["lam"], sample_weight=weights)
    heuristic = search_depth_two(X, problem.fired, weights, shape == "CNF", exact_terms=0, **settings)
    exact = search_depth_two(X, problem.fired, weights, shape == "CNF", **settings)
    assert exact.optimal and not heuristic.optimal
    assert heuristic.objective == pytest.approx(exact.objective, abs=1e-9)


class Ticks:
    """A clock that advances one second per reading: a deadline of t stops a search at its t-th check."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 1.0
        return self.now


def test_the_exact_search_cut_short_leaves_a_valid_bound(monkeypatch):
    """Stopped after a few nodes by an injected clock, the branch and bound proves nothing, and its
    bound lies at or below the optimum (above zero on some instances: the open nodes' bounds)."""
    bounds = []
    for seed in range(24):
        X, y, weights, s = random_case(seed)
        problem = depth_two(X, y, sample_weight=weights, **s)
        rows = _Rows(~X.astype(bool) if s["shape"] == "CNF" else X.astype(bool), problem.fired, weights)
        settings = _Settings(problem.max_terms, s["max_literals_per_term"],  # depth_two cuts max_terms at the fired rows
                             np.inf if s["max_complexity"] is None else s["max_complexity"], s["min_terms"], s["lam"])
        monkeypatch.setattr(depth_two_search, "time", Ticks())
        _, _, bound, proven = _branch_and_bound(rows, settings, np.inf, 3.0)
        if not proven:
            expected = brute_force(X, y, weights, s)
            assert bound + rows.constant <= expected + 1e-9
            bounds.append(bound)
    assert len(bounds) >= 3 and max(bounds) > 0


def test_a_deadline_passing_while_terms_are_listed_stops_before_the_search(monkeypatch):
    """1800 terms (30 features, 2 literals) listed in blocks with a deadline check between: a deadline
    passed at the first check leaves the incumbent, no bound and no proof."""
    X, y = planted(DNF_TRUTH, 100, 30)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    rows = _Rows(X.astype(bool), problem.fired, problem.weights)
    monkeypatch.setattr(depth_two_search, "time", Ticks())
    assert _branch_and_bound(rows, _Settings(2, 2, np.inf, 0, 0.0), 7.0, 0.5) == (None, 7.0, None, False)


def test_classifier_makes_depth_two_moves_on_native():
    """A fit with native DNF moves (once refused: native solved depth-one problems only) finds the
    planted two-term DNF on 8 features, through proposed depth-two moves."""
    truth = Or(And(Literal(0), Literal(1)), And(Literal(2), ~Literal(3)))
    X, y = planted(truth, 400, 8)
    inputs = np.array(list(itertools.product((0, 1), repeat=8)), dtype=np.uint8)
    clf = RuleClassifier(
        max_complexity=7, operators=["Or", "And"], num_starts=1, num_iterations=100, num_iterations_burn_in=0,
        nonlocal_backend="native", nonlocal_operators=["DNF"], random_state=0,
    ).fit(X, y)
    assert np.array_equal(clf.best_rule_.evaluate(inputs), truth.evaluate(inputs)), clf.best_rule_
    assert clf.nonlocal_stats_.proposed > 0 and clf.nonlocal_stats_.failed == 0
