"""The "native" backend: depth-one problems solved exactly on their arrays by branch and bound
(`depth_one_search.py`) from the greedy-and-swap rule (`problem.greedy_values`) as first incumbent,
without building the Pyomo model; deterministic, so it takes no seed."""

from __future__ import annotations

import time

import numpy as np

from ..formulations.problem import check_problem
from ..validation import check_number
from .base import Backend, Result, cause, failed, register_backend, unknown_options
from .depth_one_search import search_depth_one

__all__ = ["NativeBackend", "check_native_options"]

OPTIONS = ("time_limit",)


def check_native_options(backend: str, options: dict) -> dict:
    """`options` of the native backend checked: time_limit a number >= 0 (or None)."""
    if set(options) - set(OPTIONS):
        raise unknown_options(backend, options, OPTIONS)
    return {k: None if v is None else check_number(v, k, 0) for k, v in options.items()}


class NativeBackend(Backend):
    """Exact branch and bound over literal sets for every operator, k, negated root, weights, λ and
    literal bounds. Option `time_limit` (seconds): return the best rule so far with status
    "time_limit" and the search's lower bound; otherwise the status is "optimal"."""

    capabilities = frozenset({"time_limit"})

    def __init__(self, name="native", **options):
        self.name = name
        self._options = {"time_limit": None}
        self._options.update(self.check_options(options))

    def check_options(self, options: dict) -> dict:
        return check_native_options(self.name, options)

    def solve(self, problem, **options) -> Result:
        check_problem(problem)
        options = self.call_options(options)
        start = time.perf_counter()
        try:
            limit = options["time_limit"]
            first = problem.greedy_values(None if limit is None else start + limit)
            found = search_depth_one(
                problem.X, problem.target, problem.weights, problem.operator,
                min_literals=problem.min_num_literals, max_literals=problem.max_num_literals, lam=problem.lam,
                exclusive=problem.exclusive_literals, incumbent=np.flatnonzero(np.concatenate([first["b"], first["bt"]])),
                time_limit=None if limit is None else max(0.0, limit - (time.perf_counter() - start)),
            )
        except Exception as exc:  # a failure while solving is an error result, as for every backend
            return failed(self.name, start, cause(exc), exc)
        m = problem.num_features
        chosen = np.zeros(2 * m, dtype=np.int64)
        chosen[found.literals] = 1
        values = {"b": chosen[:m], "bt": chosen[m:], "k": found.k}
        rule = problem.decode(values)
        objective = problem.objective(rule)
        gap = max(0.0, objective - found.bound) / max(abs(objective), 1e-9)
        return Result(rule, objective, "optimal" if found.optimal else "time_limit", time.perf_counter() - start,
                      self.name, bound=found.bound, gap=gap, solver_objective=found.objective, raw=found)


register_backend("native", NativeBackend, check_native_options)
