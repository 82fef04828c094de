"""Shared scikit-learn plumbing of the rule classifiers: input checks, binarization, classes.

A subclass implements `_fit_binary(X, y, rng)` on 0/1 features and 0/1 labels and sets
`best_rule_` and `best_score_`; everything else (DataFrames and their column names,
`binarizer="auto"`, label mapping, one-vs-rest for more than two classes, the readable rule,
predict, score and explain) is here once.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from .data import QuantileBinarizer, check_no_datetimes
from .exceptions import InputError, InputTypeError
from .metrics import METRICS, score_counts
from .seeding import draw_seed
from .validation import check_binary_matrix

__all__ = ["RuleEstimator"]


def _is_binary(X) -> bool:
    values = X.to_numpy() if hasattr(X, "to_numpy") else np.asarray(X)
    if values.dtype == bool:
        return True
    if values.dtype.kind not in "biuf":
        return False
    return bool(np.isin(values, (0, 1)).all())


def _one_row(x):
    """The sample `x` as a one-row 2-D array or DataFrame; anything else is an error naming `x`."""
    if hasattr(x, "to_frame") and hasattr(x, "index"):  # a pandas Series: one row, its index the columns
        return x.to_frame().T.infer_objects()
    if hasattr(x, "columns"):
        rows = len(x)
    else:
        x = np.asarray(x)
        if x.ndim == 1:
            return x.reshape(1, -1)
        rows = len(x) if x.ndim == 2 else None
    if rows != 1:
        raise InputError(f"x must be one sample (a 1-D array, a Series or one row), got shape {np.shape(x)}")
    return x


class RuleEstimator(ClassifierMixin, BaseEstimator):
    """Base class of classifiers whose model is one rule (`best_rule_`) over binary features.

    `best_rule_` is the rule as the search found it (what its objective and seeds reproduce);
    `rule_` is its canonical form (`Rule.simplify`: the same prediction on every input, never more
    nodes), the one users read: `rule_text_` and `rule_description_` (`Rule.describe`) show it
    with the binary features' names, and `explain` explains it.

    `binarizer`: "auto" uses 0/1 input as is and binarizes any other input with
    `QuantileBinarizer(num_bins="auto")` (10 quantiles below 1000 rows, then one per 100 rows up to 30,
    and a cut above a value that fills a bin); None demands 0/1 input; or a transformer to fit and apply.
    `metric`: the score that `fit` maximises and `score` reports (binary problems).
    `random_state` (in subclasses that draw at random): seeds every random choice.

    Parameters are checked by scikit-learn against `_parameter_constraints` when `fit` starts
    (subclasses add theirs), then by `_check_params` for relations between parameters.
    """

    _parameter_constraints: dict = {
        "binarizer": [StrOptions({"auto"}), None, HasMethods(["fit_transform"])],
        "metric": [StrOptions(set(METRICS))],
    }

    def _check_params(self) -> None:
        """Checks that relate parameters to each other (each alone is in `_parameter_constraints`)."""

    def _fit_binary(self, X: np.ndarray, y: np.ndarray, rng: np.random.RandomState) -> None:
        raise NotImplementedError

    def _one_vs_rest_params(self, num_classes: int) -> dict:
        """Parameters of each of the `num_classes` one-vs-rest classifiers that differ from this
        one's (a share of a budget)."""
        return {}

    def _check_X(self, X, *y, reset):
        """sklearn's input checks (with `y` when given); a DataFrame is passed on as is so the
        binarizer sees its columns and dtypes."""
        if not hasattr(X, "columns"):
            try:
                return validate_data(self, X, *y, reset=reset)
            except TypeError as err:  # numpy's words for an uncastable object array; name the argument
                raise InputTypeError(f"X must hold numbers: {err}") from err
        check_no_datetimes(X, "X")  # before numpy meets them (DTypePromotionError)
        validated = validate_data(self, X, *y, reset=reset, dtype=None, ensure_all_finite=False)
        return (X, validated[1]) if y else X

    def _binarize_fit(self, X, y):
        """Fit the binarizer (if any) on `X` and its 0/1 labels `y` (a supervised binarizer learns
        from them); return 0/1 data and the binary features' names (or None).
        `input_columns_`: what exports read a row's values by, a DataFrame's column labels as they
        are (0, not '0') or an array's positions (0, 1, ...)."""
        names = getattr(X, "columns", None)
        self.input_columns_ = list(range(X.shape[1])) if names is None else names.tolist()
        if self.binarizer is None or (self.binarizer == "auto" and _is_binary(X)):
            self.binarizer_ = None
            return check_binary_matrix(X), None if names is None else [str(c) for c in names]
        self.binarizer_ = QuantileBinarizer(num_bins="auto") if self.binarizer == "auto" else clone(self.binarizer)
        Xb = check_binary_matrix(self.binarizer_.fit_transform(X, y), "binarized X")
        return Xb, [str(n) for n in self.binarizer_.get_feature_names_out()]

    def _binarize(self, X):
        if self.binarizer_ is None:
            return check_binary_matrix(X)
        return check_binary_matrix(self.binarizer_.transform(X), "binarized X")

    @_fit_context(prefer_skip_nested_validation=False)  # a binarizer given as a parameter is checked in its own fit
    def fit(self, X, y):
        """Learn a rule from training data `X` (n x m) and labels `y`. A fit that fails or is
        interrupted (Ctrl-C) raises and leaves the estimator as it was, never half fitted."""
        state = dict(self.__dict__)
        try:
            return self._fit(X, y)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(state)
            raise

    def _prepare(self, X, y):
        """fit's checks of the parameters and the data, and `classes_`: the checked X and y and the
        random state every random choice of the fit draws from."""
        self._check_params()
        X, y = self._check_X(X, y, reset=True)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) < 2:
            raise InputError(
                f"y has only one class ({self.classes_[0]!r}); a classifier needs at least two classes"
            )
        return X, y, check_random_state(getattr(self, "random_state", None))

    def _binary_data(self, X, y):
        """A two-class fit's 0/1 data: X binarized by the binarizer fitted on it (`binarizer_`,
        `feature_names_`) and y as 1 for `classes_[1]`, 0 otherwise."""
        self.estimators_ = None
        y = (y == self.classes_[1]).astype(np.uint8)
        Xb, self.feature_names_ = self._binarize_fit(X, y)
        return Xb, y

    def _fit_two_class(self, X, y, rng):
        """A two-class fit of X as given: `_fit_binary` on its 0/1 data."""
        self._fit_binary(*self._binary_data(X, y), rng)

    def _fit(self, X, y):
        X, y, rng = self._prepare(X, y)
        if len(self.classes_) > 2:
            self.estimators_ = []
            for cls in self.classes_:
                est = clone(self).set_params(**self._one_vs_rest_params(len(self.classes_)))
                if "random_state" in est.get_params():
                    est.set_params(random_state=draw_seed(rng))
                self.estimators_.append(est.fit(X, (y == cls).astype(np.uint8)))
            return self
        self._fit_two_class(X, y, rng)
        self.rule_ = self.best_rule_.simplify()
        self.rule_text_ = self.rule_.to_str(self.feature_names_)
        self.rule_description_ = self.rule_.describe(self.feature_names_)
        return self

    def export_rule(self, format: str = "text") -> str:
        """`rule_` as "text", "json", "python" (a standalone predicate) or "sql" (a WHERE
        expression), `boolrules.rules.export`; Python and SQL read X's own columns when the
        estimator binarized them, else the 0/1 features by name."""
        from .rules.export import export_rule

        check_is_fitted(self)
        if self.estimators_ is not None:
            raise InputError("a multi-class fit has one rule per class: export each of estimators_")
        binarizer = self.binarizer_ if hasattr(self.binarizer_, "encodings_") else None
        columns = self.input_columns_ if binarizer is not None or self.binarizer_ is None else None
        return export_rule(self.rule_, format, self.feature_names_, binarizer, columns)

    def decision_function(self, X) -> np.ndarray:
        """The rule's output (0 or 1) per sample; one column per class when multi-class."""
        check_is_fitted(self)
        if self.estimators_ is not None:
            return np.column_stack([est.decision_function(X) for est in self.estimators_])
        X = self._check_X(X, reset=False)
        return self.best_rule_.evaluate(self._binarize(X)).astype(float)

    def predict(self, X) -> np.ndarray:
        """Class labels predicted by the rule (one-vs-rest when multi-class)."""
        scores = self.decision_function(X)
        if scores.ndim == 2:
            return self.classes_[np.argmax(scores, axis=1)]
        return self.classes_[scores.astype(int)]

    def explain(self, x):
        """Why the rule predicts what it does for the one sample `x` (a 1-D array, a one-row 2-D
        array or DataFrame, or a pandas Series): an `Explanation` of `rule_` on its binary
        features, with text (`str`), a dict (`to_dict`) and a plot (see `rules/explain.py`)."""
        check_is_fitted(self)
        if self.estimators_ is not None:
            raise InputError(f"explain works on a two-class classifier; this one has {len(self.classes_)} classes: "
                             "explain with one of its one-vs-rest estimators_ instead")
        X = _one_row(x)
        X = self._check_X(X, reset=False)
        Xb = self._binarize(X)
        from .rules.explain import explain

        prediction = self.classes_[int(self.best_rule_.evaluate(Xb)[0])]
        return explain(self.rule_, Xb[0], self.feature_names_, label=prediction)

    def score(self, X, y) -> float:
        """The configured `metric` of the predictions on `X` (accuracy when multi-class); a binary
        model refuses labels `y` outside `classes_`."""
        check_is_fitted(self)
        y = column_or_1d(y)
        check_consistent_length(X, y)
        if self.estimators_ is not None:
            return super().score(X, y)
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():  # the metric splits y by classes_[1]: any other label would count as classes_[0]
            raise InputError(f"y holds label(s) {np.unique(y[unknown])[:5].tolist()} that are not among the "
                             f"classes the model was fit on, {self.classes_.tolist()}")
        predicted = self.predict(X) == self.classes_[1]
        return score_counts(self.metric, y == self.classes_[1], predicted)
