import random

import numpy as np
import pytest

from boolrules.localsearch.annealing import RuleScorer, anneal
from boolrules.localsearch.moves import LocalMoves, SearchSpace, random_rule
from boolrules.localsearch.scan import INSERT, REPLACE, LiteralScan
from boolrules.rules import OPERATORS, AtLeast, BitMatrix, Literal, Operator, Or

from ..planted import planted

ALL = tuple(OPERATORS.values())


def noisy_data(n, m, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = (X[:, 0] & X[:, 1] | X[:, 2]) ^ (rng.random(n) < 0.2)
    return X, y.astype(np.uint8)


def random_rules(space, seed, count, steps=30):
    """Rules of the search space reached by random walks of local moves (nested ones too)."""
    rng = random.Random(seed)
    moves = LocalMoves(space, rng)
    for _ in range(count):
        rule = random_rule(space, rng)
        for _ in range(rng.randrange(steps)):
            rule = moves.propose(rule)
        yield rule


@pytest.mark.parametrize("metric, lam, sliced", [
    ("balanced_accuracy", 0.0, 64), ("balanced_accuracy", 0.01, 1), ("accuracy", 0.003, 64), ("f1", 0.0, 1),
])
def test_scan_equals_scoring_each_candidate_and_marks_exactly_the_valid_ones(metric, lam, sliced):
    X, y = noisy_data(150, 6, seed=len(metric))  # 150 rows: a partly filled last word
    scorer = RuleScorer(BitMatrix(X, sliced_count_min_words=sliced), y, metric, lam)
    space = SearchSpace(6, ALL, max_complexity=8)
    scan = LiteralScan(scorer, space, random.Random(0))
    checked = 0
    for rule in random_rules(space, seed=lam > 0, count=25):
        for path, node in rule.walk():
            objectives, valid = scan.scan(rule, path)
            kinds = ([REPLACE] if path else []) + ([INSERT] if isinstance(node, Operator) else [])
            assert not valid[[k for k in (REPLACE, INSERT) if k not in kinds]].any()
            for kind in kinds:
                for j in range(12):
                    candidate = scan.candidate(rule, path, kind, j)
                    assert valid[kind, j] == (space.contains(candidate) and candidate != rule), (rule, path, kind, j)
                    if np.isfinite(objectives[kind, j]):
                        assert objectives[kind, j] == pytest.approx(scorer.objective(candidate)[1], abs=1e-12)
                        checked += 1
                    else:
                        assert kind == INSERT and candidate.complexity > space.max_complexity
    assert checked > 1000


def test_proposals_are_always_valid_and_new():
    X, y = noisy_data(300, 8, seed=1)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(8, ALL, max_complexity=7, max_depth=2)
    proposals = 0
    for seed in range(3):
        scan = LiteralScan(scorer, space, random.Random(seed))
        for rule, temperature in zip(random_rules(space, seed=seed, count=200), np.geomspace(1, 1e-6, 200)):
            proposed = scan.propose(rule, temperature)
            if proposed is None:  # only the root of a full rule takes no literal
                assert rule.complexity == space.max_complexity
                continue
            assert space.contains(proposed) and proposed != rule
            proposals += 1
    assert proposals > 400


def test_cold_proposal_is_the_best_candidate_at_its_node():
    X, y = noisy_data(300, 8, seed=4)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(8, ALL, max_complexity=9)
    for seed, rule in enumerate(random_rules(space, seed=5, count=40)):
        scan = LiteralScan(scorer, space, random.Random(seed))
        path, _ = rule.walk()[random.Random(seed).randrange(len(rule.walk()))]  # the node propose picks
        objectives, valid = scan.scan(rule, path)
        proposed = scan.propose(rule, 1e-9)
        assert scorer.objective(proposed)[1] == pytest.approx(objectives[valid].max(), abs=1e-12)


def test_hot_proposals_spread_over_the_candidates():
    X, y = noisy_data(300, 8, seed=6)
    scorer = RuleScorer(BitMatrix(X), y)
    scan = LiteralScan(scorer, SearchSpace(8, ALL, max_complexity=5), random.Random(0))
    rule = Or(Literal(0), Literal(1))
    drawn = {scan.propose(rule, 10.0) for _ in range(300)}
    assert len(drawn) > 25  # of 4 + 14 + 14 = 32 valid candidates, nearly uniform at this temperature


def test_anneal_with_scan_moves_recovers_a_planted_rule():
    rule = AtLeast(2, Literal(1), ~Literal(4), Literal(7))
    X, y = planted(rule, 400, 12)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(12, ALL, 5)
    results = [
        anneal(scorer, space, num_iterations=400, temperatures=(0.2, 1e-4), seed=s, scan_rate=0.3)
        for s in range(3)
    ]
    assert max(r.score for r in results) == 1.0
