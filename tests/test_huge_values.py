"""Finite but huge weights and penalties: refused with an error naming them, never a QUBO with inf
or NaN biases, and never an infinite objective reported as feasible (issue 15, item 10)."""

import numpy as np
import pytest

from boolrules.backends import get_backend
from boolrules.backends.base import Result
from boolrules.formulations import depth_one, depth_two
from boolrules.rules import Literal
from boolrules.rules.shapes import SHAPES

from .errors import assert_raises_clearly

X = np.random.default_rng(0).integers(0, 2, (20, 4)).astype(np.uint8)
Y = (X[:, 0] ^ X[:, 1]).astype(np.uint8)  # no depth-one rule is right on every row


@pytest.mark.parametrize("build", [
    lambda w: depth_one(X, Y, "Or", max_num_literals=2, sample_weight=w),
    lambda w: depth_two(X, Y, shape=SHAPES["DNF"], max_terms=2, max_literals_per_term=2, sample_weight=w),
])
def test_weights_whose_sum_overflows_are_refused(build):
    assert_raises_clearly(ValueError, lambda: build(np.full(len(Y), 1e308)), "sample_weight", "too large")


def test_penalties_that_overflow_the_qubo_are_refused():
    problem = depth_one(X, Y, "AtLeast", max_num_literals=2)
    huge = {"soft": 1e308, "hard": 1e308}
    assert_raises_clearly(ValueError, lambda: problem.to_qubo(penalty=huge), "penalty", "inf or NaN")
    assert_raises_clearly(ValueError, lambda: get_backend("sa", seed=0, num_reads=2, penalty=huge).solve(problem),
                          "penalty")
    qubo = problem.to_qubo(penalty={"soft": 1e100, "hard": 1e150})  # large but finite: compiled
    linear, (_, _, quadratic), offset = qubo.bqm.to_numpy_vectors()
    assert np.isfinite(linear).all() and np.isfinite(quadratic).all() and np.isfinite(offset)


@pytest.mark.parametrize("operator", ["Or", "AtLeast"])
def test_a_lam_whose_qubo_energies_overflow_is_refused(operator):
    """lam = 1e308: every coefficient finite, but their sum (an energy) is not; refused naming lam,
    not exported with overflow warnings."""
    problem = depth_one(X, Y, operator, max_num_literals=2, lam=1e308)
    assert_raises_clearly(ValueError, lambda: problem.to_qubo(), "lam 1e+308", "too large")
    qubo = depth_one(X, Y, operator, max_num_literals=2, lam=1e300).to_qubo()  # huge but summable: compiled
    assert np.isfinite(qubo.energy(np.ones(qubo.num_variables)))


def test_huge_finite_weights_solve_to_a_finite_objective():
    problem = depth_one(X, Y, "Or", max_num_literals=2, sample_weight=np.full(len(Y), 1e300))
    result = get_backend("sa", seed=0, num_reads=5).solve(problem)
    assert result.status == "feasible" and np.isfinite(result.objective) and result.objective > 0


@pytest.mark.parametrize("objective", [np.inf, np.nan])
def test_a_non_finite_objective_is_never_a_feasible_result(objective):
    result = Result(Literal(0), objective, "feasible", 0.1, "sa")
    assert (result.status, result.rule, result.ok) == ("error", None, False)
    assert "sa" in result.message and "non-finite" in result.message
