"""The registry of backends by name: `get_backend(name, **options)` builds one, `register_backend`
adds one. A backend's module registers it when imported, and is imported on first use of its name."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import dimod

from ..exceptions import InputError
from .base import Backend
from .sampler import SamplerBackend

__all__ = ["BACKEND_MODULES", "BACKENDS", "backend_names", "get_backend", "register_backend", "registered"]

# Backend name -> module of boolrules.backends that registers it. Modules are imported on first
# use, so the heavy stacks (Ocean's cloud client, Qiskit) load only for the backends that need them.
BACKEND_MODULES = {
    **dict.fromkeys(("highs", "highs-pyomo", "scip", "gurobi", "cbc", "glpk", "cplex", "xpress"), "ilp"),
    **dict.fromkeys(("sa", "neal", "tabu", "steepest", "exact"), "samplers"),
    **dict.fromkeys(("dwave-qpu", "leap-hybrid", "leap-cqm"), "dwave"),
    "qaoa": "qaoa",
    "native": "native",
}
# Name -> (make, check): `make(name, **options)` builds the backend, `check(name, options)` checks
# the options as `make` would, without building anything (no cloud client, no credentials).
BACKENDS: dict[str, tuple[Callable[..., Backend], Callable[[str, dict], None]]] = {}


def register_backend(name: str, make: Callable[..., Backend], check: Callable[[str, dict], None]) -> None:
    """Make `get_backend(name, **options)` return `make(name, **options)`, and let a config naming
    `name` be checked by `check(name, options)`."""
    BACKENDS[name] = (make, check)


def backend_names() -> list[str]:
    """Every backend name `get_backend` accepts."""
    return sorted(set(BACKEND_MODULES) | set(BACKENDS))


def registered(name: str) -> tuple[Callable[..., Backend], Callable[[str, dict], None]]:
    """(make, check) of backend `name`, its module imported on first use."""
    if not isinstance(name, str) or name not in backend_names():
        raise InputError(f"unknown backend {name!r}; available: {', '.join(backend_names())}")
    if name not in BACKENDS:
        importlib.import_module(f"{__package__}.{BACKEND_MODULES[name]}")
    return BACKENDS[name]


def get_backend(name, **options) -> Backend:
    """The backend registered as `name`, built with `options`; a `Backend` is returned as is, and
    any dimod `Sampler` becomes a `SamplerBackend` taking `options` (its sample parameters and
    eta, penalty, slack)."""
    if isinstance(name, Backend):
        if options:
            raise InputError("options cannot be given with a backend instance; use backend.with_options(...)")
        return name
    if isinstance(name, dimod.Sampler):
        return SamplerBackend(name, **options)
    make, _ = registered(name)
    return make(name, **options)
