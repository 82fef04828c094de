import random
import time

import numpy as np
import pytest

from boolrules.localsearch import RuleClassifier
from boolrules.localsearch.annealing import RuleScorer, anneal
from boolrules.localsearch import annealing, descent
from boolrules.localsearch.descent import descend, neighbours
from boolrules.localsearch.moves import LocalMoves, SearchSpace
from boolrules.localsearch.scan import INSERT, REPLACE, LiteralScan
from boolrules.rules import OPERATORS, And, AtLeast, AtMost, BitMatrix, Choose, Literal, Operator

from ..planted import planted
from .test_budget import MODULES, Clock
from .test_scan import noisy_data, random_rules

ALL = tuple(OPERATORS.values())
x = [Literal(j) for j in range(8)]


@pytest.mark.parametrize("metric, lam, max_depth", [("balanced_accuracy", 0.0, None), ("accuracy", 0.004, 2),
                                                     ("f1", 0.0, None)])
def test_descent_ends_at_a_local_optimum_of_every_local_move(metric, lam, max_depth):
    """No move LocalMoves can propose from the result (a thousand random proposals, covering its
    small neighbourhood of at most ~80 rules: 3000 found none more) and no literal replacement or
    insertion scores better; each step improved."""
    X, y = noisy_data(200, 5, seed=3)
    scorer = RuleScorer(BitMatrix(X), y, metric, lam)
    space = SearchSpace(5, ALL, max_complexity=7, max_depth=max_depth)
    scan = LiteralScan(scorer, space, random.Random(0))
    climbed = 0
    for start in random_rules(space, seed=int(lam * 1000), count=12):
        before = scorer.objective(start)[1]
        rule, score, objective, steps = descend(scorer, space, start, before)
        assert space.contains(rule)
        assert (score, objective) == pytest.approx(scorer.objective(rule), abs=1e-12)
        assert objective >= before and (steps > 0) == (objective > before)
        climbed += steps > 0
        moves = LocalMoves(space, random.Random(1))
        for proposed in {moves.propose(rule) for _ in range(1000)}:
            assert scorer.objective(proposed)[1] <= objective + 1e-12
        for path, node in rule.walk():
            for kind in [k for k, ok in ((REPLACE, path), (INSERT, isinstance(node, Operator))) if ok]:
                for j in range(10):
                    candidate = scan.candidate(rule, path, kind, j)
                    if space.contains(candidate):
                        assert scorer.objective(candidate)[1] <= objective + 1e-12
    assert climbed >= 6  # random rules are rarely local optima: the descent did climb


def test_neighbours_are_exactly_the_local_moves_not_scanned():
    """Every operator swap, removal and expansion LocalMoves proposes is among `neighbours`, and
    `neighbours` adds nothing a local move could not propose (literal swaps and additions aside)."""
    space = SearchSpace(5, ALL, max_complexity=8)
    for rule in random_rules(space, seed=5, count=10):
        found = {r for r in neighbours(rule, space) if space.contains(r)}
        moves = LocalMoves(space, random.Random(2))
        proposed = {moves.propose(rule) for _ in range(4000)}
        swaps = {r for r in proposed if r.literals() != rule.literals() and r.complexity == rule.complexity}
        assert proposed - swaps - _literal_insertions(rule, proposed) <= found
        assert found <= proposed, found - proposed


def _literal_insertions(rule, rules):
    return {r for r in rules if r.complexity == rule.complexity + 1 and len(r.literals()) == len(rule.literals()) + 1
            and r.depth == rule.depth}


def test_quench_finds_the_operator_swap_the_annealing_missed():
    """A planted And(Choose1, AtMost1, x) reached with AtLeast1 where Choose1 belongs is one swap away."""
    truth = And(Choose(1, x[0], x[1]), AtMost(1, x[2], ~x[3], x[4]), x[5])
    X, y = planted(truth, 600, 8, seed=4)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(8, ALL, max_complexity=10)
    missed = And(AtLeast(1, x[0], x[1]), AtMost(1, x[2], ~x[3], x[4]), x[5])
    rule, score, _, steps = descend(scorer, space, missed, scorer.objective(missed)[1])
    assert score == 1.0 > scorer.score(missed) and steps == 1
    assert (rule.evaluate(X) == truth.evaluate(X)).all()


def test_descent_stops_at_its_deadline(monkeypatch):
    """The deadline is read between steps: on a clock of one tick a reading, a deadline 2.5 ticks away
    allows two of the four steps to this start's local optimum, one already passed none."""
    X, y = noisy_data(200, 5, seed=3)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(5, ALL, max_complexity=7)
    start = next(random_rules(space, seed=9, count=1))
    objective = scorer.objective(start)[1]
    assert descend(scorer, space, start, objective)[3] == 4
    assert descend(scorer, space, start, objective, until=time.monotonic())[3] == 0
    clock = Clock()
    monkeypatch.setattr(descent, "time", clock)
    assert descend(scorer, space, start, objective, until=clock.now + 2.5 * clock.tick)[3] == 2


def test_starts_report_what_the_quench_added():
    X, y = noisy_data(300, 6, seed=1)
    scorer = RuleScorer(BitMatrix(X), y)
    space = SearchSpace(6, ALL, max_complexity=8)
    results = [anneal(scorer, space, num_iterations=60, temperatures=(0.2, 0.05), seed=s, quench=True)
               for s in range(8)]
    plain = [anneal(scorer, space, num_iterations=60, temperatures=(0.2, 0.05), seed=s) for s in range(8)]
    for quenched, annealed in zip(results, plain):
        assert quenched.annealed_objective == annealed.objective and annealed.annealed_objective is None
        assert quenched.objective >= annealed.objective
        assert (quenched.quench_steps > 0) == (quenched.objective > annealed.objective)
    assert any(r.quench_steps for r in results)  # hot, short starts end away from a local optimum


def test_classifier_quench_option():
    X, y = noisy_data(300, 6, seed=2)
    on = RuleClassifier(num_starts=3, num_iterations=80, random_state=0, binarizer=None).fit(X, y)
    off = RuleClassifier(num_starts=3, num_iterations=80, random_state=0, binarizer=None, quench=False).fit(X, y)
    assert all(s.annealed_objective is None and s.quench_steps == 0 for s in off.starts_)
    assert [s.annealed_objective for s in on.starts_] == [s.objective for s in off.starts_]
    assert on.best_objective_ >= off.best_objective_
    assert np.all([s.objective >= s.annealed_objective for s in on.starts_])


def test_quench_keeps_a_budgeted_fit_on_time(monkeypatch):
    """On a scripted clock, a budgeted fit whose starts quench ends within its budget: each start's
    schedule ends early enough to leave its quench time, and the quench is given the start's
    deadline (at which it stops: test_descent_stops_at_its_deadline)."""
    clock = Clock()
    for module in MODULES:
        monkeypatch.setattr(module, "time", clock)
    quenches = []

    def spied(scorer, space, rule, objective, until=None):
        quenches.append((clock.now, until))
        return descend(scorer, space, rule, objective, until)

    monkeypatch.setattr(annealing, "descend", spied)
    X, y = noisy_data(3000, 20, seed=0)
    began = clock.now
    clf = RuleClassifier(num_starts=2, num_iterations=None, time_budget=1.0, random_state=0, binarizer=None).fit(X, y)
    assert len(quenches) == 2
    assert all(until is not None and began < called < until <= began + 1.0 + 0.01 for called, until in quenches)
    assert clf.fit_seconds_ <= 1.0 + 0.01
