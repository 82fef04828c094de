"""Tiny random depth-one problems, small enough for exhaustive search over their QUBO's states, and
that exhaustive search, vectorised."""

import functools
import itertools

import numpy as np

from boolrules.formulations import depth_one


def tiny(operator, seed, max_vars=20, **kwargs):
    """The largest random instance (up to 5 samples, 2 features, 2 literals, both classes) whose
    with-η QUBO in the largest encoding (`slack="minimal"`) has at most `max_vars` variables, so
    that every mode's QUBO can be enumerated; `kwargs` go to `depth_one`. Built once per
    arguments and shared (tests only read it): the search compiles up to eight QUBOs."""
    return _tiny(operator, seed, max_vars, tuple(sorted(kwargs.items())))


@functools.cache
def _tiny(operator, seed, max_vars, kwargs):
    kwargs = dict(kwargs)
    for max_lit, n in itertools.product((2, 1), (5, 4, 3, 2)):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 2, (n, 2), dtype=np.uint8)
        y = np.array([0, 1] + list(rng.integers(0, 2, n - 2)), dtype=np.uint8)
        if kwargs.get("min_num_literals", 0) > max_lit:
            continue
        problem = depth_one(X, y, operator, max_num_literals=max_lit, **kwargs)
        if problem.to_qubo(eta=True, penalty="sufficient", slack="minimal").num_variables <= max_vars:
            return problem
    raise AssertionError(f"no instance of {operator} fits in {max_vars} variables")


def all_states(count: int) -> np.ndarray:
    """Every 0/1 vector of length `count`, one a row (int8), the first variable the highest bit."""
    return ((np.arange(2**count)[:, None] >> np.arange(count - 1, -1, -1)) & 1).astype(np.int8)


def exhaustive(bqm, labels=None, atol=1e-9, rtol=0.0):
    """(minimum energy, every state within `atol + rtol * |minimum|` of it, as rows over `labels`;
    rtol=1e-5 keeps the states `dimod.SampleSet.lowest` keeps) of a BINARY `bqm`,
    by enumerating all 2^N states at once in numpy (N up to about 24): the variables split in two
    halves h, l, and E[h, l] = E_h[h] + E_l[l] + x_h J_hl x_l', a product of two small matrices."""
    labels = list(bqm.variables) if labels is None else list(labels)
    linear, (rows, cols, quad), offset = bqm.to_numpy_vectors(labels)
    N = len(labels)
    J = np.zeros((N, N))
    np.add.at(J, (np.minimum(rows, cols), np.maximum(rows, cols)), quad)  # upper triangle: x' J x
    high, low = np.arange(N // 2), np.arange(N // 2, N)
    Xh, Xl = all_states(len(high)).astype(float), all_states(len(low)).astype(float)

    def own(X, part):
        return X @ linear[part] + np.einsum("si,ij,sj->s", X, J[np.ix_(part, part)], X)

    energy = offset + own(Xh, high)[:, None] + own(Xl, low)[None, :] + (Xh @ J[np.ix_(high, low)]) @ Xl.T
    best = float(energy.min())
    h, l = np.nonzero(energy <= best + atol + rtol * abs(best))
    return best, np.concatenate([Xh[h], Xl[l]], axis=1).astype(np.int8)
