"""What a QUBO asks of the hardware: sizes against each backend's limit, and the embedding check."""

import functools
import itertools
import json
import os

import dimod
import numpy as np
import pytest

from boolrules.backends import get_backend
from boolrules.backends.dwave import MockQpu
from boolrules.backends.hardware import (
    COMPARED_MODES,
    EXACT_MAX_VARIABLES,
    QAOA_MAX_QUBITS,
    QPU_EMBEDDING_TIMEOUT,
    QPU_H_RANGE,
    QPU_J_RANGE,
    QPU_TOPOLOGIES,
    SOFT_SHARE_FLOOR,
    best_mode,
    embedding_report,
    find_embedding_within,
    hardware_report,
    mode_report,
    precision_report,
    qpu_graph,
)
from boolrules import load_dataset
from boolrules.exceptions import SolverError
from boolrules.sampling import subsample_rows
from boolrules.formulations import depth_one
from boolrules.rules import Literal, Or

from ..errors import assert_raises_clearly
from ..fakes import assert_gone, sleep_forever
from ..planted import planted


@pytest.fixture(scope="module")
def credit_rows():
    """80 stratified rows of Credit Risk."""
    data = load_dataset("credit_risk")
    rows = subsample_rows(len(data.y), 80, 0, labels=data.y)
    return data.X[rows], data.y[rows]


def complete(n: int) -> dimod.BinaryQuadraticModel:
    return dimod.BinaryQuadraticModel({i: 1.0 for i in range(n)},
                                      {pair: -1.0 for pair in itertools.combinations(range(n), 2)}, 0.0, "BINARY")


def test_the_limits_are_the_backends_defaults(no_dwave_credentials):
    assert get_backend("exact").options()["max_variables"] == EXACT_MAX_VARIABLES
    assert get_backend("qaoa").options()["max_qubits"] == QAOA_MAX_QUBITS
    assert get_backend("dwave-qpu", mock="pegasus").options()["embedding_parameters"] == {
        "timeout": QPU_EMBEDDING_TIMEOUT}


def test_report_counts_density_and_what_fits(atleast_qubo):
    bqm = atleast_qubo.bqm
    report = hardware_report(bqm)
    n, k = bqm.num_variables, bqm.num_interactions
    assert (report["variables"], report["interactions"]) == (n, k)
    assert report["density"] == pytest.approx(k / (n * (n - 1) / 2))
    fits = {(limit["backend"], limit.get("system")): limit["fits"] for limit in report["limits"]}
    assert fits[("exact", None)] == (n <= 25) and fits[("qaoa", None)] == (n <= 20)
    assert hardware_report(complete(21))["limits"][1]["fits"] is False  # 21 qubits > 20
    assert hardware_report(complete(20))["limits"][1]["fits"] is True
    assert hardware_report(complete(4))["density"] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("topology", list(QPU_TOPOLOGIES))
def test_the_qpu_ranges_are_the_mock_qpus(topology):
    properties = MockQpu(topology).properties
    assert properties["h_range"] == [-QPU_H_RANGE, QPU_H_RANGE] and properties["j_range"] == [-QPU_J_RANGE, QPU_J_RANGE]


@pytest.mark.parametrize("eta", [True, False])
def test_the_soft_part_is_what_the_hard_weight_does_not_change(atleast_problem, eta):
    """`soft_bqm` is the QUBO without its hard rows: over random states, the energy the hard rows add
    is proportional to the hard weight."""
    qubo = atleast_problem.to_qubo(eta=eta)
    doubled = qubo.with_penalties({"soft": qubo.penalties.soft, "hard": 2 * qubo.penalties.hard})
    states = (np.random.default_rng(0).integers(0, 2, (200, qubo.num_variables)), qubo.labels)
    soft = qubo.soft_bqm().energies(states)
    hard = qubo.bqm.energies(states) - soft
    assert np.ptp(hard) > 0
    np.testing.assert_allclose(doubled.bqm.energies(states) - doubled.soft_bqm().energies(states), 2 * hard,
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(doubled.soft_bqm().energies(states), soft, rtol=1e-9, atol=1e-9)


def test_precision_is_what_a_qpus_auto_scale_leaves(atleast_problem):
    """Divided by `scale`, the Ising problem fills the QPU's h or J range exactly; the soft part's
    largest term is then `soft_share` of its range."""
    qubo = atleast_problem.to_qubo()
    report = precision_report(qubo)
    h, (_, _, J), _ = qubo.bqm.spin.to_numpy_vectors()
    h, J = h / report["scale"], J / report["scale"]
    assert np.abs(h).max() <= QPU_H_RANGE + 1e-9 and np.abs(J).max() <= QPU_J_RANGE + 1e-9
    assert max(np.abs(h).max() / QPU_H_RANGE, np.abs(J).max() / QPU_J_RANGE) == pytest.approx(1.0)
    sh, (_, _, sJ), _ = qubo.soft_bqm().spin.to_numpy_vectors()
    largest = max(np.abs(sh).max() / QPU_H_RANGE, np.abs(sJ).max() / QPU_J_RANGE)
    assert report["soft_share"] == pytest.approx(largest / report["scale"]) and 0 < report["soft_share"] <= 1


def test_modes_compared_on_real_data(credit_rows):
    """The minimal-bound QUBO without η squeezes the objective into a few percent of a QPU's range
    (its sufficient hard weight is above the largest possible soft energy); the paired modes keep
    most of it, and the advice is the smallest of those that fit a QPU."""
    problem = depth_one(*credit_rows, "AtLeast", max_num_literals=3)
    rows = {(row["eta"], row["slack"]): row for row in mode_report(problem, "sufficient")}
    assert list(rows) == list(COMPARED_MODES)
    for (eta, slack), row in rows.items():
        qubo = problem.to_qubo(eta=eta, slack=slack)
        assert (row["variables"], row["interactions"]) == (qubo.num_variables, qubo.bqm.num_interactions)
    assert rows[(False, "minimal")]["soft_share"] < SOFT_SHARE_FLOOR
    assert rows[(True, "paired")]["soft_share"] > SOFT_SHARE_FLOOR and rows[(False, "paired")]["soft_share"] > SOFT_SHARE_FLOOR
    assert best_mode(list(rows.values())) is rows[(False, "paired")]


def test_best_mode_order():
    base = {"eta": True, "slack": "paired", "fits_qpu": True, "soft_share": 0.5, "variables": 100}
    small_squeezed = {**base, "variables": 50, "soft_share": 0.05}
    too_large = {**base, "fits_qpu": False, "variables": 10, "soft_share": 0.9}
    smaller = {**base, "variables": 90, "soft_share": 0.2}
    assert best_mode([base, small_squeezed, too_large]) is base  # fits, and keeps a tenth of the range
    assert best_mode([base, smaller, too_large]) is smaller  # then the fewest variables
    assert best_mode([too_large, {**too_large, "soft_share": 0.95}])["soft_share"] == 0.95


def test_a_qpu_needs_a_coupler_per_interaction():
    """K_300 has 300 variables (few enough for either QPU) but 44850 interactions, more than
    Pegasus P16's couplers: too large for it, without any search."""
    limits = {limit.get("system"): limit["fits"] for limit in hardware_report(complete(300))["limits"]}
    assert limits["Advantage, Pegasus P16"] is False and limits["Advantage2, Zephyr Z12"] is True
    report = embedding_report(complete(300), "pegasus", timeout=1)
    assert report["found"] is False and report["reason"] == "more interactions than the 40484 couplers"
    assert report["seconds"] == 0.0


@pytest.mark.parametrize("topology", list(QPU_TOPOLOGIES))
def test_an_embedding_is_found_and_a_seed_repeats_it(topology, monkeypatch):
    """A 20-variable QUBO (12 rows x 4 features) still needs chains of 2-3 qubits, so the seed matters;
    the QPU graph is built once (building it is most of a report's time)."""
    from boolrules.backends import hardware

    monkeypatch.setattr(hardware, "qpu_graph", functools.lru_cache(hardware.qpu_graph))
    qubo = depth_one(*planted(Or(Literal(0), Literal(3)), 12, 4), "Or", max_num_literals=2).to_qubo(
        eta=False, penalty="calibrated")
    first = embedding_report(qubo.bqm, topology, seed=3, timeout=30)
    assert first["found"] is True and first["reason"] is None
    assert qubo.num_variables <= first["qubits"] and 1 <= first["max_chain"] <= first["qubits"]
    again = embedding_report(qubo.bqm, topology, seed=3, timeout=30)
    assert (again["qubits"], again["max_chain"]) == (first["qubits"], first["max_chain"])


def test_no_embedding_found_says_so(monkeypatch, atleast_qubo, tmp_path):
    searched = tmp_path / "parameters"  # the search runs in a child process: it leaves its parameters here

    def give_up(source, target, **params):
        searched.write_text(json.dumps(params))
        return {}

    monkeypatch.setattr("minorminer.find_embedding", give_up)
    report = embedding_report(atleast_qubo.bqm, "zephyr", seed=5, timeout=2)
    assert report["found"] is False and report["reason"] == "minorminer found none within 2 s"
    assert json.loads(searched.read_text()) == {"random_seed": 5, "timeout": 2}


def test_bad_arguments_are_refused_clearly(atleast_qubo):
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "chimera"), "topology", "pegasus")
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "pegasus", seed=-1), "seed")
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "pegasus", timeout=-1), "timeout")


# The embedding search's hard time bound: minorminer runs in a child process, killed past its time-out


def test_a_search_past_its_timeout_is_stopped_and_leaves_no_process(monkeypatch, atleast_qubo, tmp_path):
    """minorminer checks its time-out only between phases (one call ran 150 s with timeout=60): the
    search runs in a child that is killed `EMBEDDING_GRACE` s after the time-out."""
    monkeypatch.setattr("minorminer.find_embedding", sleep_forever(tmp_path / "pid"))
    report = embedding_report(atleast_qubo.bqm, "pegasus", seed=1, timeout=0.1)
    assert report["found"] is False and report["reason"] == "the search hit its 0.1 s limit and was stopped"
    assert_gone(tmp_path / "pid")


def test_the_search_in_a_child_finds_the_embedding_found_in_process():
    """The child's search is minorminer's own, with the same parameters: the same seed, the same embedding."""
    import minorminer

    qubo = depth_one(*planted(Or(Literal(0), Literal(3)), 12, 4), "Or", max_num_literals=2).to_qubo(
        eta=False, penalty="calibrated")
    source = [*qubo.bqm.quadratic, *((v, v) for v in qubo.bqm.linear)]
    _, target = qpu_graph("zephyr")
    within = find_embedding_within(source, target, 30, random_seed=7)
    assert within and within == minorminer.find_embedding(source, target, random_seed=7, timeout=30)


def test_a_failing_search_raises_here(monkeypatch, atleast_qubo):
    """What minorminer raises (a bad parameter) is raised in the caller; a child that dies without
    an answer is a SolverError naming its exit code."""
    def refuse(source, target, **params):
        raise ValueError("unknown parameter 'tires'")

    monkeypatch.setattr("minorminer.find_embedding", refuse)
    with pytest.raises(ValueError, match="unknown parameter 'tires'"):
        find_embedding_within([(0, 1)], [(0, 1)], 5, tires=3)
    monkeypatch.setattr("minorminer.find_embedding", lambda source, target, **params: os._exit(3))
    assert_raises_clearly(SolverError, lambda: find_embedding_within([(0, 1)], [(0, 1)], 5),
                          "embedding search ended without an answer", "exit code 3")


def test_a_timeout_over_a_day_is_refused(atleast_qubo):
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "pegasus", timeout=86_401),
                          "timeout must be <= 86400 s")
