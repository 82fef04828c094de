"""The reduction protocol and the `Chain` that runs reductions in order (cvxpy's `Reduction` and
solving chain, plus a forward `encode`).

A reduction holds only configuration (a slack mode, the blocks to fix), never a problem's state:
`apply(form)` returns the reduced form and the inverse data that maps solutions back,
`invert(solution, inverse)` maps a solution of the reduced form to one of the form it came from,
and `encode(solution, inverse)` is the forward map (a solution of the original form carried into
the reduced one; the property tests use it to check energies of known points).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from ..exceptions import InputError, InputTypeError

__all__ = ["Reduction", "Chain"]


class Reduction(ABC):
    """One compile step. Subclasses are frozen dataclasses of their configuration; everything a
    problem needs for `invert` and `encode` is returned by `apply` as the inverse data."""

    @abstractmethod
    def apply(self, form) -> tuple[object, object]:
        """`(reduced form, inverse data)`."""

    @abstractmethod
    def invert(self, solution, inverse):
        """A solution of the reduced form -> the matching solution of the form `apply` received."""

    @abstractmethod
    def encode(self, solution, inverse):
        """A solution of the form `apply` received -> a solution of the reduced form (`invert`'s forward map)."""


@dataclass(frozen=True)
class Chain(Reduction):
    """Reductions applied in order; solutions are inverted through them in reverse and encoded
    forward. The inverse data of a chain is the tuple of its steps' inverse data, so a slice of
    a chain runs with the same slice of that tuple (`chain[1:].encode(x, inverses[1:])`)."""

    reductions: tuple[Reduction, ...]

    def __post_init__(self):
        reductions = tuple(self.reductions)
        for step in reductions:
            if not isinstance(step, Reduction):
                raise InputTypeError(f"a Chain holds Reduction steps, got {type(step).__name__}")
        object.__setattr__(self, "reductions", reductions)

    def apply(self, form) -> tuple[object, tuple]:
        inverses = []
        for step in self.reductions:
            form, inverse = step.apply(form)
            inverses.append(inverse)
        return form, tuple(inverses)

    def invert(self, solution, inverses: tuple):
        for step, inverse in zip(reversed(self.reductions), reversed(self._check(inverses))):
            solution = step.invert(solution, inverse)
        return solution

    def encode(self, solution, inverses: tuple):
        for step, inverse in zip(self.reductions, self._check(inverses)):
            solution = step.encode(solution, inverse)
        return solution

    def _check(self, inverses) -> tuple:
        if len(inverses) != len(self.reductions):
            raise InputError(f"the chain has {len(self.reductions)} steps but {len(inverses)} inverse data were given")
        return tuple(inverses)

    def __len__(self) -> int:
        return len(self.reductions)

    def __getitem__(self, index):
        """A step, or a sub-chain for a slice."""
        if isinstance(index, slice):
            return Chain(self.reductions[index])
        return self.reductions[index]
