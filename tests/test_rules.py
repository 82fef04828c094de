import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from boolrules.rules import (
    OPERATORS,
    And,
    AtLeast,
    BitMatrix,
    Choose,
    Literal,
    One,
    Or,
    Zero,
    from_dict,
    negate_name,
    operator_output,
    parse,
    resolve_operator,
    resolve_operators,
)

from .reference import evaluate as reference_evaluate
from .strategies import NUM_FEATURES, rules

matrices = st.integers(1, 200).flatmap(
    lambda n: arrays(np.uint8, (n, NUM_FEATURES), elements=st.integers(0, 1))
)


@settings(max_examples=300, deadline=None)
@given(rules(), matrices)
def test_bitset_matches_reference_and_text_and_dict_round_trip(rule, X):
    """Two properties of each drawn rule (one draw for both: drawing a rule costs more than either)."""
    assert np.array_equal(rule.evaluate(X), reference_evaluate(rule, X))
    check_text_and_dict_round_trip(rule)


@settings(max_examples=100, deadline=None)
@given(rules(), st.integers(1, 300))
def test_sliced_counter_matches_reference(rule, n):
    """The wide-data counting path agrees with the reference as well."""
    X = np.random.default_rng(n).integers(0, 2, (n, NUM_FEATURES), dtype=np.uint8)
    bits = BitMatrix(X, sliced_count_min_words=0)
    assert np.array_equal(bits.unpack(bits.evaluate(rule)), reference_evaluate(rule, X))


@pytest.mark.parametrize("sliced_count_min_words", [0, 10**9], ids=["sliced", "unpack"])
@pytest.mark.parametrize("operator", list(OPERATORS.values()), ids=list(OPERATORS))
def test_both_counting_paths_follow_operator_output(operator, sliced_count_min_words):
    """Packed evaluation of an operator over d literals gives `operator_output` of the per-row
    count of true literals, for every d and k (the sliced counter is another algorithm)."""
    X = np.random.default_rng(0).integers(0, 2, (300, 9), dtype=np.uint8)
    bits = BitMatrix(X, sliced_count_min_words=sliced_count_min_words)
    for d in range(1, 10):
        literals = [Literal(j, negated=j % 3 == 0) for j in range(d)]
        counts = (X[:, :d] != np.array([lit.negated for lit in literals])).sum(axis=1)
        for k in range(d + 1) if operator.parameterized else [None]:
            rule = operator(k, *literals) if operator.parameterized else operator(*literals)
            expected = operator_output(operator, counts, d, k)
            assert np.array_equal(bits.unpack(bits.evaluate(rule)), expected), rule
            assert np.array_equal(bits.unpack(bits.evaluate(~rule)), ~expected), ~rule


def test_operator_names_resolve_to_classes():
    assert resolve_operator("AtLeast") is AtLeast and resolve_operator(Choose) is Choose
    assert resolve_operators("Or") == (Or,)
    assert resolve_operators(["And", Or, "And"]) == (And, Or)
    assert resolve_operators(OPERATORS) == tuple(OPERATORS.values())
    for bad, name, match in [
        ("Xor", "operator", "unknown operator 'Xor' in operator"),
        (Literal, "operator", "unknown operator .*Literal.* in operator"),
        (["Or", "Xor"], "nonlocal_operators", "'Xor' in nonlocal_operators"),
        ([], "operators", "operators must name at least one operator"),
        (3, "operators", "operators must be an operator name or class"),
    ]:
        resolve = resolve_operator if name == "operator" else resolve_operators
        with pytest.raises(ValueError, match=match):
            resolve(bad, name)


def test_operator_output_table():
    """The operator semantics, case by case: counts 0..3 of 3 sub-rules."""
    counts = np.arange(4)
    table = {
        ("Or", None): [0, 1, 1, 1],
        ("And", None): [0, 0, 0, 1],
        ("AtLeast", 2): [0, 0, 1, 1],
        ("AtMost", 1): [1, 1, 0, 0],
        ("Choose", 2): [0, 0, 1, 0],
        ("Choose", 0): [1, 0, 0, 0],
    }
    for (name, k), expected in table.items():
        for operator in (name, OPERATORS[name]):
            assert operator_output(operator, counts, 3, k).tolist() == [bool(e) for e in expected], (name, k)
    k = np.arange(4)[:, None]  # broadcasting: every k against every count
    assert np.array_equal(operator_output("AtLeast", counts[None, :], 3, k), counts[None, :] >= k)


def check_text_and_dict_round_trip(rule):
    assert parse(str(rule)) == rule
    assert from_dict(json.loads(json.dumps(rule.to_dict()))) == rule
    assert pickle.loads(pickle.dumps(rule)) == rule
    assert hash(parse(str(rule))) == hash(rule)


def test_example_from_the_paper():
    rule = And(Choose(2, Literal(0), Literal(1), Literal(2), Literal(3)), ~Literal(4), Literal(5))
    assert str(rule) == "And(Choose2(f0, f1, f2, f3), ~f4, f5)"
    assert rule.complexity == 8
    assert rule.depth == 2
    assert [lit.index for lit in rule.literals()] == [0, 1, 2, 3, 4, 5]
    assert ~~rule == rule and ~rule != rule


def test_feature_names_read_naturally():
    names = ["worst area >= 719.6", "Contract == Month-to-month", "smoker"]
    rule = Or(~Literal(0), ~Literal(1), ~Literal(2), Literal(0))
    assert rule.to_str(names) == (
        "Or(worst area < 719.6, Contract != Month-to-month, ~smoker, worst area >= 719.6)"
    )
    assert negate_name("a < b") == "a >= b"


def test_trivial_rules():
    X = np.zeros((3, 2), np.uint8)
    assert not Zero().evaluate(X).any() and One().evaluate(X).all()
    assert ~Zero() == One() and Zero().complexity == 0
    assert parse("One") == One()


def test_rules_are_immutable():
    lit = Literal(1)
    with pytest.raises(AttributeError, match="immutable"):
        lit.index = 2


def test_memo_reuses_shared_subrules():
    X = np.random.default_rng(0).integers(0, 2, (70, 4))
    bits = BitMatrix(X)
    sub = And(Literal(0), Literal(1))
    memo = {}
    bits.evaluate(Or(sub, Literal(2)), memo)
    assert sub in memo
    assert bits.evaluate(sub, memo) is memo[sub]


def test_evaluate_leaves_input_untouched():
    X = np.array([[True, False], [False, True]])
    before = X.copy()
    Or(~Literal(0), Literal(1)).evaluate(X)
    assert np.array_equal(X, before)


def test_graph_and_plot():
    import matplotlib

    matplotlib.use("Agg")
    rule = And(Choose(2, Literal(0), Literal(1), Literal(2)), ~Literal(4))
    graph = rule.to_graph(["a", "b", "c", "d", "e >= 1"])
    assert graph.number_of_nodes() == rule.complexity
    assert graph.nodes[()]["label"] == "And"
    assert graph.nodes[(1,)]["label"] == "e < 1"
    ax = rule.plot()
    assert len(ax.texts) == rule.complexity
