"""Files by format name: `export_qubo` and `export_problem` write a file and its sidecar
atomically, `load_qubo_file` reads checked.

Every file and its sidecar (`sidecar.py`) are written to temporary names in the target directory
and renamed into place, so a failed write never leaves a partial file; temporary files are removed
on failure, on SIGTERM, and after a SIGKILL at the next write of the same file. Loaders check a file's
structure before building a model from it and never unpickle.
"""

from __future__ import annotations

import errno
import glob
import hashlib
import json
import os
import signal
import stat
import threading
import uuid
import zipfile
from contextlib import contextmanager
from pathlib import Path

from ..exceptions import InputError, MissingFileError
from ..validation import check_integer, check_path
from .readers import READERS
from .sidecar import check_feature_names, model_sidecar, qubo_sidecar, sidecar_path
from .writers import PROBLEM_WRITERS, QUBO_WRITERS

__all__ = ["LOAD_FORMATS", "PROBLEM_FORMATS", "QASM3_MAX_QUBITS", "QUBO_FORMATS", "export_problem", "export_qubo", "load_qubo_file"]

QUBO_FORMATS = tuple(QUBO_WRITERS)
PROBLEM_FORMATS = tuple(PROBLEM_WRITERS)
LOAD_FORMATS = tuple(READERS)


def _pick(table: dict, format, what: str):
    if not isinstance(format, str) or format not in table:
        raise InputError(f"unknown {what} format {format!r}; formats: {', '.join(table)}")
    return table[format]


def _write_atomic(path, write, describe) -> Path:
    """Call `write(tmp)` on a temporary name beside `path` (it returns the file's variable names),
    write `describe(names)` as the sidecar beside it, then rename both into place; remove them on
    failure, on SIGTERM, and (after a SIGKILL) at the next write of the same file. A symbolic link is
    followed: the file it points to is replaced. An OSError names `path` (not the temporary name)."""
    path = check_path(path, "path")
    side = sidecar_path(path)
    target, target_side = _destination(path, path), _destination(side, path)
    tmp, tmp_side = _temporary(target), _temporary(target_side)
    try:
        with _sigterm_raises():
            names = write(tmp)
            tmp_side.write_text(json.dumps(describe(names)))
            for made, final in ((tmp, target), (tmp_side, target_side)):
                if final.exists():  # a replaced file keeps its permissions
                    os.chmod(made, stat.S_IMODE(final.stat().st_mode))
            os.replace(tmp, target)
            os.replace(tmp_side, target_side)
    except BaseException as err:
        tmp.unlink(missing_ok=True)
        tmp_side.unlink(missing_ok=True)
        if isinstance(err, OSError) and str(path) not in str(err):
            raise type(err)(err.errno, f"cannot write {path}: {err.strerror or err}") from err
        raise
    return path


def _destination(file: Path, path: Path) -> Path:
    """Where `file` (the export `path` or its sidecar) is written: the file a link points to, checked
    (folder, name length, write permission) before any work; errors name `path`."""
    if not file.parent.is_dir():
        raise MissingFileError(f"cannot write {path}: folder {file.parent} does not exist")
    _check_name_length(file, path)
    final = Path(os.path.realpath(file)) if file.is_symlink() else file
    if not final.parent.is_dir():
        raise MissingFileError(f"cannot write {path}: folder {final.parent} does not exist")
    if final.is_dir():
        raise IsADirectoryError(f"cannot write {path}: {'it' if file == path else final} is a folder")
    _check_name_length(final, path)
    if final.exists() and not os.access(final, os.W_OK):
        raise PermissionError(errno.EACCES, f"cannot write {path}: {final} is read-only")
    _remove_stale(final)
    return final


def _check_name_length(file: Path, path: Path) -> None:
    try:
        name_max = os.pathconf(file.parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows) or no limit reported
        name_max = 255
    if len(os.fsencode(file.name)) > name_max:
        raise OSError(errno.ENAMETOOLONG, f"cannot write {path}: the name {file.name[:40]}... is longer than the "
                      f"{name_max} bytes a file name may have here" + ("" if file == path else " (the sidecar's)"))


def _temporary(final: Path) -> Path:
    """A fresh hidden name beside `final`, of bounded length (a name near the file system's limit
    still gets one), naming this process so a later write can tell a killed writer's leftovers."""
    suffix = final.suffix if len(final.suffix) <= 16 else ""
    return final.with_name(f"{_temporary_prefix(final)}{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp{suffix}")


def _temporary_prefix(final: Path) -> str:
    return f".{hashlib.sha256(os.fsencode(final.name)).hexdigest()[:16]}."


def _remove_stale(final: Path) -> None:
    """Remove the temporary files a killed writer (SIGKILL, a crash) left for `final`: those of a
    process that no longer runs on this machine."""
    prefix = _temporary_prefix(final)
    for leftover in final.parent.glob(glob.escape(prefix) + "*.tmp*"):
        pid = leftover.name[len(prefix):].split(".")[0]
        if pid.isdigit() and not _running(int(pid)):
            leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it runs, as another user
        return True
    return True


@contextmanager
def _sigterm_raises():
    """SIGTERM raises SystemExit (status 143) while an export is written, so its temporary files are
    removed; only in the main thread and when no SIGTERM handler of the program's own is set."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        yield
        return

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


# The largest circuit a qasm3 export writes unless told otherwise: the qubits of the largest
# gate-based processors (IBM Heron, 156); a 1047-qubit circuit took 82 s to write.
QASM3_MAX_QUBITS = 156


def export_qubo(qubo, path, format: str, feature_names=None, *, max_qubits: int | None = QASM3_MAX_QUBITS) -> Path:
    """Write a `QuboProblem` to `path` in one of `QUBO_FORMATS`, and its sidecar beside it
    (`sidecar_path(path)`; `feature_names` name the problem's columns there). A "qasm3" circuit
    of more than `max_qubits` qubits is refused (None: no limit)."""
    writer = _pick(QUBO_WRITERS, format, "QUBO export")
    check_feature_names(feature_names, qubo.problem)
    if format == "qasm3" and max_qubits is not None and qubo.num_variables > check_integer(max_qubits, "max_qubits", 1):
        raise InputError(
            f"a qasm3 circuit of the QUBO's {qubo.num_variables} qubits: more than max_qubits={max_qubits}, the "
            f"largest gate-based processors' (circuits this size take minutes to write, and Qiskit may not load "
            f"them); shrink the problem (max_samples, max_features, max_num_literals) or raise max_qubits "
            f"(--max-qubits) to write it anyway")
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
        raise MissingFileError(f"no such file: {path}" + (" (it is a folder)" if path.is_dir() else ""))
    try:
        return reader(path)
    except (ValueError, KeyError, TypeError, IndexError, OverflowError, EOFError, zipfile.BadZipFile) as err:
        raise InputError(f"{path} is not a valid {format!r} file: {err}") from err
