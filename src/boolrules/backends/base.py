"""The backend interface (`Backend`, `Result`) and the registry of backends by name (`get_backend`)."""

from __future__ import annotations

import copy
import functools
import html
import importlib
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

from ..formulations.qubo_problem import STAGES, Stage
from ..rules import Operator, Rule

__all__ = [
    "Result", "Stage", "STAGES", "Backend", "register_backend", "registered", "get_backend", "backend_names",
    "unseeded", "unknown_options", "failed", "cause", "BACKENDS", "BACKEND_MODULES", "CAPABILITIES",
]

STATUSES = ("optimal", "feasible", "time_limit", "infeasible", "error")
# The per-call options a backend may take ("polish": a sampler backend's decoding, `Result.stages`); its
# capabilities may also hold "depth_two" (it takes depth-two problems).
CAPABILITIES = ("seed", "time_limit", "polish")


@dataclass
class Result:
    """What a backend found for a depth-one problem.

    `objective` is the true objective Σ w_i [error_i] + λ L of the decoded `rule`, re-evaluated on
    the problem's data; `bound` and `gap` are the solver's proof (None where it gives none);
    `status` is one of optimal, feasible, time_limit, infeasible, error; `raw` is what the solver
    returned: an ILP solver's incumbent over the standard form's columns, a sampler's dimod
    `SampleSet`. A solve that failed
    has status "error", a `message` naming the backend and the cause, and the exception in `error`;
    so has a rule whose objective is not finite (it is dropped: inf is never a feasible answer).

    What happened to the solver's answer, stage by stage (`STAGES`): `stages` maps "raw" (the
    solver's answer as it stands: a sampler's lowest-energy sample, its feasibility, and its rule
    and objective when feasible), "repaired" and "polished" (a sampler backend's decoding,
    `QuboProblem.decode_stages`) to a `Stage`, and `stage` names the one `rule` is. A backend that
    reports no stages (ILP solvers, native) returns its own solution as is: stage "raw".
    `solver_objective` is the solver's own value of its answer (a sampler's lowest energy).
    `timing`: seconds per step where the backend measures them (a sampler backend: compile,
    sample, decode, polish). `info`: what the solver reported beside its answer (a sampler's
    `SampleSet.info`, e.g. a QPU's timing in µs; the embedding's size and chain breaks).
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
    error: Exception | None = field(default=None, repr=False)
    raw: object = field(default=None, repr=False)
    stage: str | None = None
    stages: dict[str, Stage] = field(default_factory=dict, repr=False)
    timing: dict[str, float] = field(default_factory=dict, repr=False)
    info: dict = field(default_factory=dict, repr=False)
    feature_names: list[str] | None = field(default=None, repr=False)  # the problem's, set by `Backend.solve`

    def __post_init__(self):
        if self.rule is not None and self.objective is not None and not math.isfinite(self.objective):
            self.message = f"{self.backend}: the rule found has a non-finite objective {self.objective}"
            self.rule, self.status, self.stages = None, "error", {}  # never a feasible answer worth inf
        if self.rule is not None and not self.stages:
            self.stages = {"raw": Stage(self.rule, self.objective, True)}
        if self.rule is not None and self.stage is None:
            self.stage = list(self.stages)[-1]

    @property
    def ok(self) -> bool:
        """True when a rule came back."""
        return self.rule is not None

    @property
    def rule_text(self) -> str | None:
        """The rule with the problem's feature names (`f3` without them); None without a rule."""
        return None if self.rule is None else self.rule.to_str(self.feature_names)

    def _summary(self) -> list[tuple[str, str]]:
        """(label, text) lines shared by the text and HTML reprs."""
        lines = [("status", self.status + (f" ({self.stage})" if self.stage else ""))]
        if self.rule is not None:
            root = self.rule.name if isinstance(self.rule, Operator) else "a literal or constant"
            lines += [("rule", self.rule_text),
                      ("size", f"{self.rule.complexity} (operators + literals), {len(self.rule.literals())} "
                               f"literals, root {root}")]
        if self.objective is not None:
            proof = "" if self.bound is None else f", bound {self.bound:.6g}" + (
                "" if self.gap is None else f", gap {self.gap:.2%}")
            lines.append(("objective", f"{self.objective:.6g}{proof}"))
        stages = [f"{name} {'—' if st.objective is None else format(st.objective, '.6g')}"
                  for name, st in self.stages.items()]
        if len(stages) > 1:
            lines.append(("stages", ", ".join(stages)))
        steps = "".join(f", {name} {sec:.3g}" for name, sec in self.timing.items())
        lines.append(("time", f"{self.seconds:.3g} s{steps}"))
        if self.message:
            lines.append(("message", self.message))
        return lines

    def __repr__(self) -> str:
        return f"Result({self.backend}: " + "; ".join(f"{k} {v}" for k, v in self._summary()) + ")"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{k}</th><td style='text-align:left'>{html.escape(v)}</td></tr>"
                       for k, v in self._summary())
        return f"<b>Result of backend {html.escape(self.backend)}</b><table>{rows}</table>"


class Backend(ABC):
    """Solves depth-one problems: `solve(problem, **options) -> Result`.

    The surface is narrow: a `name`; `capabilities`, what any caller may rely on without knowing
    the backend: per-call options ("seed", "time_limit") and "depth_two" when it also solves
    `DepthTwoProblem`s; `solve`; `close` (also at the end of a `with`
    block) to release what the backend holds open, such as a cloud client.

    Options are given to the constructor and may be overridden per call (`solve(problem,
    time_limit=5)`) or for a copy (`with_options(seed=3)`); both are checked by `check_options`
    without rebuilding the backend. Errors follow one policy (README, "Errors, interruptions,
    files"): bad options, a problem the backend cannot take, and missing credentials raise
    ValueError/TypeError (or MissingCredentialsError) before any work; whatever fails while
    solving returns a Result with status "error", a message naming the backend and the cause,
    and the exception in `Result.error`. KeyboardInterrupt is never caught.

    To write a backend, in one small module (`ilp.py` and `dwave.LeapCqmBackend` are examples):

    1. subclass `Backend`; set `name` and `capabilities`;
    2. override `check_options` to check your options' names and values (raise ValueError or
       TypeError naming the option), and keep the defaults with the checked constructor
       options in `self._options`;
    3. implement `solve`: `check_problem(problem)`, `options = self.call_options(options)`, solve,
       decode, and return a `Result` (an error `Result` for whatever fails while solving; its
       `stages` when the rule is not the solver's answer as it stands, e.g. repaired);
    4. `register_backend(name, make, check)` where `make(name, **options)` builds it and
       `check(name, options)` checks options without building it (no client, no credentials);
    5. add `name: module` to `BACKEND_MODULES`.

    A QUBO backend needs none of this: any dimod sampler already is one (`SamplerBackend`), and a
    named one is a `Preset` registered in one line (`samplers.py`).
    """

    name: str = ""
    capabilities: frozenset[str] = frozenset()
    _options = MappingProxyType({})

    def __init_subclass__(cls, **kwargs):
        """Every backend's `solve` hands the problem's feature names to its `Result`, so the rule
        prints with them (`Result.rule_text`)."""
        super().__init_subclass__(**kwargs)
        solve = cls.__dict__.get("solve")
        if solve is not None and not getattr(solve, "__isabstractmethod__", False):
            cls.solve = _naming(solve)

    @abstractmethod
    def solve(self, problem, **options) -> Result:
        """The best rule this backend finds for `problem`, with per-call `options`."""

    def check_options(self, options: dict) -> dict:
        """`options` checked (known names, valid values) and as the backend uses them; an error
        names the option. This base takes none."""
        if options:
            raise unknown_options(self.name, options, ())
        return {}

    def options(self) -> dict:
        """The options `solve` uses unless a call overrides them."""
        return dict(self._options)

    def call_options(self, options: dict) -> dict:
        """This backend's options with the per-call `options` (checked) over them."""
        return {**self._options, **self.check_options(options)} if options else dict(self._options)

    def with_options(self, **options) -> Backend:
        """A copy solving with `options` (checked) by default; it shares what this backend holds
        open (a cloud client), so closing either closes it for both."""
        backend = copy.copy(self)
        backend._options = self.call_options(options)
        return backend

    def close(self) -> None:
        """Release what the backend holds open (a cloud client); a later `solve` opens it again."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self._options.items())
        return f"{type(self).__name__}({self.name!r}{options})"


def _naming(solve):
    @functools.wraps(solve)
    def solve_and_name(self, problem, **options):
        result = solve(self, problem, **options)
        if isinstance(result, Result) and result.feature_names is None:
            result.feature_names = getattr(problem, "feature_names", None)
        return result

    return solve_and_name


def failed(backend: str, start: float, what: str, error: Exception | None = None, raw=None) -> Result:
    """The Result of a solve that started at `start` (`time.perf_counter()`) and failed because of
    `what` (the error policy: status "error", a message naming the backend, the exception kept)."""
    return Result(None, None, "error", time.perf_counter() - start, backend, message=f"backend {backend!r}: {what}",
                  error=error, raw=raw)


def cause(exc: BaseException) -> str:
    """An exception as a message names it: its type, and its text when it has one."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def unknown_options(backend: str, given, known) -> ValueError:
    """The error for option names a backend does not take, listing those it takes."""
    unknown = sorted(set(given) - set(known))
    return ValueError(f"unknown option(s) {unknown} for backend {backend!r}; options: {', '.join(known) or 'none'}")


def unseeded(backend: Backend) -> bool:
    """True for a backend that takes a `seed` and was given none: its callers seed each solve from
    their own `random_state`, so that every random choice flows from it."""
    return "seed" in backend.capabilities and backend.options().get("seed") is None


# Backend name -> module of boolrules.backends that registers it. Modules are imported on first
# use, so the heavy stacks (Ocean's cloud client, Qiskit) load only for the backends that need them.
BACKEND_MODULES = {
    **dict.fromkeys(("highs", "highs-pyomo", "scip", "gurobi", "cbc", "glpk", "cplex", "xpress"), "ilp"),
    **dict.fromkeys(("sa", "neal", "tabu", "steepest", "exact"), "samplers"),
    **dict.fromkeys(("dwave-qpu", "leap-hybrid", "leap-cqm"), "dwave"),
    "qaoa": "qaoa",
    "native": "native",
}
# Name -> (make, check): `make(name, **options)` builds the backend, `check(name, options)` checks
# the options as `make` would, without building anything (no cloud client, no credentials).
BACKENDS: dict[str, tuple[Callable[..., Backend], Callable[[str, dict], None]]] = {}


def register_backend(name: str, make: Callable[..., Backend], check: Callable[[str, dict], None]) -> None:
    """Make `get_backend(name, **options)` return `make(name, **options)`, and let a config naming
    `name` be checked by `check(name, options)`."""
    BACKENDS[name] = (make, check)


def backend_names() -> list[str]:
    """Every backend name `get_backend` accepts."""
    return sorted(set(BACKEND_MODULES) | set(BACKENDS))


def registered(name: str) -> tuple[Callable[..., Backend], Callable[[str, dict], None]]:
    """(make, check) of backend `name`, its module imported on first use."""
    if not isinstance(name, str) or name not in backend_names():
        raise ValueError(f"unknown backend {name!r}; available: {', '.join(backend_names())}")
    if name not in BACKENDS:
        importlib.import_module(f"{__package__}.{BACKEND_MODULES[name]}")
    return BACKENDS[name]


def get_backend(name, **options) -> Backend:
    """The backend registered as `name`, built with `options`; a `Backend` is returned as is, and
    any dimod `Sampler` becomes a `SamplerBackend` taking `options` (its sample parameters and
    eta, penalty, slack)."""
    if isinstance(name, Backend):
        if options:
            raise ValueError("options cannot be given with a backend instance; use backend.with_options(...)")
        return name
    import dimod

    if isinstance(name, dimod.Sampler):
        from .sampler import SamplerBackend

        return SamplerBackend(name, **options)
    make, _ = registered(name)
    return make(name, **options)
