"""Planted data: random 0/1 features labelled by a known rule, so that what a learner or solver
finds can be checked against the rule that made the data."""

import numpy as np


def planted(rule, n: int, m: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """`n` rows of `m` uniformly random 0/1 features (uint8) and their labels under `rule` (uint8)."""
    X = np.random.default_rng(seed).integers(0, 2, (n, m), dtype=np.uint8)
    return X, rule.evaluate(X).astype(np.uint8)
