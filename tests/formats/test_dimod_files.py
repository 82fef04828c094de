"""The bqm reader (our own, so that it can check a file before use) and the CQM checks, against
dimod's writer and reader."""

import dimod
from hypothesis import given, settings
from hypothesis import strategies as st

from boolrules.formats import load_qubo_file


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
