"""The quantum user's round trip: export a QUBO (with and without η) in every format, solve each file
with a tool that is not boolrules, and decode the answer with `boolrules decode`: the objective is
exactly the one Python's own decode gives. Problems are tiny, so every solver finds exact ground
states (qasm3: QAOA on Aer, whose best measured sample is compared instead)."""

from __future__ import annotations

import json

import dimod
import highspy
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from ommx.artifact import Artifact
from qiskit import qasm3, transpile
from qiskit_aer import AerSimulator

from boolrules.backends import get_backend
from boolrules.cli import main
from boolrules.formats import QUBO_FORMATS, export_problem, export_qubo, load_problem, sidecar_path
from boolrules.formulations import depth_one

FEATURES = ["age >= 40", "smoker"]


@pytest.fixture(scope="module", params=[True, False], ids=["eta", "no-eta"])
def qubo(request):
    """Or with η (7 variables), AtLeast without η (10, with the integer k's bits): exact solvers fit."""
    X = np.array([[1, 0], [0, 1], [1, 1], [0, 0]], dtype=np.uint8)
    y = np.array([0, 1, 1, 0], dtype=np.uint8)
    operator = "Or" if request.param else "AtLeast"
    problem = depth_one(X, y, operator, max_num_literals=2, lam=0.05, sample_weight=[1.0, 2.0, 1.5, 0.5])
    return problem.to_qubo(eta=request.param)


def qbsolv_bqm(text: str) -> dimod.BinaryQuadraticModel:
    """The qbsolv format as its spec has it: comments `c`, one header `p qubo`, then `i j bias` lines;
    no offset (it is the sidecar's)."""
    rows = [line.split() for line in text.splitlines() if line and not line.startswith("c")]
    assert rows[0][:2] == ["p", "qubo"]
    return dimod.BinaryQuadraticModel.from_qubo({(int(i), int(j)): float(b) for i, j, b in rows[1:]})


def ground_states(bqm) -> dimod.SampleSet:
    return dimod.ExactSolver().sample(bqm).lowest()


def enumerate_matrix(Q: sp.spmatrix, offset: float) -> np.ndarray:
    """Every x with the lowest x Q x + offset, by numpy over all 2^n points."""
    n = Q.shape[0]
    points = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
    energies = np.einsum("ij,ij->i", points @ Q.toarray(), points) + offset
    return points[np.isclose(energies, energies.min(), rtol=0, atol=1e-9)]


def solve_elsewhere(path, format, sidecar, tmp_path):
    """The file solved by another tool: (samples as the tool gives them, rows in file order when the test
    reads them itself, the tool's lowest energy with the sidecar's offset where the file has none)."""
    n = len(sidecar["variables"])
    if format == "bqm":
        with open(path, "rb") as f:
            answer = ground_states(dimod.BinaryQuadraticModel.from_file(f))
        return answer.to_serializable(), None, answer.first.energy
    if format == "json":
        answer = ground_states(dimod.BinaryQuadraticModel.from_serializable(json.loads(path.read_text())))
        return [{str(k): int(v) for k, v in sample.items()} for sample in answer.samples()], None, answer.first.energy
    if format == "ising":
        obj = json.loads(path.read_text())
        answer = ground_states(dimod.BinaryQuadraticModel.from_ising(obj["h"], {(u, v): b for u, v, b in obj["J"]},
                                                                     obj["offset"]))
        spins = [{k: int(v) for k, v in sample.items()} for sample in answer.samples()]  # as its solver gives them
        return spins, None, answer.first.energy
    if format == "qubo":
        bqm = qbsolv_bqm(path.read_text())
        bqm.offset += sidecar["offset"]
        answer = ground_states(bqm)
        return ["".join(str(sample[i]) for i in range(n)) for sample in answer.samples()], None, answer.first.energy
    if format == "lp":
        cqm = dimod.lp.load(str(path))
        answer = ground_states(dimod.BinaryQuadraticModel(cqm.objective.linear, cqm.objective.quadratic,
                                                          cqm.objective.offset, "BINARY"))
        return answer.to_serializable(), None, answer.first.energy
    if format in ("npz", "mtx"):
        Q = sp.load_npz(path) if format == "npz" else sp.coo_matrix(scipy.io.mmread(path))
        points = enumerate_matrix(Q, sidecar["offset"])
        energy = points[0] @ Q.toarray() @ points[0] + sidecar["offset"]
        return ["".join(map(str, x)) for x in points], None, energy
    if format == "ommx":
        instance = Artifact.load_archive(str(path)).instance
        terms, offset = instance.as_qubo_format()
        answer = ground_states(dimod.BinaryQuadraticModel.from_qubo(terms, offset))
        for sample, energy in answer.data(["sample", "energy"]):  # OMMX's own evaluation agrees
            assert instance.evaluate(dict(sample)).objective == pytest.approx(energy, abs=1e-9)
        return answer.to_serializable(), None, answer.first.energy
    if format == "qasm3":
        circuit = qasm3.loads(path.read_text())
        bound = circuit.assign_parameters({p: {"beta_0": 0.4, "gamma_0": 0.2}[p.name] for p in circuit.parameters})
        simulator = AerSimulator(seed_simulator=7)
        counts = simulator.run(transpile(bound, simulator, seed_transpiler=7), shots=300).result().get_counts()
        return counts, [[int(c) for c in reversed(key)] for key in counts], None  # little-endian: qubit 0 last
    if format == "cqm":
        with open(path, "rb") as f:
            cqm = dimod.ConstrainedQuadraticModel.from_file(f)
        answer = dimod.ExactCQMSolver().sample_cqm(cqm).filter(lambda row: row.is_feasible).lowest()
        return answer.to_serializable(), None, answer.first.energy
    raise AssertionError(f"no outside solver for {format}")


def rows_in_file_order(samples, sidecar) -> np.ndarray:
    """The samples a tool gave, as rows of 0/1 over the file's variables (the test's own reading)."""
    names = sidecar["variables"]
    if isinstance(samples, dict) and samples.get("type") == "SampleSet":
        samples = dimod.SampleSet.from_serializable(samples)
        if samples.vartype is dimod.SPIN:
            samples = samples.change_vartype("BINARY", inplace=False)
        labels = {str(v): v for v in samples.variables}
        return np.array([[sample[labels[name]] for name in names] for sample in samples.samples()])
    if isinstance(samples[0], str):
        return np.array([[int(c) for c in s] for s in samples])
    spin = sidecar["vartype"] == "SPIN"
    return np.array([[(s[name] + 1) // 2 if spin else s[name] for name in names] for s in samples])


def python_objective(qubo, rows) -> float:
    """What Python's own decode gives: the best objective of `qubo.decode` over the samples."""
    return min(qubo.objective(qubo.decode(row)) for row in rows)


def decode_cli(capsys, sidecar, samples, tmp_path) -> dict:
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(samples))
    assert main(["decode", str(sidecar), str(answer), "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("format", QUBO_FORMATS)
def test_every_format_solved_elsewhere_decodes_to_pythons_objective(capsys, tmp_path, qubo, format):
    path = export_qubo(qubo, tmp_path / f"qubo.{format}", format, FEATURES)
    side = sidecar_path(path)
    sidecar = json.loads(side.read_text())
    samples, rows, energy = solve_elsewhere(path, format, sidecar, tmp_path)
    result = decode_cli(capsys, side, samples, tmp_path)
    if energy is not None:  # the file's energy (plus the sidecar's offset where it has none) is the decoder's
        assert result["energy"] == pytest.approx(energy, abs=1e-9)
    if format == "cqm":  # the model behind the QUBO: its optimum is the ILP's
        optimum = get_backend("highs").solve(qubo.problem).objective
        assert result["objective"] == pytest.approx(optimum, abs=1e-9) and result["stages"]["raw"]["feasible"]
        return
    rows = rows_in_file_order(samples, sidecar) if rows is None else np.array(rows)
    assert result["objective"] == python_objective(qubo, rows)  # exactly
    assert result["samples"] >= len(rows) and result["distinct_samples"] == len(np.unique(rows, axis=0))
    best = np.array([result["sample"][name] for name in sidecar["variables"]])
    if sidecar["vartype"] == "SPIN":
        best = (best + 1) // 2
    assert (rows == best).all(axis=1).any()  # one of the tool's samples, read in the documented bit order
    assert result["energy"] == pytest.approx(qubo.energy(best), abs=1e-9)
    assert result["energy"] == pytest.approx(np.min(qubo.energy(rows)), abs=1e-9)  # raw: the lowest-energy sample
    raw = result["stages"]["raw"]
    assert raw["feasible"] == bool(qubo.feasible(best)[0])
    if raw["feasible"]:
        assert raw["rule"] == qubo.problem.decode(qubo.variable_values(best)[0]).to_str(FEATURES)
    if format != "qasm3":  # a ground state of the sufficient penalties: feasible, and with η the ILP optimum
        assert raw["feasible"] and result["feasible_samples"] == result["samples"]
        assert result["energy"] == pytest.approx(dimod.ExactSolver().sample(qubo.bqm).first.energy, abs=1e-9)
        if qubo.eta:
            optimum = get_backend("highs").solve(qubo.problem).objective
            assert result["objective"] == pytest.approx(optimum, abs=1e-9)
    assert result["stage"] == "repaired" and result["rule"] == result["stages"]["repaired"]["rule"]


@pytest.mark.parametrize("format", ["lp", "mps"])
def test_model_files_solved_by_highs_decode_to_the_optimum(capsys, tmp_path, qubo, format):
    problem = qubo.problem
    path = export_problem(problem, tmp_path / f"model.{format}", format, FEATURES)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
    highs.run()
    values = dict(zip(highs.getLp().col_names_, highs.getSolution().col_value))
    result = decode_cli(capsys, sidecar_path(path), values, tmp_path)
    assert result["stages"]["raw"]["feasible"] and result["stages"]["raw"]["rule"] == result["rule"]
    assert result["objective"] == pytest.approx(highs.getInfo().objective_function_value, abs=1e-9)
    assert result["energy"] == pytest.approx(result["objective"], abs=1e-9)


def test_load_problem_decodes_in_python(tmp_path, qubo):
    loaded = load_problem(sidecar_path(export_qubo(qubo, tmp_path / "q.bqm", "bqm", FEATURES)))
    assert loaded.feature_names == FEATURES and loaded.qubo.labels == qubo.labels
    rows = np.unique(np.random.default_rng(0).integers(0, 2, (30, qubo.num_variables)), axis=0)  # distinct
    decoding = loaded.decode(rows)
    assert decoding.objective == python_objective(qubo, rows)
    feasible = loaded.problem.feasible(qubo.chain[1:].invert(rows, qubo.inverses[1:]), sample_rows=False)
    assert decoding.num_feasible == feasible.sum() < len(rows)
