"""Every writer: the file keeps the QUBO's energies and labels, or is the model or circuit itself."""

import dimod
import highspy
import numpy as np
import pytest
from qiskit import qasm3

from boolrules.backends import get_backend
from boolrules.formats import PROBLEM_FORMATS, export_qubo, load_qubo_file, lp_name
from boolrules.formats.qiskit import qaoa_circuit


@pytest.fixture(scope="module")
def samples(qubo):
    return np.random.default_rng(1).integers(0, 2, (50, qubo.num_variables))


def loaded_energies(model, format, qubo, samples):
    """Energies of `samples` (0/1, in `qubo.labels` order) under a model loaded from a `format` file."""
    labels = {"qubo": range(qubo.num_variables), "lp": [lp_name(v) for v in qubo.labels]}.get(format, qubo.labels)
    spins = model.vartype is dimod.SPIN
    return model.energies((2 * samples - 1 if spins else samples, labels))


@pytest.mark.parametrize("format", ["bqm", "json", "ising", "qubo", "lp"])
def test_qubo_round_trip_keeps_every_energy(tmp_path, qubo, samples, format):
    path = qubo.export(tmp_path / f"qubo.{format}", format)
    assert sorted(tmp_path.iterdir()) == [path]
    model = load_qubo_file(path, format)
    assert model.num_variables == qubo.num_variables
    assert model.vartype is (dimod.SPIN if format == "ising" else dimod.BINARY)
    np.testing.assert_allclose(loaded_energies(model, format, qubo, samples), qubo.energy(samples), rtol=1e-10,
                               atol=1e-9)


def test_bqm_json_and_ising_keep_the_labels(tmp_path, qubo):
    for format in ("bqm", "json", "ising"):
        assert set(load_qubo_file(export_qubo(qubo, tmp_path / format, format), format).variables) == set(qubo.labels)


def test_qasm3_is_the_qaoa_ansatz_with_symbolic_angles(tmp_path, qubo):
    text = qubo.export(tmp_path / "qaoa.qasm", "qasm3").read_text()
    assert text == qasm3.dumps(qaoa_circuit(qubo))
    assert text.startswith("OPENQASM 3.0;") and f"qubit[{qubo.num_variables}] q;" in text
    assert text.count("input float[64]") == 2  # β and γ of reps=1, left for the user to bind


@pytest.mark.parametrize("format", PROBLEM_FORMATS)
def test_problem_files_are_the_model(tmp_path, problem, format):
    path = problem.export(tmp_path / f"model.{format}", format)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
    lp = highs.getLp()
    assert (highs.getNumCol(), highs.getNumRow()) == (problem.num_variables, problem.num_constraints)
    assert set(lp.col_names_) == {lp_name(v) for v in problem.standard_form.var_names}  # Pyomo's symbolic names
    highs.run()
    assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert highs.getInfo().objective_function_value == pytest.approx(get_backend("highs").solve(problem).objective)
