import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boolrules.localsearch.moves import LocalMoves, SearchSpace, random_rule
from boolrules.rules import OPERATORS, And, AtLeast, AtMost, Choose, Literal, Operator, Or, Zero

ALL = tuple(OPERATORS.values())


OUTSIDE = [  # one rule per invariant of the search space, each breaking only that one
    (Literal(0), "root"),
    (Or(*(Literal(j) for j in range(7))), "max_complexity"),
    (Or(Literal(0), And(Literal(1), Or(Literal(2), Literal(3)))), "max_depth"),
    (Or(Literal(0), Literal(12)), "beyond"),
    (Or(Literal(0), Zero()), "constant"),
    (Choose(1, Literal(0), Literal(1)), "allowed operators"),
    (And(Literal(0), Or(Literal(1))), "two sub-rules"),
    (AtLeast(2, Literal(0), Literal(1)), "1 <= k <= 1"),
    (AtMost(0, Literal(0), Literal(1)), "1 <= k <= 1"),
    (Or(Literal(0), ~Literal(0)), "one feature"),
]
SPACE = SearchSpace(12, (Or, And, AtLeast, AtMost), max_complexity=7, max_depth=2)


@pytest.mark.parametrize("rule, reason", OUTSIDE, ids=[reason for _, reason in OUTSIDE])
def test_search_space_names_what_a_rule_breaks(rule, reason):
    assert not SPACE.contains(rule)
    with pytest.raises(ValueError, match=re.escape(reason)):
        SPACE.validate(rule)


def test_search_space_contains_rules_at_its_limits():
    inside = [
        Or(Literal(0), Literal(11)),
        And(Or(Literal(1), ~Literal(2)), AtLeast(1, Literal(3), Literal(4))),  # depth 2, complexity 7
        AtLeast(1, Literal(0), ~Literal(1), Literal(2)),
        ~AtMost(2, Literal(0), Literal(1), Literal(2)),
        Or(Literal(0), And(Literal(0), Literal(1))),  # one feature in two operators
    ]
    for rule in inside:
        SPACE.validate(rule)
        assert SPACE.contains(rule)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    num_features=st.integers(2, 12),
    max_complexity=st.integers(3, 12),
    max_depth=st.one_of(st.none(), st.integers(1, 4)),
    operators=st.lists(st.sampled_from(ALL), min_size=1, unique=True),
)
def test_every_proposal_is_valid(seed, num_features, max_complexity, max_depth, operators):
    space = SearchSpace(num_features, tuple(operators), max_complexity, max_depth)
    rng = random.Random(seed)
    moves = LocalMoves(space, rng)
    rule = random_rule(space, rng)
    space.validate(rule)
    assert rule.depth == 1 and 2 <= len(rule.subrules) <= max_complexity - 1
    for _ in range(150):
        rule = moves.propose(rule)
        space.validate(rule)


def test_moves_change_the_rule_as_named():
    space = SearchSpace(10, ALL, 10)
    moves = LocalMoves(space, random.Random(0))
    rule = Or(Literal(0), Literal(1), ~Literal(2))
    removed = moves.remove_literal(rule, (1,), rule.subrules[1])
    assert removed == Or(Literal(0), ~Literal(2))
    assert moves.remove_literal(removed, (0,), removed.subrules[0]) is None  # would leave one child
    expanded = moves.expand_literal(rule, (0,), rule.subrules[0])
    assert expanded.complexity == rule.complexity + 1 and expanded.depth == 2
    assert moves.remove_operator(rule, (), rule) is None  # the root stays
    nested = expanded.walk()
    inner_path = next(path for path, node in nested if path and isinstance(node, Operator))
    flattened = moves.remove_operator(expanded, inner_path, expanded.subrules[inner_path[0]])
    assert flattened.depth == 1 and sorted(s.index for s in flattened.subrules) == [0, 1, 2]
    grown = None
    while grown is None:
        grown = moves.add_literal(rule, (), rule)
    assert grown.complexity == rule.complexity + 1
    swapped = None
    while swapped is None:
        swapped = moves.swap_operator(rule, (), rule)
    assert swapped.subrules == rule.subrules and (type(swapped), swapped.k) != (Or, None)


def test_moves_respect_max_complexity_and_depth():
    space = SearchSpace(10, ALL, 4, max_depth=1)
    moves = LocalMoves(space, random.Random(0))
    rule = Or(Literal(0), Literal(1), Literal(2))
    assert moves.add_literal(rule, (), rule) is None
    assert moves.expand_literal(rule, (0,), rule.subrules[0]) is None


def test_parameter_lowered_when_children_removed():
    space = SearchSpace(10, ALL, 10)
    moves = LocalMoves(space, random.Random(0))
    rule = OPERATORS["AtLeast"](2, Literal(0), Literal(1), Literal(2))
    assert moves.remove_literal(rule, (0,), rule.subrules[0]).k == 1


@pytest.mark.parametrize("seed", range(3))
def test_same_seed_same_walk(seed):
    space = SearchSpace(20, ALL, 8)

    def walk():
        rng = random.Random(seed)
        moves = LocalMoves(space, rng)
        rule = random_rule(space, rng)
        return [rule := moves.propose(rule) for _ in range(50)]

    assert walk() == walk()
