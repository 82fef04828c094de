"""Solver backends behind one interface: `get_backend(name, **options).solve(problem) -> Result`.

ILP backends solve the Pyomo model (`ilp.py`); QUBO backends compile it to a BQM and sample it
with a dimod sampler (`qubo.py` and the modules that use it). Backends are imported on demand.
"""

from .base import BACKEND_MODULES, BACKENDS, Backend, Result, backend_names, get_backend, register_backend
from .ilp import IlpBackend

__all__ = [
    "BACKEND_MODULES",
    "BACKENDS",
    "Backend",
    "IlpBackend",
    "Result",
    "backend_names",
    "get_backend",
    "register_backend",
]
