"""The reported optimum is the decoded rule's: a one-literal selection whose operator is constant
(AtLeast with k = 0, AtMost with k = 1) is charged λ for its literal by every solver, so it decodes
to that constant without its literal only where `min_num_literals` allows a rule without literals.
Otherwise the rule (`One`, no literal) was reported with objective 1.0 against the solver's own
proven bound 2.0, "optimal", and below the best rule the problem allows."""

import itertools

import numpy as np
import pytest

from boolrules.backends import get_backend
from boolrules.formulations import depth_one
from boolrules.rules import AtLeast, AtMost, Literal, One

from .brute_force import best_objective
from .tiny import exhaustive

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]
BOUNDS = [(1, 1), (1, 2), (2, 3), (0, 2)]


def instance(seed, n=8, m=3):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, (n, m)), rng.integers(0, 2, n), rng.random(n)


def reference(problem):
    return best_objective(problem.X, problem.y, problem.weights, problem.operator,
                          min_lit=problem.min_num_literals, max_lit=problem.max_num_literals, lam=problem.lam,
                          negated=problem.negated, exclusive=problem.exclusive_literals)


def assert_consistent(problem, result):
    """The objective is the rule's and within the problem's literal bounds; "optimal" is the brute-force
    optimum, never below the solver's own bound."""
    assert result.ok, result.message
    assert result.objective == pytest.approx(problem.objective(result.rule), abs=1e-9)
    assert problem.min_num_literals <= len(result.rule.literals()) <= problem.max_num_literals
    if result.status == "optimal":
        assert result.objective <= reference(problem) + 1e-9
        assert result.bound is None or result.bound <= result.objective + 1e-6


@pytest.mark.parametrize("backend", ["native", "highs"])
@pytest.mark.parametrize("operator", OPERATORS)
def test_reported_optimum_is_the_rules_and_the_brute_force_optimum(backend, operator):
    """Every operator, negated root, literal bounds and λ > 0 on small instances."""
    for seed, negated, (low, high), lam in itertools.product(range(2), (False, True), BOUNDS, (0.3, 1.0)):
        X, y, weights = instance(seed)
        problem = depth_one(X, y, operator, min_num_literals=low, max_num_literals=high, lam=lam,
                            negated=negated, sample_weight=weights)
        assert_consistent(problem, get_backend(backend).solve(problem))


@pytest.mark.parametrize("backend", ["native", "highs"])
def test_the_issue_case_keeps_its_literal(backend):
    """A constant within one literal is the best rule here: it is reported with its literal, charged
    λ for it, at the solver's bound."""
    X, y, weights = instance(1)
    problem = depth_one(X, y, "AtLeast", min_num_literals=1, max_num_literals=1, lam=1.0, negated=True,
                        sample_weight=weights)
    result = get_backend(backend).solve(problem)
    assert_consistent(problem, result)
    assert result.objective == pytest.approx(result.bound) and len(result.rule.literals()) == 1


def test_decode_keeps_a_constant_ones_literal_only_when_literals_are_required():
    X, y, weights = instance(0)
    for operator, k in (("AtLeast", 0), ("AtMost", 1)):
        for low in (0, 1):
            problem = depth_one(X, y, operator, min_num_literals=low, max_num_literals=2, lam=0.5)
            rule = problem.decode({"b": [0, 1, 0], "bt": [0, 0, 0], "k": k})
            assert rule == (One() if low == 0 else (AtLeast if k == 0 else AtMost)(k, Literal(1)))
            assert rule.literals() or problem.objective(rule) == problem.objective(One())


@pytest.mark.parametrize("operator", ["AtLeast", "AtMost"])
@pytest.mark.parametrize("seed", [3, 11, 12])
def test_a_qubo_ground_state_decodes_to_the_brute_force_optimum(operator, seed):
    """An exact QUBO solver's ground state (every state enumerated) decodes to a rule of the
    brute-force optimum, with its literal, when literals are required (seeds 3 and 11: constants
    are among the ground states)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (4, 2), dtype=np.uint8)
    y = np.array([0, 1, *rng.integers(0, 2, 2)], dtype=np.uint8)
    problem = depth_one(X, y, operator, min_num_literals=1, max_num_literals=1, lam=0.6, negated=bool(seed % 2),
                        sample_weight=rng.random(4) + [1.5, 0, 0, 0])
    qubo = problem.to_qubo(eta=True, penalty="sufficient", slack="minimal")
    energy, grounds = exhaustive(qubo.bqm, qubo.labels)
    assert energy == pytest.approx(reference(problem), abs=1e-6)
    for sample in grounds:
        rule = problem.decode(qubo.variable_values(sample)[0])
        assert problem.objective(rule) == pytest.approx(energy, abs=1e-6) and len(rule.literals()) == 1
