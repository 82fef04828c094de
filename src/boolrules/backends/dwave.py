"""D-Wave cloud backends: a QPU through minor embedding, the Leap hybrid BQM solver, and the Leap
hybrid CQM solver on the depth-one problem's linear standard form.

Credentials are Ocean's (a dwave config file or `DWAVE_API_TOKEN`); they are checked before any
cloud client is built, so a missing token fails at once instead of on the network. Each backend
takes a `sampler=` to use in place of the cloud one (tests, or a sampler configured by hand).
"""

from __future__ import annotations

import time
from functools import partial

import dimod
import minorminer
from dwave.cloud.config import load_config
from dwave.cloud.exceptions import (
    CanceledFutureError,
    PollingTimeout,
    ProblemUploadError,
    RequestTimeout,
    SAPIError,
    Timeout,
)
from dwave.system import (
    DWaveSampler,
    EmbeddingComposite,
    LeapHybridCQMSampler,
    LeapHybridSampler,
)

from ..formats import to_cqm
from ..formulations.problem import check_problem
from ..formulations.repair import repair
from ..validation import check_integer, check_number
from .base import Backend, Result, register_backend
from .qubo import QuboBackend

__all__ = [
    "CloudError",
    "DWaveQpuBackend",
    "LeapCqmBackend",
    "LeapHybridBackend",
    "MissingCredentialsError",
    "require_token",
]

SHRINK = ("shrink the problem (fewer samples, fewer features, a smaller max_num_literals, eta=False) "
          "or use the leap-hybrid backend")


class MissingCredentialsError(RuntimeError):
    """No D-Wave API token is configured, so no cloud solver can be reached."""


class CloudError(RuntimeError):
    """A D-Wave cloud request failed: a time-out, a solver's refusal, a network error (chained)."""


CLOUD_FAILURES = (SAPIError, PollingTimeout, ProblemUploadError, CanceledFutureError)
CLOUD_TIMEOUTS = (PollingTimeout, RequestTimeout, Timeout)


def require_token() -> None:
    """Raise MissingCredentialsError unless Ocean's configuration (file or environment) has a token."""
    if not load_config().get("token"):
        raise MissingCredentialsError(
            "no D-Wave API token is configured: run `dwave setup` (or `dwave config create`) to store one "
            "in the dwave config file, or set the DWAVE_API_TOKEN environment variable"
        )


class _Cloud:
    """What the cloud backends share: an optional injected `sampler`, else a token check first."""

    sampler: object
    fixed_options = ("sampler",)
    _client: dict  # {"sampler": the cloud client}, once built; shared with per-call copies

    def configured(self, overrides: dict):
        """A per-call copy that keeps this backend's cloud client; the sampler itself is fixed."""
        fixed = sorted(set(overrides) & set(self.fixed_options))
        if fixed:
            raise ValueError(f"{', '.join(fixed)} cannot be changed per call; build the backend with "
                             f"get_backend({self.name!r}, ...)")
        backend = super().configured(overrides)
        backend._client = self._client
        return backend

    def solve(self, problem, **options) -> Result:
        """`_solve`, with the cloud's failures raised as a CloudError that names this backend."""
        try:
            return self._solve(problem, **options)
        except CLOUD_FAILURES as exc:
            what = "no answer in time" if isinstance(exc, CLOUD_TIMEOUTS) else "the request failed"
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise CloudError(f"backend {self.name!r}: {what} from the D-Wave cloud ({detail})") from exc

    def _cloud_sampler(self, make):
        """The injected sampler, or `make()` once a token is known to be configured; built once and
        reused, so repeated solves (the non-local oracle) share one cloud client."""
        if self.sampler is not None:
            return self.sampler
        if "sampler" not in self._client:
            require_token()
            self._client["sampler"] = make()
        return self._client["sampler"]

    def close(self) -> None:
        """Close the cloud client this backend built (an injected `sampler` is the caller's to close)."""
        client = self._client.pop("sampler", None)
        if client is not None:
            client.close()

    def _set_sampler(self, sampler) -> None:
        """Keep an injected `sampler`; without one, the cloud is the sampler and a token is required."""
        self.sampler = sampler
        self._client = {}
        if sampler is None:
            require_token()


class _CloudQubo(_Cloud, QuboBackend):
    """A cloud sampler behind the shared QUBO path (compile, sample, decode)."""

    _solve = QuboBackend.solve


def _time_limit(time_limit) -> float | None:
    return None if time_limit is None else check_number(time_limit, "time_limit", 0)


def _check_minimum_time(backend, sampler, model) -> None:
    """A Leap solver refuses a time limit below its minimum for the model's size: say so first."""
    if backend.time_limit is None or not hasattr(sampler, "min_time_limit"):
        return
    minimum = sampler.min_time_limit(model)
    if backend.time_limit < minimum:
        raise ValueError(f"time_limit={backend.time_limit} s is below {backend.name}'s minimum of {minimum} s for "
                         f"this problem ({len(model.variables)} variables); give time_limit >= {minimum}")


def _embed(source, target, *, qubits: int, qpu: str, **params) -> dict:
    """minorminer's embedding of `source` into the QPU graph `target`, or a ValueError saying the
    QUBO is too large: at once when it has more variables than the QPU has qubits."""
    variables = len({v for edge in source for v in edge})
    if variables > qubits:
        raise ValueError(f"the QUBO has {variables} variables but the QPU {qpu} has only {qubits} qubits; {SHRINK}")
    embedding = minorminer.find_embedding(source, target, **params)
    if source and not embedding:
        raise ValueError(
            f"minorminer found no embedding of the QUBO's {variables} variables into the QPU {qpu} ({qubits} qubits; "
            f"search limited to {params.get('timeout')} s): the QUBO is too large or too dense for this QPU; {SHRINK}"
        )
    return embedding


class DWaveQpuBackend(_CloudQubo):
    """A D-Wave QPU (`DWaveSampler`, minor-embedded by `EmbeddingComposite`).

    `solver` is a solver name or feature filter (default: Ocean's configured QPU), `sampler` a
    structured dimod sampler used instead (e.g. `MockDWaveSampler`); `chain_strength` and
    `annealing_time` (µs) default to Ocean's; `embedding_timeout` (s) bounds minorminer's search.
    """

    name = "dwave-qpu"
    fixed_options = ("sampler", "solver")

    def __init__(self, num_reads=100, chain_strength=None, annealing_time=None, solver=None,
                 embedding_timeout=60, sampler=None, eta=False, penalty="calibrated", slack="minimal"):
        self.num_reads = check_integer(num_reads, "num_reads", 1)
        self.chain_strength = None if chain_strength is None else check_number(chain_strength, "chain_strength", 0)
        self.annealing_time = None if annealing_time is None else check_number(annealing_time, "annealing_time", 0)
        if not (solver is None or isinstance(solver, (str, dict))):
            raise TypeError(f"solver must be a solver name or a dict of solver features, got {solver!r}")
        if solver is not None and sampler is not None:
            raise ValueError("give solver or sampler, not both: solver selects the cloud QPU that sampler replaces")
        self.solver = solver
        self.embedding_timeout = check_number(embedding_timeout, "embedding_timeout", 0)
        self._set_compile_options(eta, penalty, slack)
        self._set_sampler(sampler)

    def make_sampler(self) -> dimod.Sampler:
        qpu = self._cloud_sampler(partial(DWaveSampler, solver=self.solver))
        qubits = len(qpu.properties["qubits"])
        return EmbeddingComposite(qpu, find_embedding=partial(
            _embed, qubits=qubits, qpu=qpu.properties.get("chip_id", type(qpu).__name__)))

    def sample_params(self, options: dict) -> dict:
        params = {"num_reads": options["num_reads"], "embedding_parameters": {"timeout": options["embedding_timeout"]}}
        params.update({k: options[k] for k in ("chain_strength", "annealing_time") if options[k] is not None})
        return params


class LeapHybridBackend(_CloudQubo):
    """Leap's hybrid BQM solver (`LeapHybridSampler`); `time_limit` (s) defaults to the solver's
    minimum for the QUBO's size, and one below that minimum is refused before anything is sent."""

    name = "leap-hybrid"

    def __init__(self, time_limit=None, sampler=None, eta=False, penalty="calibrated", slack="minimal"):
        self.time_limit = _time_limit(time_limit)
        self._set_compile_options(eta, penalty, slack)
        self._set_sampler(sampler)

    def make_sampler(self) -> dimod.Sampler:
        return self._cloud_sampler(LeapHybridSampler)

    def check_size(self, qubo) -> None:
        _check_minimum_time(self, self.make_sampler(), qubo.bqm)

    def sample_params(self, options: dict) -> dict:
        return {} if options["time_limit"] is None else {"time_limit": options["time_limit"]}


class LeapCqmBackend(_Cloud, Backend):
    """Leap's hybrid CQM solver (`LeapHybridCQMSampler`) on the problem's ILP as a CQM.

    The lowest-energy feasible sample is decoded as is (status "feasible"); with none feasible, the
    lowest-energy sample's literals are repaired into a valid rule (the message says so).
    `time_limit` (s) defaults to the solver's minimum, and one below it is refused before sending.
    """

    name = "leap-cqm"

    def __init__(self, time_limit=None, sampler=None):
        self.time_limit = _time_limit(time_limit)
        self._set_sampler(sampler)

    def _solve(self, problem, **options) -> Result:
        check_problem(problem)
        backend = self.configured(options)
        opts = backend.options()
        start = time.perf_counter()
        sampler = backend._cloud_sampler(LeapHybridCQMSampler)
        params = {} if opts["time_limit"] is None else {"time_limit": opts["time_limit"]}
        cqm = to_cqm(problem.standard_form)
        _check_minimum_time(backend, sampler, cqm)
        sampleset = sampler.sample_cqm(cqm, **params)
        names = problem.standard_form.var_names
        missing = set(names).difference(sampleset.variables)
        if len(sampleset) == 0 or missing:
            message = ("unusable samples: the solver returned none" if len(sampleset) == 0 else
                       f"unusable samples: they lack {len(missing)} of the CQM's variables, e.g. {sorted(missing)[:3]}")
            return Result(None, None, "error", time.perf_counter() - start, self.name, message=message, raw=sampleset)
        feasible = sampleset.filter(lambda datum: datum.is_feasible)
        best = (feasible if len(feasible) else sampleset).first
        values = problem.values_from_vector([best.sample[name] for name in names])
        if len(feasible):
            rule, status = problem.decode(values), "feasible"
            message = f"{len(feasible)} of {len(sampleset)} samples feasible"
        else:
            rule, status = repair(problem, values["b"], values["bt"]), "feasible"
            message = f"no feasible sample among {len(sampleset)}; the rule repairs the lowest-energy one"
        return Result(
            rule, problem.objective(rule), status, time.perf_counter() - start, self.name,
            solver_objective=float(best.energy), message=message, raw=sampleset,
        )


register_backend("dwave-qpu", DWaveQpuBackend)
register_backend("leap-hybrid", LeapHybridBackend)
register_backend("leap-cqm", LeapCqmBackend)
