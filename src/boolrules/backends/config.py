"""Backends from TOML files: `[backend]` names a backend and sets its options, `[qubo]` its QUBO compilation.

    [backend]
    name = "sa"
    num_reads = 200

    [qubo]              # QUBO backends only
    eta = false
    slack = "minimal"
    [qubo.penalty]      # or penalty = "calibrated" / "sufficient"
    soft = 0.2
    hard = 1.0

Every mistake (unknown table, backend, option or key, wrong type, invalid TOML) is a ValueError
naming the file, the key and what exists; a missing file is a FileNotFoundError.
"""

from __future__ import annotations

import importlib
import inspect
import os
import tomllib
from contextlib import contextmanager
from pathlib import Path

from ..formulations.qubo import SLACK_MODES
from ..formulations.qubo_problem import PENALTY_MODES
from .base import BACKEND_MODULES, BACKENDS, Backend, backend_names, get_backend

__all__ = ["load_backend", "backend_from_spec", "check_backend_spec", "opened_backend"]

TABLES = ("backend", "qubo")
QUBO_KEYS = ("eta", "penalty", "slack")
# What an option's default says about the values it takes (None defaults are checked by the backend).
_KINDS = {bool: ((bool,), "true or false"), int: ((int,), "an integer"), float: ((int, float), "a number"),
          str: ((str,), "a string")}


def load_backend(path) -> Backend:
    """The backend a TOML file describes (see the module docstring)."""
    path, name, options = _parse(path)
    try:
        return get_backend(name, **options)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{path}: [backend] {name!r}: {err}") from err


def _parse(path) -> tuple[Path, str, dict]:
    """(path, backend name, options) of a TOML file, its tables, names, keys and types checked."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike naming a .toml file, got {type(path).__name__}")
    path = Path(path)
    config = _read(path)
    unknown = sorted(set(config) - set(TABLES))
    if unknown:
        raise ValueError(f"{path}: unknown table(s) {unknown}; a backend file has [backend] and optionally [qubo]")
    if not isinstance(config.get("backend"), dict):
        raise ValueError(f"{path}: no [backend] table; it needs at least name = one of {', '.join(backend_names())}")
    options = dict(config["backend"])
    name = options.pop("name", None)
    if name not in backend_names():
        raise ValueError(f"{path}: [backend] name = {name!r} is not a backend; available: {', '.join(backend_names())}")
    defaults = _defaults(name)
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise ValueError(f"{path}: unknown option(s) {unknown} in [backend] for {name!r}; options: "
                         f"{', '.join(defaults) or 'none'}")
    if "qubo" in config:
        options.update(_qubo_options(path, name, config["qubo"], defaults, options))
    for key, value in options.items():
        _check_type(path, "qubo" if key in config.get("qubo", {}) else "backend", key, value, defaults[key])
    return path, name, options


@contextmanager
def opened_backend(spec, name: str = "backend"):
    """`backend_from_spec(spec, name)` for a `with` block, closed at its end when it was built here
    from a name or config (a `Backend` the caller passed stays open: it is the caller's)."""
    backend = backend_from_spec(spec, name)
    try:
        yield backend
    finally:
        if backend is not spec:
            backend.close()


def check_backend_spec(spec, name: str = "backend") -> None:
    """Raise as `backend_from_spec` would, without building the backend (no cloud client, no
    credentials): a known name, a `Backend`, or a .toml file whose tables, keys and types hold."""
    if isinstance(spec, Backend) or (isinstance(spec, str) and spec in backend_names()):
        return
    if isinstance(spec, (str, os.PathLike)) and Path(spec).suffix == ".toml":
        try:
            _parse(spec)
        except (OSError, ValueError, TypeError) as err:
            raise type(err)(f"{name}: {err}") from err
        return
    backend_from_spec(spec, name)  # raises the error that names `name`


def backend_from_spec(spec, name: str = "backend") -> Backend:
    """A backend from a name (`get_backend`), a `Backend` (returned as is) or the path of a .toml file;
    errors name the argument `name` that held `spec`."""
    if isinstance(spec, Backend):
        return spec
    if isinstance(spec, str) and spec in backend_names():
        return get_backend(spec)
    if isinstance(spec, (str, os.PathLike)) and Path(spec).suffix == ".toml":
        try:
            return load_backend(spec)
        except (OSError, ValueError, TypeError) as err:  # a missing or malformed config file
            raise type(err)(f"{name}: {err}") from err
    raise ValueError(f"{name} must be a name ({', '.join(backend_names())}), a Backend or a path to a .toml "
                     f"file, got {spec!r}")


def _read(path: Path) -> dict:
    if not path.is_file():
        raise FileNotFoundError(f"backend config {path} " + ("is a folder" if path.is_dir() else "does not exist"))
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:  # TOML is UTF-8
        raise ValueError(f"{path}: invalid TOML: {err}") from err


def _defaults(name: str) -> dict:
    """The options backend `name` takes, with their defaults (the constructor's keywords)."""
    if name not in BACKENDS:
        importlib.import_module(f"{__package__}.{BACKEND_MODULES[name]}")
    cls, fixed = BACKENDS[name]
    parameters = inspect.signature(cls.__init__).parameters
    return {k: p.default for k, p in parameters.items() if k != "self" and k not in fixed}


def _qubo_options(path: Path, name: str, qubo, defaults: dict, options: dict) -> dict:
    """The [qubo] table's eta/penalty/slack, checked, for a backend that compiles a QUBO."""
    if not set(QUBO_KEYS) <= set(defaults):
        raise ValueError(f"{path}: [qubo] applies to QUBO backends, and {name!r} compiles no QUBO; "
                         f"its options: {', '.join(defaults) or 'none'}")
    if not isinstance(qubo, dict):
        raise ValueError(f"{path}: qubo must be a table ([qubo]) with keys {', '.join(QUBO_KEYS)}")
    unknown = sorted(set(qubo) - set(QUBO_KEYS))
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {unknown} in [qubo]; keys: {', '.join(QUBO_KEYS)}")
    twice = sorted(set(qubo) & set(options))
    if twice:
        raise ValueError(f"{path}: {twice} set in both [backend] and [qubo]; set each once")
    penalty = qubo.get("penalty")
    if isinstance(penalty, dict):
        if set(penalty) != {"soft", "hard"} or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in penalty.values()
        ):
            raise ValueError(f"{path}: [qubo.penalty] needs exactly soft and hard, numbers > 0; got {penalty}")
    elif "penalty" in qubo and penalty not in PENALTY_MODES:
        raise ValueError(f"{path}: [qubo] penalty = {penalty!r}; use one of {', '.join(PENALTY_MODES)} "
                         f"or a [qubo.penalty] table with soft and hard")
    if "slack" in qubo and qubo["slack"] not in SLACK_MODES:
        raise ValueError(f"{path}: [qubo] slack = {qubo['slack']!r}; use one of {', '.join(SLACK_MODES)}")
    return qubo


def _check_type(path: Path, table: str, key: str, value, default) -> None:
    if key == "penalty" and isinstance(value, dict):
        return
    kinds, expected = _KINDS.get(type(default), ((object,), ""))
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise ValueError(f"{path}: [{table}] {key} = {value!r} must be {expected} (default {default!r})")
