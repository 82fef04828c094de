"""The D-Wave backends up to the network edge: mock QPU, fake hybrid samplers, no credentials."""

import json
from pathlib import Path

import dimod
import minorminer
import numpy as np
import pytest
from dwave.cloud.exceptions import PollingTimeout, SolverFailureError
from dwave.system.testing import MockDWaveSampler

from boolrules.backends import dwave, get_backend
from boolrules.backends.config import load_backend
from boolrules.backends.dwave import LeapCqmBackend, MissingCredentialsError, MockQpu, require_token
from boolrules.backends.hardware import QPU_EMBEDDING_TIMEOUT, QPU_TOPOLOGIES
from boolrules.formulations import depth_one
from boolrules.formulations.cqm import to_cqm
from boolrules.formulations.repair import feasible_point, repair_values
from boolrules.rules import Literal, Or

from ..errors import assert_clear_error, assert_raises_clearly
from ..fakes import ClosableHybrid, Failing, FakeCqmSampler, FakeHybrid, WithMinimum, assert_gone, sleep_forever
from ..planted import planted as planted_data

CLOUD = ["dwave-qpu", "leap-hybrid", "leap-cqm"]
BOTH_WAYS = r"dwave setup.*dwave config create.*DWAVE_API_TOKEN"


pytestmark = pytest.mark.usefixtures("no_dwave_credentials")  # nothing here can reach the cloud


def planted(n, m, operator="Or", seed=0, **kwargs):
    return depth_one(*planted_data(Or(Literal(0), Literal(1)), n, m, seed), operator, max_num_literals=2, **kwargs)


def mock_qpu(shape):
    return MockDWaveSampler(topology_type="pegasus", topology_shape=[shape], parameter_warnings=False)


# Credentials


@pytest.fixture
def cloud_clients(monkeypatch):
    """Ocean's cloud samplers replaced by stand-ins that log being built: nothing reaches the network."""
    built = []

    def stand_in(cls, make):
        def build(**config):
            built.append(cls)
            return make()
        monkeypatch.setattr(dwave, cls, build)

    stand_in("DWaveSampler", lambda: mock_qpu(4))
    stand_in("LeapHybridSampler", FakeHybrid)
    stand_in("LeapHybridCQMSampler", lambda: FakeCqmSampler(planted(8, 2)))
    return built


@pytest.mark.parametrize("name", CLOUD)
def test_missing_credentials_fail_at_once_naming_both_ways(name, cloud_clients):
    with pytest.raises(MissingCredentialsError, match=BOTH_WAYS):
        get_backend(name)
    assert cloud_clients == []  # refused before any client was built


@pytest.mark.parametrize("name", CLOUD)
def test_credentials_removed_before_solving_fail_at_once(name, monkeypatch, cloud_clients):
    monkeypatch.setenv("DWAVE_API_TOKEN", "not-a-real-token")
    backend = get_backend(name)
    monkeypatch.delenv("DWAVE_API_TOKEN")
    with pytest.raises(MissingCredentialsError, match=BOTH_WAYS):
        backend.solve(planted(8, 2))
    assert cloud_clients == []  # the client is built at the first solve, once a token is there


def test_a_token_in_the_config_file_or_the_environment_is_found(no_dwave_credentials, monkeypatch):
    assert issubclass(MissingCredentialsError, RuntimeError)
    with pytest.raises(MissingCredentialsError):
        require_token()
    no_dwave_credentials.write_text("[defaults]\ntoken = from-the-file\n")
    require_token()
    no_dwave_credentials.write_text("")
    monkeypatch.setenv("DWAVE_API_TOKEN", "from-the-environment")
    require_token()


# QPU through a mock Pegasus sampler


def test_qpu_path_runs_on_a_mock_pegasus_sampler():
    problem = planted(12, 3)
    backend = get_backend("dwave-qpu", sampler=mock_qpu(4), num_reads=20, annealing_time=20, chain_strength=2,
                          eta=False)
    result = backend.solve(problem)
    assert result.status == "feasible" and result.backend == "dwave-qpu"
    assert result.rule is not None
    assert result.objective == pytest.approx(problem.objective(result.rule))
    assert isinstance(result.raw, dimod.SampleSet) and result.raw.record.num_occurrences.sum() == 20
    assert "chain_break_fraction" in result.raw.record.dtype.names


def test_more_variables_than_qubits_is_refused_before_embedding(monkeypatch):
    problem = planted(30, 6)
    monkeypatch.setattr(minorminer, "find_embedding", lambda *args, **kwargs: pytest.fail("embedding tried"))
    with pytest.raises(ValueError, match=r"the QUBO has \d+ variables but the QPU MockDWaveSampler has only 40 "
                                         r"qubits; shrink the problem \(fewer samples and fewer features: "
                                         r"max_samples and max_features .*--max-features"):
        get_backend("dwave-qpu", sampler=mock_qpu(2), eta=True, slack="minimal").solve(problem)


def test_more_interactions_than_couplers_is_refused_before_embedding(monkeypatch):
    """Each interaction needs a coupler of its own: a QUBO with more cannot embed, and is refused
    before a search that would only run out its time-out."""
    problem = planted(30, 8, "AtLeast")
    qpu = mock_qpu(3)
    compile_options = {"eta": False, "penalty": "calibrated", "slack": "minimal"}
    bqm = problem.to_qubo(**compile_options).bqm  # as dwave-qpu compiles it with these options
    assert bqm.num_variables < 128 < bqm.num_interactions  # within the qubits, beyond the couplers
    assert bqm.num_interactions > len(qpu.edgelist)
    monkeypatch.setattr(minorminer, "find_embedding", lambda *args, **kwargs: pytest.fail("embedding tried"))
    assert_raises_clearly(ValueError, lambda: get_backend("dwave-qpu", sampler=qpu, **compile_options).solve(problem),
                          f"{bqm.num_interactions} interactions", f"only {len(qpu.edgelist)} couplers", "max_samples")


def test_an_embedding_minorminer_cannot_find_is_an_error_result(monkeypatch):
    problem = planted(16, 3)
    qpu = mock_qpu(3)
    monkeypatch.setattr(minorminer, "find_embedding", lambda *args, **kwargs: {})  # gave up within its time-out
    qpu.sample = lambda *args, **kwargs: pytest.fail("sampled without an embedding")
    result = get_backend("dwave-qpu", sampler=qpu, embedding_parameters={"timeout": 1}).solve(problem)
    assert result.status == "error" and result.rule is None
    assert result.message.startswith("backend 'dwave-qpu': sampling failed (InputError: minorminer found no "
                                     "embedding") and "search limited to 1 s" in result.message
    assert "too large or too dense for this QPU; shrink the problem" in result.message
    assert isinstance(result.error, ValueError)


def test_an_embedding_search_past_its_timeout_is_stopped_with_a_clear_error(monkeypatch, tmp_path):
    """minorminer checks its time-out only between phases (one search ran 150 s with timeout=60):
    the search runs in a child process, killed past the time-out, and the result says what to shrink."""
    problem = planted(16, 3)
    qpu = mock_qpu(3)
    monkeypatch.setattr(minorminer, "find_embedding", sleep_forever(tmp_path / "pid"))
    qpu.sample = lambda *args, **kwargs: pytest.fail("sampled without an embedding")
    options = {"embedding_parameters": {"timeout": 0.1}}
    result = get_backend("dwave-qpu", sampler=qpu, **options).solve(problem)
    assert result.status == "error" and result.rule is None and isinstance(result.error, ValueError)
    bqm = problem.to_qubo(eta="auto").bqm
    assert_clear_error(result.error, f"the embedding search of the QUBO's {bqm.num_variables} variables and "
                       f"{bqm.num_interactions} interactions into the QPU MockDWaveSampler (128 qubits) hit its 0.1 s "
                       "limit and was stopped", "max_samples and max_features", "leap-hybrid",
                       "larger timeout in embedding_parameters")
    assert_gone(tmp_path / "pid")
    assert options == {"embedding_parameters": {"timeout": 0.1}}


def test_embedding_parameters_without_a_timeout_are_searched_for_at_most_the_default(monkeypatch, tmp_path):
    searched = tmp_path / "parameters"  # the search runs in a child process: it leaves its parameters here

    def give_up(source, target, **params):
        searched.write_text(json.dumps(params))
        return {}

    monkeypatch.setattr(minorminer, "find_embedding", give_up)
    result = get_backend("dwave-qpu", sampler=mock_qpu(3), embedding_parameters={"tries": 2}).solve(planted(16, 3))
    assert "search limited to 60 s" in result.message
    assert json.loads(searched.read_text()) == {"tries": 2, "timeout": QPU_EMBEDDING_TIMEOUT}


def test_the_mock_qpu_embeds_as_minorminer_does_in_process():
    """The search in a child process is minorminer's with the same parameters: a seed gives the
    embedding minorminer gives in this process, which the sample set reports."""
    problem = planted(16, 4)
    result = get_backend("dwave-qpu", mock="pegasus", eta=False, num_reads=5).solve(problem, seed=3)
    bqm = problem.to_qubo(eta=False).bqm
    source = [*bqm.quadratic, *((v, v) for v in bqm.linear)]  # as EmbeddingComposite asks for it
    expected = minorminer.find_embedding(source, MockQpu("pegasus").edgelist, random_seed=3,
                                         timeout=QPU_EMBEDDING_TIMEOUT)
    embedding = result.raw.info["embedding_context"]["embedding"]
    assert expected and {v: list(chain) for v, chain in embedding.items()} == expected
    assert result.info["embedding"]["qubits"] == sum(map(len, expected.values()))


@pytest.mark.parametrize(
    "options, error, match",
    [
        ({"num_reads": 0}, ValueError, "num_reads must be >= 1"),
        ({"annealing_time": -1}, ValueError, "annealing_time must be >= 0"),
        ({"solver": 5}, TypeError, "solver must be a solver name or a dict"),
        ({"solver": "Advantage_system4.1", "sampler": "x"}, ValueError, "give solver or sampler, not both"),
        ({"penalty": "huge"}, ValueError, "penalty must be one of"),
        ({"embedding_parameters": 60}, TypeError, "embedding_parameters must be a dict"),
        ({"embedding_parameters": {"timeout": -1}}, ValueError, "embedding_parameters timeout must be >= 0"),
        ({"embedding_parameters": {"timeout": "60"}}, TypeError, "embedding_parameters timeout must be a number"),
        ({"embedding_parameters": {"timeout": 10**6}}, ValueError, r"embedding_parameters timeout must be <= 86400 s"),
    ],
)
def test_bad_qpu_options_are_named(options, error, match):
    with pytest.raises(error, match=match):
        get_backend("dwave-qpu", **options)


def test_the_sampler_cannot_be_swapped_per_call():
    backend = get_backend("dwave-qpu", sampler=mock_qpu(2))
    with pytest.raises(ValueError, match="sampler cannot be changed per call"):
        backend.solve(planted(8, 2), sampler=mock_qpu(3))


# Leap hybrid BQM solver, faked


def test_leap_hybrid_passes_the_time_limit_and_decodes():
    problem, fake = planted(20, 4), FakeHybrid()
    result = get_backend("leap-hybrid", sampler=fake, time_limit=5).solve(problem)
    assert fake.params == {"time_limit": 5.0}
    assert result.objective == pytest.approx(problem.objective(result.rule))
    get_backend("leap-hybrid", sampler=fake).solve(problem)
    assert fake.params == {}


# Leap hybrid CQM solver: the conversion, and decoding with a fake


def standard_form_violations(form, x):
    """How far A x lies outside [lower, upper], per row (the reference for the CQM's violations)."""
    ax = form.A @ x
    return np.maximum.reduce([form.lower - ax, ax - form.upper, np.zeros_like(ax)])


@pytest.mark.parametrize("operator", ["Or", "And", "AtLeast", "AtMost", "Choose"])
def test_cqm_round_trips_the_standard_form(operator):
    problem = planted(10, 3, operator, lam=0.1)
    form = problem.standard_form
    cqm = to_cqm(form)
    assert list(cqm.constraints) == form.row_names
    integer = [v for v in cqm.variables if cqm.vartype(v) is dimod.INTEGER]
    assert integer == (["k"] if problem.parameterized else [])
    rng = np.random.default_rng(1)
    feasible = []
    for _ in range(20):
        x = rng.integers(form.var_lower.astype(int), form.var_upper.astype(int) + 1).astype(float)
        values = problem.values_from_vector(x)
        for point in (x, feasible_point(problem, repair_values(problem, values["b"], values["bt"]))):
            sample = dict(zip(form.var_names, point))
            assert cqm.objective.energy(sample) == pytest.approx(form.c @ point + form.c0)
            expected = standard_form_violations(form, point)
            violations = cqm.violations(sample, clip=True)
            np.testing.assert_allclose([violations[row] for row in form.row_names], expected, atol=1e-9)
            assert cqm.check_feasible(sample) == (expected.max() <= 1e-9)
            feasible.append(cqm.check_feasible(sample))
    assert 0 < sum(feasible) < len(feasible)  # both kinds of points were checked


@pytest.mark.parametrize("operator", ["Or", "AtLeast", "Choose"])
def test_leap_cqm_decodes_the_optimum(operator):
    problem = planted(16, 3, operator)
    zeros = np.zeros(len(problem.standard_form.var_names))  # energy 0, infeasible: must not be chosen
    fake = FakeCqmSampler(problem, extra=[zeros])
    result = get_backend("leap-cqm", sampler=fake, time_limit=5).solve(problem)
    assert fake.params == {"time_limit": 5.0}
    assert result.status == "feasible", result.message
    assert result.objective == pytest.approx(get_backend("highs").solve(problem).objective)
    assert result.objective == pytest.approx(problem.objective(result.rule))
    assert result.solver_objective == pytest.approx(result.objective)
    assert isinstance(result.raw, dimod.SampleSet) and len(result.raw) == 2


def test_leap_cqm_without_a_feasible_sample_repairs_the_lowest_energy_one():
    problem = planted(16, 3, "AtLeast")
    everything = np.ones(len(problem.standard_form.var_names))  # every literal, both polarities: infeasible
    result = LeapCqmBackend(sampler=FakeCqmSampler(problem, [everything], include_optimum=False)).solve(problem)
    assert result.status == "feasible" and "no feasible sample among 1" in result.message
    assert len(result.rule.literals()) <= problem.max_num_literals
    assert result.objective == pytest.approx(problem.objective(result.rule))


# The real path is the default: with a token, the cloud samplers are built (once), here replaced at
# the network edge


def test_with_a_token_the_cloud_samplers_are_built_once(monkeypatch):
    monkeypatch.setenv("DWAVE_API_TOKEN", "not-a-real-token")
    problem, built = planted(12, 3), []

    def fake(cls, sampler):
        def make(**config):
            built.append((cls, config))
            return sampler
        monkeypatch.setattr(dwave, cls, make)

    fake("DWaveSampler", mock_qpu(4))
    fake("LeapHybridSampler", FakeHybrid())
    fake("LeapHybridCQMSampler", FakeCqmSampler(problem))
    qpu = get_backend("dwave-qpu", solver="Advantage_system4.1", eta=False, num_reads=10)
    for backend in (qpu, get_backend("leap-hybrid"), get_backend("leap-cqm")):
        for _ in range(2):
            result = backend.solve(problem)
            assert result.objective == pytest.approx(problem.objective(result.rule))
    assert built == [("DWaveSampler", {"solver": "Advantage_system4.1"}), ("LeapHybridSampler", {}),
                     ("LeapHybridCQMSampler", {})]


# Cloud failures surface when the answer is read (Ocean's sample sets are futures): an error result


@pytest.mark.parametrize("error, cause", [
    (PollingTimeout(), "PollingTimeout"),
    (SolverFailureError("time_limit must be at least 5.0"), "SolverFailureError: time_limit must be at least 5.0"),
], ids=["time-out", "solver-refusal"])
@pytest.mark.parametrize("name", CLOUD)
def test_cloud_failures_are_error_results_naming_the_backend(name, error, cause):
    if name == "dwave-qpu":
        sampler = mock_qpu(4)
        sampler.sample = Failing(error).sample
    else:
        sampler = Failing(error)
    result = get_backend(name, sampler=sampler).solve(planted(12, 3))
    assert result.status == "error" and result.rule is None
    assert result.message == f"backend {name!r}: sampling failed ({cause})"
    assert result.error is error


# Cloud clients are closed by whoever built them


@pytest.fixture
def hybrid_log(monkeypatch):
    """`LeapHybridSampler()` builds a fake client that logs being built and closed."""
    monkeypatch.setenv("DWAVE_API_TOKEN", "not-a-real-token")
    log = []
    monkeypatch.setattr(dwave, "LeapHybridSampler", lambda **config: ClosableHybrid(log))
    return log


def test_a_closed_backend_closes_its_client_and_can_solve_again(hybrid_log):
    problem = planted(12, 3)
    with get_backend("leap-hybrid") as backend:
        backend.solve(problem)
        backend.solve(problem, time_limit=5)  # a per-call copy shares the client
    assert hybrid_log == ["built", "closed"]
    backend.solve(problem)
    backend.close()
    backend.close()
    assert hybrid_log == ["built", "closed", "built", "closed"]


def test_an_injected_sampler_is_left_to_its_owner():
    sampler = ClosableHybrid([])
    with get_backend("leap-hybrid", sampler=sampler) as backend:
        backend.solve(planted(12, 3))
    assert sampler.log == ["built"]


def test_estimators_close_the_clients_of_the_backends_they_build(hybrid_log):
    from boolrules import DepthOneClassifier, RuleClassifier

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (60, 5), dtype=np.uint8)
    y = (X[:, 0] | X[:, 1]).astype(np.uint8)
    DepthOneClassifier(backend="leap-hybrid", max_num_literals=2).fit(X, y)
    assert hybrid_log == ["built", "closed"]
    hybrid_log.clear()
    clf = RuleClassifier(num_starts=2, num_iterations=20, patience=1, num_iterations_burn_in=5, random_state=0,
                         nonlocal_backend="leap-hybrid").fit(X, y)
    assert clf.nonlocal_stats_.calls > 0
    assert hybrid_log == ["built", "closed"]  # serial starts share one backend
    hybrid_log.clear()
    backend = get_backend("leap-hybrid")
    DepthOneClassifier(backend=backend, max_num_literals=2).fit(X, y)
    assert hybrid_log == ["built"]  # the caller's backend stays open
    backend.close()
    assert hybrid_log == ["built", "closed"]


@pytest.mark.parametrize("name", ["leap-hybrid", "leap-cqm"])
def test_a_time_limit_below_leaps_minimum_is_named_before_sampling(name):
    problem = planted(12, 3)
    sampler = WithMinimum(problem)
    with pytest.raises(ValueError, match=rf"time_limit=1.0 s is below {name}'s minimum of 3.0\d* s .*"
                                         r"give time_limit >= 3.0"):
        get_backend(name, sampler=sampler, time_limit=1).solve(problem)
    assert not hasattr(sampler, "params")  # nothing was sent
    result = get_backend(name, sampler=sampler, time_limit=5).solve(problem)
    assert sampler.params == {"time_limit": 5.0} and result.rule is not None


# The mock QPU, selected by name (mock="pegasus") or from TOML


CONFIGS = Path(__file__).resolve().parents[2] / "examples" / "configs"


def test_mock_qpu_from_toml_runs_offline_and_its_seed_repeats_a_run():
    """dwave-qpu-mock.toml needs no token (the fixture removed every credential); the whole QPU
    path runs (embedding, chains, unembedding); a seed repeats a run, another seed changes it."""
    backend = load_backend(CONFIGS / "dwave-qpu-mock.toml")
    problem = planted(16, 4)
    runs = [backend.solve(problem, seed=seed, num_reads=20) for seed in (1, 1, 2)]
    for result in runs:
        assert result.status == "feasible" and result.rule == Or(Literal(0), Literal(1))
        assert "chain_break_fraction" in result.raw.record.dtype.names
        embedding = result.info["embedding"]  # reported as the real QPU's result reports it
        assert embedding["variables"] == result.raw.record.sample.shape[1]
        assert embedding["qubits"] >= embedding["variables"] and embedding["max_chain_length"] >= 1
        assert embedding["chain_strength"] > 0
        assert set(result.info["chain_break_fraction"]) == {"lowest_energy", "mean"}
    assert np.array_equal(runs[0].raw.record.sample, runs[1].raw.record.sample)
    assert not np.array_equal(runs[0].raw.record.sample, runs[2].raw.record.sample)


@pytest.mark.parametrize("topology", list(QPU_TOPOLOGIES))
def test_the_mock_qpu_has_the_graph_of_its_system(topology):
    shape, qubits, couplers, _ = QPU_TOPOLOGIES[topology]
    qpu = MockQpu(topology)
    assert (len(qpu.nodelist), len(qpu.edgelist)) == (qubits, couplers)
    assert qpu.properties["topology"] == {"type": topology, "shape": shape}


def test_the_mock_is_refused_clearly_with_a_cloud_solver_or_an_unknown_topology():
    with pytest.raises(ValueError, match="mock must be one of pegasus, zephyr .*got 'chimera'"):
        get_backend("dwave-qpu", mock="chimera")
    with pytest.raises(ValueError, match="give mock or sampler, not both"):
        get_backend("dwave-qpu", mock="pegasus", sampler=mock_qpu(2))
    with pytest.raises(MissingCredentialsError):  # without mock, the real QPU still needs its token
        get_backend("dwave-qpu", num_reads=10)
