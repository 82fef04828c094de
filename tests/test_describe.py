"""`Rule.describe`: one line per node, operators as plain-language headers, sub-rules one level
deeper, negated conditions read naturally."""

import pytest
from hypothesis import given, settings

from boolrules.rules import And, AtLeast, AtMost, Choose, Literal, One, Or, Zero, parse
from boolrules.rules.describe import describe

from .errors import assert_raises_clearly
from .strategies import rules

NAMES = ["age >= 50", "smoker", "income < 30000", "colour == red"]


@pytest.mark.parametrize("rule, header", [
    (Or(Literal(0), Literal(1)), "any of:"),
    (Or(Literal(0), Literal(1), negated=True), "none of:"),
    (And(Literal(0), Literal(1)), "all of:"),
    (And(Literal(0), Literal(1), negated=True), "not all of:"),
    (AtLeast(2, Literal(0), Literal(1), Literal(2)), "at least 2 of the following hold:"),
    (AtLeast(2, Literal(0), Literal(1), Literal(2), negated=True), "fewer than 2 of the following hold:"),
    (AtMost(1, Literal(0), Literal(1), Literal(2)), "at most 1 of the following hold:"),
    (AtMost(1, Literal(0), Literal(1), Literal(2), negated=True), "more than 1 of the following hold:"),
    (Choose(1, Literal(0), Literal(1)), "exactly one of:"),
    (Choose(2, Literal(0), Literal(1), Literal(2)), "exactly 2 of the following hold:"),
    (Choose(2, Literal(0), Literal(1), Literal(2), negated=True), "not exactly 2 of the following hold:"),
])
def test_headers(rule, header):
    assert rule.describe().splitlines()[0] == header


def test_nested_rule_with_names():
    rule = Or(AtLeast(2, Literal(0), Literal(1, True), Literal(2, True)), And(Literal(3, True), Literal(1)))
    assert rule.describe(NAMES) == "\n".join([
        "any of:",
        "- at least 2 of the following hold:",
        "  - age >= 50",
        "  - not smoker",
        "  - income >= 30000",
        "- all of:",
        "  - colour != red",
        "  - smoker",
    ])
    assert parse("And(~f0, f1)").describe() == "all of:\n- not f0\n- f1"


def test_literals_and_constants():
    assert Literal(0, True).describe(NAMES) == "age < 50"
    assert One().describe() == "always true" and Zero().describe() == "always false"


@settings(max_examples=200, deadline=None)
@given(rules())
def test_one_line_per_node_indented_by_depth(rule):
    lines = rule.describe().splitlines()
    assert len(lines) == len(rule.walk())
    for line, (path, node) in zip(lines, rule.walk()):
        indent = "  " * (len(path) - 1) + "- " if path else ""
        assert line.startswith(indent) and not line[len(indent)].isspace()
        assert line.endswith(":") == bool(node.subrules)


def test_too_few_names_are_named():
    assert_raises_clearly(ValueError, lambda: parse("Or(f0, f5)").describe(NAMES), "feature_names", "feature 5")
    assert_raises_clearly(TypeError, lambda: describe("f0"), "rule")


def test_plot_labels_are_the_short_headers():
    graph = parse("AtLeast2(f0, ~f1, Choose1(f2, f3))").to_graph(NAMES)
    assert [graph.nodes[path]["text"] for path in sorted(graph.nodes)] == [
        "at least 2 of", "age >= 50", "not smoker", "exactly one of", "income < 30000", "colour == red"]
    assert graph.nodes[()]["label"] == "AtLeast2"
