"""Any dimod sampler as a backend: compile the problem to a QUBO, sample it, decode the best rule.

`SamplerBackend(sampler, **options)`, or `get_backend(sampler, **options)`, wraps any dimod
`Sampler` (dwave-samplers', dimod's reference samplers, OpenJij's, a cloud vendor's, your own).
Its options are the sampler's own `parameters`, passed to `sampler.sample` (None leaves the
sampler's default; well-known ones such as num_reads or seed are checked first), and the QUBO
compilation's `eta`, `penalty`, `slack` (`DepthOneProblem.to_qubo`, whose defaults it keeps).
A `Preset` names a sampler with its default options and a size guard: the named backends
(`samplers.py`, `dwave.py`, `qaoa.py`) are presets. The raw `SampleSet` stays on the result.
"""

from __future__ import annotations

import importlib
import inspect
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import dimod

from ..formulations.depth_two_problem import check_rule_problem
from ..formulations.qubo_problem import check_compile_option
from ..validation import check_integer, check_number
from .base import CAPABILITIES, Backend, Result, cause, failed, unknown_options

__all__ = [
    "SamplerBackend", "Preset", "HeldSampler", "HoldsSampler", "COMPILE_DEFAULTS", "HEURISTIC", "PARAMETER_CHECKS",
    "check_sampler_options", "sampler_class",
]

# The QUBO compilation's options and defaults, those of `DepthOneProblem.to_qubo`: with η and the
# "sufficient" penalties, a sampler's ground state decodes to the ILP optimum.
COMPILE_DEFAULTS = MappingProxyType({"eta": True, "penalty": "sufficient", "slack": "minimal"})
# The compilation heuristic samplers do best with (benchmarks/README.md, "Penalty weights").
HEURISTIC = MappingProxyType({"eta": False, "penalty": "calibrated"})
# dwave-samplers refuses seeds of 2**31 and above (its message says 2**32 - 1): one bound for all samplers.
MAX_SEED = 2**31 - 1


def _count(name: str):
    return lambda value: check_integer(value, name, 1)


def _nonnegative(name: str):
    return lambda value: check_number(value, name, 0)


def _beta_range(beta_range) -> tuple[float, float]:
    """(hot, cold) inverse temperatures, both > 0 and hot <= cold."""
    if not isinstance(beta_range, (tuple, list)) or len(beta_range) != 2:
        raise ValueError(f"beta_range must be a pair (hot, cold) of inverse temperatures, got {beta_range!r}")
    hot, cold = (check_number(beta, "beta_range", 0) for beta in beta_range)
    if not 0 < hot <= cold:
        raise ValueError(f"beta_range must satisfy 0 < hot <= cold, got {beta_range!r}")
    return hot, cold


def _table(name: str):
    def check(value) -> dict:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a dict (a table in TOML), got {value!r}")
        return dict(value)
    return check


# Value checks of sample parameters that many dimod samplers share (dwave-samplers, dimod's
# reference samplers, D-Wave's QPU and Leap, QAOA): a sampler that declares one of these names is
# given a value checked here, so a mistake is named at once and never crashes inside the sampler.
# A parameter not named here is passed as given.
PARAMETER_CHECKS = {
    "num_reads": _count("num_reads"),
    "num_sweeps": _count("num_sweeps"),
    "timeout": _count("timeout"),  # milliseconds per read (dwave-samplers' tabu)
    "seed": lambda value: check_integer(value, "seed", 0, MAX_SEED),
    "beta_range": _beta_range,
    "time_limit": _nonnegative("time_limit"),
    "annealing_time": _nonnegative("annealing_time"),
    "chain_strength": lambda value: value if callable(value) else check_number(value, "chain_strength", 0),
    "embedding_parameters": _table("embedding_parameters"),
    "reps": _count("reps"),
    "maxiter": _count("maxiter"),
    "shots": _count("shots"),
}


def check_sampler_options(backend: str, options: dict, parameters, checks: Mapping = MappingProxyType({}),
                          fixed=()) -> dict:
    """`options` of sampler backend `backend` checked: compile options, the preset's own `checks`,
    and the sampler's `parameters` (names, and values by `PARAMETER_CHECKS`)."""
    per_call = sorted(set(options) & set(fixed))
    if per_call:
        raise ValueError(f"{', '.join(per_call)} cannot be changed per call; build the backend with "
                         f"get_backend({backend!r}, {per_call[0]}=...)")
    known = list(dict.fromkeys([*parameters, *checks, *COMPILE_DEFAULTS]))
    if set(options) - set(known):
        raise unknown_options(backend, options, known)
    checked = {}
    for name, value in options.items():
        if name in COMPILE_DEFAULTS:
            checked[name] = check_compile_option(name, value)
        elif name in checks:
            checked[name] = checks[name](value)
        elif value is None:  # the sampler's default
            checked[name] = None
        else:
            checked[name] = PARAMETER_CHECKS.get(name, lambda v: v)(value)
    return checked


@dataclass(frozen=True)
class Preset:
    """A named `SamplerBackend`: how to make its sampler, the options it starts from, what it refuses.

    `sampler(**fixed)` returns a dimod Sampler, or a function that builds one when first needed
    (a cloud client); its keyword arguments, given to `get_backend`, cannot change per call.
    `defaults`: the options a backend starts from (over `COMPILE_DEFAULTS`). `checks`: value
    checks of options beyond `PARAMETER_CHECKS`, such as the guard's limit. `guard(name, qubo,
    sampler, options)` raises ValueError for a QUBO the backend cannot take, before sampling.
    `parameters`: the sample parameters, for a sampler that is built only when first needed.
    """

    sampler: Callable | None
    defaults: Mapping = field(default_factory=dict)
    checks: Mapping = field(default_factory=dict)
    guard: Callable | None = None
    parameters: tuple[str, ...] | None = None

    @property
    def fixed(self) -> tuple[str, ...]:
        """The keyword arguments of `sampler`: given when the backend is built, never per call."""
        return () if self.sampler is None else tuple(inspect.signature(self.sampler).parameters)

    def __call__(self, name: str, **options) -> SamplerBackend:
        """The backend `name` with `options` (checked before a cloud sampler looks for credentials)."""
        fixed = {k: options.pop(k) for k in self.fixed if k in options}
        if self.parameters is not None:
            check_sampler_options(name, options, self.parameters, self.checks, self.fixed)
        return SamplerBackend(self.sampler(**fixed), name=name, preset=self, **options)

    def check(self, name: str, options: dict) -> None:
        """Check `options` as `__call__` would, building no cloud sampler (a local one, to read its
        parameters, only when the preset does not name them)."""
        options = {k: v for k, v in options.items() if k not in self.fixed}
        parameters = self.parameters if self.parameters is not None else self.sampler().parameters
        check_sampler_options(name, options, parameters, self.checks, self.fixed)


PLAIN = Preset(None)


class HeldSampler:
    """The sampler of a backend: one the caller `given` (theirs to close), or one `build()` makes
    when first needed and `close()` closes (a cloud client). The copies `with_options` makes of a
    backend share it, so they share one client."""

    def __init__(self, given=None, build: Callable | None = None):
        self._given, self._build, self._built = given, build, None

    def get(self):
        if self._given is not None:
            return self._given
        if self._built is None:
            self._built = self._build()
        return self._built

    def close(self) -> None:
        built, self._built = self._built, None
        if built is not None:
            built.close()


class HoldsSampler(Backend):
    """A backend whose sampler is a `HeldSampler` (`self._sampler`): built when first needed, and
    closed by `close` when this backend built it."""

    _sampler: HeldSampler

    @property
    def sampler(self):
        """The given sampler, or the one built here when first needed."""
        return self._sampler.get()

    def close(self) -> None:
        """Close the sampler this backend built (a given sampler is its owner's to close)."""
        self._sampler.close()


class SamplerBackend(HoldsSampler):
    """Any dimod sampler as a backend (see the module docstring).

    `sampler` is a dimod `Sampler`, which stays the caller's (never closed here), or a function
    that builds one, which this backend builds when first needed and closes in `close()`.
    `options` are the sampler's parameters and `eta`, `penalty`, `slack`; `name` (default: the
    sampler's class name) names the backend in results and errors. Capabilities are the
    sampler's: "seed" and "time_limit" where it takes them.
    """

    def __init__(self, sampler, *, name: str | None = None, preset: Preset = PLAIN, **options):
        if isinstance(sampler, dimod.Sampler):
            self._sampler = HeldSampler(given=sampler)
        elif callable(sampler):
            self._sampler = HeldSampler(build=sampler)
        else:
            raise TypeError(f"sampler must be a dimod Sampler or a function that builds one, got {sampler!r:.80}")
        self.preset = preset
        self.name = name or type(self.sampler).__name__
        self._parameters = tuple(preset.parameters if preset.parameters is not None else self.sampler.parameters)
        self.capabilities = frozenset(CAPABILITIES).intersection(self._parameters)
        self._options = {**preset.defaults, **{k: v for k, v in COMPILE_DEFAULTS.items() if k not in preset.defaults}}
        self._options.update(self.check_options(options))

    @property
    def parameters(self) -> tuple[str, ...]:
        """The sample parameters this backend passes to the sampler."""
        return self._parameters

    def check_options(self, options: dict) -> dict:
        return check_sampler_options(self.name, options, self._parameters, self.preset.checks, self.preset.fixed)

    def solve(self, problem, **options) -> Result:
        check_rule_problem(problem)
        options = self.call_options(options)
        start = time.perf_counter()
        qubo = problem.to_qubo(eta=options["eta"], penalty=options["penalty"], slack=options["slack"])
        sampler = self.sampler
        if self.preset.guard is not None:
            self.preset.guard(self.name, qubo, sampler, options)
        params = {k: v for k, v in options.items() if k in self._parameters and v is not None}
        try:
            sampleset = sampler.sample(qubo.bqm, **params)
            sampleset.resolve()  # a cloud answer is a future: its failure surfaces here
        except Exception as exc:
            return failed(self.name, start, f"sampling failed ({cause(exc)})", exc)
        try:
            rule, objective = qubo.decode_best(sampleset)
        except ValueError as exc:
            return failed(self.name, start, f"unusable samples: {exc}", exc, sampleset)
        return Result(
            rule, objective, "feasible", time.perf_counter() - start, self.name,
            solver_objective=float(sampleset.first.energy), message=f"{len(sampleset)} samples", raw=sampleset,
        )



def sampler_class(spec) -> type:
    """The dimod Sampler class that `spec`, "package.module:ClassName", names; ValueError saying
    what is wrong with it otherwise."""
    if not isinstance(spec, str) or spec.count(":") != 1 or not all(spec.split(":")):
        raise ValueError(f"sampler must name a class as 'package.module:ClassName', got {spec!r}")
    module_name, class_name = spec.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"sampler {spec!r}: cannot import {module_name!r} ({err})") from err
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ValueError(f"sampler {spec!r}: module {module_name!r} has no {class_name!r}")
    if not (isinstance(cls, type) and issubclass(cls, dimod.Sampler)):
        raise ValueError(f"sampler {spec!r} is not a dimod Sampler class (a subclass of dimod.Sampler), "
                         f"got {cls!r:.80}")
    return cls
