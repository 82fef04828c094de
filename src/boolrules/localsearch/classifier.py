"""`RuleClassifier`: the native simulated-annealing rule learner as a scikit-learn estimator."""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.managers
import os
import sys
import threading
import time
import warnings
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from functools import partial
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from joblib.parallel import get_active_backend
from sklearn.utils._param_validation import StrOptions

from ..backends.config import BackendSpec, opened_backend, problem_caps
from ..estimator import RuleEstimator
from ..exceptions import InputError
from ..metrics import balanced_sample_weight
from ..rules import KEEP, OPERATORS, And, BitMatrix, Keep, Or, Rule, Shape, resolve_nonlocal_operators, resolve_operators
from ..rules.shapes import OperatorSpec
from ..seeding import draw_seed
from ..validation import Interval, check_number
from ..workers import WORKER_STARTUP, local_workers, watch_parent, worker_task
from .annealing import RuleScorer, StartResult, anneal
from .moves import SearchSpace
from .oracle import POLICIES, CallTimes, NonLocalOracle, OracleStats
from .payoff import Payoff

__all__ = ["RuleClassifier", "SearchConfig", "configured_max_samples"]

ALL_OPERATORS = tuple(OPERATORS)
# nonlocal_operators="auto" adds these moves on `native` under the "random" policy: DNF and CNF of up to three
# terms, with which the planted three-term DNF and CNF are recovered, and keeping a sub-rule of a node beside a
# solved partner (`rules.Keep`), with which the nested planted rule is; at equal wall time the fit is at or
# above local-only on every bundled dataset (issue 28, benchmarks/studies/native-depth-two.md)
AUTO_MOVES = (Shape("DNF", Or, And, max_terms=3), Shape("CNF", And, Or, max_terms=3), KEEP)
# Under a time budget, non-local moves wait for this share of each start's schedule by default: they
# pay per second when they refine a cooled-down rule (benchmarks/README.md, "Non-local moves per second").
BUDGET_BURN_IN = 0.7
# nonlocal_time_limit="auto": each oracle call's limit is this share of its start's slice under a time
# budget, and AUTO_CALL_LIMIT (also its cap) without one: under a budget many short calls, each returning
# the solver's incumbent, recover more than a few long ones (benchmarks/README.md, "Non-local moves per second").
BUDGET_CALL_SHARE = 0.004
AUTO_CALL_LIMIT = 1.0
# ... and a depth-two shape whose calls stop at their limit without a proof earns twice its limit, up to
# this share of the slice (`NonLocalOracle`): a three-term DNF/CNF call needs about 0.3 s, 0.04 of a 7.5 s
# slice, where depth-one calls keep to the short limit (benchmarks/studies/native-depth-two.md).
ESCALATION_CAP_SHARE = 0.1
# max_samples="auto": rows per non-local subproblem. `native` scores 64 rows per word, so more rows cost
# it little and make its moves fit the whole data better (benchmarks/README.md, "Native keeps to short
# limits"); on the other backends every row is an ILP constraint or a QUBO variable, so the paper's 100.
NATIVE_MAX_SAMPLES = 400
PAPER_MAX_SAMPLES = 100
# A budgeted fit runs its starts on joblib workers only when they are expected to be up within this
# share of the time left (`workers.WORKER_STARTUP`); else one after another here, which does more
# search in the time than workers that start late, and never waits past the budget for them.
PARALLEL_STARTUP_SHARE = 1 / 3


@dataclass(frozen=True)
class SearchConfig:
    """What every start of one fit shares: the search space, objective and schedule, and the
    non-local moves (`nonlocal_backend` None: local moves only; else a backend spec or `Backend`).
    Non-local moves wait for `burn_in` iterations and `burn_in_progress` of each start's schedule."""

    space: SearchSpace
    metric: str
    lam: float
    num_iterations: int | None
    temperatures: tuple[float, float]
    record: bool
    nonlocal_backend: object
    nonlocal_operators: tuple | str  # operator classes and depth-two `Shape`s, or "auto" (`oracle_operators`)
    burn_in: int
    burn_in_progress: float
    oracle_share: float | str  # of a start's time, or "auto" (`payoff.Payoff`)
    patience: int
    max_samples: int | str | None  # rows, "auto" (`oracle_max_samples`) or None (every row)
    nonlocal_time_limit: float | str | None  # seconds, "auto" or None
    nonlocal_policy: str
    scan_moves: float
    quench: bool
    initial: tuple[int, Rule] | None = None  # (seed, rule): the start of that seed begins from the rule


def _oracle_factory(X, y, bits, config: SearchConfig, backend):
    """(rng, until) -> NonLocalOracle for one start on `backend`; the oracles of one factory (the
    starts on one process) share their `CallTimes` and `Payoff`."""
    weights = np.ones(len(y)) if config.metric == "accuracy" else balanced_sample_weight(y)
    call_times, payoff = CallTimes(), Payoff()

    def factory(rng, until=None):
        return NonLocalOracle(
            bits, X, y, weights, config.space, backend,
            operators=oracle_operators(config.nonlocal_operators, backend, config.nonlocal_policy,
                                       config.space.operators),
            max_samples=oracle_max_samples(config.max_samples, backend),
            time_limit=call_limit(config.nonlocal_time_limit, until),
            max_time_limit=call_cap(config.nonlocal_time_limit, until), rng=rng, until=until,
            policy=config.nonlocal_policy, call_times=call_times, payoff=payoff,
        )

    return factory


def configured_max_samples(setting: int | str | None, spec) -> int | str | None:
    """`max_samples=setting` for the non-local backend `spec`: "auto" becomes the `[problem]`
    max_samples of a TOML backend file that has one; None (every row) stays."""
    if setting is None:
        return None
    if setting != "auto":
        return int(setting)
    return ({} if spec is None else problem_caps(spec)).get("max_samples", "auto")


def auto_moves(backend, policy: str) -> tuple:
    """The moves `nonlocal_operators="auto"` adds to the operators: `AUTO_MOVES` on `native` under the
    "random" policy, where they were measured to pay; none elsewhere (a backend may take no depth-two problem)."""
    return AUTO_MOVES if getattr(backend, "name", None) == "native" and policy == "random" else ()


def builds_within(move, operators) -> bool:
    """Whether the operators `move` builds are among `operators` (classes or names): an operator
    itself, a shape's two, And or Or for keep (which builds whichever of them the search space allows)."""
    names = {op if isinstance(op, str) else op.__name__ for op in operators}
    if isinstance(move, type):
        return move.__name__ in names
    if isinstance(move, Keep):
        return bool({"And", "Or"} & names)
    return {move.outer.__name__, move.inner.__name__} <= names


def oracle_operators(setting: tuple | str, backend, policy: str, operators=ALL_OPERATORS) -> tuple:
    """What non-local moves may put at a node for `nonlocal_operators=setting` on `backend`: "auto"
    is the search's `operators` and those of `auto_moves` that build only operators among them (the
    search space refuses any other, and each refusal would be a wasted call)."""
    if setting != "auto":
        return setting
    moves = tuple(move for move in auto_moves(backend, policy) if builds_within(move, operators))
    return resolve_nonlocal_operators(tuple(operators) + moves)


def oracle_max_samples(setting: int | str | None, backend) -> int | None:
    """Rows per non-local subproblem for `max_samples=setting` on `backend`: "auto" is
    `NATIVE_MAX_SAMPLES` on native and `PAPER_MAX_SAMPLES` on the others; None is every row."""
    if setting != "auto":
        return setting
    return NATIVE_MAX_SAMPLES if backend.name == "native" else PAPER_MAX_SAMPLES


def call_limit(setting: float | str | None, until: float | None) -> float | None:
    """Seconds per oracle call for `nonlocal_time_limit=setting` in a start that ends at `until` (a
    `time.monotonic()` value, None without a budget): "auto" is `BUDGET_CALL_SHARE` of the slice left,
    at most `AUTO_CALL_LIMIT`, which is also its value without a budget."""
    if setting != "auto":
        return setting
    if until is None:
        return AUTO_CALL_LIMIT
    return min(AUTO_CALL_LIMIT, BUDGET_CALL_SHARE * max(0.0, until - time.monotonic()))


def call_cap(setting: float | str | None, until: float | None) -> float | None:
    """The most seconds a depth-two shape's calls may earn (`NonLocalOracle`'s `max_time_limit`) for
    `nonlocal_time_limit=setting` in a start that ends at `until`: under a time budget, "auto" is
    `ESCALATION_CAP_SHARE` of the slice left; else None, every call keeps its limit."""
    if setting != "auto" or until is None:
        return None
    return ESCALATION_CAP_SHARE * max(0.0, until - time.monotonic())


def _run_starts(X, y, config: SearchConfig, seeds, deadline: float | None = None, report=None,
                parent: int | None = None) -> tuple[float, list[StartResult]]:
    """Independent annealing starts on one process (a joblib task), and the `time.time()` at which
    they could begin (after opening the non-local backend). With a `deadline` (a `time.time()`
    value: the one clock that processes share), each start gets an equal share of the time left
    then for it and the starts after it, so one that ends early leaves its time to them, and a task
    that begins late gets the time left, not a fresh share. `report(event)`, if given, hears of each
    oracle call ("call") and each start that ends ("start"). A worker whose `parent` (the fitting
    process's pid) dies ends with it (`workers.worker_task`)."""
    with worker_task(parent):
        return _starts(X, y, config, seeds, deadline, report)


def _starts(X, y, config: SearchConfig, seeds, deadline, report) -> tuple[float, list[StartResult]]:
    bits = BitMatrix(X, checked=True)
    scorer = RuleScorer(bits, y, config.metric, config.lam)
    end = None if deadline is None else time.monotonic() + (deadline - time.time())
    calls = None if report is None else lambda stats: report("call")

    def run(factory) -> tuple[float, list[StartResult]]:
        began, results = time.time(), []
        for j, seed in enumerate(seeds):
            until = None
            if end is not None:
                now = time.monotonic()
                until = now + max(0.0, end - now) / (len(seeds) - j)
            oracle = None if factory is None else partial(factory, until=until)
            results.append(_anneal(scorer, config, seed, oracle, until, calls))
            if report is not None:
                report("start")
        return began, results

    with _frozen_heap(deadline is not None):
        if config.nonlocal_backend is None:
            return run(None)
        with opened_backend(config.nonlocal_backend, "nonlocal_backend") as backend:
            return run(_oracle_factory(X, y, bits, config, backend))


@contextmanager
def _frozen_heap(freeze: bool):
    """With `freeze`, the objects that exist now (numpy's, scikit-learn's, Pyomo's: hundreds of
    thousands) are out of the garbage collector's sight within the block (`gc.freeze`), and back
    after it: a full collection over them stalled a start for 0.3-0.6 s on a loaded machine, past
    its time slice and into the later starts' (benchmarks/README.md, "Budgets that hold")."""
    if not freeze:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _anneal(scorer, config: SearchConfig, seed, factory, until, report) -> StartResult:
    return anneal(
        scorer, config.space, num_iterations=config.num_iterations, temperatures=config.temperatures,
        seed=int(seed), record=config.record, oracle_factory=factory, burn_in=config.burn_in,
        patience=config.patience, until=until, burn_in_progress=config.burn_in_progress, report=report,
        scan_rate=config.scan_moves, oracle_share=config.oracle_share, quench=config.quench,
        initial=config.initial[1] if config.initial is not None and seed == config.initial[0] else None,
    )


def _sum_stats(stats) -> OracleStats | None:
    stats = [s for s in stats if s is not None]
    return sum(stats, OracleStats()) if stats else None


class RuleClassifier(RuleEstimator):
    """Learns an expressive Boolean rule by simulated annealing over rules (paper Section 4).

    Maximises `S - lam * C` (S = `metric`, C = complexity) with `num_starts` independent
    starts of `num_iterations` local moves each, on a geometric temperature schedule from
    `temperatures[0]` to `temperatures[1]`; the best rule over all starts is kept.

    With `time_budget`, the fit is anytime: every start gets an equal share of the time left when it
    begins (the starts that run one after another on a process share it, so one that ends early
    leaves its time to the next), cools down over its slice or its `num_iterations`, whichever ends
    first (so a start cut by time still ends cold), and the best rule found when the budget is spent
    is returned; `n_iter_` says how far each start got.

    Parameters
    ----------
    max_complexity : int, >= 3. Most nodes (literals + operators) a rule may have.
    max_depth : int or None. Deepest root-to-leaf path allowed (None: unbounded).
    operators : names or rule classes the search may use.
    num_starts : independent starts.
    num_iterations : iterations per start; with `time_budget` a cap, or None for none.
    time_budget : None, or seconds > 0 for the whole fit: wall time from `fit()` to its return,
        input checks, binarization and starting workers included (with more than two classes,
        shared among the one-vs-rest fits). A budgeted fit stops on time and depends on the
        machine's speed, so it does not repeat exactly even with `random_state`. Each non-local
        call gets at most the time left in its start's slice as its time limit, on every backend
        that takes one (the ILP solvers, the samplers that take num_reads, Leap); a solve still
        running when the slice ends (an `sa` read, a QUBO compile, a backend without a time
        limit) is left to end in the background, its answer unused, and no move is proposed
        while it runs or when a mean move would not fit in the slice's time left. With `n_jobs`,
        the starts run on joblib's workers only when these are expected up within a third of the
        budget (their start-up as last measured in this process, else `workers.COLD_START_SECONDS`;
        none for threads), else one after another here.
    temperatures : (high, low) of the geometric schedule.
    lam : complexity penalty λ.
    metric : name of the score S (see `boolrules.metrics.METRICS`).
    n_jobs : joblib workers for the starts (None: one process).
    random_state : seeds every random choice (int, RandomState or None), including the seeds of an
        unseeded sampler backend for non-local moves; a fit with a `time_budget`, and a solve cut
        short by `nonlocal_time_limit`, depend on the machine's speed, so only searches without a
        budget whose solves finish in time repeat exactly.
    binarizer : "auto" binarizes non-0/1 input with `QuantileBinarizer(num_bins="auto")` (10
        quantiles a numeric column below 1000 rows, then one per 100 rows up to 30, and a cut above a
        value that fills a bin), None demands 0/1 input, or a transformer instance to use.
    record_trajectory : keep each start's per-iteration record in `starts_`.
    verbose : show progress on stderr: starts done, oracle calls, elapsed time (and a note when
        non-local moves run without a `time_budget`).
    nonlocal_backend : None (local moves only), or a backend name, `Backend` or TOML config path for non-local moves
        (paper Section 4.6): a subtree is replaced by the best depth-one subtree that backend finds.
    nonlocal_operators : operators the non-local moves may put at the replaced node, and depth-two
        shapes: "DNF" (an Or of Ands), "CNF" (an And of Ors) or a `rules.Shape` with other bounds
        (default 2 terms, literals per term as the complexity budget allows), which the "random"
        policy tries at the root, by Thompson sampling on whether its moves have lowered the error,
        and within a quarter of the oracle's seconds (`oracle.NonLocalOracle`); and "keep": a node
        becomes And(C, N) or Or(C, N), C the node or an operator below it, N a solved depth-one
        subtree (`rules.Keep`). "auto": the search's `operators`, and on `native` under the "random"
        policy also DNF and CNF moves of up to three terms and "keep" (`AUTO_MOVES`) where they
        build only those operators. Every operator given,
        and a shape's two, must be among `operators` (fit raises otherwise: the search would refuse
        the move).
    num_iterations_burn_in : iterations before non-local moves are allowed (None: the first third).
        With `time_budget`, the same share of each start's schedule: `num_iterations_burn_in /
        num_iterations` of its progress (None: the first 70%, `BUDGET_BURN_IN`, so the oracle
        refines the cooled-down rule; with `num_iterations=None`, it counts iterations).
    patience : iterations without a new best before a non-local move is proposed.
    max_samples : most samples in a non-local subproblem (a random subset beyond that), or "auto":
        the `[problem]` max_samples of a TOML `nonlocal_backend` that has one, else 400 on `native`
        (its cost grows little with rows) and 100 on the others (each row an ILP constraint or a
        QUBO variable; the paper's value); None: every row (as in `DepthOneClassifier`).
    nonlocal_time_limit : seconds per non-local solve, for backends that take a time limit: the
        ILP solvers, Leap, and samplers that take num_reads (their reads run in batches and stop
        between batches; a solver stopped by it returns its incumbent); None: the backend's own;
        "auto": 1 s, and under a `time_budget` 0.4% of each start's slice (at most 1 s; 0.03 s for
        4 starts sharing 30 s), as many short calls find more than a few long ones; there, a depth-two
        shape whose call stops at its limit unproven gets twice the limit next time, up to 10% of the
        slice (half after one that ends early): a three-term DNF needs about 0.3 s. Never more than
        the start's slice has left under a `time_budget`. Leap's hybrid solvers refuse less than their minimum, about 3 s.
    nonlocal_time_share : under a `time_budget`, the most of each start's time so far that oracle
        calls may take (a call is made only while some is left, with what is left as its time limit),
        so the local search keeps the rest; without a budget it is unused and the fit repeats exactly.
        "auto": 0.25 while the calls of this fit's starts raise the best objective per second at least
        as fast as local iterations do once calls are allowed, shrinking toward 0 by the ratio of those
        rates where they do not (`localsearch/payoff.py`).
    nonlocal_policy : how a non-local move picks its node and operator: "random" a uniform node and
        operator (the paper's Algorithm 2); "gain" a node drawn by the error weight its replacement
        could remove (no call when the rule is right everywhere) and the operator by Thompson
        sampling on past wins (with HiGHS no better per second: benchmarks/README.md); "sweep" a
        uniform node and every operator on its subproblem, keeping the best (one call per operator).
    scan_moves : fraction of the local proposals that are literal scans instead: every literal
        scored in one vectorised pass as the replacement of a random node or a new child of it,
        one drawn by its objective at the current temperature (`localsearch/scan.py`).
    quench : end each start with a steepest ascent from its best rule over all its local moves, to
        a local optimum (`localsearch/descent.py`; a few milliseconds, 2% of a start's slice under a
        `time_budget`): annealing's best rule is often one move from a better one.
    init_rule : None, or a `Rule` over the binary features, within `max_complexity`, `max_depth` and
        `operators`, that the first start begins from instead of a random rule (a warm start:
        `RuleClassifierCV` passes a smaller complexity's rule); the fit is never worse than it, and
        the other starts, from random rules, keep the search diverse.

    Attributes
    ----------
    best_rule_ (the rule the search found), rule_ (its canonical form, `Rule.simplify`: same
    predictions, never more nodes), best_score_ (metric on the training data), best_objective_,
    classes_, feature_names_ (names of the binary features, or None), rule_text_ and
    rule_description_ (`rule_` with those names, as a formula and in plain language), binarizer_
    (fitted transformer or None), starts_ (one `StartResult` per start), estimators_ (one binary
    classifier per class when there are more than two classes), nonlocal_stats_ (oracle calls,
    proposed moves, failures by kind, and what the solver did itself: calls whose raw answer was a
    valid rule, moves by the stage that made them; `OracleStats`, summed over the starts), n_iter_ (iterations each start
    ran, an array), fit_seconds_ (wall seconds from `fit()` to its return); each start's `annealed_objective` and
    `quench_steps` tell what the annealing found from what the quench added.
    """

    _parameter_constraints: dict = {
        **RuleEstimator._parameter_constraints,
        "max_complexity": [Interval(Integral, 3, None, closed="left")],
        "max_depth": [None, Interval(Integral, 1, None, closed="left")],
        "operators": [OperatorSpec(several=True)],
        "num_starts": [Interval(Integral, 1, None, closed="left")],
        "num_iterations": [None, Interval(Integral, 1, None, closed="left")],
        "time_budget": [None, Interval(Real, 0, None, closed="neither")],
        "temperatures": ["array-like"],
        "lam": [Interval(Real, 0, None, closed="left")],
        "n_jobs": [None, Interval(Integral, None, -1, closed="right"), Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "record_trajectory": ["boolean"],
        "verbose": ["verbose"],
        "nonlocal_backend": [None, BackendSpec("nonlocal_backend")],
        "nonlocal_operators": [StrOptions({"auto"}), OperatorSpec(several=True, shapes=True)],
        "num_iterations_burn_in": [None, Interval(Integral, 0, None, closed="left")],
        "patience": [Interval(Integral, 0, None, closed="left")],
        "max_samples": [None, StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "nonlocal_time_limit": [None, StrOptions({"auto"}), Interval(Real, 0, None, closed="left")],
        "nonlocal_time_share": [StrOptions({"auto"}), Interval(Real, 0, 1, closed="right")],
        "nonlocal_policy": [StrOptions(set(POLICIES))],
        "scan_moves": [Interval(Real, 0, 1, closed="both")],
        "quench": ["boolean"],
        "init_rule": [None, Rule],
    }

    def __init__(
        self,
        max_complexity=10,
        max_depth=None,
        operators=ALL_OPERATORS,
        num_starts=20,
        num_iterations=2000,
        time_budget=None,
        temperatures=(0.2, 1e-6),
        lam=0.0,
        metric="balanced_accuracy",
        n_jobs=None,
        random_state=None,
        binarizer="auto",
        record_trajectory=False,
        verbose=False,
        nonlocal_backend=None,
        nonlocal_operators="auto",
        num_iterations_burn_in=None,
        patience=10,
        max_samples="auto",
        nonlocal_time_limit="auto",
        nonlocal_time_share=0.25,
        nonlocal_policy="random",
        scan_moves=0.0,
        quench=True,
        init_rule=None,
    ):
        self.max_complexity = max_complexity
        self.max_depth = max_depth
        self.operators = operators
        self.num_starts = num_starts
        self.num_iterations = num_iterations
        self.time_budget = time_budget
        self.temperatures = temperatures
        self.lam = lam
        self.metric = metric
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.binarizer = binarizer
        self.record_trajectory = record_trajectory
        self.verbose = verbose
        self.nonlocal_backend = nonlocal_backend
        self.nonlocal_operators = nonlocal_operators
        self.num_iterations_burn_in = num_iterations_burn_in
        self.patience = patience
        self.max_samples = max_samples
        self.nonlocal_time_limit = nonlocal_time_limit
        self.nonlocal_time_share = nonlocal_time_share
        self.nonlocal_policy = nonlocal_policy
        self.scan_moves = scan_moves
        self.quench = quench
        self.init_rule = init_rule

    def _check_params(self):
        self._temperatures()
        if self.num_iterations is None and self.time_budget is None:
            raise InputError("num_iterations=None (no cap on iterations) needs a time_budget to end the search; "
                             "give num_iterations or time_budget=SECONDS")

    def _one_vs_rest_params(self, num_classes: int) -> dict:
        return {} if self.time_budget is None else {"time_budget": self.time_budget / num_classes}

    def _fit(self, X, y):
        """The fit, timed from here: a `time_budget` ends at a deadline fixed now, so input checks,
        binarization and starting workers count against it, and `fit_seconds_` is all of it."""
        began = time.monotonic()
        self._deadline = None if self.time_budget is None else began + float(self.time_budget)
        try:
            super()._fit(X, y)
        finally:
            del self._deadline
        self.fit_seconds_ = time.monotonic() - began
        return self

    def _temperatures(self) -> tuple[float, float]:
        try:
            high, low = self.temperatures
        except (TypeError, ValueError):
            raise InputError(f"temperatures must be a pair (high, low), got {self.temperatures!r}") from None
        high, low = check_number(high, "temperatures[0]"), check_number(low, "temperatures[1]")
        if not high >= low > 0:
            raise InputError(f"temperatures must be (high, low) with high >= low > 0, got {self.temperatures!r}")
        return high, low

    def _fit_binary(self, X, y, rng):
        if X.shape[1] < 2:
            raise InputError(f"rules need at least 2 binary features, X has {X.shape[1]}")
        seeds = draw_seed(rng, size=self.num_starts)
        config = self._search_config(X.shape[1])
        if self.init_rule is not None:  # the first start begins from it
            config = replace(config, initial=(int(seeds[0]), self._init_rule(config.space)))
        self.starts_ = self._run(X, y, config, seeds, self._deadline)
        self.n_iter_ = np.array([s.iterations for s in self.starts_])
        best = max(self.starts_, key=lambda r: r.objective)
        self.best_rule_ = best.rule
        self.best_score_ = best.score
        self.best_objective_ = best.objective
        self.nonlocal_stats_ = _sum_stats([s.oracle for s in self.starts_])
        self._warn_failures(self.nonlocal_stats_)

    def _warn_failures(self, stats: OracleStats | None) -> None:
        """A RuntimeWarning naming the non-local backend when it failed on most oracle calls: the
        search then ran mostly without non-local moves, which its result alone does not show."""
        if stats is None or 2 * stats.failed <= stats.calls:
            return
        backend = getattr(self.nonlocal_backend, "name", self.nonlocal_backend)
        kinds = ", ".join(f"{kind} {count}" for kind, count in stats.failures.items())
        warnings.warn(f"the non-local backend {backend!r} failed on {stats.failed} of {stats.calls} oracle calls "
                      f"({kinds}): the search ran mostly without non-local moves", RuntimeWarning, stacklevel=4)

    def _search_config(self, num_features: int) -> SearchConfig:
        num_iterations = None if self.num_iterations is None else int(self.num_iterations)
        burn_in, burn_in_progress = self._burn_in(num_iterations)
        space = SearchSpace(
            num_features, resolve_operators(self.operators), int(self.max_complexity),
            None if self.max_depth is None else int(self.max_depth),
        )
        return SearchConfig(
            space=space,
            metric=self.metric,
            lam=float(self.lam),
            num_iterations=num_iterations,
            temperatures=self._temperatures(),
            record=bool(self.record_trajectory),
            nonlocal_backend=self.nonlocal_backend,
            nonlocal_operators=self._nonlocal_operators(space),
            burn_in=burn_in,
            burn_in_progress=burn_in_progress,
            oracle_share=self.nonlocal_time_share if isinstance(self.nonlocal_time_share, str) else float(
                self.nonlocal_time_share),
            patience=int(self.patience),
            max_samples=configured_max_samples(self.max_samples, self.nonlocal_backend),
            nonlocal_time_limit=self.nonlocal_time_limit,
            nonlocal_policy=self.nonlocal_policy,
            scan_moves=float(self.scan_moves),
            quench=bool(self.quench),
        )

    def _nonlocal_operators(self, space: SearchSpace) -> tuple | str:
        """`nonlocal_operators` resolved ("auto" as it is); with a non-local backend, an error naming
        those that build an operator outside `operators`: the search space would refuse each such move."""
        if isinstance(self.nonlocal_operators, str) and self.nonlocal_operators == "auto":
            return "auto"
        moves = resolve_nonlocal_operators(self.nonlocal_operators, "nonlocal_operators")
        outside = [str(getattr(move, "__name__", move)) for move in moves if not builds_within(move, space.operators)]
        if outside and self.nonlocal_backend is not None:
            searched = ", ".join(op.__name__ for op in space.operators)
            raise InputError(f"nonlocal_operators {', '.join(outside)} would build operators outside "
                             f"operators=({searched}), which the search refuses: add them to operators or drop them")
        return moves

    def _init_rule(self, space: SearchSpace) -> Rule:
        """`init_rule` (given), checked to be a rule the search may build."""
        try:
            space.validate(self.init_rule)
        except InputError as err:
            raise InputError(f"init_rule: {err}") from None
        return self.init_rule

    def _burn_in(self, num_iterations: int | None) -> tuple[int, float]:
        """(iterations, share of progress) before non-local moves: iterations without a time budget,
        progress with one (iterations when there is no num_iterations to relate them to)."""
        given = self.num_iterations_burn_in
        if self.time_budget is None:
            return (num_iterations // 3 if given is None else int(given)), 0.0
        if given is None:
            return 0, BUDGET_BURN_IN
        if num_iterations is None:
            return int(given), 0.0
        return 0, min(1.0, int(given) / num_iterations)

    def _run(self, X, y, config: SearchConfig, seeds, end: float | None) -> list[StartResult]:
        """The starts, one at a time on this process (which builds the non-local backend once), or in
        chunks over joblib workers (each building its own from the spec), all before `end` (a
        `time.monotonic()` value; None: no budget). Under a budget, workers are used only when they
        are expected up in time (`PARALLEL_STARTUP_SHARE`)."""
        workers = 1 if self.n_jobs in (None, 1) else min(len(seeds), effective_n_jobs(self.n_jobs))
        joblib_backend = get_active_backend()[0]
        threads, local = bool(getattr(joblib_backend, "uses_threads", False)), local_workers(joblib_backend)
        startup_of = WORKER_STARTUP[type(joblib_backend)]
        startup, warm = startup_of.expected(workers, threads), startup_of.warm(workers)
        serial = workers == 1 or (end is not None and startup > PARALLEL_STARTUP_SHARE * (end - time.monotonic()))
        building = serial and config.nonlocal_backend is not None
        progress = _Progress(len(seeds), parallel=not serial and local) if self.verbose else nullcontext()
        opened = opened_backend(config.nonlocal_backend, "nonlocal_backend") if building else nullcontext()
        with progress, opened as backend:
            if building:
                config = replace(config, nonlocal_backend=backend)
            if self.verbose and config.nonlocal_backend is not None and end is None:
                progress.note(
                    f"non-local moves without a time budget: {len(seeds)} starts x {config.num_iterations} iterations "
                    "run to their end, however long that takes; set time_budget=SECONDS (--time-budget in the CLI) "
                    "to bound the fit")
            if self.verbose and serial and workers > 1:
                progress.note(f"starts run one after another: {workers} workers are expected to take {startup:.1f} s "
                              "to start, too much of the time budget")
            if self.verbose and not serial and not local:
                progress.note("starts on remote workers (a Dask cluster's) are counted as their tasks return; "
                              "their oracle calls are not")
            report = progress.reporter() if self.verbose and (serial or local) else None
            deadline = None if end is None else time.time() + (end - time.monotonic())
            if serial:
                return _run_starts(X, y, config, seeds, deadline, report)[1]
            chunks = np.array_split(seeds, workers)
            parallel = Parallel(n_jobs=len(chunks))  # a worker per chunk: n_jobs=10000 for 2 starts starts 2
            sent = time.time()
            done = parallel(delayed(_run_starts)(X, y, config, chunk, deadline, report, os.getpid()) for chunk in chunks)
            if report is None and self.verbose:
                progress.bar.update(len(seeds))
            if not threads:
                startup_of.measured(max(began for began, _ in done) - sent, workers, cold=not warm)
            return [r for _, chunk in done for r in chunk]


class _Progress:
    """The progress bar of a verbose fit, on stderr: starts done, oracle calls, elapsed time.
    `reporter()` is what the starts call with each event ("call": an oracle call ended, "start": a
    start ended); joblib workers send theirs through a queue that a thread here reads (with
    `parallel`: workers on this machine, `workers.local_workers`; remote ones report nothing)."""

    def __init__(self, total: int, parallel: bool):
        from tqdm.auto import tqdm

        self.bar = tqdm(total=total, desc="starts", unit="start")
        self.calls = 0
        self.manager = self.queue = self.thread = None
        if parallel:
            self.manager = multiprocessing.managers.SyncManager()
            self.manager.start(watch_parent, (os.getpid(),))  # its server ends with this process too
            self.queue = self.manager.Queue()
            self.thread = threading.Thread(target=self._read, daemon=True)
            self.thread.start()

    def __call__(self, event: str) -> None:
        if event == "call":
            self.calls += 1
            self.bar.set_postfix_str(f"oracle calls {self.calls}", refresh=False)
            self.bar.update(0)  # redraws at most every `mininterval` seconds
        else:
            self.bar.update()

    def reporter(self):
        return self if self.queue is None else self.queue.put

    def note(self, text: str) -> None:
        self.bar.write(text, file=sys.stderr)

    def _read(self) -> None:
        while (event := self.queue.get()) is not None:
            self(event)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc_info) -> None:
        if self.queue is not None:
            self.queue.put(None)
            self.thread.join()
            self.manager.shutdown()
        self.bar.close()
