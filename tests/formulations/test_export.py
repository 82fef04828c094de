import json
import shutil

import dimod
import highspy
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from qiskit import qasm3

from boolrules.backends import get_backend
from boolrules.formulations import export as export_module
from boolrules.formulations.export import (
    LOAD_FORMATS, PROBLEM_FORMATS, QUBO_FORMATS, export_problem, export_qubo, load_qubo_file, lp_name, to_cqm,
)
from boolrules.formulations.to_qiskit import qaoa_circuit


@pytest.fixture(scope="module")
def problem(atleast_problem):
    return atleast_problem


@pytest.fixture(scope="module")
def qubo(atleast_qubo):
    return atleast_qubo


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


def test_cqm_round_trip_is_the_standard_form(tmp_path, problem, qubo):
    cqm = load_qubo_file(qubo.export(tmp_path / "problem.cqm", "cqm"), "cqm")
    form = problem.standard_form
    assert cqm.is_equal(to_cqm(problem))
    assert sorted(cqm.constraints) == sorted(form.row_names)
    assert {cqm.vartype(v) for v in cqm.variables} == {dimod.BINARY, dimod.INTEGER}
    rng = np.random.default_rng(2)
    upper = form.var_upper.astype(int)
    x = rng.integers(0, upper + 1, (50, len(upper)))
    with_eta = x.copy()  # η_i = 1 satisfies every sample row, so many of these are feasible
    with_eta[:, [i for i, n in enumerate(form.var_names) if n.startswith("eta[")]] = 1
    x = np.vstack([x, with_eta, np.where(np.char.startswith(form.var_names, "eta["), 1, 0)])
    np.testing.assert_allclose(cqm.objective.energies((x, form.var_names)), x @ form.c + form.c0)
    Ax = form.A @ x.T
    expected = ((Ax >= form.lower[:, None] - 1e-9) & (Ax <= form.upper[:, None] + 1e-9)).all(axis=0)
    feasible = np.array([cqm.check_feasible(dict(zip(form.var_names, row))) for row in x])
    assert np.array_equal(feasible, expected) and 0 < feasible.sum() < len(x)


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


@pytest.mark.parametrize("format", LOAD_FORMATS)
def test_truncated_files_are_refused(tmp_path, qubo, format):
    path = qubo.export(tmp_path / f"qubo.{format}", "cqm" if format == "cqm" else format)
    data = path.read_bytes()
    for keep in (len(data) // 3, len(data) - 10):
        path.write_bytes(data[:keep])
        with pytest.raises(ValueError, match=f"is not a valid '{format}' file"):
            load_qubo_file(path, format)


@pytest.mark.parametrize("format, written_as", [
    ("bqm", "json"), ("json", "qubo"), ("ising", "json"), ("qubo", "ising"), ("lp", "qubo"), ("cqm", "bqm"),
    ("json", "bqm"),
])
def test_files_of_another_format_are_refused(tmp_path, qubo, format, written_as):
    path = qubo.export(tmp_path / "model", written_as)
    with pytest.raises(ValueError, match=f"{path} is not a valid '{format}' file"):
        load_qubo_file(path, format)


def test_a_model_lp_with_constraints_is_no_qubo(tmp_path, problem):
    path = problem.export(tmp_path / "model.lp", "lp")
    with pytest.raises(ValueError, match=f"has {problem.num_constraints} constraints; a QUBO has none"):
        load_qubo_file(path, "lp")


@pytest.mark.parametrize("format, edit, match", [
    ("json", lambda obj: {**obj, "linear_biases": ["x", *obj["linear_biases"][1:]]}, "could not convert"),
    ("json", lambda obj: {**obj, "quadratic_head": [10**6, *obj["quadratic_head"][1:]]}, "must be variable indices"),
    ("json", lambda obj: {**obj, "quadratic_tail": obj["quadratic_tail"][1:]}, "and num_interactions disagree"),
    ("json", lambda obj: {**obj, "type": "DiscreteQuadraticModel"}, "not a serialized dimod BQM"),
    ("json", lambda obj: {**obj, "offset": float("nan")}, "must be finite"),
    ("ising", lambda obj: {**obj, "J": [["a", "b"]]}, r'"J" be a list of \[u, v, bias\]'),
    ("ising", lambda obj: {**obj, "extra": 1}, "an Ising file holds exactly"),
])
def test_corrupt_json_is_refused(tmp_path, qubo, format, edit, match):
    path = qubo.export(tmp_path / "qubo.json", format)
    path.write_text(json.dumps(edit(json.loads(path.read_text()))))
    with pytest.raises(ValueError, match=match):
        load_qubo_file(path, format)


@pytest.mark.parametrize("edit, match", [
    (lambda lines: lines + ["0 999 1.0"], r"variable numbers must be integers 0\.\.\d+"),
    (lambda lines: lines[:-1], r"the header announces \d+ nodes and \d+ couplers, the file has"),
    (lambda lines: [line for line in lines if not line.startswith("p")], "line 3: data before the 'p qubo' header"),
    (lambda lines: [line for line in lines if line.startswith("c")], "no 'p qubo' header"),
    (lambda lines: lines + ["0 1 nan"], "must be finite"),
    (lambda lines: lines + ["0 1"], r"expected 'i j bias', got '0 1'"),
])
def test_corrupt_qbsolv_is_refused(tmp_path, qubo, edit, match):
    path = qubo.export(tmp_path / "qubo.qubo", "qubo")
    path.write_text("\n".join(edit(path.read_text().splitlines())))
    with pytest.raises(ValueError, match=match):
        load_qubo_file(path, "qubo")


def test_corrupt_bqm_header_is_refused(tmp_path, qubo):
    path = qubo.export(tmp_path / "qubo.bqm", "bqm")
    data = bytearray(path.read_bytes())
    data[0:8] = b"NOTDIMOD"
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="does not start with DIMODBQM"):
        load_qubo_file(path, "bqm")


def test_unknown_formats_list_the_known_ones(tmp_path, problem, qubo):
    with pytest.raises(ValueError, match="unknown QUBO export format 'xlsx'; formats: bqm, json, cqm, ising, qubo, lp, "
                                         "qasm3"):
        export_qubo(qubo, tmp_path / "q.xlsx", "xlsx")
    with pytest.raises(ValueError, match="unknown model export format 'bqm'; formats: lp, mps"):
        export_problem(problem, tmp_path / "m.bqm", "bqm")
    with pytest.raises(ValueError, match="unknown QUBO file format 'qasm3'; formats: bqm, json, ising, qubo, lp, cqm"):
        load_qubo_file(tmp_path / "q.qasm", "qasm3")
    with pytest.raises(FileNotFoundError, match="no such file"):
        load_qubo_file(tmp_path / "missing.bqm", "bqm")
    assert set(QUBO_FORMATS) >= set(LOAD_FORMATS)


def test_a_failed_write_leaves_no_partial_file(tmp_path, qubo, monkeypatch):
    path = tmp_path / "qubo.bqm"
    path.write_text("the previous export")

    def disk_full(source, target):
        target.write(source.read(100))
        raise OSError("No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", disk_full)
    with pytest.raises(OSError, match="No space left"):
        qubo.export(path, "bqm")
    assert path.read_text() == "the previous export" and list(tmp_path.iterdir()) == [path]


def test_a_failed_rename_leaves_no_file(tmp_path, problem, monkeypatch):
    def fail(src, dst):
        raise PermissionError("read-only directory")

    monkeypatch.setattr(export_module.os, "replace", fail)
    with pytest.raises(PermissionError):
        problem.export(tmp_path / "model.mps", "mps")
    assert list(tmp_path.iterdir()) == []


# The bqm reader (our own, so that it can check a file before use) against dimod's writer and reader


def dimod_file(tmp_path_factory, model, fmt: str):
    """`model` written by dimod's own `to_file` to a fresh file."""
    path = tmp_path_factory.mktemp(fmt) / f"model.{fmt}"
    with model.to_file() as data:
        path.write_bytes(data.read())
    return path


@st.composite
def bqms(draw):
    """Random BQMs: 0-8 variables labelled by ints, strings or tuples, any interactions, both vartypes."""
    n = draw(st.integers(0, 8))
    kind = draw(st.sampled_from(["int", "str", "tuple", "range"]))
    labels = {"int": [3 * i + 1 for i in range(n)], "str": [f"v{i}" for i in range(n)],
              "tuple": [("b", i) for i in range(n)], "range": list(range(n))}[kind]
    biases = st.floats(-1e6, 1e6, allow_nan=False)
    bqm = dimod.BQM(draw(st.sampled_from(["BINARY", "SPIN"])))
    for v in labels:
        bqm.add_variable(v, draw(biases))
    pairs = [(u, v) for i, u in enumerate(labels) for v in labels[i + 1:]]
    for u, v in draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []:
        bqm.add_interaction(u, v, draw(biases))
    bqm.offset = draw(biases)
    return bqm


@settings(max_examples=60, deadline=None)
@given(bqm=bqms())
def test_bqm_files_read_back_as_dimod_reads_them(tmp_path_factory, bqm):
    path = dimod_file(tmp_path_factory, bqm, "bqm")
    loaded = load_qubo_file(path, "bqm")
    with open(path, "rb") as f:
        reference = dimod.BinaryQuadraticModel.from_file(f)
    assert loaded.vartype is reference.vartype is bqm.vartype
    assert list(loaded.variables) == list(reference.variables) == list(bqm.variables)
    assert loaded.is_equal(reference) and loaded.is_equal(bqm)


@st.composite
def cqms(draw):
    """Random CQMs: binary, spin, integer and real variables with any labels, a quadratic objective,
    linear and quadratic constraints of every sense, soft and discrete ones."""
    cqm = dimod.ConstrainedQuadraticModel()
    n = draw(st.integers(1, 6))
    labels = draw(st.sampled_from([list(range(n)), [f"x{i}" for i in range(n)], [("y", i) for i in range(n)]]))
    kinds = dict(zip(labels, draw(st.lists(st.sampled_from(["BINARY", "SPIN", "INTEGER", "REAL"]),
                                           min_size=n, max_size=n))))
    bounds = {"lower_bound": -3, "upper_bound": 7}
    for v, kind in kinds.items():
        cqm.add_variable(kind, v, **(bounds if kind in ("INTEGER", "REAL") else {}))
    coefficient = st.floats(-100, 100, allow_nan=False).filter(lambda c: c != 0)
    not_real = [v for v in labels if kinds[v] != "REAL"]
    pairs = [(u, v) for i, u in enumerate(not_real) for v in not_real[i + 1:]]

    def expression() -> dimod.QM:
        qm = dimod.QM()
        for v in draw(st.lists(st.sampled_from(labels), unique=True)):
            qm.add_variable(kinds[v], v, **(bounds if kinds[v] in ("INTEGER", "REAL") else {}))
            qm.add_linear(v, draw(coefficient))
        for u, v in draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []:
            for w in (u, v):
                qm.add_variable(kinds[w], w, **(bounds if kinds[w] == "INTEGER" else {}))
            qm.add_quadratic(u, v, draw(coefficient))
        return qm

    cqm.set_objective(expression())
    for i in range(draw(st.integers(0, 4))):
        lhs = expression()
        if lhs.num_variables == 0:
            continue
        soft = draw(st.booleans())
        all_binary = all(kinds[v] == "BINARY" for v in lhs.variables)  # dimod's condition for a quadratic penalty
        penalty = draw(st.sampled_from(["linear", "quadratic"])) if soft and all_binary else "linear"
        cqm.add_constraint_from_model(lhs, draw(st.sampled_from(["<=", ">=", "=="])), draw(st.floats(-50, 50)),
                                      label=f"c{i}", weight=draw(st.floats(0.5, 9)) if soft else None,
                                      penalty=penalty)
    binaries = [v for v in labels if kinds[v] == "BINARY"]
    if len(binaries) >= 2 and draw(st.booleans()):
        cqm.add_discrete(binaries, label="one-hot")
    return cqm


@settings(max_examples=60, deadline=None)
@given(cqm=cqms())
def test_cqm_files_pass_the_checks_and_read_back(tmp_path_factory, cqm):
    """The checks before dimod's reader refuse no CQM file that dimod writes."""
    loaded = load_qubo_file(dimod_file(tmp_path_factory, cqm, "cqm"), "cqm")
    assert loaded.is_equal(cqm)
    assert list(loaded.variables) == list(cqm.variables)
