"""nonlocal_time_share="auto": the oracle's time share follows what its calls pay against local
iterations. No timed assertions: the modules under test read a scripted clock (`Clock`)."""

import random

import pytest

from boolrules import RuleClassifier
from boolrules.backends import Backend, Result
from boolrules.localsearch import annealing, classifier, oracle
from boolrules.localsearch.annealing import RuleScorer, anneal
from boolrules.localsearch.moves import SearchSpace
from boolrules.localsearch.oracle import CallTimes, NonLocalOracle, OracleStats
from boolrules.localsearch.payoff import AUTO_SHARE, PRIOR_CALLS, Payoff
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import OPERATORS, And, AtLeast, BitMatrix, Literal, Zero

from ..errors import assert_raises_clearly
from ..fakes import Clock
from ..planted import planted as planted_data

ALL = tuple(OPERATORS.values())
TRUTH = AtLeast(2, Literal(0), ~Literal(3), Literal(5))


@pytest.fixture(scope="module")
def planted():
    return planted_data(TRUTH, 300, 10)


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    for module in (annealing, classifier, oracle):
        monkeypatch.setattr(module, "time", clock)
    return clock


# The share


def test_without_evidence_the_share_is_the_base():
    assert Payoff().share(0.01) == AUTO_SHARE
    assert Payoff(oracle_seconds=1.0, local_seconds=1.0).share(0.01) == AUTO_SHARE  # local moves raised nothing


def test_calls_that_pay_as_well_as_local_moves_keep_the_base_share():
    local = dict(local_gain=0.1, local_seconds=1.0)
    assert Payoff(oracle_gain=0.1, oracle_seconds=1.0, **local).share(0.01) == AUTO_SHARE
    assert Payoff(oracle_gain=0.5, oracle_seconds=1.0, **local).share(0.01) == AUTO_SHARE  # never above it


def test_fruitless_calls_shrink_the_share_toward_zero_by_the_prior():
    """Calls that raised nothing: the share falls as their seconds outweigh the prior's
    PRIOR_CALLS mean calls, 1/2 of the base after as many, never 0 at once."""
    local = dict(local_gain=0.1, local_seconds=1.0)
    mean = 0.01
    shares = [Payoff(oracle_seconds=calls * mean, **local).share(mean) for calls in (1, PRIOR_CALLS, 100)]
    assert shares[0] < AUTO_SHARE and shares[0] > 0.8 * AUTO_SHARE
    assert shares[1] == pytest.approx(AUTO_SHARE / 2)
    assert shares[2] < 0.05 * AUTO_SHARE


def test_the_running_start_counts_with_the_earlier_ones():
    earlier = Payoff(local_gain=0.1, local_seconds=1.0)
    running = Payoff(oracle_seconds=1.0)
    assert earlier.share(0.01, running) < 0.1 * AUTO_SHARE
    earlier.add(Payoff(oracle_gain=1.0, oracle_seconds=1.0))
    assert earlier.share(0.01, running) == AUTO_SHARE  # 1.0 in 2 s of calls against 0.1 in 1 s of local moves


# In a start


class Slow(Backend):
    """Every solve takes `seconds` on `clock` and answers `rule` (`Zero()`: nothing to splice)."""

    name = "slow"
    capabilities = frozenset({"time_limit"})

    def __init__(self, clock, seconds, rule):
        self.clock, self.seconds, self.rule, self.calls = clock, seconds, rule, 0

    def solve(self, problem, **options):
        self.calls += 1
        self.clock.sleep(self.seconds)
        return Result(self.rule, 0.0, "optimal", self.seconds, self.name)


def start(X, y, backend, share, clock):
    """One start of 2 s on the clock, the oracle allowed from the first iteration."""
    space = SearchSpace(X.shape[1], ALL, 8)

    def factory(rng):
        return NonLocalOracle(BitMatrix(X), X, y, balanced_sample_weight(y), space, backend, operators=ALL,
                              max_samples=50, time_limit=1.0, rng=rng, until=clock.now + 2.0)

    return anneal(RuleScorer(BitMatrix(X), y), space, num_iterations=None, temperatures=(0.2, 1e-6), seed=0,
                  oracle_factory=factory, patience=0, until=clock.now + 2.0, oracle_share=share)


def test_auto_stops_spending_on_calls_that_never_pay(planted, clock):
    """An oracle whose every call answers nothing, while local moves raise the best: with "auto" it
    gets a small part of the seconds the fixed share gives it."""
    X, y = planted
    fixed = start(X, y, Slow(clock, 0.01, Zero()), AUTO_SHARE, clock)
    auto = start(X, y, Slow(clock, 0.01, Zero()), "auto", clock)
    assert fixed.oracle.seconds > 0.8 * AUTO_SHARE * fixed.seconds
    assert 0 < auto.oracle.seconds < 0.5 * fixed.oracle.seconds


def test_auto_keeps_calling_when_calls_pay(planted, clock):
    """An oracle that answers the planted rule (the best there is): its gain earns the base share,
    and it spends about what the fixed share gives it."""
    X, y = planted
    fixed = start(X, y, Slow(clock, 0.01, TRUTH), AUTO_SHARE, clock)
    auto = start(X, y, Slow(clock, 0.01, TRUTH), "auto", clock)
    assert auto.objective == fixed.objective == 1.0
    assert auto.oracle.seconds > 0.8 * fixed.oracle.seconds > 0


class Scripted:
    """An oracle that proposes `answers` one call after another, then nothing."""

    def __init__(self, answers):
        self.answers, self.call_times, self.payoff, self.stats = list(answers), CallTimes(), Payoff(), OracleStats()

    def propose(self, rule, memo=None, time_limit=None):
        return self.answers.pop(0) if self.answers else None


def test_the_local_climb_from_an_oracle_move_counts_to_the_oracle(planted, clock):
    """A move to a rule one literal off the planted one: the new bests the local moves climb to from
    it, until the next call, count to the oracle as well as its own raise; the rest to local moves."""
    X, y = planted
    near = AtLeast(2, Literal(0), ~Literal(3), Literal(6))
    scripted = Scripted([near])
    result = anneal(RuleScorer(BitMatrix(X), y), SearchSpace(X.shape[1], ALL, 8), num_iterations=400,
                    temperatures=(1e-3, 1e-6), seed=4, oracle_factory=lambda rng: scripted, patience=20,
                    record=True, initial=And(Literal(8), Literal(9)), until=clock.now + 3600, oracle_share=1.0)
    best = result.trajectory.best_objective
    (move,) = result.trajectory.nonlocal_moves
    paid = scripted.payoff
    assert paid.oracle_gain > best[move] - best[move - 1] > 0
    assert paid.oracle_gain + paid.local_gain == pytest.approx(best[-1] - RuleScorer(BitMatrix(X), y).objective(
        And(Literal(8), Literal(9)))[1])


def test_the_classifier_takes_auto_and_refuses_other_words(planted, clock):
    X, y = planted
    clf = RuleClassifier(num_starts=2, num_iterations=None, time_budget=1.0, random_state=0, patience=2,
                         nonlocal_backend=Slow(clock, 0.01, Zero()), nonlocal_time_share="auto", max_samples=30)
    assert clf.fit(X, y).nonlocal_stats_.calls > 0
    assert_raises_clearly(ValueError, lambda: clf.set_params(nonlocal_time_share="half").fit(X, y),
                          "nonlocal_time_share")


def test_starts_on_one_process_share_their_payoff(planted):
    X, y = planted
    factory = classifier._oracle_factory(X, y, BitMatrix(X), RuleClassifier(nonlocal_backend="native")
                                         ._search_config(X.shape[1]), Slow(None, 0.0, Zero()))
    first, second = factory(random.Random(0)), factory(random.Random(1))
    assert first.payoff is second.payoff and first.call_times is second.call_times
