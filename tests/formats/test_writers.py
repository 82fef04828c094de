"""Every writer: the file keeps the QUBO's energies and labels, or is the model or circuit itself."""

import json

import dimod
import highspy
import numpy as np
import pytest
from ommx.artifact import Artifact
from qiskit import qasm3

from boolrules.backends import get_backend
from boolrules.formats import export_problem, export_qubo, load_qubo_file, lp_name, sidecar_path
from boolrules.formats.files import QASM3_MAX_QUBITS
from boolrules.formats.qiskit import measured_qaoa_circuit

from ..errors import assert_raises_clearly


@pytest.fixture(scope="module")
def samples(qubo):
    return np.random.default_rng(1).integers(0, 2, (50, qubo.num_variables))


def loaded_energies(model, format, qubo, samples):
    """Energies of `samples` (0/1, in `qubo.labels` order) under a model loaded from a `format` file."""
    numbered = range(qubo.num_variables)
    labels = {"qubo": numbered, "npz": numbered, "mtx": numbered, "ommx": numbered,
              "lp": [lp_name(v) for v in qubo.labels]}.get(format, qubo.labels)
    spins = model.vartype is dimod.SPIN
    return model.energies((2 * samples - 1 if spins else samples, labels))


@pytest.mark.parametrize("format", ["bqm", "json", "ising", "qubo", "lp", "npz", "mtx", "ommx"])
def test_qubo_round_trip_keeps_every_energy(tmp_path, qubo, samples, format):
    path = export_qubo(qubo, tmp_path / f"qubo.{format}", format)
    assert sorted(tmp_path.iterdir()) == [path, sidecar_path(path)]
    model = load_qubo_file(path, format)
    assert model.num_variables == qubo.num_variables
    assert model.vartype is (dimod.SPIN if format == "ising" else dimod.BINARY)
    np.testing.assert_allclose(loaded_energies(model, format, qubo, samples), qubo.energy(samples), rtol=1e-10,
                               atol=1e-9)


def test_bqm_json_and_ising_keep_the_labels(tmp_path, qubo):
    for format in ("bqm", "json", "ising"):
        assert set(load_qubo_file(export_qubo(qubo, tmp_path / format, format), format).variables) == set(qubo.labels)


def test_a_qasm3_circuit_beyond_max_qubits_is_refused_unless_raised(tmp_path, qubo, monkeypatch):
    """Circuits of more qubits than the largest gate-based processors take minutes to write: refused
    by default naming the size and the override, written with a raised or no `max_qubits`."""
    from boolrules.formats import writers

    assert QASM3_MAX_QUBITS == 156
    n = qubo.num_variables
    monkeypatch.setitem(writers.QUBO_WRITERS, "qasm3", lambda *args: pytest.fail("written"))
    assert_raises_clearly(ValueError, lambda: export_qubo(qubo, tmp_path / "q.qasm", "qasm3", max_qubits=n - 1),
                          f"{n} qubits", f"max_qubits={n - 1}", "--max-qubits")
    assert not (tmp_path / "q.qasm").exists()
    monkeypatch.undo()
    assert export_qubo(qubo, tmp_path / "q.qasm", "qasm3", max_qubits=n).exists()
    assert export_qubo(qubo, tmp_path / "r.qasm", "qasm3", max_qubits=None).exists()
    assert export_qubo(qubo, tmp_path / "q.bqm", "bqm", max_qubits=1).exists()  # a limit of circuits only


def test_qasm3_is_the_measured_qaoa_ansatz_with_readable_angles(tmp_path, qubo):
    text = export_qubo(qubo, tmp_path / "qaoa.qasm", "qasm3").read_text()
    assert text == qasm3.dumps(measured_qaoa_circuit(qubo))
    assert text.startswith("OPENQASM 3.0;") and f"qubit[{qubo.num_variables}] q;" in text
    assert text.count("input float[64]") == 2  # β and γ of reps=1, left for the user to bind
    assert "input float[64] beta_0;" in text and "input float[64] gamma_0;" in text and "_β_" not in text
    circuit = qasm3.loads(text)  # qiskit_qasm3_import, from the [qiskit] extra
    assert sorted(p.name for p in circuit.parameters) == ["beta_0", "gamma_0"]
    assert circuit.num_qubits == circuit.num_clbits == qubo.num_variables
    measured = [(circuit.find_bit(i.qubits[0]).index, circuit.find_bit(i.clbits[0]).index)
                for i in circuit.data if i.operation.name == "measure"]
    assert measured == [(q, q) for q in range(qubo.num_variables)]  # bit i holds qubit i = labels[i]


def test_lp_names_with_eta_are_the_files(tmp_path, atleast_problem):
    """docplex writes eta[5] as _eta(5) (an LP name may not start with e): the name map says so too."""
    qubo = atleast_problem.to_qubo(eta=True)
    path = export_qubo(qubo, tmp_path / "qubo.lp", "lp")
    names = [lp_name(v) for v in qubo.labels]
    assert "_eta(5)" in names and "eta(5)" not in names
    assert set(load_qubo_file(path, "lp").variables) == set(names)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
    assert set(highs.getLp().col_names_) == set(names)


@pytest.mark.parametrize("format", ["lp", "mps"])
def test_problem_files_are_the_model(tmp_path, problem, format):
    path = export_problem(problem, tmp_path / f"model.{format}", format)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
    lp = highs.getLp()
    assert (highs.getNumCol(), highs.getNumRow()) == (problem.num_variables, problem.num_constraints)
    sidecar = json.loads(sidecar_path(path).read_text())
    assert set(lp.col_names_) == set(sidecar["variables"])  # Pyomo's symbolic names, as the sidecar says
    highs.run()
    assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert highs.getInfo().objective_function_value == pytest.approx(get_backend("highs").solve(problem).objective)


def test_problem_ommx_is_the_model(tmp_path, problem):
    """OMMX's own reader: the same variables, every point's objective and feasibility as the model's."""
    instance = Artifact.load_archive(str(export_problem(problem, tmp_path / "model.ommx", "ommx"))).instance
    form = problem.standard_form
    assert [v.name for v in instance.decision_variables] == form.var_names
    greedy = problem.greedy_point()  # feasible, its objective the greedy rule's
    points = [greedy, *np.random.default_rng(2).integers(0, 2, (20, form.num_vars))]
    feasible = problem.feasible(points)
    assert feasible[0] and not feasible.all()
    for x, ok in zip(points, feasible):
        solution = instance.evaluate(dict(enumerate(np.asarray(x, dtype=float).tolist())))
        assert solution.objective == pytest.approx(form.c @ x + form.c0)
        assert solution.feasible == ok
    rule = problem.decode(problem.greedy_values())
    assert instance.evaluate(dict(enumerate(greedy.tolist()))).objective == pytest.approx(problem.objective(rule))
