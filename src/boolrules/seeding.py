"""The seeds drawn from a `random_state` for samplers, folds, restarts and one-vs-rest fits: one bound
and one draw for all of them, whatever generator the caller holds."""

from __future__ import annotations

import random

import numpy as np

from .exceptions import InputTypeError

__all__ = ["MAX_SEED", "draw_seed"]

# dwave-samplers refuses seeds of 2**31 and above (its message says 2**32 - 1): one bound for every seed drawn.
MAX_SEED = 2**31 - 1


def draw_seed(rng: random.Random | np.random.RandomState, size=None):
    """A seed in [0, MAX_SEED) from `rng` (the native search's `random.Random` or a numpy `RandomState`),
    or an array of `size` of them (numpy only)."""
    if isinstance(rng, random.Random):
        if size is not None:
            raise InputTypeError("a random.Random draws one seed at a time; size needs a numpy RandomState")
        return rng.randrange(MAX_SEED)
    return rng.randint(MAX_SEED, size=size)
