"""ILP backends: a depth-one problem's Pyomo model solved by HiGHS (default) or another MIP solver."""

from __future__ import annotations

from ..formulations.solve import ILP_SOLVERS, check_ilp_options, solve_ilp
from .base import Backend, Result, register_backend

__all__ = ["IlpBackend"]


class IlpBackend(Backend):
    """Solve the model exactly with `solver` (see `formulations.solve.ILP_SOLVERS`).

    `time_limit` (seconds) returns the incumbent with status `time_limit`; `mip_gap` is the
    relative gap at which to stop; `threads` where the solver takes it; `warm_start` starts
    from the greedy rule where the solver takes a start (see `formulations.solve.solve_ilp`).
    """

    def __init__(self, solver="highs", time_limit=None, mip_gap=None, threads=None, warm_start=True):
        self.solver = solver
        self.time_limit, self.mip_gap, self.threads, self.warm_start = check_ilp_options(
            solver, time_limit, mip_gap, threads, warm_start)

    @property
    def name(self) -> str:
        return self.solver

    def solve(self, problem, **options) -> Result:
        backend = self.configured(options)
        outcome = solve_ilp(
            problem, backend.solver, time_limit=backend.time_limit, mip_gap=backend.mip_gap,
            threads=backend.threads, warm_start=backend.warm_start,
        )
        if outcome.values is None:
            status = outcome.status if outcome.status in ("infeasible", "error") else "error"
            message = outcome.message if status == outcome.status else f"no incumbent ({outcome.status})"
            return Result(None, None, status, outcome.seconds, self.name, bound=outcome.bound,
                          message=message, raw=outcome)
        rule = problem.decode(outcome.values)
        objective = problem.objective(rule)
        gap = None
        if outcome.bound is not None and outcome.objective is not None:
            gap = max(0.0, outcome.objective - outcome.bound) / max(abs(outcome.objective), 1e-9)
        return Result(
            rule, objective, outcome.status, outcome.seconds, self.name, bound=outcome.bound, gap=gap,
            solver_objective=outcome.objective, message=outcome.message, raw=outcome,
        )


for _solver in ILP_SOLVERS:
    register_backend(_solver, IlpBackend, solver=_solver)
