"""Feature preselection: keep the `max_features` most informative binary features, so that a
depth-one problem fits a backend's size limit (exact enumeration, QAOA qubits, a QPU).

Each feature is scored on its own against the labels, with the problem's sample weights; the
kept features keep their original column indices, so rules decode to the caller's features.
Scores are exact sums over whole columns, and ties go to the lower column index.
"""

from __future__ import annotations

import numpy as np

from ..exceptions import InputError
from ..rules import Literal, Operator, Rule
from ..validation import check_integer

__all__ = ["FEATURE_SCORES", "feature_scores", "select_features", "relabel"]

FEATURE_SCORES = ("error", "mutual_info")


def feature_scores(X: np.ndarray, y: np.ndarray, weights: np.ndarray, score: str = "error") -> np.ndarray:
    """How informative each column of the 0/1 matrix `X` is about `y` (higher is better).

    "error": minus the weighted error of the better of the literals x_j and ~x_j used alone as the
    rule (the depth-one objective of a one-literal rule). "mutual_info": the mutual information of
    x_j and y (in nats) under the weighted empirical distribution.
    """
    if score not in FEATURE_SCORES:
        raise InputError(f"feature_score must be one of {', '.join(FEATURE_SCORES)}, got {score!r}")
    X = np.asarray(X, dtype=np.float64)
    positive = weights * (y == 1)
    negative = weights * (y != 1)
    total = float(weights.sum())
    on_positive, on_negative = positive @ X, negative @ X  # weight of the samples where x_j = 1, per class
    if score == "error":
        error = on_negative + (positive.sum() - on_positive)  # x_j predicts 1 where it is 1
        return -np.minimum(error, total - error)
    off = 1.0 - X
    joint = np.stack([on_positive, on_negative, positive @ off, negative @ off]) / total  # (x, y): 11, 10, 01, 00
    p_x, p_y = joint[[0, 0, 2, 2]] + joint[[1, 1, 3, 3]], joint[[0, 1, 0, 1]] + joint[[2, 3, 2, 3]]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * np.log(joint / (p_x * p_y)), 0.0)
    return terms.sum(axis=0)


def select_features(X: np.ndarray, y: np.ndarray, weights: np.ndarray, max_features: int,
                    score: str = "error") -> np.ndarray:
    """The sorted column indices of the `max_features` best columns of `X` by `feature_scores`
    (all of them when there are no more); equal scores go to the lower index."""
    max_features = check_integer(max_features, "max_features", 1)
    scores = feature_scores(X, y, weights, score)
    m = len(scores)
    if max_features >= m:
        return np.arange(m)
    scale = max(float(np.abs(scores).max()), 1e-300)
    ranked = np.round(scores / scale, 12)  # equal sums taken in another order are equal, not float noise
    order = np.lexsort((np.arange(m), -ranked))
    return np.sort(order[:max_features])


def relabel(rule: Rule, index: dict[int, int]) -> Rule:
    """`rule` with each literal's feature j replaced by `index[j]` (KeyError for a feature not in `index`)."""
    if isinstance(rule, Literal):
        return Literal(index[rule.index], rule.negated)
    if isinstance(rule, Operator):
        return rule.replace(tuple(relabel(sub, index) for sub in rule.subrules))
    return rule
