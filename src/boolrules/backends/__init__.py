"""Solver backends behind one interface: `get_backend(name, **options).solve(problem) -> Result`."""

from . import ilp  # noqa: F401  (registers the ILP backends)
from .base import BACKENDS, Backend, Result, get_backend, register_backend
from .ilp import IlpBackend

__all__ = ["BACKENDS", "Backend", "IlpBackend", "Result", "get_backend", "register_backend"]
