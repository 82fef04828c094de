"""Feature preselection: scores against plain references, reproducible ties, and problems built
on the kept features whose rules name the original ones."""

import numpy as np
import pytest
from sklearn.metrics import mutual_info_score

from boolrules.backends import get_backend
from boolrules.formulations import depth_one
from boolrules.formulations.preselection import feature_scores, relabel, select_features
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import AtLeast, Literal, Or

from ..errors import assert_raises_clearly
from ..planted import planted


def random_data(seed=0, n=40, m=9):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, (n, m), dtype=np.uint8), rng.integers(0, 2, n).astype(np.uint8)


def test_error_score_is_the_best_one_literal_rule_per_feature():
    X, y = random_data()
    w = np.random.default_rng(1).uniform(0.5, 2, len(y))
    expected = [-min(w @ (X[:, j] != y), w @ (X[:, j] == y)) for j in range(X.shape[1])]
    assert np.allclose(feature_scores(X, y, w, "error"), expected)


def test_mutual_information_matches_sklearn_with_weights_as_repeated_rows():
    X, y = random_data(2)
    assert np.allclose(feature_scores(X, y, np.ones(len(y)), "mutual_info"),
                       [mutual_info_score(X[:, j], y) for j in range(X.shape[1])])
    w = np.random.default_rng(3).integers(1, 4, len(y))  # integer weights: the same as repeating rows
    Xr, yr = np.repeat(X, w, axis=0), np.repeat(y, w)
    assert np.allclose(feature_scores(X, y, w.astype(float), "mutual_info"),
                       [mutual_info_score(Xr[:, j], yr) for j in range(X.shape[1])])


def test_constant_features_score_no_information():
    X, y = random_data(4)
    X[:, 2], X[:, 5] = 0, 1
    w = balanced_sample_weight(y)
    assert feature_scores(X, y, w, "mutual_info")[[2, 5]] == pytest.approx([0, 0])
    assert feature_scores(X, y, w, "error")[[2, 5]] == pytest.approx([-len(y) / 2] * 2)  # balanced: n/2 either way


@pytest.mark.parametrize("score", ["error", "mutual_info"])
def test_selection_keeps_the_best_and_breaks_ties_by_index(score):
    """Copies of the best column tie: the lowest indices win, whatever order the columns come in."""
    X, y = planted(Or(Literal(0), Literal(1)), 60, 6)
    X = np.column_stack([X[:, 2], X[:, 0], X[:, 3], X[:, 0], X[:, 4], X[:, 0]])  # three copies of x0
    w = balanced_sample_weight(y)
    assert select_features(X, y, w, 2, score).tolist() == [1, 3]
    assert select_features(X, y, w, 2, score).tolist() == select_features(X.copy(), y, w, 2, score).tolist()
    scores = feature_scores(X, y, w, score)
    kept = select_features(X, y, w, 4, score)
    assert scores[kept].min() >= np.delete(scores, kept).max()
    assert select_features(X, y, w, 6, score).tolist() == select_features(X, y, w, 60, score).tolist() == list(range(6))


def test_a_problem_on_the_kept_features_names_the_original_ones():
    X, y = planted(Or(Literal(3), Literal(7)), 80, 10)
    X_before = X.copy()
    problem = depth_one(X, y, "Or", max_num_literals=2, max_features=2)
    assert problem.features.tolist() == [3, 7] and problem.num_features == 2
    assert np.array_equal(problem.X, X[:, [3, 7]]) and np.array_equal(X, X_before)  # the input is not modified
    result = get_backend("highs").solve(problem)
    assert result.rule == Or(Literal(3), Literal(7)) and result.objective == 0
    assert problem.objective(result.rule) == 0 and problem.summary()["kept_features"] == [3, 7]
    assert problem.decode({"b": np.array([0, 1]), "bt": np.array([1, 0])}) == Or(~Literal(3), Literal(7))
    assert_raises_clearly(ValueError, lambda: problem.objective(Literal(4)), "feature 4", "kept")


def test_samplers_decode_to_the_original_features():
    X, y = planted(AtLeast(2, Literal(1), Literal(5), ~Literal(8)), 60, 9)
    problem = depth_one(X, y, "AtLeast", max_num_literals=3, max_features=4)
    result = get_backend("sa", num_reads=20, seed=0).solve(problem)
    assert {lit.index for lit in result.rule.literals()} <= set(problem.features.tolist())
    assert result.objective == pytest.approx(problem.objective(result.rule))
    plain = depth_one(X, y, "AtLeast", max_num_literals=3)
    assert result.objective == pytest.approx(plain.objective(result.rule))  # the same rule on every feature


def test_features_restricts_the_columns_and_max_features_picks_among_them():
    X, y = planted(Or(Literal(3), Literal(7)), 80, 10)
    problem = depth_one(X, y, "Or", max_num_literals=2, features=[9, 3, 0])
    assert problem.features.tolist() == [0, 3, 9]
    assert depth_one(X, y, "Or", max_num_literals=2, features=[0, 3, 9], max_features=1).features.tolist() == [3]
    assert depth_one(X, y, "Or", max_num_literals=2, max_features=10).features is None  # all kept: no mapping


@pytest.mark.parametrize("kwargs, names", [
    ({"max_features": 0}, ["max_features", ">= 1"]),
    ({"max_features": 2.5}, ["max_features", "integer"]),
    ({"max_features": 1, "max_num_literals": 3}, ["max_num_literals", "max_features"]),
    ({"feature_score": "gini"}, ["feature_score", "error", "mutual_info"]),
    ({"features": [0, 0]}, ["features", "distinct"]),
    ({"features": [0, 10]}, ["features", "0..9"]),
    ({"features": []}, ["features", "non-empty"]),
])
def test_bad_preselection_is_refused_clearly(kwargs, names):
    X, y = planted(Or(Literal(3), Literal(7)), 30, 10)
    error = TypeError if kwargs.get("max_features") == 2.5 else ValueError
    assert_raises_clearly(error, lambda: depth_one(X, y, "Or", **{"max_num_literals": 2, **kwargs}), *names)


def test_relabel_maps_every_literal():
    rule = AtLeast(1, Literal(0), Or(~Literal(1), Literal(2)))
    assert relabel(rule, {0: 5, 1: 6, 2: 7}) == AtLeast(1, Literal(5), Or(~Literal(6), Literal(7)))
