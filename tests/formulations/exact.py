"""Exact ground states of BQMs too large for dimod's ExactSolver but structured like our QUBOs: once
a few `decision` variables are fixed, the rest fall apart into small independent components (one
per sample, one per hard row's slack), each minimised by enumeration for every decision state."""

import itertools

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components


def _states(count: int) -> np.ndarray:
    return np.array(list(itertools.product((0, 1), repeat=count)), dtype=float).reshape(-1, count)


def ground_energy(bqm, decision, chunk: int = 4096) -> tuple[float, dict]:
    """(minimum energy, a minimising sample) of the BINARY `bqm`, enumerating every state of the
    `decision` variables and minimising each remaining component exactly for each of them."""
    labels = list(bqm.variables)
    index = {v: i for i, v in enumerate(labels)}
    linear, (rows, cols, quad), offset = bqm.to_numpy_vectors(labels)
    N = len(labels)
    J = sp.coo_matrix((quad, (rows, cols)), shape=(N, N)).toarray()
    J = J + J.T  # x' J x / 2 is the quadratic energy
    D = np.array(sorted(index[v] for v in decision), dtype=np.int64)
    rest = np.setdiff1d(np.arange(N), D)
    count, component = connected_components(sp.csr_matrix(J[np.ix_(rest, rest)] != 0), directed=False)
    groups = [rest[component == c] for c in range(count)]
    assert max((len(g) for g in groups), default=0) <= 16, "a component is too large to enumerate"
    decisions = _states(len(D))
    best, best_state = np.inf, None
    for start in range(0, len(decisions), chunk):
        d = decisions[start:start + chunk]
        energy = offset + d @ linear[D] + 0.5 * np.einsum("si,ij,sj->s", d, J[np.ix_(D, D)], d)
        choices = []
        for g in groups:
            c = _states(len(g))
            own = c @ linear[g] + 0.5 * np.einsum("si,ij,sj->s", c, J[np.ix_(g, g)], c)
            total = own[None, :] + (d @ J[np.ix_(D, g)]) @ c.T
            pick = total.argmin(axis=1)
            energy = energy + total[np.arange(len(d)), pick]
            choices.append(c[pick])
        i = int(energy.argmin())
        if energy[i] < best:
            best = float(energy[i])
            state = np.zeros(N)
            state[D] = d[i]
            for g, c in zip(groups, choices):
                state[g] = c[i]
            best_state = state
    return best, {v: int(best_state[index[v]]) for v in labels}
