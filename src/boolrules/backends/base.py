"""The backend interface: `solve(problem) -> Result`, and a registry of backends by name.

A backend is one small class with a `name` and a `solve` method, registered with
`register_backend` in its module, and named in `BACKEND_MODULES` so that `get_backend` can
import it on demand; options are constructor keywords, overridable per call.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field

from ..rules import Rule

__all__ = [
    "Result", "Backend", "register_backend", "get_backend", "backend_names", "option_names", "unseeded", "BACKENDS",
    "BACKEND_MODULES",
]

STATUSES = ("optimal", "feasible", "time_limit", "infeasible", "error")
CAPABILITIES = ("seed", "time_limit")


@dataclass
class Result:
    """What a backend found for a depth-one problem.

    `objective` is the true objective Σ w_i [error_i] + λ L of the decoded `rule`, re-evaluated on
    the problem's data; `bound` and `gap` are the solver's proof (None where it gives none);
    `status` is one of optimal, feasible, time_limit, infeasible, error; `raw` is what the
    solver returned (an `IlpOutcome`, a dimod `SampleSet`, ...).
    """

    rule: Rule | None
    objective: float | None
    status: str
    seconds: float
    backend: str
    bound: float | None = None
    gap: float | None = None
    solver_objective: float | None = None
    message: str = ""
    raw: object = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        """True when a rule came back."""
        return self.rule is not None


class Backend:
    """Base class: subclasses set `name` and implement `solve(problem, **options) -> Result`."""

    name: str = ""

    def solve(self, problem, **options) -> Result:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the backend holds open (a cloud client); a later `solve` opens it again."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def capabilities(self) -> frozenset[str]:
        """What callers may pass per call without knowing the backend: "seed", "time_limit"."""
        return frozenset(CAPABILITIES).intersection(option_names(type(self)))

    def options(self) -> dict:
        """The backend's options by name."""
        return {k: getattr(self, k) for k in option_names(type(self))}

    def configured(self, overrides: dict) -> Backend:
        """This backend, or a copy with per-call `overrides` checked like constructor options."""
        if not overrides:
            return self
        known = option_names(type(self))
        unknown = set(overrides) - set(known)
        if unknown:
            raise ValueError(
                f"unknown option(s) {sorted(unknown)} for backend {self.name!r}; options: {', '.join(known)}"
            )
        return type(self)(**{**self.options(), **overrides})

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"{type(self).__name__}({options})"


def option_names(cls) -> list[str]:
    """The option names a backend class takes (its constructor keywords)."""
    return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]


def unseeded(backend: Backend) -> bool:
    """True for a backend that takes a `seed` and was given none: its callers seed each solve from
    their own `random_state`, so that every random choice flows from it."""
    return "seed" in backend.capabilities and getattr(backend, "seed", None) is None


# Backend name -> module of boolrules.backends that registers it. Modules are imported on first
# use, so the heavy stacks (Ocean's cloud client, Qiskit) load only for the backends that need them.
BACKEND_MODULES = {
    **dict.fromkeys(("highs", "highs-pyomo", "scip", "gurobi", "cbc", "glpk", "cplex", "xpress"), "ilp"),
    **dict.fromkeys(("sa", "neal", "tabu", "steepest", "exact"), "samplers"),
    **dict.fromkeys(("dwave-qpu", "leap-hybrid", "leap-cqm"), "dwave"),
    "qaoa": "qaoa",
}
BACKENDS: dict[str, tuple[type[Backend], dict]] = {}


def register_backend(name: str, cls: type[Backend], **fixed) -> None:
    """Make `get_backend(name)` build `cls(**fixed, **options)`."""
    BACKENDS[name] = (cls, fixed)


def backend_names() -> list[str]:
    """Every backend name `get_backend` accepts."""
    return sorted(set(BACKEND_MODULES) | set(BACKENDS))


def get_backend(name, **options) -> Backend:
    """The backend registered as `name`, built with `options`; a `Backend` instance is returned as is."""
    if isinstance(name, Backend):
        if options:
            raise ValueError("options cannot be given with a backend instance; set them on the instance")
        return name
    if not isinstance(name, str) or name not in backend_names():
        raise ValueError(f"unknown backend {name!r}; available: {', '.join(backend_names())}")
    if name not in BACKENDS:
        importlib.import_module(f"{__package__}.{BACKEND_MODULES[name]}")
    cls, fixed = BACKENDS[name]
    known = [o for o in option_names(cls) if o not in fixed]
    unknown = set(options) - set(known)
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} for backend {name!r}; options: {', '.join(known)}")
    return cls(**fixed, **options)
