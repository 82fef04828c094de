"""D-Wave cloud backends: a QPU through minor embedding and the Leap hybrid BQM solver (presets
over `SamplerBackend`), and the Leap hybrid CQM solver on the depth-one problem's linear standard form.

Credentials are Ocean's (a dwave config file or `DWAVE_API_TOKEN`); they are checked when the
backend is built, before any cloud client is, so a missing token fails at once instead of on the
network; the client is built at the first solve and closed by `close()`. Each backend takes a
`sampler=` to use in place of the cloud one (tests, or a sampler configured by hand), and the QPU
`mock="pegasus"` or `"zephyr"`: Ocean's `MockDWaveSampler` on a QPU-sized graph of that topology,
so the whole QPU path, minor embedding included, runs offline (`[backend] mock = "pegasus"` in TOML).
"""

from __future__ import annotations

from functools import partial

import dimod
import numpy as np
from dwave.cloud.config import load_config
from dwave.system import (
    DWaveSampler,
    EmbeddingComposite,
    LeapHybridCQMSampler,
    LeapHybridSampler,
)
from dwave.system.testing import MockDWaveSampler

from ..exceptions import InputError, InputTypeError, SolverError
from ..formulations.cqm import CQM_CHAIN
from ..formulations.qubo_problem import Decoding, decode_samples
from .base import Answer, Stage, unknown_options
from .hardware import QPU_EMBEDDING_TIMEOUT, QPU_TOPOLOGIES, SHRINK, check_embedding_timeout, find_embedding_within
from .registry import register_backend
from .sampler import PARAMETER_CHECKS, HeldSampler, HoldsSampler, Preset

__all__ = ["DWAVE_QPU", "LEAP_HYBRID", "LeapCqmBackend", "MissingCredentialsError", "MockQpu", "QpuPreset",
           "require_token"]

SHRINK_QPU = f"shrink the problem ({SHRINK}, eta=False) or use the leap-hybrid backend"


class MissingCredentialsError(SolverError):
    """No D-Wave API token is configured, so no cloud solver can be reached."""


def require_token() -> None:
    """Raise MissingCredentialsError unless Ocean's configuration (file or environment) has a token."""
    if not load_config().get("token"):
        raise MissingCredentialsError(
            "no D-Wave API token is configured: run `dwave setup` (or `dwave config create`) to store one "
            "in the dwave config file, or set the DWAVE_API_TOKEN environment variable"
        )


def _cloud(make):
    """`make`, a token being configured, to be called when the client is first needed (with a
    token still configured then)."""
    require_token()

    def build():
        require_token()
        return make()
    return build


def _qpu_name(qpu) -> str:
    return qpu.properties.get("chip_id", type(qpu).__name__)


def _embed(source, target, *, qubits: int, qpu: str, timeout: float = QPU_EMBEDDING_TIMEOUT, **params) -> dict:
    """minorminer's embedding of `source` into the QPU graph `target`, searched at most `timeout`
    seconds (a hard bound, `find_embedding_within`), or a ValueError saying the QUBO is too large
    or too dense for it."""
    embedding = find_embedding_within(source, target, timeout, **params)
    if embedding is not None and (embedding or not source):
        return embedding
    variables = len({v for edge in source for v in edge})
    if embedding is None:
        interactions = sum(u != v for u, v in source)
        raise InputError(
            f"the embedding search of the QUBO's {variables} variables and {interactions} interactions into the QPU "
            f"{qpu} ({qubits} qubits) hit its {timeout:g} s limit and was stopped: the QUBO is too large or too dense "
            f"to embed in that time; {SHRINK_QPU}, or give a larger timeout in embedding_parameters"
        )
    raise InputError(
        f"minorminer found no embedding of the QUBO's {variables} variables into the QPU {qpu} ({qubits} qubits; "
        f"search limited to {timeout:g} s): the QUBO is too large or too dense for this QPU; {SHRINK_QPU}"
    )


def _embedded(qpu) -> EmbeddingComposite:
    """`qpu` behind minor embedding whose failure says what to do, returning its embedding in the
    sample set's info (the result reports its size, `sampler.sampler_info`)."""
    composite = EmbeddingComposite(qpu, find_embedding=partial(
        _embed, qubits=len(qpu.properties["qubits"]), qpu=_qpu_name(qpu)))
    composite.return_embedding_default = True
    return composite


def _qpu(solver=None, sampler=None):
    """The embedded `sampler`, or (a token being configured) a function building the cloud QPU
    `solver` (a name or feature filter; default: Ocean's configured QPU) behind minor embedding."""
    if not (solver is None or isinstance(solver, (str, dict))):
        raise InputTypeError(f"solver must be a solver name or a dict of solver features, got {solver!r}")
    if solver is not None and sampler is not None:
        raise InputError("give solver or sampler, not both: solver selects the cloud QPU that sampler replaces")
    if sampler is not None:
        return _embedded(sampler)
    return _cloud(lambda: _embedded(DWaveSampler(solver=solver)))


class MockQpu(MockDWaveSampler):
    """Ocean's `MockDWaveSampler` on a graph the size of a D-Wave QPU of `topology` ("pegasus":
    Advantage, P16; "zephyr": Advantage2, Z12), whose stand-in sampler (steepest descent from
    random states) takes a `seed`, so that offline runs repeat."""

    def __init__(self, topology: str):
        super().__init__(topology_type=topology, topology_shape=QPU_TOPOLOGIES[topology][0],
                         parameter_warnings=False)
        self.parameters = {**self.parameters, "seed": []}
        self.mocked_parameters = self.mocked_parameters | {"seed"}


class _SeededEmbedding(EmbeddingComposite):
    """Minor embedding whose search (minorminer's `random_seed`) is seeded by the sample's `seed`."""

    def sample(self, bqm, seed=None, embedding_parameters=None, **parameters):
        embedding_parameters = {"random_seed": seed, **(embedding_parameters or {})}
        return super().sample(bqm, embedding_parameters=embedding_parameters, seed=seed, **parameters)


def _mock_qpu(topology: str):
    """The mock QPU of `topology` behind seeded minor embedding whose failure says what to do,
    returning its embedding in the sample set's info as the real QPU's composite does (`_embedded`)."""
    qpu = MockQpu(topology)
    composite = _SeededEmbedding(qpu, find_embedding=partial(_embed, qubits=len(qpu.properties["qubits"]),
                                                             qpu=f"mock {topology}"))
    composite.return_embedding_default = True
    return composite


class QpuPreset(Preset):
    """The QPU preset, which with `mock` (a topology) puts Ocean's mock QPU in place of the cloud
    one: no credentials, and a `seed` that seeds the embedding and the stand-in sampler."""

    def __call__(self, name: str, **options):
        mock = options.pop("mock", None)
        if mock is None:
            return super().__call__(name, **options)
        return self.mock(mock, options)(name, **options)

    def check(self, name: str, options: dict) -> None:
        options = dict(options)
        mock = options.pop("mock", None)
        if mock is None:
            return super().check(name, options)
        return self.mock(mock, options).check(name, options)

    def mock(self, topology, options: dict) -> Preset:
        """This preset on the mock QPU of `topology`, whose options are `options`."""
        if topology not in QPU_TOPOLOGIES:
            raise InputError(f"mock must be one of {', '.join(QPU_TOPOLOGIES)} (the mock QPU's topology), "
                             f"got {topology!r}")
        given = sorted(set(options) & {"solver", "sampler"})
        if given:
            raise InputError(f"give mock or {given[0]}, not both: mock puts a local QPU in place of the cloud one")
        return Preset(partial(_mock_qpu, topology), {**self.defaults, "seed": None}, self.checks, self.guard,
                      (*self.parameters, "seed"), self.batches)


def _fits_the_qpu(name, qubo, sampler, options) -> None:
    """More QUBO variables than the QPU has qubits, or more interactions than it has couplers (each
    needs one of its own), can never be embedded: say so before a search that would only time out."""
    qpu = sampler.child
    qubits, couplers = len(qpu.properties["qubits"]), len(qpu.properties["couplers"])
    if qubo.num_variables > qubits:
        raise InputError(f"the QUBO has {qubo.num_variables} variables but the QPU {_qpu_name(qpu)} has only {qubits} "
                         f"qubits; {SHRINK_QPU}")
    if qubo.bqm.num_interactions > couplers:
        raise InputError(f"the QUBO has {qubo.bqm.num_interactions} interactions but the QPU {_qpu_name(qpu)} has only "
                         f"{couplers} couplers; {SHRINK_QPU}")


def _hybrid(sampler=None):
    """`sampler`, or (a token being configured) Leap's hybrid BQM solver, built when first needed."""
    if sampler is not None:
        return sampler
    return _cloud(lambda: LeapHybridSampler())


def _at_least_the_minimum_time(name, model, sampler, time_limit) -> None:
    """A Leap solver refuses a time limit below its minimum for the model's size: say so first."""
    if time_limit is None or not hasattr(sampler, "min_time_limit"):
        return
    minimum = sampler.min_time_limit(model)
    if time_limit < minimum:
        raise InputError(f"time_limit={time_limit} s is below {name}'s minimum of {minimum} s for this problem "
                         f"({len(model.variables)} variables); give time_limit >= {minimum}")


def _embedding_parameters(value) -> dict | None:
    """minorminer's parameters (a dict; None: none), whose `timeout` (seconds, 60 when not given)
    is the embedding search's hard wall-time bound: checked here, before any work."""
    if value is None:
        return None
    parameters = PARAMETER_CHECKS["embedding_parameters"](value)
    if "timeout" in parameters:
        parameters["timeout"] = check_embedding_timeout(parameters["timeout"], "embedding_parameters timeout")
    return parameters


# A D-Wave QPU (`DWaveSampler`, minor-embedded by `EmbeddingComposite`): `chain_strength` and
# `annealing_time` (µs) default to Ocean's; `embedding_parameters` go to minorminer, whose search
# is stopped after its `timeout`, 60 s by default. Its reads never go in batches (each call embeds and
# queues anew): it takes no time limit. `mock="pegasus"` (or "zephyr") runs it offline on `MockQpu`, with a `seed`.
DWAVE_QPU = QpuPreset(_qpu, {"num_reads": 100, "chain_strength": None, "annealing_time": None,
                             "embedding_parameters": {"timeout": QPU_EMBEDDING_TIMEOUT}},
                      checks={"embedding_parameters": _embedding_parameters},
                      guard=_fits_the_qpu,
                      parameters=("num_reads", "chain_strength", "annealing_time", "embedding_parameters"),
                      batches=False)
# Leap's hybrid BQM solver (`LeapHybridSampler`); `time_limit` (s) defaults to the solver's minimum
# for the QUBO's size, and one below that minimum is refused before anything is sent.
LEAP_HYBRID = Preset(_hybrid, {"time_limit": None},
                     guard=lambda name, qubo, sampler, options: _at_least_the_minimum_time(
                         name, qubo.bqm, sampler, options["time_limit"]),
                     parameters=("time_limit",))


class LeapCqmBackend(HoldsSampler):
    """Leap's hybrid CQM solver (`LeapHybridCQMSampler`) on the problem's ILP as a CQM.

    The lowest-energy feasible sample is decoded as is (status "feasible"); with none feasible, the
    lowest-energy sample's literals are repaired into a valid rule (the message says so).
    `time_limit` (s) defaults to the solver's minimum, and one below it is refused before sending.
    """

    capabilities = frozenset({"time_limit"})
    chain = CQM_CHAIN

    def __init__(self, name="leap-cqm", *, sampler=None, **options):
        self.name = name
        self._options = {"time_limit": None, **self.check_options(options)}
        self._sampler = HeldSampler(sampler, _leap_cqm_client)
        if sampler is None:
            require_token()

    def check_options(self, options: dict) -> dict:
        return check_cqm_options(self.name, options)

    def compile(self, problem, options: dict) -> tuple[dimod.ConstrainedQuadraticModel, tuple]:
        """The problem's CQM (`CQM_CHAIN`), refused when the time limit is below the solver's minimum for it."""
        sampler = self.sampler
        cqm, inverses = self.chain.apply(problem)
        _at_least_the_minimum_time(self.name, cqm, sampler, options["time_limit"])
        return cqm, inverses

    def solve_form(self, cqm, time_left: float | None, **options) -> Answer:
        """The CQM sampled by the solver, which keeps to `time_limit` itself; the solver's
        objective is the energy of the sample `decode` takes."""
        params = {} if options["time_limit"] is None else {"time_limit": options["time_limit"]}
        sampleset = self.sampler.sample_cqm(cqm, **params)
        sampleset.resolve()  # a cloud answer is a future: its failure surfaces here
        feasible = _feasible(sampleset)
        if feasible.any():
            message = f"{feasible.sum()} of {len(sampleset)} samples feasible"
        else:
            message = f"no feasible sample among {len(sampleset)}; the rule is the best sample repaired"
        energies = sampleset.record.energy[feasible] if feasible.any() else sampleset.record.energy
        energy = float(energies.min()) if len(sampleset) else None
        return Answer(sampleset, "feasible", message, objective=energy, info=dict(sampleset.info))

    def decode(self, problem, sampleset, inverses, options: dict) -> Decoding:
        """The samples decoded as every sampler's are (`decode_samples`), a CQM's energy counting
        only where the solver marks the sample feasible: the lowest-energy feasible sample as it
        stands is the answer (stage raw); with none feasible, the best sample repaired (stage
        repaired)."""
        if len(sampleset) == 0:
            raise InputError("the solver returned none")
        values = [self.chain.invert(sample, inverses) for sample in sampleset.samples()]
        feasible = _feasible(sampleset)
        decoding = decode_samples(problem, values, np.where(feasible, sampleset.record.energy, np.inf), feasible)
        if decoding.stages["raw"].feasible:  # the solver's own answer, untouched by repair
            return decoding._replace(stages={"raw": decoding.stages["raw"]})
        return decoding


def _feasible(sampleset: dimod.SampleSet) -> np.ndarray:
    """Per sample, whether the CQM solver marks it feasible (none of a sample set that marks none)."""
    record = sampleset.record
    return record.is_feasible.astype(bool) if "is_feasible" in record.dtype.names else np.zeros(len(record), bool)


def _leap_cqm_client() -> LeapHybridCQMSampler:
    """Leap's hybrid CQM solver, once a token is known to be configured."""
    require_token()
    return LeapHybridCQMSampler()


def check_cqm_options(name: str, options: dict) -> dict:
    """leap-cqm's options checked: `time_limit`, seconds >= 0 (None: the solver's minimum)."""
    if "sampler" in options:
        raise InputError(f"sampler cannot be changed per call; build the backend with "
                         f"get_backend({name!r}, sampler=...)")
    if set(options) - {"time_limit"}:
        raise unknown_options(name, options, ("time_limit",))
    return {k: None if v is None else PARAMETER_CHECKS[k](v) for k, v in options.items()}


register_backend("dwave-qpu", DWAVE_QPU, DWAVE_QPU.check)
register_backend("leap-hybrid", LEAP_HYBRID, LEAP_HYBRID.check)
register_backend("leap-cqm", LeapCqmBackend, check_cqm_options)
