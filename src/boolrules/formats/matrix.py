"""A QUBO as one sparse upper-triangular matrix, the form the matrix files (.npz, .mtx) and OMMX
hold."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["qubo_matrix"]


def qubo_matrix(qubo) -> tuple[sp.csr_matrix, float]:
    """The upper-triangular Q (linear biases on the diagonal) with energy `x Q x + offset`,
    variable i = `qubo.labels[i]`, and the offset."""
    linear, (row, col, quadratic), offset = qubo.bqm.binary.to_numpy_vectors(qubo.labels)
    n = len(linear)
    rows = np.concatenate([np.arange(n), np.minimum(row, col)])
    cols = np.concatenate([np.arange(n), np.maximum(row, col)])
    Q = sp.csr_matrix((np.concatenate([linear, quadratic]), (rows, cols)), shape=(n, n))
    return Q, float(offset)
