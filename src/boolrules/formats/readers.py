"""One checked reader per QUBO file format (`READERS`): each reads a file and raises ValueError on
anything but a well-formed model, before building it; nothing is unpickled."""

from __future__ import annotations

import io
import json
import math
import re
import tokenize
from pathlib import Path

import dimod
import numpy as np
import scipy.io
import scipy.sparse as sp

from ..exceptions import FormatError
from .dimod_files import check_pairs, finite, labels_from_json, read_bqm, read_cqm, read_zip

__all__ = ["READERS"]


def _checked_bqm(bqm: dimod.BinaryQuadraticModel) -> dimod.BinaryQuadraticModel:
    linear, (_, _, quadratic), offset = bqm.to_numpy_vectors()
    finite(np.concatenate([linear, quadratic, [offset]]), "biases")
    return bqm


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except RecursionError:
        raise FormatError("its JSON is nested too deeply") from None


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
        raise FormatError('it is not a serialized dimod BQM (no "type": "BinaryQuadraticModel")')
    if set(obj) - _JSON_KEYS:
        raise FormatError(f"unknown key(s) {sorted(set(obj) - _JSON_KEYS)}; a serialized BQM has "
                         f"{', '.join(sorted(_JSON_KEYS))}")
    if obj.get("version") != {"bqm_schema": "3.0.0"} or obj.get("use_bytes") is not False:
        raise FormatError("only bqm_schema 3.0.0 without bytes is read")
    if obj.get("variable_type") not in ("BINARY", "SPIN"):
        raise FormatError(f"variable_type must be BINARY or SPIN, got {obj.get('variable_type')!r}")
    labels, linear = obj.get("variable_labels"), obj.get("linear_biases")
    head, tail, quadratic = obj.get("quadratic_head"), obj.get("quadratic_tail"), obj.get("quadratic_biases")
    if not all(isinstance(v, list) for v in (labels, linear, head, tail, quadratic)):
        raise FormatError("variable_labels, linear_biases, quadratic_head/tail/biases must be lists")
    if not len(labels) == len(linear) == obj.get("num_variables"):
        raise FormatError("variable_labels, linear_biases and num_variables disagree")
    if not len(head) == len(tail) == len(quadratic) == obj.get("num_interactions"):
        raise FormatError("quadratic_head, quadratic_tail, quadratic_biases and num_interactions disagree")
    index = finite(head + tail, "quadratic_head and quadratic_tail")
    if len(index) and (np.any(index != np.round(index)) or index.min() < 0 or index.max() >= len(labels)):
        raise FormatError(f"quadratic_head and quadratic_tail must be variable indices 0..{len(labels) - 1}")
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
        raise FormatError('an Ising file holds exactly {"h": {...}, "J": [[u, v, bias], ...], "offset": number}')
    h, J = obj["h"], obj["J"]
    if not isinstance(h, dict) or not isinstance(J, list) or not all(
        isinstance(t, list) and len(t) == 3 and all(isinstance(v, str) for v in t[:2]) for t in J
    ):
        raise FormatError('"h" must map labels to biases and "J" be a list of [u, v, bias]')
    finite(list(h.values()) + [t[2] for t in J] + [obj["offset"]], "h, J and offset")
    pairs = [frozenset(t[:2]) for t in J]
    for u, v, _ in J:
        if u == v or u not in h or v not in h:
            raise FormatError(f'"J" joins {u!r} and {v!r}: it must join two different variables of "h"')
    if len(set(pairs)) != len(pairs):
        raise FormatError('"J" gives an interaction twice')
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
                    raise FormatError(f"line {number}: expected 'c offset NUMBER', got {line!r}")
                offset = float(fields[2])
        elif fields[0] == "p":
            if header is not None or len(fields) != 6 or fields[1] != "qubo":
                raise FormatError(f"line {number}: expected one header 'p qubo 0 maxNodes nNodes nCouplers'")
            header = [int(v) for v in fields[2:]]
        elif header is None:
            raise FormatError(f"line {number}: data before the 'p qubo' header")
        elif len(fields) != 3:
            raise FormatError(f"line {number}: expected 'i j bias', got {line!r}")
        else:
            rows.append(fields)
    if header is None:
        raise FormatError("no 'p qubo' header")
    _, max_nodes, num_nodes, num_couplers = header
    if min(header) < 0 or max_nodes > num_nodes + 2 * num_couplers:
        raise FormatError(f"the header 'p qubo {' '.join(map(str, header))}' announces more variables than its "
                         "nodes and couplers can name, or a negative count")
    data = np.array(rows, dtype=float).reshape(-1, 3)
    i, j, bias = data[:, 0], data[:, 1], finite(data[:, 2], "biases")
    if np.any(i != np.round(i)) or np.any(j != np.round(j)) or np.any((data[:, :2] < 0) | (data[:, :2] >= max_nodes)):
        raise FormatError(f"variable numbers must be integers 0..{max_nodes - 1}")
    diagonal = i == j
    if diagonal.sum() != num_nodes or (~diagonal).sum() != num_couplers:
        raise FormatError(f"the header announces {num_nodes} nodes and {num_couplers} couplers, the file has "
                         f"{diagonal.sum()} and {(~diagonal).sum()}")
    linear = np.zeros(max_nodes)
    np.add.at(linear, i[diagonal].astype(np.int64), bias[diagonal])
    quadratic = (i[~diagonal].astype(np.int64), j[~diagonal].astype(np.int64), bias[~diagonal])
    return dimod.BinaryQuadraticModel.from_numpy_vectors(linear, quadratic, finite(offset, "offset"), "BINARY")


def _lp_text(path: Path) -> None:
    """Checks an LP file is text before HiGHS's LP reader sees it: that reader never returns on a
    NUL byte (100% CPU, deaf to Ctrl-C), so bytes that are no text are refused here."""
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FormatError(f"it is not UTF-8 text (byte {err.start}): an LP file is text") from None
    control = re.search(rb"[\x00-\x08\x0e-\x1f\x7f]", data)
    if control:
        raise FormatError(f"it holds the control byte {control.group()!r} at byte {control.start()}: an LP file is text")


def _load_lp(path: Path):
    _lp_text(path)
    cqm = dimod.lp.load(str(path))
    if not cqm.num_variables():  # HiGHS' LP reader reads text that is no LP as an empty model
        raise FormatError("it defines no variables")
    if cqm.constraints:
        raise FormatError(f"it has {len(cqm.constraints)} constraints; a QUBO has none")
    if any(cqm.vartype(v) is not dimod.BINARY for v in cqm.variables):
        raise FormatError("every variable of a QUBO must be binary")
    objective = cqm.objective
    return _checked_bqm(dimod.BinaryQuadraticModel(objective.linear, objective.quadratic, objective.offset, "BINARY"))


def _matrix_bqm(Q, offset) -> dimod.BinaryQuadraticModel:
    """x Q x + offset (Q square; a bias on both sides of the diagonal counts twice) as a BINARY BQM."""
    if Q.ndim != 2 or Q.shape[0] != Q.shape[1]:
        raise FormatError(f"the matrix must be square, got shape {Q.shape}")
    if Q.dtype.kind not in "biuf":  # complex entries would lose their imaginary part
        raise FormatError(f"the matrix entries must be real numbers, got {Q.dtype}")
    _check_named(Q.shape[0], Q.nnz)
    Q = Q.tocoo()
    data = finite(Q.data, "matrix entries")
    diagonal = Q.row == Q.col
    linear = np.zeros(Q.shape[0])
    np.add.at(linear, Q.row[diagonal], data[diagonal])
    u, v = Q.row[~diagonal].astype(np.int64), Q.col[~diagonal].astype(np.int64)
    pairs, index = np.unique(np.column_stack([np.minimum(u, v), np.maximum(u, v)]), axis=0, return_inverse=True)
    biases = np.bincount(index.ravel(), weights=data[~diagonal], minlength=len(pairs))
    return dimod.BinaryQuadraticModel.from_numpy_vectors(
        linear, (pairs[:, 0], pairs[:, 1], biases), finite([offset], "offset")[0], "BINARY")


def _check_named(num_variables: int, num_entries: int) -> None:
    """A matrix announces no more variables than its entries name (two each), as a qbsolv header
    must: its shape alone would otherwise make a tiny file a model of any size."""
    if num_variables > 2 * num_entries:
        raise FormatError(f"its shape announces {num_variables} variables, more than its {num_entries} entries "
                         "can name")


def _check_npy_size(entry: bytes, name: str) -> None:
    """An `.npy` entry announces no more array than it holds (numpy allocates what it announces)."""
    stream = io.BytesIO(entry)
    try:
        version = np.lib.format.read_magic(stream)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(stream)
    except (ValueError, SyntaxError, tokenize.TokenError) as err:
        raise FormatError(f"its entry {name!r} is no .npy array: {err}") from None
    if math.prod(shape) * dtype.itemsize > len(entry):
        raise FormatError(f"its entry {name!r} announces an array of shape {shape}, more than it holds")


def _load_npz(path: Path):
    """SciPy's sparse `.npz` (read without unpickling); the file has no offset, its sidecar has."""
    from .sidecar import read_sidecar, sidecar_path

    if not sidecar_path(path).is_file():
        raise FormatError(f"a matrix file holds no offset; its sidecar {sidecar_path(path).name} is missing")
    data = path.read_bytes()
    for name, entry in read_zip(data, "the .npz file").items():  # refused before numpy reads it
        _check_npy_size(entry, name)
    try:
        matrix = sp.load_npz(io.BytesIO(data))
    except (OSError, EOFError, SyntaxError, tokenize.TokenError) as err:  # an .npy header numpy cannot parse
        raise FormatError(f"numpy cannot read its arrays: {err}") from None
    return _matrix_bqm(matrix, read_sidecar(sidecar_path(path))["offset"])


def _load_mtx(path: Path):
    """Matrix Market, with the offset from its comment line `% offset NUMBER` (0 without one)."""
    if not path.read_bytes().endswith(b"\n"):
        raise FormatError("it does not end with a line break: it is cut short")
    offset = 0.0
    with open(path, "rb") as lines:
        for line in lines:
            if not line.startswith(b"%"):
                break
            fields = line.lstrip(b"%").split()
            if fields[:1] == [b"offset"]:
                if len(fields) != 2:
                    raise FormatError(f"expected a comment '% offset NUMBER', got {line.decode(errors='replace')!r}")
                offset = float(fields[1])
    _check_mtx_header(path)
    return _matrix_bqm(sp.coo_matrix(scipy.io.mmread(path)), offset)


def _check_mtx_header(path: Path) -> None:
    """A Matrix Market header announces real entries, no more than the file's lines can hold, and
    no more variables than they name, before SciPy allocates what it announces."""
    rows, cols, entries, layout, field, _ = scipy.io.mminfo(path)
    if field not in ("real", "integer"):
        raise FormatError(f"its entries are {field}: a QUBO's biases are real numbers")
    if 2 * entries > path.stat().st_size:  # an entry takes at least a digit and a line break
        raise FormatError(f"its header announces {entries} entries, more than its {path.stat().st_size} bytes hold")
    if layout == "coordinate":
        _check_named(rows, entries)


def _load_ommx(path: Path):
    """An OMMX artifact archive holding an unconstrained binary instance (read by OMMX itself)."""
    from ommx.artifact import Artifact

    size = path.stat().st_size
    with open(path, "rb") as data:
        data.seek(max(size - 1024, 0))
        end = data.read()
    if size % 512 or len(end) < 1024 or end.count(0) != 1024:  # a tar archive ends with two zero blocks
        raise FormatError("it is cut short: an OMMX archive (tar) ends with two zero blocks")
    try:
        instance = Artifact.load_archive(str(path)).instance
    except RuntimeError as err:  # OMMX reports a bad archive as a RuntimeError with a Rust backtrace
        raise FormatError(f"OMMX cannot read it: {str(err).splitlines()[0]}") from None
    if instance.constraints:
        raise FormatError(f"it has {len(instance.constraints)} constraints; a QUBO has none")
    try:
        terms, offset = instance.as_qubo_format()
    except RuntimeError as err:
        raise FormatError(f"it is no QUBO: {err}") from None
    bqm = dimod.BinaryQuadraticModel.from_qubo(terms, offset)
    bqm.add_linear_from({v.id: 0.0 for v in instance.decision_variables})  # variables without a bias
    return _checked_bqm(bqm)


READERS = {"bqm": _load_bqm, "json": _load_json, "ising": _load_ising, "qubo": _load_qbsolv, "lp": _load_lp,
           "cqm": _load_cqm, "npz": _load_npz, "mtx": _load_mtx, "ommx": _load_ommx}
