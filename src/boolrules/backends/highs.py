"""HiGHS on the standard-form matrices (highspy), run so that Ctrl-C cancels it at once, and
safely from several threads at once (each solve has its own `Highs` and its own run locks)."""

from __future__ import annotations

import threading

import numpy as np

from .base import Answer
from .ilp_driver import IlpForm, ilp_answer

__all__ = ["run_interruptibly", "solve_highs"]


# Held while creating a `Highs` (its banner is captured by redirecting the process's stdout) and
# while resetting HiGHS's global task scheduler for a thread count.
_GLOBAL = threading.Lock()


def own_locks(highs):
    """`highs` with run locks of its own: highspy keeps the locks of `startSolve`/`wait` on the
    class, so a second solve started from another thread fails with "Solver is already running"."""
    highs._Highs__solver_stopped = threading.RLock()
    highs._Highs__solver_started = threading.Lock()
    return highs


def run_interruptibly(highs) -> None:
    """`highs.run()` in highspy's solver thread, so that Ctrl-C cancels the solve (highspy's user
    interrupt) and is raised here at once: `run()` itself cannot be interrupted until it ends."""
    highs.HandleUserInterrupt = True
    try:
        highs.startSolve()  # in the block: Ctrl-C right after the start cancels too
        while not highs.wait(1.0)[0]:
            pass
    except KeyboardInterrupt:
        highs.cancelSolve()
        while not highs.wait(1.0)[0]:  # HiGHS stops at its next interrupt check
            pass
        raise


def solve_highs(form: IlpForm, *, time_limit=None, mip_gap=None, threads=None, tee=False,
                interruptible=True) -> Answer:
    """HiGHS on the standard form (every variable integer: binaries and k), warm started where the
    form has a start, with the options `IlpBackend` checks; `interruptible=False` runs HiGHS's
    blocking `run()` instead of `run_interruptibly` (for `benchmarks/bench_interruptible.py`)."""
    import highspy
    from pyomo.common.tee import capture_output

    start, form = form.start, form.standard
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
    with _GLOBAL, capture_output(capture_fd=True):  # HiGHS prints a banner when created
        highs = own_locks(highspy.Highs())
    highs.setOptionValue("output_flag", bool(tee))
    if time_limit is not None:
        highs.setOptionValue("time_limit", float(time_limit))
    if mip_gap is not None:
        highs.setOptionValue("mip_rel_gap", float(mip_gap))
    if threads is not None:
        # HiGHS keeps one task scheduler per user thread, sized by the first solve; a different
        # thread count is refused ("global scheduler has already been initialized") unless reset.
        with _GLOBAL:
            highspy.Highs.resetGlobalScheduler(True)
        highs.setOptionValue("threads", int(threads))
    highs.passModel(lp)
    if start is not None:
        solution = highspy.HighsSolution()
        solution.col_value = start().tolist()
        solution.value_valid = True
        highs.setSolution(solution)
    if interruptible:
        run_interruptibly(highs)
    else:
        highs.run()
    model_status = highs.getModelStatus()
    info = highs.getInfo()
    has_solution = info.primal_solution_status == 2  # kSolutionStatusFeasible
    return ilp_answer(
        model_status.name, highs.modelStatusToString(model_status),
        np.round(highs.getSolution().col_value) if has_solution else None,
        float(info.objective_function_value) if has_solution else None,
        info.mip_dual_bound,
    )
