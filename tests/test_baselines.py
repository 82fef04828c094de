"""Tests of boolrules.baselines: single-literal classifier against brute force, tree complexity."""

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.metrics import accuracy_score, balanced_accuracy_score
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from boolrules.baselines import SingleLiteralClassifier, decision_tree_complexity
from boolrules.rules import Literal

METRICS = {"balanced_accuracy": balanced_accuracy_score, "accuracy": accuracy_score}


def brute_force(X, y, metric):
    """Score every literal one by one; return all scores in the order (f0, ~f0, f1, ~f1, ...)."""
    scores = []
    for j in range(X.shape[1]):
        for negated in (False, True):
            scores.append(METRICS[metric](y, X[:, j] ^ negated))
    return np.array(scores)


@pytest.mark.parametrize("metric", sorted(METRICS))
@pytest.mark.parametrize("seed", range(8))
def test_matches_brute_force(metric, seed):
    rng = np.random.default_rng(seed)
    n, m = rng.integers(5, 60), rng.integers(1, 12)
    X = (rng.random((n, m)) < rng.random(m)).astype(np.uint8)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    model = SingleLiteralClassifier(metric=metric).fit(X, y)
    scores = brute_force(X, y, metric)
    first_best = int(np.flatnonzero(scores >= scores.max() - 1e-12)[0])
    assert model.best_rule_ == Literal(first_best // 2, bool(first_best % 2))
    assert model.best_score_ == pytest.approx(scores.max())
    np.testing.assert_array_equal(model.predict(X), X[:, first_best // 2] ^ bool(first_best % 2))


def test_picks_a_negated_feature_and_maps_classes():
    y = np.array(["good", "bad", "bad", "good", "bad", "good"])
    bad = (y == "bad").astype(np.uint8)
    model = SingleLiteralClassifier().fit(bad[:, None], y)
    assert list(model.classes_) == ["bad", "good"]
    assert model.best_rule_ == Literal(0, True)  # "not bad" predicts the positive class "good"
    assert model.best_score_ == 1.0
    np.testing.assert_array_equal(model.predict(bad[:, None]), y)
    both = np.column_stack([bad, 1 - bad])
    tie = SingleLiteralClassifier().fit(both, y)
    assert tie.best_rule_ == Literal(0, True)  # ties go to the first literal


def test_metrics_can_disagree():
    # Feature 0 catches the rare positive class; feature 1 is constant, i.e. the majority vote.
    y = np.array([1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    X = np.column_stack([[1, 1, 1, 1, 1, 0, 0, 0, 0, 0], np.zeros(10, int)])
    assert SingleLiteralClassifier("balanced_accuracy").fit(X, y).best_rule_ == Literal(0)
    assert SingleLiteralClassifier("accuracy").fit(X, y).best_rule_ == Literal(1)


def test_dataframe_input_keeps_feature_names():
    X = pd.DataFrame({"smoker": [0, 1, 1, 0], "old": [1, 1, 0, 0]})
    model = SingleLiteralClassifier().fit(X, [0, 1, 1, 0])
    assert list(model.feature_names_in_) == ["smoker", "old"]
    assert model.rule_text_ == "smoker"


def test_continuous_input_is_binarized():
    X = pd.DataFrame({"age": np.arange(40.0), "noise": np.tile([1.0, 5.0, 2.0, 7.0], 10)})
    model = SingleLiteralClassifier().fit(X, (X["age"] >= 20).astype(int))
    assert model.best_score_ == 1.0 and model.rule_text_ == "age >= 19.5"


def test_does_not_modify_input():
    X = np.array([[0, 1], [1, 0], [1, 1]], dtype=np.uint8)
    y = np.array([0, 1, 1])
    X_before, y_before = X.copy(), y.copy()
    SingleLiteralClassifier().fit(X, y).predict(X)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


def test_decision_tree_complexity():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (200, 5))
    y = X[:, 0] ^ X[:, 1]
    for depth in (1, 2, 4):
        tree = DecisionTreeClassifier(max_depth=depth, class_weight="balanced", random_state=0)
        tree.fit(X, y)
        splits = int(np.count_nonzero(tree.tree_.feature >= 0))  # leaves have feature -2
        assert decision_tree_complexity(tree) == splits
    assert decision_tree_complexity(DecisionTreeClassifier(max_depth=2).fit(X, y)) == 3
    with pytest.raises(NotFittedError):
        decision_tree_complexity(DecisionTreeClassifier())
    with pytest.raises(TypeError, match="tree must be"):
        decision_tree_complexity(SingleLiteralClassifier())


@parametrize_with_checks([SingleLiteralClassifier(), SingleLiteralClassifier("f1")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
