"""Bad files and bad text at every public entry point: each gives a clear error naming what was wrong.

Rule text and JSON (`parse`, `from_dict`, `from_json`), backend configs (`load_backend`,
`backend_from_spec`), the command line, `load_dataset` and `load_csv` (QUBO files: `tests/formats/test_bad_files.py`).
Every error is checked with `assert_clear_error`: it names the argument, file or key, and is raised by
boolrules itself, not deep inside json, pandas or gzip.
"""

from __future__ import annotations

import gzip
import json

import numpy as np
import pandas as pd
import pytest

from boolrules import from_dict, load_csv, load_dataset, parse
from boolrules.backends.config import backend_from_spec, load_backend
from boolrules.cli import main
from boolrules.rules import And, Literal, Or
from boolrules.rules.serialize import from_json

from .errors import assert_raises_clearly


def deep_dict(levels: int) -> dict:
    rule = {"literal": 0}
    for _ in range(levels):
        rule = {"operator": "Or", "subrules": [rule]}
    return rule


def cyclic_dict() -> dict:
    rule = {"operator": "Or", "subrules": []}
    rule["subrules"].append(rule)
    return rule


# Rule text


RULE_TEXT = [
    pytest.param("hello world", (ValueError, "position 0"), id="garbage"),
    pytest.param("", (ValueError, "position 0"), id="empty"),
    pytest.param("And(f0, f1", (ValueError, "position 10", "')'"), id="unclosed-paren"),
    pytest.param("And(f0, f1))", (ValueError, "unexpected text", "position 11"), id="extra-paren"),
    pytest.param("Or(f0,, f1)", (ValueError, "position 6"), id="empty-argument"),
    pytest.param("Xor(f0, f1)", (ValueError, "unknown operator 'Xor'", "Or, And"), id="unknown-operator"),
    pytest.param("AtLeast(f0, f1)", (ValueError, "AtLeast", "parameter"), id="k-missing"),
    pytest.param("AtLeast5(f0, f1)", (ValueError, "AtLeast", "k=5"), id="k-too-large"),
    pytest.param("Or2(f0, f1)", (ValueError, "Or", "takes no parameter"), id="k-on-or"),
    pytest.param("AtLeast" + "9" * 5000 + "(f0)", (ValueError, "parameter of AtLeast", "digits"), id="k-huge"),
    pytest.param("f" + "9" * 5000, (ValueError, "feature index", "digits"), id="index-huge"),
    pytest.param("f-1", (ValueError, "position 0"), id="index-negative"),
    pytest.param("f\u0661", (ValueError, "position 0"), id="index-unicode-digit"),
    pytest.param("And(" * 100_000 + "f0", (ValueError, "position 400002", "')'"), id="nesting-huge-unclosed"),
    pytest.param("Or(f0, f1)\x00", (ValueError, "unexpected text"), id="nul-byte"),
    pytest.param(b"f0", (TypeError, "string", "bytes"), id="bytes"),
    pytest.param(None, (TypeError, "string", "NoneType"), id="none"),
]


@pytest.mark.parametrize("text, expected", RULE_TEXT)
def test_bad_rule_text(text, expected):
    error, *names = expected
    assert_raises_clearly(error, lambda: parse(text), *names)


def test_a_long_run_of_negations_parses_without_recursion():
    assert parse("~" * 100_001 + "f0") == ~Literal(0)
    assert parse("~" * 100_000 + "Or(f0, f1)") == Or(Literal(0), Literal(1))


# Rule dictionaries and JSON


RULE_DICTS = [
    pytest.param([], ("must be a dict", "list"), id="top-level-list"),
    pytest.param("f0", ("must be a dict", "str"), id="top-level-string"),
    pytest.param(None, ("must be a dict", "NoneType"), id="top-level-null"),
    pytest.param({}, ("'literal', 'constant' or 'operator'",), id="no-keys"),
    pytest.param({"operator": "Or"}, ("'subrules'",), id="subrules-missing"),
    pytest.param({"operator": "Or", "subrules": "f0"}, ("'subrules'", "list"), id="subrules-string"),
    pytest.param({"operator": "Or", "subrules": []}, ("Or", "sub-rule"), id="subrules-empty"),
    pytest.param({"operator": "Or", "subrules": [3]}, ("must be a dict", "int"), id="subrule-int"),
    pytest.param({"operator": "AtLeast", "subrules": [{"literal": 0}]}, ("AtLeast", "'k'"), id="k-missing"),
    pytest.param({"operator": "Or", "k": 1, "subrules": [{"literal": 0}]}, ("Or", "takes no 'k'"), id="k-on-or"),
    pytest.param({"operator": "AtLeast", "k": "1", "subrules": [{"literal": 0}]}, ("k", "integer"), id="k-string"),
    pytest.param({"operator": "AtLeast", "k": float("inf"), "subrules": [{"literal": 0}]}, ("k", "integer"),
                 id="k-inf"),
    pytest.param({"operator": "AtLeast", "k": 10**30, "subrules": [{"literal": 0}]}, ("k=1000000", "between"),
                 id="k-huge"),
    pytest.param({"operator": "Xor", "subrules": [{"literal": 0}]}, ("unknown operator 'Xor'",), id="unknown-op"),
    pytest.param({"operator": ["Or"], "subrules": [{"literal": 0}]}, ("unknown operator ['Or']",), id="op-list"),
    pytest.param({"operator": "Or", "negated": None, "subrules": [{"literal": 0}]}, ("negated", "true or false"),
                 id="negated-null"),
    pytest.param({"literal": -1}, ("literal index", ">= 0"), id="literal-negative"),
    pytest.param({"literal": "3"}, ("literal index", "integer"), id="literal-string"),
    pytest.param({"literal": True}, ("literal index", "integer"), id="literal-bool"),
    pytest.param({"literal": float("nan")}, ("literal index", "nan"), id="literal-nan"),
    pytest.param({"literal": 1e308}, ("literal index", "integer"), id="literal-float-huge"),
    pytest.param({"literal": 1, "negated": "yes"}, ("negated", "true or false"), id="negated-string"),
    pytest.param({"literal": 1, "extra": 0}, ("unexpected keys", "extra"), id="extra-key"),
    pytest.param({"constant": "true"}, ("'constant'", "true or false"), id="constant-string"),
    pytest.param(cyclic_dict(), ("cycle",), id="cycle"),
    pytest.param({"operator": "Or", "subrules": [deep_dict(3), cyclic_dict()]}, ("cycle",), id="cycle-below"),
]


@pytest.mark.parametrize("data, names", RULE_DICTS)
def test_bad_rule_dicts(data, names):
    assert_raises_clearly(ValueError, lambda: from_dict(data), *names)


RULE_JSON = [
    pytest.param('{"operator": "Or", "subrules": [' * 5000 + '{"literal": 0}' + "]}" * 4999,
                 (ValueError, "rule JSON", "position"), id="nesting-huge-truncated"),
    pytest.param("[" * 100_000 + "]" * 100_000, (ValueError, "must be a dict", "list"), id="nesting-huge-lists"),
    pytest.param('{"literal": ' + "9" * 5000 + "}", (ValueError, "rule JSON", "digits"), id="int-huge"),
    pytest.param('{"literal": NaN}', (ValueError, "rule JSON", "NaN"), id="nan"),
    pytest.param('{"literal": -Infinity}', (ValueError, "rule JSON", "Infinity"), id="infinity"),
    pytest.param('{"literal": 1e999}', (ValueError, "literal index", "inf"), id="float-overflow"),
    pytest.param('{"operator": "Or", "subrules": [{"literal": 0}]', (ValueError, "rule JSON", "char"),
                 id="truncated"),
    pytest.param("[1, 2]", (ValueError, "must be a dict", "list"), id="top-level-list"),
    pytest.param(b"\xff\xfe{}", (ValueError, "rule JSON"), id="not-utf8"),
    pytest.param({"literal": 0}, (TypeError, "JSON text", "dict"), id="a-dict-not-text"),
]


@pytest.mark.parametrize("text, expected", RULE_JSON)
def test_bad_rule_json(text, expected):
    error, *names = expected
    assert_raises_clearly(error, lambda: from_json(text), *names)


def test_rule_json_round_trips():
    rule = And(Literal(0), ~Or(Literal(1), Literal(2)))
    assert from_json(json.dumps(rule.to_dict())) == rule


@pytest.mark.parametrize("levels", [300, 5000, 10_000])
def test_deeply_nested_rule_dicts_and_json_load(levels):
    """Any depth that can be written is read back (issue 15, item 8): no recursion, no depth cap.
    json.loads recurses past about 500 levels here, a recursive from_dict past 1000 (the recursion
    limit); 10,000 is ten times that."""
    rule = from_dict(deep_dict(levels))
    assert rule.depth == levels and rule.literals() == (Literal(0),)
    text = '{"operator": "Or", "subrules": [' * levels + '{"literal": 0}' + "]}" * levels
    assert from_json(text) == rule


def test_shared_sub_dicts_are_no_cycle():
    shared = deep_dict(3)
    assert from_dict({"operator": "And", "subrules": [shared, shared]}) == And(from_dict(shared), from_dict(shared))


# Backend configs


def _toml(text):
    def make(tmp_path):
        path = tmp_path / "backend.toml"
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return path
    return make


CONFIGS = [
    pytest.param(lambda tmp: tmp / "missing.toml", FileNotFoundError, ["missing.toml", "does not exist"],
                 id="missing"),
    pytest.param(lambda tmp: (tmp / "dir.toml").mkdir() or tmp / "dir.toml", FileNotFoundError,
                 ["dir.toml", "is a folder"], id="folder"),
    pytest.param(_toml(""), ValueError, ["backend.toml", "no [backend] table"], id="empty"),
    pytest.param(_toml("name: highs\n"), ValueError, ["backend.toml", "invalid TOML"], id="yaml-not-toml"),
    pytest.param(_toml('{"backend": {"name": "highs"}}'), ValueError, ["invalid TOML"], id="json-not-toml"),
    pytest.param(_toml("[backend]\nname = 'highs'".encode("utf-16")), ValueError, ["invalid TOML", "utf-8"],
                 id="utf16-not-toml"),
    pytest.param(_toml(np.random.default_rng(0).bytes(200)), ValueError, ["invalid TOML"], id="random-bytes"),
    pytest.param(_toml("[backend]\nthreads = 2\n"), ValueError, ["name = None", "highs"], id="name-missing"),
    pytest.param(_toml('backend = "highs"\n'), ValueError, ["no [backend] table"], id="backend-a-string"),
    pytest.param(_toml('[backend]\nname = "gurobi9"\n'), ValueError, ["'gurobi9'", "highs"], id="unknown-backend"),
    pytest.param(_toml('[backend]\nname = ["highs"]\n'), ValueError, ["['highs']", "not a backend"],
                 id="name-a-list"),
    pytest.param(_toml('[backend]\nname = "highs"\ntimelimit = 3\n'), ValueError, ["'timelimit'", "time_limit"],
                 id="unknown-option"),
    pytest.param(_toml('[backend]\nname = "highs"\ntime_limit = "60"\n'), ValueError, ["time_limit", "'60'"],
                 id="string-for-a-number"),
    pytest.param(_toml('[backend]\nname = "highs"\ntime_limit = -1\n'), ValueError, ["time_limit", ">= 0"],
                 id="negative-time-limit"),
    pytest.param(_toml('[backend]\nname = "highs"\ntime_limit = nan\n'), ValueError, ["time_limit", "finite"],
                 id="nan-time-limit"),
    pytest.param(_toml('[backend]\nname = "highs"\ntime_limit = [60]\n'), ValueError, ["time_limit", "[60]"],
                 id="list-for-a-scalar"),
    pytest.param(_toml('[backend]\nname = "highs"\ntime_limit = 1979-05-27\n'), ValueError, ["time_limit"],
                 id="date-for-a-number"),
    pytest.param(_toml('[backend]\nname = "sa"\nnum_reads = [1, 2]\n'), ValueError, ["num_reads", "integer"],
                 id="list-for-an-integer"),
    pytest.param(_toml('[backend]\nname = "sa"\nnum_reads = 2.5\n'), ValueError, ["num_reads", "integer"],
                 id="float-for-an-integer"),
    pytest.param(_toml('[backend]\nname = "sa"\nnum_reads = -1\n'), ValueError, ["num_reads", ">= 1"],
                 id="negative-reads"),
    pytest.param(_toml('[backend]\nname = "sa"\n[qubo]\neta = 1\n'), ValueError, ["[qubo] eta", "true, false or \"auto\""],
                 id="int-for-a-bool"),
    pytest.param(_toml('[backend]\nname = "sa"\n[qubo]\nslack = ["minimal"]\n'), ValueError, ["slack"],
                 id="list-for-a-choice"),
    pytest.param(_toml('[backend]\nname = "sa"\n[qubo.penalty]\nsoft = nan\nhard = 1\n'), ValueError,
                 ["[qubo.penalty]", "penalty['soft']", "finite"], id="nan-penalty"),
    pytest.param(_toml('[backend]\nname = "sa"\n[qubo.penalty]\nsoft = inf\nhard = 1\n'), ValueError,
                 ["penalty", "finite"], id="inf-penalty"),
]


@pytest.mark.parametrize("make, error, names", CONFIGS)
def test_bad_backend_configs(tmp_path, make, error, names):
    path = make(tmp_path)
    for load in (load_backend, backend_from_spec):
        assert_raises_clearly(error, lambda: load(path), *names)


@pytest.mark.parametrize("spec, error, names", [
    pytest.param(None, ValueError, ["backend must be a name", "None"], id="spec-none"),
    pytest.param(["highs"], ValueError, ["backend must be a name", "['highs']"], id="spec-list"),
    pytest.param("highs.yaml", ValueError, ["backend must be a name", "highs.yaml"], id="spec-not-toml"),
])
def test_bad_backend_specs(spec, error, names):
    assert_raises_clearly(error, lambda: backend_from_spec(spec), *names)


def test_load_backend_needs_a_path():
    assert_raises_clearly(TypeError, lambda: load_backend(None), "path", "NoneType")


# The command line


@pytest.fixture(scope="module")
def csvs(tmp_path_factory):
    """Small CSV files, good and bad, by name."""
    folder = tmp_path_factory.mktemp("csv")
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=40), rng.normal(size=40)
    frames = {
        "good": pd.DataFrame({"a": a, "b": b, "y": np.where(a > 0, "yes", "no")}),
        "one-class": pd.DataFrame({"a": a, "b": b, "y": "yes"}),
        "all-nan": pd.DataFrame({"a": a, "b": np.nan, "y": np.where(a > 0, "yes", "no")}),
        "inf": pd.DataFrame({"a": a, "b": np.where(b > 1, np.inf, b), "y": np.where(a > 0, "yes", "no")}),
        "text": pd.DataFrame({"color": rng.choice(["red", "blue", "green"], 40), "size": rng.choice(["S", "L"], 40),
                              "y": np.where(a > 0, 1, 0)}),
        "label-only": pd.DataFrame({"y": np.where(a > 0, 1, 0)}),
    }
    paths = {}
    for name, frame in frames.items():
        paths[name] = folder / f"{name}.csv"
        frame.to_csv(paths[name], index=False)
    raw = {"empty": b"", "random": np.random.default_rng(1).bytes(500), "ragged": b"a,b,y\n1,2\n3,4,5,6,7\n"}
    for name, data in raw.items():
        paths[name] = folder / f"{name}.csv"
        paths[name].write_bytes(data)
    paths["missing"] = folder / "missing.csv"
    paths["truncated-gz"] = folder / "truncated.csv.gz"
    paths["truncated-gz"].write_bytes(gzip.compress(paths["good"].read_bytes())[:60])
    return paths


FIT = ["fit", "--num-starts", "1", "--num-iterations", "20", "--max-complexity", "4"]
SOLVE = ["solve", "--max-num-literals", "2", "--time-limit", "5"]
INSPECT = ["inspect", "--max-num-literals", "2"]
EXPORT = ["export", "--max-num-literals", "2", "--format", "bqm", "-o", "{tmp}/out.bqm"]
COMMANDS = {"fit": FIT, "solve": SOLVE, "inspect": INSPECT, "export": EXPORT}


def _csv(name, label="y"):
    return ["--csv", f"{{{name}}}", "--label", label]


CLI = [
    *[pytest.param(argv + _csv("missing"), 2, ["missing.csv", "does not exist"], id=f"{cmd}-csv-missing")
      for cmd, argv in COMMANDS.items()],
    *[pytest.param(argv + _csv("good", "churn"), 2, ["'churn'", "good.csv"], id=f"{cmd}-label-column-missing")
      for cmd, argv in COMMANDS.items()],
    *[pytest.param(argv + _csv("one-class"), 2, ["'y'", "1 distinct value"], id=f"{cmd}-one-class")
      for cmd, argv in COMMANDS.items()],
    *[pytest.param(argv + ["--dataset", "iris"], 2, ["'iris'", "breast_cancer"], id=f"{cmd}-unknown-dataset")
      for cmd, argv in COMMANDS.items()],
    pytest.param(INSPECT + _csv("all-nan"), 2, ["'y'", "0 distinct value"], id="inspect-nan-in-every-row"),
    pytest.param(INSPECT + _csv("inf"), 2, ["'b'", "infinity"], id="inspect-inf-in-csv"),
    pytest.param(SOLVE + _csv("label-only"), 2, ["no feature columns", "'y'"], id="solve-label-only"),
    pytest.param(INSPECT + _csv("empty"), 2, ["empty.csv", "cannot read CSV"], id="inspect-empty-csv"),
    pytest.param(INSPECT + _csv("random"), 2, ["random.csv", "cannot read CSV"], id="inspect-random-bytes-csv"),
    pytest.param(INSPECT + _csv("ragged"), 2, ["ragged.csv", "cannot read CSV"], id="inspect-ragged-csv"),
    pytest.param(INSPECT + _csv("truncated-gz"), 2, ["truncated.csv.gz", "cannot read CSV"],
                 id="inspect-truncated-gzip-csv"),
    pytest.param(INSPECT + ["--csv", "{tmp}", "--label", "y"], 2, ["is a folder"], id="inspect-csv-a-folder"),
    pytest.param(INSPECT + _csv("text", "color"), 2, ["3 distinct values", "pass --positive VALUE"],
                 id="inspect-three-classes-need-positive"),
    pytest.param(INSPECT + _csv("good") + ["--positive", "maybe"], 2, ["--positive 'maybe'", "column 'y'"],
                 id="inspect-positive-not-a-value"),
    pytest.param(FIT + ["--config", "{tmp}/missing.toml"], 2, ["missing.toml", "does not exist"],
                 id="fit-config-missing"),
    pytest.param(SOLVE + ["--config", "{tmp}"], 2, ["is a folder"], id="solve-config-a-folder"),
    pytest.param(SOLVE + ["--backend", "{tmp}/missing.toml"], 2, ["--backend:", "missing.toml", "does not exist"],
                 id="solve-backend-toml-missing"),
    pytest.param(FIT + ["--nonlocal-backend", "{tmp}/missing.toml"], 2,
                 ["--nonlocal-backend:", "missing.toml", "does not exist"], id="fit-nonlocal-backend-toml-missing"),
    pytest.param(SOLVE + ["--config", "{csv:good}"], 2, ["good.csv", "invalid TOML"], id="solve-config-not-toml"),
    pytest.param(FIT + ["--nonlocal-backend", "{csv:good}"], 2, ["good.csv", "unknown backend"],
                 id="fit-backend-a-csv"),
    pytest.param(["export", "--format", "bqm", "-o", "{tmp}"], 2, ["--output", "is a folder"],
                 id="export-output-a-folder"),
    pytest.param(["export", "--format", "bqm", "-o", "{csv:good}/out.bqm"], 2, ["--output", "good.csv"],
                 id="export-output-under-a-file"),
    pytest.param(["export", "--max-samples", "30", "--format", "bqm", "-o", "/proc/boolrules.bqm"], 2,
                 ["--output", "/proc/boolrules.bqm"], id="export-output-unwritable"),
]


def _fill(arg: str, tmp_path, csvs) -> str:
    if arg.startswith("{csv:"):
        name, _, rest = arg[5:].partition("}")
        return str(csvs[name]) + rest
    if arg.startswith("{") and arg[1:].split("}")[0] in csvs:
        return str(csvs[arg[1:-1]])
    return arg.replace("{tmp}", str(tmp_path))


@pytest.mark.parametrize("argv, code, names", CLI)
def test_bad_command_lines(capsys, tmp_path, csvs, argv, code, names):
    assert main([_fill(arg, tmp_path, csvs) for arg in argv]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boolrules: error: "), err
    for name in names:
        assert name in lines[0], err


LOAD_CSV = [
    pytest.param("missing", {}, FileNotFoundError, ["missing.csv", "does not exist"], id="missing"),
    pytest.param("empty", {}, ValueError, ["empty.csv", "cannot read CSV"], id="empty"),
    pytest.param("random", {}, ValueError, ["random.csv", "cannot read CSV"], id="random-bytes"),
    pytest.param("ragged", {}, ValueError, ["ragged.csv", "cannot read CSV"], id="ragged"),
    pytest.param("truncated-gz", {}, ValueError, ["truncated.csv.gz", "cannot read CSV"], id="truncated-gz"),
    pytest.param("good", {"label": "churn"}, ValueError, ["'churn'", "good.csv", "its columns: a, b, y"],
                 id="label-column-missing"),
    pytest.param("one-class", {}, ValueError, ["'y'", "1 distinct value"], id="one-class"),
    pytest.param("label-only", {}, ValueError, ["no feature columns", "'y'"], id="label-only"),
    pytest.param("text", {"label": "color"}, ValueError, ["'color'", "3 distinct values", "pass positive VALUE"],
                 id="three-classes-need-positive"),
    pytest.param("good", {"positive": "maybe"}, ValueError, ["positive 'maybe'", "column 'y'", "no, yes"],
                 id="positive-not-a-value"),
    pytest.param("good", {"positive": "maybe", "positive_name": "--positive"}, ValueError, ["--positive 'maybe'"],
                 id="positive-named-by-the-caller"),
    pytest.param(None, {}, TypeError, ["path", "NoneType"], id="path-none"),
]


@pytest.mark.parametrize("name, kwargs, error, names", LOAD_CSV)
def test_bad_csv_files(csvs, name, kwargs, error, names):
    path = csvs[name] if name else None
    assert_raises_clearly(error, lambda: load_csv(path, **{"label": "y", **kwargs}), *names)


def test_text_columns_are_binarized(capsys, csvs):
    assert main(INSPECT + ["--csv", str(csvs["text"]), "--label", "y", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["binary_features"] > 0


# Datasets


def _gz(data: bytes):
    return lambda folder: (folder / "parkinsons.data.gz").write_bytes(data)


DATASET_FILES = [
    pytest.param(_gz(b"\x1f\x8b\x08\x00garbage"), ["parkinsons.data.gz", "not a valid parkinsons file"],
                 id="corrupt-gz"),
    pytest.param(_gz(b"name,status\nx,1\n"), ["parkinsons.data.gz", "Not a gzipped file"], id="not-gz"),
    pytest.param(_gz(gzip.compress(b"name,status,a\n" + b"x,1,2\n" * 1000)[:60]),
                 ["parkinsons.data.gz", "EOFError"], id="truncated-gz"),
    pytest.param(_gz(gzip.compress(b"a,b\n1,2\n")), ["parkinsons.data.gz", "['name', 'status']"],
                 id="wrong-columns"),
    pytest.param(_gz(gzip.compress(b"")), ["parkinsons.data.gz", "No columns"], id="empty-gz"),
    pytest.param(_gz(gzip.compress(b"name,status,a\nx,1,\ny,0,\n")), ["parkinsons", "no complete rows"],
                 id="no-complete-rows"),
    pytest.param(lambda folder: None, ["parkinsons.data.gz", "BOOLRULES_DATA"], id="file-missing"),
]


@pytest.mark.parametrize("make, names", DATASET_FILES)
def test_bad_dataset_files(tmp_path, monkeypatch, make, names):
    make(tmp_path)
    monkeypatch.setenv("BOOLRULES_DATA", str(tmp_path))
    assert_raises_clearly((ValueError, FileNotFoundError), lambda: load_dataset("parkinsons"), *names)


@pytest.mark.parametrize("kwargs, error, names", [
    pytest.param({"name": "iris"}, ValueError, ["'iris'", "breast_cancer"], id="unknown-name"),
    pytest.param({"name": None}, ValueError, ["None", "breast_cancer"], id="name-none"),
    pytest.param({"name": ["parkinsons"]}, ValueError, ["['parkinsons']"], id="name-list"),
    pytest.param({"name": "parkinsons", "data_dir": 3}, TypeError, ["data_dir", "int"], id="data-dir-int"),
    pytest.param({"name": "parkinsons", "data_dir": "/no/such/dir"}, FileNotFoundError, ["/no/such/dir"],
                 id="data-dir-missing"),
])
def test_bad_dataset_arguments(kwargs, error, names):
    assert_raises_clearly(error, lambda: load_dataset(**kwargs), *names)


def test_data_folder_missing(monkeypatch):
    monkeypatch.setenv("BOOLRULES_DATA", "/no/such/dir")
    assert_raises_clearly(FileNotFoundError, lambda: load_dataset("credit_risk"), "/no/such/dir/german.data.gz", "BOOLRULES_DATA")


def test_the_cli_reports_a_corrupt_dataset_file(capsys, tmp_path, monkeypatch):
    (tmp_path / "parkinsons.data.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    monkeypatch.setenv("BOOLRULES_DATA", str(tmp_path))
    assert main(["inspect", "--dataset", "parkinsons"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boolrules: error: dataset file ") and "parkinsons.data.gz" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main(["datasets", "--json"]) == 0  # the listing goes on, with the error in the dataset's row
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["datasets"]}
    assert "not a valid parkinsons file" in rows["parkinsons"]["error"] and rows["breast_cancer"]["rows"] == 569
