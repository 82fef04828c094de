"""Fixtures shared across test modules."""

import numpy as np
import pytest

from boolrules.formulations import depth_one


@pytest.fixture(scope="session")
def or_problem():
    """A depth-one Or problem (30 samples, 6 features, at most 2 literals) planted as x0 | x3."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (30, 6), dtype=np.uint8)
    y = (X[:, 0] | X[:, 3]).astype(np.uint8)
    return depth_one(X, y, "Or", max_num_literals=2)
