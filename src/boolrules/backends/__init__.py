"""Solver backends behind one interface: `get_backend(name, **options).solve(problem) -> Result`.

`base.py` holds the interface (`Backend`, `Result`) and the registry. ILP backends solve the
problem exactly (`ilp.py`, with the drivers `highs.py` and `pyomo_solvers.py`); any dimod sampler
is a QUBO backend (`sampler.py`), and the named ones are presets of it (`samplers.py`, `dwave.py`,
`qaoa.py`); `config.py` reads backends from TOML files. Backends are imported on demand.
"""

from .base import BACKEND_MODULES, BACKENDS, Backend, Result, backend_names, get_backend, register_backend
from .ilp import IlpBackend
from .sampler import Preset, SamplerBackend

__all__ = [
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
