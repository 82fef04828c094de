"""Files by format name: `export_qubo` and `export_problem` write a file and its sidecar
atomically, `load_qubo_file` reads checked.

Every file and its sidecar (`sidecar.py`) are written to temporary names in the target directory
and renamed into place, so a failed write never leaves a partial file. Loaders check a file's
structure before building a model from it and never unpickle.
"""

from __future__ import annotations

import json
import os
import uuid
import zipfile
from pathlib import Path

from ..validation import check_path
from .readers import READERS
from .sidecar import check_feature_names, model_sidecar, qubo_sidecar, sidecar_path
from .writers import PROBLEM_WRITERS, QUBO_WRITERS

__all__ = ["LOAD_FORMATS", "PROBLEM_FORMATS", "QUBO_FORMATS", "export_problem", "export_qubo", "load_qubo_file"]

QUBO_FORMATS = tuple(QUBO_WRITERS)
PROBLEM_FORMATS = tuple(PROBLEM_WRITERS)
LOAD_FORMATS = tuple(READERS)


def _pick(table: dict, format, what: str):
    if not isinstance(format, str) or format not in table:
        raise ValueError(f"unknown {what} format {format!r}; formats: {', '.join(table)}")
    return table[format]


def _write_atomic(path, write, describe) -> Path:
    """Call `write(tmp)` on a fresh name beside `path` (it returns the file's variable names), write
    `describe(names)` as the sidecar beside it, then rename both into place; remove them on failure.
    An OSError names `path` (not the temporary name)."""
    path = check_path(path, "path")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"cannot write {path}: folder {path.parent} does not exist")
    if path.is_dir():
        raise IsADirectoryError(f"cannot write {path}: it is a folder")
    side = sidecar_path(path)
    tmp, tmp_side = (p.with_name(f".{uuid.uuid4().hex}.{p.name}") for p in (path, side))
    try:
        names = write(tmp)
        tmp_side.write_text(json.dumps(describe(names)))
        os.replace(tmp, path)
        os.replace(tmp_side, side)
    except BaseException as err:
        tmp.unlink(missing_ok=True)
        tmp_side.unlink(missing_ok=True)
        if isinstance(err, OSError) and str(path) not in str(err):
            raise type(err)(f"cannot write {path}: {err.strerror or err}") from err
        raise
    return path


def export_qubo(qubo, path, format: str, feature_names=None) -> Path:
    """Write a `QuboProblem` to `path` in one of `QUBO_FORMATS`, and its sidecar beside it
    (`sidecar_path(path)`; `feature_names` name the problem's columns there)."""
    writer = _pick(QUBO_WRITERS, format, "QUBO export")
    check_feature_names(feature_names, qubo.problem)
    if format == "cqm":  # the CQM is the model behind the QUBO
        return _write_atomic(path, lambda tmp: writer(qubo, tmp),
                             lambda names: model_sidecar(qubo.problem, path, format, names, feature_names))
    return _write_atomic(path, lambda tmp: writer(qubo, tmp),
                         lambda names: qubo_sidecar(qubo, path, format, names, feature_names))


def export_problem(problem, path, format: str, feature_names=None) -> Path:
    """Write a depth-one problem's model to `path` in one of `PROBLEM_FORMATS`, and its sidecar beside it."""
    writer = _pick(PROBLEM_WRITERS, format, "model export")
    check_feature_names(feature_names, problem)
    return _write_atomic(path, lambda tmp: writer(problem, tmp),
                         lambda names: model_sidecar(problem, path, format, names, feature_names))


def load_qubo_file(path, format: str):
    """Read a file written by `export_qubo`: a dimod BQM (BINARY; SPIN for "ising"; integer labels for
    "qubo", "npz", "mtx" and "ommx", LP names for "lp"), or a CQM for "cqm". The BQM has the file's
    offset ("qubo" and "mtx" keep it in a comment; "npz" holds none: it is read from the sidecar
    beside the file). Malformed files raise
    ValueError naming the file."""
    reader = _pick(READERS, format, "QUBO file")
    path = check_path(path, "path")
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}" + (" (it is a folder)" if path.is_dir() else ""))
    try:
        return reader(path)
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, EOFError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path} is not a valid {format!r} file: {err}") from err
