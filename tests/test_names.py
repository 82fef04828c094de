"""Named rule text: negations stated correctly, quoting, and `parse(rule.to_str(names), names)`
round trips, for hostile names and for every bundled dataset's feature names."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boolrules import QuantileBinarizer, RuleClassifier
from boolrules.datasets import DATASETS, load_dataset
from boolrules.rules import And, AtLeast, Literal, One, Or, Zero, describe, negate_name, parse
from boolrules.rules.names import quote_name
from tests.strategies import rules

HOSTILE = [
    "temp > 37 == yes", "a >= 3", "a < 3", "x is missing", "smoker", "b, c", "Zero", "One", "f1 == x",
    "a`b", " lead", "trail ", "Or(x)", "~t", "", "tab\there", "Or", "AtLeast2", "f3", "x == a, b", "(", ")",
    "y != 2", "z <= 4 is missing", "line\nbreak", "naïve ≥ 5",
]


def test_negation_of_a_name_with_two_comparisons_is_not_a_flip():
    """Issue 15 item 7: NOT of `temp > 37 == yes` is not `temp <= 37 == yes`."""
    names = ["temp > 37 == yes", "age >= 50", "x is missing", "temp > 37 is missing"]
    assert negate_name(names[0]) == "~temp > 37 == yes"
    assert Literal(0, True).to_str(names) == "~`temp > 37 == yes`"
    assert Literal(1, True).to_str(names) == "age < 50"
    assert Literal(2, True).to_str(names) == "x is not missing"
    assert Literal(3, True).to_str(names) == "temp > 37 is not missing"
    assert describe(Literal(0, True), names) == "not (temp > 37 == yes)"
    for i in range(4):
        assert parse(Literal(i, True).to_str(names), names) == Literal(i, True)


def test_a_flip_that_names_another_feature_is_not_used():
    names = ["a >= 3", "a < 3"]
    assert Or(~Literal(0), ~Literal(1)).to_str(names) == "Or(~`a >= 3`, ~`a < 3`)"
    assert parse("Or(a < 3, ~`a < 3`)", names) == Or(Literal(1), ~Literal(1))


def test_names_are_quoted_only_when_needed():
    names = ["worst area >= 686.5", "b, c", "Zero", "a`b", " lead"]
    text = And(*[Literal(i) for i in range(5)]).to_str(names)
    assert text == "And(worst area >= 686.5, `b, c`, `Zero`, `a``b`, ` lead`)"


@settings(max_examples=200, deadline=None)
@given(rules(len(HOSTILE)), st.permutations(HOSTILE))
def test_round_trip_with_hostile_names(rule, names):
    names = names[: len(HOSTILE)]
    assert parse(rule.to_str(names), names) == rule


def test_parse_of_named_text_tolerates_spaces_and_reads_constants():
    names = ["a >= 3", "smoker"]
    assert parse("  Or( a >= 3 ,~ smoker , Zero, One )  ", names) == Or(Literal(0), ~Literal(1), Zero(), One())
    assert parse("AtLeast1(a < 3, ~~smoker)", names) == AtLeast(1, ~Literal(0), Literal(1))


@pytest.mark.parametrize(("text", "message"), [
    ("Or(nope, smoker)", "unknown feature name 'nope' at position 3"),
    ("Or(smoker", "expected ',' or ')'"),
    ("Or(`smoker)", "expected a feature name"),
    ("Or(f0)", "unknown feature name 'f0'"),
])
def test_named_parse_errors_say_where(text, message):
    with pytest.raises(ValueError, match=message.replace("(", "\\(").replace(")", "\\)")):
        parse(text, ["a >= 3", "smoker"])


def test_a_name_two_features_share_is_refused_as_ambiguous():
    with pytest.raises(ValueError, match="ambiguous"):
        parse("Or(a)", ["a", "a"])


@pytest.mark.parametrize("layout", [{}, {"paper_layout": True}, {"missing": "indicator"}])
@pytest.mark.parametrize("name", DATASETS)
def test_every_bundled_datasets_names_round_trip(name, layout):
    """Every literal of every feature, plain and negated, in one rule: its text parses back."""
    names = load_dataset(name, **layout).feature_names
    m = len(names)
    rule = Or(And(*[Literal(i) for i in range(m)]), AtLeast(2, *[Literal(i, True) for i in range(m)]))
    text = rule.to_str(names)
    assert parse(text, names) == rule
    assert "f0" not in text.split(", ") and text.count(",") >= 2 * m - 1


def test_rule_text_round_trips_through_the_estimator():
    data = load_dataset("credit_risk")
    frame = data.raw.rename(columns={"age": "age (years), > 18", "purpose": "purpose == code"})
    clf = RuleClassifier(max_complexity=6, num_starts=1, num_iterations=300, random_state=0).fit(frame, data.y)
    assert parse(clf.rule_text_, clf.feature_names_) == clf.rule_
    assert "f" + str(clf.rule_.literals()[0].index) not in clf.rule_text_.replace("(", " ").split()


def test_binarizer_names_with_comparisons_negate_correctly():
    """A category value holding a comparison: the negation is not a flip of the wrong operator."""
    frame = pd.DataFrame({"temp > 37": ["yes", "no"] * 10, "x": np.arange(20.0)})
    binarizer = QuantileBinarizer(num_bins=4).fit(frame)
    names = binarizer.get_feature_names_out().tolist()
    assert names[0] == "temp > 37 == yes"
    assert Literal(0, True).to_str(names) == "~`temp > 37 == yes`"
    assert Literal(1, True).to_str(names) == "x < 4.75"


# names holding characters that do not print (issue 29 item 7)

FORGING = ["a\nb >= 3", "x\n- always true", "y\r\ncomplexity: 1", "z\x1b[2K", "u\u202eright", "v\u2028w", "t\tab",
           "back\\slash, comma", "\\n", "nul\x00", "\x85next", "nbsp\u00a0", "`q`\n", "astral\U000e0001"]


def _one_line(text):
    return "\n" not in text and "\r" not in text and text.isprintable()


@settings(max_examples=200, deadline=None)
@given(rules(), st.lists(st.text(min_size=0, max_size=6), min_size=8, max_size=8, unique=True))
def test_any_names_print_on_one_line_and_read_back(rule, names):
    """Rule text with any names (newlines, escapes, backslashes, backticks) is one printable line
    that `parse` reads back."""
    text = rule.to_str(names)
    assert text.isprintable()
    assert parse(text, names) == rule


@pytest.mark.parametrize("name", FORGING)
def test_a_name_that_does_not_print_is_one_escaped_token(name):
    names = [name, "other"]
    for rule in (Literal(0), ~Literal(0), Or(Literal(0), ~Literal(1)), And(~Literal(0), AtLeast(1, Literal(1)))):
        text = rule.to_str(names)
        assert _one_line(text) and parse(text, names) == rule
        lines = describe(rule, names).splitlines()
        assert len(lines) == len(rule.walk()) and all(_one_line(line) for line in lines)


def test_escapes_read_back_and_keep_backticked_names():
    assert quote_name("a\nb") == r"`a\nb`"
    assert quote_name("a, b\\c") == r"`a, b\\c`"
    assert quote_name("`x`") == "```x```"
    assert quote_name("bell\x07") == r"`bell\x07`"
    assert parse(r"Or(`a\nb`, `c\\d, e`)", ["a\nb", "c\\d, e"]) == Or(Literal(0), Literal(1))
    assert parse(r"`a\qb, c`", [r"a\qb, c"]) == Literal(0)  # an unknown escape stays as it is
