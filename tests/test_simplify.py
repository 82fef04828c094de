"""`Rule.simplify`: the same predictions on every input, never more nodes, a fixed point, and the
canonical shapes `operators.simplify` promises."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boolrules.rules import And, AtLeast, AtMost, Choose, Literal, One, Operator, Or, Zero, from_dict, parse
from boolrules.rules.operators import negation, simplify

from .reference import evaluate as reference_evaluate
from .strategies import operators

NUM_FEATURES = 4  # few features, so that random rules repeat literals and hold complements
ALL_INPUTS = np.array(list(itertools.product((0, 1), repeat=NUM_FEATURES)), dtype=np.uint8)


def leaves():
    return st.one_of(
        st.builds(Literal, st.integers(0, NUM_FEATURES - 1), st.booleans()),
        st.sampled_from([Zero(), One()]),
    )


rules = st.recursive(leaves(), operators, max_leaves=14)


def truth(rule):
    """The rule on every input (reference evaluator: no shared code with the fast one)."""
    return reference_evaluate(rule, ALL_INPUTS)


def assert_canonical(rule):
    """The shapes `operators.simplify` promises: no constant below the root, no operator of one child,
    Or/And at their extremes, no negated Or, And, AtLeast or AtMost, no same-operator nesting, no
    repeated child in Or/And and no child beside its negation."""
    for path, node in rule.walk():
        if path:
            assert not isinstance(node, (Zero, One)), rule
        if not isinstance(node, Operator):
            continue
        n, k, subs = len(node.subrules), node.k, node.subrules
        assert n >= 2, rule
        assert not (node.negated and type(node) is not Choose), rule
        if type(node) is AtLeast:
            assert 2 <= k <= n - 1, rule
        if type(node) is AtMost:
            assert 1 <= k <= n - 2, rule
        if type(node) is Choose:
            assert 1 <= k <= n - 1 or node.negated and 0 < k < n, rule
        if type(node) in (Or, And):
            assert not any(type(s) is type(node) for s in subs), rule
            assert len(set(subs)) == n, rule
        for a, b in itertools.combinations(subs, 2):
            assert a != negation(b), rule


@pytest.mark.slow  # 1500 examples, ~14 s: fewer miss known wrong simplifications
@settings(max_examples=1500, deadline=None)
@given(rules)
def test_simplify_keeps_every_prediction_and_never_adds_nodes(rule):
    simple = rule.simplify()
    assert np.array_equal(truth(simple), truth(rule)), (rule, simple)
    assert np.array_equal(simple.evaluate(ALL_INPUTS), truth(rule))
    assert simple.complexity <= rule.complexity, (rule, simple)
    assert simplify(simple) == simple  # idempotent
    assert_canonical(simple)
    assert parse(str(simple)) == simple and from_dict(simple.to_dict()) == simple


@settings(max_examples=300, deadline=None)
@given(rules)
def test_negation_is_the_canonical_complement(rule):
    simple = rule.simplify()
    negated = negation(simple)
    assert np.array_equal(truth(negated), ~truth(simple))
    assert negated == simplify(negated) and negated.complexity <= simple.complexity


@pytest.mark.parametrize("text, expected", [
    # same-operator nesting flattens
    ("Or(f0, Or(f1, f2))", "Or(f0, f1, f2)"),
    ("And(And(f0, f1), f2, And(f3, ~f4))", "And(f0, f1, f2, f3, ~f4)"),
    ("Or(f0, ~And(f1, f2))", "Or(f0, ~f1, ~f2)"),  # a negated And is an Or of negations, then flattens
    # parameterized operators at their extremes
    ("AtLeast1(f0, f1, f2)", "Or(f0, f1, f2)"),
    ("AtLeast3(f0, f1, f2)", "And(f0, f1, f2)"),
    ("AtMost0(f0, f1, f2)", "And(~f0, ~f1, ~f2)"),
    ("AtMost2(f0, f1, f2)", "Or(~f0, ~f1, ~f2)"),
    ("AtMost1(f0, f1)", "Or(~f0, ~f1)"),  # "not both"
    ("Choose0(f0, f1, f2)", "And(~f0, ~f1, ~f2)"),
    ("Choose3(f0, f1, f2)", "And(f0, f1, f2)"),
    ("Choose1(f0, f1)", "Choose1(f0, f1)"),  # exactly one: already the familiar form
    ("~Choose0(f0, f1)", "Or(f0, f1)"),
    ("~AtLeast2(f0, f1, f2, f3)", "AtMost1(f0, f1, f2, f3)"),
    ("~AtMost1(f0, f1, f2, f3)", "AtLeast2(f0, f1, f2, f3)"),
    ("~Choose2(f0, f1, f2, f3)", "~Choose2(f0, f1, f2, f3)"),  # != 2 has no un-negated operator
    ("AtLeast0(f0, f1)", "One"),
    ("~AtMost2(f0, f1)", "Zero"),
    # one child
    ("Or(f3)", "f3"),
    ("~And(f3)", "~f3"),
    ("AtLeast2(f0, Or(f1))", "And(f0, f1)"),
    # double negations merge
    ("~Or(~f0, ~f1)", "And(f0, f1)"),
    ("~And(~f0, ~Or(f1, f2))", "Or(f0, f1, f2)"),
    # constants
    ("Or(f0, Zero, f1)", "Or(f0, f1)"),
    ("Or(f0, One)", "One"),
    ("And(f0, One, f1)", "And(f0, f1)"),
    ("And(f0, Zero)", "Zero"),
    ("AtLeast2(f0, One, f1, f2)", "Or(f0, f1, f2)"),  # a true constant lowers k
    ("AtMost1(f0, Zero, f1, f2)", "AtMost1(f0, f1, f2)"),
    ("Choose2(One, One, f0)", "~f0"),
    # repeated and complementary children
    ("Or(f0, f1, f0)", "Or(f0, f1)"),
    ("And(f0, f0)", "f0"),
    ("Or(f0, ~f0, f1)", "One"),
    ("And(f0, f1, ~f0)", "Zero"),
    ("AtLeast2(f0, ~f0, f1, f2)", "Or(f1, f2)"),  # a complementary pair always counts one
    ("Choose1(f0, ~f0, f1)", "~f1"),
    ("AtLeast2(f0, f0, f1)", "f0"),
    ("AtLeast2(f0, f0, f1, f2)", "Or(f0, And(f1, f2))"),
    ("AtMost1(f0, f0, f1, f2)", "And(~f0, Or(~f1, ~f2))"),
    ("AtLeast3(f0, f0, f1, f2)", "And(f0, Or(f1, f2))"),
    # issue 16's examples
    ("AtMost1(AtMost1(AtMost1(f0, f1), f2, f3), AtLeast1(f4, f5))",
     "Or(AtLeast2(Or(~f0, ~f1), f2, f3), And(~f4, ~f5))"),
])
def test_each_rewrite(text, expected):
    rule = parse(text)
    simple = rule.simplify()
    assert str(simple) == expected
    inputs = np.array(list(itertools.product((0, 1), repeat=6)), dtype=np.uint8)
    assert np.array_equal(simple.evaluate(inputs), rule.evaluate(inputs))


def test_issue_example_reads_as_or_of_familiar_operators():
    names = ["concave points error >= 0.01068", "mean concave points >= 0.04394", "worst texture >= 20.21",
             "worst concave points >= 0.1156", "worst area >= 928.7", "perimeter error >= 5.182"]
    rule = parse("AtMost1(AtMost1(Or(~f0, Choose1(f1, ~f2)), f3, f4), ~f5)")
    simple = rule.simplify()
    assert simple.to_str(names) == ("Or(AtLeast2(Or(concave points error < 0.01068, Choose1(mean concave points >= "
                                    "0.04394, worst texture < 20.21)), worst concave points >= 0.1156, worst area >= "
                                    "928.7), perimeter error >= 5.182)")
    assert simple.complexity == rule.complexity


def test_simplify_rejects_a_non_rule():
    with pytest.raises(TypeError, match="simplify expects a rule"):
        simplify("Or(f0, f1)")
