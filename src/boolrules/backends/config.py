"""Backends from TOML files: a named backend, or any importable dimod sampler.

A named backend: `[backend]` holds its `name` and options, `[qubo]` how a QUBO backend compiles
the problem (`DepthOneProblem.to_qubo`; defaults: the compiler's, exact: with η):

    [backend]
    name = "sa"
    num_reads = 200
    polish = false      # QUBO backends: report the repaired rule, untouched by native swaps (default true)

    [qubo]              # QUBO backends only
    eta = false
    slack = "minimal"
    [qubo.penalty]      # or penalty = "calibrated" / "sufficient"
    soft = 0.2
    hard = 1.0

Any dimod sampler: `[backend] sampler` names its class as "package.module:ClassName"; the other
keys of `[backend]` are the keyword arguments of its `sample` method (checked against the
sampler's `parameters`), the optional `[sampler]` table those of its constructor, and `[qubo]`
is as above (default: η for Or and And only, the sufficient penalties; `eta = true` makes an exact
sampler find the optimum for every operator):

    [backend]
    sampler = "dwave.samplers:SimulatedAnnealingSampler"
    num_reads = 50      # SimulatedAnnealingSampler().sample(bqm, num_reads=50, seed=0)
    seed = 0

    [sampler]           # keyword arguments of SimulatedAnnealingSampler(...), if it took any

A `[problem]` table sizes the depth-one problem for the backend (`problem_caps`): `max_samples`
and `max_features`, which `boolrules solve` and `DepthOneClassifier` use when they are given none,
so that a size-limited backend (exact, qaoa, a QPU) runs on any dataset:

    [problem]
    max_samples = 6     # rows, drawn stratified
    max_features = 2    # binary features, the most informative (depth_one's max_features)

Every mistake (unknown table, backend, option or key, a sampler that cannot be imported or is not
a dimod Sampler, a bad value, invalid TOML) is a ValueError naming the file, the key and what
exists; a missing file is a FileNotFoundError.
"""

from __future__ import annotations

import inspect
import os
import tomllib
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import NamedTuple

import dimod
from sklearn.utils import _param_validation

from ..exceptions import ConfigError, InputTypeError, MissingFileError
from ..formulations.qubo_problem import check_compile_option
from ..validation import check_integer
from .base import CAPABILITIES, Backend
from .registry import backend_names, get_backend, registered
from .sampler import (
    COMPILE_DEFAULTS,
    Preset,
    SamplerBackend,
    check_sampler_options,
    sampler_class,
)

__all__ = ["BackendSpec", "spec_kind", "load_backend", "backend_from_spec", "check_backend_spec", "opened_backend", "problem_caps"]

TABLES = ("backend", "qubo", "sampler", "problem")
PROBLEM_KEYS = ("max_samples", "max_features")
QUBO_KEYS = tuple(COMPILE_DEFAULTS)


class _Config(NamedTuple):
    """A parsed backend file: a backend `name` or a `sampler` class spec, and its options."""

    path: Path
    name: str | None
    sampler: str | None
    options: dict
    init: dict  # the [sampler] table

    @property
    def label(self) -> str:
        return repr(self.name) if self.name is not None else f"sampler = {self.sampler!r}"


def load_backend(path) -> Backend:
    """The backend a TOML file describes (see the module docstring)."""
    config = _parse(path)
    try:
        if config.name is not None:
            return get_backend(config.name, **config.options)
        cls = sampler_class(config.sampler)
        _check_init(cls, config.init)
        return SamplerBackend(partial(cls, **config.init), name=cls.__name__, **config.options)
    except (ValueError, TypeError) as err:
        raise ConfigError(f"{config.path}: [backend] {config.label}: {err}") from err


def _check(config: _Config) -> None:
    """Raise as `load_backend` would, building nothing: no sampler, no cloud client, no credentials."""
    try:
        if config.name is not None:
            _, check = registered(config.name)
            check(config.name, dict(config.options))
            return
        _check_init(sampler_class(config.sampler), config.init)
        sample_options = [k for k in config.options if k not in COMPILE_DEFAULTS]  # names are the sampler's to check
        check_sampler_options(config.sampler, config.options, sample_options)
    except (ValueError, TypeError) as err:
        raise ConfigError(f"{config.path}: [backend] {config.label}: {err}") from err


def _check_init(cls: type, init: dict) -> None:
    """The [sampler] table binds to the constructor of `cls`."""
    try:
        inspect.signature(cls).bind(**init)
    except TypeError as err:
        raise ConfigError(f"[sampler] does not fit {cls.__name__}{inspect.signature(cls)}: {err}") from err


def _parse(path) -> _Config:
    """A TOML file's backend, its tables, names and keys checked (values are the backend's to check)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputTypeError(f"path must be a str or os.PathLike naming a .toml file, got {type(path).__name__}")
    path = Path(path)
    config = _read(path)
    unknown = sorted(set(config) - set(TABLES))
    if unknown:
        raise ConfigError(f"{path}: unknown table(s) {unknown}; a backend file has [backend], and optionally "
                         f"[qubo], [sampler] and [problem]")
    needs = (f"name = one of {', '.join(backend_names())}, or sampler = 'package.module:ClassName' "
             f"(a dimod Sampler class)")
    if not isinstance(config.get("backend"), dict):
        raise ConfigError(f"{path}: no [backend] table; it needs {needs}")
    options = dict(config["backend"])
    name, sampler = options.pop("name", None), options.pop("sampler", None)
    if name is not None and sampler is not None:
        raise ConfigError(f"{path}: [backend] has both name and sampler; give one")
    if sampler is None and name not in backend_names():
        raise ConfigError(f"{path}: [backend] name = {name!r} is not a backend; it needs {needs}")
    init = config.get("sampler", {})
    if "sampler" in config and (sampler is None or not isinstance(init, dict)):
        raise ConfigError(f"{path}: [sampler] holds the constructor's keyword arguments of the class that "
                         f"[backend] sampler = 'package.module:ClassName' names")
    if "qubo" in config:
        options.update(_qubo_options(path, name, config["qubo"], options))
    _problem_caps(path, config.get("problem", {}))
    return _Config(path, name, sampler, options, init)


def problem_caps(spec) -> dict:
    """The `[problem]` caps (max_samples, max_features) of a .toml backend file, checked; {} for a
    backend given otherwise (a name, a `Backend`, a sampler) or a file without them."""
    if spec_kind(spec) != "config":
        return {}
    path = Path(spec)
    return _problem_caps(path, _read(path).get("problem", {}))


def _problem_caps(path: Path, caps) -> dict:
    if not isinstance(caps, dict):
        raise ConfigError(f"{path}: problem must be a table ([problem]) with keys {', '.join(PROBLEM_KEYS)}")
    unknown = sorted(set(caps) - set(PROBLEM_KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {unknown} in [problem]; keys: {', '.join(PROBLEM_KEYS)}")
    try:
        return {key: check_integer(value, key, 1) for key, value in caps.items()}
    except (ValueError, TypeError) as err:
        raise ConfigError(f"{path}: [problem] {err}") from err


def _qubo_options(path: Path, name: str | None, qubo, options: dict) -> dict:
    """The [qubo] table's keys and values checked, for a backend that compiles a QUBO."""
    if name is not None and not isinstance(registered(name)[0], Preset):
        raise ConfigError(f"{path}: [qubo] applies to QUBO backends, and {name!r} compiles no QUBO")
    if not isinstance(qubo, dict):
        raise ConfigError(f"{path}: qubo must be a table ([qubo]) with keys {', '.join(QUBO_KEYS)}")
    unknown = sorted(set(qubo) - set(QUBO_KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {unknown} in [qubo]; keys: {', '.join(QUBO_KEYS)}")
    twice = sorted(set(qubo) & set(options))
    if twice:
        raise ConfigError(f"{path}: {twice} set in both [backend] and [qubo]; set each once")
    for key, value in qubo.items():
        try:
            check_compile_option(key, value)
        except (ValueError, TypeError) as err:
            table = "[qubo.penalty]" if isinstance(value, dict) else f"[qubo] {key} = {value!r}:"
            raise ConfigError(f"{path}: {table} {err}") from err
    return qubo


def _read(path: Path) -> dict:
    if not path.is_file():
        raise MissingFileError(f"backend config {path} " + ("is a folder" if path.is_dir() else "does not exist"))
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:  # TOML is UTF-8
        raise ConfigError(f"{path}: invalid TOML: {err}") from err


def spec_kind(spec) -> str | None:
    """What a backend spec is, read in this one place: "backend" (a `Backend`), "sampler" (a dimod
    `Sampler`), "name" (a registered backend's), "config" (the path of a .toml file), or None."""
    if isinstance(spec, Backend):
        return "backend"
    if isinstance(spec, dimod.Sampler):
        return "sampler"
    if isinstance(spec, str) and spec in backend_names():
        return "name"
    if isinstance(spec, (str, os.PathLike)) and Path(spec).suffix == ".toml":
        return "config"
    return None


@contextmanager
def opened_backend(spec, name: str = "backend"):
    """`backend_from_spec(spec, name)` for a `with` block, closed at its end when it was built here
    from a name, a config or a sampler (a `Backend` the caller passed stays open: it is the caller's)."""
    backend = backend_from_spec(spec, name)
    try:
        yield backend
    finally:
        if backend is not spec:
            backend.close()


def check_backend_spec(spec, name: str = "backend") -> None:
    """Raise as `backend_from_spec` would, without building the backend (no cloud client, no
    credentials): a known name, a `Backend`, a dimod `Sampler`, or a .toml file that holds."""
    kind = spec_kind(spec)
    if kind in ("backend", "sampler", "name"):
        return
    if kind == "config":
        try:
            _check(_parse(spec))
        except (OSError, ValueError, TypeError) as err:
            raise type(err)(f"{name}: {err}") from err
        return
    backend_from_spec(spec, name)  # raises the error that names `name`


def check_call_options(spec, options: dict, name: str = "backend") -> None:
    """Raise as `backend.solve(problem, **options)` would for the backend `spec` names, before any
    work: a name or a .toml file is checked without building its backend (no cloud client)."""
    if not options:
        return
    kind = spec_kind(spec)
    if kind == "name":
        _, check = registered(spec)
        check(spec, dict(options))
    elif kind == "config":
        config = _parse(spec)
        _check(config._replace(options={**config.options, **options}))
    else:  # a Backend (or a sampler made one): its capabilities say which per-call options it takes
        backend = backend_from_spec(spec, name)
        missing = [option for option in options if option in CAPABILITIES and option not in backend.capabilities]
        if missing:
            raise ConfigError(f"{name}: backend {backend.name!r} takes no {', '.join(missing)} (its capabilities: "
                             f"{', '.join(sorted(backend.capabilities)) or 'none'})")
        backend.check_options({k: v for k, v in options.items() if k not in CAPABILITIES})


def backend_from_spec(spec, name: str = "backend") -> Backend:
    """A backend from a name (`get_backend`), a `Backend` (returned as is), a dimod `Sampler` (a
    `SamplerBackend` with its defaults) or the path of a .toml file; errors name the argument `name`
    that held `spec`."""
    kind = spec_kind(spec)
    if kind == "backend":
        return spec
    if kind in ("sampler", "name"):
        return get_backend(spec)
    if kind == "config":
        try:
            return load_backend(spec)
        except (OSError, ValueError, TypeError) as err:  # a missing or malformed config file
            raise type(err)(f"{name}: {err}") from err
    raise ConfigError(f"{name} must be a name ({', '.join(backend_names())}), a Backend, a dimod Sampler or a path "
                     f"to a .toml file, got {spec!r}")


class BackendSpec(_param_validation.StrOptions):
    """A backend name, a `Backend`, a dimod `Sampler` or the path of a .toml backend config, checked
    without building the backend (`check_backend_spec`: no cloud client, no credentials). A config file's own
    errors (missing, malformed) are raised as they are, naming the parameter `name`. A `StrOptions`
    (the kind of constraint scikit-learn takes for a set of names) whose names are looked up when
    checking, since a backend may be registered after import."""

    def __init__(self, name: str):
        _param_validation._Constraint.__init__(self)  # not StrOptions.__init__: `options` is a property
        self.name = name

    @property
    def options(self) -> set:
        return set(backend_names())

    def is_satisfied_by(self, val):
        kind = spec_kind(val)
        if kind == "config" or (kind is None and isinstance(val, os.PathLike)):
            check_backend_spec(val, self.name)  # a config file's own errors, or a path that is no config, named
            return True
        return kind is not None

    def __str__(self):
        return (f"a backend name among {{{', '.join(sorted(self.options))}}}, a Backend, a dimod Sampler or "
                "the path of a .toml backend config")
