"""ILP backends: a depth-one or depth-two problem solved exactly by HiGHS (default) or another MIP solver.

`highs` takes the standard-form matrices straight into highspy (`highs.py`): loading a 100-row
model that way takes milliseconds where Pyomo's persistent HiGHS interface takes about a second,
which matters for the many small solves of non-local moves (`benchmarks/bench_nonlocal.py`).
The other solvers go through Pyomo's solver interfaces (`pyomo_solvers.py`). Every driver turns
its solver's termination into a `Result` through one status table (`ilp_result`).
"""

from __future__ import annotations

import math
import os
import time
from functools import partial

from ..formulations.rule_problem import check_rule_problem
from ..formulations.standard_form import ILP_CHAIN
from ..validation import check_bool, check_integer, check_number
from .base import Backend, Result, cause, failed, register_backend, unknown_options

__all__ = [
    "IlpBackend", "ILP_SOLVERS", "MAX_THREADS", "TERMINATION_STATUS", "available_ilp_solvers", "check_ilp_options",
    "ilp_result",
]

# Our name -> (Pyomo's newer-interface name or None, classic name, option names for (time limit,
# relative gap, threads) in the classic interface). "highs" is solved on matrices by highs.py.
ILP_SOLVERS = {
    "highs": ("highs", None, None),
    "highs-pyomo": ("highs", None, None),
    "scip": ("scip_direct", "scip", ("limits/time", "limits/gap", "parallel/maxnthreads")),
    "gurobi": ("gurobi_direct", "gurobi", ("TimeLimit", "MIPGap", "Threads")),
    "cbc": (None, "cbc", ("seconds", "ratioGap", "threads")),
    "glpk": (None, "glpk", ("tmlim", "mipgap", None)),
    "cplex": (None, "cplex", ("timelimit", "mipgap", "threads")),
    "xpress": (None, "xpress", ("maxtime", "miprelstop", "threads")),
}

# The one status table: a termination as each interface names it (HiGHS's model status, Pyomo's
# newer and classic termination conditions) -> our status. Any other termination is "feasible"
# when the solver has an incumbent; without one, every status but "infeasible" is an error.
TERMINATION_STATUS = {
    "kOptimal": "optimal", "convergenceCriteriaSatisfied": "optimal", "optimal": "optimal",
    "kTimeLimit": "time_limit", "maxTimeLimit": "time_limit",
    "kInfeasible": "infeasible", "kUnboundedOrInfeasible": "infeasible", "provenInfeasible": "infeasible",
    "locallyInfeasible": "infeasible", "infeasibleOrUnbounded": "infeasible", "infeasible": "infeasible",
}
OPTIONS = ("time_limit", "mip_gap", "threads", "warm_start")
# At most one solver thread per core: more only slows a solve down (HiGHS with threads=4096 spends
# its time starting threads, deaf to Ctrl-C meanwhile).
MAX_THREADS = os.cpu_count() or 1


def ilp_result(problem, backend: str, termination: str, message: str, x, objective, bound, seconds: float) -> Result:
    """The Result of an ILP solve: the incumbent `x` (a vector over the standard form's columns,
    None without one, kept as `raw`) decoded, `termination` looked up in `TERMINATION_STATUS`."""
    status = TERMINATION_STATUS.get(termination, "feasible")
    objective, bound = _finite(objective), _finite(bound)
    if x is None:
        if status == "infeasible":
            return Result(None, None, status, seconds, backend, bound=bound, message=message)
        return Result(None, None, "error", seconds, backend, bound=bound,
                      message=f"backend {backend!r}: no incumbent ({message})")
    _, inverses = ILP_CHAIN.apply(problem)
    rule = problem.decode(ILP_CHAIN.invert(x, inverses))
    gap = None
    if bound is not None and objective is not None:
        gap = max(0.0, objective - bound) / max(abs(objective), 1e-9)
    return Result(rule, problem.objective(rule), status, seconds, backend, bound=bound, gap=gap,
                  solver_objective=objective, message=message, raw=x)


def _finite(value) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def available_ilp_solvers() -> list[str]:
    """The solver names of `ILP_SOLVERS` that are installed here."""
    from .pyomo_solvers import interface

    return [name for name in ILP_SOLVERS if interface(name) is not None]


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


def _driver(solver: str):
    """The function that solves with `solver`, or ValueError naming the installed solvers."""
    if solver == "highs":
        from .highs import solve_highs

        return solve_highs
    from . import pyomo_solvers

    found = pyomo_solvers.interface(solver)
    if found is None:
        raise ValueError(
            f"ILP solver {solver!r} is not installed; installed: {', '.join(available_ilp_solvers()) or 'none'}"
        )
    return partial(pyomo_solvers.solve_pyomo, solver=solver, found=found)


class IlpBackend(Backend):
    """Solve the model exactly with `solver` (a name of `ILP_SOLVERS`). Options:

    `time_limit` (seconds) returns the incumbent with status `time_limit`; `mip_gap` is the
    relative gap at which to stop; `threads` where the solver takes it; `warm_start` (default
    true) hands the solver the greedy rule (`problem.greedy_point()`) as a first incumbent where it takes
    one (highs, and classic interfaces that are warm-start capable), so a short time limit still
    returns a rule at least that good.
    """

    capabilities = frozenset({"time_limit", "depth_two"})

    def __init__(self, solver="highs", **options):
        if not isinstance(solver, str) or solver not in ILP_SOLVERS:
            raise ValueError(f"unknown ILP solver {solver!r}; known: {', '.join(ILP_SOLVERS)}")
        self.name = solver
        self._options = {"time_limit": None, "mip_gap": None, "threads": None, "warm_start": True}
        self._options.update(self.check_options(options))

    def check_options(self, options: dict) -> dict:
        return check_ilp_options(self.name, options)

    def solve(self, problem, **options) -> Result:
        check_rule_problem(problem)
        options = self.call_options(options)
        driver = _driver(self.name)
        start = time.perf_counter()
        try:
            return driver(problem, **options)
        except Exception as exc:  # a solver crash is an error result, not a traceback from deep inside
            return failed(self.name, start, cause(exc), exc)


for _solver in ILP_SOLVERS:
    register_backend(_solver, IlpBackend, check_ilp_options)
