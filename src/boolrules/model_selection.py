"""`RuleClassifierCV`: a `RuleClassifier` whose `max_complexity` (and `lam`) are chosen by
stratified cross-validation, the candidate of best mean validation score kept.

Rules overfit as `max_complexity` grows (issue 14). The one-standard-error rule (Breiman et al.,
CART: the simplest candidate within one standard error of the best mean) stays one option away:
on the eight bundled datasets it chose smaller rules that scored lower on held-out data (issue 25,
`benchmarks/README.md`, "RuleClassifierCV defaults").
"""

from __future__ import annotations

import os
import time
from numbers import Integral, Real

import numpy as np
from joblib import Parallel, delayed
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import _safe_indexing, get_tags
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from .estimator import RuleEstimator
from .exceptions import InputError
from .localsearch import RuleClassifier
from .localsearch.classifier import ALL_OPERATORS
from .metrics import score_counts
from .seeding import draw_seed
from .validation import check_binary_matrix
from .workers import worker_task

__all__ = ["RuleClassifierCV"]

DEFAULT_COMPLEXITIES = tuple(range(3, 16))


def _fit_candidate(X, y, rows, params, metric, seed, parent=None):
    """One candidate fitted on the rows `rows` (a fold's training rows, or all for the refit): the
    fitted `RuleClassifier` and the fit's wall seconds. A worker whose `parent` (the fitting
    process's pid) dies ends with it."""
    start = time.perf_counter()
    with worker_task(parent):
        clf = RuleClassifier(**params, metric=metric, binarizer=None, random_state=seed).fit(X[rows], y[rows])
    return clf, time.perf_counter() - start


def _learns_from_y(binarizer) -> bool:
    """Whether the fitted `binarizer` (or None) learned from the labels: its scikit-learn tags
    require y, as `QuantileBinarizer(thresholds="tree")`'s do."""
    return hasattr(binarizer, "__sklearn_tags__") and get_tags(binarizer).target_tags.required


def _binarize_by_rows(binarizer, X, y, rows):
    """All of `X` as 0/1 data, by a clone of `binarizer` fitted on the rows `rows` (and their
    labels) alone: a fold's features owe nothing to its held-out labels."""
    fitted = clone(binarizer).fit(_safe_indexing(X, rows), y[rows])
    return check_binary_matrix(fitted.transform(X), "binarized X")


class RuleClassifierCV(RuleEstimator):
    """A `RuleClassifier` with `max_complexity` and `lam` chosen by stratified `cv`-fold
    cross-validation, then refitted on all the data (as `LogisticRegressionCV` is to
    `LogisticRegression`).

    The complexities are tried in rounds, smallest first: a round fits one complexity (at every
    `lam`) on every fold and on all the data (the refit) in parallel over `n_jobs` joblib workers.
    Work is shared: the data are binarized once (per fold for a binarizer that learns from the
    labels, see `binarizer`); with `warm_start`, each fit's first start begins
    from the rule kept at the previous complexity on the same rows; and a rule of complexity c
    fits every larger budget, so on each fold (and on all the data) and `lam` the rule kept for a
    complexity is the one of best training objective among those found at that complexity or
    below (an annealing run that ends worse than a smaller budget's does not count against the
    larger budget; the refit is therefore never worse on the training data than a smaller
    complexity's). Rounds stop after `stop_after` complexities in a row that do not raise the best
    mean validation score. With `selection="best"` the candidate of best mean validation score is
    chosen, with "one_se" any whose mean is within one standard error of it; among those, the
    simplest (smallest complexity, then largest `lam`). With `ccp_alpha`, the rule returned may be one
    found at a smaller complexity that fits the training rows almost as well (cost-complexity pruning).

    The defaults search each round's fit with 4 starts of 1000 iterations and the chosen candidate
    with 10 of 2000 (`fold_starts`, `fold_iterations`), and choose by the best mean. Two starts left
    the rounds' rules 0.003-0.03 below the full search's in training balanced accuracy, ranking a
    weaker learner than the one refitted; four halve that gap, scored level on held-out data over 120
    splits (+0.001 +- 0.003; Online Shoppers +0.005, Home Equity +0.005) at about 1.5x the time
    (`benchmarks/README.md`, "Four starts in the rounds"). On the eight bundled datasets (5 splits)
    the one-standard-error rule scored 0.009 +- 0.006 lower on held-out data (Parkinson's 0.59
    against 0.83 on one split), repeated folds (2 x 5) were level at 1.4x the time, and against the
    former defaults (every fit 10 x 2000, one-standard-error) on 13 splits the test scores were
    level (+0.002 +- 0.008) at a quarter to a third of the CPU time (`benchmarks/README.md`,
    "RuleClassifierCV defaults").

    Parameters
    ----------
    complexities : the `max_complexity` values to try (each >= 3); None: 3..15.
    lams : the complexity penalties `lam` to try (each >= 0).
    cv : number of stratified folds (>= 2), or a scikit-learn splitter (an object with `split`).
    selection : "best", "one_se", or a number of standard errors: the simplest candidate whose mean
        validation score is within that many standard errors (of the best candidate's fold scores)
        of the best mean ("best" is 0, "one_se" 1).
    ccp_alpha : minimal cost-complexity pruning of the final rule (as scikit-learn's trees'): of the
        rules found on all the data at the chosen complexity and below (the rounds' and the final
        refit's), the first of best training objective less `ccp_alpha` x complexity, so a literal
        stays only if it earns `ccp_alpha` of the training metric (0: no pruning). The default 0.003
        kept 14% smaller rules at level held-out scores on the eight bundled datasets
        (`benchmarks/README.md`, "Cost-complexity pruning"). The folds choose the complexity unpruned
        (pruning them too moved the choice on small data and cost held-out accuracy).
    operators, num_starts, num_iterations, max_depth, scan_moves : as in `RuleClassifier`, for
        every fit (the folds' and the refit's).
    time_budget : None, or seconds > 0 for each fit (each fold's candidate and each refit), as
        `RuleClassifier.time_budget`; a whole fit takes about (folds + 1) x lams / workers budgets,
        rounded up, per complexity tried (and one more for the final refit, see `fold_starts`).
    fold_starts, fold_iterations : caps on the search of the rounds' fits (every fold's and the
        refit's at each complexity tried; None: no cap). When they cut `num_starts` x
        `num_iterations`, the chosen candidate is refitted once more on all the data with the full
        search (its first start from the rounds' rule with `warm_start`), and that rule is kept if
        its training objective is better: the folds only rank the complexities, the final rule gets
        the full search.
    warm_start : each fit at a complexity has its first start begin from the rule kept at the
        previous complexity on the same rows (`RuleClassifier.init_rule`); the other starts are
        random.
    stop_after : stop trying larger complexities after this many in a row that do not raise the
        best mean validation score (None: try them all).
    metric : the score maximised by each fit, compared across folds and reported by `score`.
    binarizer : as in `RuleClassifier`; fitted once on all the data when it is unsupervised (the
        default quantiles). One that learns from the labels (its scikit-learn tags require y, as
        `QuantileBinarizer(thresholds="tree")`'s do) is fitted on each fold's training rows for
        that fold's fits, so no held-out label shapes the features it is scored on, and on all the
        data for the refit (`binarizer_`).
    n_jobs : joblib workers for the (fold, candidate) fits (None: one process).
    random_state : seeds the folds' shuffle and every fit.

    Attributes
    ----------
    cv_results_ : dict of arrays as `GridSearchCV`'s, one entry per candidate tried: `params`, `param_max_complexity`,
        `param_lam`, `split{k}_test_score`, `mean_test_score`, `std_test_score`,
        `rank_test_score`, `mean_fit_time`, and `mean_rule_complexity` (of the fold rules kept).
    best_index_, best_params_ : the chosen candidate. max_complexity_, lam_ : its settings.
    cv_score_ : its mean validation score. estimator_ : the `RuleClassifier` fitted on all the
        (binarized) data at `lam_` of best training objective less `ccp_alpha` x complexity among the
        complexities tried up to `max_complexity_` (its own `max_complexity` may be smaller); best_rule_, rule_,
        best_score_ (training metric) and the rest as in `RuleClassifier`. refit_time_ : seconds of the
        final refit (0 when the rounds searched with the full budget). With more than two
        classes, each of `estimators_` (one-vs-rest) holds its own.
    """

    _parameter_constraints: dict = {
        **RuleEstimator._parameter_constraints,
        "complexities": [None, "array-like"],
        "lams": ["array-like"],
        "cv": [Interval(Integral, 2, None, closed="left"), HasMethods(["split"])],
        "selection": [StrOptions({"one_se", "best"}), Interval(Real, 0, None, closed="left")],
        "ccp_alpha": [Interval(Real, 0, None, closed="left")],
        "operators": RuleClassifier._parameter_constraints["operators"],
        "num_starts": [Interval(Integral, 1, None, closed="left")],
        "num_iterations": [None, Interval(Integral, 1, None, closed="left")],
        "max_depth": [None, Interval(Integral, 1, None, closed="left")],
        "scan_moves": [Interval(Real, 0, 1, closed="both")],
        "time_budget": [None, Interval(Real, 0, None, closed="neither")],
        "fold_starts": [None, Interval(Integral, 1, None, closed="left")],
        "fold_iterations": [None, Interval(Integral, 1, None, closed="left")],
        "warm_start": ["boolean"],
        "stop_after": [None, Interval(Integral, 1, None, closed="left")],
        "n_jobs": [None, Interval(Integral, None, -1, closed="right"), Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        complexities=None,
        lams=(0.0,),
        cv=5,
        selection="best",
        ccp_alpha=0.003,
        operators=ALL_OPERATORS,
        num_starts=10,
        num_iterations=2000,
        max_depth=None,
        scan_moves=0.0,
        time_budget=None,
        fold_starts=4,
        fold_iterations=1000,
        warm_start=True,
        stop_after=3,
        metric="balanced_accuracy",
        binarizer="auto",
        n_jobs=None,
        random_state=None,
    ):
        self.complexities = complexities
        self.lams = lams
        self.cv = cv
        self.selection = selection
        self.ccp_alpha = ccp_alpha
        self.operators = operators
        self.num_starts = num_starts
        self.num_iterations = num_iterations
        self.max_depth = max_depth
        self.scan_moves = scan_moves
        self.time_budget = time_budget
        self.fold_starts = fold_starts
        self.fold_iterations = fold_iterations
        self.warm_start = warm_start
        self.stop_after = stop_after
        self.metric = metric
        self.binarizer = binarizer
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _grid(self) -> tuple[np.ndarray, np.ndarray]:
        """The checked, sorted, distinct complexities and lams."""
        complexities = DEFAULT_COMPLEXITIES if self.complexities is None else self.complexities
        grids = []
        for name, values, low, kind in (("complexities", complexities, 3, Integral), ("lams", self.lams, 0, Real)):
            values = list(np.ravel(np.asarray(values, dtype=object)))
            bad = [v for v in values if isinstance(v, bool) or not isinstance(v, kind) or not v >= low
                   or not np.isfinite(float(v))]
            if not values or bad:
                raise InputError(f"{name} must be a non-empty list of {'integers' if kind is Integral else 'numbers'}"
                                 f" >= {low}, got {values!r}")
            grids.append(np.unique(np.asarray(values, dtype=int if kind is Integral else float)))
        return grids[0], grids[1]

    def _check_params(self):
        self._grid()
        if self.num_iterations is None and self.time_budget is None:
            raise InputError("num_iterations=None (no cap on iterations) needs a time_budget to end each fit; "
                             "give num_iterations or time_budget=SECONDS")

    def _one_vs_rest_params(self, num_classes: int) -> dict:
        return {} if self.time_budget is None else {"time_budget": self.time_budget / num_classes}

    def _fit_params(self) -> dict:
        """The final refit's search settings."""
        return {"operators": self.operators, "num_starts": self.num_starts, "num_iterations": self.num_iterations,
                "max_depth": self.max_depth, "scan_moves": self.scan_moves, "time_budget": self.time_budget}

    def _round_params(self) -> dict:
        """The search settings of the rounds' fits (folds and refits): the final refit's, with at most
        `fold_starts` starts of at most `fold_iterations` iterations (None: no cap)."""
        params = self._fit_params()
        caps = [i for i in (params["num_iterations"], self.fold_iterations) if i is not None]
        return {**params, "num_starts": min(params["num_starts"], self.fold_starts or params["num_starts"]),
                "num_iterations": min(caps) if caps else None}

    def _fit_two_class(self, X, y, rng):
        """As `RuleEstimator`'s; when the binarizer learns from y, `_fit_binary` also gets `X` as
        given, to binarize each fold by a binarizer fitted on its training rows."""
        Xb, yb = self._binary_data(X, y)
        self._fit_binary(Xb, yb, rng, unbinarized=X if _learns_from_y(self.binarizer_) else None)

    def _fit_binary(self, X, y, rng, unbinarized=None):
        complexities, lams = self._grid()
        splitter = (StratifiedKFold(self.cv, shuffle=True, random_state=draw_seed(rng))
                    if isinstance(self.cv, Integral) else self.cv)
        folds = list(splitter.split(X, y))
        rows = [train for train, _ in folds] + [np.arange(len(y))]  # the last: the refit on all the data
        # data[k]: all rows as 0/1 data for the fits on rows[k]; X, binarized on all of them, unless
        # the binarizer learns from y: each fold then binarizes by its own training rows
        data = [X] * len(rows) if unbinarized is None else (
            [_binarize_by_rows(self.binarizer_, unbinarized, y, train) for train in rows[:-1]] + [X])
        seeds = draw_seed(rng, size=(len(rows), len(complexities), len(lams)))
        params = self._round_params()
        # kept[k, i, l]: the fit of best training objective on rows[k] at lams[l] and complexities[:i + 1]
        kept = np.empty((len(rows), len(complexities), len(lams)), dtype=object)
        seconds = np.zeros((len(folds), len(complexities), len(lams)))
        scores = np.zeros((len(folds), len(complexities), len(lams)))
        best, stale, tried = -np.inf, 0, 0
        with Parallel(n_jobs=self.n_jobs) as parallel:
            for i, c in enumerate(complexities):
                tasks = [(k, l) for k in range(len(rows)) for l in range(len(lams))]
                fits = parallel(
                    delayed(_fit_candidate)(
                        data[k], y, rows[k], {**params, "max_complexity": int(c), "lam": float(lams[l]),
                                        "init_rule": kept[k, i - 1, l].best_rule_ if self.warm_start and i else None},
                        self.metric, seeds[k, i, l], os.getpid())
                    for k, l in tasks)
                for (k, l), (clf, secs) in zip(tasks, fits):
                    smaller = kept[k, i - 1, l] if i else None
                    better = smaller is None or clf.best_objective_ > smaller.best_objective_
                    kept[k, i, l] = clf if better else smaller
                    if k < len(folds):
                        test = folds[k][1]
                        pred = kept[k, i, l].best_rule_.evaluate(data[k][test]).astype(bool)
                        scores[k, i, l] = score_counts(self.metric, y[test] == 1, pred)
                        seconds[k, i, l] = secs
                tried = i + 1
                mean = scores[:, i].mean(axis=0).max()
                best, stale = (mean, 0) if mean > best else (best, stale + 1)
                if self.stop_after is not None and stale >= self.stop_after:
                    break
        # the tried candidates, lam-major as `cv_results_` lists them; arrays folds x candidates
        candidates = [(int(c), float(lam)) for lam in lams for c in complexities[:tried]]
        sizes = np.vectorize(lambda clf: clf.best_rule_.complexity, otypes=[float])(kept[:-1, :tried])
        scores, sizes, seconds = (a[:, :tried].transpose(0, 2, 1).reshape(len(folds), -1)
                                  for a in (scores, sizes, seconds))
        self.cv_results_ = self._results(candidates, scores, sizes, seconds)
        self.best_index_ = self._select(candidates, scores)
        self.best_params_ = self.cv_results_["params"][self.best_index_]
        self.max_complexity_, self.lam_ = self.best_params_["max_complexity"], self.best_params_["lam"]
        self.cv_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
        i, l = np.searchsorted(complexities, self.max_complexity_), np.searchsorted(lams, self.lam_)
        refitted, self.refit_time_ = self._refit(kept[-1, i, l], X, y, draw_seed(rng))
        self.estimator_ = self._pruned([*kept[-1, :i + 1, l], refitted])
        self.best_rule_ = self.estimator_.best_rule_
        self.best_score_ = self.estimator_.best_score_
        self.best_objective_ = self.estimator_.best_objective_

    def _refit(self, kept, X, y, seed) -> tuple[RuleClassifier, float]:
        """The estimator on all the data and the final refit's seconds: when the rounds searched with
        a smaller budget than the final refit's, a refit at the chosen candidate with the full budget
        (its `n_jobs` workers sharing the starts, its first start from `kept` with `warm_start`),
        kept only if its training objective beats `kept`'s; else `kept` (0 seconds)."""
        if self._round_params() == self._fit_params():
            return kept, 0.0
        params = {**self._fit_params(), "max_complexity": int(self.max_complexity_), "lam": float(self.lam_),
                  "init_rule": kept.best_rule_ if self.warm_start else None, "n_jobs": self.n_jobs}
        clf, seconds = _fit_candidate(X, y, np.arange(len(y)), params, self.metric, seed)
        return (clf if clf.best_objective_ > kept.best_objective_ else kept), seconds

    def _pruned(self, fits):
        """Of `fits` (on all the data, smallest complexity budget first), the first of best training
        objective less `ccp_alpha` x complexity: minimal cost-complexity pruning of the final rule."""
        values = [clf.best_objective_ - self.ccp_alpha * clf.best_rule_.complexity for clf in fits]
        return fits[int(np.argmax(values))]

    @staticmethod
    def _results(candidates, scores, sizes, seconds) -> dict:
        mean = scores.mean(axis=0)
        results = {
            "params": [{"max_complexity": c, "lam": lam} for c, lam in candidates],
            "param_max_complexity": np.array([c for c, _ in candidates]),
            "param_lam": np.array([lam for _, lam in candidates]),
            **{f"split{k}_test_score": scores[k] for k in range(len(scores))},
            "mean_test_score": mean,
            "std_test_score": scores.std(axis=0),
            "rank_test_score": rankdata(-mean, method="min").astype(np.int32),  # ties share a rank, as in GridSearchCV
            "mean_fit_time": seconds.mean(axis=0),
            "mean_rule_complexity": sizes.mean(axis=0),
        }
        return results

    def _select(self, candidates, scores) -> int:
        """The chosen candidate's index: the simplest of those whose mean is within `selection`
        standard errors of the best mean ("best": 0, "one_se": 1)."""
        mean = scores.mean(axis=0)
        best = int(np.argmax(mean))
        errors = {"best": 0.0, "one_se": 1.0}.get(self.selection, self.selection)
        slack = errors * scores[:, best].std(ddof=1) / np.sqrt(len(scores)) if errors and len(scores) > 1 else 0.0
        within = np.flatnonzero(mean >= mean[best] - slack - 1e-12)
        return int(min(within, key=lambda j: (candidates[j][0], -candidates[j][1], j)))
