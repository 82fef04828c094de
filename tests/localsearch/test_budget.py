"""Time budgets: an anytime fit whose starts cool down over their slice of the budget, and oracle
calls that never get more than the time left. No timed assertions: the modules under test read a
scripted clock (`Clock`), and the tests check counts, statuses, schedules and the seconds on it."""

import gc
import math
import random
import threading
import time
from collections import defaultdict

import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator, TransformerMixin

from boolrules import RuleClassifier, workers
from boolrules.backends import Backend, Result, get_backend
from boolrules.backends import sampler as sampler_module
from boolrules.localsearch import annealing, classifier, descent, oracle
from boolrules.localsearch.annealing import RuleScorer, anneal, schedule
from boolrules.localsearch.classifier import (AUTO_CALL_LIMIT, BUDGET_CALL_SHARE, ESCALATION_CAP_SHARE, call_cap,
                                             call_limit)
from boolrules.localsearch.moves import SearchSpace
from boolrules.localsearch.oracle import NonLocalOracle
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import OPERATORS, And, AtLeast, BitMatrix, Literal, Or

from ..errors import assert_raises_clearly
from ..fakes import Clock, ParallelClock, Recording, SlowOnTheClock
from ..planted import planted as planted_data
from ..processes import loky_pool

ALL = tuple(OPERATORS.values())
HIGH, LOW = 0.2, 1e-6
NO_CAP = 200_000  # iterations no start here reaches in its slice (a start that ignores its slice does, and fails)


@pytest.fixture(scope="module")
def planted():
    return planted_data(AtLeast(2, Literal(0), ~Literal(3), Literal(5)), 300, 10)


MODULES = (annealing, classifier, descent, oracle, sampler_module, workers)  # all the clocks a fit's budget reads


@pytest.fixture
def clock(monkeypatch):
    """The modules of a fit (and the sampler backend) read a `Clock` of a millisecond per reading."""
    clock = Clock()
    for module in MODULES:
        monkeypatch.setattr(module, "time", clock)
    return clock


@pytest.fixture
def parallel_clock(monkeypatch):
    """As `clock`, with the time of each worker thread its own (`ParallelClock`): thread workers
    standing in for processes then run side by side on the clock, whatever the GIL's order."""
    clock = ParallelClock()
    for module in MODULES:
        monkeypatch.setattr(module, "time", clock)
    return clock


def progress_of(temperature):
    """The schedule's progress at `temperature` (the inverse of `high * (low / high) ** progress`)."""
    return np.log(np.asarray(temperature) / HIGH) / np.log(LOW / HIGH)


# The schedule


def test_without_a_budget_the_schedule_is_the_geometric_one():
    steps = list(schedule(50, (HIGH, LOW)))
    assert [t for _, t, _ in steps] == np.geomspace(HIGH, LOW, 50).tolist()
    assert [it for it, _, _ in steps] == list(range(50))


def test_a_time_slice_cools_down_fully_and_ends(clock):
    steps = list(schedule(10**6, (HIGH, LOW), until=clock.now + 0.05))  # 50 readings of the clock
    assert 40 < len(steps) <= 50
    temperatures = [t for _, t, _ in steps]
    assert progress_of(temperatures[0]) < 0.1 and temperatures[-1] == pytest.approx(LOW)
    assert steps[-1][2] == 1.0 and all(p < 1 for _, _, p in steps[:-1])
    assert np.all(np.diff(temperatures) <= 0)


def test_with_a_slice_the_iterations_are_a_cap(clock):
    steps = list(schedule(40, (HIGH, LOW), until=clock.now + 3600))
    assert len(steps) == 40 and steps[-1][1] == pytest.approx(LOW)


def test_a_spent_slice_runs_one_iteration_cold(clock):
    steps = list(schedule(1000, (HIGH, LOW), until=clock.now - 1))
    assert len(steps) == 1 and steps[0][1] == pytest.approx(LOW)


def test_no_cap_and_no_slice_is_refused():
    with pytest.raises(ValueError, match="num_iterations=None"):
        next(schedule(None, (HIGH, LOW)))


def test_a_start_cut_by_time_ends_cold_with_its_count(planted, clock):
    """A 0.2 s slice is 200 readings of the clock: the start ends there, not at its NO_CAP iterations."""
    X, y = planted
    result = anneal(RuleScorer(BitMatrix(X), y), SearchSpace(10, ALL, 6), num_iterations=NO_CAP,
                    temperatures=(HIGH, LOW), seed=0, record=True, until=clock.now + 0.2)
    assert 100 < result.iterations <= 200
    assert len(result.trajectory.temperature) == result.iterations
    assert result.trajectory.temperature[-1] == pytest.approx(LOW)
    assert result.seconds <= 0.2 + 3 * clock.tick  # its slice, and the readings that start and end it


# RuleClassifier(time_budget=...)


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_a_budget_stops_every_start_and_each_cools_down(planted, clock, n_jobs):
    """No cap on iterations: only the budget ends the fit, and within it (on the scripted clock; with
    n_jobs=2 the starts run in chunks on two joblib threads, which read it too). Every start ran
    (n_iter_ counts its iterations) and ended at the low temperature."""
    X, y = planted
    budget = 1.0
    with joblib.parallel_config(backend="threading"):
        clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=budget, n_jobs=n_jobs, random_state=0,
                             record_trajectory=True, temperatures=(HIGH, LOW)).fit(X, y)
    # The clock's readings past the deadline: a few ticks, and a few more for each start a thread began
    # as the deadline passed (every start runs one iteration at least: n_iter_ 1).
    assert clf.fit_seconds_ <= budget + 0.01 * (1 + np.sum(clf.n_iter_ == 1))
    assert clf.n_iter_.shape == (4,) and clf.n_iter_.dtype.kind == "i" and (clf.n_iter_ >= 1).all()
    assert [len(s.trajectory.temperature) for s in clf.starts_] == clf.n_iter_.tolist()
    assert all(s.trajectory.temperature[-1] == pytest.approx(LOW) for s in clf.starts_)
    assert clf.best_objective_ == max(s.objective for s in clf.starts_)


def test_the_starts_share_the_budget(planted, clock):
    """Serial starts run one after another: each gets a share (0.5 s), not the whole budget (2 s)."""
    X, y = planted
    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=2.0, random_state=0).fit(X, y)
    assert [s.seconds for s in clf.starts_] == pytest.approx([0.5] * 4, abs=0.01)
    assert clf.fit_seconds_ <= 2.0 + 0.01


def test_the_budget_counts_from_fit_entry(planted, clock):
    """Time spent before the starts (here a binarizer taking 0.5 s) is spent from the budget: the
    starts share what is left, and fit_seconds_ is the whole fit."""
    X, y = planted

    class SlowBinarizer(TransformerMixin, BaseEstimator):
        def fit_transform(self, X, y=None):
            clock.advance(0.5)
            self.n_features_ = X.shape[1]
            return X

        def get_feature_names_out(self):
            return np.array([f"x{i}" for i in range(self.n_features_)])

    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=2.0, random_state=0,
                         binarizer=SlowBinarizer()).fit(X, y)
    assert sum(s.seconds for s in clf.starts_) <= 1.5 + 0.01
    assert 2.0 - 0.01 <= clf.fit_seconds_ <= 2.0 + 0.01  # the binarizer's 0.5 s included


class FakeProcessBackend:
    """What `joblib.parallel.get_active_backend` returns for a process backend (no `uses_threads`)."""


class OtherProcessBackend:
    """Another kind of process backend (as loky's pool is to a Dask cluster's workers)."""


@pytest.fixture
def fake_processes(monkeypatch):
    """Parallel fits as if on process workers (of the kind `kind[0]`), whose start-up takes `startup[0]`
    seconds (on the clock) in each task, while they run on threads; returns (startup, the n_jobs joblib
    was asked for, kind)."""
    startup, asked, kind = [0.0], [], [FakeProcessBackend]
    run_starts = classifier._run_starts

    def started_late(*args):
        if len(args) == 7:  # a worker's task names its parent process
            classifier.time.advance(startup[0])
        return run_starts(*args)

    class Threads(joblib.Parallel):
        def __init__(self, n_jobs=None, **kwargs):
            asked.append(n_jobs)
            super().__init__(n_jobs=n_jobs, backend="threading", **kwargs)

    monkeypatch.setattr(classifier, "get_active_backend", lambda: (kind[0](), None))
    monkeypatch.setattr(classifier, "Parallel", Threads)
    monkeypatch.setattr(classifier, "_run_starts", started_late)
    monkeypatch.setattr(classifier, "WORKER_STARTUP", defaultdict(lambda: workers.WorkerStartup(cold=10.0)))
    return startup, asked, kind


def test_workers_that_start_late_get_the_time_left(planted, parallel_clock, fake_processes):
    """Two workers whose start-up takes 20 s each (side by side, as processes) of a 120 s budget:
    their starts share the 100 s left, not a fresh 120 s from their start, and the start-up is measured."""
    X, y = planted
    clock = parallel_clock
    startup, asked, _ = fake_processes
    startup[0] = 20.0
    clock.tick = 0.05
    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=120.0, n_jobs=2, random_state=0).fit(X, y)
    assert asked == [2]  # 10 s expected of cold workers: a third of the budget at most, so they are used
    assert clf.fit_seconds_ <= 120.0 + 2 * clock.tick * (1 + np.sum(clf.n_iter_ == 1))
    assert (clf.n_iter_ > 20).all()  # each start its share: none left with one iteration
    measured = classifier.WORKER_STARTUP[FakeProcessBackend]
    assert 20.0 <= measured.last[0] <= 21.0  # both tasks began 20 s in, and a few readings
    assert measured.cold == measured.last[0]


def test_one_kind_of_workers_start_up_says_nothing_of_anothers(planted, parallel_clock, fake_processes):
    """Workers that were up (a Dask cluster's) began at once: workers of another kind (loky's,
    cold) are still expected to take 10 s, too much of a 29 s budget, so its starts run here."""
    X, y = planted
    clock = parallel_clock
    startup, asked, kind = fake_processes
    clock.tick = 0.05
    RuleClassifier(num_starts=4, num_iterations=None, time_budget=29.0, n_jobs=2, random_state=0).fit(X, y)
    assert asked == []  # cold: 10 s expected
    RuleClassifier(num_starts=4, num_iterations=None, time_budget=120.0, n_jobs=2, random_state=0).fit(X, y)
    assert asked == [2]
    RuleClassifier(num_starts=4, num_iterations=None, time_budget=29.0, n_jobs=2, random_state=0).fit(X, y)
    assert asked == [2, 2]  # the same workers, up: used
    kind[0] = OtherProcessBackend
    RuleClassifier(num_starts=4, num_iterations=None, time_budget=29.0, n_jobs=2, random_state=0).fit(X, y)
    assert asked == [2, 2]  # other workers, cold: not used


@pytest.mark.parametrize("budget", [1.0, 29.0])
def test_starts_run_one_after_another_when_workers_would_start_too_late(planted, clock, fake_processes, budget,
                                                                        capsys):
    """Cold workers expected to take 10 s to start: a budget under three times that runs the starts
    here, one after another, within it; they never wait for workers, and verbose says why."""
    X, y = planted
    startup, asked, _ = fake_processes
    startup[0] = 10.0
    clock.tick = 0.05 if budget > 10 else 1e-3
    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=budget, n_jobs=2, random_state=0,
                         verbose=True).fit(X, y)
    assert asked == []
    assert "starts run one after another: 2 workers are expected to take 10.0 s" in capsys.readouterr().err
    assert clf.fit_seconds_ <= budget + 2 * clock.tick
    assert (clf.n_iter_ > 20).all()


def test_the_worker_startup_estimate(clock):
    """Cold until measured; then what the last parallel fit measured, for as many workers at most and
    while they may still be up; threads start at once."""
    startup = workers.WorkerStartup(cold=10.0)
    assert startup.expected(2, threads=False) == 10.0 and startup.expected(8, threads=True) == 0.0
    startup.measured(6.0, 2, cold=True)
    assert startup.cold == 6.0 and startup.warm(2)
    startup.measured(0.2, 2, cold=False)
    assert startup.expected(2, threads=False) == 0.2 and startup.expected(1, threads=False) == 0.2
    assert startup.expected(3, threads=False) == 6.0  # a third worker starts cold
    clock.advance(workers.IDLE_WORKER_SECONDS)
    assert startup.expected(2, threads=False) == 6.0  # the workers have ended idle since


def test_a_budgeted_fit_keeps_older_objects_from_the_garbage_collector(planted, clock, monkeypatch):
    """Under a budget the starts run with the objects made before them frozen (`gc.freeze`): a full
    collection over them stalled a start past its slice. Without a budget, and after the fit, not."""
    X, y = planted
    frozen, anneal = [], classifier.anneal

    def recording(*args, **kwargs):
        frozen.append(gc.get_freeze_count())
        return anneal(*args, **kwargs)

    monkeypatch.setattr(classifier, "anneal", recording)
    before = gc.get_freeze_count()
    RuleClassifier(num_starts=2, num_iterations=None, time_budget=0.2, random_state=0).fit(X, y)
    RuleClassifier(num_starts=2, num_iterations=20, random_state=0).fit(X, y)
    assert frozen[0] > before and frozen[1] > before and frozen[2:] == [before] * 2
    assert gc.get_freeze_count() == before


def test_iterations_are_a_cap_under_a_budget(planted, clock):
    X, y = planted
    cut = RuleClassifier(num_starts=2, num_iterations=NO_CAP, time_budget=0.3, random_state=0).fit(X, y)
    assert (cut.n_iter_ < NO_CAP).all()
    capped = RuleClassifier(num_starts=2, num_iterations=50, time_budget=3600, random_state=0).fit(X, y)
    assert capped.n_iter_.tolist() == [50, 50]


def test_without_a_budget_every_start_runs_its_iterations(planted):
    X, y = planted
    clf = RuleClassifier(num_starts=3, num_iterations=120, random_state=0).fit(X, y)
    assert clf.n_iter_.tolist() == [120] * 3 and clf.fit_seconds_ > 0


def test_a_generous_budget_with_a_cap_anneals_like_the_cap_alone(planted, clock):
    """With time to spare, a budgeted start follows the same schedule (iteration progress) and
    the same random stream as an unbudgeted one."""
    X, y = planted
    clock.tick = 1e-6  # a microsecond a reading: the slice's share spent stays below each iteration's progress
    params = {"num_starts": 2, "num_iterations": 200, "random_state": 5, "record_trajectory": True}
    plain = RuleClassifier(**params).fit(X, y)
    budgeted = RuleClassifier(**params, time_budget=3600).fit(X, y)
    for a, b in zip(plain.starts_, budgeted.starts_):
        np.testing.assert_allclose(a.trajectory.temperature, b.trajectory.temperature, rtol=1e-6)
        np.testing.assert_array_equal(a.trajectory.objective, b.trajectory.objective)


def test_burn_in_is_a_share_of_progress_under_a_budget(planted, clock):
    """Non-local moves wait for the first 70% of each start's progress (read off the temperature
    at which they happen), or num_iterations_burn_in / num_iterations of it."""
    X, y = planted
    clock.tick = 0.005  # 150 readings in a start's slice
    for burn_in, share in [(None, 0.7), (1000, 0.5)]:
        clf = RuleClassifier(num_starts=2, num_iterations=2000, time_budget=1.5, patience=2, random_state=0,
                             nonlocal_backend="highs", temperatures=(HIGH, LOW), record_trajectory=True,
                             num_iterations_burn_in=burn_in, max_samples=30).fit(X, y)
        moves = [s.trajectory.temperature[s.trajectory.nonlocal_moves] for s in clf.starts_]
        assert sum(len(m) for m in moves) > 0
        assert all((progress_of(m) >= share - 1e-9).all() for m in moves)
        assert min(progress_of(m).min() for m in moves if len(m)) < share + 0.2  # they start soon after


def test_multiclass_shares_the_budget_among_the_classes(clock):
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


def test_the_oracle_passes_the_time_left_in_the_slice(clock):
    assert time_limits(None) == [10.0]
    (left,) = time_limits(clock.now + 2.0)
    assert left == pytest.approx(2.0 - clock.tick)  # the slice less the one reading that found what is left
    assert time_limits(clock.now + 3600) == [10.0]
    assert time_limits(clock.now - 1) == [0.0]
    (left,) = time_limits(clock.now + 2.0, time_limit=None)
    assert left == pytest.approx(2.0 - clock.tick)


def test_auto_call_limit_is_a_share_of_the_slice_under_a_budget(clock):
    """"auto": 1 s without a budget; under one, BUDGET_CALL_SHARE of the slice left, at most 1 s;
    seconds and None pass through."""
    clock.tick = 0.0  # a clock that stands still: the slice left is what was given
    assert call_limit("auto", None) == AUTO_CALL_LIMIT == 1.0
    assert call_limit("auto", clock.now + 7.5) == pytest.approx(BUDGET_CALL_SHARE * 7.5)
    assert call_limit("auto", clock.now + 3600) == AUTO_CALL_LIMIT
    assert call_limit("auto", clock.now - 1) == 0.0
    assert call_limit(0.5, clock.now + 7.5) == 0.5 and call_limit(None, None) is None


def test_auto_call_cap_is_a_share_of_the_slice_under_a_budget_only(clock):
    """What a shape's calls may earn (`NonLocalOracle`'s max_time_limit): under a budget, "auto" is
    ESCALATION_CAP_SHARE of the slice left; without one, or with a limit given, no call earns more."""
    clock.tick = 0.0
    assert call_cap("auto", clock.now + 7.5) == pytest.approx(ESCALATION_CAP_SHARE * 7.5)
    assert call_cap("auto", clock.now - 1) == 0.0
    assert call_cap("auto", None) is None and call_cap(0.5, clock.now + 7.5) is None and call_cap(None, None) is None


@pytest.mark.parametrize("budget", [None, 2.0])
def test_the_classifier_gives_each_call_the_auto_limit(planted, clock, budget):
    """The default nonlocal_time_limit ("auto") reaches every oracle call: 1 s without a budget, at
    most the call share of the start's slice under one."""
    X, y = planted
    backend = Recording()
    clock.tick = 0.05  # 40 readings in the budget's slice
    RuleClassifier(num_starts=1, num_iterations=20 if budget is None else None, time_budget=budget, patience=1,
                   num_iterations_burn_in=0, random_state=0, nonlocal_backend=backend, max_samples=30).fit(X, y)
    limits = [options["time_limit"] for _, options in backend.calls]
    assert limits
    if budget is None:
        assert set(limits) == {AUTO_CALL_LIMIT}
    else:
        assert 0 < max(limits) <= BUDGET_CALL_SHARE * budget


class Unproven(Backend):
    """Takes depth-two problems and stops every call unproven ("time_limit") at once, logging
    (depth-two?, time limit) per call."""

    name = "unproven"
    capabilities = frozenset({"time_limit", "depth_two"})

    def __init__(self):
        self.calls = []

    def solve(self, problem, **options):
        self.calls.append((hasattr(problem, "shape"), options["time_limit"]))
        return Result(Literal(0), 0.0, "time_limit", options["time_limit"], self.name)


def test_under_a_budget_depth_two_calls_earn_longer_limits_within_the_cap(planted, clock):
    """With the default nonlocal_time_limit ("auto") under a budget, a shape's calls cut short earn
    up to ESCALATION_CAP_SHARE of the slice, depth-one calls keep the call share, and the fit keeps to
    its budget (the whole start's time for the oracle, so no allowance cuts a limit)."""
    X, y = planted
    backend = Unproven()
    clf = RuleClassifier(num_starts=1, num_iterations=None, time_budget=20.0, patience=50, num_iterations_burn_in=0,
                         random_state=0, nonlocal_backend=backend, max_samples=30, nonlocal_time_share=1.0,
                         nonlocal_operators=[*ALL, "DNF", "CNF"]).fit(X, y)
    shapes = [limit for shape, limit in backend.calls if shape]
    operators = [limit for shape, limit in backend.calls if not shape]
    assert len(shapes) >= 3 and operators
    assert max(operators) <= BUDGET_CALL_SHARE * 20.0
    assert BUDGET_CALL_SHARE * 20.0 < max(shapes) <= ESCALATION_CAP_SHARE * 20.0
    assert clf.fit_seconds_ <= 20.0 * 1.01


class Sleeping(Recording):
    """A backend that sleeps (on `clock`) through all the time it is given (capped at 50 ms), then solves."""

    def __init__(self, clock):
        super().__init__()
        self.clock = clock
        self.slept = []

    def solve(self, problem, **options):
        self.slept.append(min(0.05, options.get("time_limit") or 0.05))
        self.clock.sleep(self.slept[-1])
        return super().solve(problem, **options)


@pytest.mark.parametrize("share", [0.1, 0.5])
def test_oracle_calls_keep_to_their_share_of_the_start(planted, clock, share):
    """Under a slice, the oracle's calls are made only when the unspent part of `oracle_share` of the
    start's time so far covers a mean call, each with at most that part: the time they were allowed
    and used adds up to within the share (a limit is what is left then, so limits themselves may
    add up to more), and no call gets a sliver."""
    X, y = planted
    scorer, backend = RuleScorer(BitMatrix(X), y), Sleeping(clock)
    space = SearchSpace(X.shape[1], ALL, 8)

    def factory(rng):
        return make_oracle(X, y, backend, 10.0, None) if rng else None

    start = anneal(scorer, space, num_iterations=None, temperatures=(HIGH, LOW), seed=0, oracle_factory=factory,
                   patience=0, until=clock.now + 1.0, oracle_share=share)
    limits = [options["time_limit"] for _, options in backend.calls]
    assert len(limits) >= 2 and start.oracle.calls >= len(limits)
    assert sum(backend.slept) <= share * start.seconds + 1e-6
    assert max(limits) < 10.0  # every call was cut to its allowance
    assert min(limits[1:]) > 1e-3  # later calls wait until a mean call's time is left: no slivers


class Stubborn(Backend):
    """A backend whose every solve takes `seconds` on `clock`, whatever time limit it is given (as an
    `sa` read that outlasts its limit), and answers a literal."""

    name = "stubborn"
    capabilities = frozenset({"time_limit"})

    def __init__(self, clock, seconds):
        self.clock, self.seconds, self.calls = clock, seconds, 0

    def solve(self, problem, **options):
        self.calls += 1
        self.clock.sleep(self.seconds)
        return Result(Literal(0), 0.0, "time_limit", self.seconds, self.name)


def test_an_oracle_call_that_overruns_starves_no_start(planted, clock):
    """A call outlasting a start's slice (0.4 s of 0.5 s, after the burn-in) is made once: later
    starts propose a move only when a mean call fits in their time left, so each gets its share of
    what is left and runs as many iterations as the others, and the fit ends within its budget."""
    X, y = planted
    backend = Stubborn(clock, 0.4)
    clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=2.0, patience=2, random_state=0,
                         nonlocal_backend=backend, max_samples=30).fit(X, y)
    assert backend.calls == 1
    assert clf.fit_seconds_ <= 2.0 + 0.01
    later = clf.n_iter_[1:]
    assert later.min() > 0.5 * later.max() and later.min() > 50  # no start left with a sliver


class Blocking(Stubborn):
    """A solve that runs until `release` is set (or 5 s pass), then takes 10 s on the clock: one
    that outlasts any slice of the fit, whose clock does not move while it waits for it."""

    def __init__(self, clock):
        super().__init__(clock, 10.0)
        self.release = threading.Event()

    def solve(self, problem, **options):
        self.calls += 1
        self.release.wait(5)
        self.clock.sleep(self.seconds)
        return Result(Literal(0), 0.0, "optimal", self.seconds, self.name)


def test_a_solve_that_outlasts_its_slice_is_left_behind(planted, clock, monkeypatch):
    """A solve still running when its start's slice ends is left to end in the background, its answer
    unused: the fit goes on, makes no other call while it runs, and ends within its budget."""
    X, y = planted
    monkeypatch.setattr(oracle, "SOLVE_POLL", 1e-4)
    backend = Blocking(clock)
    try:
        with pytest.warns(RuntimeWarning, match="abandoned 1"):
            clf = RuleClassifier(num_starts=4, num_iterations=None, time_budget=2.0, patience=2, random_state=0,
                                 nonlocal_backend=backend, max_samples=30).fit(X, y)
    finally:
        backend.release.set()
    assert backend.calls == 1 and clf.nonlocal_stats_.failures == {"abandoned": 1}
    assert clf.fit_seconds_ <= 2.0 + 0.01
    assert clf.n_iter_[1:].min() > 50


def test_a_backend_without_a_time_limit_gets_none(planted):
    from ..fakes import Garbage

    X, y = planted_data(TRUTH, 200, 8)
    oracle = make_oracle(X, y, Garbage(Literal(0)), 10.0, time.monotonic() + 1)
    assert oracle._time_limit() == {}


def test_a_slow_sampler_oracle_stops_on_time(planted, clock):
    """The issue's case: a sampler whose every call would take 20 s (1000 reads of 20 ms). With a
    budget, each call samples only while its start has time left (there is no per-call limit
    here), and the fit ends on time."""
    X, y = planted
    slow = SlowOnTheClock(0.02, clock)
    clf = RuleClassifier(num_starts=2, num_iterations=300, time_budget=1.5, patience=2, num_iterations_burn_in=0,
                         random_state=0, nonlocal_backend=get_backend(slow, num_reads=1000),
                         nonlocal_time_limit=None).fit(X, y)
    stats = clf.nonlocal_stats_
    assert len(slow.calls) >= stats.calls - stats.nothing >= 1  # every call but those with no room sampled
    assert sum(slow.calls) < 1000  # no call made all its reads
    assert clf.fit_seconds_ <= 1.5 + 0.1  # a batch may run a little past the end; one uncut call alone takes 20 s


# Progress


def test_verbose_shows_oracle_calls_and_notes_a_missing_budget(planted, capsys):
    X, y = planted
    params = {"num_starts": 2, "num_iterations": 30, "patience": 2, "random_state": 0, "verbose": True,
              "nonlocal_backend": "native", "max_samples": 30}
    clf = RuleClassifier(**params).fit(X, y)
    err = capsys.readouterr().err
    assert clf.nonlocal_stats_.calls > 0 and f"oracle calls {clf.nonlocal_stats_.calls}" in err and "2/2" in err
    assert "without a time budget" in err and "time_budget" in err
    RuleClassifier(**params, time_budget=60).fit(X, y)
    assert "without a time budget" not in capsys.readouterr().err


@loky_pool
def test_verbose_parallel_starts_report_their_oracle_calls(planted, capsys):
    X, y = planted
    clf = RuleClassifier(num_starts=2, num_iterations=30, patience=2, random_state=0, verbose=True, n_jobs=2,
                         nonlocal_backend="native", max_samples=30, time_budget=60).fit(X, y)
    err = capsys.readouterr().err
    assert clf.nonlocal_stats_.calls > 0 and f"oracle calls {clf.nonlocal_stats_.calls}" in err and "2/2" in err


def test_quiet_by_default(planted, capsys):
    RuleClassifier(num_starts=2, num_iterations=50, random_state=0, nonlocal_backend="highs").fit(*planted)
    assert capsys.readouterr().err == ""
