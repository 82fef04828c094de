"""What a QUBO asks of the hardware: sizes against each backend's limit, and the embedding check."""

import functools
import itertools

import dimod
import pytest

from boolrules.backends import get_backend
from boolrules.backends.hardware import (
    EXACT_MAX_VARIABLES,
    QAOA_MAX_QUBITS,
    QPU_EMBEDDING_TIMEOUT,
    QPU_TOPOLOGIES,
    embedding_report,
    hardware_report,
)
from boolrules.formulations import depth_one
from boolrules.rules import Literal, Or

from ..errors import assert_raises_clearly
from ..planted import planted


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
    from boolrules.backends import dwave

    monkeypatch.setattr(dwave, "MockQpu", functools.lru_cache(dwave.MockQpu))
    qubo = depth_one(*planted(Or(Literal(0), Literal(3)), 12, 4), "Or", max_num_literals=2).to_qubo(
        eta=False, penalty="calibrated")
    first = embedding_report(qubo.bqm, topology, seed=3, timeout=30)
    assert first["found"] is True and first["reason"] is None
    assert qubo.num_variables <= first["qubits"] and 1 <= first["max_chain"] <= first["qubits"]
    again = embedding_report(qubo.bqm, topology, seed=3, timeout=30)
    assert (again["qubits"], again["max_chain"]) == (first["qubits"], first["max_chain"])


def test_no_embedding_found_says_so(monkeypatch, atleast_qubo):
    searched = {}

    def give_up(source, target, **params):
        searched.update(params)
        return {}

    monkeypatch.setattr("minorminer.find_embedding", give_up)
    report = embedding_report(atleast_qubo.bqm, "zephyr", seed=5, timeout=2)
    assert report["found"] is False and report["reason"] == "minorminer found none within 2 s"
    assert searched == {"random_seed": 5, "timeout": 2}


def test_bad_arguments_are_refused_clearly(atleast_qubo):
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "chimera"), "topology", "pegasus")
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "pegasus", seed=-1), "seed")
    assert_raises_clearly(ValueError, lambda: embedding_report(atleast_qubo.bqm, "pegasus", timeout=-1), "timeout")
