"""Explanations of one decision, checked against the rule's own evaluation: the reason must force
the prediction on every completion of the other features, no smaller set may (where the reason is
said to be smallest), and every node's truth, count and "decided" mark must be what evaluation says."""

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boolrules import RuleClassifier
from boolrules.plotting import plot_explanation
from boolrules.rules import And, AtLeast, Choose, Literal, Or, Zero, parse
from boolrules.rules.explain import EXACT_MAX_FEATURES, EXPLANATION_STYLES, explain

from .errors import assert_raises_clearly
from .reference import evaluate as reference_evaluate
from .strategies import NUM_FEATURES, rules

matplotlib.use("Agg")


def completions(x, fixed, features=None):
    """Every 0/1 row that agrees with `x` on the features in `fixed` and on those not in `features`
    (default: all of them)."""
    free = [j for j in (range(len(x)) if features is None else sorted(features)) if j not in set(fixed)]
    rows = np.tile(np.asarray(x, np.uint8), (2 ** len(free), 1))
    rows[:, free] = list(itertools.product((0, 1), repeat=len(free)))
    return rows


def forces(rule, x, fixed, prediction) -> bool:
    """Does `rule` give `prediction` on every row that agrees with `x` on `fixed`? Only the rule's own
    features are varied: its value depends on no other (an estimator's rule uses a few of many)."""
    rows = completions(x, fixed, {lit.index for lit in rule.literals()})
    return bool((reference_evaluate(rule, rows) == prediction).all())


samples = st.lists(st.integers(0, 1), min_size=NUM_FEATURES, max_size=NUM_FEATURES)


@settings(max_examples=400, deadline=None)
@given(rules(), samples)
def test_explanations_of_random_rules(rule, x):
    """One draw serves the three checks below (400 examples each; drawing a rule costs more than
    checking it): the reason is a smallest forcing set, each node reads as it evaluates, and the
    incremental greedy reason is the plain one."""
    e = explain(rule, x)
    check_the_reason_is_a_smallest_set_that_forces_the_prediction(rule, x, e)
    check_each_node_is_reported_as_it_evaluates(rule, x, e)
    check_the_incremental_greedy_reason_is_the_plain_one(rule, np.array(x, dtype=np.uint8))


def check_the_reason_is_a_smallest_set_that_forces_the_prediction(rule, x, e):
    prediction = bool(reference_evaluate(rule, np.array([x]))[0])
    assert e.prediction == prediction and e.reason_kind == "smallest"
    fixed = [lit.index for lit in e.reason]
    assert all(lit == Literal(lit.index, not x[lit.index]) for lit in e.reason)  # conditions the sample meets
    assert len(set(fixed)) == len(fixed) and set(fixed) <= {lit.index for lit in rule.literals()}
    assert forces(rule, x, fixed, prediction)
    features = sorted({lit.index for lit in rule.literals()})
    for smaller in itertools.combinations(features, len(fixed) - 1) if fixed else ():
        assert not forces(rule, x, smaller, prediction), smaller


def check_each_node_is_reported_as_it_evaluates(rule, x, e):
    row = np.array([x])
    fixed = [lit.index for lit in e.reason]
    assert [n.path for n in e.nodes] == [path for path, _ in rule.walk()]
    for report, (path, node) in zip(e.nodes, rule.walk()):
        assert report.holds == bool(reference_evaluate(node, row)[0])
        if report.size is not None:
            assert report.size == len(node.subrules)
            assert report.true_count == sum(bool(reference_evaluate(sub, row)[0]) for sub in node.subrules)
            comparison, k = report.needs.split()  # the count it needs, read back: holds iff the count meets it
            meets = {">=": int.__ge__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__, "==": int.__eq__,
                     "!=": int.__ne__}[comparison](report.true_count, int(k))
            assert meets == report.holds
        # decided: the reason alone gives it its value, the same on every completion (of its own features)
        rows = completions(x, fixed, {lit.index for lit in node.literals()})
        assert report.decided == (reference_evaluate(node, rows) == report.holds).all()
        assert report.in_reason == (isinstance(node, Literal) and node.index in fixed)
    assert e.nodes[0].decided


def check_the_incremental_greedy_reason_is_the_plain_one(rule, x):
    """Dropping a feature re-evaluates only what changes; the reason is the one a full
    three-valued evaluation per dropped feature finds."""
    from boolrules.rules.explain import _greedy_reason, _three_valued

    prediction = bool(rule.evaluate(x.reshape(1, -1))[0])
    known = {j: bool(x[j]) for j in sorted({lit.index for lit in rule.literals()})}
    expected = dict(known)
    for j in list(expected):
        trial = {i: v for i, v in expected.items() if i != j}
        if _three_valued(rule, trial)[()] == prediction:
            expected = trial
    assert _greedy_reason(rule, known, prediction) == tuple(sorted(expected))


def test_a_reason_in_words():
    names = ["age >= 50", "income >= 40000", "smoker", "debt >= 10000"]
    rule = And(Literal(0), Or(Literal(2), Literal(3, True)))  # old, and a smoker or without debt
    e = explain(rule, [1, 0, 0, 1], names, label="high risk")
    assert not e.prediction
    assert [e.condition(lit) for lit in e.reason] == ["not smoker", "debt >= 10000"]
    text = str(e)
    assert text.startswith("prediction: high risk (the rule does not hold)")
    assert "a smallest set of 2 conditions that forces this prediction, whatever the rule's 1 other features" in text
    assert "  - not smoker\n  - debt >= 10000" in text
    assert "* [false] all of — 1 of 2 hold (needs == 2)" in text and "> [false]     smoker" in text
    data = e.to_dict()
    assert data["reason"] == [{"feature": 2, "value": 0, "condition": "not smoker"},
                              {"feature": 3, "value": 1, "condition": "debt >= 10000"}]
    assert data["prediction"] is False and data["reason_kind"] == "smallest" and len(data["nodes"]) == 5
    assert data["rule"] == "And(age >= 50, Or(smoker, debt < 10000))"


def test_a_constant_rule_needs_no_reason():
    e = explain(Zero(), [1, 0])
    assert e.reason == () and not e.prediction and "the rule is constant" in str(e)


def read_once(num_features):
    """A rule over `num_features` distinct features, each once (three-valued evaluation is exact)."""
    lits = [Literal(j, j % 3 == 0) for j in range(num_features)]
    groups = [lits[i:i + 3] for i in range(0, num_features, 3)]
    return Or(*(AtLeast(2, *g) if len(g) == 3 else And(*g) for g in groups[:2]),
              *(Choose(1, *g) if len(g) == 3 else Or(*g) for g in groups[2:]))


@pytest.mark.parametrize("seed", range(5))
def test_above_the_exact_limit_the_reason_still_forces_and_is_minimal_on_read_once_rules(seed):
    m = EXACT_MAX_FEATURES + 2
    rule = read_once(m)
    x = np.random.default_rng(seed).integers(0, 2, m)
    e = explain(rule, x)
    assert e.reason_kind == "sufficient"
    fixed = [lit.index for lit in e.reason]
    assert forces(rule, x, fixed, e.prediction)
    for j in fixed:  # subset-minimal: dropping any one feature leaves a completion that flips it
        assert not forces(rule, x, [i for i in fixed if i != j], e.prediction)


def test_bad_input_is_named():
    rule = parse("And(f0, f3)")
    assert_raises_clearly(ValueError, lambda: explain(rule, [1, 0, 1]), "feature 3", "x")
    assert_raises_clearly(ValueError, lambda: explain(rule, [1, 0, 2, 1]), "x")
    assert_raises_clearly(ValueError, lambda: explain(rule, [1, 0, 1, 1], ["a", "b"]), "feature_names")
    assert_raises_clearly(TypeError, lambda: explain("And(f0, f3)", [1, 0, 1, 1]), "rule")


def test_plot_highlights_truth_reason_and_decided_nodes(tmp_path):
    rule = parse("Or(And(f0, f1), ~f2)")
    e = explain(rule, [1, 1, 1])  # And holds, so the rule holds; ~f2 fails
    ax = plot_explanation(e)
    boxes = {t.get_text(): t.get_bbox_patch() for t in ax.texts}
    assert set(boxes) == {"any of", "all of", "f0", "f1", "not f2"}
    green, red = (matplotlib.colors.to_rgba(EXPLANATION_STYLES[k]["facecolor"]) for k in ("true", "false"))
    assert boxes["any of"].get_facecolor() == green and boxes["not f2"].get_facecolor() == red
    assert boxes["f0"].get_linewidth() == EXPLANATION_STYLES["reason"]["linewidth"]
    assert boxes["not f2"].get_linewidth() == 1.0  # neither in the reason nor decided by it
    ax.figure.savefig(tmp_path / "explanation.png")
    assert e.plot() is not None
    with pytest.raises(TypeError, match="explanation must be an Explanation"):
        plot_explanation(rule)


def frame(rng, n=200):
    X = pd.DataFrame({"age": rng.integers(20, 80, n), "smoker": rng.integers(0, 2, n),
                      "income": rng.normal(50, 10, n)})
    return X, ((X.age >= 50) & (X.smoker == 1)).astype(int)


@pytest.mark.filterwarnings("ignore:X does not have valid feature names")  # the numpy row, as sklearn warns
def test_estimator_explains_a_row_by_its_column_names():
    X, y = frame(np.random.default_rng(0))
    clf = RuleClassifier(max_complexity=5, num_starts=2, num_iterations=300, random_state=0).fit(X, y)
    for i in range(10):
        for x in (X.iloc[i], X.iloc[[i]], X.to_numpy()[i]):
            e = clf.explain(x)
            assert e.label == clf.predict(X.iloc[[i]])[0] and e.prediction == bool(e.label)
            assert e.rule == clf.rule_
        xb = clf.binarizer_.transform(X.iloc[[i]])[0]
        assert forces(clf.rule_, xb, [lit.index for lit in e.reason], e.prediction)
        assert all(c in clf.feature_names_ for c in (e.condition(lit) for lit in e.reason if not lit.negated))
    assert "smoker" in str(clf.explain(X.iloc[0]))


def test_estimator_explain_rejects_several_rows_and_several_classes():
    X, y = frame(np.random.default_rng(1))
    clf = RuleClassifier(max_complexity=4, num_starts=1, num_iterations=100, random_state=0).fit(X, y)
    assert_raises_clearly(ValueError, lambda: clf.explain(X.iloc[:2]), "one sample", "x")
    y3 = np.random.default_rng(2).integers(0, 3, len(X))
    multi = RuleClassifier(max_complexity=4, num_starts=1, num_iterations=50, random_state=0).fit(X, y3)
    assert_raises_clearly(ValueError, lambda: multi.explain(X.iloc[0]), "two-class", "estimators_")


def test_estimator_on_named_binary_features_explains_with_their_names_and_labels():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.integers(0, 2, (120, 4)), columns=["smoker", "diabetic", "over 60", "male"])
    y = np.where(X.smoker & (X["over 60"] | X.diabetic), "high", "low")
    clf = RuleClassifier(max_complexity=5, num_starts=2, num_iterations=400, random_state=0).fit(X, y)
    assert clf.binarizer_ is None and clf.score(X, y) == 1.0
    for i in range(20):
        e = clf.explain(X.iloc[i])
        assert e.label == clf.predict(X.iloc[[i]])[0] == y[i]
        assert forces(clf.rule_, X.iloc[i].to_numpy(), [lit.index for lit in e.reason], e.prediction)
        # "low": not a smoker (one condition), or neither over 60 nor diabetic; "high": two conditions
        if y[i] == "low":
            allowed = [{"not smoker"}, {"not over 60", "not diabetic"}]
        else:
            allowed = [{"smoker", "over 60"}, {"smoker", "diabetic"}]
        assert {e.condition(lit) for lit in e.reason} in allowed


@pytest.mark.parametrize("shape", ["flat", "two levels", "three levels"])
def test_explaining_thousands_of_literals_takes_near_linear_work(shape, monkeypatch):
    """Issue 29 item 9: 5000 literals took 16 s, each dropped feature re-evaluating the whole rule.
    Counted, not timed: the whole rule is evaluated a fixed number of times, and each dropped
    feature revisits only its literals' ancestors (operator decisions within nodes x depth)."""
    import importlib
    from collections import Counter

    explain_module = importlib.import_module("boolrules.rules.explain")  # the module, not its function
    calls = Counter()
    for name in ("_three_valued", "_decide"):
        original = getattr(explain_module, name)
        monkeypatch.setattr(explain_module, name,
                            lambda *args, _name=name, _original=original: calls.update([_name]) or _original(*args))
    n = 6000
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, n).astype(np.uint8)
    literals = [Literal(i, bool(rng.integers(2))) for i in range(n)]
    if shape == "flat":
        rule = AtLeast(n // 2, *literals)
    elif shape == "two levels":
        rule = Or(*[And(*literals[i:i + 10]) for i in range(0, n, 10)])
    else:
        rule = And(*[Or(*[AtLeast(2, *literals[i + j:i + j + 5]) for j in range(0, 50, 5)]) for i in range(0, n, 50)])
    explanation = explain(rule, x)
    explanation.to_text()
    assert calls["_three_valued"] <= 3  # the reason, what it decides, every node: not once per feature
    assert calls["_decide"] <= 2 * len(rule.walk()) * rule.depth
    assert explanation.reason_kind == "sufficient" and explain(rule, x).prediction == bool(rule.evaluate(x[None])[0])


def test_names_and_labels_that_do_not_print_add_no_lines():
    """Issue 29 item 7: a name holding a newline added fake conditions to the explanation; the
    text escapes it, the JSON keeps the exact name."""
    names = ["age\n  - income >= 10", "smoker\r\n> [true ] fake", "plain"]
    rule = Or(And(Literal(0), ~Literal(1)), Literal(2))
    x = np.array([1, 0, 0], dtype=np.uint8)
    explanation = explain(rule, x, names, label="yes\nprediction: no")
    lines = explanation.to_text().splitlines()
    assert all(line.isprintable() for line in lines)
    assert len(lines) == 3 + len(explanation.reason) + len(rule.walk())
    assert {r["condition"] for r in explanation.to_dict()["reason"]} <= {names[0], "not " + names[1], names[2]}
    assert [node["text"] for node in explanation.to_dict()["nodes"]][2] == names[0]


def test_estimator_text_escapes_column_names():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a\ncomplexity: 1": rng.normal(size=80), "b": rng.normal(size=80)})
    y = (frame.iloc[:, 0] > 0).astype(int)
    clf = RuleClassifier(num_starts=1, num_iterations=100, random_state=0).fit(frame, y)
    assert clf.rule_text_.isprintable() and parse(clf.rule_text_, clf.feature_names_) == clf.rule_
    assert all(line.isprintable() for line in clf.rule_description_.splitlines())
    assert all(line.isprintable() for line in clf.explain(frame.iloc[0]).to_text().splitlines())
