"""The backend interface: `Backend`, whose `solve` is every backend's one solving path, what a
backend's solver answers (`Answer`) and what a solve returns (`Result`). Backends by name: `registry.py`."""

from __future__ import annotations

import copy
import functools
import html
import math
import time
from dataclasses import dataclass, field
from types import MappingProxyType

from ..exceptions import InputError
from ..formulations.problem import check_problem
from ..formulations.qubo_problem import STAGES, Decoding, Stage
from ..formulations.rule_problem import check_rule_problem
from ..rules import Operator, Rule

__all__ = [
    "Answer", "Result", "Stage", "STAGES", "Backend", "unseeded", "unknown_options", "failed", "cause",
    "stages_text", "CAPABILITIES",
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


@dataclass
class Answer:
    """What a backend's solver returned for the form it was given (`Backend.solve_form`), before the
    chain maps it back: its `solution` over the form's variables (an ILP solver's incumbent, a
    sampler's `SampleSet`, the native search's literal set; None when it found none), the `status`
    its termination means (one of `STATUSES`), its `message`, its own `objective` of the solution
    and `bound` on the optimum (None where it gives none), what it reported beside them (`info`)
    and the seconds of its own steps (`timing`, e.g. a sampler's "sample")."""

    solution: object
    status: str
    message: str = ""
    objective: float | None = None
    bound: float | None = None
    info: dict = field(default_factory=dict)
    timing: dict[str, float] = field(default_factory=dict)


def _naming(solve):
    """`solve`, handing the problem's feature names to the `Result` it returns, so that the rule
    prints with them (`Result.rule_text`)."""
    @functools.wraps(solve)
    def solve_and_name(self, problem, **options):
        result = solve(self, problem, **options)
        if isinstance(result, Result) and result.feature_names is None:
            result.feature_names = getattr(problem, "feature_names", None)
        return result

    return solve_and_name


class Backend:
    """Solves rule problems: `solve(problem, **options) -> Result`.

    The surface is narrow: a `name`; `capabilities`, what any caller may rely on without knowing
    the backend: per-call options ("seed", "time_limit", "polish") and "depth_two" when it also
    solves `DepthTwoProblem`s; `solve`; `close` (also at the end of a `with` block) to release
    what the backend holds open, such as a cloud client.

    Options are given to the constructor and may be overridden per call (`solve(problem,
    time_limit=5)`) or for a copy (`with_options(seed=3)`); both are checked by `check_options`
    without rebuilding the backend. Errors follow one policy (README, "Errors, interruptions,
    files"): bad options, a problem the backend cannot take, and missing credentials raise a
    `boolrules.Error` (InputError, InputTypeError, MissingCredentialsError) before any work;
    whatever fails while solving returns a Result with status "error", a message naming the
    backend and the cause, and the exception in `Result.error`. KeyboardInterrupt is never caught.

    `solve` is every backend's one path (as cvxpy's solving chain): the problem through the
    backend's `chain` of reductions (`compile`), the solver on the form it produced
    (`solve_form`), its solution back through the chain and decoded to a rule (`decode`), and
    the `Result`. To write a backend, in one small module (`native.py` is the shortest example):

    1. subclass `Backend`; set `name`, `capabilities` and `chain` (a `formulations.chain.Chain`:
       `ILP_CHAIN` for matrices; override `compile` where the form needs more than the chain,
       such as the QUBO's penalty weights, or to refuse a form before any work);
    2. override `check_options` to check your options' names and values (raise `InputError` or
       `InputTypeError` from `boolrules.exceptions` naming the option), and keep the defaults with the checked constructor
       options in `self._options`;
    3. implement `solve_form(form, time_left, **options) -> Answer`; override `decode` where the
       solution is not one point to decode as it stands (a sampler's samples, in stages);
    4. `register_backend(name, make, check)` (`registry.py`) where `make(name, **options)` builds
       it and `check(name, options)` checks options without building it (no client, no
       credentials), and add `name: module` to `registry.BACKEND_MODULES`.

    A QUBO backend needs none of this: any dimod sampler already is one (`SamplerBackend`), and a
    named one is a `Preset` registered in one line (`samplers.py`).
    """

    name: str = ""
    capabilities: frozenset[str] = frozenset()
    _options = MappingProxyType({})
    # Whether `Result.timing` holds the seconds of each step (compile, the solver's own steps,
    # decode, polish) and the message the objective of each stage (`stages_text`): a sampler's.
    reports_steps = False
    # How a failure while solving reads in `Result.message`: `failure` when `solve_form` raised,
    # `unusable` when its solution could not be decoded; `{cause}` is the exception's type and
    # text (`cause`), `{error}` its text alone.
    failure = "{cause}"
    unusable = "{cause}"

    def __init_subclass__(cls, **kwargs):
        """A backend that wraps another and overrides `solve` (as tests and benchmarks do) still
        hands the problem's feature names to its `Result`."""
        super().__init_subclass__(**kwargs)
        solve = cls.__dict__.get("solve")
        if solve is not None:
            cls.solve = _naming(solve)

    @_naming
    def solve(self, problem, **options) -> Result:
        """The best rule this backend finds for `problem`, with per-call `options`: the problem
        through the chain, the solver on its form, the solution decoded, and the `Result`."""
        (check_rule_problem if "depth_two" in self.capabilities else check_problem)(problem)
        options = self.call_options(options)
        start = time.perf_counter()
        limit = options.get("time_limit")
        form, inverses = self.compile(problem, options)
        compiled = time.perf_counter()
        try:
            answer = self.solve_form(form, None if limit is None else max(0.0, limit - (compiled - start)), **options)
        except Exception as exc:  # a solver's crash is an error result, not a traceback from deep inside
            return failed(self.name, start, self.failure.format(cause=cause(exc), error=exc), exc)
        if answer.solution is None:
            if answer.status == "infeasible":
                return Result(None, None, "infeasible", time.perf_counter() - start, self.name, bound=answer.bound,
                              message=answer.message)
            return Result(None, None, "error", time.perf_counter() - start, self.name, bound=answer.bound,
                          message=f"backend {self.name!r}: no incumbent ({answer.message})")
        try:
            decoding = self.decode(problem, answer.solution, inverses, options)
        except Exception as exc:
            return failed(self.name, start, self.unusable.format(cause=cause(exc), error=exc), exc, answer.solution)
        gap = None
        if answer.bound is not None and answer.objective is not None:
            gap = max(0.0, answer.objective - answer.bound) / max(abs(answer.objective), 1e-9)
        message, timing = answer.message, {}
        if self.reports_steps:
            message = f"{message}; {stages_text(decoding)}"
            timing = {"compile": compiled - start, **answer.timing, **decoding.seconds}
        best = decoding.best
        return Result(best.rule, best.objective, answer.status, time.perf_counter() - start, self.name,
                      bound=answer.bound, gap=gap, solver_objective=answer.objective, message=message,
                      raw=answer.solution, stage=decoding.stage, stages=decoding.stages, timing=timing,
                      info=answer.info)

    def compile(self, problem, options: dict) -> tuple[object, object]:
        """`(form, inverse data)`: `problem` through this backend's `chain`, the form being what
        `solve_form` takes. A backend raises here (ValueError naming the limit) for a form it
        cannot take, before any solving."""
        return self.chain.apply(problem)

    def solve_form(self, form, time_left: float | None, **options) -> Answer:
        """The solver's `Answer` for `form` (what `compile` made) with the call's `options`;
        `time_left` is what compiling left of the call's `time_limit`, in seconds (None without
        one), for a backend that keeps to the limit itself rather than its solver."""
        raise NotImplementedError(f"{type(self).__name__} has no solve_form: a backend declares it, or "
                                  f"overrides solve to wrap another backend")

    def decode(self, problem, solution, inverses, options: dict) -> Decoding:
        """The `solution` decoded stage by stage (`STAGES`): here the solver's one answer as it
        stands, its values through the chain's inverse decoded to a rule (stage "raw")."""
        rule = problem.decode(self.chain.invert(solution, inverses))
        return Decoding({"raw": Stage(rule, problem.objective(rule), True)}, {}, 1, 1)

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


def stages_text(decoding: Decoding) -> str:
    """A decoding in a few words, e.g. "3 feasible; objective: raw (lowest energy) infeasible,
    repaired 4, polished 3 (the rule)"."""
    parts = [f"{name}{' (lowest energy)' if name == 'raw' else ''} "
             f"{f'{stage.objective:.6g}' if stage.feasible else 'infeasible'}"
             f"{' (the rule)' if name == decoding.stage else ''}" for name, stage in decoding.stages.items()]
    return f"{decoding.feasible} feasible; objective: {', '.join(parts)}"


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
    return InputError(f"unknown option(s) {unknown} for backend {backend!r}; options: {', '.join(known) or 'none'}")


def unseeded(backend: Backend) -> bool:
    """True for a backend that takes a `seed` and was given none: its callers seed each solve from
    their own `random_state`, so that every random choice flows from it."""
    return "seed" in backend.capabilities and backend.options().get("seed") is None
