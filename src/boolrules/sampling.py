"""Row subsampling: the rows a depth-one problem is built on when there are more than it should hold."""

from __future__ import annotations

import random

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["subsample_rows"]


def subsample_rows(num_rows: int, max_samples: int | None, random_state) -> np.ndarray:
    """Sorted indices of `max_samples` of `num_rows` rows drawn without replacement, or every row
    when `max_samples` is None or not below `num_rows`. `random_state` is a `random.Random` (the
    native search's stream) or anything `check_random_state` takes (a seed, a RandomState)."""
    if max_samples is None or num_rows <= max_samples:
        return np.arange(num_rows)
    if isinstance(random_state, random.Random):
        rows = random_state.sample(range(num_rows), max_samples)
    else:
        rows = check_random_state(random_state).choice(num_rows, max_samples, replace=False)
    return np.sort(rows)
