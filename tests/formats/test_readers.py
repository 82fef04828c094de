"""Every reader refuses a truncated, corrupt or foreign file with a ValueError saying what is wrong."""

import json

import pytest

from boolrules.formats import LOAD_FORMATS, export_problem, export_qubo, load_qubo_file


@pytest.mark.parametrize("format", LOAD_FORMATS)
def test_truncated_files_are_refused(tmp_path, qubo, format):
    path = export_qubo(qubo, tmp_path / f"qubo.{format}", "cqm" if format == "cqm" else format)
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
    path = export_qubo(qubo, tmp_path / "model", written_as)
    with pytest.raises(ValueError, match=f"{path} is not a valid '{format}' file"):
        load_qubo_file(path, format)


def test_a_model_lp_with_constraints_is_no_qubo(tmp_path, problem):
    path = export_problem(problem, tmp_path / "model.lp", "lp")
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
    path = export_qubo(qubo, tmp_path / "qubo.json", format)
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
    path = export_qubo(qubo, tmp_path / "qubo.qubo", "qubo")
    path.write_text("\n".join(edit(path.read_text().splitlines())))
    with pytest.raises(ValueError, match=match):
        load_qubo_file(path, "qubo")


def test_corrupt_bqm_header_is_refused(tmp_path, qubo):
    path = export_qubo(qubo, tmp_path / "qubo.bqm", "bqm")
    data = bytearray(path.read_bytes())
    data[0:8] = b"NOTDIMOD"
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="does not start with DIMODBQM"):
        load_qubo_file(path, "bqm")
