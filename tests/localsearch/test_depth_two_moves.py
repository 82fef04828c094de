"""Depth-two non-local moves: a node replaced by the best DNF/CNF subtree within its budget."""

import itertools
import random

import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.backends import Backend, Result, get_backend
from boolrules.localsearch import oracle as oracle_module
from boolrules.localsearch.classifier import AUTO_MOVES, oracle_operators
from boolrules.localsearch.moves import SearchSpace, random_rule
from boolrules.localsearch.oracle import DEPTH_TWO_SHARE, CallTimes, NonLocalOracle, depth_two_bounds
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import KEEP, OPERATORS, SHAPES, And, AtLeast, BitMatrix, Literal, Or, Shape

from ..errors import assert_raises_clearly
from ..fakes import Clock, Recording
from ..formulations.brute_force import best_depth_two_objective
from ..planted import planted

ALL = tuple(OPERATORS.values())
DNF_TRUTH = Or(And(Literal(0), Literal(1)), And(Literal(2), ~Literal(3)))
CNF_TRUTH = And(Or(Literal(0), Literal(1)), Or(~Literal(2), Literal(3)))


def make_oracle(X, y, max_complexity=7, max_depth=None, operators=ALL, seed=0, max_samples=1000):
    space = SearchSpace(X.shape[1], ALL, max_complexity, max_depth)
    return NonLocalOracle(
        BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend("highs"),
        operators=operators, max_samples=max_samples, time_limit=10.0, rng=random.Random(seed),
    )


@pytest.mark.parametrize("shape, truth", [("DNF", DNF_TRUTH), ("CNF", CNF_TRUTH)])
def test_one_call_at_the_root_finds_the_planted_rule(shape, truth):
    X, y = planted(truth, 300, 8)
    start = And(Literal(4), Literal(5))
    new = make_oracle(X, y).replace(start, (), SHAPES[shape])
    assert np.array_equal(new.evaluate(X), y.astype(bool))
    assert new.complexity <= 7


@pytest.mark.parametrize("shape", ["DNF", "CNF"])
@pytest.mark.parametrize("path", [(), (1,)])
def test_replacement_is_the_brute_force_best(shape, path):
    """The subtree put at the node is the best depth-two subtree within the node's budget on the
    subproblem's rows, their labels and original weights."""
    X, y = planted(Or(And(Literal(0), ~Literal(1)), Literal(2)), 60, 4, seed=3)
    y[:6] = 1 - y[:6]  # noise, so that the best subtree is not trivially exact
    rule = Or(Literal(3), And(Literal(1), Literal(2)))
    oracle = make_oracle(X, y, max_complexity=7)
    small = Shape(shape, *((Or, And) if shape == "DNF" else (And, Or)), max_literals_per_term=2)
    rows, labels = oracle.subproblem(rule, path)
    new = oracle.replace(rule, path, small)
    assert new is not None and oracle.space.contains(new)
    subtree = new
    for i in path:
        subtree = subtree.subrules[i]
    weights = balanced_sample_weight(y)[rows]
    target = rule
    for i in path:
        target = target.subrules[i]
    budget = 7 - (rule.complexity - target.complexity)
    bounds = depth_two_bounds(small, budget, None, not path, 4)
    expected = best_depth_two_objective(
        X[rows], labels, weights, shape, max_terms=bounds["max_terms"], max_lit=bounds["max_literals_per_term"],
        lam=0.0, negated=False, max_complexity=budget, min_terms=bounds["min_terms"],
    )
    assert float(weights @ (subtree.evaluate(X[rows]) != labels)) == pytest.approx(expected)


def test_bounds_follow_the_budget_and_the_depth():
    dnf = SHAPES["DNF"]
    assert depth_two_bounds(dnf, 2, None, False, 8) is None  # no room for two literals and an outer node
    assert depth_two_bounds(dnf, 9, 1, False, 8) is None  # one level left: no depth-two subtree
    assert depth_two_bounds(dnf, 7, 2, True, 8) == {
        "max_terms": 2, "max_literals_per_term": 4, "max_complexity": 7, "min_terms": 2}
    assert depth_two_bounds(dnf, 3, None, False, 8)["max_literals_per_term"] == 1
    assert depth_two_bounds(Shape("CNF", And, Or, 3, 2), 20, None, False, 8)["max_literals_per_term"] == 2


def test_no_call_when_the_depth_two_subtree_does_not_fit():
    X, y = planted(DNF_TRUTH, 100, 6)
    rule = And(Literal(4), Or(Literal(1), Literal(5)))
    oracle = make_oracle(X, y, max_complexity=7, max_depth=2)
    assert oracle.replace(rule, (1,), SHAPES["DNF"]) is None  # depth 1 + 2 > 2
    assert oracle.stats.nothing == 1 and oracle.stats.failed == 0


@pytest.mark.parametrize("seed", range(4))
def test_every_depth_two_move_is_valid(seed):
    rng = random.Random(seed)
    X, y = planted(DNF_TRUTH, 80, 6, seed=seed)
    max_complexity, max_depth = rng.choice([(7, None), (9, 3), (6, 2)])
    # 30 rows per subproblem: validity is about the budget; HiGHS took seconds on some depth-two subproblems of 80
    oracle = make_oracle(X, y, max_complexity, max_depth, operators=(SHAPES["DNF"], SHAPES["CNF"]), seed=seed,
                         max_samples=30)
    for _ in range(4):
        rule = random_rule(oracle.space, rng)
        new = oracle.propose(rule)
        assert new is None or oracle.space.contains(new)
    assert oracle.stats.proposed > 0


def test_classifier_recovers_a_planted_dnf_with_depth_two_moves():
    """400 clean rows x 8 features of Or(And(x0, x1), And(x2, ~x3)): with DNF moves on HiGHS the
    search finds a rule equal to the planted one on every input."""
    X, y = planted(DNF_TRUTH, 400, 8)
    inputs = np.array(list(itertools.product((0, 1), repeat=8)), dtype=np.uint8)
    for seed in (0, 1):
        clf = RuleClassifier(
            max_complexity=7, operators=["Or", "And"], num_starts=1, num_iterations=100, num_iterations_burn_in=0,
            nonlocal_backend="highs", nonlocal_operators=["DNF"], random_state=seed,
        ).fit(X, y)
        assert np.array_equal(clf.best_rule_.evaluate(inputs), DNF_TRUTH.evaluate(inputs)), clf.best_rule_
        assert clf.nonlocal_stats_.proposed > 0 and clf.nonlocal_stats_.failed == 0


def test_nonlocal_operators_take_shapes_and_name_bad_ones():
    X, y = planted(DNF_TRUTH, 50, 4)
    clf = RuleClassifier(nonlocal_operators=["Or", "CNF", Shape("DNF", Or, And, max_terms=3)])
    config = clf._search_config(4)
    assert config.nonlocal_operators == (Or, SHAPES["CNF"], Shape("DNF", Or, And, max_terms=3))
    bad = RuleClassifier(nonlocal_backend="highs", nonlocal_operators=["Or", "XOR"], num_iterations=5, num_starts=1)
    assert_raises_clearly(ValueError, lambda: bad.fit(X, y), "nonlocal_operators")
    assert_raises_clearly(ValueError, lambda: Shape("ANF", Or, Or), "Or of Ands")


def test_a_depth_one_backend_refuses_shapes_before_any_work():
    """A backend without the depth_two capability: a fit asking it for DNF moves stops at once, naming both."""
    X, y = planted(DNF_TRUTH, 50, 4)
    clf = RuleClassifier(nonlocal_backend=Recording(), nonlocal_operators=["Or", "DNF"], num_iterations=5,
                         num_starts=1)
    assert_raises_clearly(ValueError, lambda: clf.fit(X, y), "recording", "DNF")
    clf.set_params(nonlocal_operators=["Or", "And"]).fit(X, y)


def test_auto_adds_three_term_shapes_on_native_only():
    """nonlocal_operators="auto" (the default): every operator, and DNF/CNF of up to three terms and the
    keep move where they were measured to pay (native, "random" policy); a depth-one backend gets no
    shape and fits."""
    X, y = planted(DNF_TRUTH, 50, 4)
    assert RuleClassifier().nonlocal_operators == "auto"
    assert oracle_operators("auto", get_backend("native"), "random") == (*ALL, *AUTO_MOVES)
    shapes = [move for move in AUTO_MOVES if isinstance(move, Shape)]
    assert {shape.max_terms for shape in shapes} == {3} and {str(s) for s in shapes} == {"DNF", "CNF"}
    assert KEEP in AUTO_MOVES
    assert oracle_operators("auto", get_backend("native"), "gain") == ALL
    assert oracle_operators("auto", get_backend("highs"), "random") == ALL
    assert oracle_operators((Or,), get_backend("native"), "random") == (Or,)
    # "auto" follows the search's operators: a move building any other would be refused by the space
    assert oracle_operators("auto", get_backend("native"), "random", (Or, And)) == (Or, And, *AUTO_MOVES)
    assert oracle_operators("auto", get_backend("native"), "random", (Or, AtLeast)) == (Or, AtLeast, KEEP)
    assert oracle_operators("auto", get_backend("native"), "random", ("AtLeast",)) == (AtLeast,)
    recording = Recording()
    RuleClassifier(nonlocal_backend=recording, num_iterations=30, num_starts=1, num_iterations_burn_in=0,
                   random_state=0).fit(X, y)
    assert recording.calls and not any(hasattr(problem, "shape") for problem, _ in recording.calls)
    native, shapes = get_backend("native"), []
    solve = native.solve
    native.solve = lambda problem, **options: (shapes.append(getattr(problem, "shape", None)), solve(problem, **options))[1]
    clf = RuleClassifier(nonlocal_backend=native, num_iterations=200, num_starts=1, num_iterations_burn_in=0,
                         max_complexity=7, random_state=0).fit(X, y)
    assert clf.nonlocal_stats_.failed == 0 and None in shapes and set(shapes) - {None} and set(shapes) <= {None, *AUTO_MOVES}


class Scripted(Backend):
    """A depth-two backend that answers each call with the next of `statuses` (a literal, no move),
    logging each call's (operator or shape name, time limit)."""

    name = "scripted"
    capabilities = frozenset({"time_limit", "depth_two"})

    def __init__(self, statuses):
        self.statuses, self.calls = list(statuses), []

    def solve(self, problem, **options):
        kind = problem.shape.name if hasattr(problem, "shape") else problem.operator
        self.calls.append((kind, options["time_limit"]))
        return Result(Literal(0), 0.0, self.statuses.pop(0), 0.0, self.name)


def escalating_oracle(X, y, backend, call_times, operators=(SHAPES["DNF"],), cap=0.05):
    return NonLocalOracle(
        BitMatrix(X), X, y, balanced_sample_weight(y), SearchSpace(X.shape[1], ALL, 7), backend,
        operators=operators, max_samples=50, time_limit=0.01, max_time_limit=cap, rng=random.Random(0),
        call_times=call_times,
    )


def test_a_shape_earns_twice_its_limit_when_stopped_unproven_up_to_the_cap():
    """With max_time_limit, a shape whose call stops at its limit without a proof gets twice the
    limit next time, up to the cap; one that ends early halves it, never below time_limit. The
    starts on one process (one CallTimes) share what a shape earned; depth-one calls keep time_limit."""
    X, y = planted(DNF_TRUTH, 80, 6)
    start = And(Literal(4), Literal(5))
    statuses = ["time_limit"] * 4 + ["optimal", "feasible", "optimal", "optimal"]
    backend, shared = Scripted(statuses + ["time_limit"] * 4), CallTimes()
    first = escalating_oracle(X, y, backend, shared)
    for _ in statuses:
        first.replace(start, (), SHAPES["DNF"])
    assert [limit for _, limit in backend.calls] == pytest.approx([0.01, 0.02, 0.04, 0.05, 0.05, 0.025, 0.0125, 0.01])
    second = escalating_oracle(X, y, backend, shared, operators=(SHAPES["DNF"], Or))
    second.replace(start, (), SHAPES["DNF"])
    second.replace(start, (), SHAPES["DNF"])
    second.replace(start, (1,), Or)
    second.replace(start, (1,), Or)
    assert backend.calls[-4:] == [("DNF", pytest.approx(0.01)), ("DNF", pytest.approx(0.02)),
                                  ("Or", 0.01), ("Or", 0.01)]


def test_without_a_cap_every_call_keeps_its_limit():
    X, y = planted(DNF_TRUTH, 80, 6)
    backend = Scripted(["time_limit"] * 3)
    oracle = escalating_oracle(X, y, backend, CallTimes(), cap=None)
    for _ in range(3):
        oracle.replace(And(Literal(4), Literal(5)), (), SHAPES["DNF"])
    assert [limit for _, limit in backend.calls] == [0.01] * 3


def test_the_random_policy_makes_depth_two_moves_at_the_root():
    """Shapes are tried at the root (the whole rule's budget: room for three terms), operators at a
    uniform node."""
    X, y = planted(DNF_TRUTH, 80, 6)
    oracle = escalating_oracle(X, y, Scripted([]), CallTimes(), operators=(SHAPES["DNF"], SHAPES["CNF"], Or))
    drawn = []
    oracle.replace = lambda rule, path, operator, memo=None, time_limit=None: drawn.append((path, operator))
    rule = And(Or(Literal(0), Literal(1)), Or(~Literal(2), Literal(3)))
    for _ in range(300):
        oracle.propose(rule)
    assert {path for path, op in drawn if isinstance(op, Shape)} == {()}
    assert len({path for path, op in drawn if op is Or}) == len(rule.walk())


class Answering(Scripted):
    """Answers every call with `rule` and `status`, logging as `Scripted`."""

    def __init__(self, rule, status="optimal"):
        super().__init__([])
        self.rule, self.status = rule, status

    def solve(self, problem, **options):
        self.statuses.append(self.status)
        super().solve(problem, **options)
        return Result(self.rule, 0.0, self.status, 0.0, self.name)


def shape_share(oracle, rule, proposals=400):
    """Share of `proposals` draws of the random policy that were depth-two moves."""
    drawn = []
    oracle.replace = lambda rule, path, operator, memo=None, time_limit=None: drawn.append(operator)
    for _ in range(proposals):
        oracle.propose(rule)
    return sum(isinstance(op, Shape) for op in drawn) / len(drawn)


def test_shapes_are_drawn_while_they_lower_the_error_and_within_their_time_share():
    """The random policy makes a drawn depth-two move by Thompson sampling on the record of its
    shape (calls that lowered the error, and not), and none once depth-two solves have taken more
    than DEPTH_TWO_SHARE of the oracle's seconds; operators stand in for the moves not made."""
    X, y = planted(DNF_TRUTH, 80, 6)
    rule = And(Or(Literal(0), Literal(1)), Or(~Literal(2), Literal(3)))

    def oracle_with(record=None, depth_two=0.0, seconds=0.0):
        times = CallTimes(seconds=seconds, depth_two=depth_two, record=record or {})
        return escalating_oracle(X, y, Scripted([]), times, operators=(SHAPES["DNF"], Or))

    assert shape_share(oracle_with(), rule) == pytest.approx(0.5 * 0.5, abs=0.08)  # no record yet: kept half the time
    assert shape_share(oracle_with({SHAPES["DNF"]: (40, 0)}), rule) > 0.45
    assert shape_share(oracle_with({SHAPES["DNF"]: (0, 40)}), rule) < 0.05
    assert shape_share(oracle_with(depth_two=DEPTH_TWO_SHARE + 0.01, seconds=1.0), rule) == 0
    assert shape_share(oracle_with(depth_two=DEPTH_TWO_SHARE - 0.01, seconds=1.0), rule) > 0.1


def test_a_shapes_record_counts_whether_its_moves_lowered_the_error():
    """A win when the move lowered the error, a loss when not; no verdict on a call stopped at its
    limit before the limit could grow to the cap."""
    X, y = planted(DNF_TRUTH, 80, 6)
    start, same = And(Literal(4), Literal(5)), Or(And(Literal(4), Literal(5)), And(Literal(5), Literal(4)))
    for answer, status, earned, record in [(DNF_TRUTH, "optimal", 0.0, (1, 0)), (same, "optimal", 0.0, (0, 1)),
                                           (DNF_TRUTH, "time_limit", 0.0, (1, 0)), (same, "time_limit", 0.0, None),
                                           (same, "time_limit", 0.05, (0, 1))]:
        times = CallTimes(limits={SHAPES["DNF"]: earned})
        escalating_oracle(X, y, Answering(answer, status), times).propose(start)
        assert times.record.get(SHAPES["DNF"]) == record


def test_depth_two_solves_count_their_seconds(monkeypatch):
    """CallTimes.depth_two sums the seconds of the depth-two solves (on the oracle's clock), not the
    depth-one ones: what DEPTH_TWO_SHARE holds to its share."""
    clock = Clock(tick=0.0)
    monkeypatch.setattr(oracle_module, "time", clock)

    class Slow(Scripted):
        def solve(self, problem, **options):
            clock.advance(0.5 if hasattr(problem, "shape") else 0.25)
            return super().solve(problem, **options)

    X, y = planted(DNF_TRUTH, 80, 6)
    times = CallTimes()
    oracle = escalating_oracle(X, y, Slow(["optimal"] * 3), times, operators=(SHAPES["DNF"], Or))
    start = And(Literal(4), Literal(5))
    for path, operator in [((), SHAPES["DNF"]), ((1,), Or), ((), SHAPES["DNF"])]:
        oracle.replace(start, path, operator)
    assert times.depth_two == pytest.approx(1.0)
