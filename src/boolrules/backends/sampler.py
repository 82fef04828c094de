"""Any dimod sampler as a backend: compile the problem to a QUBO, sample it, decode the best rule.

`SamplerBackend(sampler, **options)`, or `get_backend(sampler, **options)`, wraps any dimod
`Sampler` (dwave-samplers', dimod's reference samplers, OpenJij's, a cloud vendor's, your own).
Its options are the sampler's own `parameters`, passed to `sampler.sample` (None leaves the
sampler's default; well-known ones such as num_reads or seed are checked first), and the QUBO
compilation's `eta`, `penalty`, `slack` (`DepthOneProblem.to_qubo`, whose defaults it keeps), and
`polish` (default True): whether the repaired rule is then improved by native literal swaps
(`QuboProblem.decode_stages`); with polish=False nothing classical touches the samples beyond
decoding and the repair that makes them a rule. The result reports each stage (raw, repaired,
polished), the sampler's info and the seconds of each step.
A sampler that takes `num_reads` but no `time_limit` is given one here: with `time_limit` (seconds
for the whole solve), its reads are sampled in batches and sampling stops between batches when the
time is spent (`sample_in_batches`). A `Preset` names a sampler with its default options and a
size guard: the named backends (`samplers.py`, `dwave.py`, `qaoa.py`) are presets. The raw `SampleSet` stays on the result.
"""

from __future__ import annotations

import importlib
import inspect
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import dimod

from ..exceptions import InputError, InputTypeError
from ..formulations.qubo_problem import Decoding, QuboProblem, check_compile_option
from ..seeding import MAX_SEED, draw_seed
from ..validation import check_bool, check_integer, check_number
from .base import CAPABILITIES, Answer, Backend, unknown_options

__all__ = [
    "SamplerBackend", "Preset", "HeldSampler", "HoldsSampler", "COMPILE_DEFAULTS", "DECODE_DEFAULTS",
    "PARAMETER_CHECKS", "COUNT_CAPS", "check_sampler_options", "sample_in_batches", "sample_interruptibly",
    "sample_parameters", "sampler_class", "sampler_info",
]

# The QUBO compilation's options and defaults, those of `DepthOneProblem.to_qubo`: with the
# "sufficient" penalties a sampler's ground state decodes to the ILP optimum where η is kept (Or,
# And), to a valid rule where "auto" drops it (AtLeast, AtMost, Choose).
COMPILE_DEFAULTS = MappingProxyType({"eta": "auto", "penalty": "sufficient", "slack": "paired"})
# The decoding's options and defaults: polish the best repaired rule (`QuboProblem.decode_stages`).
DECODE_DEFAULTS = MappingProxyType({"polish": True})
# Longest batch of reads of a sampler that samples between-read batches without a time limit
# (`Preset.stop_between_reads`): Ctrl-C stops its sampling within this, or one read.
BATCH_SECONDS = 0.25


# Upper bounds of the counts samplers take: beyond them a sampler overflows a C integer or allocates
# arrays of terabytes (num_reads x variables states, a schedule of num_sweeps temperatures), so a
# larger value is refused before any work, naming the option.
COUNT_CAPS = MappingProxyType({
    "num_reads": 10**6,
    "num_sweeps": 10**7,
    "timeout": 86_400_000,  # milliseconds per read: one day
    "reps": 1000,
    "maxiter": 10**6,
    "shots": 10**7,
})


def _count(name: str):
    return lambda value: check_integer(value, name, 1, COUNT_CAPS[name])


def _nonnegative(name: str):
    return lambda value: check_number(value, name, 0)


def _beta_range(beta_range) -> tuple[float, float]:
    """(hot, cold) inverse temperatures, both > 0 and hot <= cold."""
    if not isinstance(beta_range, (tuple, list)) or len(beta_range) != 2:
        raise InputError(f"beta_range must be a pair (hot, cold) of inverse temperatures, got {beta_range!r}")
    hot, cold = (check_number(beta, "beta_range", 0) for beta in beta_range)
    if not 0 < hot <= cold:
        raise InputError(f"beta_range must satisfy 0 < hot <= cold, got {beta_range!r}")
    return hot, cold


def _optional_seconds(value) -> float | None:
    """A time limit in seconds >= 0, or None for none."""
    return value if value is None else check_number(value, "time_limit", 0)


def _table(name: str):
    def check(value) -> dict:
        if not isinstance(value, Mapping):
            raise InputTypeError(f"{name} must be a dict (a table in TOML), got {value!r}")
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
        raise InputError(f"{', '.join(per_call)} cannot be changed per call; build the backend with "
                         f"get_backend({backend!r}, {per_call[0]}=...)")
    known = list(dict.fromkeys([*parameters, *checks, *COMPILE_DEFAULTS, *DECODE_DEFAULTS]))
    if set(options) - set(known):
        raise unknown_options(backend, options, known)
    checked = {}
    for name, value in options.items():
        if name in COMPILE_DEFAULTS:
            checked[name] = check_compile_option(name, value)
        elif name in DECODE_DEFAULTS:
            checked[name] = check_bool(value, name)
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
    `batches`: whether a `time_limit` may split the reads into batches (False for a sampler whose
    every call costs more than its reads, such as a QPU that embeds and queues each call).
    `stop_between_reads`: sample in batches of at most `BATCH_SECONDS` even without a time limit,
    for a sampler whose long reads run in C and take no `interrupt_function` (tabu): Ctrl-C then
    stops its sampling after the batch, or the read, in progress.
    """

    sampler: Callable | None
    defaults: Mapping = field(default_factory=dict)
    checks: Mapping = field(default_factory=dict)
    guard: Callable | None = None
    parameters: tuple[str, ...] | None = None
    batches: bool = True
    stop_between_reads: bool = False

    def batched(self, parameters) -> bool:
        """Whether a sampler with these sample `parameters` keeps to a `time_limit` by sampling its
        reads in batches (it takes num_reads, and no time_limit of its own)."""
        return self.batches and "num_reads" in parameters and "time_limit" not in parameters

    def checks_for(self, parameters) -> Mapping:
        """The preset's `checks`, with `time_limit` when the sampler's reads go in batches."""
        if not self.batched(parameters):
            return self.checks
        return {**self.checks, "time_limit": _optional_seconds}

    @property
    def fixed(self) -> tuple[str, ...]:
        """The keyword arguments of `sampler`: given when the backend is built, never per call."""
        return () if self.sampler is None else tuple(inspect.signature(self.sampler).parameters)

    def __call__(self, name: str, **options) -> SamplerBackend:
        """The backend `name` with `options` (checked before a cloud sampler looks for credentials)."""
        fixed = {k: options.pop(k) for k in self.fixed if k in options}
        if self.parameters is not None:
            check_sampler_options(name, options, self.parameters, self.checks_for(self.parameters), self.fixed)
        return SamplerBackend(self.sampler(**fixed), name=name, preset=self, **options)

    def check(self, name: str, options: dict) -> None:
        """Check `options` as `__call__` would, building no cloud sampler (a local one, to read its
        parameters, only when the preset does not name them)."""
        options = {k: v for k, v in options.items() if k not in self.fixed}
        parameters = self.parameters if self.parameters is not None else sample_parameters(self.sampler())
        check_sampler_options(name, options, parameters, self.checks_for(parameters), self.fixed)


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
    closed by `close` when this backend built it. Its failures are said as a sampler's."""

    _sampler: HeldSampler
    failure = "sampling failed ({cause})"
    unusable = "unusable samples: {error}"

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
    sampler's: "seed" and "time_limit" where it takes them, and "time_limit" where it takes
    `num_reads` (sampled in batches to keep to it, unless the preset forbids batches); and
    "polish", which every sampler backend takes.
    """

    reports_steps = True

    def __init__(self, sampler, *, name: str | None = None, preset: Preset = PLAIN, **options):
        if isinstance(sampler, dimod.Sampler):
            self._sampler = HeldSampler(given=sampler)
        elif callable(sampler):
            self._sampler = HeldSampler(build=sampler)
        else:
            raise InputTypeError(f"sampler must be a dimod Sampler or a function that builds one, got {sampler!r:.80}")
        self.preset = preset
        self.name = name or type(self.sampler).__name__
        self._parameters = preset.parameters if preset.parameters is not None else sample_parameters(self.sampler)
        self._checks = preset.checks_for(self._parameters)
        self._batches = preset.batched(self._parameters)
        self.capabilities = frozenset(CAPABILITIES).intersection(self._parameters) | {"depth_two", "polish"} | (
            {"time_limit"} if self._batches else set())
        defaults = {**COMPILE_DEFAULTS, **DECODE_DEFAULTS}
        self._options = {**preset.defaults, **{k: v for k, v in defaults.items() if k not in preset.defaults}}
        if self._batches:
            self._options["time_limit"] = None
        self._options.update(self.check_options(options))

    @property
    def parameters(self) -> tuple[str, ...]:
        """The sample parameters this backend passes to the sampler."""
        return self._parameters

    def check_options(self, options: dict) -> dict:
        return check_sampler_options(self.name, options, self._parameters, self._checks, self.preset.fixed)

    def compile(self, problem, options: dict) -> tuple[QuboProblem, QuboProblem]:
        """The problem's QUBO (`to_qubo` with eta, penalty, slack), refused by the preset's guard when
        the sampler cannot take it; the QUBO is its own inverse data (it decodes its samples)."""
        qubo = problem.to_qubo(eta=options["eta"], penalty=options["penalty"], slack=options["slack"])
        if self.preset.guard is not None:
            self.preset.guard(self.name, qubo, self.sampler, options)
        return qubo, qubo

    def solve_form(self, qubo: QuboProblem, time_left: float | None, **options) -> Answer:
        """The QUBO sampled; with a time limit, in batches of reads between which sampling stops
        once the `time_left` is spent (a sampler taking num_reads but no time limit of its own)."""
        params = {k: v for k, v in options.items() if k in self._parameters and v is not None}
        time_limit = options.get("time_limit") if self._batches and "num_reads" in params else None
        short = self._batches and self.preset.stop_between_reads and "num_reads" in params
        sampled = time.perf_counter()
        end = None if time_limit is None else sampled + time_left
        if time_limit is None and not short:
            sampleset = sample_interruptibly(self.sampler, qubo.bqm, params)
        else:
            sampleset, reads = sample_in_batches(self.sampler, qubo.bqm, params, end, BATCH_SECONDS if short else None)
        seconds = time.perf_counter() - sampled
        status, message = "feasible", f"{len(sampleset)} samples"
        if time_limit is not None:
            message += f" from {reads} of {params['num_reads']} reads"
            if reads < params["num_reads"]:
                status, message = "time_limit", f"{message} (time limit {time_limit:g} s)"
        return Answer(sampleset, status, message, objective=float(sampleset.first.energy) if len(sampleset) else None,
                      info=sampler_info(sampleset), timing={"sample": seconds})

    def decode(self, problem, sampleset, qubo: QuboProblem, options: dict) -> Decoding:
        """The samples decoded stage by stage: raw, repaired and, with `polish`, polished
        (`QuboProblem.decode_stages`)."""
        return qubo.decode_stages(sampleset, options["polish"])


def sampler_info(sampleset: dimod.SampleSet) -> dict:
    """What the sampler reported beside its samples: its `info` (a QPU's `timing` in µs, its
    `problem_id`), with an embedding's context summed up as `embedding` (logical variables,
    physical qubits, longest chain, chain strength, seconds to embed) and, when the samples carry
    one, the `chain_break_fraction` of the lowest-energy sample and its mean over all reads."""
    info = dict(sampleset.info)
    context = info.pop("embedding_context", None)
    if context is not None:
        chains = [len(chain) for chain in context["embedding"].values()]
        info["embedding"] = {
            "variables": len(chains), "qubits": sum(chains), "max_chain_length": max(chains, default=0),
            "chain_strength": context.get("chain_strength"),
            "seconds": context.get("timing", {}).get("embedding"),
        }
    if "chain_break_fraction" in sampleset.record.dtype.names and len(sampleset):
        fraction = sampleset.record.chain_break_fraction
        reads = sampleset.record.num_occurrences
        info["chain_break_fraction"] = {"lowest_energy": float(sampleset.first.chain_break_fraction),
                                        "mean": float(fraction @ reads / reads.sum())}
    return info


def sample_interruptibly(sampler, bqm, params: dict) -> dimod.SampleSet:
    """`sampler.sample(bqm, **params)`, resolved (a cloud answer is a future: its failure surfaces
    here), so that Ctrl-C stops it at once: samplers such as sa and tabu run in C without checking
    for it. In the main thread (where Ctrl-C arrives) the sampler runs in a worker thread and
    KeyboardInterrupt is raised here at once; a sampler that takes `interrupt_function` (sa) is then
    told to stop after its current read, any other ends in the background, its samples discarded."""
    if threading.current_thread() is not threading.main_thread():
        sampleset = sampler.sample(bqm, **params)
        sampleset.resolve()
        return sampleset
    stop = threading.Event()
    if "interrupt_function" in sampler.parameters and "interrupt_function" not in params:
        params = {**params, "interrupt_function": stop.is_set}
    outcome = {}

    def run():
        try:
            sampleset = sampler.sample(bqm, **params)
            sampleset.resolve()
            outcome["samples"] = sampleset
        except BaseException as exc:  # re-raised in the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name=f"sampling with {type(sampler).__name__}", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        stop.set()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["samples"]


def sample_in_batches(sampler, bqm, params: dict, end: float | None,
                      most_seconds: float | None = None) -> tuple[dimod.SampleSet, int]:
    """`params["num_reads"]` reads of `sampler` in batches, stopping between batches at `end` (a
    `time.perf_counter()` value; None: none); the samples of the reads made, and how many. The
    samples' `info` keeps each batch's own under "batches" (one dict per batch, in order).

    The first batch is one read; each next one at most doubles the reads made and holds no more
    reads than the time left fits at the pace so far, so a batch rarely runs past `end`, nor (but
    for one read) past `most_seconds`. With a `seed`, each batch's seed is drawn from it (the same
    batches, the same samples)."""
    total = params["num_reads"]
    seeds = random.Random(params["seed"]) if params.get("seed") is not None else None
    samplesets, reads, began = [], 0, time.perf_counter()
    while reads < total:
        batch = 1
        if reads:
            now = time.perf_counter()
            pace = (now - began) / reads
            batch = min(total - reads, reads)
            if end is not None:
                batch = min(batch, int((end - now) / pace))
                if batch < 1:
                    break
            if most_seconds is not None:
                batch = max(1, min(batch, int(most_seconds / pace)))
        if seeds is not None:
            params = {**params, "seed": draw_seed(seeds)}
        samplesets.append(sample_interruptibly(sampler, bqm, {**params, "num_reads": batch}))
        reads += batch
    combined = dimod.concatenate(samplesets)
    combined.info["batches"] = [dict(sampleset.info) for sampleset in samplesets]
    return combined, reads


def sample_parameters(sampler) -> tuple[str, ...]:
    """The keyword arguments `sampler.sample` takes: those its `parameters` declare, and the named
    ones of its signature, which samplers such as OpenJij's take (num_reads, num_sweeps, seed)
    without declaring them."""
    try:
        signature = inspect.signature(sampler.sample).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature
        signature = ()
    signature = list(signature)[1:]  # the first is the model sampled (bqm)
    named = [p.name for p in signature if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return tuple(dict.fromkeys([*sampler.parameters, *named]))


def sampler_class(spec) -> type:
    """The dimod Sampler class that `spec`, "package.module:ClassName", names; ValueError saying
    what is wrong with it otherwise."""
    if not isinstance(spec, str) or spec.count(":") != 1 or not all(spec.split(":")):
        raise InputError(f"sampler must name a class as 'package.module:ClassName', got {spec!r}")
    module_name, class_name = spec.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise InputError(f"sampler {spec!r}: cannot import {module_name!r} ({err})") from err
    cls = getattr(module, class_name, None)
    if cls is None:
        raise InputError(f"sampler {spec!r}: module {module_name!r} has no {class_name!r}")
    if not (isinstance(cls, type) and issubclass(cls, dimod.Sampler)):
        raise InputError(f"sampler {spec!r} is not a dimod Sampler class (a subclass of dimod.Sampler), "
                         f"got {cls!r:.80}")
    return cls
