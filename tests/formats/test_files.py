"""Export and load by format name: unknown formats are listed, and a failed write leaves no partial file."""

import shutil

import pytest

from boolrules.formats import LOAD_FORMATS, QUBO_FORMATS, export_problem, export_qubo, files, load_qubo_file


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
        export_qubo(qubo, path, "bqm")
    assert path.read_text() == "the previous export" and list(tmp_path.iterdir()) == [path]


def test_a_failed_rename_leaves_no_file(tmp_path, problem, monkeypatch):
    def fail(src, dst):
        raise PermissionError("read-only directory")

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(PermissionError):
        export_problem(problem, tmp_path / "model.mps", "mps")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_sidecar_leaves_neither_file(tmp_path, qubo, monkeypatch):
    path = tmp_path / "qubo.json"
    path.write_text("the previous export")

    def fail(*args):
        raise RuntimeError("no sidecar today")

    monkeypatch.setattr(files, "qubo_sidecar", fail)
    with pytest.raises(RuntimeError, match="no sidecar today"):
        export_qubo(qubo, path, "json")
    assert path.read_text() == "the previous export" and list(tmp_path.iterdir()) == [path]
