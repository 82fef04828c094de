"""Time budgets: an anytime fit whose starts cool down over their slice of the budget, and oracle
calls that never get more than the time left. No timed assertions: counts, statuses, schedules,
and bounds many times the budget."""

import math
import random
import time

import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.backends import get_backend
from boolrules.localsearch.annealing import RuleScorer, anneal, schedule
from boolrules.localsearch.classifier import AUTO_CALL_LIMIT, BUDGET_CALL_SHARE, call_limit
from boolrules.localsearch.moves import SearchSpace
from boolrules.localsearch.oracle import NonLocalOracle
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import OPERATORS, And, AtLeast, BitMatrix, Literal, Or

from ..errors import assert_raises_clearly
from ..fakes import Recording, Slow
from ..planted import planted as planted_data

ALL = tuple(OPERATORS.values())
HIGH, LOW = 0.2, 1e-6
NO_CAP = 200_000  # iterations no start here reaches in its slice (a start that ignores its slice does, and fails)


@pytest.fixture(scope="module")
def planted():
    return planted_data(AtLeast(2, Literal(0), ~Literal(3), Literal(5)), 300, 10)


def progress_of(temperature):
    """The schedule's progress at `temperature` (the inverse of `high * (low / high) ** progress`)."""
    return np.log(np.asarray(temperature) / HIGH) / np.log(LOW / HIGH)


# The schedule


def test_without_a_budget_the_schedule_is_the_geometric_one():
    steps = list(schedule(50, (HIGH, LOW)))
    assert [t for _, t, _ in steps] == np.geomspace(HIGH, LOW, 50).tolist()
    assert [it for it, _, _ in steps] == list(range(50))


def test_a_time_slice_cools_down_fully_and_ends():
    steps = list(schedule(10**6, (HIGH, LOW), until=time.monotonic() + 0.05))
    assert len(steps) < 10**6
    temperatures = [t for _, t, _ in steps]
    assert progress_of(temperatures[0]) < 0.1 and temperatures[-1] == pytest.approx(LOW)
    assert steps[-1][2] == 1.0 and all(p < 1 for _, _, p in steps[:-1])
    assert np.all(np.diff(temperatures) <= 0)


def test_with_a_slice_the_iterations_are_a_cap():
    steps = list(schedule(40, (HIGH, LOW), until=time.monotonic() + 3600))
    assert len(steps) == 40 and steps[-1][1] == pytest.approx(LOW)


def test_a_spent_slice_runs_one_iteration_cold():
    steps = list(schedule(1000, (HIGH, LOW), until=time.monotonic() - 1))
    assert len(steps) == 1 and steps[0][1] == pytest.approx(LOW)


def test_no_cap_and_no_slice_is_refused():
    with pytest.raises(ValueError, match="num_iterations=None"):
        next(schedule(None, (HIGH, LOW)))


def test_a_start_cut_by_time_ends_cold_with_its_count(planted):
    X, y = planted
    result = anneal(RuleScorer(BitMatrix(X), y), SearchSpace(10, ALL, 6), num_iterations=NO_CAP,
                    temperatures=(HIGH, LOW), seed=0, record=True, until=time.monotonic() + 0.2)
    assert 1 < result.iterations < NO_CAP
    assert len(result.trajectory.temperature) == result.iterations
    assert result.trajectory.temperature[-1] == pytest.approx(LOW)
    assert result.seconds < 10  # far above the 0.2 s slice: only a start that ignored its slice fails


# RuleClassifier(time_budget=...)


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_a_budget_stops_every_start_and_each_cools_down(planted, n_jobs):
    """No cap on iterations: only the budget ends the fit. Every start ran (n_iter_ counts its
    iterations) and ended at the low temperature."""
    X, y = planted
    budget = 1.0
    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=budget, n_jobs=n_jobs, random_state=0,
                         record_trajectory=True, temperatures=(HIGH, LOW)).fit(X, y)
    assert clf.fit_seconds_ < 15 * budget  # generous: process start-up for n_jobs=2 on a busy machine
    assert clf.n_iter_.shape == (4,) and clf.n_iter_.dtype.kind == "i" and (clf.n_iter_ >= 1).all()
    assert [len(s.trajectory.temperature) for s in clf.starts_] == clf.n_iter_.tolist()
    assert all(s.trajectory.temperature[-1] == pytest.approx(LOW) for s in clf.starts_)
    assert clf.best_objective_ == max(s.objective for s in clf.starts_)


def test_the_starts_share_the_budget(planted):
    """Serial starts run one after another: each gets a share, not the whole budget."""
    X, y = planted
    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=2.0, random_state=0).fit(X, y)
    assert all(s.seconds < 1.5 for s in clf.starts_)  # a share is 0.5 s; the whole budget 2 s
    assert sum(s.seconds for s in clf.starts_) < 10


def test_iterations_are_a_cap_under_a_budget(planted):
    X, y = planted
    cut = RuleClassifier(num_starts=2, num_iterations=NO_CAP, time_budget=0.3, random_state=0).fit(X, y)
    assert (cut.n_iter_ < NO_CAP).all()
    capped = RuleClassifier(num_starts=2, num_iterations=50, time_budget=3600, random_state=0).fit(X, y)
    assert capped.n_iter_.tolist() == [50, 50]


def test_without_a_budget_every_start_runs_its_iterations(planted):
    X, y = planted
    clf = RuleClassifier(num_starts=3, num_iterations=120, random_state=0).fit(X, y)
    assert clf.n_iter_.tolist() == [120] * 3 and clf.fit_seconds_ > 0


def test_a_generous_budget_with_a_cap_anneals_like_the_cap_alone(planted):
    """With time to spare, a budgeted start follows the same schedule (iteration progress) and
    the same random stream as an unbudgeted one."""
    X, y = planted
    params = {"num_starts": 2, "num_iterations": 200, "random_state": 5, "record_trajectory": True}
    plain = RuleClassifier(**params).fit(X, y)
    budgeted = RuleClassifier(**params, time_budget=3600).fit(X, y)
    for a, b in zip(plain.starts_, budgeted.starts_):
        np.testing.assert_allclose(a.trajectory.temperature, b.trajectory.temperature, rtol=1e-6)
        np.testing.assert_array_equal(a.trajectory.objective, b.trajectory.objective)


def test_burn_in_is_a_share_of_progress_under_a_budget(planted):
    """Non-local moves wait for the first 70% of each start's progress (read off the temperature
    at which they happen), or num_iterations_burn_in / num_iterations of it."""
    X, y = planted
    for burn_in, share in [(None, 0.7), (1000, 0.5)]:
        clf = RuleClassifier(num_starts=2, num_iterations=2000, time_budget=1.5, patience=2, random_state=0,
                             nonlocal_backend="highs", temperatures=(HIGH, LOW), record_trajectory=True,
                             num_iterations_burn_in=burn_in, max_samples=30).fit(X, y)
        moves = [s.trajectory.temperature[s.trajectory.nonlocal_moves] for s in clf.starts_]
        assert sum(len(m) for m in moves) > 0
        assert all((progress_of(m) >= share - 1e-9).all() for m in moves)
        assert min(progress_of(m).min() for m in moves if len(m)) < share + 0.2  # they start soon after


def test_multiclass_shares_the_budget_among_the_classes():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (200, 6), dtype=np.uint8)
    y = np.where(X[:, 0] == 1, "a", np.where(X[:, 1] == 1, "b", "c"))
    clf = RuleClassifier(num_starts=2, num_iterations=None, time_budget=1.5, random_state=0).fit(X, y)
    assert [est.time_budget for est in clf.estimators_] == [0.5] * 3
    assert clf.time_budget == 1.5


@pytest.mark.parametrize("budget, error", [(0, ValueError), (-1, ValueError), (math.inf, ValueError),
                                           (True, ValueError), ("10", ValueError)])
def test_bad_budgets_are_refused_clearly(planted, budget, error):
    assert_raises_clearly(error, lambda: RuleClassifier(time_budget=budget).fit(*planted), "time_budget")


def test_no_cap_needs_a_budget(planted):
    assert_raises_clearly(ValueError, lambda: RuleClassifier(num_iterations=None).fit(*planted),
                          "num_iterations", "time_budget")


# The oracle gets the time left


def make_oracle(X, y, backend, time_limit, until):
    return NonLocalOracle(
        BitMatrix(X), X, y, balanced_sample_weight(y), SearchSpace(X.shape[1], ALL, 8), backend,
        operators=ALL, max_samples=50, time_limit=time_limit, rng=random.Random(0), until=until,
    )


TRUTH = And(Or(Literal(5), Literal(6)), Or(Literal(0), ~Literal(1)))
START = And(Or(Literal(5), Literal(6)), Or(Literal(2), Literal(3)))


def time_limits(until, time_limit=10.0):
    X, y = planted_data(TRUTH, 200, 8)
    backend = Recording()
    make_oracle(X, y, backend, time_limit, until).replace(START, (1,), Or)
    return [options.get("time_limit") for _, options in backend.calls]


def test_the_oracle_passes_the_time_left_in_the_slice():
    assert time_limits(None) == [10.0]
    (left,) = time_limits(time.monotonic() + 2.0)
    assert 0 < left <= 2.0
    assert time_limits(time.monotonic() + 3600) == [10.0]
    assert time_limits(time.monotonic() - 1) == [0.0]
    (left,) = time_limits(time.monotonic() + 2.0, time_limit=None)
    assert 0 < left <= 2.0


def test_auto_call_limit_is_a_share_of_the_slice_under_a_budget():
    """"auto": 1 s without a budget; under one, BUDGET_CALL_SHARE of the slice left, at most 1 s;
    seconds and None pass through."""
    assert call_limit("auto", None) == AUTO_CALL_LIMIT == 1.0
    assert call_limit("auto", time.monotonic() + 7.5) == pytest.approx(BUDGET_CALL_SHARE * 7.5, rel=0.01)
    assert call_limit("auto", time.monotonic() + 3600) == AUTO_CALL_LIMIT
    assert call_limit("auto", time.monotonic() - 1) == 0.0
    assert call_limit(0.5, time.monotonic() + 7.5) == 0.5 and call_limit(None, None) is None


@pytest.mark.parametrize("budget", [None, 2.0])
def test_the_classifier_gives_each_call_the_auto_limit(planted, budget):
    """The default nonlocal_time_limit ("auto") reaches every oracle call: 1 s without a budget, at
    most the call share of the start's slice under one."""
    X, y = planted
    backend = Recording()
    RuleClassifier(num_starts=1, num_iterations=200 if budget is None else None, time_budget=budget, patience=1,
                   num_iterations_burn_in=0, random_state=0, nonlocal_backend=backend).fit(X, y)
    limits = [options["time_limit"] for _, options in backend.calls]
    assert limits
    if budget is None:
        assert set(limits) == {AUTO_CALL_LIMIT}
    else:
        assert 0 < max(limits) <= BUDGET_CALL_SHARE * budget


class Sleeping(Recording):
    """A backend that sleeps through all the time it is given (capped at 50 ms), then solves."""

    def __init__(self):
        super().__init__()
        self.slept = []

    def solve(self, problem, **options):
        self.slept.append(min(0.05, options.get("time_limit") or 0.05))
        time.sleep(self.slept[-1])
        return super().solve(problem, **options)


@pytest.mark.parametrize("share", [0.1, 0.5])
def test_oracle_calls_keep_to_their_share_of_the_start(planted, share):
    """Under a slice, the oracle's calls are made only when the unspent part of `oracle_share` of the
    start's time so far covers a mean call, each with at most that part: the time they were allowed
    and used adds up to within the share (a limit is what is left then, so limits themselves may
    add up to more), and no call gets a sliver."""
    X, y = planted
    scorer, backend = RuleScorer(BitMatrix(X), y), Sleeping()
    space = SearchSpace(X.shape[1], ALL, 8)

    def factory(rng):
        return make_oracle(X, y, backend, 10.0, None) if rng else None

    start = anneal(scorer, space, num_iterations=None, temperatures=(HIGH, LOW), seed=0, oracle_factory=factory,
                   patience=0, until=time.monotonic() + 1.0, oracle_share=share)
    limits = [options["time_limit"] for _, options in backend.calls]
    assert len(limits) >= 2 and start.oracle.calls >= len(limits)
    assert sum(backend.slept) <= share * start.seconds + 1e-6
    assert max(limits) < 10.0  # every call was cut to its allowance
    assert min(limits[1:]) > 1e-3  # later calls wait until a mean call's time is left: no slivers


def test_a_backend_without_a_time_limit_gets_none(planted):
    from ..fakes import Garbage

    X, y = planted_data(TRUTH, 200, 8)
    oracle = make_oracle(X, y, Garbage(Literal(0)), 10.0, time.monotonic() + 1)
    assert oracle._time_limit() == {}


def test_a_slow_sampler_oracle_stops_on_time(planted):
    """The issue's case: a sampler whose every call would take 20 s (1000 reads of 20 ms). With a
    budget, each call samples only while its start has time left (there is no per-call limit
    here), and the fit ends on time."""
    X, y = planted
    slow = Slow(0.02)
    clf = RuleClassifier(num_starts=2, num_iterations=300, time_budget=1.5, patience=2, num_iterations_burn_in=0,
                         random_state=0, nonlocal_backend=get_backend(slow, num_reads=1000),
                         nonlocal_time_limit=None).fit(X, y)
    assert clf.nonlocal_stats_.calls >= 1 and len(slow.calls) >= clf.nonlocal_stats_.calls
    assert sum(slow.calls) < 1000  # no call made all its reads
    assert clf.fit_seconds_ < 15  # one uncut call alone takes 20 s


# Progress


def test_verbose_shows_oracle_calls_and_notes_a_missing_budget(planted, capsys):
    X, y = planted
    params = {"num_starts": 2, "num_iterations": 100, "patience": 2, "random_state": 0, "verbose": True,
              "nonlocal_backend": "highs", "max_samples": 30}
    clf = RuleClassifier(**params).fit(X, y)
    err = capsys.readouterr().err
    assert f"oracle calls {clf.nonlocal_stats_.calls}" in err and "2/2" in err
    assert "without a time budget" in err and "time_budget" in err
    RuleClassifier(**params, time_budget=60).fit(X, y)
    assert "without a time budget" not in capsys.readouterr().err


def test_verbose_parallel_starts_report_their_oracle_calls(planted, capsys):
    X, y = planted
    clf = RuleClassifier(num_starts=2, num_iterations=100, patience=2, random_state=0, verbose=True, n_jobs=2,
                         nonlocal_backend="highs", max_samples=30, time_budget=60).fit(X, y)
    err = capsys.readouterr().err
    assert f"oracle calls {clf.nonlocal_stats_.calls}" in err and "2/2" in err


def test_quiet_by_default(planted, capsys):
    RuleClassifier(num_starts=2, num_iterations=50, random_state=0, nonlocal_backend="highs").fit(*planted)
    assert capsys.readouterr().err == ""
