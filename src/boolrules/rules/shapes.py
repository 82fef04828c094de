"""Depth-two rule shapes: an outer operator over terms, each an inner operator over literals.

DNF is an Or of Ands, CNF an And of Ors (`docs/formulations.md`, "Depth-two subtrees"). A shape names
what the depth-two formulation builds (`formulations.depth_two`) and what a depth-two non-local
move puts at a node (`nonlocal_operators=["Or", "DNF"]`); `Keep` names the other non-local move
beside the operators ("keep").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sklearn.utils import _param_validation

from ..exceptions import InputError
from ..validation import check_integer
from .operators import OPERATORS, And, Operator, Or, resolve_operator, resolve_operators

__all__ = ["Shape", "SHAPES", "Keep", "KEEP", "OperatorSpec", "resolve_shape", "resolve_nonlocal_operators"]


@dataclass(frozen=True)
class Shape:
    """`outer(inner(literals), ...)`. `max_terms` and `max_literals_per_term` (None: as many as
    the complexity budget allows) bound the subtrees a depth-two non-local move searches."""

    name: str
    outer: type[Operator]
    inner: type[Operator]
    max_terms: int = 2
    max_literals_per_term: int | None = None

    def __post_init__(self):
        check_integer(self.max_terms, "max_terms", 1)
        if self.max_literals_per_term is not None:
            check_integer(self.max_literals_per_term, "max_literals_per_term", 1)
        if (self.outer, self.inner) not in ((Or, And), (And, Or)):
            raise InputError(f"a shape is Or of Ands (DNF) or And of Ors (CNF), got {self.outer.__name__} of "
                             f"{self.inner.__name__}s")

    def __str__(self) -> str:
        return self.name


SHAPES = {"DNF": Shape("DNF", Or, And), "CNF": Shape("CNF", And, Or)}


@dataclass(frozen=True)
class Keep:
    """The non-local move that keeps one sub-rule C of a node and solves a depth-one partner N for it:
    the node becomes And(C, N) or Or(C, N), C either way round. It restructures a node in one move,
    e.g. AtLeast3(C, a, b, c) -> And(C, AtLeast2(a, b, c)), which local moves reach only through
    several worse rules (benchmarks/studies/native-depth-two.md, "Keeping a sub-rule")."""

    name: ClassVar[str] = "keep"

    def __str__(self) -> str:
        return self.name


KEEP = Keep()


def resolve_shape(shape, name: str = "shape") -> Shape:
    """The `Shape` named by `shape` ("DNF", "CNF") or `shape` itself; ValueError naming `name`."""
    if isinstance(shape, Shape):
        return shape
    if isinstance(shape, str) and shape in SHAPES:
        return SHAPES[shape]
    raise InputError(f"unknown shape {shape!r} in {name}; choose from {', '.join(SHAPES)}")


def resolve_nonlocal_operators(operators, name: str = "nonlocal_operators") -> tuple:
    """What a non-local move may put at a node: operator classes (from names or classes), depth-two
    `Shape`s (from "DNF", "CNF" or `Shape`s) and `KEEP` (from "keep" or a `Keep`), from one or a
    non-empty list, without repeats."""
    if isinstance(operators, (str, type, Shape, Keep)):
        operators = (operators,)
    try:
        operators = tuple(operators)
    except TypeError:
        raise InputError(f"{name} must be an operator or shape name, class or Shape, or a list of them, "
                         f"got {operators!r}") from None
    if not operators:
        raise InputError(f"{name} must name at least one operator")

    def one(op):
        if isinstance(op, Keep) or op == KEEP.name:
            return KEEP
        if isinstance(op, Shape) or (isinstance(op, str) and op in SHAPES):
            return resolve_shape(op, name)
        try:
            return resolve_operator(op, name)
        except ValueError:
            raise InputError(f"unknown operator {op!r} in {name}; choose from Or, And, AtLeast, AtMost, Choose "
                             f"or the shapes {', '.join(SHAPES)}, or {KEEP.name!r}") from None

    return tuple(dict.fromkeys(one(op) for op in operators))


class OperatorSpec(_param_validation.StrOptions):
    """An operator name or class (`resolve_operator`), or with `several` a non-empty list of
    them (`resolve_operators`); with `shapes`, depth-two shapes and "keep" too
    (`resolve_nonlocal_operators`). A `StrOptions`, the kind of constraint scikit-learn takes for
    a set of names, widened to classes and lists."""

    def __init__(self, several: bool = False, shapes: bool = False):
        super().__init__(set(OPERATORS) | ({*SHAPES, KEEP.name} if shapes else set()))
        self.several = several
        self.shapes = shapes

    def is_satisfied_by(self, val):
        try:
            if self.shapes:
                resolve_nonlocal_operators(val)
            else:
                resolve_operators(val) if self.several else resolve_operator(val)
        except ValueError:
            return False
        return True

    def __str__(self):
        kinds = "an operator or shape name" if self.shapes else "an operator name"
        one = f"{kinds} among {{{', '.join(sorted(self.options))}}} or an operator class" + (
            " or Shape" if self.shapes else "")
        return f"{one}, or a non-empty list of them" if self.several else one
