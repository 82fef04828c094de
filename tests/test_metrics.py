import numpy as np
import pytest
from sklearn import metrics as skm

from boolrules.metrics import METRICS, balanced_sample_weight, score_counts

SKLEARN = {
    "balanced_accuracy": skm.balanced_accuracy_score,
    "accuracy": skm.accuracy_score,
    "f1": lambda t, p: skm.f1_score(t, p, zero_division=0),
    "precision": lambda t, p: skm.precision_score(t, p, zero_division=0),
    "recall": lambda t, p: skm.recall_score(t, p, zero_division=0),
    "matthews_corrcoef": skm.matthews_corrcoef,
    "jaccard": lambda t, p: skm.jaccard_score(t, p, zero_division=0),
}


@pytest.mark.parametrize("name", list(METRICS))
def test_metrics_equal_sklearn(name):
    rng = np.random.default_rng(0)
    for _ in range(30):
        y = rng.integers(0, 2, 50)
        p = rng.integers(0, 2, 50) if rng.random() < 0.8 else np.zeros(50, int)
        assert score_counts(name, y, p) == pytest.approx(SKLEARN[name](y, p))


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
