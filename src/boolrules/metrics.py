"""Classification metrics computed from confusion counts, so a search scores a rule with two popcounts.

Each metric equals its scikit-learn namesake on 0/1 labels (tested) and also takes arrays of
counts, to score many rules at once; `balanced_sample_weight`
gives the weights under which weighted error is exactly 1 - balanced accuracy
(`docs/formulations.md`, "Notation").
"""

from __future__ import annotations

import numpy as np

from .exceptions import InputError
from .validation import check_binary_labels

__all__ = ["METRICS", "get_metric", "score_counts", "balanced_sample_weight"]


def _div(num, den):
    """num / den, with 0 where den is 0; scalars stay Python floats (the search's hot path)."""
    if isinstance(den, np.ndarray):
        return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)
    return num / den if den else 0.0


def _balanced_accuracy(tp, fp, fn, tn):
    return 0.5 * (_div(tp, tp + fn) + _div(tn, tn + fp))


def _accuracy(tp, fp, fn, tn):
    return (tp + tn) / (tp + fp + fn + tn)


def _f1(tp, fp, fn, tn):
    return _div(2 * tp, 2 * tp + fp + fn)


def _precision(tp, fp, fn, tn):
    return _div(tp, tp + fp)


def _recall(tp, fp, fn, tn):
    return _div(tp, tp + fn)


def _matthews(tp, fp, fn, tn):
    den = ((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)) ** 0.5
    return _div(tp * tn - fp * fn, den)


def _jaccard(tp, fp, fn, tn):
    return _div(tp, tp + fp + fn)


METRICS = {
    "balanced_accuracy": _balanced_accuracy,
    "accuracy": _accuracy,
    "f1": _f1,
    "precision": _precision,
    "recall": _recall,
    "matthews_corrcoef": _matthews,
    "jaccard": _jaccard,
}


def get_metric(name: str):
    """The metric function `(tp, fp, fn, tn) -> score` registered under `name`."""
    try:
        return METRICS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}") from None


def score_counts(name: str, y_true, y_pred) -> float:
    """Score 0/1 predictions with the named metric (the positive class is 1)."""
    metric = get_metric(name)
    y_true = check_binary_labels(y_true, "y_true").astype(bool)
    y_pred = check_binary_labels(y_pred, "y_pred").astype(bool)
    if len(y_true) != len(y_pred):
        raise InputError(f"y_true and y_pred must have the same length, got {len(y_true)} and {len(y_pred)}")
    if not len(y_true):
        raise InputError("y_true and y_pred are empty; a score needs at least one sample")
    tp = int(np.count_nonzero(y_true & y_pred))
    fp = int(np.count_nonzero(~y_true & y_pred))
    fn = int(np.count_nonzero(y_true & ~y_pred))
    return metric(tp, fp, fn, len(y_true) - tp - fp - fn)


def balanced_sample_weight(y) -> np.ndarray:
    """`w_i = n / (2 n_{y_i})` for 0/1 labels: weighted error / n = 1 - balanced accuracy."""
    y = check_binary_labels(y, "y").astype(bool)
    n = len(y)
    num_pos = int(y.sum())
    if num_pos in (0, n):
        raise InputError("balanced weights need both classes in y")
    return np.where(y, n / (2 * num_pos), n / (2 * (n - num_pos)))
