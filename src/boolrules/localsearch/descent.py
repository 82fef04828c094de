"""Steepest ascent from a start's best rule: the annealing's quench.

A start keeps the best rule it visited, and that rule need not be a local optimum: it may have been
seen while the search was hot and left for good (a planted `And(Choose1(x5, x6), ...)` missed with
`AtLeast1(x5, x6)` in its place, one operator swap away; benchmarks/README.md, "Quench"). `descend`
scores the rule's whole local neighbourhood, the six local moves at every node and every choice
they make, and every subtree replaced by a literal (literal replacements and insertions in one
vectorised pass per node, `scan.LiteralScan`), moves to the best improvement and repeats until
there is none.
"""

from __future__ import annotations

import time

import numpy as np

from ..rules import Literal, Operator, Rule
from ..rules.operators import make_operator
from .moves import LocalMoves, SearchSpace, _with_subrules, node_at, replace_at
from .scan import LiteralScan

__all__ = ["descend", "neighbours"]


def _operators(space: SearchSpace, subrules, negated: bool) -> list[Operator]:
    """Every allowed operator over `subrules` with every parameter `1 <= k <= d - 1`."""
    d = len(subrules)
    return [make_operator(cls, subrules, k, negated) for cls in space.operators
            for k in (range(1, d) if cls.parameterized else (None,))]


def neighbours(rule: Rule, space: SearchSpace):
    """The rules one local move from `rule` that `scan.LiteralScan` does not score: operator swaps
    (every operator and k), removals of a literal or an operator, and every pair of literal siblings
    expanded into every operator (some may be outside the search space; `descend` drops those)."""
    moves = LocalMoves(space, rng=None)  # its removals draw nothing
    for path, node in rule.walk():
        if isinstance(node, Operator):
            yield from (replace_at(rule, path, new) for new in _operators(space, node.subrules, node.negated) if new != node)
            removed = moves.remove_operator(rule, path, node)
        else:
            removed = moves.remove_literal(rule, path, node)
            yield from _expansions(rule, path, node, space)
        if removed is not None:
            yield removed


def _expansions(rule: Rule, path: tuple, literal: Literal, space: SearchSpace):
    """`expand_literal`'s every choice: the literal and one literal sibling under every operator, in its place."""
    parent = node_at(rule, path[:-1])
    if (len(parent.subrules) < 3 or rule.complexity >= space.max_complexity
            or (space.max_depth is not None and len(path) + 1 > space.max_depth)):
        return
    i = path[-1]
    for j, sibling in enumerate(parent.subrules):
        if j == i or type(sibling) is not Literal or sibling.index == literal.index:
            continue
        for new in _operators(space, (literal, sibling), False):
            subs = [new if t == i else sub for t, sub in enumerate(parent.subrules) if t != j]
            yield replace_at(rule, path[:-1], _with_subrules(parent, subs))


def descend(scorer, space: SearchSpace, rule: Rule, objective: float, until: float | None = None,
            ) -> tuple[Rule, float, float, int]:
    """`(rule, score, objective, steps)` after steepest ascent from `rule` (of `objective`) over the
    local neighbourhood, stopping at a local optimum or at `until` (a `time.monotonic()` value, checked
    between steps)."""
    scan = LiteralScan(scorer, space, rng=None)
    score = scorer.score(rule)
    steps = 0
    while until is None or time.monotonic() < until:
        best, best_objective = None, objective
        for path, _ in rule.walk():
            objectives, valid = scan.scan(rule, path)
            objectives = np.where(valid, objectives, -np.inf)
            kind, j = np.unravel_index(int(np.argmax(objectives)), objectives.shape)
            if objectives[kind, j] > best_objective:
                best, best_objective = scan.candidate(rule, path, int(kind), int(j)), float(objectives[kind, j])
        for candidate in neighbours(rule, space):
            candidate_objective = scorer.objective(candidate)[1]
            if candidate_objective > best_objective and space.contains(candidate):
                best, best_objective = candidate, candidate_objective
        if best is None:
            break
        rule, objective, score, steps = best, best_objective, scorer.score(best), steps + 1
    return rule, score, objective, steps
