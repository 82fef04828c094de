"""The depth-one problem sized for a backend: rows drawn, features selected, then `depth_one`, as
`DepthOneClassifier` and the `boolrules` command build it (one builder, so both build the same problem)."""

from __future__ import annotations

import numpy as np

from ..exceptions import InputError
from ..metrics import balanced_sample_weight
from ..sampling import subsample_rows
from .depth_one import depth_one
from .preselection import select_features
from .problem import DepthOneProblem

__all__ = ["build_depth_one"]


def build_depth_one(X: np.ndarray, y: np.ndarray, operator, *, max_num_literals: int, min_num_literals: int = 0,
                    lam: float = 0.0, sample_weight: str = "balanced", negated: bool = False,
                    max_samples: int | None = None, max_features: int | None = None, feature_score: str = "error",
                    random_state=None, feature_names=None) -> DepthOneProblem:
    """`depth_one` on `max_samples` rows of the 0/1 matrix `X` drawn stratified with `random_state`
    (`sampling.subsample_rows`; None: every row) and on the `max_features` best columns by
    `feature_score`, ranked on all rows (None: every column); `max_num_literals` is capped at
    twice the columns kept. `sample_weight` is "balanced" or "uniform"; balanced rows drawn from
    one class only are refused."""
    rows = subsample_rows(len(y), max_samples, random_state, labels=y)
    if sample_weight == "balanced" and len(np.unique(y[rows])) < 2:
        raise InputError(f"the {len(rows)} rows drawn hold one class only; raise max_samples")
    features = None
    if max_features is not None:  # the best features on all rows, not only on the rows drawn
        weights = balanced_sample_weight(y) if sample_weight == "balanced" else np.ones(len(y))
        features = select_features(X, y, weights, max_features, feature_score)
    return depth_one(
        X[rows], y[rows], operator,
        max_num_literals=min(max_num_literals, 2 * (X.shape[1] if features is None else len(features))),
        min_num_literals=min_num_literals, lam=lam, sample_weight=sample_weight, negated=negated,
        features=features, feature_names=feature_names,
    )
