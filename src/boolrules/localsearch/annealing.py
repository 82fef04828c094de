"""One simulated-annealing start of the native local solver (paper Section 4.5, Algorithm 2).

The objective is `S - lam * C` with S the chosen metric. Rules are scored from two popcounts
on bit-packed predictions, and sub-rule results are memoised, so an iteration re-evaluates
only the path that its move changed. A start runs a fixed number of iterations, or with a time
slice it cools down over whichever comes first, the iterations or the slice (`schedule`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..exceptions import InputError, InputTypeError
from ..metrics import get_metric
from ..rules import BitMatrix, Rule
from ..validation import check_binary_labels, check_number
from .descent import descend
from .moves import LocalMoves, SearchSpace, random_rule
from .oracle import OracleStats
from .payoff import Payoff
from .scan import LiteralScan

__all__ = ["Trajectory", "StartResult", "RuleScorer", "anneal", "schedule"]

# Memoised results kept by one scorer (shared by the starts of one joblib task), in bytes; the memo is
# emptied when it grows past this.
_MEMO_BYTES = 64 * 2**20
# Share of a start's time slice kept for its quench (`descent.descend`, a few milliseconds per step).
QUENCH_SHARE = 0.02


class RuleScorer:
    """Scores rules on fixed packed data and labels with a metric and complexity penalty."""

    def __init__(self, bits: BitMatrix, y: np.ndarray, metric: str = "balanced_accuracy", lam: float = 0.0):
        if not isinstance(bits, BitMatrix):
            raise InputTypeError(f"bits must be a BitMatrix, got {type(bits).__name__}")
        self.bits = bits
        self.metric = get_metric(metric)
        self.lam = check_number(lam, "lam", 0)
        y = check_binary_labels(y, "y", bits.n)
        self.y_words = BitMatrix(y[:, None], checked=True).literal_words[0]
        self.num_pos = int(y.sum())
        self.num_neg = len(y) - self.num_pos
        self.memo: dict = {}
        self._memo_limit = max(256, _MEMO_BYTES // (8 * bits.num_words))

    def score(self, rule: Rule) -> float:
        """Metric value of `rule`'s predictions."""
        if len(self.memo) > self._memo_limit:
            self.memo.clear()
        pred = self.bits.evaluate(rule, self.memo)
        tp = int(np.bitwise_count(pred & self.y_words).sum())
        fp = int(np.bitwise_count(pred).sum()) - tp
        return self.metric(tp, fp, self.num_pos - tp, self.num_neg - fp)

    def objective(self, rule: Rule) -> tuple[float, float]:
        """`(score, score - lam * complexity)`."""
        s = self.score(rule)
        return s, s - self.lam * rule.complexity


@dataclass
class Trajectory:
    """Per-iteration record of one start: objective of the current rule, temperature, acceptance,
    and for non-local moves the objective change they proposed (NaN for local moves)."""

    objective: np.ndarray
    best_objective: np.ndarray
    temperature: np.ndarray
    accepted: np.ndarray
    nonlocal_gain: np.ndarray

    @classmethod
    def from_rows(cls, rows: list[tuple]) -> Trajectory:
        """From one `(objective, best_objective, temperature, accepted, nonlocal_gain)` per iteration."""
        columns = zip(*rows) if rows else ((),) * 5
        objective, best, temperature, accepted, gain = (np.array(c, dtype=float) for c in columns)
        return cls(objective, best, temperature, accepted.astype(bool), gain)

    @property
    def nonlocal_moves(self) -> np.ndarray:
        """Iterations whose proposal was a non-local move."""
        return np.flatnonzero(~np.isnan(self.nonlocal_gain))


@dataclass
class StartResult:
    """Best rule of one start with its score and objective, the iterations it ran and its wall
    seconds, the trajectory if recorded, and the non-local oracle's counts when it was used; with a
    quench, the objective the annealing alone reached and the quench's improving steps."""

    rule: Rule
    score: float
    objective: float
    seed: int
    iterations: int
    seconds: float
    trajectory: Trajectory | None = field(default=None, repr=False)
    oracle: OracleStats | None = None
    annealed_objective: float | None = None
    quench_steps: int = 0


def schedule(num_iterations: int | None, temperatures: tuple[float, float],
             until: float | None = None) -> Iterator[tuple[int, float, float]]:
    """`(iteration, temperature, progress)` of one start on a geometric schedule from
    `temperatures[0]` to `temperatures[1]`, where the temperature is `high * (low / high) ** progress`.

    Without `until`, `num_iterations` steps with progress `iteration / (num_iterations - 1)`.
    With `until` (a `time.monotonic()` value, the end of the start's time slice), progress is the
    larger of that and the share of the slice spent, so that a start cut by time still cools down
    fully; the start ends after the iteration whose progress reaches 1, or after `num_iterations`
    (a cap; None: none)."""
    high, low = temperatures
    if until is None and num_iterations is None:
        raise InputError("num_iterations=None needs a time limit (until) to end the schedule")
    if until is None:
        last = max(num_iterations - 1, 1)
        for it, temperature in enumerate(np.geomspace(high, low, num_iterations).tolist()):
            yield it, temperature, it / last
        return
    start = time.monotonic()
    seconds = until - start
    last = math.inf if num_iterations is None else max(num_iterations - 1, 1)
    ratio = low / high
    it = 0
    while num_iterations is None or it < num_iterations:
        elapsed = time.monotonic() - start
        progress = min(1.0, max(it / last, elapsed / seconds if seconds > 0 else 1.0))
        yield it, high * ratio**progress, progress
        if progress >= 1.0:
            return
        it += 1


def _allowance(share: float | str, elapsed: float, phase: float, spent: float, paid: Payoff, oracle) -> float:
    """Oracle seconds left to a start `elapsed` seconds in: `share` of them less the `spent` ones; with
    share "auto", the share the oracle's calls have earned (`Payoff.share`: this start's counts `paid`
    since its oracle's `phase` began, `phase` seconds in, with the earlier starts' on this process)."""
    if share == "auto":
        paid.oracle_seconds, paid.local_seconds = spent, elapsed - phase - spent
        share = oracle.payoff.share(oracle.call_times.mean, paid)
    return share * elapsed - spent


def anneal(
    scorer: RuleScorer,
    space: SearchSpace,
    *,
    num_iterations: int | None,
    temperatures: tuple[float, float],
    seed: int,
    record: bool = False,
    oracle_factory=None,
    burn_in: int = 0,
    patience: int = 10,
    until: float | None = None,
    burn_in_progress: float = 0.0,
    report=None,
    scan_rate: float = 0.0,
    oracle_share: float | str | None = None,
    quench: bool = False,
    initial: Rule | None = None,
) -> StartResult:
    """Run one start: random initial rule (or `initial`, a rule of `space`), then Metropolis-accepted
    moves on a geometric schedule (`schedule`: `num_iterations` steps, or with `until` until progress
    reaches 1).

    With `oracle_factory` (rng -> NonLocalOracle), after `burn_in` iterations and `burn_in_progress`
    of the schedule, and whenever `patience` iterations pass without a new best, the next proposal
    is a non-local move (Algorithm 2); when the oracle has nothing, a local move is proposed instead.
    Otherwise, with probability `scan_rate`, the proposal is a literal scan (`scan.LiteralScan`).
    With `until` and `oracle_share`, the oracle's seconds stay within that share of the start's
    time so far: it is called only when what is left of that share covers its mean move so far
    (the oracle's `call_times`, which the starts of one process share), with what is left as its
    time limit, so the local search keeps the rest of the clock; "auto": the share the oracle's calls
    have earned against local iterations (`payoff.Payoff`; a new best counts to the oracle when
    made by its move or by the local moves that climb from it until the next call). With `until`, a move is also
    proposed only while a mean one fits in the slice's time left and no solve left behind by an
    earlier slice runs (`oracle.CallTimes`), so that moves do not eat the later starts' time.
    `report(stats)`, if given, is called with the oracle's counts after each oracle call.
    With `quench`, the best rule then climbs to a local optimum (`descent.descend`); under `until`
    the schedule ends `QUENCH_SHARE` of the slice early to leave it time, and it stops at `until`."""
    started = time.perf_counter()
    cooled = until if until is None or not quench else until - QUENCH_SHARE * max(0.0, until - time.monotonic())
    rng = random.Random(seed)
    moves = LocalMoves(space, rng)
    oracle = None if oracle_factory is None else oracle_factory(rng)
    scan = LiteralScan(scorer, space, rng) if scan_rate else None
    current = random_rule(space, rng) if initial is None else initial
    score, objective = scorer.objective(current)
    best, best_score, best_objective = current, score, objective
    rows = [] if record else None
    lam = scorer.lam
    stale = 0
    iterations = 0
    oracle_seconds = 0.0
    times = None if oracle is None else oracle.call_times
    timed = until is not None and oracle_share is not None  # the oracle's seconds held to a share
    paid = Payoff()  # this start's, from when its oracle may first be called (`phase` seconds in)
    phase = None
    climb = False  # the current rule climbs from an oracle move accepted since the last call
    for it, temperature, progress in schedule(num_iterations, temperatures, cooled):
        proposed = None
        elapsed = time.perf_counter() - started if timed else 0.0
        if oracle is not None and phase is None and it >= burn_in and progress >= burn_in_progress:
            phase = elapsed
        allowance = None
        if (phase is not None and stale >= patience
                and (not timed or (allowance := _allowance(
                    oracle_share, elapsed, phase, oracle_seconds, paid, oracle)) > times.mean)
                and (until is None or (not times.busy and cooled - time.monotonic() > times.mean))):
            stale, climb = 0, False
            called = time.perf_counter()
            proposed = oracle.propose(current, scorer.memo, allowance)
            spent = time.perf_counter() - called
            oracle_seconds += spent
            oracle.stats.seconds += spent
            times.add(spent)
            if report is not None:
                report(oracle.stats)
        nonlocal_move = proposed is not None
        if proposed is None and scan is not None and rng.random() < scan_rate:
            proposed = scan.propose(current, temperature)
        if proposed is None:
            proposed = moves.propose(current)
        proposed_score = scorer.score(proposed)
        proposed_objective = proposed_score - lam * proposed.complexity
        delta = proposed_objective - objective
        accepted = delta >= 0 or rng.random() < math.exp(delta / temperature)
        stale += 1
        if accepted:
            current, score, objective = proposed, proposed_score, proposed_objective
            climb = climb or nonlocal_move
            if objective > best_objective:
                if phase is not None:
                    paid.credit(climb, objective - best_objective)
                best, best_score, best_objective = current, score, objective
                stale = 0
        if record:
            rows.append((objective, best_objective, temperature, accepted, delta if nonlocal_move else math.nan))
        iterations = it + 1
    if timed and phase is not None:
        paid.oracle_seconds, paid.local_seconds = oracle_seconds, elapsed - phase - oracle_seconds
        oracle.payoff.add(paid)
    stats = None if oracle is None else oracle.stats
    trajectory = Trajectory.from_rows(rows) if record else None
    annealed, steps = best_objective, 0
    if quench:
        best, best_score, best_objective, steps = descend(scorer, space, best, best_objective, until)
    return StartResult(best, best_score, best_objective, seed, iterations, time.perf_counter() - started,
                       trajectory, stats, annealed if quench else None, steps)
