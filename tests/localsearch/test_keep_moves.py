"""The keep move: a node replaced by And(C, N) or Or(C, N), C kept from the node, N solved by the oracle."""

import random

import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.backends import get_backend
from boolrules.localsearch.moves import SearchSpace, random_rule
from boolrules.localsearch.oracle import NonLocalOracle
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import (KEEP, OPERATORS, And, AtLeast, AtMost, BitMatrix, Choose, Keep, Literal, Or,
                             resolve_nonlocal_operators)

from ..planted import planted

ALL = tuple(OPERATORS.values())
x = [Literal(j) for j in range(12)]
# The generator's nested rule (benchmarks/bench_planted.py) and where searches stalled without the move:
# AtLeast3(C, a, b, c) = (C and AtLeast2(a, b, c)) or (a and b and c), one term too many.
NESTED = And(Choose(1, x[5], x[6]), AtMost(1, x[7], ~x[8], x[9]), x[10])
STALLED = And(x[10], AtLeast(3, Choose(1, x[6], x[5]), ~x[7], x[8], ~x[9]))
# ... and another: the root misses f10 and not C and AtMost1(f7, ~f8, f9); And(~D, AtMost1(...)) is the planted rule.
STALLED_AT_ROOT = AtMost(1, x[7], ~x[10], AtMost(1, Choose(1, x[6], x[5]), x[10]), x[9], ~x[8])


def make_oracle(X, y, max_complexity=10, seed=0, max_samples=1000):
    space = SearchSpace(X.shape[1], ALL, max_complexity)
    return NonLocalOracle(BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend("native"),
                          operators=(*ALL, KEEP), max_samples=max_samples, time_limit=10.0, rng=random.Random(seed))


def error(rule, X, y):
    return float(balanced_sample_weight(y) @ (rule.evaluate(X) != y))


def test_keep_is_named_in_nonlocal_operators():
    assert resolve_nonlocal_operators(["Or", "keep"]) == (Or, KEEP)
    assert resolve_nonlocal_operators(Keep()) == (KEEP,)
    with pytest.raises(ValueError, match="'keep'"):
        resolve_nonlocal_operators(["kept"])


@pytest.mark.parametrize("operator", [AtLeast, AtMost])
def test_keep_restructures_a_threshold_node_in_one_move(operator):
    """From the stalled rule, keeping the Choose child under an And and solving its partner gives
    the planted rule, merged into the root And (complexity 9, within the budget of 10)."""
    X, y = planted(NESTED, 400, 12)
    oracle = make_oracle(X, y)
    assert error(STALLED, X, y) > 0
    new = oracle.partner(STALLED, (1,), STALLED.subrules[1].subrules[0], And, operator)
    assert error(new, X, y) == 0 and new.complexity == 9
    assert type(new) is And and len(new.subrules) == 3  # merged: no And inside the root And
    at_root = oracle.partner(STALLED_AT_ROOT, (), ~STALLED_AT_ROOT.subrules[2], And, operator)
    assert error(STALLED_AT_ROOT, X, y) > 0 and error(at_root, X, y) == 0 and at_root.complexity <= 10


@pytest.mark.parametrize("path", [(1,), (1, 2)])
def test_keep_draws_its_kept_sub_rule_and_operators_at_random(path):
    """Over many draws every kind of move appears: the operator at `path` (a literal's parent) and the
    operators below it kept, never a literal, either way round, under both outer operators, with
    every depth-one operator of the oracle for the partner."""
    X, y = planted(NESTED, 100, 12)
    oracle = make_oracle(X, y)
    drawn = []
    oracle.partner = lambda rule, at, kept, outer, operator, *rest: drawn.append((at, kept, outer, operator))
    for _ in range(400):
        oracle.keep(STALLED, path)
    node = STALLED.subrules[1]
    assert {at for at, *_ in drawn} == {(1,)}
    assert {kept for _, kept, _, _ in drawn} == {s for c in (node, node.subrules[0]) for s in (c, ~c)}
    assert {outer for _, _, outer, _ in drawn} == {And, Or}
    assert {op for *_, op in drawn} == set(ALL)


@pytest.mark.parametrize("seed", range(4))
def test_every_keep_move_is_valid_and_merged(seed):
    rng = random.Random(seed)
    X, y = planted(NESTED, 200, 12, seed=seed)
    y[:10] ^= 1
    oracle = make_oracle(X, y, max_complexity=rng.choice([8, 11]), seed=seed, max_samples=60)
    for _ in range(20):
        rule = random_rule(oracle.space, rng)
        path, _ = rng.choice(rule.walk())
        new = oracle.keep(rule, path)
        if new is None:
            continue
        assert oracle.space.contains(new)
        for sub_path, node in new.walk():  # merged where the space allows it
            if sub_path and type(node) in (And, Or) and not node.negated:
                parent = new
                for i in sub_path[:-1]:
                    parent = parent.subrules[i]
                assert type(parent) is not type(node) or oracle._merged(new, sub_path) == new  # could not merge
    assert oracle.stats.proposed > 0


def test_no_keep_move_deeper_than_max_depth():
    X, y = planted(NESTED, 100, 12)
    space = SearchSpace(12, ALL, 10, max_depth=2)
    oracle = NonLocalOracle(BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend("native"),
                            operators=(*ALL, KEEP), max_samples=100, time_limit=1.0, rng=random.Random(0))
    assert oracle.partner(STALLED, (1,), STALLED.subrules[1].subrules[0], And, AtLeast) is None  # C at depth 3
    assert oracle.stats.nothing == 1 and oracle.stats.calls == 0
    new = oracle.partner(STALLED, (), STALLED.subrules[1], And, Or)  # AtLeast3(C, ...) kept at the root: depth 3
    assert new is None
    new = oracle.partner(And(x[10], AtLeast(2, ~x[7], x[8], ~x[9])), (), AtLeast(2, ~x[7], x[8], ~x[9]), And, Choose)
    assert new is not None and space.contains(new) and oracle.stats.failed == 0


def test_merging_keeps_literals_of_one_feature_apart():
    X, y = planted(NESTED, 50, 12)
    oracle = make_oracle(X, y)
    assert oracle._merged(And(x[0], And(x[1], x[2])), (1,)) == And(x[0], x[1], x[2])
    assert oracle._merged(And(x[0], And(~x[0], x[2])), (1,)) == And(x[0], And(~x[0], x[2]))
    assert oracle._merged(And(x[0], Or(x[1], x[2])), (1,)) == And(x[0], Or(x[1], x[2]))
    assert oracle._merged(Or(x[0], ~And(x[1], x[2])), (1,)) == Or(x[0], ~And(x[1], x[2]))


def test_no_keep_move_without_a_depth_one_operator():
    X, y = planted(NESTED, 50, 12)
    space = SearchSpace(12, ALL, 10)
    oracle = NonLocalOracle(BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend("native"),
                            operators=(KEEP,), max_samples=100, time_limit=1.0, rng=random.Random(0))
    assert oracle.propose(STALLED) is None and oracle.stats.nothing == 1


@pytest.mark.parametrize("policy", ["random", "gain", "sweep"])
def test_classifier_takes_keep_moves_under_every_policy(policy, monkeypatch):
    kept, keep = [], NonLocalOracle.keep
    monkeypatch.setattr(NonLocalOracle, "keep", lambda self, *args: (kept.append(args[1]), keep(self, *args))[1])
    X, y = planted(NESTED, 300, 12)
    clf = RuleClassifier(max_complexity=10, num_starts=1, num_iterations=60, num_iterations_burn_in=0, max_samples=60,
                         nonlocal_backend="native", nonlocal_operators=[*ALL, "keep"], nonlocal_policy=policy,
                         random_state=0).fit(X, y)
    assert kept and clf.nonlocal_stats_.proposed > 0 and clf.nonlocal_stats_.failed == 0


def test_keep_builds_only_operators_of_the_search_space():
    X, y = planted(NESTED, 100, 12)
    space = SearchSpace(12, (And, AtLeast, AtMost, Choose), 10)
    oracle = NonLocalOracle(BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend("native"),
                            operators=(AtLeast, KEEP), max_samples=100, time_limit=1.0, rng=random.Random(0))
    drawn = []
    oracle.partner = lambda rule, at, kept, outer, operator, *rest: drawn.append(outer)
    for _ in range(50):
        oracle.keep(STALLED, (1,))
    assert set(drawn) == {And}
    oracle.space = SearchSpace(12, (AtLeast,), 10)
    assert oracle.keep(STALLED, (1,)) is None and oracle.stats.nothing == 1
