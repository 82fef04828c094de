"""Any dimod sampler as a backend: instances, `package.module:ClassName` configs, their options and mistakes."""

import dimod
import numpy as np
import pytest
from dwave.samplers import SimulatedAnnealingSampler

from boolrules import DepthOneClassifier
from boolrules.backends import SamplerBackend, get_backend
from boolrules.backends.config import check_backend_spec, load_backend
from boolrules.formulations import depth_one
from boolrules.rules import Literal, Or

from ..errors import assert_raises_clearly
from ..fakes import Clock, FakeHybrid, Slow, SlowOnTheClock
from ..formulations.tiny import tiny
from ..planted import planted

CALIBRATED_MINIMAL = {"eta": False, "penalty": "calibrated", "slack": "minimal"}  # the presets' until issue 23


def write(tmp_path, text: str):
    path = tmp_path / "sampler.toml"
    path.write_text(text)
    return path


# Plain dimod samplers, end to end


@pytest.mark.parametrize("sampler, options", [
    (dimod.SimulatedAnnealingSampler(), {"num_reads": 4, "num_sweeps": 50}),  # dimod's reference annealer: pure Python
    (dimod.RandomSampler(), {"num_reads": 20}),
    (SimulatedAnnealingSampler(), {"num_reads": 10, "num_sweeps": 200, "seed": 0}),
], ids=["dimod-sa", "dimod-random", "dwave-samplers-sa"])
def test_a_dimod_sampler_solves_a_depth_one_problem(or_problem, sampler, options):
    backend = get_backend(sampler, **options)
    result = backend.solve(or_problem)
    assert result.status == "feasible" and result.backend == type(sampler).__name__
    assert result.objective == pytest.approx(or_problem.objective(result.rule))
    assert isinstance(result.raw, dimod.SampleSet) and len(result.raw) == options["num_reads"]
    assert set(result.raw.variables) == set(or_problem.to_qubo().bqm.variables)  # to_qubo's defaults: with η


@pytest.mark.parametrize("operator, seed", [("Or", 0), ("AtLeast", 2)])
def test_dimods_exact_solver_finds_the_ilp_optimum(operator, seed):
    problem = tiny(operator, seed, max_vars=16)
    result = get_backend(dimod.ExactSolver()).solve(problem)
    assert result.objective == pytest.approx(get_backend("highs").solve(problem).objective)
    assert len(result.raw) == 2 ** problem.to_qubo().num_variables  # every state came back


def test_a_sampler_instance_samples_as_its_preset_does(or_problem):
    """The sa preset is dwave-samplers' annealer with defaults: the same seed, the same samples."""
    options = {"num_reads": 20, "num_sweeps": 300, "seed": 5, **CALIBRATED_MINIMAL}
    plain = get_backend(SimulatedAnnealingSampler(), **options).solve(or_problem)
    preset = get_backend("sa", **options).solve(or_problem)
    np.testing.assert_array_equal(plain.raw.record.sample, preset.raw.record.sample)
    assert plain.rule == preset.rule


def test_capabilities_are_the_samplers_parameters():
    """"seed" where the sampler takes one; "time_limit" where it takes one, or takes num_reads;
    "depth_two" always (a depth-two problem compiles to a QUBO like a depth-one one), and "polish"
    (the decoding's)."""
    assert get_backend(SimulatedAnnealingSampler()).capabilities == {"seed", "time_limit", "depth_two", "polish"}
    assert get_backend(dimod.ExactSolver()).capabilities == {"depth_two", "polish"}
    # dimod's RandomSampler takes a seed its `parameters` do not declare: its signature says so
    assert get_backend(dimod.RandomSampler()).capabilities == {"seed", "time_limit", "depth_two", "polish"}
    assert get_backend(FakeHybrid()).capabilities == {"time_limit", "depth_two", "polish"}


class Undeclared(dimod.Sampler):
    """A minimal sampler, as OpenJij's are: its `parameters` declare nothing, its `sample` takes
    reads, sweeps and a seed by other names than dwave-samplers' besides."""

    parameters = {}
    properties = {}

    def sample(self, bqm, num_reads=1, num_sweeps=10, seed=None, shots=None):
        rng = np.random.default_rng(seed)
        reads = shots or num_reads
        states = rng.integers(0, 2, (reads, len(bqm.variables)))
        return dimod.SampleSet.from_samples_bqm((states, list(bqm.variables)), bqm)


def planted_or():
    return planted(Or(Literal(0), Literal(1)), 30, 3)


def test_a_sampler_that_declares_no_parameters_takes_those_its_sample_names():
    """Options a sampler's `sample` names are accepted (seed, num_reads, its own), capabilities
    follow (seed, and time_limit by batches of num_reads); names it has not are still refused."""
    problem = depth_one(*planted_or(), "Or", max_num_literals=2)
    backend = get_backend(Undeclared(), num_reads=30, num_sweeps=5, seed=3, shots=40)
    assert {"seed", "time_limit"} <= backend.capabilities
    result = backend.solve(problem)
    assert result.status == "feasible" and len(result.raw) == 40
    assert np.array_equal(backend.solve(problem).raw.record.sample, result.raw.record.sample)  # seeded
    assert_raises_clearly(ValueError, lambda: get_backend(Undeclared(), beta_range=[1, 2]), "beta_range", "options")


def test_openjij_takes_reads_sweeps_and_seed():
    """OpenJij's SASampler declares only beta_min and beta_max, yet takes num_reads, num_sweeps and
    seed: all are passed (it ran with one read before), and a seed repeats a run."""
    import openjij

    problem = depth_one(*planted_or(), "Or", max_num_literals=2)
    backend = get_backend(openjij.SASampler(), num_reads=20, num_sweeps=200, seed=7)
    first, again = backend.solve(problem), backend.solve(problem)
    assert len(first.raw) == 20 and first.status == "feasible"
    assert np.array_equal(first.raw.record.sample, again.raw.record.sample)
    assert backend.solve(problem, time_limit=10).status == "feasible"


def test_an_unseeded_sampler_follows_the_classifiers_random_state():
    X = np.random.default_rng(0).integers(0, 2, (40, 5), dtype=np.uint8)
    y = (X[:, 0] | X[:, 1]).astype(np.uint8)

    def samples(random_state):
        clf = DepthOneClassifier(backend=SimulatedAnnealingSampler(), max_num_literals=2, random_state=random_state)
        return clf.fit(X, y).result_.raw.record.sample

    assert np.array_equal(samples(1), samples(1)) and not np.array_equal(samples(1), samples(2))


class Counting(dimod.Sampler):
    """dwave-samplers' annealer, counting how often one is built."""

    built = 0
    parameters, properties = SimulatedAnnealingSampler().parameters, {}

    def __init__(self):
        type(self).built += 1
        self.sampler = SimulatedAnnealingSampler()

    def sample(self, bqm, **params):
        return self.sampler.sample(bqm, **params)


def test_per_call_options_are_checked_without_rebuilding(or_problem):
    backend = SamplerBackend(Counting, num_reads=3, num_sweeps=20, seed=1)
    assert Counting.built == 1
    assert len(backend.solve(or_problem, num_reads=5).raw) == 5
    copy = backend.with_options(num_reads=2)
    assert len(copy.solve(or_problem).raw) == 2 and backend.options()["num_reads"] == 3
    with pytest.raises(ValueError, match="num_reads must be >= 1"):
        backend.solve(or_problem, num_reads=0)
    assert Counting.built == 1
    backend.close()
    assert len(backend.solve(or_problem).raw) == 3 and Counting.built == 2  # closed: built again when needed


# TOML configs naming a sampler class


def test_a_config_naming_dimods_exact_solver_finds_the_ilp_optimum(tmp_path):
    problem = tiny("Or", 0, max_vars=16)
    backend = load_backend(write(tmp_path, '[backend]\nsampler = "dimod:ExactSolver"\n'))
    assert backend.name == "ExactSolver" and backend.options()["penalty"] == "sufficient"
    result = backend.solve(problem)
    assert result.objective == pytest.approx(get_backend("highs").solve(problem).objective)


def test_a_config_naming_dwave_samplers_annealer_samples_as_sa_does(tmp_path, or_problem):
    path = write(tmp_path, '[backend]\nsampler = "dwave.samplers:SimulatedAnnealingSampler"\nnum_reads = 20\n'
                           'num_sweeps = 300\nseed = 5\n')  # the compiler's default, as the preset's
    check_backend_spec(path)
    result = load_backend(path).solve(or_problem)
    preset = get_backend("sa", num_reads=20, num_sweeps=300, seed=5).solve(or_problem)
    np.testing.assert_array_equal(result.raw.record.sample, preset.raw.record.sample)
    assert result.objective == preset.objective


def test_the_sampler_table_holds_the_constructors_arguments(tmp_path, or_problem):
    path = write(tmp_path, '[backend]\nsampler = "dimod:NullSampler"\nnum_reads = 3\n'
                           '[sampler]\nparameters = ["num_reads"]\n')
    backend = load_backend(path)
    assert backend.parameters == ("num_reads",)
    result = backend.solve(or_problem)  # NullSampler returns no samples
    assert result.status == "error" and result.message.startswith("backend 'NullSampler': unusable samples")


@pytest.mark.parametrize("text, match", [
    ('sampler = "no_such_module:Sampler"', r"cannot import 'no_such_module'"),
    ('sampler = "dimod:NoSuchSampler"', r"module 'dimod' has no 'NoSuchSampler'"),
    ('sampler = "dimod:BinaryQuadraticModel"', r"is not a dimod Sampler class"),
    ('sampler = "dimod.ExactSolver"', r"sampler must name a class as 'package.module:ClassName'"),
    ('sampler = "dimod:ExactSolver"\n[sampler]\nseed = 1', r"\[sampler\] does not fit ExactSolver\(\)"),
    ('sampler = "dwave.samplers:SimulatedAnnealingSampler"\nnum_reads = 0', r"num_reads must be >= 1"),
    ('sampler = "dimod:ExactSolver"\n[qubo]\npenalty = "huge"', r"penalty must be one of"),
    ('sampler = "dimod:ExactSolver"\nname = "sa"', r"both name and sampler"),
    ('name = "sa"\n[sampler]\nseed = 1', r"\[sampler\] holds the constructor's keyword arguments"),
])
def test_bad_sampler_configs_are_named_before_building(tmp_path, text, match):
    path = write(tmp_path, "[backend]\n" + text + "\n")
    with pytest.raises(ValueError, match=match) as checked:
        check_backend_spec(path)
    assert str(path) in str(checked.value)
    with pytest.raises(ValueError, match=match):
        load_backend(path)


def test_an_unknown_parameter_is_named_when_the_sampler_is_built(tmp_path):
    path = write(tmp_path, '[backend]\nsampler = "dimod:ExactSolver"\nnum_reads = 3\n')
    check_backend_spec(path)  # a sampler's parameters are known once it is built
    with pytest.raises(ValueError, match=r"sampler = 'dimod:ExactSolver'.*unknown option\(s\) \['num_reads'\] for "
                                         r"backend 'ExactSolver'; options: eta, penalty, slack"):
        load_backend(path)


@pytest.mark.parametrize("call, error, names", [
    (lambda: get_backend(dimod.ExactSolver(), num_reads=3), ValueError, ("num_reads", "ExactSolver")),
    (lambda: get_backend(SimulatedAnnealingSampler(), num_sweeps=0), ValueError, ("num_sweeps",)),
    (lambda: get_backend(SimulatedAnnealingSampler(), seed=2**40), ValueError, ("seed",)),
    (lambda: get_backend(SimulatedAnnealingSampler(), beta_range="hot"), ValueError, ("beta_range",)),
    (lambda: get_backend(dimod.RandomSampler(), slack="wide"), ValueError, ("slack",)),
    (lambda: SamplerBackend("dimod:ExactSolver"), TypeError, ("sampler", "dimod Sampler")),
])
def test_bad_sampler_options_are_named(call, error, names):
    assert_raises_clearly(error, call, *names)


# The error policy end to end: a failed solve is an error result, a classifier's RuntimeError, exit status 1


def test_a_failed_solve_reaches_the_classifier_and_the_command_line(tmp_path, capsys):
    from boolrules.cli import main

    path = write(tmp_path, '[backend]\nsampler = "dimod:NullSampler"\n')  # answers with no samples
    X = np.random.default_rng(0).integers(0, 2, (20, 4), dtype=np.uint8)
    with pytest.raises(RuntimeError, match=r"backend 'NullSampler' returned no rule \(status error: backend "
                                           r"'NullSampler': unusable samples") as raised:
        DepthOneClassifier(backend=str(path), max_num_literals=2).fit(X, X[:, 0] | X[:, 1])
    assert isinstance(raised.value.__cause__, ValueError)
    assert main(["solve", "--config", str(path), "--max-samples", "30", "--max-num-literals", "2"]) == 1
    assert "backend 'NullSampler': unusable samples" in capsys.readouterr().err


# A time limit for samplers that take num_reads: reads in batches


def test_a_time_limit_stops_sampling_between_batches(or_problem, monkeypatch):
    """100 reads of 20 ms with 0.2 s, on a scripted clock (so a busy machine cannot eat the time
    limit before the first batch): the reads stop between batches well before the 100, the
    samples of every read made are kept, and the result says it was cut."""
    from boolrules.backends import base, sampler

    clock = Clock(tick=0.0)
    for module in (base, sampler):
        monkeypatch.setattr(module, "time", clock)
    slow = SlowOnTheClock(0.02, clock)
    result = get_backend(slow, num_reads=100).solve(or_problem, time_limit=0.2)
    assert result.status == "time_limit" and result.rule is not None
    reads = sum(slow.calls)
    assert 1 < len(slow.calls) and reads < 100
    assert len(result.raw) == reads and f"from {reads} of 100 reads" in result.message
    assert slow.calls[0] == 1 and all(b <= a for a, b in zip(np.cumsum(slow.calls), slow.calls[1:]))  # at most doubling


def test_batched_sampling_keeps_each_batchs_info(or_problem):
    """dimod.concatenate drops `info`; each batch's own (here SA's beta_range) is kept, in order."""
    result = get_backend("sa", num_reads=40, num_sweeps=200, seed=0).solve(or_problem, time_limit=60)
    batches = result.info["batches"]
    assert len(batches) > 1 and all("beta_range" in info for info in batches)


def test_reads_that_fit_the_time_limit_all_run(or_problem):
    slow = Slow(0.0)
    result = get_backend(slow, num_reads=50).solve(or_problem, time_limit=60)
    assert result.status == "feasible" and sum(slow.calls) == 50 == len(result.raw)
    assert result.message.startswith("50 samples from 50 of 50 reads; ")  # not cut: no "(time limit ...)"


def test_without_a_time_limit_one_call_makes_every_read(or_problem):
    slow = Slow(0.0)
    result = get_backend(slow, num_reads=30).solve(or_problem)
    assert slow.calls == [30] and result.status == "feasible"
    assert result.message.startswith("30 samples; ") and "reads" not in result.message


def test_a_time_limit_of_zero_makes_one_read(or_problem):
    slow = Slow(0.0)
    result = get_backend(slow, num_reads=30).solve(or_problem, time_limit=0)
    assert slow.calls == [1] and result.status == "time_limit"


def test_batches_with_a_seed_repeat(or_problem):
    """A seeded sampler's batches draw their seeds from it: the same reads in the same batches,
    the same samples; each batch has its own seed, so no batch repeats another's reads."""
    slow = Slow(0.0)
    get_backend(slow, num_reads=20, seed=3).solve(or_problem, time_limit=60)
    assert len(slow.calls) > 2 and len(set(slow.seeds)) == len(slow.seeds) and None not in slow.seeds
    backend = get_backend("sa", num_reads=8, num_sweeps=20, seed=4)
    runs = [backend.solve(or_problem, time_limit=60).raw.record.sample for _ in range(2)]
    np.testing.assert_array_equal(*runs)
    assert len(runs[0]) == 8


def test_the_sa_preset_and_configs_take_a_time_limit(tmp_path):
    assert get_backend("sa", time_limit=2).options()["time_limit"] == 2
    path = tmp_path / "sa.toml"
    path.write_text('[backend]\nname = "tabu"\ntime_limit = 0.5\n')
    check_backend_spec(str(path))
    assert load_backend(path).options()["time_limit"] == 0.5
    assert_raises_clearly(ValueError, lambda: get_backend("sa", time_limit=-1), "time_limit")
    assert_raises_clearly(ValueError, lambda: get_backend("exact", time_limit=1), "time_limit")


def test_a_qpu_takes_no_time_limit(no_dwave_credentials):
    """The QPU's reads never go in batches: each call embeds and queues anew."""
    from boolrules.backends.dwave import DWAVE_QPU

    assert not DWAVE_QPU.batched(DWAVE_QPU.parameters)
    assert_raises_clearly(ValueError, lambda: DWAVE_QPU.check("dwave-qpu", {"time_limit": 1}), "time_limit")
