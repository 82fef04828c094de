"""Stand-ins for backends and samplers, for tests that need one to misbehave or to record its calls.

Backends implement `Backend.solve`; BQM samplers are dimod `Sampler`s (so any of them plugs into
`get_backend(sampler)` or a preset's `sampler=`); CQM samplers answer `sample_cqm` as Leap's does.
"""

import multiprocessing
import os
import threading
import time
from concurrent.futures import Future

import dimod
import pytest
from dwave.samplers import SteepestDescentSolver

from boolrules.backends import Backend, Result, get_backend

# Backends


class Empty(Backend):
    """Returns no rule: a solve that failed."""

    name = "empty"

    def solve(self, problem, **options):
        return Result(None, None, "error", 0.0, self.name, message="nothing")


class Raising(Backend):
    """Raises from `solve`, as a backend that breaks the error policy would."""

    name = "raising"

    def solve(self, problem, **options):
        raise RuntimeError("solver crashed")


class TimingOut(Backend):
    """Stops at its time limit without an incumbent."""

    name = "timing-out"

    def solve(self, problem, **options):
        return Result(None, None, "time_limit", 1.0, self.name, message="no incumbent")


class Garbage(Backend):
    """Returns `rule` as optimal, whatever it is."""

    name = "garbage"

    def __init__(self, rule="not a rule"):
        self.rule = rule

    def solve(self, problem, **options):
        return Result(self.rule, 0.0, "optimal", 0.0, self.name)


# BQM samplers


class Returning(dimod.Sampler):
    """Returns `make(bqm)` whatever it is asked (raising whatever `make` raises)."""

    parameters, properties = {}, {}

    def __init__(self, make):
        self.make = make

    def sample(self, bqm, **parameters):
        return self.make(bqm)


class Slow(dimod.Sampler):
    """Random reads taking `seconds_per_read` each, as a slow sampler would; logs each call's
    num_reads in `calls` and its seed in `seeds`."""

    parameters, properties = {"num_reads": [], "seed": []}, {}

    def __init__(self, seconds_per_read):
        self.seconds_per_read = seconds_per_read
        self.calls, self.seeds = [], []

    def sample(self, bqm, num_reads=10, seed=None):
        self.calls.append(num_reads)
        self.seeds.append(seed)
        time.sleep(self.seconds_per_read * num_reads)
        return dimod.RandomSampler().sample(bqm, num_reads=num_reads, seed=seed)


class FakeHybrid(dimod.Sampler):
    """Stands in for LeapHybridSampler: records the parameters, samples by steepest descent."""

    parameters, properties = {"time_limit": []}, {}

    def sample(self, bqm, **params):
        self.params = params
        return SteepestDescentSolver().sample(bqm, num_reads=50, seed=0)


class ClosableHybrid(FakeHybrid):
    """A FakeHybrid that logs being built and closed in `log`."""

    def __init__(self, log):
        self.log = log
        log.append("built")

    def close(self):
        self.log.append("closed")


def failing_sampleset(error) -> dimod.SampleSet:
    """A sample set whose future failed with `error`, as Ocean's cloud answers fail when read."""
    future = Future()
    future.set_exception(error)
    return dimod.SampleSet.from_future(future)


class Failing(dimod.Sampler):
    """Stands in for any of the cloud samplers: every request fails with `error` when read."""

    parameters, properties = {"time_limit": []}, {}

    def __init__(self, error):
        self.error = error

    def sample(self, bqm, **params):
        return failing_sampleset(self.error)

    def sample_cqm(self, cqm, **params):
        return failing_sampleset(self.error)


# CQM samplers


class FakeCqmSampler:
    """Stands in for LeapHybridCQMSampler: returns the HiGHS optimum plus `extra` samples."""

    def __init__(self, problem, extra=(), include_optimum=True):
        self.problem, self.extra, self.include_optimum = problem, list(extra), include_optimum

    def sample_cqm(self, cqm, **params):
        self.params = params
        names = self.problem.standard_form.var_names
        samples = [dict(zip(names, x)) for x in self.extra]
        if self.include_optimum:
            optimum = get_backend("highs").solve(self.problem).raw
            samples.append(dict(zip(names, optimum)))
        return dimod.SampleSet.from_samples_cqm(samples, cqm)


class WithMinimum(FakeHybrid, FakeCqmSampler):
    """A fake Leap solver whose minimum time limit grows with the model, as Leap's does."""

    def __init__(self, problem):
        FakeCqmSampler.__init__(self, problem)

    def min_time_limit(self, model):
        return 3.0 + len(model.variables) / 1000


class EmptyCqmSampler:
    """Returns a sample over the first `keep` of the CQM's variables (none when 0)."""

    def __init__(self, keep):
        self.keep = keep

    def sample_cqm(self, cqm, **params):
        labels = list(cqm.variables)[: self.keep]
        return dimod.SampleSet.from_samples(([[0] * len(labels)] if self.keep else [], labels), "INTEGER",
                                            energy=[0.0] if self.keep else [])


class Recording(Backend):
    """HiGHS behind a log of `(problem, options)` per solve; it takes a time limit, not a seed."""

    name = "recording"
    capabilities = frozenset({"time_limit"})

    def __init__(self, time_limit=None):
        self.time_limit = time_limit
        self.calls = []

    def solve(self, problem, **options):
        self.calls.append((problem, options))
        return get_backend("highs", time_limit=options.get("time_limit", self.time_limit)).solve(problem)


# minorminer


def sleep_forever(pid_file):
    """A stand-in for minorminer.find_embedding that records its process and never returns, as a
    search that does not check its time-out for minutes."""
    def search(source, target, **params):
        pid_file.write_text(str(os.getpid()))
        while True:
            time.sleep(60)
    return search


def assert_gone(pid_file):
    """The search ran in a child process (not this one), and that child is gone: killed and reaped."""
    pid = int(pid_file.read_text())
    assert pid != os.getpid()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert not [child for child in multiprocessing.active_children() if child.name == "boolrules minor embedding"]


# Time


class Clock:
    """A scripted clock standing in for the `time` module of the modules under test: every reading
    (`monotonic`, `perf_counter`, `time`: one clock, `time` an epoch ahead) moves it on by `tick`
    seconds, and `advance` (or `sleep`) stands in for work that takes time. So a slice of S seconds
    lasts about S / tick readings however busy the machine is. Safe to read from threads."""

    EPOCH = 1.7e9

    def __init__(self, tick: float = 1e-3):
        self.tick = tick
        self.now = 1000.0
        self._lock = threading.Lock()

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds

    sleep = advance

    def monotonic(self) -> float:
        with self._lock:
            self.now += self.tick
            return self.now

    perf_counter = monotonic

    def time(self) -> float:
        return self.EPOCH + self.monotonic()


class ParallelClock(Clock):
    """A `Clock` for threads that stand in for processes: every other thread keeps its own time
    from its reading on (never behind the maker's time), as a process spends its own; the maker's
    readings see the latest of them all, as a parent that waited for its workers."""

    def __init__(self, tick: float = 1e-3):
        super().__init__(tick)
        self._maker = threading.get_ident()
        self._threads: dict[int, float] = {}

    def _moved(self, seconds: float) -> float:
        with self._lock:
            me = threading.get_ident()
            if me == self._maker:
                self.now = max([self.now, *self._threads.values()]) + seconds
                return self.now
            self._threads[me] = max(self._threads.get(me, self.now), self.now) + seconds  # a reused thread too
            return self._threads[me]

    def advance(self, seconds: float) -> None:
        self._moved(seconds)

    sleep = advance

    def monotonic(self) -> float:
        return self._moved(self.tick)

    perf_counter = monotonic


class SlowOnTheClock(Slow):
    """`Slow` whose reads take their time on `clock` instead of sleeping."""

    def __init__(self, seconds_per_read, clock):
        super().__init__(0.0)
        self.per_read, self.clock = seconds_per_read, clock

    def sample(self, bqm, num_reads=10, seed=None):
        self.clock.sleep(self.per_read * num_reads)
        return super().sample(bqm, num_reads=num_reads, seed=seed)
