"""Bad QUBO files at `load_qubo_file` and failed writes at the exports: each gives a clear error naming
the file and what was wrong, raised by boolrules itself (not deep inside json or dimod), and a failed write
leaves no file behind. Format-specific corruptions that `test_readers.py` already covers are not repeated here.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile

import numpy as np
import pytest

from boolrules.formats import LOAD_FORMATS, PROBLEM_FORMATS, QUBO_FORMATS, export_problem, export_qubo, load_qubo_file, writers

from ..errors import assert_raises_clearly

# QUBO files


@pytest.fixture(scope="module")
def good_files(tmp_path_factory, atleast_qubo):
    """One good file per loadable format."""
    folder = tmp_path_factory.mktemp("good")
    return {fmt: export_qubo(atleast_qubo, folder / f"good.{fmt}", fmt) for fmt in LOAD_FORMATS}


def _missing(tmp_path, good):
    return tmp_path / "missing.file"


def _folder(tmp_path, good):
    return tmp_path


def _write(data: bytes):
    def make(tmp_path, good):
        path = tmp_path / "bad.file"
        path.write_bytes(data(good) if callable(data) else data)
        return path
    return make


FILE_CASES = {
    "missing": (_missing, FileNotFoundError, ["no such file", "missing.file"]),
    "folder": (_folder, FileNotFoundError, ["no such file", "folder"]),
    "empty": (_write(b""), ValueError, ["bad.file", "is not a valid"]),
    "half": (_write(lambda good: good.read_bytes()[:len(good.read_bytes()) // 2]), ValueError,
             ["bad.file", "is not a valid"]),
    "random-bytes": (_write(np.random.default_rng(3).bytes(3000)), ValueError, ["bad.file", "is not a valid"]),
}


@pytest.mark.parametrize("fmt, case", [pytest.param(fmt, case, id=f"{fmt}-{case}")
                                       for fmt in LOAD_FORMATS for case in FILE_CASES])
def test_bad_qubo_files(tmp_path, good_files, fmt, case):
    make, error, names = FILE_CASES[case]
    path = make(tmp_path, good_files[fmt])
    assert_raises_clearly(error, lambda: load_qubo_file(path, fmt), *[f"'{fmt}'" if n == "is not a valid" else n for n in names])


def bqm_file(good: bytes, header_edit=None, body_edit=None) -> bytes:
    """A BQM file rebuilt from `good` with its JSON header and/or its body edited."""
    end = 14 + struct.unpack("<I", good[10:14])[0]
    header, body = json.loads(good[14:end]), bytearray(good[end:])
    if header_edit:
        header = header_edit(header)
    if body_edit:
        body_edit(header, body)
    text = json.dumps(header).encode() + b"\n"
    text += b" " * ((-len(text) - 14) % 64)
    return good[:10] + struct.pack("<I", len(text)) + text + bytes(body)


def _set_index(field: str, value: int):
    """Write `value` into every index `field` ("nidx" of the linear records, "outvar" of the first quadratic)."""
    def edit(header, body):
        n = header["shape"][0]
        if field == "nidx":
            body[8 + 12 * 3:8 + 12 * 3 + 4] = struct.pack("<i", value)
        else:
            body[8 + 12 * n:8 + 12 * n + 4] = struct.pack("<i", value)
    return edit


def _labels(labels):
    def edit(header, body):
        start = body.index(b"VARS")
        text = json.dumps(labels(header["shape"][0])).encode()
        body[start:] = b"VARS" + struct.pack("<I", len(text)) + text
    return edit


HOSTILE_BQM = [
    pytest.param(lambda h: {**h, "shape": [10**12, 197]}, None, "header announces 1000000000000 variables",
                 id="huge-num-variables"),
    pytest.param(lambda h: {**h, "shape": [32, 10**12]}, None, "1000000000000 interactions",
                 id="huge-num-interactions"),
    pytest.param(lambda h: {**h, "shape": [-5, 197]}, None, "shape", id="negative-shape"),
    pytest.param(lambda h: {**h, "shape": "32x197"}, None, "shape", id="shape-string"),
    pytest.param(lambda h: {**h, "dtype": "object"}, None, "dtype", id="object-dtype"),
    pytest.param(lambda h: {**h, "itype": "float64"}, None, "itype", id="float-index-type"),
    pytest.param(lambda h: {**h, "vartype": "DISCRETE"}, None, "vartype", id="unknown-vartype"),
    pytest.param(lambda h: {k: v for k, v in h.items() if k != "shape"}, None, "header", id="shape-missing"),
    pytest.param(lambda h: {**h, "variables": "yes"}, None, "variables", id="variables-string"),
    pytest.param(None, _set_index("outvar", 10**9), "not a variable index", id="neighbour-out-of-range"),
    pytest.param(None, _set_index("outvar", -7), "not a variable index", id="neighbour-negative"),
    pytest.param(None, _set_index("nidx", -10**9), "neighbourhood offsets", id="offsets-negative"),
    pytest.param(None, _set_index("nidx", 10**9), "neighbourhood offsets", id="offsets-huge"),
    pytest.param(None, _labels(lambda n: ["a"] * n), "twice", id="labels-repeated"),
    pytest.param(None, _labels(lambda n: [{"__class__": "os.system"}] * n), "labels must be strings",
                 id="label-injection-object"),
    pytest.param(None, _labels(lambda n: ["a"]), "list of 18 labels", id="labels-too-few"),
]


@pytest.mark.parametrize("header_edit, body_edit, message", HOSTILE_BQM)
def test_hostile_bqm_files(tmp_path, good_files, header_edit, body_edit, message):
    path = tmp_path / "hostile.bqm"
    path.write_bytes(bqm_file(good_files["bqm"].read_bytes(), header_edit, body_edit))
    assert_raises_clearly(ValueError, lambda: load_qubo_file(path, "bqm"), str(path), message)


def cqm_file(data: bytes, entry: str | None, edit) -> bytes:
    """A copy of the CQM file `data` with `edit` applied to the bytes of zip entry `entry`, or to its
    outer header (a dict) when `entry` is None."""
    start = 14 + struct.unpack("<I", data[10:14])[0]
    header = data[:start]
    if entry is None:
        text = json.dumps(edit(json.loads(data[14:start].decode()))).encode()
        header = data[:10] + struct.pack("<I", len(text) + 1) + text + b"\n"
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    assert entry is None or entry in source.namelist(), entry
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            body = source.read(info.filename)
            target.writestr(info.filename, edit(bytearray(body)) if info.filename == entry else body)
    return header + out.getvalue()


def _expr_shape(shape):
    """An expression entry whose header announces `shape`, padded to keep the sections in place."""
    def edit(body):
        length = struct.unpack("<I", body[11:15])[0]
        header = json.loads(body[15:15 + length].decode())
        text = json.dumps({**header, "shape": shape}).encode() + b"\n"
        return body[:15] + text.ljust(length) + body[15 + length:]
    return edit


def _section(magic, offset, value, fmt):
    """Overwrite the value at `offset` bytes into section `magic` (after its length field)."""
    def edit(body):
        start = body.index(magic) + len(magic) + (8 if magic == b"QUAD" else 4) + offset
        body[start:start + struct.calcsize(fmt)] = struct.pack(fmt, value)
        return bytes(body)
    return edit


LHS = 'constraints/"max_literals"/'
HOSTILE_CQM = [
    pytest.param("objective", _expr_shape([900_000_000, 1]), "INDX section is cut short", id="expr-huge-shape"),
    pytest.param("objective", _expr_shape([-1, 0]), "shape", id="expr-negative-shape"),
    pytest.param("objective", _section(b"INDX", 0, 10**9, "<i"), "distinct indices", id="expr-index-out-of-range"),
    pytest.param("objective", _section(b"INDX", 4, 0, "<i"), "distinct indices", id="expr-index-repeated"),
    pytest.param("objective", _section(b"LINB", 0, float("nan"), "<d"), "finite", id="expr-nan-bias"),
    pytest.param(LHS + "lhs", _section(b"INDX", 0, -3, "<i"), "distinct indices", id="lhs-index-negative"),
    pytest.param(LHS + "rhs", lambda body: struct.pack("<d", float("inf")), "finite", id="rhs-infinite"),
    pytest.param(LHS + "rhs", lambda body: b"\0" * 3, "rhs is not one float64", id="rhs-cut-short"),
    pytest.param(LHS + "sense", lambda body: b"<>", "sense must be one of", id="sense-unknown"),
    pytest.param("varinfo", _section(b"VTYP", 0, 9, "<b"), "unknown vartype", id="varinfo-vartype-unknown"),
    pytest.param("varinfo", _section(b"VTYP", 1, 5.0, "<d"), "lower bound above", id="varinfo-bounds-crossed"),
    pytest.param(None, lambda h: {**h, "num_variables": 10**9}, "varinfo: its VTYP section is cut short",
                 id="header-huge-num-variables"),
    pytest.param(None, lambda h: {**h, "num_constraints": 1}, "announces 1 constraints", id="header-constraints"),
    pytest.param(None, lambda h: {**h, "num_variables": "many"}, "num_variables", id="header-string-count"),
]


@pytest.mark.parametrize("entry, edit, message", HOSTILE_CQM)
def test_hostile_cqm_files(tmp_path, good_files, entry, edit, message):
    """dimod's CQM reader trusts these parts (a huge expression shape crashes the interpreter): each
    is refused before dimod reads the file."""
    path = tmp_path / "hostile.cqm"
    path.write_bytes(cqm_file(good_files["cqm"].read_bytes(), entry, edit))
    assert_raises_clearly(ValueError, lambda: load_qubo_file(path, "cqm"), str(path), message)


def test_the_cqm_file_helper_keeps_a_good_file_good(tmp_path, good_files):
    path = tmp_path / "same.cqm"
    path.write_bytes(cqm_file(good_files["cqm"].read_bytes(), "objective", bytes))
    assert load_qubo_file(path, "cqm").is_equal(load_qubo_file(good_files["cqm"], "cqm"))


def test_the_bqm_reader_keeps_the_model(good_files, atleast_qubo):
    bqm = load_qubo_file(good_files["bqm"], "bqm")
    assert bqm.is_almost_equal(atleast_qubo.bqm)
    assert list(bqm.variables) == list(atleast_qubo.bqm.variables)


def _json(edit):
    return lambda text: json.dumps(edit(json.loads(text)))


HOSTILE_JSON = [
    pytest.param("json", _json(lambda o: [o]), "not a serialized dimod BQM", id="json-top-level-list"),
    pytest.param("json", _json(lambda o: {**o, "variable_labels": ["a"] * o["num_variables"]}), "twice",
                 id="json-labels-repeated"),
    pytest.param("json", _json(lambda o: {**o, "variable_labels": [{"x": 1}] + o["variable_labels"][1:]}),
                 "variable_labels must be strings", id="json-label-injection-object"),
    pytest.param("json", _json(lambda o: {**o, "variable_labels": [True] + o["variable_labels"][1:]}),
                 "variable_labels must be strings", id="json-label-bool"),
    pytest.param("json", _json(lambda o: {**o, "quadratic_tail": o["quadratic_head"]}), "to itself",
                 id="json-self-loop"),
    pytest.param("json", _json(lambda o: {**o, "quadratic_head": o["quadratic_head"][:1] * o["num_interactions"],
                                          "quadratic_tail": o["quadratic_tail"][:1] * o["num_interactions"]}),
                 "twice", id="json-interaction-repeated"),
    pytest.param("json", _json(lambda o: {**o, "offset": True}), "offset", id="json-offset-bool"),
    pytest.param("json", _json(lambda o: {**o, "linear_biases": [[1]] + o["linear_biases"][1:]}), "linear_biases",
                 id="json-bias-list"),
    pytest.param("json", _json(lambda o: {**o, "linear_biases": [float("nan")] + o["linear_biases"][1:]}),
                 "linear_biases must be finite", id="json-nan-bias"),
    pytest.param("json", _json(lambda o: {**o, "linear_biases": [10**400] + o["linear_biases"][1:]}),
                 "finite", id="json-bias-beyond-float"),
    pytest.param("json", _json(lambda o: {**o, "num_variables": 10**40}), "num_variables", id="json-huge-size"),
    pytest.param("json", _json(lambda o: {**o, "__class__": "os.system"}), "unknown key", id="json-extra-key"),
    pytest.param("json", lambda text: "[" * 100_000 + "]" * 100_000, "nested too deeply", id="json-nesting-huge"),
    pytest.param("json", lambda text: '{"a": ' + "9" * 5000 + "}", "digits", id="json-int-huge"),
    pytest.param("ising", _json(lambda o: {**o, "J": o["J"] + [["zz", "yy", 1.0]]}), "'zz'",
                 id="ising-variables-not-in-h"),
    pytest.param("ising", _json(lambda o: {**o, "J": o["J"] + [o["J"][0][1::-1] + [1.0]]}), "twice",
                 id="ising-interaction-repeated"),
    pytest.param("ising", _json(lambda o: {**o, "J": [[o["J"][0][0], o["J"][0][0], 1.0]]}),
                 "two different variables", id="ising-self-loop"),
    pytest.param("ising", _json(lambda o: {**o, "h": {k: True for k in o["h"]}}), "True", id="ising-bias-bool"),
    pytest.param("ising", _json(lambda o: {**o, "offset": None}), "None", id="ising-offset-null"),
    pytest.param("ising", _json(lambda o: {**o, "h": [1.0]}), '"h" must map labels', id="ising-h-list"),
    pytest.param("qubo", lambda text: "\n".join("p qubo 0 1000000000000000 " + " ".join(line.split()[4:])
                                               if line.startswith("p ") else line for line in text.splitlines()),
                 "announces more variables", id="qubo-huge-max-nodes"),
    pytest.param("qubo", lambda text: "p qubo 0 -3 0 0\n", "announces more variables", id="qubo-negative-size"),
    pytest.param("qubo", lambda text: "c offset\n" + text, "line 1: expected 'c offset NUMBER'",
                 id="qubo-offset-missing"),
    pytest.param("qubo", lambda text: "p qubo 0 " + "9" * 5000 + " 1 0\n0 0 1\n", "digits", id="qubo-int-huge"),
]


@pytest.mark.parametrize("fmt, edit, message", HOSTILE_JSON)
def test_hostile_text_files(tmp_path, good_files, fmt, edit, message):
    path = tmp_path / f"hostile.{fmt}"
    path.write_text(edit(good_files[fmt].read_text()))
    assert_raises_clearly(ValueError, lambda: load_qubo_file(path, fmt), str(path), f"'{fmt}'", message)


def _mtx_size(edit):
    """The Matrix Market text with its size line (rows, columns, entries) replaced by `edit(...)`."""
    def make(text):
        lines = text.splitlines(keepends=True)
        at = next(i for i, line in enumerate(lines) if not line.startswith("%"))
        lines[at] = " ".join(map(str, edit(*map(int, lines[at].split())))) + "\n"
        return "".join(lines)
    return make


HOSTILE_MATRICES = [
    pytest.param(_mtx_size(lambda n, _, nnz: (10**7, 10**7, nnz)), "announces 10000000 variables",
                 id="mtx-huge-shape"),
    pytest.param(_mtx_size(lambda n, _, nnz: (n, n, 10**9)), "announces 1000000000 entries", id="mtx-huge-count"),
    pytest.param(lambda text: "%%MatrixMarket matrix array real general\n10000000 10000000\n1\n",
                 "announces 100000000000000 entries", id="mtx-huge-dense"),
    pytest.param(lambda text: "%%MatrixMarket matrix coordinate complex general\n2 2 2\n1 1 1.0 0.5\n2 2 -1 0\n",
                 "complex", id="mtx-complex"),
    pytest.param(lambda text: "%%MatrixMarket matrix array complex general\n1 1\n1 2\n", "complex",
                 id="mtx-complex-dense"),
]


@pytest.mark.parametrize("edit, message", HOSTILE_MATRICES)
def test_hostile_matrix_market_files(tmp_path, good_files, edit, message):
    """A Matrix Market header announces no more than the file holds, and real entries only."""
    path = tmp_path / "hostile.mtx"
    path.write_text(edit(good_files["mtx"].read_text()))
    assert_raises_clearly(ValueError, lambda: load_qubo_file(path, "mtx"), str(path), "'mtx'", message)


def _npz_entries(edit):
    """The `.npz` bytes with its arrays (name -> array) replaced by `edit(arrays)`."""
    def make(data):
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            arrays = dict(arrays)
        out = io.BytesIO()
        np.savez(out, **edit(arrays))
        return out.getvalue()
    return make


def _as_coo(arrays, shape):
    """A COO `.npz` of `arrays`' CSR matrix, announcing `shape`."""
    rows = np.repeat(np.arange(len(arrays["indptr"]) - 1), np.diff(arrays["indptr"]))
    return {"format": np.array(b"coo"), "shape": np.array(shape), "row": rows, "col": arrays["indices"],
            "data": arrays["data"]}


HOSTILE_NPZ = [
    pytest.param(_npz_entries(lambda a: _as_coo(a, (10**7, 10**7))), "announces 10000000 variables",
                 id="npz-huge-shape"),
    pytest.param(_npz_entries(lambda a: {**a, "data": a["data"] * (1 + 2j)}), "real numbers", id="npz-complex"),
]


@pytest.mark.parametrize("edit, message", HOSTILE_NPZ)
def test_hostile_npz_files(tmp_path, good_files, edit, message):
    """A SciPy `.npz` announces no more variables than its entries name, and real entries only."""
    path = tmp_path / "hostile.npz"
    path.write_bytes(edit(good_files["npz"].read_bytes()))
    (tmp_path / "hostile.npz.boolrules.json").write_bytes(
        good_files["npz"].with_name("good.npz.boolrules.json").read_bytes())
    assert_raises_clearly(ValueError, lambda: load_qubo_file(path, "npz"), str(path), "'npz'", message)


def test_a_coo_npz_of_the_same_matrix_still_reads(tmp_path, good_files):
    """The COO rewriting of `HOSTILE_NPZ` keeps a good file good when its shape is the true one."""
    path = tmp_path / "coo.npz"
    good = good_files["npz"].read_bytes()
    with np.load(io.BytesIO(good)) as arrays:
        shape = tuple(arrays["shape"])
    path.write_bytes(_npz_entries(lambda a: _as_coo(a, shape))(good))
    (tmp_path / "coo.npz.boolrules.json").write_bytes(good_files["npz"].with_name("good.npz.boolrules.json").read_bytes())
    assert load_qubo_file(path, "npz") == load_qubo_file(good_files["npz"], "npz")


@pytest.mark.parametrize("path, fmt, error, names", [
    pytest.param(None, "bqm", TypeError, ["path", "NoneType"], id="path-none"),
    pytest.param(3, "bqm", TypeError, ["path", "int"], id="path-int"),
    pytest.param("x.bqm", ["bqm"], ValueError, ["format", "bqm, json"], id="format-list"),
    pytest.param("x.bqm", None, ValueError, ["format None"], id="format-none"),
])
def test_bad_loader_arguments(path, fmt, error, names):
    assert_raises_clearly(error, lambda: load_qubo_file(path, fmt), *names)


# Writers are atomic


def _failing(writer):
    """`writer`, which then leaves half a file and fails as a full disk does."""
    def write(obj, path):
        writer(obj, path)
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2])
        raise OSError(28, "No space left on device")
    return write


WRITES = [pytest.param("qubo", fmt, id=f"qubo-{fmt}") for fmt in QUBO_FORMATS] + [
    pytest.param("problem", fmt, id=f"model-{fmt}") for fmt in PROBLEM_FORMATS]


@pytest.mark.parametrize("what, fmt", WRITES)
def test_a_failed_write_leaves_the_target_untouched(tmp_path, monkeypatch, atleast_problem, atleast_qubo, what, fmt):
    table = writers.QUBO_WRITERS if what == "qubo" else writers.PROBLEM_WRITERS
    monkeypatch.setitem(table, fmt, _failing(table[fmt]))
    target = tmp_path / f"out.{fmt}"
    target.write_text("the previous export")
    assert_raises_clearly(OSError, lambda: (export_qubo(atleast_qubo, target, fmt) if what == "qubo" else export_problem(atleast_problem, target, fmt)), str(target), "No space left")
    assert target.read_text() == "the previous export"
    assert sorted(tmp_path.iterdir()) == [target]  # no temporary file left behind


def test_an_interrupted_write_leaves_nothing(tmp_path, monkeypatch, atleast_qubo):
    def interrupted(obj, path):
        path.write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setitem(writers.QUBO_WRITERS, "json", interrupted)
    with pytest.raises(KeyboardInterrupt):
        export_qubo(atleast_qubo, tmp_path / "out.json", "json")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target, error, names", [
    pytest.param("no/such/folder/out.bqm", FileNotFoundError, ["no/such/folder", "does not exist"],
                 id="parent-missing"),
    pytest.param(".", IsADirectoryError, ["is a folder"], id="target-is-a-folder"),
    pytest.param("file.txt/out.bqm", FileNotFoundError, ["file.txt", "does not exist"], id="parent-is-a-file"),
])
def test_writing_to_a_bad_place(tmp_path, atleast_qubo, target, error, names):
    (tmp_path / "file.txt").write_text("x")
    before = sorted(tmp_path.iterdir())
    assert_raises_clearly(error, lambda: export_qubo(atleast_qubo, tmp_path / target, "bqm"), *names)
    assert sorted(tmp_path.iterdir()) == before


LP_NOT_TEXT = {  # HiGHS's LP reader never returned on a NUL byte (100% CPU, deaf to Ctrl-C)
    "nul": (b"\x00", "control byte"),
    "nul after a good model": (b"Minimize\n obj: x + y\nBinary\n x y\nEnd\n\x00", "control byte"),
    "nul inside": (b"Minimize\n obj: \x00x\nEnd\n", "control byte"),
    "control bytes": (bytes(range(1, 32)), "control byte"),
    "not utf-8": (b"Minimize\n obj: x\xff + y\nBinary\n x y\nEnd\n", "UTF-8"),
}


@pytest.mark.slow  # a child process
def test_lp_files_that_are_no_text_are_refused_in_bounded_time(tmp_path):
    """Each is refused with a ValueError naming the file; all of them in one child process, so that a
    reader that never returns (HiGHS's on a NUL byte) fails this test at the safety timeout instead
    of hanging the suite."""
    import textwrap

    from ..processes import run_python

    paths = []
    for name, (data, _) in LP_NOT_TEXT.items():
        paths.append(tmp_path / f"{name}.lp")
        paths[-1].write_bytes(data)
    script = textwrap.dedent("""
        import sys
        from boolrules.formats import load_qubo_file
        for path in sys.argv[1:]:
            try:
                load_qubo_file(path, "lp")
            except ValueError as err:
                print(str(err).replace("\\n", " "), flush=True)
            else:
                print(path, "read", flush=True)
    """)
    out = run_python(["-c", script, *map(str, paths)], timeout=120)  # a safety net against a hang, no bound
    lines = out.stdout.splitlines()
    assert len(lines) == len(LP_NOT_TEXT), out
    for line, path, (_, words) in zip(lines, paths, LP_NOT_TEXT.values()):
        assert str(path) in line and words in line and "an LP file is text" in line, out


@pytest.mark.parametrize("name", sorted(LP_NOT_TEXT))
def test_lp_files_that_are_no_text_are_refused_clearly(tmp_path, name):
    data, words = LP_NOT_TEXT[name]
    path = tmp_path / "bad.lp"
    path.write_bytes(data)
    assert_raises_clearly(ValueError, lambda: load_qubo_file(path, "lp"), str(path), words)


def test_lp_text_with_tabs_and_crlf_still_reads(tmp_path):
    path = tmp_path / "good.lp"
    path.write_bytes(b"Minimize\r\n\tobj: x + 2 y + [ 2 x * y ] / 2\r\nBinary\r\n\tx y\r\nEnd\r\n")
    bqm = load_qubo_file(path, "lp")
    assert dict(bqm.linear) == {"x": 1.0, "y": 2.0} and bqm.get_quadratic("x", "y") == 1.0 and bqm.num_interactions == 1


def _preselected_sidecar(tmp_path):
    """A preselected problem's QUBO exported as .bqm: its sidecar's path and record."""
    from boolrules.formats import sidecar_path
    from boolrules.formulations import depth_one

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (30, 9), dtype=np.uint8)
    problem = depth_one(X, (X[:, 7] | X[:, 4]).astype(np.uint8), "Or", max_num_literals=2, max_features=3)
    side = sidecar_path(export_qubo(problem.to_qubo(eta=False), tmp_path / "q.bqm", "bqm"))
    return side, json.loads(side.read_text())


def test_a_sidecar_keeping_a_far_column_allocates_nothing_for_it(tmp_path):
    """A preselection's `features` name original columns: one edited to 5,000,000 is decoded as that
    column, without a matrix as wide as it (which made a 1 KB sidecar take +700 MB)."""
    import tracemalloc

    from boolrules.formats import load_problem

    side, record = _preselected_sidecar(tmp_path)
    far = record["problem"]["features"][:-1] + [5_000_000]
    side.write_text(json.dumps({**record, "problem": {**record["problem"], "features": far}}))
    tracemalloc.start()
    try:
        loaded = load_problem(side)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6, f"loading the sidecar took {peak / 1e6:.0f} MB"
    assert loaded.problem.feature_indices.tolist() == far


@pytest.mark.parametrize("edit, message", [
    pytest.param(lambda p: p["data"].update(num_samples=10**30), "problem.data.X holds 30 bytes", id="num-samples"),
    pytest.param(lambda p: p["data"].update(num_features=10**30), "problem.data.X holds 30 bytes", id="num-features"),
    pytest.param(lambda p: p.update(features=p["features"][:-1] + [2**63]), "problem.features", id="feature-int64"),
    pytest.param(lambda p: p.update(feature_names=["a"] * 5), "feature_names has 5 names", id="names-short"),
])
def test_inflated_sidecar_fields_are_refused_clearly(tmp_path, edit, message):
    """A sidecar's counts must agree with its packed data and its names cover its columns (a count
    beyond 64 bits raised a raw OverflowError, names too few for the kept columns loaded)."""
    from boolrules.formats import load_problem

    side, record = _preselected_sidecar(tmp_path)
    edit(record["problem"])
    side.write_text(json.dumps(record))
    assert_raises_clearly(ValueError, lambda: load_problem(side), side.name, message)
