"""What a backend's result says the solver did: the stages of a sampler's answer (raw, repaired,
polished), the `polish` option from Python, TOML and per call, sampler info and timing."""

import dimod
import numpy as np
import pytest
from dwave.system.testing import MockDWaveSampler

from boolrules import load_dataset
from boolrules.backends import get_backend
from boolrules.backends.base import Result
from boolrules.backends.config import check_backend_spec, load_backend
from boolrules.formulations import depth_one
from boolrules.formulations.qubo_problem import Stage
from boolrules.formulations.repair import feasible_point
from boolrules.rules import Literal, Or

from ..errors import assert_raises_clearly
from ..planted import planted

FEW_SWEEPS = {"num_reads": 5, "num_sweeps": 10, "seed": 2}


@pytest.fixture(scope="module")
def problem():
    """60 Breast Cancer rows, every 5th of its binary features: SA with 5 reads of 10 sweeps (seed 2)
    stops short, and polish helps."""
    data = load_dataset("breast_cancer", paper_layout=True)
    rows = np.random.default_rng(0).choice(len(data.y), 60, replace=False)
    return depth_one(data.X[rows][:, ::5], data.y[rows], "AtLeast", max_num_literals=4, lam=0.01)


def poor_sample(problem, qubo):
    """The sample of a valid rule that polish improves: AtLeast1(f1, f2)."""
    m = problem.num_features
    values = {"b": np.eye(m, dtype=int)[1] + np.eye(m, dtype=int)[2], "bt": np.zeros(m, int), "k": 1}
    return qubo.sample_from_vector(feasible_point(problem, values))


def test_a_samplers_result_reports_each_stage_with_its_objective(problem):
    result = get_backend("sa", **FEW_SWEEPS).solve(problem)
    assert list(result.stages) == ["raw", "repaired", "polished"] and result.stage == "polished"
    assert result.rule == result.stages["polished"].rule and result.objective == result.stages["polished"].objective
    for stage in result.stages.values():
        assert stage.rule is None or stage.objective == pytest.approx(problem.objective(stage.rule))
    qubo = problem.to_qubo()  # the sa preset's compilation: the compiler's default
    assert result.stages == qubo.decode_stages(result.raw).stages
    assert result.solver_objective == pytest.approx(float(qubo.energy(result.raw).min()))
    feasible = int(qubo.feasible(result.raw).sum())
    raw = result.stages["raw"]
    shown = f"{raw.objective:.6g}" if raw.feasible else "infeasible"
    assert result.message == (f"5 samples; {feasible} feasible; objective: raw (lowest energy) {shown}, repaired "
                              f"{result.stages['repaired'].objective:.6g}, polished {result.objective:.6g} (the rule)")
    assert set(result.timing) == {"compile", "sample", "decode", "polish"}
    assert min(result.timing.values()) >= 0 and sum(result.timing.values()) <= result.seconds
    assert "beta_range" in result.info  # dwave-samplers' own info is kept


def test_polish_false_reports_the_repaired_rule_where_polish_would_change_it(problem):
    polished = get_backend("sa", **FEW_SWEEPS).solve(problem)
    assert polished.objective < polished.stages["repaired"].objective - 1e-9  # polish changes this one
    for backend, options in [(get_backend("sa", polish=False, **FEW_SWEEPS), {}),
                             (get_backend("sa", **FEW_SWEEPS), {"polish": False}),
                             (get_backend("sa", **FEW_SWEEPS).with_options(polish=False), {})]:
        result = backend.solve(problem, **options)
        np.testing.assert_array_equal(result.raw.record.sample, polished.raw.record.sample)  # the same samples
        assert result.stage == "repaired" and list(result.stages) == ["raw", "repaired"]
        repaired = polished.stages["repaired"]
        assert (result.rule, result.objective) == (repaired.rule, repaired.objective)
        assert "polish" not in result.timing and "polished" not in result.message
        assert result.message.endswith("(the rule)") and "repaired" in result.message.split(";")[-1]


def test_polish_false_on_a_hand_made_sample_keeps_the_samples_literals(problem):
    """A feasible sample of a poor rule through a sampler that returns it as is: without polish the
    rule has the sample's literals (with the best k); with polish, a better rule."""
    qubo = problem.to_qubo()  # an instance sampler's default compilation: with η, sufficient penalties
    sample = poor_sample(problem, qubo)
    identity = dimod.IdentitySampler()
    initial = {"initial_states": (sample[None, :], qubo.labels), "num_reads": 1}
    raw_only = get_backend(identity, polish=False, **initial).solve(problem)
    assert raw_only.stages["raw"].feasible and str(raw_only.stages["raw"].rule) == "AtLeast1(f1, f2)"
    assert sorted(map(str, raw_only.rule.literals())) == ["f1", "f2"] and raw_only.stage == "repaired"
    polished = get_backend(identity, **initial).solve(problem)
    assert polished.stage == "polished" and polished.objective < raw_only.objective - 1e-9
    assert polished.stages["repaired"] == raw_only.stages["repaired"]


def test_the_exact_backend_and_depth_two_problems_take_polish(problem):
    small = depth_one(*planted(Or(Literal(0)), 6, 2, 0), "Or", max_num_literals=1)
    result = get_backend("exact", polish=False).solve(small)
    assert result.stage == "repaired" and result.stages["raw"].feasible  # the ground state is a rule as it stands
    assert result.objective == pytest.approx(get_backend("highs").solve(small).objective)
    from boolrules.formulations import depth_two

    X, y = planted(Or(Literal(0), Literal(3)), 40, 5, 1)
    two = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    for polish in (True, False):
        result = get_backend("sa", polish=polish, **FEW_SWEEPS).solve(two)
        assert result.stage == ("polished" if polish else "repaired")
        for stage in result.stages.values():
            assert stage.rule is None or stage.objective == pytest.approx(two.objective(stage.rule))


def test_ilp_and_native_results_are_their_own_solution_as_is(problem):
    for name in ("highs", "native"):
        result = get_backend(name).solve(problem)
        assert result.stage == "raw" and result.stages == {"raw": Stage(result.rule, result.objective, True)}
    failed = Result(None, None, "error", 0.0, "x")
    assert failed.stage is None and failed.stages == {}


def test_leap_cqm_says_when_it_repaired():
    from boolrules.backends.dwave import LeapCqmBackend

    from ..fakes import FakeCqmSampler

    problem = depth_one(*planted(Or(Literal(0), Literal(1)), 16, 3, 0), "AtLeast", max_num_literals=2)
    everything = np.ones(len(problem.standard_form.var_names))  # every literal, both polarities: infeasible
    repaired = LeapCqmBackend(sampler=FakeCqmSampler(problem, [everything], include_optimum=False)).solve(problem)
    assert repaired.stage == "repaired" and repaired.stages["raw"] == Stage(None, None, False)
    assert repaired.stages["repaired"] == Stage(repaired.rule, repaired.objective, True)
    as_is = LeapCqmBackend(sampler=FakeCqmSampler(problem, [everything])).solve(problem)
    assert as_is.stage == "raw" and list(as_is.stages) == ["raw"]


def test_leap_cqm_without_a_feasible_sample_repairs_the_best_not_the_lowest_energy_one():
    """Decoded as every sampler's samples are (`decode_samples`): with none feasible, the repaired
    stage is the best sample repaired, here the optimum with its error marks cleared (infeasible,
    energy above the all-zero sample's 0), not the all-zero sample, whose repair is worse."""
    from boolrules.backends.dwave import LeapCqmBackend

    from ..fakes import FakeCqmSampler

    X, y = planted(Or(Literal(0), Literal(1)), 40, 4, 0)
    y = y.copy()
    y[:3] ^= 1  # label noise: the optimum misclassifies some rows (η = 1 there)
    problem = depth_one(X, y, "AtLeast", max_num_literals=2)
    names = problem.standard_form.var_names
    optimum = get_backend("highs").solve(problem)
    cleared = np.where([name.startswith("eta") for name in names], 0, optimum.raw)  # error rows now violated
    zeros = np.zeros(len(names))
    result = LeapCqmBackend(sampler=FakeCqmSampler(problem, [zeros, cleared], include_optimum=False)).solve(problem)
    assert result.stage == "repaired" and result.stages["raw"] == Stage(None, None, False)
    assert result.objective == pytest.approx(optimum.objective)
    assert optimum.objective < problem.objective(problem.decode(problem.repair_values(problem.values_from_vector(zeros))))


@pytest.mark.parametrize("name", ["highs", "native"])
def test_backends_that_do_not_polish_refuse_the_option(name):
    assert "polish" not in get_backend(name).capabilities
    assert_raises_clearly(ValueError, lambda: get_backend(name, polish=False), "polish", name)


def test_polish_must_be_a_bool(problem):
    assert_raises_clearly(TypeError, lambda: get_backend("sa", polish="no"), "polish")
    assert_raises_clearly(TypeError, lambda: get_backend("tabu").solve(problem, polish=1), "polish")


# TOML


@pytest.mark.parametrize("text", [
    '[backend]\nname = "sa"\nnum_reads = 5\nnum_sweeps = 10\nseed = 2\npolish = false\n',
    '[backend]\nsampler = "dwave.samplers:SimulatedAnnealingSampler"\nnum_reads = 5\nnum_sweeps = 10\nseed = 2\n'
    'polish = false\n',
], ids=["named", "sampler-class"])
def test_polish_false_in_a_config_reaches_the_backend(tmp_path, problem, text):
    path = tmp_path / "backend.toml"
    path.write_text(text)
    check_backend_spec(path)
    backend = load_backend(path)
    assert backend.options()["polish"] is False
    result = backend.solve(problem)
    assert result.stage == "repaired"
    expected = get_backend("sa", **FEW_SWEEPS).solve(problem).stages["repaired"]
    assert (result.rule, result.objective) == (expected.rule, expected.objective)
    path.write_text(text.replace("polish = false\n", ""))
    assert load_backend(path).options()["polish"] is True  # the default


@pytest.mark.parametrize("text, match", [
    ('[backend]\nname = "sa"\npolish = "no"\n', "polish must be"),
    ('[backend]\nname = "highs"\npolish = false\n', "unknown option.*polish.*highs"),
    ('[backend]\nsampler = "dwave.samplers:SimulatedAnnealingSampler"\npolish = 0\n', "polish must be"),
    ('[backend]\nname = "sa"\n[qubo]\npolish = false\n', r"unknown key\(s\) \['polish'\] in \[qubo\]"),
])
def test_a_bad_polish_in_a_config_is_named(tmp_path, text, match):
    path = tmp_path / "backend.toml"
    path.write_text(text)
    for check in (check_backend_spec, load_backend):
        with pytest.raises((ValueError, TypeError), match=match):
            check(path)


# D-Wave: a mock QPU


def test_the_qpus_timing_embedding_and_chain_breaks_are_kept():
    problem = depth_one(*planted(Or(Literal(0), Literal(1)), 12, 3, 0), "Or", max_num_literals=2)
    qpu = MockDWaveSampler(topology_type="pegasus", topology_shape=[4], parameter_warnings=False)
    result = get_backend("dwave-qpu", sampler=qpu, num_reads=20, eta=False, chain_strength=2).solve(problem)
    qubo = problem.to_qubo(eta=False)  # as the dwave-qpu preset compiles it with eta=False
    info = result.info
    assert {"qpu_access_time", "qpu_anneal_time_per_sample", "qpu_programming_time"} <= set(info["timing"])
    embedding = result.raw.info["embedding_context"]["embedding"]
    chains = [len(embedding[v]) for v in qubo.labels]  # a chain for every QUBO variable
    assert info["embedding"]["variables"] == qubo.num_variables
    assert info["embedding"]["qubits"] == sum(chains) >= qubo.num_variables
    assert info["embedding"]["max_chain_length"] == max(chains) and info["embedding"]["chain_strength"] == 2
    assert info["embedding"]["seconds"] >= 0
    fractions = result.raw.record.chain_break_fraction
    reads = result.raw.record.num_occurrences
    assert info["chain_break_fraction"]["mean"] == pytest.approx(np.repeat(fractions, reads).mean())
    assert 0 <= info["chain_break_fraction"]["lowest_energy"] <= 1
    assert result.stage == "polished" and set(result.timing) == {"compile", "sample", "decode", "polish"}
    unpolished = get_backend("dwave-qpu", sampler=qpu, num_reads=20, eta=False, polish=False).solve(problem)
    assert unpolished.stage == "repaired"


def test_a_samplers_info_without_embedding_is_kept_as_is(problem):
    result = get_backend(dimod.RandomSampler(), num_reads=3).solve(problem)
    assert result.info == dict(result.raw.info) and "embedding" not in result.info
