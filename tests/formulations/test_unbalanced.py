"""slack="unbalanced" (a heuristic mode): AtLeast's and AtMost's sample rows without η or slack,
each costing w·(h² - ρh)/(1 + ρ) at margin h, and k in unary bits. Proven here on instances small
enough to enumerate every state."""

import itertools

import dimod
import numpy as np
import pytest

from boolrules.formulations import depth_one
from boolrules.formulations.qubo import UNBALANCED_RHO
from boolrules.formulations.reductions import BinaryExpansion, unary_bits, unary_weights

from .tiny import exhaustive, tiny

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]


def surrogate(problem, b, bt, k):
    """The surrogate objective of a rule (literal bits b, bt and threshold k), by its definition:
    Σ_i w_i (h_i² - ρ h_i) / (1 + ρ) over the margins h_i of its samples, plus λ per literal."""
    X = problem.X.astype(int)
    t = X @ b + (1 - X) @ bt  # true literals per sample
    positive = problem.target == 1
    if problem.operator == "AtLeast":
        h = np.where(positive, t - k, k - 1 - t)
    else:
        h = np.where(positive, k - t, t - k - 1)
    rho = UNBALANCED_RHO
    return float(problem.weights @ ((h * h - rho * h) / (1 + rho))) + problem.lam * (b.sum() + bt.sum())


@pytest.mark.parametrize("operator", ["AtLeast", "AtMost"])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("kwargs", [{}, {"negated": True}, {"lam": 0.2, "sample_weight": "uniform"}])
def test_a_valid_rule_costs_its_surrogate_objective_and_the_ground_state_is_valid(operator, seed, kwargs):
    """Every selection of literals and k bits that makes a valid rule has, at the best values of
    the hard rows' slack, exactly the energy of its surrogate objective, computed here from its
    margins; every state breaking a hard row costs more than the best valid one (sufficient hard
    weight with the rewards' floor made up)."""
    problem = tiny(operator, seed, **kwargs)
    qubo = problem.to_qubo(eta=False, slack="unbalanced")
    assert not any(block.startswith("slack positive") or block.startswith("slack negative") for block in qubo.blocks())
    states = dimod.ExactSolver().sample(qubo.bqm)
    labels = list(states.variables)
    samples, energies = states.record.sample, states.record.energy
    feasible = qubo.feasible(states)
    m = problem.num_features
    b = samples[:, [labels.index(f"b[{j}]") for j in range(m)]]
    bt = samples[:, [labels.index(f"bt[{j}]") for j in range(m)]]
    k = samples[:, [i for i, label in enumerate(labels) if label.startswith("k#")]].sum(axis=1)
    best = {}
    for row in np.flatnonzero(feasible):
        key = (tuple(b[row]), tuple(bt[row]), int(k[row]))
        best[key] = min(best.get(key, np.inf), energies[row])
    assert len(best) > 1
    for (rb, rbt, rk), energy in best.items():
        assert energy == pytest.approx(surrogate(problem, np.array(rb), np.array(rbt), rk), abs=1e-9)
    assert energies[~feasible].min() > min(best.values())
    assert qubo.guarantee.startswith("a valid rule, the best by a surrogate that rewards margins")


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("negated", [False, True])
def test_the_ground_state_is_a_valid_rule_for_every_operator(operator, seed, negated):
    """With the sufficient penalties every ground state keeps the hard rows (a valid rule), for the
    operators whose rows reward margins and for the others alike; with η the mode is exact as
    "paired" (nothing rewards a margin) and says so."""
    problem = tiny(operator, seed, negated=negated, lam=0.1)
    qubo = problem.to_qubo(eta=False, slack="unbalanced")
    _, grounds = exhaustive(qubo.bqm, qubo.labels, rtol=1e-5)  # the states dimod's ExactSolver calls lowest
    assert all(qubo.feasible(dict(zip(qubo.labels, row.tolist()))).all() for row in grounds)
    exact = problem.to_qubo(eta=True, slack="unbalanced")
    assert exact.guarantee == "the ILP optimum"
    assert exhaustive(exact.bqm)[0] == pytest.approx(
        exhaustive(problem.to_qubo(eta=True, slack="paired").bqm)[0], abs=1e-9)


@pytest.mark.parametrize("span", range(0, 7))
def test_unary_bits_count_the_value_and_a_unit_step_is_one_flip(span):
    owner, position, weight = unary_weights(np.array([span]))
    assert len(weight) == span and (weight == 1).all()
    for value in range(span + 1):
        bits = unary_bits(np.array([value]), owner, position, weight)
        assert int(bits @ weight) == value
        if value < span:
            assert np.abs(unary_bits(np.array([value + 1]), owner, position, weight) - bits).sum() == 1
    expansion = BinaryExpansion(unary=True)
    problem = depth_one(np.array([[0, 1], [1, 0], [1, 1]]), np.array([0, 1, 1]), "AtLeast", max_num_literals=2)
    qubo = problem.to_qubo(eta=False, slack="unbalanced")
    assert expansion in qubo.chain.reductions
    for bits in itertools.product((0, 1), repeat=2):  # any k bits set count: no order among them
        sample = dict.fromkeys(qubo.labels, 0)
        sample.update({"k#0": bits[0], "k#1": bits[1]})
        assert qubo.variable_values(sample)[0]["k"] == sum(bits)


def test_unbalanced_is_smaller_than_paired_on_real_rows():
    """No slack per sample row: fewer variables and interactions than slack="paired" (its offsets)
    at the same η, for AtLeast and AtMost on 60 Breast Cancer rows, m' = 3."""
    from boolrules import load_dataset

    data = load_dataset("breast_cancer")
    for operator in ("AtLeast", "AtMost"):
        problem = depth_one(data.X[:60], data.y[:60], operator, max_num_literals=3)
        unbalanced, paired = problem.to_qubo(eta=False, slack="unbalanced"), problem.to_qubo(eta=False, slack="paired")
        assert unbalanced.num_variables < paired.num_variables
        assert unbalanced.bqm.num_interactions < paired.bqm.num_interactions
        assert unbalanced.blocks()["k"] == 3


@pytest.mark.parametrize("operator", ["AtLeast", "AtMost"])
@pytest.mark.parametrize("seed", range(6))
def test_rewards_never_pay_for_a_broken_hard_row(operator, seed):
    """Forty samples whose margins earn rewards: no state breaking a hard row (too many literals,
    k above L, a feature and its negation) costs less than the best valid rule, and the soft rows
    never cost less than the floor the hard weight makes up for."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (40, 3), dtype=np.uint8)
    y = (X.sum(axis=1) >= 2).astype(np.uint8) ^ (rng.random(40) < 0.1)
    problem = depth_one(X, y, operator, max_num_literals=2, min_num_literals=1, exclusive_literals=True)
    qubo = problem.to_qubo(eta=False, slack="unbalanced")
    states = dimod.ExactSolver().sample(qubo.bqm)
    feasible = qubo.feasible(states)
    assert states.record.energy[~feasible].min() > states.record.energy[feasible].min()
    soft = dimod.ExactSolver().sample(qubo.soft_bqm()).first.energy
    assert soft >= qubo.form.soft_floor(qubo.penalties) - 1e-9


def test_an_unbalanced_qubo_round_trips_through_its_file_and_sidecar(tmp_path):
    """Exported, the sidecar rebuilds the same BQM (unary k included) and decodes samples as the
    compiled QUBO does."""
    from boolrules.formats import export_qubo, load_problem, sidecar_path

    X = np.random.default_rng(3).integers(0, 2, (12, 4))
    problem = depth_one(X, np.array([0, 1] * 6), "AtMost", max_num_literals=3, lam=0.05)
    qubo = problem.to_qubo(slack="unbalanced")
    loaded = load_problem(sidecar_path(export_qubo(qubo, tmp_path / "atmost.bqm", "bqm")))
    assert loaded.qubo.bqm == qubo.bqm and loaded.qubo.slack == "unbalanced"
    rows = np.random.default_rng(4).integers(0, 2, (6, qubo.num_variables))
    assert loaded.decode(rows).stages == qubo.decode_stages(rows, polish=False).stages
