"""`DepthOneClassifier`: the best depth-one rule for one operator, found by any backend."""

from __future__ import annotations

from numbers import Integral, Real

from sklearn.base import _fit_context
from sklearn.utils._param_validation import StrOptions

from .backends.config import BackendSpec
from .estimator import RuleEstimator
from .exceptions import InputError, SolverError
from .formulations import DepthOneProblem
from .formulations.builder import build_depth_one
from .formulations.preselection import FEATURE_SCORES
from .metrics import score_counts
from .rules.shapes import OperatorSpec
from .seeding import draw_seed
from .validation import Interval

__all__ = ["DepthOneClassifier"]

_WEIGHTS = {"balanced_accuracy": "balanced", "accuracy": "uniform"}


class DepthOneClassifier(RuleEstimator):
    """Solve the depth-one problem (`docs/formulations.md`, "The five operators") for `operator` and
    predict with its rule.

    Parameters
    ----------
    operator : "Or", "And", "AtLeast", "AtMost" or "Choose" (or the rule class).
    max_num_literals, min_num_literals : bounds on the number of literals (the maximum is
        capped at twice the number of binary features).
    lam : complexity weight λ per literal.
    negated : learn `~operator(...)` instead.
    metric : "balanced_accuracy" (balanced sample weights) or "accuracy" (uniform weights).
    backend : a backend name (see `boolrules.backends.backend_names()`), a `Backend` instance, or
        the path of a TOML backend configuration (`boolrules.backends.config`).
    time_limit : seconds per solve, passed to the backend (None: no limit).
    max_samples : solve on a random subset of this many rows, drawn stratified (the paper caps
        ILPs at 3000); None: every row; "auto" (as in `RuleClassifier`): the `[problem]` max_samples
        of a TOML backend file that has one, else every row.
    max_features : solve on this many binary features, the best on all rows by `feature_score` ("error":
        the weighted error of the feature as a one-literal rule, or "mutual_info"); with
        `max_samples`, this makes a problem fit a size-limited backend (exact, qaoa, a QPU).
        The rule still names the original features. None: all; "auto": the file's `[problem]`
        max_features if it has one, else all.
    random_state : seeds the row subset, and the backend's sampling when it takes a seed not given.
    binarizer : "auto", None or a transformer, as for `RuleClassifier`.

    Attributes: best_rule_, best_score_ (metric on all training rows), result_ (the backend's
    `Result`), rule_ (best_rule_'s canonical form), classes_, feature_names_, rule_text_ and
    rule_description_ (rule_ with those names), binarizer_.

    `build_problem(X, y)` returns the problem `fit(X, y)` would solve, unsolved, to export
    (`boolrules.formats`) or inspect.
    """

    _parameter_constraints: dict = {
        **RuleEstimator._parameter_constraints,
        "operator": [OperatorSpec()],
        "max_num_literals": [Interval(Integral, 1, None, closed="left")],
        "min_num_literals": [Interval(Integral, 0, None, closed="left")],
        "lam": [Interval(Real, 0, None, closed="left")],
        "negated": ["boolean"],
        "metric": [StrOptions(set(_WEIGHTS))],
        "backend": [BackendSpec("backend")],
        "time_limit": [None, Interval(Real, 0, None, closed="left")],
        "max_samples": [None, StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "max_features": [None, StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "feature_score": [StrOptions(set(FEATURE_SCORES))],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        operator="AtLeast",
        max_num_literals=4,
        min_num_literals=0,
        lam=0.0,
        negated=False,
        metric="balanced_accuracy",
        backend="highs",
        time_limit=None,
        max_samples="auto",
        max_features="auto",
        feature_score="error",
        random_state=None,
        binarizer="auto",
    ):
        self.operator = operator
        self.max_num_literals = max_num_literals
        self.min_num_literals = min_num_literals
        self.lam = lam
        self.negated = negated
        self.metric = metric
        self.backend = backend
        self.time_limit = time_limit
        self.max_samples = max_samples
        self.max_features = max_features
        self.feature_score = feature_score
        self.random_state = random_state
        self.binarizer = binarizer

    def _check_params(self):
        from .backends.config import check_call_options

        if self.min_num_literals > self.max_num_literals:
            raise InputError(f"min_num_literals must be <= {self.max_num_literals} (max_num_literals), "
                             f"got {self.min_num_literals}")
        if self.time_limit is not None:  # a backend without a time limit refuses it before any work
            check_call_options(self.backend, {"time_limit": self.time_limit})

    @_fit_context(prefer_skip_nested_validation=False)  # the parameters are checked as fit checks them
    def build_problem(self, X, y) -> DepthOneProblem:
        """The depth-one problem `fit(X, y)` solves, built by fit's own steps (the binarizer fitted
        on X, the rows drawn and features kept by `random_state`) without solving it: so what fit
        solves can be exported or inspected exactly. Two classes only; the estimator is left as it was."""
        state = dict(self.__dict__)
        try:
            X, y, rng = self._prepare(X, y)
            if len(self.classes_) > 2:
                raise InputError(f"build_problem builds a two-class problem; y has {len(self.classes_)} classes "
                                 "(fit solves one per class, one-vs-rest: build each from its own 0/1 labels)")
            return self._problem(*self._binary_data(X, y), rng)
        finally:
            self.__dict__.clear()
            self.__dict__.update(state)

    def _problem(self, X, y, rng) -> DepthOneProblem:
        """The problem on the 0/1 data, with the caps that are "auto" read from a TOML backend's
        [problem] sizes; fit and build_problem both build it here, so they cannot differ."""
        from .backends.config import problem_caps

        caps = problem_caps(self.backend)
        max_samples = caps.get("max_samples") if self.max_samples == "auto" else self.max_samples
        max_features = caps.get("max_features") if self.max_features == "auto" else self.max_features
        return build_depth_one(
            X, y, self.operator, max_num_literals=int(self.max_num_literals),
            min_num_literals=int(self.min_num_literals), lam=float(self.lam), sample_weight=_WEIGHTS[self.metric],
            negated=bool(self.negated), max_samples=max_samples, max_features=max_features,
            feature_score=self.feature_score, random_state=rng,
            feature_names=getattr(self, "feature_names_", None),  # so result_ prints the rule with names
        )

    def _fit_binary(self, X, y, rng):
        problem = self._problem(X, y, rng)
        from .backends.base import unseeded
        from .backends.config import opened_backend

        options = {} if self.time_limit is None else {"time_limit": self.time_limit}
        with opened_backend(self.backend) as backend:
            if unseeded(backend):  # a sampler's seed flows from random_state too
                options["seed"] = int(draw_seed(rng))
            self.result_ = backend.solve(problem, **options)
        if self.result_.rule is None:
            raise SolverError(
                f"backend {backend.name!r} returned no rule (status {self.result_.status}: {self.result_.message})"
            ) from self.result_.error
        self.best_rule_ = self.result_.rule
        self.best_score_ = score_counts(self.metric, y, self.best_rule_.evaluate(X))
