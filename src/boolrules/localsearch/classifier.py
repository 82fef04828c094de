"""`RuleClassifier`: the native simulated-annealing rule learner as a scikit-learn estimator."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, replace
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from sklearn.utils._param_validation import StrOptions

from ..backends.config import opened_backend
from ..estimator import RuleEstimator
from ..metrics import balanced_sample_weight
from ..rules import OPERATORS, BitMatrix, Operator, resolve_operators
from ..validation import BackendSpec, Interval, OperatorSpec, check_number
from .annealing import RuleScorer, StartResult, anneal
from .moves import SearchSpace
from .oracle import POLICIES, NonLocalOracle, OracleStats

__all__ = ["RuleClassifier", "SearchConfig"]

ALL_OPERATORS = tuple(OPERATORS)


@dataclass(frozen=True)
class SearchConfig:
    """What every start of one fit shares: the search space, objective and schedule, and the
    non-local moves (`nonlocal_backend` None: local moves only; else a backend spec or `Backend`)."""

    space: SearchSpace
    metric: str
    lam: float
    num_iterations: int
    temperatures: tuple[float, float]
    record: bool
    nonlocal_backend: object
    nonlocal_operators: tuple[type[Operator], ...]
    burn_in: int
    patience: int
    max_samples: int
    nonlocal_time_limit: float | None
    nonlocal_policy: str
    scan_moves: float


def _oracle_factory(X, y, bits, config: SearchConfig, backend):
    """rng -> NonLocalOracle for one start on `backend`."""
    weights = np.ones(len(y)) if config.metric == "accuracy" else balanced_sample_weight(y)

    def factory(rng):
        return NonLocalOracle(
            bits, X, y, weights, config.space, backend, operators=config.nonlocal_operators,
            max_samples=config.max_samples, time_limit=config.nonlocal_time_limit, rng=rng,
            policy=config.nonlocal_policy,
        )

    return factory


def _run_starts(X, y, config: SearchConfig, seeds) -> list[StartResult]:
    """Independent annealing starts on one process (a joblib task)."""
    bits = BitMatrix(X, checked=True)
    scorer = RuleScorer(bits, y, config.metric, config.lam)
    if config.nonlocal_backend is None:
        return [_anneal(scorer, config, seed, None) for seed in seeds]
    with opened_backend(config.nonlocal_backend, "nonlocal_backend") as backend:
        factory = _oracle_factory(X, y, bits, config, backend)
        return [_anneal(scorer, config, seed, factory) for seed in seeds]


def _anneal(scorer, config: SearchConfig, seed, factory) -> StartResult:
    return anneal(
        scorer, config.space, num_iterations=config.num_iterations, temperatures=config.temperatures,
        seed=int(seed), record=config.record, oracle_factory=factory, burn_in=config.burn_in,
        patience=config.patience, scan_rate=config.scan_moves,
    )


def _sum_stats(stats) -> OracleStats | None:
    stats = [s for s in stats if s is not None]
    if not stats:
        return None
    total = OracleStats()
    for s in stats:
        total.calls += s.calls
        total.proposed += s.proposed
        total.nothing += s.nothing
        for kind, count in s.failures.items():
            total.failures[kind] = total.failures.get(kind, 0) + count
    return total


class RuleClassifier(RuleEstimator):
    """Learns an expressive Boolean rule by simulated annealing over rules (paper Section 4).

    Maximises `S - lam * C` (S = `metric`, C = complexity) with `num_starts` independent
    starts of `num_iterations` local moves each, on a geometric temperature schedule from
    `temperatures[0]` to `temperatures[1]`; the best rule over all starts is kept.

    Parameters
    ----------
    max_complexity : int, >= 3. Most nodes (literals + operators) a rule may have.
    max_depth : int or None. Deepest root-to-leaf path allowed (None: unbounded).
    operators : names or rule classes the search may use.
    num_starts, num_iterations : the search effort.
    temperatures : (high, low) of the geometric schedule.
    lam : complexity penalty λ.
    metric : name of the score S (see `boolrules.metrics.METRICS`).
    n_jobs : joblib workers for the starts (None: one process).
    random_state : seeds every random choice (int, RandomState or None), including the seeds of an
        unseeded sampler backend for non-local moves; a solve cut short by `nonlocal_time_limit`
        depends on the machine's speed, so only searches whose solves finish in time repeat exactly.
    binarizer : "auto" binarizes non-0/1 input with `QuantileBinarizer`, None demands 0/1
        input, or a transformer instance to use.
    record_trajectory : keep each start's per-iteration record in `starts_`.
    verbose : show a progress bar over the starts.
    nonlocal_backend : None (local moves only), or a backend name, `Backend` or TOML config path for non-local moves
        (paper Section 4.6): a subtree is replaced by the best depth-one subtree that backend finds.
    nonlocal_operators : operators the non-local moves may put at the replaced node.
    num_iterations_burn_in : iterations before non-local moves are allowed (None: the first third).
    patience : iterations without a new best before a non-local move is proposed.
    max_samples : most samples in a non-local subproblem (a random subset beyond that).
    nonlocal_time_limit : seconds per non-local solve, for backends that take a time limit (None:
        the backend's own; Leap's hybrid solvers refuse less than their minimum, about 3 s).
    nonlocal_policy : how a non-local move picks its node and operator: "random" a uniform node and
        operator (the paper's Algorithm 2); "gain" a node drawn by the error weight its replacement
        could remove (no call when the rule is right everywhere) and the operator by Thompson
        sampling on past wins (with HiGHS no better per second: benchmarks/README.md).
    scan_moves : fraction of the local proposals that are literal scans instead: every literal
        scored in one vectorised pass as the replacement of a random node or a new child of it,
        one drawn by its objective at the current temperature (`localsearch/scan.py`).

    Attributes
    ----------
    best_rule_, best_score_ (metric on the training data), best_objective_, classes_,
    feature_names_ (names of the binary features, or None), rule_text_ (the rule with those
    names), binarizer_ (fitted transformer or None), starts_ (one `StartResult` per start),
    estimators_ (one binary classifier per class when there are more than two classes),
    nonlocal_stats_ (oracle calls, proposed moves, failures by kind, summed over the starts).
    """

    _parameter_constraints: dict = {
        **RuleEstimator._parameter_constraints,
        "max_complexity": [Interval(Integral, 3, None, closed="left")],
        "max_depth": [None, Interval(Integral, 1, None, closed="left")],
        "operators": [OperatorSpec(several=True)],
        "num_starts": [Interval(Integral, 1, None, closed="left")],
        "num_iterations": [Interval(Integral, 1, None, closed="left")],
        "temperatures": ["array-like"],
        "lam": [Interval(Real, 0, None, closed="left")],
        "n_jobs": [None, Interval(Integral, None, -1, closed="right"), Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "record_trajectory": ["boolean"],
        "verbose": ["verbose"],
        "nonlocal_backend": [None, BackendSpec("nonlocal_backend")],
        "nonlocal_operators": [OperatorSpec(several=True)],
        "num_iterations_burn_in": [None, Interval(Integral, 0, None, closed="left")],
        "patience": [Interval(Integral, 0, None, closed="left")],
        "max_samples": [Interval(Integral, 1, None, closed="left")],
        "nonlocal_time_limit": [None, Interval(Real, 0, None, closed="left")],
        "nonlocal_policy": [StrOptions(set(POLICIES))],
        "scan_moves": [Interval(Real, 0, 1, closed="both")],
    }

    def __init__(
        self,
        max_complexity=10,
        max_depth=None,
        operators=ALL_OPERATORS,
        num_starts=20,
        num_iterations=2000,
        temperatures=(0.2, 1e-6),
        lam=0.0,
        metric="balanced_accuracy",
        n_jobs=None,
        random_state=None,
        binarizer="auto",
        record_trajectory=False,
        verbose=False,
        nonlocal_backend=None,
        nonlocal_operators=ALL_OPERATORS,
        num_iterations_burn_in=None,
        patience=10,
        max_samples=100,
        nonlocal_time_limit=1.0,
        nonlocal_policy="random",
        scan_moves=0.0,
    ):
        self.max_complexity = max_complexity
        self.max_depth = max_depth
        self.operators = operators
        self.num_starts = num_starts
        self.num_iterations = num_iterations
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
        self.nonlocal_policy = nonlocal_policy
        self.scan_moves = scan_moves

    def _check_params(self):
        self._temperatures()

    def _temperatures(self) -> tuple[float, float]:
        try:
            high, low = self.temperatures
        except (TypeError, ValueError):
            raise ValueError(f"temperatures must be a pair (high, low), got {self.temperatures!r}") from None
        high, low = check_number(high, "temperatures[0]"), check_number(low, "temperatures[1]")
        if not high >= low > 0:
            raise ValueError(f"temperatures must be (high, low) with high >= low > 0, got {self.temperatures!r}")
        return high, low

    def _fit_binary(self, X, y, rng):
        if X.shape[1] < 2:
            raise ValueError(f"rules need at least 2 binary features, X has {X.shape[1]}")
        seeds = rng.randint(2**31 - 1, size=self.num_starts)
        self.starts_ = self._run(X, y, self._search_config(X.shape[1]), seeds)
        best = max(self.starts_, key=lambda r: r.objective)
        self.best_rule_ = best.rule
        self.best_score_ = best.score
        self.best_objective_ = best.objective
        self.nonlocal_stats_ = _sum_stats([s.oracle for s in self.starts_])

    def _search_config(self, num_features: int) -> SearchConfig:
        num_iterations = int(self.num_iterations)
        burn_in = self.num_iterations_burn_in
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
            nonlocal_operators=resolve_operators(self.nonlocal_operators, "nonlocal_operators"),
            burn_in=num_iterations // 3 if burn_in is None else int(burn_in),
            patience=int(self.patience),
            max_samples=int(self.max_samples),
            nonlocal_time_limit=self.nonlocal_time_limit,
            nonlocal_policy=self.nonlocal_policy,
            scan_moves=float(self.scan_moves),
        )

    def _run(self, X, y, config: SearchConfig, seeds) -> list[StartResult]:
        """The starts, one at a time on one process (which builds the non-local backend once), or in
        chunks over joblib workers (each building its own from the spec)."""
        serial = self.n_jobs in (None, 1)
        building = serial and config.nonlocal_backend is not None
        with opened_backend(config.nonlocal_backend, "nonlocal_backend") if building else nullcontext() as backend:
            if building:
                config = replace(config, nonlocal_backend=backend)
            if serial:
                chunks = [[seed] for seed in seeds]
                results = (_run_starts(X, y, config, chunk) for chunk in chunks)
            else:
                chunks = np.array_split(seeds, min(len(seeds), effective_n_jobs(self.n_jobs)))
                parallel = Parallel(n_jobs=self.n_jobs, return_as="generator")
                results = parallel(delayed(_run_starts)(X, y, config, chunk) for chunk in chunks)
            if self.verbose:
                from tqdm.auto import tqdm

                results = tqdm(results, total=len(chunks), desc="starts", unit="chunk")
            return [r for chunk in results for r in chunk]
