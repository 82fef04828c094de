"""Solver backends behind one interface: `get_backend(name, **options).solve(problem) -> Result`.

`base.py` holds the interface (`Backend`, whose `solve` is every backend's one solving path:
chain, `solve_form`, decode, `Result`) and `registry.py` the backends by name. ILP backends solve
the problem exactly (`ilp.py`, with the drivers `highs.py` and `pyomo_solvers.py`, which share
`ilp_driver.py`); `native.py` searches the problem's arrays; any dimod sampler is a QUBO backend
(`sampler.py`), and the named ones are presets of it (`samplers.py`, `dwave.py`, `qaoa.py`);
`config.py` reads backends from TOML files. Backends are imported on demand.
"""

from .base import Answer, Backend, Result
from .ilp import IlpBackend
from .registry import BACKEND_MODULES, BACKENDS, backend_names, get_backend, register_backend
from .sampler import Preset, SamplerBackend

__all__ = [
    "Answer",
    "BACKEND_MODULES",
    "BACKENDS",
    "Backend",
    "IlpBackend",
    "Preset",
    "Result",
    "SamplerBackend",
    "backend_names",
    "get_backend",
    "register_backend",
]
