"""QUBOs and depth-one models as OMMX instances (the open exchange format of the OMMX/Jij
ecosystem), written as an OMMX artifact archive that `ommx.artifact.Artifact.load_archive` reads.

OMMX is the `ommx` extra, so this module is imported only where an OMMX file is written. Variable
ids are positions: the QUBO's `labels` order, the model's standard-form columns; each variable is
named by its label.
"""

from __future__ import annotations

import numpy as np
from ommx.artifact import ArtifactBuilder
from ommx.v1 import DecisionVariable, Instance, Linear, Quadratic

from .matrix import qubo_matrix

__all__ = ["model_instance", "qubo_instance", "write_instance"]


def qubo_instance(qubo) -> Instance:
    """Minimise x Q x + offset over binaries, variable i = `qubo.labels[i]`."""
    Q, offset = qubo_matrix(qubo)
    Q = Q.tocoo()
    diagonal = Q.row == Q.col
    linear = Linear(terms=dict(zip(Q.row[diagonal].tolist(), Q.data[diagonal].tolist())), constant=offset)
    objective = Quadratic(columns=Q.col[~diagonal].tolist(), rows=Q.row[~diagonal].tolist(),
                          values=Q.data[~diagonal].tolist(), linear=linear)
    variables = [DecisionVariable.binary(i, name=str(label)) for i, label in enumerate(qubo.labels)]
    instance = Instance.from_components(decision_variables=variables, objective=objective, constraints=[],
                                        sense=Instance.MINIMIZE)
    instance.title = f"QUBO of the {qubo.problem.label} problem (boolrules)"
    return instance


def model_instance(problem) -> Instance:
    """The problem's standard form `lower <= A x <= upper`, minimise c x + c0, variable j = column j:
    binaries and the integer k; a row with both bounds finite and different is two constraints."""
    form = problem.standard_form
    variables = [
        DecisionVariable.binary(j, name=name) if (lo, hi) == (0, 1)
        else DecisionVariable.integer(j, lower=lo, upper=hi, name=name)
        for j, (name, lo, hi) in enumerate(zip(form.var_names, form.var_lower.tolist(), form.var_upper.tolist()))
    ]
    A = form.A.tocsr()
    constraints = []
    for r in range(A.shape[0]):  # OMMX takes constraints one at a time
        cols = slice(A.indptr[r], A.indptr[r + 1])
        body = Linear(terms=dict(zip(A.indices[cols].tolist(), A.data[cols].tolist())))
        lower, upper = float(form.lower[r]), float(form.upper[r])
        if lower == upper:
            sides = [body - lower == 0]
        else:
            sides = [body - upper <= 0] if np.isfinite(upper) else []
            sides += [lower - body <= 0] if np.isfinite(lower) else []
        for side in sides:
            side.add_name(form.row_names[r])
        constraints += sides
    objective = Linear(terms=dict(enumerate(form.c.tolist())), constant=float(form.c0))
    instance = Instance.from_components(decision_variables=variables, objective=objective, constraints=constraints,
                                        sense=Instance.MINIMIZE)
    instance.title = f"ILP of the {problem.label} problem (boolrules)"
    return instance


def write_instance(path, instance: Instance) -> None:
    """`instance` as an OMMX artifact archive at `path` (an unnamed image, nothing pushed anywhere)."""
    builder = ArtifactBuilder.new_archive_unnamed(str(path))
    builder.add_instance(instance)
    builder.build()
