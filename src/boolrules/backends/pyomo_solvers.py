"""MIP solvers through Pyomo's interfaces: the newer ones (`scip` through pyscipopt, `gurobi`
through gurobipy, `highs-pyomo`, Pyomo's persistent HiGHS interface kept for comparison) and the
classic ones for executables (`cbc`, `glpk`, `cplex`, `xpress`, and `scip`/`gurobi` when only the
executable is there).

Neither writes into the problem's model: the newer interfaces hand back their primal values, and a
classic one, which takes a warm start only as values in the model and loads its answer there,
solves a clone of the model. Cloning costs 20-40 ms for 100 Breast Cancer rows and 0.1-0.2 s for
all 569 (Or and Choose, 300 features, m' = 4; a busy 2-core machine), where a Pyomo solve of the
same problems with a 0.5 s limit takes 0.6-1.7 s (highs-pyomo).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading

import numpy as np
import pyomo.environ as pyo
from pyomo.contrib.solver.common.factory import SolverFactory as SolverFactoryV2

from .base import Answer
from .ilp_driver import IlpForm, ilp_answer

__all__ = ["ILP_SOLVERS", "interface", "solve_pyomo"]

# Our name -> (Pyomo's newer-interface name or None, classic name, option names for (time limit,
# relative gap, threads) in the classic interface): every ILP backend's solver. "highs" is solved
# on matrices by highs.py; Pyomo's interface to it tells whether it is installed.
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


def interface(name: str):
    """('v2', solver) or ('classic', solver) for our solver name, or None when not installed."""
    v2_name, classic_name, _ = ILP_SOLVERS[name]
    if v2_name is not None:
        solver = SolverFactoryV2(v2_name)
        if solver.available():
            return "v2", solver
    if classic_name is not None:
        with _quiet():
            solver = pyo.SolverFactory(classic_name)
            if solver.available(exception_flag=False):
                return "classic", solver
    return None


@contextlib.contextmanager
def _quiet():
    """Silence Pyomo's warnings about solvers that are not installed."""
    logger = logging.getLogger("pyomo")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


@contextlib.contextmanager
def _reraise_interrupt():
    """Raise KeyboardInterrupt at the end of the block if Ctrl-C came during it: a solver library
    may catch the interrupt and return a status instead (Pyomo's HiGHS interface does)."""
    if threading.current_thread() is not threading.main_thread():  # only it receives signals
        yield
        return
    interrupted = []
    previous = signal.getsignal(signal.SIGINT)

    def record(signum, frame):
        interrupted.append(signum)
        if callable(previous):
            previous(signum, frame)

    signal.signal(signal.SIGINT, record)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt


# Pyomo's solver interfaces are not thread-safe (highs-pyomo deadlocked when solves ran from several
# threads at once): one Pyomo solve at a time in this process.
_ONE_AT_A_TIME = threading.Lock()


def solve_pyomo(form: IlpForm, *, solver: str, time_limit=None, mip_gap=None, threads=None, tee=False) -> Answer:
    """`solver` (installed: `interface(solver)` finds it) on the form's model through Pyomo, with
    the options `IlpBackend` checks; only classic interfaces take the form's warm start. Safe from
    several threads (their solves take turns)."""
    kind, solver_interface = interface(solver)
    with _ONE_AT_A_TIME:
        if kind == "v2":
            return _solve_v2(form, solver_interface, time_limit, mip_gap, threads, tee)
        return _solve_classic(form, solver, solver_interface, time_limit, mip_gap, threads, tee)


def _solve_v2(form, interface, time_limit, mip_gap, threads, tee) -> Answer:
    from pyomo.contrib.solver.common.results import SolutionStatus

    options = {"load_solutions": False, "raise_exception_on_nonoptimal_result": False, "tee": tee}
    if time_limit is not None:
        options["time_limit"] = time_limit
    if mip_gap is not None:
        options["rel_gap"] = mip_gap
    if threads is not None:
        options["threads"] = threads
        if type(interface).__name__ == "Highs":  # see highs.solve_highs
            import highspy

            highspy.Highs.resetGlobalScheduler(True)
    with _quiet(), _reraise_interrupt():
        results = interface.solve(form.model, **options)
    term = results.termination_condition.name
    x = objective = None
    if results.solution_status in (SolutionStatus.optimal, SolutionStatus.feasible):
        x = _vector(form, {var.name: value for var, value in results.solution_loader.get_vars().items()})
        objective = results.incumbent_objective
    return ilp_answer(term, term, x, objective, results.objective_bound)


def _solve_classic(form, solver, interface, time_limit, mip_gap, threads, tee) -> Answer:
    for name, value in zip(ILP_SOLVERS[solver][2], (time_limit, mip_gap, threads)):
        if value is not None and name is not None:
            interface.options[name] = value
    model = form.model.clone()  # the solver loads its start and its answer into the model it solves
    extra = {}
    if form.start is not None and interface.warm_start_capable():
        point = dict(zip(form.standard.var_names, form.start().tolist()))
        for var in _variables(model):
            var.set_value(point[var.name])
        extra["warmstart"] = True
    with _quiet(), _reraise_interrupt():
        results = interface.solve(model, load_solutions=False, tee=tee, **extra)
    term = results.solver.termination_condition
    x = objective = None
    if len(results.solution) > 0:
        model.solutions.load_from(results)
        x = _vector(form, {var.name: var.value for var in _variables(model)})
        objective = pyo.value(model.objective)
    return ilp_answer(term.name, str(term), x, objective, getattr(results.problem, "lower_bound", None))


def _variables(model) -> list:
    """Every variable of `model`, block by block."""
    return [v for component in model.component_objects(pyo.Var, descend_into=False) for v in component.values()]


def _vector(form: IlpForm, values: dict) -> np.ndarray:
    """The vector over the standard form's columns of {variable name: value} (None is 0)."""
    return np.array([values.get(name) or 0.0 for name in form.standard.var_names], dtype=float)
