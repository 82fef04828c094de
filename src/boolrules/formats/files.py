"""Files by format name: `export_qubo` and `export_problem` write atomically, `load_qubo_file` reads checked.

Every file is written to a temporary name in the target directory and renamed into place, so a
failed write never leaves a partial file. Loaders check a file's structure before building a
model from it and never unpickle.
"""

from __future__ import annotations

import os
import uuid
import zipfile
from pathlib import Path

from ..validation import check_path
from .readers import READERS
from .writers import PROBLEM_WRITERS, QUBO_WRITERS

__all__ = ["LOAD_FORMATS", "PROBLEM_FORMATS", "QUBO_FORMATS", "export_problem", "export_qubo", "load_qubo_file"]

QUBO_FORMATS = tuple(QUBO_WRITERS)
PROBLEM_FORMATS = tuple(PROBLEM_WRITERS)
LOAD_FORMATS = tuple(READERS)


def _pick(table: dict, format, what: str):
    if not isinstance(format, str) or format not in table:
        raise ValueError(f"unknown {what} format {format!r}; formats: {', '.join(table)}")
    return table[format]


def _write_atomic(path, write) -> Path:
    """Call `write(tmp)` on a fresh name beside `path`, then rename it to `path`; remove it on failure.
    An OSError names `path` (not the temporary name)."""
    path = check_path(path, "path")
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


def export_qubo(qubo, path, format: str) -> Path:
    """Write a `QuboProblem` to `path` in one of `QUBO_FORMATS`."""
    writer = _pick(QUBO_WRITERS, format, "QUBO export")
    return _write_atomic(path, lambda tmp: writer(qubo, tmp))


def export_problem(problem, path, format: str) -> Path:
    """Write a `DepthOneProblem`'s Pyomo model to `path` in one of `PROBLEM_FORMATS`."""
    writer = _pick(PROBLEM_WRITERS, format, "model export")
    return _write_atomic(path, lambda tmp: writer(problem, tmp))


def load_qubo_file(path, format: str):
    """Read a file written by `export_qubo`: a dimod BQM (BINARY; SPIN for "ising"; integer labels for
    "qubo", LP names for "lp"), or a CQM for "cqm". Malformed files raise ValueError naming the file."""
    reader = _pick(READERS, format, "QUBO file")
    path = check_path(path, "path")
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}" + (" (it is a folder)" if path.is_dir() else ""))
    try:
        return reader(path)
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, EOFError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path} is not a valid {format!r} file: {err}") from err
