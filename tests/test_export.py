"""Rule exports: text and JSON read back, and the standalone Python predicate and SQL WHERE
expression (run in sqlite3) agree with `Rule.evaluate` on 0/1 features and, through the binarizer,
on raw columns with missing values."""

import json
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

from boolrules import QuantileBinarizer, RuleClassifier, load_dataset
from boolrules.rules import And, AtLeast, Choose, Literal, One, Or, Zero, from_dict, parse
from boolrules.rules.export import FORMATS, export_rule, to_json, to_python, to_sql, to_text
from tests.strategies import NUM_FEATURES, rules

NAMES = ["temp > 37 == yes", "a >= 3", 'quote "q"', "b, c", "it's", "Zero"]
X = np.array(np.meshgrid(*[[0, 1]] * NUM_FEATURES)).reshape(NUM_FEATURES, -1).T.astype(np.uint8)  # every row


def python_predicate(source, name="rule"):
    scope = {}
    exec(compile(source, "<export>", "exec"), scope)  # the export must be standalone: no imports
    return scope[name]


def sql_select(frame, where):
    con = sqlite3.connect(":memory:")
    frame.assign(_row=np.arange(len(frame))).to_sql("t", con, index=False)
    rows = {r for (r,) in con.execute(f"SELECT _row FROM t WHERE {where}")}
    con.close()
    return np.isin(np.arange(len(frame)), list(rows))


@settings(max_examples=60, deadline=None)
@given(rules())
def test_python_and_sql_agree_with_evaluate_on_features(rule):
    expected = rule.evaluate(X)
    frame = pd.DataFrame(X, columns=NAMES)
    predicate = python_predicate(to_python(rule, NAMES))
    np.testing.assert_array_equal([predicate(row) for row in frame.to_dict("records")], expected)
    np.testing.assert_array_equal(sql_select(frame, to_sql(rule, NAMES)), expected)
    unnamed = pd.DataFrame(X, columns=[f"f{i}" for i in range(NUM_FEATURES)])
    np.testing.assert_array_equal(sql_select(unnamed, to_sql(rule)), expected)


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
    for _ in range(25):
        picks = rng.choice(len(names), 4, replace=False)
        literals = [Literal(int(j), bool(rng.integers(2))) for j in picks]
        rule = [Or, And][rng.integers(2)](AtLeast(2, *literals[:3]), ~literals[3])
        expected = rule.evaluate(Xb)
        predicate = python_predicate(to_python(rule, binarizer=binarizer))
        np.testing.assert_array_equal([predicate(row) for row in frame.to_dict("records")], expected)
        np.testing.assert_array_equal(sql_select(frame, to_sql(rule, binarizer=binarizer)), expected)
    missing = names.index("DEBTINC is missing")
    assert to_sql(Literal(missing, True), binarizer=binarizer) == '(NOT ("DEBTINC" IS NULL))'


def test_every_literal_of_the_binarizer_agrees(raw):
    frame, _ = raw
    binarizer = QuantileBinarizer(missing="indicator").fit(frame)
    Xb = binarizer.transform(frame)
    rule = Or(*[Literal(j) for j in range(Xb.shape[1])])
    for j in range(Xb.shape[1]):
        single = Literal(j)
        predicate = python_predicate(to_python(single, binarizer=binarizer))
        got = np.array([predicate(row) for row in frame.to_dict("records")])
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
