"""Rule exports: text and JSON read back, and the standalone Python predicate and SQL WHERE
expression (run in sqlite3) agree with `Rule.evaluate` on 0/1 features and, through the binarizer,
on raw columns with missing values."""

import contextlib
import json
import warnings
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

from boolrules import QuantileBinarizer, RuleClassifier, load_dataset
from boolrules.rules import And, AtLeast, AtMost, Choose, Literal, One, Or, Zero, from_dict, parse
from boolrules.exceptions import InputError, InputTypeError
from boolrules.rules.export import FORMATS, PYTHON_RESERVED, export_rule, to_json, to_python, to_sql, to_text
from tests.errors import assert_raises_clearly
from tests.strategies import NUM_FEATURES, rules

NAMES = ["temp > 37 == yes", "a >= 3", 'quote "q"', "b, c", "it's", "Zero"]
X = np.array(np.meshgrid(*[[0, 1]] * NUM_FEATURES)).reshape(NUM_FEATURES, -1).T.astype(np.uint8)  # every row


def python_predicate(source, name="rule"):
    scope = {}
    exec(compile(source, "<export>", "exec"), scope)  # the export must be standalone: no imports
    return scope[name]


@contextlib.contextmanager
def sql_table(frame):
    """`frame` written once to an in-memory SQLite table, and a function giving the rows a WHERE
    expression selects there (as a mask): writing the table costs far more than a query."""
    con = sqlite3.connect(":memory:")
    try:
        frame.assign(_row=np.arange(len(frame))).to_sql("t", con, index=False)
        yield lambda where: np.isin(np.arange(len(frame)),
                                    [r for (r,) in con.execute(f"SELECT _row FROM t WHERE {where}")])
    finally:
        con.close()


def sql_select(frame, where):
    with sql_table(frame) as select:
        return select(where)


@pytest.fixture(scope="module")
def feature_tables():
    """Every 0/1 row `X` as records with `NAMES`, and as SQLite tables with `NAMES` and with the
    default names f0, f1, ...: read only, shared by the examples."""
    frame = pd.DataFrame(X, columns=NAMES)
    unnamed = pd.DataFrame(X, columns=[f"f{i}" for i in range(NUM_FEATURES)])
    with sql_table(frame) as named_select, sql_table(unnamed) as unnamed_select:
        yield frame.to_dict("records"), named_select, unnamed_select


@settings(max_examples=60, deadline=None)
@given(rule=rules())
def test_python_and_sql_agree_with_evaluate_on_features(feature_tables, rule):
    records, named_select, unnamed_select = feature_tables
    expected = rule.evaluate(X)
    predicate = python_predicate(to_python(rule, NAMES))
    np.testing.assert_array_equal([predicate(row) for row in records], expected)
    np.testing.assert_array_equal(named_select(to_sql(rule, NAMES)), expected)
    np.testing.assert_array_equal(unnamed_select(to_sql(rule)), expected)


@pytest.mark.parametrize("rule", [Zero(), One(), ~Choose(0, Literal(1)), AtLeast(0, ~Literal(2))])
def test_constants_and_edge_counts(rule):
    frame = pd.DataFrame(X, columns=NAMES)
    predicate = python_predicate(to_python(rule, NAMES, name="keep"), "keep")
    np.testing.assert_array_equal([predicate(row) for row in frame.to_dict("records")], rule.evaluate(X))
    np.testing.assert_array_equal(sql_select(frame, to_sql(rule, NAMES)), rule.evaluate(X))


@settings(max_examples=60, deadline=None)
@given(rules())
def test_text_and_json_read_back(rule):
    assert parse(to_text(rule, NAMES), NAMES) == rule
    data = json.loads(to_json(rule, NAMES))
    assert from_dict(data["rule"]) == rule and data["text"] == rule.to_str(NAMES)
    assert data["features"] == {str(lit.index): NAMES[lit.index] for lit in rule.literals()}


@pytest.fixture(scope="module")
def raw():
    """Home equity with its missing values, a numeric and a text column among them."""
    data = load_dataset("home_equity", missing="indicator")
    return data.raw.iloc[:1500].reset_index(drop=True), data.y[:1500]


def test_python_and_sql_on_raw_columns_agree_with_the_binarizer(raw):
    frame, _ = raw
    binarizer = QuantileBinarizer(missing="indicator").fit(frame)
    Xb = binarizer.transform(frame)
    names = binarizer.get_feature_names_out().tolist()
    rng = np.random.default_rng(0)
    records = frame.to_dict("records")
    with sql_table(frame) as select:
        for _ in range(25):
            picks = rng.choice(len(names), 4, replace=False)
            literals = [Literal(int(j), bool(rng.integers(2))) for j in picks]
            rule = [Or, And][rng.integers(2)](AtLeast(2, *literals[:3]), ~literals[3])
            expected = rule.evaluate(Xb)
            predicate = python_predicate(to_python(rule, binarizer=binarizer))
            np.testing.assert_array_equal([predicate(row) for row in records], expected)
            np.testing.assert_array_equal(select(to_sql(rule, binarizer=binarizer)), expected)
    missing = names.index("DEBTINC is missing")
    assert to_sql(Literal(missing, True), binarizer=binarizer) == '(NOT ("DEBTINC" IS NULL))'


def test_every_literal_of_the_binarizer_agrees(raw):
    frame, _ = raw
    binarizer = QuantileBinarizer(missing="indicator").fit(frame)
    Xb = binarizer.transform(frame)
    rule = Or(*[Literal(j) for j in range(Xb.shape[1])])
    records = frame.to_dict("records")
    for j in range(Xb.shape[1]):
        single = Literal(j)
        predicate = python_predicate(to_python(single, binarizer=binarizer))
        got = np.array([predicate(row) for row in records])
        np.testing.assert_array_equal(got, Xb[:, j].astype(bool), err_msg=binarizer.get_feature_names_out()[j])
        # a row from JSON holds None where a value is missing: only `is missing` features hold
        empty = dict.fromkeys(frame.columns, None)
        assert predicate(empty) == binarizer.get_feature_names_out()[j].endswith(" is missing")
    assert sql_select(frame, to_sql(rule, binarizer=binarizer)).sum() == rule.evaluate(Xb).sum()


def test_estimator_exports_its_rule(raw):
    frame, y = raw
    clf = RuleClassifier(binarizer=QuantileBinarizer(missing="indicator"), max_complexity=5, num_starts=1,
                         num_iterations=300, random_state=0).fit(frame, y)
    predicted = clf.predict(frame).astype(bool)
    predicate = python_predicate(clf.export_rule("python"))
    np.testing.assert_array_equal([predicate(row) for row in frame.to_dict("records")], predicted)
    np.testing.assert_array_equal(sql_select(frame, clf.export_rule("sql")), predicted)
    assert clf.export_rule() == clf.rule_text_ and parse(clf.export_rule(), clf.feature_names_) == clf.rule_
    assert set(FORMATS) == {"text", "json", "python", "sql"}


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        export_rule(Literal(0), "xml")
    with pytest.raises(ValueError, match="feature_names has 1 names but the rule uses feature 2"):
        to_sql(Literal(2), ["a"])
    with pytest.raises(ValueError, match="name must be a Python identifier"):
        to_python(Literal(0), name="not valid")
    with pytest.raises(TypeError, match="rule must be a Rule"):
        to_text("Or(f0)")


def test_python_predicate_matches_categories_as_the_binarizer_does():
    """A text column fitted as "3" matches 3 and 3.0 given as numbers, in the binarizer (issue 15
    item 4) and so in the standalone predicate."""
    frame = pd.DataFrame({"a": ["1", "3", "3", "2.5", "1"]})
    binarizer = QuantileBinarizer().fit(frame)
    names = binarizer.get_feature_names_out().tolist()
    given = pd.DataFrame({"a": [3.0, 3, 2.5, 1.0, 7.0]})
    Xb = binarizer.transform(given)
    for j in range(len(names)):
        predicate = python_predicate(to_python(Literal(j), binarizer=binarizer))
        np.testing.assert_array_equal([predicate(row) for row in given.to_dict("records")], Xb[:, j].astype(bool),
                                      err_msg=names[j])


def _many_dtypes(n=60, seed=0):
    """A frame of every kind of column the binarizer reads, with missing values: categories of
    floats (integral, tiny, huge, -0.0, float32), ints, bools and text; object columns of text, of
    bools, of numbers and text; bool, int, float32 and float columns; pandas' nullable dtypes."""
    rng = np.random.default_rng(seed)
    pick = lambda values: [values[i] for i in rng.integers(len(values), size=n)]  # noqa: E731
    frame = pd.DataFrame({
        "cat float": pd.Categorical(pick([1.0, 2.5, 3.0, 0.1, 1e20, -0.0, 0.30000000000000004, np.nan])),
        "cat int": pd.Categorical(pick([1, 2, 30, 10**17])),
        "cat bool": pd.Categorical(pick([True, False])),
        "cat text": pd.Categorical(pick(["a", "b b", "it's", "1.5"])),
        "text": pick(["x", "y", "2", "True", None]),  # not "1" beside "True": SQLite stores True as 1
        "object bool": pd.Series(pick([True, False, None]), dtype=object),
        "numbers and text": pd.Series(pick([1, 2.0, 2.5, "z", None]), dtype=object),
        "bool": pick([True, False]),
        "int": rng.integers(-5, 5, n),
        "float32": rng.normal(size=n).astype(np.float32),
        "float": np.where(rng.random(n) < 0.1, np.nan, rng.normal(size=n) * 1e3),
        "Int64": pd.array(pick([1, 2, 3, None, 40, 5, 6, 7, 8, 9, 10, 11, 12]), dtype="Int64"),
        "boolean": pd.array(pick([True, False, None]), dtype="boolean"),
        "string": pd.array(pick(["a", "1", "2.50", None]), dtype="string"),
        "Float64": pd.array(pick([0.5, 1.0, None, 2.25]), dtype="Float64"),
        "cat text numbers": pd.Categorical(pick(["1", "2", "10"])),
        "cat big int": pd.Categorical(pick([2**62, 3, -7])),
        "cat float32": pd.Categorical(np.array(pick([0.1, 0.25, 3.0]), dtype=np.float32)),
    })
    return frame


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_literal_selects_what_the_binarizer_says_on_many_dtypes(seed):
    """Issue 29 item 1: SQLite writes 1.0 as '1.0' (and a category column is TEXT), so the SQL of
    a category or threshold must match what the binarizer reads, for every column kind."""
    frame = _many_dtypes(seed=seed)
    binarizer = QuantileBinarizer(missing="indicator").fit(frame)
    Xb = binarizer.transform(frame)
    names = binarizer.get_feature_names_out()
    records = frame.to_dict("records")
    with sql_table(frame) as select:
        for j in range(Xb.shape[1]):
            for literal in (Literal(j), ~Literal(j)):
                expected = literal.evaluate(Xb)
                np.testing.assert_array_equal(select(to_sql(literal, binarizer=binarizer)), expected,
                                              err_msg=f"SQL of {literal.to_str(names)}")
                predicate = python_predicate(to_python(literal, binarizer=binarizer))
                np.testing.assert_array_equal([predicate(row) for row in records], expected,
                                              err_msg=f"Python of {literal.to_str(names)}")


def test_thresholds_read_back_exactly_in_sqlite():
    """A threshold's literal is the float itself in SQLite, and so is a REAL column's value."""
    rng = np.random.default_rng(3)
    values = np.r_[rng.normal(size=200) * 10.0 ** rng.integers(-300, 300, 200), 5e-324, 1.7976931348623157e308]
    con = sqlite3.connect(":memory:")
    got = [con.execute(f"SELECT {repr(float(v))} = ?", (float(v),)).fetchone()[0] for v in values]
    con.close()
    assert all(got)


def _fit_frames():
    rng = np.random.default_rng(5)
    data = rng.normal(size=(80, 3))
    binary = (data > 0).astype(np.uint8)
    yield "int labels", pd.DataFrame(data), None
    yield "numpy int labels", pd.DataFrame(data, columns=pd.Index(np.arange(3, 6, dtype=np.int64), dtype=object)), None
    yield "text like ints", pd.DataFrame(data, columns=["0", "1", "2"]), None
    yield "float labels", pd.DataFrame(data, columns=[0.5, 1.5, 2.5]), None
    yield "binary, int labels", pd.DataFrame(binary), None
    yield "binary, numpy int labels", pd.DataFrame(binary, columns=pd.Index(np.arange(3), dtype=object)), None
    yield "binary, text like ints", pd.DataFrame(binary, columns=["0", "1", "2"]), None
    yield "quantile binarizer, int labels", pd.DataFrame(binary), QuantileBinarizer()


def test_exports_of_a_model_fitted_on_an_array_read_its_positions():
    rng = np.random.default_rng(6)
    for data in (rng.normal(size=(80, 3)), (rng.normal(size=(80, 3)) > 0).astype(np.uint8)):
        y = (data[:, 0] + data[:, 1] > 0.5).astype(int)
        clf = RuleClassifier(num_starts=1, num_iterations=200, random_state=0).fit(data, y)
        predicted = clf.predict(data).astype(bool)
        predicate = python_predicate(clf.export_rule("python"))
        np.testing.assert_array_equal([predicate(row) for row in data], predicted)
        np.testing.assert_array_equal(sql_select(pd.DataFrame(data), clf.export_rule("sql")), predicted)


@pytest.mark.parametrize("case", list(_fit_frames()), ids=lambda case: case[0])
def test_exports_read_the_columns_the_model_was_fitted_on(case):
    """Issue 29 item 2: a model fitted on `pd.DataFrame(array)` read `row['0']` or `row['x0']`."""
    _, frame, binarizer = case
    y = (frame.iloc[:, 0].astype(float) + frame.iloc[:, 1].astype(float) > 0.5).astype(int)
    clf = RuleClassifier(binarizer="auto" if binarizer is None else binarizer, num_starts=1, num_iterations=200,
                         random_state=0).fit(frame, y)
    predicted = clf.predict(frame).astype(bool)
    assert 0 < predicted.sum() < len(predicted)
    predicate = python_predicate(clf.export_rule("python"))
    np.testing.assert_array_equal([predicate(row) for _, row in frame.iterrows()], predicted)
    np.testing.assert_array_equal([predicate(row) for row in frame.to_dict("records")], predicted)
    np.testing.assert_array_equal(sql_select(frame, clf.export_rule("sql")), predicted)


def test_columns_are_checked():
    assert_raises_clearly(InputError, lambda: to_python(Literal(2), columns=[0, 1]), "columns", "2 labels", "3")
    assert_raises_clearly(InputTypeError, lambda: to_sql(Literal(0), columns="abc"), "columns")
    assert_raises_clearly(InputError, lambda: to_python(Literal(0), columns=[object()]), "column label")
    assert to_python(Literal(0), columns=[np.int64(7)]).count("row[7]") == 1
    assert '"7"' in to_sql(Literal(0), columns=[np.int64(7)])


@pytest.mark.parametrize("name", ["class", "def", "None", "True", "lambda", "return"])
def test_python_keywords_are_refused_as_the_function_name(name):
    assert_raises_clearly(InputError, lambda: to_python(Literal(0), name=name), "name", "keyword", repr(name))


@pytest.mark.parametrize("name", sorted(PYTHON_RESERVED))
def test_names_the_generated_code_uses_are_refused(name):
    """Issue 29 item 8: `def bool(row): return bool(...)` called itself."""
    assert_raises_clearly(InputError, lambda: to_python(Literal(0), name=name), "name", repr(name), "uses")


@pytest.mark.parametrize("name", [123, None, b"rule", 1.5])
def test_non_text_function_names_are_refused(name):
    assert_raises_clearly(InputTypeError, lambda: to_python(Literal(0), name=name), "name", "str")


def test_reserved_names_cover_what_the_generated_code_calls():
    import ast

    frame = _many_dtypes()
    binarizer = QuantileBinarizer(missing="indicator").fit(frame)
    rule = Or(AtLeast(2, Literal(0), ~Literal(1), Literal(2)), Choose(1, Literal(3), Literal(4)), And(Literal(5)))
    for source in (to_python(rule, binarizer=binarizer), to_python(rule, NAMES)):
        tree = ast.parse(source)
        arguments = {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
        called = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} - arguments
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)} - {"rule"}
        assert called | defined <= PYTHON_RESERVED
    for name in ("row", "value", "match", "rule2"):
        assert python_predicate(to_python(rule, NAMES, name=name), name)({n: 1 for n in NAMES}) in (True, False)


def _chain(operator, depth, negated=False):
    rule = Literal(0)
    for level in range(depth):
        subs = (rule, Literal(level % 3 + 1))
        rule = operator(2, *subs) if operator in (AtLeast, AtMost, Choose) else operator(*subs)
        rule = ~rule if negated else rule
    return rule


@pytest.mark.parametrize("operator", [Or, And, AtLeast, AtMost, Choose])
@pytest.mark.parametrize("negated", [False, True])
def test_sql_warns_exactly_when_sqlite_cannot_run_it(operator, negated):
    """Issue 29 item 9: chains of 13-18 counting operators were written without a warning, though
    SQLite's parser refuses them; what it runs exports silently and selects what evaluate says."""
    frame = pd.DataFrame(X[:, :4], columns=[f"f{i}" for i in range(4)])
    depths = range(1, 100) if operator in (Or, And) else range(1, 30)
    warned = []
    with sql_table(frame) as select:
        for depth in depths:
            rule = _chain(operator, depth, negated)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                sql = to_sql(rule)
            runs = True
            try:
                got = select(sql)
            except sqlite3.OperationalError:
                runs = False
            assert bool(caught) == (not runs), (depth, [str(w.message) for w in caught])
            if runs:
                np.testing.assert_array_equal(got, rule.evaluate(X[:, :4]))
            else:
                assert "SQLite" in str(caught[0].message) and f"{depth} operators deep" in str(caught[0].message)
                warned.append(depth)
    assert warned, "the chain never got too deep for SQLite"
