"""One writer per file format: `write(obj, path)` writes a QUBO (`QUBO_WRITERS`) or a depth-one
model (`PROBLEM_WRITERS`) to `path` and returns the names its variables have in that file, in the
order the sidecar lists them (`sidecar.py`); `files.py` makes the write atomic."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp

from ..exceptions import InputError
from ..formulations.cqm import CQM_CHAIN
from .matrix import qubo_matrix

__all__ = ["PROBLEM_WRITERS", "QUBO_WRITERS", "lp_name"]


def lp_name(label) -> str:
    """A QUBO label as an LP identifier, as docplex writes it: LP has no [ ], so b[0] -> b(0), and
    a name may not start with e or E (it would read as an exponent), so eta[5] -> _eta(5)."""
    name = str(label).translate({ord("["): "(", ord("]"): ")"})
    return "_" + name if name[:1] in ("e", "E") else name


def _indices(qubo) -> list[str]:
    """The names of formats that number the variables: "0", "1", ... in `qubo.labels` order."""
    return [str(i) for i in range(qubo.num_variables)]


def _write_bqm(qubo, path):
    with qubo.bqm.to_file() as data, open(path, "wb") as out:
        shutil.copyfileobj(data, out)
    return [str(v) for v in qubo.labels]


def _write_cqm(qubo, path):
    cqm, _ = CQM_CHAIN.apply(qubo.problem)
    with cqm.to_file() as data, open(path, "wb") as out:
        shutil.copyfileobj(data, out)
    return list(qubo.problem.standard_form.var_names)


def _write_json(qubo, path):
    Path(path).write_text(json.dumps(qubo.bqm.to_serializable()))
    return [str(v) for v in qubo.labels]


def _write_ising(qubo, path):
    h, J, offset = qubo.bqm.to_ising()
    Path(path).write_text(json.dumps({"h": h, "J": [[u, v, bias] for (u, v), bias in J.items()], "offset": offset}))
    return [str(v) for v in qubo.labels]


def _write_qbsolv(qubo, path):
    """qbsolv text has no offset: a comment keeps it for `load_qubo_file`, the sidecar for everyone."""
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
    return _indices(qubo)


def _write_lp(qubo, path):
    """The QUBO as CPLEX LP, written by docplex under the names of `lp_name` (checked against
    docplex's own naming, so the sidecar's names are the file's)."""
    from docplex.mp.format import LP_format
    from qiskit_optimization.translators import to_docplex_mp

    from .qiskit import quadratic_program

    names = [lp_name(v) for v in qubo.bqm.variables]
    renamed = [name for i, name in enumerate(names) if LP_format.lp_name(name, "x", i) != name]
    if renamed:
        raise InputError(f"docplex would rename the LP variable {renamed[0]!r}; the name map would not hold")
    program = quadratic_program(qubo.bqm.binary, names=names)
    Path(path).write_text(to_docplex_mp(program).export_as_lp_string())
    return names


def _write_qasm3(qubo, path):
    from qiskit import qasm3

    from .qiskit import measured_qaoa_circuit

    Path(path).write_text(qasm3.dumps(measured_qaoa_circuit(qubo)))
    return _indices(qubo)


def _write_npz(qubo, path):
    Q, _ = qubo_matrix(qubo)
    with open(path, "wb") as out:  # a file object: save_npz would append .npz to a name
        sp.save_npz(out, Q)
    return _indices(qubo)


def _write_mtx(qubo, path):
    Q, offset = qubo_matrix(qubo)
    with open(path, "wb") as out:  # a file object: mmwrite would append .mtx to a name
        scipy.io.mmwrite(out, Q.tocoo(), comment=f" offset {offset!r}", field="real", precision=17)
    return _indices(qubo)


def _write_ommx(qubo, path):
    from .ommx import qubo_instance, write_instance

    write_instance(path, qubo_instance(qubo))
    return _indices(qubo)


def _model_writer(fmt):
    """The depth-one problem's Pyomo model, written by the model itself with its own names; the
    names are read from the writer's symbol map, in the standard form's column order."""
    def write(problem, path):
        model = problem.model
        _, symbols = model.write(str(path), format=fmt, io_options={"symbolic_solver_labels": True})
        by_object = model.solutions.symbol_map[symbols].byObject
        return [by_object[id(model.find_component(name))] for name in problem.standard_form.var_names]
    return write


def _write_model_ommx(problem, path):
    from .ommx import model_instance, write_instance

    write_instance(path, model_instance(problem))
    return [str(j) for j in range(problem.standard_form.num_vars)]


QUBO_WRITERS = {
    "bqm": _write_bqm, "json": _write_json, "cqm": _write_cqm, "ising": _write_ising,
    "qubo": _write_qbsolv, "lp": _write_lp, "qasm3": _write_qasm3, "npz": _write_npz, "mtx": _write_mtx,
    "ommx": _write_ommx,
}
PROBLEM_WRITERS = {"lp": _model_writer("cpxlp"), "mps": _model_writer("mps"), "ommx": _write_model_ommx}
