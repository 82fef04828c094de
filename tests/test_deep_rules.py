"""Rules nested far deeper than Python recurses (issue 15): every operation whose output grows with
the size works at that depth without recursion, matching a reference computed level by level; the
ones whose output grows as the depth squared (walk, describe, explain, graphs) or whose target
language caps nesting (Python, SQL) refuse clearly instead of raising RecursionError. simplify's
time on long chains is checked by the work it does (calls counted) at one depth and at twice it."""

from __future__ import annotations

import json
import pickle
import sqlite3
import sys

import numpy as np
import pandas as pd
import pytest

from boolrules.rules import (
    OPERATORS,
    And,
    BitMatrix,
    Literal,
    One,
    Or,
    Zero,
    describe,
    explain,
    export_rule,
    from_json,
    parse,
    simplify,
)
from boolrules.rules.export import PYTHON_MAX_DEPTH, SQL_MAX_DEPTH
from boolrules.rules.nodes import MAX_WALK_DEPTH
from boolrules.rules.serialize import _deep_loads, from_dict, to_json

from .errors import assert_raises_clearly
from .reference import operator_output

NUM_FEATURES = 30
# Recursion fails far below this (sys.getrecursionlimit() is 1000): with SHALLOW_DEPTH raised so that
# str, evaluate and simplify recurse, they raise RecursionError from depth 350, 250 and 500; json.loads
# and pickling nested dicts from about 500. Deeper than MAX_WALK_DEPTH and SQL_MAX_DEPTH, for refusals.
DEEP = 5_000
X = np.random.default_rng(1).integers(0, 2, (6, NUM_FEATURES), dtype=np.uint8)
NAMES = [f"x{i} >= {i}" if i % 3 else f"flag, {i}" for i in range(NUM_FEATURES)]


def chain(depth: int, seed: int = 0):
    """A rule `depth` operators deep: each level an operator of a random kind (and negation) over
    the level below and two literals; and its truth on the rows of `X`, computed level by level."""
    rng = np.random.default_rng(seed)
    kinds = list(OPERATORS.values())
    rule, truth = Literal(0), X[:, 0].astype(bool)
    for _ in range(depth):
        cls = kinds[rng.integers(len(kinds))]
        a, b = rng.choice(np.arange(1, NUM_FEATURES), 2, replace=False).tolist()
        na, nb, negated = (bool(v) for v in rng.integers(0, 2, 3))
        k = int(rng.integers(1, 3)) if cls.parameterized else None
        subs = (rule, Literal(a, na), Literal(b, nb))
        rule = cls(k, *subs, negated=negated) if cls.parameterized else cls(*subs, negated=negated)
        count = truth.astype(int) + (X[:, a] != na) + (X[:, b] != nb)
        truth = operator_output(cls.__name__, count, 3, k) != negated
    return rule, truth


@pytest.fixture(scope="module")
def deep():
    return chain(DEEP)


@pytest.fixture(scope="module")
def past_walk_limit():
    return chain(MAX_WALK_DEPTH + 1)[0]


class _OverBudget(BaseException):  # not an Exception, so no `except Exception` in the code swallows it
    pass


def work(fn, budget: int | None = None):
    """`fn()` and the number of Python and built-in function calls and returns it made: a measure of
    its time that does not depend on the machine. Past `budget`, `fn` is stopped and the test fails."""
    events = 0

    def count(frame, event, arg):
        nonlocal events
        events += 1
        if budget is not None and events > budget:
            raise _OverBudget

    sys.setprofile(count)
    try:
        result = fn()
    except _OverBudget:
        pytest.fail(f"more than {budget} calls: the work grows faster than the depth")
    finally:
        sys.setprofile(None)
    return result, events


def test_size_and_depth(deep):
    rule, _ = deep
    assert rule.depth == DEEP and rule.complexity == 3 * DEEP + 1
    assert len(rule.literals()) == 2 * DEEP + 1


def test_text_round_trips(deep):
    rule, _ = deep
    assert parse(str(rule)) == rule
    assert parse(rule.to_str(NAMES), NAMES) == rule
    assert parse(export_rule(rule, "text", NAMES), NAMES) == rule
    assert repr(rule).startswith("<")


def test_json_and_pickle_round_trip(deep):
    rule, _ = deep
    assert from_json(to_json(rule)) == rule
    assert pickle.loads(pickle.dumps(rule)) == rule
    exported = _deep_loads(export_rule(rule, "json", NAMES))  # json.loads recurses: too deep for it
    assert from_dict(exported["rule"]) == rule
    assert parse(exported["text"], NAMES) == rule
    assert exported["features"] == {str(i): NAMES[i] for i in range(NUM_FEATURES)}


def test_export_json_is_what_json_dumps_wrote_for_ordinary_rules():
    rule, _ = chain(20)
    expected = json.dumps({"rule": rule.to_dict(), "text": rule.to_str(NAMES),
                           "features": {str(i): NAMES[i] for i in sorted({lit.index for lit in rule.literals()})}})
    assert export_rule(rule, "json", NAMES) == expected


def test_evaluate(deep):
    rule, truth = deep
    np.testing.assert_array_equal(rule.evaluate(X), truth)
    bits, memo = BitMatrix(X), {}
    np.testing.assert_array_equal(bits.unpack(bits.evaluate(rule)), truth)
    np.testing.assert_array_equal(bits.unpack(bits.evaluate(rule, memo)), truth)
    assert memo[rule] is bits.evaluate(rule, memo)  # kept in the memo as shallow rules are


def test_evaluate_shared_deep_subrules():
    """A deep sub-rule under several parents is evaluated right, and only as often as needed."""
    inner, truth = chain(3 * 100)
    rule = Or(inner, ~inner, inner)
    np.testing.assert_array_equal(rule.evaluate(X), np.ones(len(X), bool))
    rule = Or(inner, Literal(1))
    np.testing.assert_array_equal(rule.evaluate(X), truth | X[:, 1].astype(bool))


def test_simplify(deep):
    rule, truth = deep
    canonical = simplify(rule)
    np.testing.assert_array_equal(canonical.evaluate(X), truth)
    assert canonical.complexity <= rule.complexity
    assert simplify(canonical) == canonical
    shallow, _ = chain(200, seed=3)
    for other in (simplify(shallow), simplify(~shallow)):  # the explicit-stack walk from just past the threshold
        assert simplify(other) == other


@pytest.mark.parametrize("seed", range(4))
def test_simplify_deep_matches_on_every_row(seed):
    """At depth 400 (past the explicit-stack threshold) the canonical form agrees with the rule on
    all 2**6 rows of its last six features, the others fixed."""
    rule, _ = chain(400, seed)
    rows = np.tile(X[0], (64, 1))
    rows[:, -6:] = ((np.arange(64)[:, None] >> np.arange(6)) & 1).astype(np.uint8)
    np.testing.assert_array_equal(simplify(rule).evaluate(rows), rule.evaluate(rows))


def test_walk_describe_explain_graph_up_to_their_limit():
    rule, truth = chain(1000)
    nodes = rule.walk()
    assert len(nodes) == rule.complexity and nodes[0] == ((), rule)
    assert max(len(path) for path, _ in nodes) == 1000
    assert len(describe(rule, NAMES).splitlines()) == rule.complexity
    explanation = explain(rule, X[0], NAMES)
    assert explanation.prediction == truth[0]
    assert len(explanation.nodes) == rule.complexity
    assert rule.to_graph().number_of_nodes() == rule.complexity


@pytest.mark.parametrize("call", [
    lambda rule: rule.walk(), lambda rule: describe(rule), lambda rule: explain(rule, X[0]),
    lambda rule: rule.to_graph(),
], ids=["walk", "describe", "explain", "graph"])
def test_walk_describe_explain_graph_refuse_deeper_rules(deep, past_walk_limit, call):
    rule, _ = deep
    assert_raises_clearly(ValueError, lambda: call(rule), "depth", str(MAX_WALK_DEPTH))
    assert_raises_clearly(ValueError, lambda: call(past_walk_limit), "depth")


def test_python_export_up_to_its_limit(deep):
    rule, truth = chain(40)
    scope = {}
    exec(export_rule(rule, "python", NAMES), scope)
    assert [scope["rule"](dict(zip(NAMES, row))) for row in X] == truth.tolist()
    for deep_rule in (chain(150)[0], chain(PYTHON_MAX_DEPTH + 1)[0], deep[0]):  # 150: Python's parser refuses it,
        assert_raises_clearly(ValueError, lambda: export_rule(deep_rule, "python", NAMES), "Python", "deep")


def test_sql_export_up_to_its_limit(deep):
    """An Or/And chain 60 deep runs in SQLite (whose parser overflows near 90); deeper rules are
    written up to SQL_MAX_DEPTH, beyond which they are refused."""
    rule, truth = Literal(0), X[:, 0].astype(bool)
    for i in range(60):
        j = i % (NUM_FEATURES - 1) + 1
        column = X[:, j] == 1
        rule, truth = (Or(rule, Literal(j)), truth | column) if i % 2 else (And(rule, ~Literal(j)), truth & ~column)
    con = sqlite3.connect(":memory:")
    pd.DataFrame(X, columns=NAMES).assign(_row=np.arange(len(X))).to_sql("t", con, index=False)
    rows = {r for (r,) in con.execute(f"SELECT _row FROM t WHERE {export_rule(rule, 'sql', NAMES)}")}
    con.close()
    assert [i in rows for i in range(len(X))] == truth.tolist()
    with pytest.warns(UserWarning, match="more than SQLite .* can run"):  # written, but SQLite refuses it
        assert export_rule(chain(SQL_MAX_DEPTH)[0], "sql").count("(") > SQL_MAX_DEPTH
    assert_raises_clearly(ValueError, lambda: export_rule(deep[0], "sql"), "SQL", "deep")
    assert_raises_clearly(ValueError, lambda: export_rule(chain(SQL_MAX_DEPTH + 1)[0], "sql"), "SQL", "1000")


def test_parse_reads_deep_text_and_refuses_unclosed_deep_text():
    assert parse("And(" * 5000 + "f0" + ")" * 5000).depth == 5000
    assert_raises_clearly(ValueError, lambda: parse("And(" * DEEP + "f0" + ")" * (DEEP - 1)), "')'")
    assert_raises_clearly(ValueError, lambda: parse("Or(f1, " * DEEP + "f0" + ")" * DEEP + ")"), "unexpected text")
    assert_raises_clearly(ValueError, lambda: parse("AtLeast3(" * 50 + "f0" + ")" * 50), "AtLeast", "k=3")


def or_chain(cls, depth: int, first: int):
    """`cls(cls(...cls(f[first], ~f[first+1])..., f[first+depth-1])`: literals alternately negated."""
    rule = Literal(first)
    for i in range(1, depth):
        rule = cls(rule, Literal(first + i, negated=i % 2 == 1))
    return rule


@pytest.mark.parametrize("cls", [Or, And])
def test_simplify_of_long_or_and_chains_is_linear(cls):
    """A chain of Or (or And) in Or: spliced into one node before rewriting (rewriting level by level
    rebuilt the growing node each time, cubic before complements were found by hashing: depth 1000
    took 90 s). Twice as deep is twice the work (cubic: eight times), on chains past SHALLOW_DEPTH
    over distinct literals (so nothing the first simplify cached helps the second)."""
    calls = []
    for depth, first in ((150, 0), (300, 150)):
        rule = or_chain(cls, depth, first)
        canonical, events = work(lambda: simplify(rule), 3 * calls[0] if calls else None)
        calls.append(events)
        assert type(canonical) is cls and len(canonical.subrules) == depth
        assert canonical.literals() == rule.literals()
        assert simplify(canonical) == canonical
        assert simplify(cls(rule, ~Literal(first))) == (One() if cls is Or else Zero())  # f and ~f meet
    assert calls[1] <= 3 * calls[0], calls


WIDE = np.random.default_rng(2).integers(0, 2, (6, 2 * NUM_FEATURES), dtype=np.uint8)


def alternating_chain(levels: int, first: int):
    """`And(Or(..., a), ~b)` `levels` times over the literals from `first` (a and b cycle through 29
    of them), and its truth on the rows of `WIDE`, computed level by level."""
    rule, truth = Literal(first), WIDE[:, first].astype(bool)
    for i in range(levels):
        a, b = first + 1 + i % (NUM_FEATURES - 1), first + 1 + (i + 7) % (NUM_FEATURES - 1)
        rule, truth = And(Or(rule, Literal(a)), ~Literal(b)), (truth | (WIDE[:, a] == 1)) & (WIDE[:, b] == 0)
    return rule, truth


def test_simplify_of_an_alternating_chain_is_linear():
    """And(Or(..., a), b): each level's negations rebuilt copies of the rule below, and comparing
    them walked it to its leaves (10,000 deep took about a minute; the work at 300 levels was 3.5
    times that at 150); canonical rules are now kept as one object per value, so a comparison stops
    at identical sub-rules, and twice the levels is twice the work."""
    calls = []
    for levels, first in ((150, 0), (300, NUM_FEATURES)):
        rule, truth = alternating_chain(levels, first)
        canonical, events = work(lambda: simplify(rule), 3 * calls[0] if calls else None)
        calls.append(events)
        np.testing.assert_array_equal(canonical.evaluate(WIDE), truth)
        assert simplify(canonical) == canonical
    assert calls[1] <= 3 * calls[0], calls
