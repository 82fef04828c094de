"""Tiny random depth-one problems, small enough for exhaustive search over their QUBO's states."""

import itertools

import numpy as np

from boolrules.formulations import depth_one


def tiny(operator, seed, max_vars=20, **kwargs):
    """The largest random instance (up to 5 samples, 2 features, 2 literals, both classes) whose
    with-η QUBO has at most `max_vars` variables; `kwargs` go to `depth_one`."""
    for max_lit, n in itertools.product((2, 1), (5, 4, 3, 2)):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 2, (n, 2), dtype=np.uint8)
        y = np.array([0, 1] + list(rng.integers(0, 2, n - 2)), dtype=np.uint8)
        if kwargs.get("min_num_literals", 0) > max_lit:
            continue
        problem = depth_one(X, y, operator, max_num_literals=max_lit, **kwargs)
        if problem.to_qubo(eta=True, penalty="sufficient").num_variables <= max_vars:
            return problem
    raise AssertionError(f"no instance of {operator} fits in {max_vars} variables")
