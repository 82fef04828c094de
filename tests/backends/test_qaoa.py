import sys

import dimod
import numpy as np
import pytest
from qiskit.quantum_info import Statevector

from boolrules.backends import get_backend
from boolrules.backends.qaoa import QAOA_PRESET, QAOASampler
from boolrules.formats.qiskit import ising_operator, qaoa_circuit, quadratic_program
from boolrules.formulations import depth_one

FAST = {"maxiter": 10, "seed": 1}  # a few COBYLA steps: these tests check plumbing, not QAOA quality


@pytest.fixture(scope="module")
def bqm():
    return dimod.generators.gnp_random_bqm(4, 0.7, "BINARY", random_state=3)


@pytest.fixture(scope="module")
def problem():
    """6 samples x 2 features, at most 1 literal: a 4-qubit QUBO (paired: error and product rows, no
    slack; 5 qubits in the minimal-bound mode without η)."""
    X = np.random.default_rng(0).integers(0, 2, (6, 2), dtype=np.uint8)
    return depth_one(X, np.array([0, 1, 1, 0, 1, 0], np.uint8), "Or", max_num_literals=1)


def all_states(n):
    """Every 0/1 vector of length n; row z has bit i of z at position i (Qiskit's qubit order)."""
    return (np.arange(2**n)[:, None] >> np.arange(n)) & 1


def test_ising_operator_diagonal_is_the_bqm_energy(bqm):
    labels = list(bqm.variables)[::-1]
    operator, offset = ising_operator(bqm, labels)
    diagonal = operator.to_matrix(sparse=True).diagonal().real + offset
    np.testing.assert_allclose(diagonal, bqm.energies((all_states(4), labels)), atol=1e-12)


def test_quadratic_program_objective_is_the_bqm_energy(bqm):
    program = quadratic_program(bqm)
    states = all_states(4)
    energies = [program.objective.evaluate(state) for state in states]
    np.testing.assert_allclose(energies, bqm.energies((states, bqm.variables)), atol=1e-12)


def test_qaoa_circuit_cost_layer_has_the_qubo_energies_as_phases(problem):
    qubo = problem.to_qubo(eta=False, penalty="calibrated")
    assert qaoa_circuit(qubo, reps=2).num_parameters == 4
    circuit = qaoa_circuit(qubo)
    assert circuit.num_qubits == qubo.num_variables
    gamma = 0.01  # small enough that no phase difference wraps around 2π
    beta, gamma_param = sorted(circuit.parameters, key=lambda p: p.name)  # β[0], γ[0]
    state = Statevector(circuit.assign_parameters({beta: 0.0, gamma_param: gamma})).data
    energies = qubo.energy(all_states(qubo.num_variables))  # with β = 0 only exp(-iγH) acts
    np.testing.assert_allclose(np.angle(state / state[0]), -gamma * (energies - energies[0]), atol=1e-9)


def test_sampler_returns_the_measured_bitstrings(bqm):
    sampleset = QAOASampler().sample(bqm, **FAST)
    np.testing.assert_allclose(sampleset.record.energy, bqm.energies(sampleset))
    assert sampleset.record.probability.sum() == pytest.approx(1.0)
    assert abs(sampleset.record.num_occurrences.sum() - 1024) <= len(sampleset)
    assert sampleset.first.energy == pytest.approx(dimod.ExactSolver().sample(bqm).first.energy)
    assert sampleset.info["primitive"] == "aer" and sampleset.info["cost_function_evals"] <= 10
    again = QAOASampler().sample(bqm, **FAST)
    assert np.array_equal(again.record, sampleset.record)


def test_sampler_keeps_the_vartype_of_a_spin_model(bqm):
    spin = bqm.spin.copy()
    sampleset = QAOASampler().sample(spin, **FAST)
    assert sampleset.vartype is dimod.SPIN
    np.testing.assert_allclose(sampleset.record.energy, spin.energies(sampleset))


def test_sampler_falls_back_to_the_statevector_sampler(monkeypatch):
    monkeypatch.setitem(sys.modules, "qiskit_aer", None)  # as if qiskit-aer were not installed
    bqm = dimod.BinaryQuadraticModel({"a": 1.0, "b": -1.0, "c": 0.5}, {("a", "b"): -2.0}, 0.0, "BINARY")
    sampleset = QAOASampler().sample(bqm, **FAST)
    assert sampleset.info["primitive"] == "statevector"
    assert sampleset.first.energy == pytest.approx(-2.0)


def test_backend_solves_a_small_problem(problem):
    backend = get_backend("qaoa", seed=0)
    assert backend.preset is QAOA_PRESET and isinstance(backend.sampler, QAOASampler)
    assert backend.options()["eta"] == "auto"  # the compiler's default
    result = backend.solve(problem, maxiter=10)
    assert result.ok and result.backend == "qaoa" and result.status == "feasible"
    assert result.objective == pytest.approx(problem.objective(result.rule))
    assert result.objective == pytest.approx(get_backend("highs").solve(problem).objective)  # 4 qubits: all states seen
    assert isinstance(result.raw, dimod.SampleSet)


def test_oversized_qubo_is_refused_with_advice():
    X = np.random.default_rng(0).integers(0, 2, (12, 4), dtype=np.uint8)
    problem = depth_one(X, np.array([0, 1] * 6, np.uint8), "Or", max_num_literals=2)
    options = {"eta": True, "penalty": "calibrated", "slack": "minimal"}
    qubits = problem.to_qubo(**options).num_variables  # as qaoa compiles it with these options
    with pytest.raises(ValueError, match=rf"needs {qubits} qubits, more than max_qubits=20.*max_samples.*"
                                         r"features.*max_num_literals.*eta=False"):
        get_backend("qaoa", **options).solve(problem)


@pytest.mark.parametrize(
    "options, error, match",
    [
        ({"reps": 0}, ValueError, "reps must be >= 1"),
        ({"optimizer": "SPSA"}, ValueError, "unknown optimizer 'SPSA'; choose one of COBYLA, NELDER_MEAD"),
        ({"shots": "many"}, TypeError, "shots must be an integer"),
        ({"seed": -1}, ValueError, "seed must be >= 0"),
        ({"max_qubits": 0}, ValueError, "max_qubits must be >= 1"),
        ({"eta": "no"}, TypeError, "eta must be true, false or \"auto\""),
        ({"penalty": "huge"}, ValueError, "penalty must be one of"),
        ({"qubits": 5}, ValueError, r"unknown option\(s\) \['qubits'\].*max_qubits"),
    ],
)
def test_bad_options(options, error, match):
    with pytest.raises(error, match=match):
        get_backend("qaoa", **options)


def test_sampler_rejects_an_unknown_optimizer(bqm):
    with pytest.raises(ValueError, match="unknown optimizer 'ADAM'"):
        QAOASampler().sample(bqm, optimizer="ADAM")
