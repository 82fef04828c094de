"""The "native" backend: depth-one problems solved exactly on their arrays by branch and bound
(`depth_one_search.py`) from the greedy rule (`problem.repair_values` of no literals) as first incumbent,
depth-two problems by term-wise covering, exact when their terms are few (`depth_two_search.py`),
without building the Pyomo model; deterministic, so it takes no seed."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..formulations.chain import Chain, Reduction
from ..formulations.depth_two_problem import DepthTwoProblem
from ..validation import check_number
from .base import Answer, Backend, unknown_options
from .depth_one_search import WIDEST, search_depth_one
from .depth_two_search import DepthTwoResult, search_depth_two
from .registry import register_backend

__all__ = ["LiteralSet", "NativeBackend", "ToLiteralSets", "check_native_options"]

OPTIONS = ("time_limit",)


def check_native_options(backend: str, options: dict) -> dict:
    """`options` of the native backend checked: time_limit a number >= 0 (or None)."""
    if set(options) - set(OPTIONS):
        raise unknown_options(backend, options, OPTIONS)
    return {k: None if v is None else check_number(v, k, 0) for k, v in options.items()}


class LiteralSet(NamedTuple):
    """A depth-one selection as the search holds it: the indices of its `literals` among the 2m
    (features, then negated features) and its `k` (None for Or and And)."""

    literals: np.ndarray
    k: int | None


@dataclass(frozen=True)
class ToLiteralSets(Reduction):
    """A depth-one problem -> itself, searched on its arrays over literal sets: a solution is a
    `LiteralSet` (or the search's answer, which has its literals and k); the inverse data is the
    number of features m. A depth-two problem's solution is the depth-two search's answer, its terms."""

    def apply(self, problem) -> tuple[object, int]:
        return problem, problem.num_features

    def invert(self, found, m: int) -> dict:
        """The values {"b", "bt", "k"} of a literal set ({"z"} of the depth-two search's terms)."""
        if isinstance(found, DepthTwoResult):
            return {"z": found.terms.astype(np.int64).ravel()}
        chosen = np.zeros(2 * m, dtype=np.int64)
        chosen[found.literals] = 1
        return {"b": chosen[:m], "bt": chosen[m:], "k": found.k}

    def encode(self, values: dict, m: int) -> LiteralSet:
        """The literal set of values {"b", "bt"} (and "k" where the operator has one)."""
        return LiteralSet(np.flatnonzero(np.concatenate([values["b"], values["bt"]])), values.get("k"))


class NativeBackend(Backend):
    """Exact branch and bound over literal sets for every operator, k, negated root, weights, λ and
    literal bounds; depth-two problems (DNF, CNF) by `search_depth_two`, proven optimal when their
    terms are few enough to list (`depth_two_search.EXACT_TERMS`), else status "feasible". Option
    `time_limit` (seconds): return the best rule so far with status "time_limit" and the search's
    lower bound (depth-two: None unless the exact search ran); otherwise the status is "optimal"."""

    capabilities = frozenset({"time_limit", "depth_two"})
    chain = Chain((ToLiteralSets(),))

    def __init__(self, name="native", **options):
        self.name = name
        self._options = {"time_limit": None}
        self._options.update(self.check_options(options))

    def check_options(self, options: dict) -> dict:
        return check_native_options(self.name, options)

    def solve_form(self, problem, time_left: float | None, **options) -> Answer:
        """The search from the greedy rule, within the `time_left`; timed, its beams widen up to
        `WIDEST` while the time lasts (on root replacements its incumbent is the answer)."""
        deadline = None if time_left is None else time.perf_counter() + time_left
        if isinstance(problem, DepthTwoProblem):
            return self._solve_depth_two(problem, time_left)
        none = np.zeros(problem.num_features)  # the greedy rule grown to min literals; the search polishes it
        first = self.chain.encode(problem.repair_values({"b": none, "bt": none}), (problem.num_features,))
        found = search_depth_one(
            problem.X, problem.target, problem.weights, problem.operator,
            min_literals=problem.min_num_literals, max_literals=problem.max_num_literals, lam=problem.lam,
            exclusive=problem.exclusive_literals, incumbent=first.literals,
            beam_width=None if deadline is None else WIDEST,
            time_limit=None if deadline is None else max(0.0, deadline - time.perf_counter()),
        )
        return Answer(found, "optimal" if found.optimal else "time_limit", objective=found.objective,
                      bound=found.bound)

    def _solve_depth_two(self, problem, time_left: float | None) -> Answer:
        """`search_depth_two` on the problem's arrays: "optimal" when proven, "time_limit" when the
        time ran out first, else "feasible" (a heuristic answer on terms too many to list)."""
        found = search_depth_two(
            problem.X, problem.fired, problem.weights, problem.shape.name == "CNF", max_terms=problem.max_terms,
            max_literals=problem.max_literals_per_term, max_complexity=problem.max_complexity,
            min_terms=problem.min_terms, lam=problem.lam, time_limit=time_left)
        status = "optimal" if found.optimal else "time_limit" if found.stopped else "feasible"
        return Answer(found, status, objective=found.objective, bound=found.bound)


register_backend("native", NativeBackend, check_native_options)
