"""A depth-one problem's standard form as a dimod `ConstrainedQuadraticModel` (the "cqm" file, the
Leap hybrid CQM solver's input): the last step of `CQM_CHAIN`, problem -> standard form -> CQM."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import dimod
import numpy as np

from ..exceptions import InputError, InputTypeError
from .chain import Chain, Reduction
from .standard_form import ToStandardForm

__all__ = ["CQM_CHAIN", "ToCqm", "to_cqm"]

_FIELDS = ("A", "lower", "upper", "c", "c0", "var_lower", "var_upper", "var_names", "row_names")


def to_cqm(form) -> dimod.ConstrainedQuadraticModel:
    """`form` (a `StandardForm`) as a CQM: binaries, the integer k, its rows as linear constraints
    labelled by row name, and the objective c x + c0."""
    if not all(hasattr(form, name) for name in _FIELDS):
        raise InputTypeError(f"form must be a StandardForm (problem.standard_form), got {type(form).__name__}")
    names = np.array(form.var_names, dtype=object)
    binary = (form.var_lower == 0) & (form.var_upper == 1)
    cqm = dimod.ConstrainedQuadraticModel()
    cqm.add_variables("BINARY", names[binary].tolist())
    for i in np.flatnonzero(~binary):  # k, the one integer variable of the parameterized operators
        cqm.add_variable("INTEGER", names[i], lower_bound=form.var_lower[i], upper_bound=form.var_upper[i])
    cqm.set_objective(zip(names.tolist(), form.c.tolist()))
    cqm.objective.offset = form.c0
    A = form.A.tocsr()
    for r, row in enumerate(form.row_names):  # dimod takes constraints one at a time
        cols = slice(A.indptr[r], A.indptr[r + 1])
        terms = list(zip(names[A.indices[cols]].tolist(), A.data[cols].tolist()))
        lower, upper = form.lower[r], form.upper[r]
        sides = [("==", lower)] if lower == upper else [
            (sense, rhs) for sense, rhs in ((">=", lower), ("<=", upper)) if np.isfinite(rhs)]
        for sense, rhs in sides:
            cqm.add_constraint_from_iterable(terms, sense, rhs, label=row if len(sides) == 1 else f"{row} {sense}")
    return cqm


@dataclass(frozen=True)
class ToCqm(Reduction):
    """`StandardForm` -> CQM (`to_cqm`); a CQM sample ({variable name: value}) inverts to the vector
    over the form's columns. The inverse data is the form's column names."""

    def apply(self, form) -> tuple[dimod.ConstrainedQuadraticModel, tuple[str, ...]]:
        return to_cqm(form), tuple(form.var_names)

    def invert(self, sample: Mapping, names: tuple[str, ...]) -> np.ndarray:
        missing = set(names).difference(sample)
        if missing:
            raise InputError(f"the sample lacks {len(missing)} of the CQM's variables, e.g. {sorted(missing)[:3]}")
        return np.array([sample[name] for name in names], dtype=float)

    def encode(self, x, names: tuple[str, ...]) -> dict:
        return dict(zip(names, np.asarray(x, dtype=float).tolist()))


CQM_CHAIN = Chain((ToStandardForm(), ToCqm()))
