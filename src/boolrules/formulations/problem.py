"""`DepthOneProblem`: a built depth-one model with its data, decoding and inspection."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pyomo.environ as pyo

from ..exceptions import InputError, InputTypeError
from ..rules import OPERATORS, Literal, One, Rule, Zero, operator_output
from . import repair
from .model_problem import ModelProblem
from .preselection import relabel
from .standard_form import Group, Layout

__all__ = ["DepthOneProblem", "check_problem"]


@dataclass(eq=False)
class DepthOneProblem(ModelProblem):
    """A depth-one rule problem (`docs/formulations.md`, "The five operators"): its data, and its Pyomo
    model built on first access to `model` (by `builder`, `depth_one.build_model`), so array-only
    solvers skip it.

    With `features` (the original indices of X's columns, after a preselection), decoded rules
    and `objective`/`errors` use the original indices. The model's variables are `b`, `bt` (literal indicators), `eta` (errors), and for the
    parameterized operators `k` (and `q` for Choose); constraints are named blocks
    (`max_literals`, `exclusive_literals`, `positive_rows`, ...). Objective: Σ w_i η_i + λ L.
    """

    X: np.ndarray
    y: np.ndarray
    operator: str
    negated: bool
    max_num_literals: int
    min_num_literals: int
    lam: float
    weights: np.ndarray
    exclusive_literals: bool
    row_blocks: tuple = field(repr=False)
    builder: Callable[[DepthOneProblem], pyo.ConcreteModel] = field(repr=False)
    features: np.ndarray | None = None
    feature_names: list[str] | None = None  # names of X's original columns; results print rules with them

    def __repr__(self) -> str:
        kept = "" if self.features is None else f" (kept of a preselection: {len(self.features)})"
        return (f"DepthOneProblem({self.label}, {self.num_samples} samples ({int(np.sum(self.target == 1))} "
                f"positive), {self.num_features} features{kept}, {self.min_num_literals}..{self.max_num_literals} "
                f"literals, λ = {self.lam:g})")

    @property
    def feature_indices(self) -> np.ndarray:
        """The original column index of each column of X: X's own order, or those a preselection
        kept (`features`, by `depth_one(max_features=...)`); rules use these indices."""
        return np.arange(self.num_features) if self.features is None else self.features

    @cached_property
    def model(self) -> pyo.ConcreteModel:
        """The Pyomo model (variables b, bt, eta, k, q; named constraint blocks), built once."""
        return self.builder(self)

    @property
    def target(self) -> np.ndarray:
        """The label each sample needs from the un-negated operator: y, flipped when `negated`."""
        return 1 - self.y if self.negated else self.y

    @property
    def label(self) -> str:
        """The root operator as printed: `~AtLeast`, `Or`."""
        return ("~" if self.negated else "") + self.operator

    @property
    def parameterized(self) -> bool:
        return OPERATORS[self.operator].parameterized

    @property
    def keeps_eta(self) -> bool:
        """η is kept for Or and And only: without it the parameterized operators anneal far better
        (benchmarks/studies/qubo-quality.md: raw gap +42% against +124% median), Or and And reach
        the optimum with it."""
        return not self.parameterized

    @property
    def soft_rows_price_rules(self) -> bool:
        return True

    def paper_num_variables(self) -> int:
        """The paper's ILP count (Table 2, Eq. 24): 2m + n, +1 for k, +|N| for Choose."""
        count = 2 * self.num_features + self.num_samples
        if self.parameterized:
            count += 1
        if self.operator == "Choose":
            count += int(np.sum(self.target == 0))
        return count

    @property
    def layout(self) -> Layout:
        """Sample rows are the row blocks; b and bt form one group bounded by m' (`standard_form.py`)."""
        return Layout(
            sample_rows=tuple(block.name for block in self.row_blocks),
            groups=(Group(("b", "bt"), ("max_literals", "min_literals"), self.max_num_literals),),
            value_blocks=("b", "bt", "k"),
        )

    @property
    def objective_range(self) -> float:
        """An upper bound on how much the objective can vary: all weights and λ times every literal."""
        return float(self.weights.sum()) + self.lam * 2 * self.num_features

    # Solutions and rules

    def repair_values(self, values) -> dict:
        """The valid selection nearest to `values` ({"b", "bt"}), with the best k (`repair.repair_values`)."""
        return repair.repair_values(self, values["b"], values["bt"])

    def polish_values(self, values, deadline: float | None = None) -> dict:
        """A valid selection improved by literal swaps, additions and removals until none helps or
        `deadline` (a `time.perf_counter()` value) passes (`repair.polish`)."""
        return repair.polish(self, values, deadline)

    def greedy_values(self, deadline: float | None = None) -> dict:
        """The greedy rule grown from no literals, polished until `deadline` (`polish_values`): a
        first incumbent for exact solvers."""
        none = np.zeros(self.num_features)
        return self.polish_values(repair.repair_values(self, none, none), deadline)

    def greedy_point(self) -> np.ndarray:
        """The greedy rule as a feasible point over the standard form's columns: a warm start for the ILP solvers."""
        return repair.feasible_point(self, self.greedy_values())

    def decode(self, values, simplify: bool = True) -> Rule:
        """The rule that `values` ({"b", "bt", "k"}) encodes. With `simplify`, an operator over
        one literal becomes the equivalent literal, or constant where `min_num_literals` allows a
        rule without literals (else the constant would be charged no λ and undercut the optimum over
        the rules the problem allows, and its own bound); an empty one is a constant."""
        needed = ["b", "bt", "k"] if self.parameterized else ["b", "bt"]
        if not isinstance(values, dict) or not set(needed) <= set(values):
            raise InputError(f"values must be a dict of the blocks {', '.join(needed)}, got {values!r:.80}")
        b = np.asarray(values["b"]).round().astype(bool)
        bt = np.asarray(values["bt"]).round().astype(bool)
        if b.shape != (self.num_features,) or bt.shape != (self.num_features,):
            raise InputError(f"b and bt must each hold {self.num_features} values")
        indices = self.feature_indices
        literals = [
            Literal(int(indices[j]), bool(neg))
            for j in range(self.num_features)
            for neg, chosen in ((False, b[j]), (True, bt[j]))
            if chosen
        ]
        cls = OPERATORS[self.operator]
        k = int(round(values["k"])) if self.parameterized else None
        if k is not None and not 0 <= k <= len(literals):
            raise InputError(f"k={k} is outside 0..{len(literals)} (the number of chosen literals)")
        if not literals:  # no literal is true: only Or is false (k = 0 for the others)
            rule = Zero() if self.operator == "Or" else One()
        else:
            rule = cls(k, *literals) if k is not None else cls(*literals)
            if simplify and len(literals) == 1:
                simpler = _one_literal(cls, k, literals[0])
                rule = simpler if simpler.literals() or not self.min_num_literals else rule
        return ~rule if self.negated else rule

    def errors(self, rule: Rule) -> np.ndarray:
        """0/1 per sample: does `rule` (over the original feature indices) misclassify it?"""
        if self.features is not None:
            local = {int(j): i for i, j in enumerate(self.features)}
            try:
                rule = relabel(rule, local)
            except KeyError as err:
                raise InputError(f"the rule uses feature {err.args[0]}, which the preselection did not keep "
                                 f"(kept: {self.features.tolist()})") from None
        return rule.evaluate(self.X) != self.y.astype(bool)

    def objective(self, rule: Rule) -> float:
        """The true objective of `rule` on this problem: Σ w_i [error_i] + λ × number of literals."""
        return float(self.weights @ self.errors(rule)) + self.lam * len(rule.literals())

    # Inspection

    def summary(self) -> dict:
        """Sizes per block, nonzeros and coefficient range, beside the paper's variable count."""
        A = self.standard_form.A
        coefficients = np.abs(A.data[A.data != 0])
        return {
            "operator": self.label,
            "samples": self.num_samples,
            "positive_samples": int(np.sum(self.target == 1)),
            "negative_samples": int(np.sum(self.target == 0)),
            "features": self.num_features,
            "kept_features": None if self.features is None else self.features.tolist(),
            "max_num_literals": self.max_num_literals,
            "min_num_literals": self.min_num_literals,
            "lam": self.lam,
            "variables": self.variable_counts(),
            "num_variables": self.num_variables,
            "paper_num_variables": self.paper_num_variables(),
            "constraints": self.constraint_counts(),
            "num_constraints": self.num_constraints,
            "nonzeros": int(A.nnz),
            "coefficient_range": (float(coefficients.min()), float(coefficients.max())) if coefficients.size else (0.0, 0.0),
        }

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = "".join(
            f"<tr><td>variables</td><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in s["variables"].items()
        ) + "".join(
            f"<tr><td>constraints</td><td>{html.escape(k)}</td><td>{v}</td></tr>" for k, v in s["constraints"].items()
        )
        lo, hi = s["coefficient_range"]
        return (
            f"<b>Depth-one {html.escape(s['operator'])} problem</b>: {s['samples']} samples "
            f"({s['positive_samples']} positive), {s['features']} features, "
            f"{s['min_num_literals']}..{s['max_num_literals']} literals, λ = {s['lam']:g}<br>"
            f"{s['num_variables']} variables (paper: {s['paper_num_variables']}), {s['num_constraints']} "
            f"constraints, {s['nonzeros']} nonzeros, |coefficients| in [{lo:g}, {hi:g}]"
            f"<table><tr><th></th><th>block</th><th>count</th></tr>{rows}</table>"
        )


def check_problem(problem, name: str = "problem") -> DepthOneProblem:
    """`problem` itself, or TypeError naming `name` unless it is a `DepthOneProblem`."""
    if not isinstance(problem, DepthOneProblem):
        raise InputTypeError(
            f"{name} must be a DepthOneProblem (build one with boolrules.formulations.depth_one), "
            f"got {type(problem).__name__}"
        )
    return problem


def _one_literal(cls, k, literal: Literal) -> Rule:
    """The literal or constant equivalent to `cls` (with parameter k) over the single `literal`."""
    off, on = operator_output(cls, [0, 1], 1, k)  # the operator's value when the literal is false and when true
    if off == on:
        return One() if on else Zero()
    return ~literal if off else literal
