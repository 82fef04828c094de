"""`QuboProblem.decode_stages`: the raw sample, the repaired rule and the polished rule, each with
the problem's own objective, and `QuboProblem.feasible` against a plain reference."""

import functools
import itertools

import dimod
import numpy as np
import pytest
from dwave.samplers import SimulatedAnnealingSampler

from boolrules.exceptions import FormatError
from boolrules.formulations import depth_one, depth_two
from boolrules.formulations.qubo_problem import STAGES, Stage
from boolrules.rules import Literal

from ..errors import assert_raises_clearly
from ..reference import depth_one_predictions
from .tiny import tiny

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]


def reference_feasible(problem, values) -> np.ndarray:
    """Per selection in `values` (a list of {"b", "bt", "k"}): a depth-one selection is a rule as it
    stands: literal count within the bounds, no feature both plain and negated (with exclusive
    literals), k at most the literal count."""
    b = np.array([v["b"] for v in values], dtype=np.int64)
    bt = np.array([v["bt"] for v in values], dtype=np.int64)
    size = b.sum(axis=1) + bt.sum(axis=1)
    feasible = (problem.min_num_literals <= size) & (size <= problem.max_num_literals)
    if problem.exclusive_literals:
        feasible &= ~(b & bt).any(axis=1)
    if problem.parameterized:
        feasible &= np.array([v["k"] for v in values]) <= size
    return feasible


def reference_objective(problem, values, size=None) -> float:
    """Σ w_i [error_i] + λ L of the selection `values` with its own k, written out plainly; L is
    `size` when given (decoding turns a constant operator over one literal into a constant)."""
    literals = [Literal(int(j)) for j in np.flatnonzero(values["b"])]
    literals += [Literal(int(j), negated=True) for j in np.flatnonzero(values["bt"])]
    predicted = depth_one_predictions(problem.X, problem.operator, literals, values.get("k"))
    errors = predicted != (problem.y.astype(bool) != problem.negated)
    return float(errors @ problem.weights + problem.lam * (len(literals) if size is None else size))


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("eta", [True, False])
@pytest.mark.parametrize("kwargs", [{}, {"min_num_literals": 1, "lam": 0.25}, {"negated": True}])
def test_feasible_is_the_reference_on_every_state(operator, eta, kwargs):
    """Every state of a tiny QUBO (2^16 random ones beyond 16 variables): feasible exactly when its
    rule variables are a rule as they stand, and then the raw stage of that one sample is that rule
    with the reference's objective."""
    problem = tiny(operator, 0, **kwargs)
    qubo = problem.to_qubo(eta=eta)
    if qubo.num_variables <= 16:
        states = np.array(list(itertools.product((0, 1), repeat=qubo.num_variables)), dtype=np.int8)
    else:
        states = np.random.default_rng(0).integers(0, 2, (2**16, qubo.num_variables), dtype=np.int8)
    values = qubo.variable_values(states)
    expected = reference_feasible(problem, values)
    np.testing.assert_array_equal(qubo.feasible(states), expected)
    assert expected.any() and not expected.all()
    for i in np.flatnonzero(expected)[:: max(1, expected.sum() // 12)]:
        raw = qubo.decode_stages(states[i], polish=False).stages["raw"]
        kept = raw.rule.literals()
        assert len(kept) == int(values[i]["b"].sum() + values[i]["bt"].sum()) or len(kept) == 0
        assert raw.feasible and raw.objective == pytest.approx(reference_objective(problem, values[i], len(kept)))
        assert raw.objective == pytest.approx(problem.objective(raw.rule))
    for i in np.flatnonzero(~expected)[:5]:
        assert qubo.decode_stages(states[i]).stages["raw"] == Stage(None, None, False)


def few_sweeps(qubo, seed=1):
    return SimulatedAnnealingSampler().sample(qubo.bqm, num_reads=5, num_sweeps=10, seed=seed)


@functools.cache
def breast_cancer(n=60, m=8):
    from boolrules import load_dataset

    data = load_dataset("breast_cancer", paper_layout=True)
    rows = np.random.default_rng(0).choice(len(data.y), n, replace=False)
    return data.X[rows][:, :m], data.y[rows]


@pytest.mark.parametrize("make", [
    lambda X, y: depth_one(X, y, "Or", max_num_literals=3),
    lambda X, y: depth_one(X, y, "AtLeast", max_num_literals=4, min_num_literals=1, lam=0.01),
    lambda X, y: depth_one(X, y, "Choose", max_num_literals=3, negated=True),
    lambda X, y: depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2, min_terms=1),
    lambda X, y: depth_two(X, y, "CNF", max_terms=2, max_literals_per_term=2, lam=0.01),
], ids=["Or", "AtLeast", "~Choose", "DNF", "CNF"])
@pytest.mark.parametrize("eta", [True, False])
def test_each_stage_is_its_rule_with_the_problems_objective(make, eta):
    """SA with few sweeps: each stage's objective is the problem's objective of its rule, the raw
    stage is the lowest-energy sample, repair and polish never worsen, decode_best is the last stage."""
    problem = make(*breast_cancer())
    qubo = problem.to_qubo(eta=eta, penalty="calibrated")
    samples = few_sweeps(qubo)
    decoding = qubo.decode_stages(samples)
    assert list(decoding.stages) == list(STAGES) == ["raw", "repaired", "polished"] and decoding.stage == "polished"
    for stage in decoding.stages.values():
        if stage.rule is not None:
            assert stage.objective == pytest.approx(problem.objective(stage.rule))
    raw, repaired, polished = decoding.stages.values()
    lowest = samples.record.sample[np.argmin(qubo.energy(samples))]  # the sampler's energies may tie within rounding
    lowest = dict(zip(samples.variables, lowest))
    assert raw.feasible == bool(qubo.feasible(lowest)[0]) == (raw.rule is not None)
    if raw.feasible:
        assert raw.rule == problem.decode(qubo.variable_values(lowest)[0])
        assert repaired.objective <= raw.objective + 1e-12
    assert repaired.feasible and polished.feasible and polished.objective <= repaired.objective + 1e-12
    assert decoding.feasible == int(qubo.feasible(samples).sum()) and decoding.num_samples == len(samples)
    assert qubo.decode_best(samples) == (polished.rule, polished.objective)
    assert qubo.decode_best(samples, polish=False) == (repaired.rule, repaired.objective)
    without = qubo.decode_stages(samples, polish=False)
    assert list(without.stages) == ["raw", "repaired"] and without.stage == "repaired"
    assert without.stages["repaired"] == repaired and set(without.seconds) == {"decode"}
    assert set(decoding.seconds) == {"decode", "polish"} and min(decoding.seconds.values()) >= 0


def test_polish_off_keeps_the_repaired_rule_where_polish_changes_it():
    """A feasible sample of a poor rule: raw is that rule with its own k, repaired the same literals
    with the best k, polished a better rule; without polish the rule is the repaired one."""
    X, y = breast_cancer()
    problem = depth_one(X, y, "AtLeast", max_num_literals=3)
    qubo = problem.to_qubo(eta=True)
    values = {"b": np.array([1, 1, 1, 0, 0, 0, 0, 0]), "bt": np.zeros(8, int), "k": 1}
    from boolrules.formulations.repair import feasible_point

    sample = qubo.sample_from_vector(feasible_point(problem, values))
    stages = qubo.decode_stages(dimod.SampleSet.from_samples((sample, qubo.labels), dimod.BINARY, 0.0)).stages
    raw, repaired, polished = stages.values()
    assert raw.feasible and str(raw.rule) == "AtLeast1(f0, f1, f2)"
    assert raw.objective == pytest.approx(reference_objective(problem, values))
    assert sorted(map(str, repaired.rule.literals())) == ["f0", "f1", "f2"] and repaired.rule.k != 1
    assert repaired.objective < raw.objective - 1e-9  # the best k
    assert polished.objective < repaired.objective - 1e-9  # polish changes this one
    rule, objective = qubo.decode_best(sample, polish=False)
    assert (rule, objective) == (repaired.rule, repaired.objective)


def test_raw_is_the_lowest_energy_sample_whatever_the_order():
    """The raw stage follows the QUBO's own energies, not the order or the energies a sampler wrote."""
    X, y = breast_cancer()
    problem = depth_one(X, y, "Or", max_num_literals=2)
    qubo = problem.to_qubo(eta=False)
    from boolrules.formulations.repair import feasible_point, repair_values

    good = qubo.sample_from_vector(feasible_point(problem, problem.greedy_values()))
    poor = qubo.sample_from_vector(feasible_point(problem, repair_values(problem, np.eye(8)[0], np.zeros(8))))
    assert qubo.energy(good) < qubo.energy(poor)
    stated = dimod.SampleSet.from_samples(([poor, good], qubo.labels), dimod.BINARY, [-5.0, 9.0])
    raw = qubo.decode_stages(stated).stages["raw"]
    assert raw.rule == problem.decode(problem.greedy_values())


def test_depth_two_feasibility_follows_its_hard_rows():
    """A valid choice's sample is feasible; the same sample with a term holding a literal and its
    negation, or a term's `u` bit cleared, is not."""
    X, y = breast_cancer(40, 5)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    qubo = problem.to_qubo(eta=True)
    sample = qubo.sample_from_vector(problem.greedy_point())
    assert qubo.feasible(sample).all()
    labels = qubo.labels
    both = sample.copy()
    both[labels.index("z[0,0]")] = both[labels.index("z[0,5]")] = 1  # f0 and ~f0 in term 0
    unused = sample.copy()
    unused[labels.index("u[0]")] = 0
    assert not qubo.feasible(np.array([both, unused])).any()
    assert qubo.decode_stages(both).stages["raw"].rule is None


def test_a_serialized_sample_set_decodes_as_the_sample_set():
    """A SampleSet's `to_serializable()` dict (as a JSON file holds it) is taken as the SampleSet
    itself, SPIN too; a broken one is refused clearly."""
    X, y = breast_cancer()
    qubo = depth_one(X, y, "Or", max_num_literals=2).to_qubo(eta=True)
    samples = few_sweeps(qubo)
    stages = qubo.decode_stages(samples).stages
    assert qubo.decode_stages(samples.to_serializable()).stages == stages
    spin = samples.change_vartype(dimod.SPIN, inplace=False).to_serializable()
    assert qubo.decode_stages(spin).stages == stages
    np.testing.assert_array_equal(qubo.feasible(samples.to_serializable()), qubo.feasible(samples))
    assert_raises_clearly(FormatError, lambda: qubo.decode_stages({"type": "SampleSet", "record": 1}),
                          "not a valid serialized dimod SampleSet")
