"""Row subsampling: the rows a depth-one problem is built on when there are more than it should hold."""

from __future__ import annotations

import random

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["subsample_rows"]


def subsample_rows(num_rows: int, max_samples: int | None, random_state, labels=None) -> np.ndarray:
    """Sorted indices of `max_samples` of `num_rows` rows drawn without replacement, or every row
    when `max_samples` is None or not below `num_rows`. `random_state` is a `random.Random` (the
    native search's stream) or anything `check_random_state` takes (a seed, a RandomState).

    With `labels` (0/1 per row), the draw is stratified: each class gets its share of the rows,
    rounded, and at least one row while `max_samples` >= 2, so that a small cap (a problem sized
    for exact enumeration or QAOA) still holds both classes."""
    if max_samples is None or num_rows <= max_samples:
        return np.arange(num_rows)
    if not isinstance(random_state, random.Random):
        random_state = check_random_state(random_state)
    if labels is None:
        return np.sort(_draw(np.arange(num_rows), max_samples, random_state))
    positive = np.flatnonzero(np.asarray(labels) == 1)
    negative = np.setdiff1d(np.arange(num_rows), positive)
    share = round(max_samples * len(positive) / num_rows)
    if max_samples >= 2 and len(positive) and len(negative):
        share = min(max(share, 1), max_samples - 1)
    share = min(max(share, max_samples - len(negative)), len(positive))
    return np.sort(np.concatenate([_draw(positive, share, random_state),
                                   _draw(negative, max_samples - share, random_state)]))


def _draw(pool: np.ndarray, count: int, random_state) -> np.ndarray:
    """`count` distinct entries of `pool`, drawn with the caller's stream."""
    if isinstance(random_state, random.Random):
        return pool[random_state.sample(range(len(pool)), count)]
    return pool[random_state.choice(len(pool), count, replace=False)]
