"""Solve a depth-one problem's Pyomo model with an ILP solver.

`highs` (the default) takes the matrices of Pyomo's `LinearStandardFormCompiler` straight into
highspy: loading a 100-row model that way takes milliseconds where Pyomo's persistent HiGHS
interface takes about a second, which matters for the many small solves of non-local moves
(`benchmarks/bench_nonlocal.py`). `highs-pyomo` is that persistent interface, kept for
comparison. The other solvers go through Pyomo's solver interfaces: the newer ones (`scip`
through pyscipopt, `gurobi` through gurobipy) and the classic ones for executables (`cbc`,
`glpk`, `cplex`, `xpress`, and `scip`/`gurobi` when only the executable is there).
Every path returns the same small record: status, incumbent values, objective, bound.
"""

from __future__ import annotations

import contextlib
import logging
import math
import signal
import threading
import time
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
from pyomo.contrib.solver.common.factory import SolverFactory as SolverFactoryV2
from pyomo.opt import TerminationCondition as LegacyTermination

from ..validation import check_bool, check_integer, check_number
from .problem import DepthOneProblem, check_problem
from .repair import feasible_point, polish, repair_values

__all__ = ["IlpOutcome", "ILP_SOLVERS", "available_ilp_solvers", "check_ilp_options", "solve_ilp"]

# Our name -> (newer-interface name or None, classic name, option names for
# (time limit, relative gap, threads) in the classic interface).
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


@dataclass
class IlpOutcome:
    """What an ILP solve returned: status (optimal, feasible, time_limit, infeasible, error),
    the incumbent's b/bt/k values (None without one), its objective, the solver's bound."""

    status: str
    values: dict | None
    objective: float | None
    bound: float | None
    seconds: float
    solver: str
    message: str = ""


def _interface(name: str):
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


def available_ilp_solvers() -> list[str]:
    """The solver names of `ILP_SOLVERS` that are installed here."""
    return [name for name in ILP_SOLVERS if _interface(name) is not None]


def check_ilp_options(solver, time_limit, mip_gap, threads, warm_start) -> tuple:
    """(time_limit, mip_gap, threads, warm_start) checked for `solve_ilp`, or an error naming the option."""
    if not isinstance(solver, str) or solver not in ILP_SOLVERS:
        raise ValueError(f"unknown ILP solver {solver!r}; known: {', '.join(ILP_SOLVERS)}")
    return (
        None if time_limit is None else check_number(time_limit, "time_limit", 0),
        None if mip_gap is None else check_number(mip_gap, "mip_gap", 0),
        None if threads is None else check_integer(threads, "threads", 1),
        check_bool(warm_start, "warm_start"),
    )


def solve_ilp(
    problem: DepthOneProblem,
    solver: str = "highs",
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    threads: int | None = None,
    warm_start: bool = True,
    tee: bool = False,
) -> IlpOutcome:
    """Solve `problem.model` with `solver`; a time-out keeps the incumbent (status `time_limit`).

    `warm_start` hands the solver a greedy rule (grown by `repair`, improved by `polish`) as a
    first incumbent, where the solver takes one (highs, classic solvers that
    are warm-start capable), so a short time limit still returns a rule at least that good."""
    check_problem(problem)
    time_limit, mip_gap, threads, warm_start = check_ilp_options(solver, time_limit, mip_gap, threads, warm_start)
    tee = check_bool(tee, "tee")
    found = _interface(solver)
    if found is None:
        raise ValueError(
            f"ILP solver {solver!r} is not installed; installed: {', '.join(available_ilp_solvers()) or 'none'}"
        )
    kind, interface = found
    start = time.perf_counter()
    try:
        start_point = _greedy_point(problem) if warm_start else None
        if solver == "highs":
            outcome = _solve_highs_matrices(problem, time_limit, mip_gap, threads, tee, start_point)
        elif kind == "v2":
            outcome = _solve_v2(problem, interface, time_limit, mip_gap, threads, tee)
        else:
            outcome = _solve_classic(problem, interface, solver, time_limit, mip_gap, threads, tee, start_point)
    except Exception as exc:  # a solver crash becomes an error result, not a traceback from deep inside
        return IlpOutcome("error", None, None, None, time.perf_counter() - start, solver, f"{type(exc).__name__}: {exc}")
    outcome.seconds = time.perf_counter() - start
    outcome.solver = solver
    return outcome


def _finite(value) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _greedy_point(problem) -> np.ndarray:
    """A feasible solution vector: the greedy rule grown from no literals (see `repair`), improved
    by literal swaps, additions and removals until none helps (`polish`)."""
    none = np.zeros(problem.num_features)
    return feasible_point(problem, polish(problem, repair_values(problem, none, none)))


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


def _run_interruptibly(highs) -> None:
    """`highs.run()` in highspy's solver thread, so that Ctrl-C cancels the solve (highspy's user
    interrupt) and is raised here at once: `run()` itself cannot be interrupted until it ends."""
    highs.HandleUserInterrupt = True
    highs.startSolve()
    try:
        while not highs.wait(1.0)[0]:
            pass
    except KeyboardInterrupt:
        highs.cancelSolve()
        while not highs.wait(1.0)[0]:  # HiGHS stops at its next interrupt check
            pass
        raise


def _solve_highs_matrices(problem, time_limit, mip_gap, threads, tee, start_point) -> IlpOutcome:
    """HiGHS on the standard-form matrices (every variable integer: binaries and k)."""
    import highspy
    from pyomo.common.tee import capture_output

    form = problem.standard_form
    A = form.A.tocsc()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = A.shape[1], A.shape[0]
    lp.col_cost_ = form.c
    lp.offset_ = form.c0
    lp.col_lower_, lp.col_upper_ = form.var_lower, form.var_upper
    lp.row_lower_, lp.row_upper_ = form.lower, form.upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    lp.integrality_ = [highspy.HighsVarType.kInteger] * A.shape[1]
    with capture_output(capture_fd=True):  # HiGHS prints a banner when created
        highs = highspy.Highs()
    highs.setOptionValue("output_flag", bool(tee))
    if time_limit is not None:
        highs.setOptionValue("time_limit", float(time_limit))
    if mip_gap is not None:
        highs.setOptionValue("mip_rel_gap", float(mip_gap))
    if threads is not None:
        highspy.Highs.resetGlobalScheduler(True)  # see _solve_v2
        highs.setOptionValue("threads", int(threads))
    highs.passModel(lp)
    if start_point is not None:
        solution = highspy.HighsSolution()
        solution.col_value = start_point.tolist()
        solution.value_valid = True
        highs.setSolution(solution)
    _run_interruptibly(highs)
    model_status = highs.getModelStatus()
    info = highs.getInfo()
    has_solution = info.primal_solution_status == 2  # kSolutionStatusFeasible
    if model_status == highspy.HighsModelStatus.kOptimal and has_solution:
        status = "optimal"
    elif model_status == highspy.HighsModelStatus.kTimeLimit:
        status = "time_limit"
    elif model_status in (highspy.HighsModelStatus.kInfeasible, highspy.HighsModelStatus.kUnboundedOrInfeasible):
        status = "infeasible"
    else:
        status = "feasible" if has_solution else "error"
    values = None
    if has_solution:
        x = np.round(highs.getSolution().col_value)
        for var, value in zip(problem.standard_form_vars, x.tolist()):  # as Pyomo's interfaces do
            var.set_value(value, skip_validation=True)
        values = problem.values_from_vector(x)
    return IlpOutcome(
        status=status,
        values=values,
        objective=float(info.objective_function_value) if has_solution else None,
        bound=_finite(info.mip_dual_bound),
        seconds=0.0,
        solver="",
        message=highs.modelStatusToString(model_status),
    )


def _solve_v2(problem, interface, time_limit, mip_gap, threads, tee) -> IlpOutcome:
    from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition

    options = {"load_solutions": False, "raise_exception_on_nonoptimal_result": False, "tee": tee}
    if time_limit is not None:
        options["time_limit"] = time_limit
    if mip_gap is not None:
        options["rel_gap"] = mip_gap
    if threads is not None:
        options["threads"] = threads
        if type(interface).__name__ == "Highs":
            # HiGHS keeps one task scheduler per user thread, sized by the first solve; a different
            # thread count is refused ("global scheduler has already been initialized") unless reset.
            import highspy

            highspy.Highs.resetGlobalScheduler(True)
    with _quiet(), _reraise_interrupt():
        results = interface.solve(problem.model, **options)
    term = results.termination_condition
    has_solution = results.solution_status in (SolutionStatus.optimal, SolutionStatus.feasible)
    if has_solution:
        results.solution_loader.load_vars()
    if term == TerminationCondition.convergenceCriteriaSatisfied and has_solution:
        status = "optimal"
    elif term == TerminationCondition.maxTimeLimit:
        status = "time_limit"
    elif term in (TerminationCondition.provenInfeasible, TerminationCondition.locallyInfeasible,
                  TerminationCondition.infeasibleOrUnbounded):
        status = "infeasible"
    elif has_solution:
        status = "feasible"
    else:
        status = "error"
    return IlpOutcome(
        status=status,
        values=problem.values_from_model() if has_solution else None,
        objective=_finite(results.incumbent_objective) if has_solution else None,
        bound=_finite(results.objective_bound),
        seconds=0.0,
        solver="",
        message=str(term.name),
    )


def _solve_classic(problem, interface, solver, time_limit, mip_gap, threads, tee, start_point) -> IlpOutcome:
    names = ILP_SOLVERS[solver][2]
    for name, value in zip(names, (time_limit, mip_gap, threads)):
        if value is not None and name is not None:
            interface.options[name] = value
    extra = {}
    if start_point is not None and interface.warm_start_capable():
        for var, value in zip(problem.standard_form_vars, start_point):
            var.set_value(value)
        extra["warmstart"] = True
    with _quiet(), _reraise_interrupt():
        results = interface.solve(problem.model, load_solutions=False, tee=tee, **extra)
    term = results.solver.termination_condition
    has_solution = len(results.solution) > 0
    if has_solution:
        problem.model.solutions.load_from(results)
    if term == LegacyTermination.optimal:
        status = "optimal"
    elif term == LegacyTermination.maxTimeLimit:
        status = "time_limit"
    elif term in (LegacyTermination.infeasible, LegacyTermination.infeasibleOrUnbounded):
        status = "infeasible"
    elif has_solution:
        status = "feasible"
    else:
        status = "error"
    objective = pyo.value(problem.model.objective) if has_solution else None
    bound = getattr(results.problem, "lower_bound", None)
    return IlpOutcome(
        status=status,
        values=problem.values_from_model() if has_solution else None,
        objective=objective,
        bound=_finite(bound),
        seconds=0.0,
        solver="",
        message=str(term),
    )
