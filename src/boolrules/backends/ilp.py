"""ILP backends: a depth-one or depth-two problem solved exactly by HiGHS (default) or another MIP solver.

`highs` takes the standard-form matrices straight into highspy (`highs.py`): loading a 100-row
model that way takes milliseconds where Pyomo's persistent HiGHS interface takes about a second,
which matters for the many small solves of non-local moves (`benchmarks/bench_nonlocal.py`).
The other solvers go through Pyomo's solver interfaces (`pyomo_solvers.py`). Both drivers take an
`IlpForm` and answer through one status table (`ilp_driver.py`).
"""

from __future__ import annotations

import os

from ..exceptions import InputError
from ..formulations.standard_form import ILP_CHAIN
from ..validation import check_bool, check_integer, check_number
from . import highs, pyomo_solvers
from .base import Answer, Backend, unknown_options
from .ilp_driver import IlpForm
from .pyomo_solvers import ILP_SOLVERS
from .registry import register_backend

__all__ = ["IlpBackend", "MAX_THREADS", "available_ilp_solvers", "check_ilp_options"]

OPTIONS = ("time_limit", "mip_gap", "threads", "warm_start")
# At most one solver thread per core: more only slows a solve down (HiGHS with threads=4096 spends
# its time starting threads, deaf to Ctrl-C meanwhile).
MAX_THREADS = os.cpu_count() or 1


def available_ilp_solvers() -> list[str]:
    """The solver names of `ILP_SOLVERS` that are installed here."""
    return [name for name in ILP_SOLVERS if pyomo_solvers.interface(name) is not None]


def check_ilp_options(backend: str, options: dict) -> dict:
    """`options` of ILP backend `backend` checked: time_limit and mip_gap numbers >= 0 (or None),
    threads an integer in 1..MAX_THREADS (the cores here, or None), warm_start a bool."""
    if set(options) - set(OPTIONS):
        raise unknown_options(backend, options, OPTIONS)
    checks = {"time_limit": lambda v: check_number(v, "time_limit", 0),
              "mip_gap": lambda v: check_number(v, "mip_gap", 0),
              "threads": lambda v: check_integer(v, "threads", 1, MAX_THREADS),
              "warm_start": lambda v: check_bool(v, "warm_start")}
    return {k: None if v is None and k != "warm_start" else checks[k](v) for k, v in options.items()}


class IlpBackend(Backend):
    """Solve the model exactly with `solver` (a name of `ILP_SOLVERS`) on the ILP chain's standard
    form. Options:

    `time_limit` (seconds) returns the incumbent with status `time_limit`; `mip_gap` is the
    relative gap at which to stop; `threads` where the solver takes it; `warm_start` (default
    true) hands the solver the greedy rule (`problem.greedy_point()`) as a first incumbent where it takes
    one (highs, and classic interfaces that are warm-start capable), so a short time limit still
    returns a rule at least that good.
    """

    capabilities = frozenset({"time_limit", "depth_two"})
    chain = ILP_CHAIN

    def __init__(self, solver="highs", **options):
        if not isinstance(solver, str) or solver not in ILP_SOLVERS:
            raise InputError(f"unknown ILP solver {solver!r}; known: {', '.join(ILP_SOLVERS)}")
        self.name = solver
        self._options = {"time_limit": None, "mip_gap": None, "threads": None, "warm_start": True}
        self._options.update(self.check_options(options))

    def check_options(self, options: dict) -> dict:
        return check_ilp_options(self.name, options)

    def compile(self, problem, options: dict) -> tuple[IlpForm, tuple]:
        """The standard form (`ILP_CHAIN`) with the model and the warm start a solver may take;
        ValueError naming the installed solvers when this one is not."""
        if self.name != "highs" and pyomo_solvers.interface(self.name) is None:
            raise InputError(f"ILP solver {self.name!r} is not installed; installed: "
                             f"{', '.join(available_ilp_solvers()) or 'none'}")
        form, inverses = self.chain.apply(problem)
        return IlpForm(form, problem.model, problem.greedy_point if options["warm_start"] else None), inverses

    def solve_form(self, form: IlpForm, time_left: float | None, **options) -> Answer:
        """HiGHS on the matrices (`highs.py`), any other solver through Pyomo (`pyomo_solvers.py`);
        the solver keeps to `time_limit` itself."""
        settings = {k: options[k] for k in ("time_limit", "mip_gap", "threads")}
        if self.name == "highs":
            return highs.solve_highs(form, **settings)
        return pyomo_solvers.solve_pyomo(form, solver=self.name, **settings)


for _solver in ILP_SOLVERS:
    register_backend(_solver, IlpBackend, check_ilp_options)
