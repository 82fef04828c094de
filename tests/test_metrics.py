import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from sklearn.model_selection import PredefinedSplit

from boolrules import RuleClassifier, RuleClassifierCV
from boolrules.metrics import METRICS, balanced_sample_weight, score_counts

from .errors import assert_raises_clearly

SKLEARN = {  # their defaults; zero_division "warn" scores 0 (the warning aside)
    "balanced_accuracy": skm.balanced_accuracy_score,
    "accuracy": skm.accuracy_score,
    "f1": skm.f1_score,
    "precision": skm.precision_score,
    "recall": skm.recall_score,
    "matthews_corrcoef": skm.matthews_corrcoef,
    "jaccard": skm.jaccard_score,
}


def sklearn_score(name, y_true, y_pred, sample_weight=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SKLEARN[name](y_true, y_pred, sample_weight=sample_weight)


def test_every_metric_the_estimator_accepts_is_checked():
    accepted = RuleClassifier._parameter_constraints["metric"][0].options
    assert set(SKLEARN) == set(METRICS) == accepted


@st.composite
def labelled(draw):
    """0/1 `y_true`, `y_pred` and weights (or None), often degenerate: one class in either, weights
    with zeros, a single sample (no subnormal weights: sklearn rounds those away where a product underflows)."""
    n = draw(st.integers(1, 12))
    labels = st.one_of(st.just([0] * n), st.just([1] * n), st.lists(st.integers(0, 1), min_size=n, max_size=n))
    weight = st.one_of(st.just(0.0), st.just(1.0), st.floats(1e-3, 100.0), st.integers(0, 3).map(float))
    weights = st.one_of(st.none(), st.lists(weight, min_size=n, max_size=n))
    return np.array(draw(labels)), np.array(draw(labels)), draw(weights)


@settings(max_examples=150, deadline=None)
@given(data=labelled())
def test_metrics_equal_sklearn(data):
    """Every metric on each drawn labelling: 150 labellings for each metric, as when each metric drew
    its own, at a seventh of the drawing (which costs about as much as the scoring)."""
    for name in METRICS:
        assert_metric_equals_sklearn(name, *data)


def assert_metric_equals_sklearn(name, y_true, y_pred, weights):
    if weights is not None and not any(weights):
        with pytest.raises(ValueError):
            sklearn_score(name, y_true, y_pred, weights)
        assert_raises_clearly(ValueError, lambda: score_counts(name, y_true, y_pred, weights), "sample_weight", "zero")
        return
    expected = sklearn_score(name, y_true, y_pred, weights)
    if name == "matthews_corrcoef" and np.isnan(expected):
        # a class or a prediction of weight 0: sklearn scores that 0, unless its covariance product rounds
        # to a tiny negative first (sqrt: nan), as with weights (0, 0, 0, 0, 1, 97.82316274296814)
        w = np.ones(len(y_true)) if weights is None else np.asarray(weights)
        assert min(w @ y_true, w @ (1 - y_true), w @ y_pred, w @ (1 - y_pred)) == 0
        expected = 0.0
    assert score_counts(name, y_true, y_pred, weights) == pytest.approx(expected, rel=1e-9, abs=1e-12), name


def test_matthews_corrcoef_where_sklearn_rounds_to_nan():
    """The case hypothesis found: all labels 0, so the denominator is 0 and the score 0 (sklearn's
    convention), where sklearn itself returns nan by rounding."""
    y_true, y_pred, weights = [0] * 6, [0, 0, 0, 0, 0, 1], [0.0, 0.0, 0.0, 0.0, 1.0, 97.82316274296814]
    assert score_counts("matthews_corrcoef", y_true, y_pred, weights) == 0.0
    assert score_counts("matthews_corrcoef", y_true, y_pred, [0.0, 0.0, 0.0, 0.0, 1.0, 97.0]) == sklearn_score(
        "matthews_corrcoef", y_true, y_pred, [0.0, 0.0, 0.0, 0.0, 1.0, 97.0])


@pytest.mark.parametrize("name", list(METRICS))
@pytest.mark.parametrize("y_true, y_pred", [
    ([1, 1, 1], [1, 1, 1]), ([0, 0, 0], [0, 0, 0]), ([1, 1, 1], [1, 0, 0]), ([0, 0, 0], [1, 0, 0]),
    ([1, 1], [0, 0]), ([0, 0], [1, 1]), ([0, 1, 1], [1, 1, 1]), ([0, 1, 1], [0, 0, 0]), ([1], [1]), ([0], [1]),
])
@pytest.mark.parametrize("weighted", [False, True])
def test_metrics_equal_sklearn_on_one_class(name, y_true, y_pred, weighted):
    weights = np.arange(1.0, len(y_true) + 1) * 0.5 if weighted else None
    assert score_counts(name, y_true, y_pred, weights) == pytest.approx(sklearn_score(name, y_true, y_pred, weights))


@pytest.mark.parametrize("name", list(METRICS))
def test_metrics_on_arrays_of_counts_equal_the_scalar_ones(name):
    rng = np.random.default_rng(2)
    counts = rng.integers(0, 4, (4, 300))
    counts[:, :40] *= rng.integers(0, 2, (4, 40))  # many zero cells: one class, no prediction of one
    counts[:, counts.sum(axis=0) == 0] = 1
    vectorised = METRICS[name](*counts)
    assert vectorised == pytest.approx([METRICS[name](*map(int, column)) for column in counts.T])


def test_empty_labels_and_bad_weights_are_refused():
    assert_raises_clearly(ValueError, lambda: score_counts("accuracy", [], []), "empty")
    assert_raises_clearly(ValueError, lambda: score_counts("f1", [0, 1], [0, 1], [1.0, -1.0]), "sample_weight")
    assert_raises_clearly(ValueError, lambda: score_counts("f1", [0, 1], [0, 1], [1.0]), "sample_weight")


def test_score_on_one_class_equals_sklearn():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (60, 4))
    y = X[:, 0] ^ (rng.random(60) < 0.1)
    clf = RuleClassifier(max_complexity=3, num_starts=1, num_iterations=200, random_state=0).fit(X, y)
    ones, right = y == 1, clf.predict(X) == y
    for rows in (ones, ~ones, ones & right):
        expected = sklearn_score("balanced_accuracy", y[rows], clf.predict(X[rows]))
        assert clf.score(X[rows], y[rows]) == pytest.approx(expected)
    assert clf.score(X[ones & right], y[ones & right]) == 1.0


def test_cv_fold_scores_on_one_class_are_that_class_recall():
    """A test fold of one class scores the recall of that class (sklearn), not half of it."""
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, (60, 4))
    y = X[:, 0] ^ (rng.random(60) < 0.1)
    folds = np.full(60, -1)
    folds[np.flatnonzero(y == 1)[:8]] = 0
    folds[np.flatnonzero(y == 0)[:8]] = 1
    search = RuleClassifierCV(complexities=[3], lams=[0.0], num_starts=1, num_iterations=100, cv=PredefinedSplit(folds),
                              random_state=0).fit(X, y)
    for k in range(2):
        score = search.cv_results_[f"split{k}_test_score"][0]
        assert score > 0.5 and (score * 8) % 1 == 0  # the share of the fold's 8 samples predicted right


def test_balanced_weights_turn_weighted_error_into_balanced_accuracy():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 80)
    p = rng.integers(0, 2, 80)
    w = balanced_sample_weight(y)
    assert 1 - (w * (y != p)).sum() / len(y) == pytest.approx(skm.balanced_accuracy_score(y, p))
    with pytest.raises(ValueError, match="both classes"):
        balanced_sample_weight(np.ones(4))


def test_unknown_metric():
    with pytest.raises(ValueError, match="unknown metric 'auc'"):
        score_counts("auc", [0, 1], [0, 1])
