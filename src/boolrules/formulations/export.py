"""Write QUBOs and depth-one models to files other tools read, and read the QUBO files back.

Every file is written to a temporary name in the target directory and renamed into place, so a
failed write never leaves a partial file. Loaders check a file's structure before building a
model from it and never unpickle.

QUBO formats: "bqm" (dimod's binary file), "json" (dimod's serializable dict), "cqm" (the
depth-one problem as a dimod CQM file), "ising" (JSON {"h": {label: h}, "J": [[u, v, J_uv], ...],
"offset": c} of `bqm.to_ising()`), "qubo" (qbsolv text, variable i = `labels[i]`), "lp" (CPLEX LP
of the QUBO, written by docplex; names are labels with [] -> ()), "qasm3" (OpenQASM 3 of the
reps=1 QAOA ansatz with β and γ left as `input` parameters; there is no loader for it).
Depth-one model formats: "lp" and "mps", written by Pyomo with the model's own names.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
import zipfile
from pathlib import Path

import dimod
import numpy as np

from .dimod_files import check_pairs, finite, labels_from_json, read_bqm, read_cqm

__all__ = [
    "QUBO_FORMATS", "PROBLEM_FORMATS", "LOAD_FORMATS", "export_qubo", "export_problem", "load_qubo_file", "to_cqm",
    "lp_name",
]


def to_cqm(problem) -> dimod.ConstrainedQuadraticModel:
    """The depth-one problem's standard form as a dimod CQM: binaries, the integer k, its rows as
    linear constraints labelled by row name, and the objective c x + c0."""
    form = problem.standard_form
    names = np.array(form.var_names, dtype=object)
    binary = (form.var_lower == 0) & (form.var_upper == 1)
    cqm = dimod.ConstrainedQuadraticModel()
    cqm.add_variables("BINARY", names[binary].tolist())
    for i in np.flatnonzero(~binary):  # k, the one integer variable of the parameterized operators
        cqm.add_variable("INTEGER", names[i], lower_bound=form.var_lower[i], upper_bound=form.var_upper[i])
    cqm.set_objective(zip(names.tolist(), form.c.tolist()))
    cqm.objective.offset = form.c0
    A = form.A.tocsr()
    for r, row in enumerate(form.row_names):  # dimod takes constraints one at a time
        cols = slice(A.indptr[r], A.indptr[r + 1])
        terms = list(zip(names[A.indices[cols]].tolist(), A.data[cols].tolist()))
        lower, upper = form.lower[r], form.upper[r]
        sides = [("==", lower)] if lower == upper else [
            (sense, rhs) for sense, rhs in ((">=", lower), ("<=", upper)) if np.isfinite(rhs)]
        for sense, rhs in sides:
            cqm.add_constraint_from_iterable(terms, sense, rhs, label=row if len(sides) == 1 else f"{row} {sense}")
    return cqm


def lp_name(label) -> str:
    """A QUBO label as an LP identifier (LP has no [ ]): b[0] -> b(0)."""
    return str(label).translate({ord("["): "(", ord("]"): ")"})


# Writers: each writes one object to a file path.

def _write_bqm(qubo, path):
    with qubo.bqm.to_file() as data, open(path, "wb") as out:
        shutil.copyfileobj(data, out)


def _write_cqm(qubo, path):
    with to_cqm(qubo.problem).to_file() as data, open(path, "wb") as out:
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

    from .to_qiskit import quadratic_program

    program = quadratic_program(qubo.bqm.binary, names=[lp_name(v) for v in qubo.bqm.variables])
    Path(path).write_text(to_docplex_mp(program).export_as_lp_string())


def _write_qasm3(qubo, path):
    from qiskit import qasm3

    from .to_qiskit import qaoa_circuit

    Path(path).write_text(qasm3.dumps(qaoa_circuit(qubo)))


def _pyomo_writer(fmt):
    def write(problem, path):
        problem.model.write(str(path), format=fmt, io_options={"symbolic_solver_labels": True})
    return write


_QUBO_WRITERS = {
    "bqm": _write_bqm, "json": _write_json, "cqm": _write_cqm, "ising": _write_ising,
    "qubo": _write_qbsolv, "lp": _write_lp, "qasm3": _write_qasm3,
}
_PROBLEM_WRITERS = {"lp": _pyomo_writer("cpxlp"), "mps": _pyomo_writer("mps")}
QUBO_FORMATS = tuple(_QUBO_WRITERS)
PROBLEM_FORMATS = tuple(_PROBLEM_WRITERS)


def _pick(table: dict, format, what: str):
    if not isinstance(format, str) or format not in table:
        raise ValueError(f"unknown {what} format {format!r}; formats: {', '.join(table)}")
    return table[format]


def _write_atomic(path, write) -> Path:
    """Call `write(tmp)` on a fresh name beside `path`, then rename it to `path`; remove it on failure.
    An OSError names `path` (not the temporary name)."""
    path = _checked_path(path)
    if not path.parent.is_dir():
        raise FileNotFoundError(f"cannot write {path}: folder {path.parent} does not exist")
    if path.is_dir():
        raise IsADirectoryError(f"cannot write {path}: it is a folder")
    tmp = path.with_name(f".{uuid.uuid4().hex}.{path.name}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException as err:
        tmp.unlink(missing_ok=True)
        if isinstance(err, OSError) and str(path) not in str(err):
            raise type(err)(f"cannot write {path}: {err.strerror or err}") from err
        raise
    return path


def _checked_path(path) -> Path:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    return Path(path)


def export_qubo(qubo, path, format: str) -> Path:
    """Write a `QuboProblem` to `path` in one of `QUBO_FORMATS`."""
    writer = _pick(_QUBO_WRITERS, format, "QUBO export")
    return _write_atomic(path, lambda tmp: writer(qubo, tmp))


def export_problem(problem, path, format: str) -> Path:
    """Write a `DepthOneProblem`'s Pyomo model to `path` in one of `PROBLEM_FORMATS`."""
    writer = _pick(_PROBLEM_WRITERS, format, "model export")
    return _write_atomic(path, lambda tmp: writer(problem, tmp))


# Loaders: each reads one file and raises ValueError on anything but a well-formed model.

def _checked_bqm(bqm: dimod.BinaryQuadraticModel) -> dimod.BinaryQuadraticModel:
    linear, (_, _, quadratic), offset = bqm.to_numpy_vectors()
    finite(np.concatenate([linear, quadratic, [offset]]), "biases")
    return bqm


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except RecursionError:
        raise ValueError("its JSON is nested too deeply") from None


def _load_bqm(path: Path):
    return read_bqm(path.read_bytes())


def _load_cqm(path: Path):
    return read_cqm(path.read_bytes())


_JSON_KEYS = {"type", "version", "use_bytes", "index_type", "bias_type", "num_variables", "num_interactions",
              "variable_labels", "variable_type", "offset", "info", "linear_biases", "quadratic_biases",
              "quadratic_head", "quadratic_tail"}


def _load_json(path: Path):
    obj = _read_json(path)
    if not isinstance(obj, dict) or obj.get("type") != "BinaryQuadraticModel":
        raise ValueError('it is not a serialized dimod BQM (no "type": "BinaryQuadraticModel")')
    if set(obj) - _JSON_KEYS:
        raise ValueError(f"unknown key(s) {sorted(set(obj) - _JSON_KEYS)}; a serialized BQM has "
                         f"{', '.join(sorted(_JSON_KEYS))}")
    if obj.get("version") != {"bqm_schema": "3.0.0"} or obj.get("use_bytes") is not False:
        raise ValueError("only bqm_schema 3.0.0 without bytes is read")
    if obj.get("variable_type") not in ("BINARY", "SPIN"):
        raise ValueError(f"variable_type must be BINARY or SPIN, got {obj.get('variable_type')!r}")
    labels, linear = obj.get("variable_labels"), obj.get("linear_biases")
    head, tail, quadratic = obj.get("quadratic_head"), obj.get("quadratic_tail"), obj.get("quadratic_biases")
    if not all(isinstance(v, list) for v in (labels, linear, head, tail, quadratic)):
        raise ValueError("variable_labels, linear_biases, quadratic_head/tail/biases must be lists")
    if not len(labels) == len(linear) == obj.get("num_variables"):
        raise ValueError("variable_labels, linear_biases and num_variables disagree")
    if not len(head) == len(tail) == len(quadratic) == obj.get("num_interactions"):
        raise ValueError("quadratic_head, quadratic_tail, quadratic_biases and num_interactions disagree")
    index = finite(head + tail, "quadratic_head and quadratic_tail")
    if len(index) and (np.any(index != np.round(index)) or index.min() < 0 or index.max() >= len(labels)):
        raise ValueError(f"quadratic_head and quadratic_tail must be variable indices 0..{len(labels) - 1}")
    labels = labels_from_json(labels, len(labels), "variable_labels")
    head, tail = np.asarray(head, dtype=np.int64), np.asarray(tail, dtype=np.int64)
    check_pairs(head, tail, "quadratic_head and quadratic_tail")
    linear, quadratic = finite(linear, "linear_biases"), finite(quadratic, "quadratic_biases")
    offset = finite([obj.get("offset")], "offset")[0]
    return dimod.BinaryQuadraticModel.from_numpy_vectors(linear, (head, tail, quadratic), offset,
                                                         obj["variable_type"], variable_order=labels)


def _load_ising(path: Path):
    obj = _read_json(path)
    if not isinstance(obj, dict) or set(obj) != {"h", "J", "offset"}:
        raise ValueError('an Ising file holds exactly {"h": {...}, "J": [[u, v, bias], ...], "offset": number}')
    h, J = obj["h"], obj["J"]
    if not isinstance(h, dict) or not isinstance(J, list) or not all(
        isinstance(t, list) and len(t) == 3 and all(isinstance(v, str) for v in t[:2]) for t in J
    ):
        raise ValueError('"h" must map labels to biases and "J" be a list of [u, v, bias]')
    finite(list(h.values()) + [t[2] for t in J] + [obj["offset"]], "h, J and offset")
    pairs = [frozenset(t[:2]) for t in J]
    for u, v, _ in J:
        if u == v or u not in h or v not in h:
            raise ValueError(f'"J" joins {u!r} and {v!r}: it must join two different variables of "h"')
    if len(set(pairs)) != len(pairs):
        raise ValueError('"J" gives an interaction twice')
    return _checked_bqm(dimod.BinaryQuadraticModel.from_ising(h, {(u, v): b for u, v, b in J}, obj["offset"]))


def _load_qbsolv(path: Path):
    header, offset, rows = None, 0.0, []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "c":
            if fields[1:2] == ["offset"]:
                if len(fields) != 3:
                    raise ValueError(f"line {number}: expected 'c offset NUMBER', got {line!r}")
                offset = float(fields[2])
        elif fields[0] == "p":
            if header is not None or len(fields) != 6 or fields[1] != "qubo":
                raise ValueError(f"line {number}: expected one header 'p qubo 0 maxNodes nNodes nCouplers'")
            header = [int(v) for v in fields[2:]]
        elif header is None:
            raise ValueError(f"line {number}: data before the 'p qubo' header")
        elif len(fields) != 3:
            raise ValueError(f"line {number}: expected 'i j bias', got {line!r}")
        else:
            rows.append(fields)
    if header is None:
        raise ValueError("no 'p qubo' header")
    _, max_nodes, num_nodes, num_couplers = header
    if min(header) < 0 or max_nodes > num_nodes + 2 * num_couplers:
        raise ValueError(f"the header 'p qubo {' '.join(map(str, header))}' announces more variables than its "
                         "nodes and couplers can name, or a negative count")
    data = np.array(rows, dtype=float).reshape(-1, 3)
    i, j, bias = data[:, 0], data[:, 1], finite(data[:, 2], "biases")
    if np.any(i != np.round(i)) or np.any(j != np.round(j)) or np.any((data[:, :2] < 0) | (data[:, :2] >= max_nodes)):
        raise ValueError(f"variable numbers must be integers 0..{max_nodes - 1}")
    diagonal = i == j
    if diagonal.sum() != num_nodes or (~diagonal).sum() != num_couplers:
        raise ValueError(f"the header announces {num_nodes} nodes and {num_couplers} couplers, the file has "
                         f"{diagonal.sum()} and {(~diagonal).sum()}")
    linear = np.zeros(max_nodes)
    np.add.at(linear, i[diagonal].astype(np.int64), bias[diagonal])
    quadratic = (i[~diagonal].astype(np.int64), j[~diagonal].astype(np.int64), bias[~diagonal])
    return dimod.BinaryQuadraticModel.from_numpy_vectors(linear, quadratic, finite(offset, "offset"), "BINARY")


def _load_lp(path: Path):
    cqm = dimod.lp.load(str(path))
    if not cqm.num_variables():  # HiGHS' LP reader reads text that is no LP as an empty model
        raise ValueError("it defines no variables")
    if cqm.constraints:
        raise ValueError(f"it has {len(cqm.constraints)} constraints; a QUBO has none")
    if any(cqm.vartype(v) is not dimod.BINARY for v in cqm.variables):
        raise ValueError("every variable of a QUBO must be binary")
    objective = cqm.objective
    return _checked_bqm(dimod.BinaryQuadraticModel(objective.linear, objective.quadratic, objective.offset, "BINARY"))


_LOADERS = {"bqm": _load_bqm, "json": _load_json, "ising": _load_ising, "qubo": _load_qbsolv, "lp": _load_lp,
           "cqm": _load_cqm}
LOAD_FORMATS = tuple(_LOADERS)


def load_qubo_file(path, format: str):
    """Read a file written by `export_qubo`: a dimod BQM (BINARY; SPIN for "ising"; integer labels for
    "qubo", LP names for "lp"), or a CQM for "cqm". Malformed files raise ValueError naming the file."""
    loader = _pick(_LOADERS, format, "QUBO file")
    path = _checked_path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}" + (" (it is a folder)" if path.is_dir() else ""))
    try:
        return loader(path)
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, EOFError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path} is not a valid {format!r} file: {err}") from err
