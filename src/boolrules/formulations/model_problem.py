"""`ModelProblem`: what a rule problem stated as a Pyomo model adds to `RuleProblem`, whatever its
shape: counts per block, the standard form, the QUBO, and vectors over the standard form's columns."""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pyomo.environ as pyo

from ..exceptions import InputError
from .rule_problem import RuleProblem
from .standard_form import StandardForm, ToStandardForm, compile_standard_form

__all__ = ["ModelProblem"]


class ModelProblem(RuleProblem):
    """Base of `DepthOneProblem` and `DepthTwoProblem`; a subclass has `X` (its 0/1 data), `model`
    (its Pyomo model) and `layout` (its row and column blocks, `standard_form.Layout`)."""

    @property
    def num_samples(self) -> int:
        return self.X.shape[0]

    @property
    def num_features(self) -> int:
        return self.X.shape[1]

    def variable_counts(self) -> dict[str, int]:
        """Number of variables per block."""
        return {v.local_name: len(v) for v in self.model.component_objects(pyo.Var, descend_into=False)}

    def constraint_counts(self) -> dict[str, int]:
        """Number of constraints per named block."""
        return {c.local_name: len(c) for c in self.model.component_objects(pyo.Constraint, descend_into=False)}

    @property
    def num_variables(self) -> int:
        return sum(self.variable_counts().values())

    @property
    def num_constraints(self) -> int:
        return sum(self.constraint_counts().values())

    @cached_property
    def standard_form(self) -> StandardForm:
        """The model as matrices with its row and column blocks (`standard_form.compile_standard_form`)."""
        return compile_standard_form(self)

    def to_qubo(self, eta="auto", penalty="sufficient", slack: str = "paired"):
        """Compile to a `QuboProblem` (docs/formulations.md, "ILP → QUBO"); `eta=False` drops the error
        variables and keeps sample rows as soft penalties, "auto" drops them for AtLeast, AtMost
        and Choose only (where that anneals better)."""
        from .qubo_problem import compile_qubo  # here, so that building a model does not load dimod

        return compile_qubo(self, eta=eta, penalty=penalty, slack=slack)

    def vector_from_values(self, values: dict) -> np.ndarray:
        """A vector over the standard form's columns from per-block arrays ({"b": ..., "eta": ...},
        each in the order of the block's indices; blocks not given are 0)."""
        return ToStandardForm().encode(values, self.standard_form)

    def values_from_vector(self, x: np.ndarray) -> dict:
        """The values of the rule's blocks (`layout.value_blocks`) in a vector over the standard form's columns."""
        return ToStandardForm().invert(x, self.standard_form)

    def feasible(self, x, sample_rows: bool = True, tol: float = 1e-6) -> np.ndarray:
        """Per point of `x` (rows over the standard form's columns): integral, within its variable
        bounds, and within every row's bounds (the sample rows only when `sample_rows`: a QUBO
        without η keeps them as soft penalties)."""
        form = self.standard_form
        x = np.atleast_2d(np.asarray(x, dtype=float))
        if x.shape[1] != form.num_vars:
            raise InputError(f"x has {x.shape[1]} columns, the standard form has {form.num_vars}")
        body = (form.A @ x.T).T
        rows = (body >= form.lower - tol) & (body <= form.upper + tol)
        checked = np.ones(len(form.lower), dtype=bool) if sample_rows else form.row_sample < 0
        return (np.all(np.abs(x - np.round(x)) <= tol, axis=1)
                & np.all((x >= form.var_lower - tol) & (x <= form.var_upper + tol), axis=1)
                & np.all(rows[:, checked], axis=1))
