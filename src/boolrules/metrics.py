"""Classification metrics computed from confusion counts, so a search scores a rule with two popcounts.

Each metric equals its scikit-learn namesake on 0/1 labels, with or without sample weights, on
every edge case too (one class, all predictions one class; tested), and also takes arrays of
(weighted) counts, to score many rules at once; `balanced_sample_weight`
gives the weights under which weighted error is exactly 1 - balanced accuracy
(`docs/formulations.md`, "Notation").
"""

from __future__ import annotations

import numpy as np

from .exceptions import InputError
from .validation import check_binary_labels, check_sample_weight

__all__ = ["METRICS", "get_metric", "score_counts", "balanced_sample_weight"]


def _div(num, den):
    """num / den, with 0 where den is 0; scalars stay Python floats (the search's hot path)."""
    if isinstance(den, np.ndarray):
        return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)
    return num / den if den else 0.0


def _balanced_accuracy(tp, fp, fn, tn):
    """The mean recall over the classes y_true holds (scikit-learn leaves out a class with no
    true sample, or no weight: its recall is undefined), so one class in y_true scores its recall."""
    pos, neg = tp + fn, tn + fp
    return _div(_div(tp, pos) + _div(tn, neg), (pos != 0) * 1 + (neg != 0) * 1)


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


def score_counts(name: str, y_true, y_pred, sample_weight=None) -> float:
    """Score 0/1 predictions with the named metric (the positive class is 1), each sample counted
    with its `sample_weight` (default 1), as scikit-learn's metric of that name scores them."""
    metric = get_metric(name)
    y_true = check_binary_labels(y_true, "y_true").astype(bool)
    y_pred = check_binary_labels(y_pred, "y_pred").astype(bool)
    if len(y_true) != len(y_pred):
        raise InputError(f"y_true and y_pred must have the same length, got {len(y_true)} and {len(y_pred)}")
    if not len(y_true):
        raise InputError("y_true and y_pred are empty; a score needs at least one sample")
    cells = (y_true & y_pred, ~y_true & y_pred, y_true & ~y_pred, ~y_true & ~y_pred)  # tp, fp, fn, tn
    if sample_weight is None:
        return metric(*(int(np.count_nonzero(cell)) for cell in cells))
    weights = check_sample_weight(sample_weight, len(y_true))
    if not weights.any():
        raise InputError("sample_weight is all zeros; a score needs at least one sample of nonzero weight")
    return metric(*(float(weights[cell].sum()) for cell in cells))


def balanced_sample_weight(y) -> np.ndarray:
    """`w_i = n / (2 n_{y_i})` for 0/1 labels: weighted error / n = 1 - balanced accuracy."""
    y = check_binary_labels(y, "y").astype(bool)
    n = len(y)
    num_pos = int(y.sum())
    if num_pos in (0, n):
        raise InputError("balanced weights need both classes in y")
    return np.where(y, n / (2 * num_pos), n / (2 * (n - num_pos)))
