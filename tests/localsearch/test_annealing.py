import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score

from boolrules.localsearch.annealing import RuleScorer, anneal
from boolrules.localsearch.moves import SearchSpace
from boolrules.rules import OPERATORS, AtLeast, BitMatrix, Literal

from ..planted import planted

ALL = tuple(OPERATORS.values())
RULE = AtLeast(2, Literal(1), ~Literal(4), Literal(7))


def test_scorer_matches_sklearn():
    X, y = planted(RULE, 400, 12)
    scorer = RuleScorer(BitMatrix(X), y, lam=0.01)
    rng = np.random.default_rng(1)
    for _ in range(20):
        rule = AtLeast(1, *(Literal(int(j), bool(rng.integers(2))) for j in rng.choice(12, 3, replace=False)))
        expected = balanced_accuracy_score(y, rule.evaluate(X))
        score, objective = scorer.objective(rule)
        assert score == pytest.approx(expected)
        assert objective == pytest.approx(expected - 0.01 * rule.complexity)


def test_anneal_recovers_a_planted_rule():
    X, y = planted(RULE, 400, 12)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(X.shape[1], ALL, 5)
    best = max(
        (anneal(scorer, space, num_iterations=1500, temperatures=(0.2, 1e-4), seed=s) for s in range(4)),
        key=lambda r: r.objective,
    )
    assert best.score == 1.0
    assert np.array_equal(best.rule.evaluate(X), RULE.evaluate(X))


def test_trajectory_is_recorded_and_consistent():
    X, y = planted(RULE, 400, 12)
    scorer = RuleScorer(BitMatrix(X), y)
    result = anneal(
        scorer, SearchSpace(12, ALL, 6), num_iterations=300, temperatures=(0.2, 1e-3), seed=3, record=True
    )
    traj = result.trajectory
    assert traj.temperature[0] == pytest.approx(0.2) and traj.temperature[-1] == pytest.approx(1e-3)
    assert np.all(np.diff(traj.best_objective) >= 0)
    assert traj.best_objective[-1] == pytest.approx(result.objective)
    assert np.all(traj.objective <= traj.best_objective + 1e-12)
    assert 0 < traj.accepted.sum() < 300
