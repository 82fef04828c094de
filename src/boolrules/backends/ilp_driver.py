"""What an ILP driver (`highs.py`, `pyomo_solvers.py`) takes, `IlpForm`, and how its answer reads:
its solver's termination through one status table (`TERMINATION_STATUS`) into an `Answer`."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..formulations.standard_form import StandardForm
from .base import Answer

__all__ = ["IlpForm", "TERMINATION_STATUS", "ilp_answer"]

# The one status table: a termination as each interface names it (HiGHS's model status, Pyomo's
# newer and classic termination conditions) -> our status. Any other termination is "feasible"
# when the solver has an incumbent; without one, every status but "infeasible" is an error.
TERMINATION_STATUS = {
    "kOptimal": "optimal", "convergenceCriteriaSatisfied": "optimal", "optimal": "optimal",
    "kTimeLimit": "time_limit", "maxTimeLimit": "time_limit",
    "kInfeasible": "infeasible", "kUnboundedOrInfeasible": "infeasible", "provenInfeasible": "infeasible",
    "locallyInfeasible": "infeasible", "infeasibleOrUnbounded": "infeasible", "infeasible": "infeasible",
}


@dataclass(frozen=True)
class IlpForm:
    """What an ILP driver solves: the problem's `standard` form (the ILP chain's), its Pyomo
    `model` (which Pyomo's interfaces solve) and `start`, which gives the warm start over the
    standard form's columns when a solver that takes one asks for it (None: no warm start)."""

    standard: StandardForm
    model: object
    start: Callable[[], np.ndarray] | None


def ilp_answer(termination: str, message: str, x, objective, bound) -> Answer:
    """The Answer of an ILP solve: the incumbent `x` (a vector over the standard form's columns,
    None without one), `termination` looked up in `TERMINATION_STATUS`, and the solver's objective
    and bound where they are finite."""
    return Answer(x, TERMINATION_STATUS.get(termination, "feasible"), message, _finite(objective), _finite(bound))


def _finite(value) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)
