"""`RuleProblem`: what every rule problem offers, declared abstractly as dimod's `Sampler` declares
`sample`: the QUBO compiler, the decoders and the backends rely on these members and no others."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from ..exceptions import InputTypeError
from ..rules import Rule
from .standard_form import Layout

__all__ = ["RuleProblem", "check_rule_problem"]


class RuleProblem(ABC):
    """A rule-learning problem on 0/1 data `X` with labels `y` and sample `weights`. Values are
    per-block arrays of the problem's variables ({"b": ..., "bt": ..., "k": ...}); a deadline is a
    `time.perf_counter()` value after which a search returns what it has."""

    @property
    @abstractmethod
    def label(self) -> str:
        """The problem's operator or shape as printed, e.g. `AtLeast`, `~DNF`."""

    @property
    @abstractmethod
    def layout(self) -> Layout:
        """Its row and column blocks (`standard_form.Layout`)."""

    @property
    @abstractmethod
    def objective_range(self) -> float:
        """An upper bound on how much the objective can vary (penalty weights are set from it)."""

    @property
    @abstractmethod
    def keeps_eta(self) -> bool:
        """Whether a QUBO compiled with `eta="auto"` keeps the error variables (where they anneal better)."""

    @property
    @abstractmethod
    def soft_rows_price_rules(self) -> bool:
        """Whether, without η, a valid rule's QUBO energy is at least its objective (brute-force tested)."""

    @abstractmethod
    def decode(self, values) -> Rule:
        """The rule that `values` encode."""

    @abstractmethod
    def errors(self, rule: Rule) -> np.ndarray:
        """Per sample, whether `rule` misclassifies it."""

    @abstractmethod
    def objective(self, rule: Rule) -> float:
        """The problem's objective of `rule`: weighted errors plus λ times its size."""

    @abstractmethod
    def repair_values(self, values) -> dict:
        """The valid values nearest to `values`."""

    @abstractmethod
    def polish_values(self, values, deadline: float | None = None) -> dict:
        """Valid values improved by local moves until none helps or `deadline` passes."""

    @abstractmethod
    def greedy_values(self, deadline: float | None = None) -> dict:
        """A greedy rule's values, polished until `deadline`: a first incumbent."""

    @abstractmethod
    def greedy_point(self) -> np.ndarray:
        """The greedy rule as a feasible point over the standard form's columns: an ILP warm start."""

    @abstractmethod
    def summary(self) -> dict:
        """Sizes and settings, for inspection."""


def check_rule_problem(problem, name: str = "problem") -> RuleProblem:
    """`problem` itself, or TypeError naming `name` unless it is a depth-one or depth-two problem."""
    if not isinstance(problem, RuleProblem):
        raise InputTypeError(
            f"{name} must be a DepthOneProblem or DepthTwoProblem (build one with boolrules.formulations.depth_one "
            f"or depth_two), got {type(problem).__name__}"
        )
    return problem
