"""One writer per file format: `write(obj, path)` writes a QUBO (`QUBO_WRITERS`) or a depth-one
model (`PROBLEM_WRITERS`) to `path`; `files.py` makes the write atomic."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from ..formulations.cqm import CQM_CHAIN

__all__ = ["PROBLEM_WRITERS", "QUBO_WRITERS", "lp_name"]


def lp_name(label) -> str:
    """A QUBO label as an LP identifier (LP has no [ ]): b[0] -> b(0)."""
    return str(label).translate({ord("["): "(", ord("]"): ")"})


def _write_bqm(qubo, path):
    with qubo.bqm.to_file() as data, open(path, "wb") as out:
        shutil.copyfileobj(data, out)


def _write_cqm(qubo, path):
    cqm, _ = CQM_CHAIN.apply(qubo.problem)
    with cqm.to_file() as data, open(path, "wb") as out:
        shutil.copyfileobj(data, out)


def _write_json(qubo, path):
    Path(path).write_text(json.dumps(qubo.bqm.to_serializable()))


def _write_ising(qubo, path):
    h, J, offset = qubo.bqm.to_ising()
    Path(path).write_text(json.dumps({"h": h, "J": [[u, v, bias] for (u, v), bias in J.items()], "offset": offset}))


def _write_qbsolv(qubo, path):
    linear, (row, col, quadratic), offset = qubo.bqm.binary.to_numpy_vectors(qubo.labels)
    n = len(linear)
    nodes = np.column_stack([np.arange(n), np.arange(n), linear])
    couplers = np.column_stack([np.minimum(row, col), np.maximum(row, col), quadratic])
    lines = [
        f"c QUBO of {qubo.num_variables} variables numbered in labels order (boolrules)",
        f"c offset {float(offset)!r}",
        f"p qubo 0 {n} {n} {len(quadratic)}",
        *(f"{int(i)} {int(j)} {bias!r}" for i, j, bias in np.vstack([nodes, couplers]).tolist()),
    ]
    Path(path).write_text("\n".join(lines) + "\n")


def _write_lp(qubo, path):
    from qiskit_optimization.translators import to_docplex_mp

    from .qiskit import quadratic_program

    program = quadratic_program(qubo.bqm.binary, names=[lp_name(v) for v in qubo.bqm.variables])
    Path(path).write_text(to_docplex_mp(program).export_as_lp_string())


def _write_qasm3(qubo, path):
    from qiskit import qasm3

    from .qiskit import qaoa_circuit

    Path(path).write_text(qasm3.dumps(qaoa_circuit(qubo)))


def _model_writer(fmt):
    """The depth-one problem's Pyomo model, written by the model itself with its own names."""
    def write(problem, path):
        problem.model.write(str(path), format=fmt, io_options={"symbolic_solver_labels": True})
    return write


QUBO_WRITERS = {
    "bqm": _write_bqm, "json": _write_json, "cqm": _write_cqm, "ising": _write_ising,
    "qubo": _write_qbsolv, "lp": _write_lp, "qasm3": _write_qasm3,
}
PROBLEM_WRITERS = {"lp": _model_writer("cpxlp"), "mps": _model_writer("mps")}
