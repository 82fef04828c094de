"""Bad input to every public entry point gives a clear error, and no input is modified in place.

One table: each row is a call with one thing wrong (an array with NaN, inf, text, the wrong
shape, no rows or columns, one class, values other than 0/1; a parameter out of range, of the
wrong type, or contradicting another), the exception it must raise and the names its message
must contain. `tests/errors.assert_clear_error` also checks that the error is raised by
boolrules itself (or by scikit-learn's input validation), not from deep inside a dependency.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from boolrules import (
    And,
    AtLeast,
    AtMost,
    Choose,
    DepthOneClassifier,
    Literal,
    Or,
    QuantileBinarizer,
    RuleClassifier,
    load_dataset,
)
from boolrules.backends import IlpBackend, get_backend
from boolrules.baselines import SingleLiteralClassifier
from boolrules.formulations import depth_one
from boolrules.formulations.qubo_problem import compile_qubo
from boolrules.localsearch import RuleScorer
from boolrules.metrics import balanced_sample_weight, get_metric, score_counts
from boolrules.rules import BitMatrix
from boolrules.validation import check_binary_matrix

from .errors import assert_raises_clearly

# Data: 0/1 features X (20 x 4), labels y (both classes), continuous features F for the binarizer.
RNG = np.random.default_rng(0)
X = RNG.integers(0, 2, (20, 4), dtype=np.uint8)
Y = np.array([0, 1] * 10)
F = RNG.normal(size=(20, 3))


def with_value(array, value, dtype=float):
    """A copy of `array` as `dtype` with `value` in its first cell."""
    out = np.array(array, dtype=dtype)
    out.flat[0] = value
    return out


X_NAN = with_value(X, np.nan)
X_INF = with_value(X, np.inf)
X_TEXT = np.array(X, dtype=str)
X_OBJECT = np.array([[object()] * 4] * 20, dtype=object)
X_1D = X[:, 0]
X_3D = X[:, :, None]
X_NO_ROWS = X[:0]
X_NO_COLUMNS = X[:, :0]
X_TWO = with_value(X, 2, np.uint8)
Y_SHORT = Y[:-1]
Y_ONE_CLASS = np.zeros(20, dtype=int)
Y_NAN = with_value(Y, np.nan)
Y_TWO = with_value(Y, 2, int)
Y_2D = np.column_stack([Y, Y])
Y_TEXT = np.array(["a", "b"] * 10)


FAST = {"num_starts": 1, "num_iterations": 5, "random_state": 0}


def rc(**params):
    return RuleClassifier(**{**FAST, **params})


def fitted_rc(Xv=X):
    return rc().fit(Xv, Y)


def fitted_d1(Xv=X):
    return DepthOneClassifier(max_num_literals=2).fit(Xv, Y)


def fitted_qb():
    return QuantileBinarizer().fit(F)


def problem(**kwargs):
    return depth_one(X, Y, kwargs.pop("operator", "Or"), max_num_literals=kwargs.pop("max_num_literals", 2), **kwargs)


def solve(backend, **options):
    return get_backend(backend, **options).solve(problem())


def fit_rows(make):
    """`fit(X, y, **params)`: a call that fits `make(**params)` on X, y."""
    def fit(Xv, yv, **params):
        return lambda: make(**params).fit(Xv, yv)

    return fit


def rows_for_estimator(label, make):
    """The rows every rule classifier's fit shares: its data, binarizer and metric."""
    fit = fit_rows(make)
    return [
        (f"{label}.fit-X-NaN", fit(X_NAN, Y), ValueError, ("X", "NaN")),
        (f"{label}.fit-X-inf", fit(X_INF, Y), ValueError, ("X", "infinity")),
        (f"{label}.fit-X-text", fit(X_TEXT, Y), ValueError, ("X",)),
        (f"{label}.fit-X-object", fit(X_OBJECT, Y), (TypeError, ValueError), ("X",)),
        (f"{label}.fit-X-1D", fit(X_1D, Y), ValueError, ("2D array",)),
        (f"{label}.fit-X-3D", fit(X_3D, Y), ValueError, ("dim 3",)),
        (f"{label}.fit-X-no-rows", fit(X_NO_ROWS, Y[:0]), ValueError, ("0 sample",)),
        (f"{label}.fit-X-no-columns", fit(X_NO_COLUMNS, Y), ValueError, ("0 feature",)),
        (f"{label}.fit-X-non-binary-binarizer-None", fit(X_TWO, Y, binarizer=None), ValueError, ("X", "binary")),
        (f"{label}.fit-X-DataFrame-NaN", fit(pd.DataFrame(X_NAN, columns=list("abcd")), Y), ValueError,
         ("'a'", "NaN")),
        (f"{label}.fit-X-DataFrame-inf", fit(pd.DataFrame(X_INF, columns=list("abcd")), Y), ValueError,
         ("'a'", "infinity")),
        (f"{label}.fit-X-DataFrame-text-None", fit(pd.DataFrame({"colour": ["red", None] * 10, "n": F[:, 0]}), Y),
         ValueError, ("'colour'", "NaN")),
        (f"{label}.fit-X-DataFrame-no-rows", fit(pd.DataFrame(X_NO_ROWS, columns=list("abcd")), Y[:0]), ValueError,
         ("0 sample",)),
        (f"{label}.fit-y-Series-length", fit(pd.DataFrame(X, columns=list("abcd")), pd.Series(Y_SHORT)), ValueError,
         ("inconsistent numbers of samples", "[20, 19]")),
        (f"{label}.fit-y-length", fit(X, Y_SHORT), ValueError, ("inconsistent numbers of samples", "[20, 19]")),
        (f"{label}.fit-y-NaN", fit(X, Y_NAN), ValueError, ("y", "NaN")),
        (f"{label}.fit-y-continuous", fit(X, RNG.normal(size=20)), ValueError, ("label type", "continuous")),
        (f"{label}.fit-y-2D", fit(X, Y_2D), ValueError, ("y", "1d array")),
        (f"{label}.fit-y-one-class", fit(X, Y_ONE_CLASS), ValueError, ("y", "one class")),
        (f"{label}.fit-binarizer-unknown", fit(X, Y, binarizer="quantile"), ValueError, ("binarizer",)),
        (f"{label}.fit-binarizer-not-transformer", fit(X, Y, binarizer=3), ValueError, ("binarizer",)),
        (f"{label}.fit-metric-unknown", fit(X, Y, metric="auc"), ValueError, ("metric", "auc")),
        (f"{label}.fit-metric-unhashable", fit(X, Y, metric=["accuracy"]), ValueError, ("metric",)),
    ]


def rows_for_search(label, make):
    """The rows of the parameters the searching classifiers share: random_state and λ."""
    fit = fit_rows(make)
    return [
        (f"{label}.fit-random_state-text", fit(X, Y, random_state="seed"), ValueError, ("random_state",)),
        (f"{label}.fit-lam-negative", fit(X, Y, lam=-0.1), ValueError, ("lam",)),
        (f"{label}.fit-lam-NaN", fit(X, Y, lam=float("nan")), ValueError, ("lam",)),
        (f"{label}.fit-lam-text", fit(X, Y, lam="big"), TypeError, ("lam",)),
    ]


def rows_for_predict(label, fitted):
    def fitted_on_frame():
        return fitted(pd.DataFrame(X, columns=list("abcd")))

    return [
        (f"{label}.predict-X-NaN", lambda: fitted().predict(X_NAN), ValueError, ("X", "NaN")),
        (f"{label}.predict-X-inf", lambda: fitted().predict(X_INF), ValueError, ("X", "infinity")),
        (f"{label}.predict-X-text", lambda: fitted().predict(X_TEXT), ValueError, ("X",)),
        (f"{label}.predict-X-1D", lambda: fitted().predict(X_1D), ValueError, ("2D array",)),
        (f"{label}.predict-X-3D", lambda: fitted().predict(X_3D), ValueError, ("dim 3",)),
        (f"{label}.predict-X-no-rows", lambda: fitted().predict(X_NO_ROWS), ValueError, ("0 sample",)),
        (f"{label}.predict-X-wrong-width", lambda: fitted().predict(X[:, :3]), ValueError, ("X has 3 features",)),
        (f"{label}.predict-X-non-binary", lambda: fitted().predict(X_TWO), ValueError, ("X", "binary")),
        (f"{label}.score-y-length", lambda: fitted().score(X, Y_SHORT), ValueError,
         ("inconsistent numbers of samples", "[20, 19]")),
        (f"{label}.score-y-2D", lambda: fitted().score(X, Y_2D), ValueError, ("y", "1d array")),
        (f"{label}.score-X-NaN", lambda: fitted().score(X_NAN, Y), ValueError, ("X", "NaN")),
        (f"{label}.predict-DataFrame-other-columns",
         lambda: fitted_on_frame().predict(pd.DataFrame(X, columns=list("wxyz"))), ValueError,
         ("feature names", "w")),
    ]


ROWS = [
    # RuleClassifier: arrays (fit, predict, score) and every parameter
    *rows_for_estimator("RuleClassifier", rc),
    *rows_for_search("RuleClassifier", rc),
    ("RuleClassifier.fit-X-one-feature", lambda: rc().fit(X[:, :1], Y), ValueError, ("X", "2 binary features")),
    *rows_for_predict("RuleClassifier", fitted_rc),
    ("RuleClassifier.predict-not-fitted", lambda: RuleClassifier().predict(X), NotFittedError, ("not fitted",)),
    ("RuleClassifier.fit-max_complexity-low", lambda: rc(max_complexity=2).fit(X, Y), ValueError,
     ("max_complexity", "3")),
    ("RuleClassifier.fit-max_complexity-float", lambda: rc(max_complexity=5.5).fit(X, Y), TypeError,
     ("max_complexity",)),
    ("RuleClassifier.fit-num_starts-zero", lambda: rc(num_starts=0).fit(X, Y), ValueError, ("num_starts",)),
    ("RuleClassifier.fit-num_starts-text", lambda: rc(num_starts="10").fit(X, Y), TypeError, ("num_starts",)),
    ("RuleClassifier.fit-num_iterations-negative", lambda: rc(num_iterations=-1).fit(X, Y), ValueError,
     ("num_iterations",)),
    ("RuleClassifier.fit-num_iterations-bool", lambda: rc(num_iterations=True).fit(X, Y), TypeError,
     ("num_iterations",)),
    ("RuleClassifier.fit-max_depth-zero", lambda: rc(max_depth=0).fit(X, Y), ValueError, ("max_depth",)),
    ("RuleClassifier.fit-max_depth-float", lambda: rc(max_depth=2.0).fit(X, Y), TypeError, ("max_depth",)),
    ("RuleClassifier.fit-temperatures-increasing", lambda: rc(temperatures=(1e-6, 0.2)).fit(X, Y), ValueError,
     ("temperatures",)),
    ("RuleClassifier.fit-temperatures-zero", lambda: rc(temperatures=(0.2, 0.0)).fit(X, Y), ValueError,
     ("temperatures",)),
    ("RuleClassifier.fit-temperatures-scalar", lambda: rc(temperatures=0.2).fit(X, Y), ValueError, ("temperatures",)),
    ("RuleClassifier.fit-temperatures-triple", lambda: rc(temperatures=(1, 0.5, 0.1)).fit(X, Y), ValueError,
     ("temperatures",)),
    ("RuleClassifier.fit-temperatures-NaN", lambda: rc(temperatures=(float("nan"), 0.1)).fit(X, Y), ValueError,
     ("temperatures",)),
    ("RuleClassifier.fit-temperatures-text", lambda: rc(temperatures=("hot", "cold")).fit(X, Y), TypeError,
     ("temperatures",)),
    ("RuleClassifier.fit-operators-unknown", lambda: rc(operators=["Or", "Xor"]).fit(X, Y), ValueError,
     ("operators", "Xor")),
    ("RuleClassifier.fit-operators-empty", lambda: rc(operators=[]).fit(X, Y), ValueError, ("operators",)),
    ("RuleClassifier.fit-operators-not-iterable", lambda: rc(operators=3).fit(X, Y), ValueError, ("operators",)),
    ("RuleClassifier.fit-n_jobs-zero", lambda: rc(n_jobs=0).fit(X, Y), ValueError, ("n_jobs",)),
    ("RuleClassifier.fit-n_jobs-text", lambda: rc(n_jobs="many").fit(X, Y), TypeError, ("n_jobs",)),
    ("RuleClassifier.fit-random_state-negative", lambda: rc(random_state=-1).fit(X, Y), ValueError,
     ("random_state",)),
    ("RuleClassifier.fit-nonlocal_backend-unknown", lambda: rc(nonlocal_backend="quantum").fit(X, Y), ValueError,
     ("nonlocal_backend", "quantum")),
    ("RuleClassifier.fit-nonlocal_backend-missing-config", lambda: rc(nonlocal_backend="missing.toml").fit(X, Y),
     FileNotFoundError, ("nonlocal_backend", "missing.toml", "does not exist")),
    ("RuleClassifier.fit-nonlocal_operators-unknown",
     lambda: rc(nonlocal_backend="highs", nonlocal_operators=["Xor"]).fit(X, Y), ValueError,
     ("nonlocal_operators", "Xor")),
    ("RuleClassifier.fit-nonlocal_operators-outside-operators",
     lambda: rc(operators=["Or", "And"], nonlocal_backend="native", nonlocal_operators=["Or", "AtLeast"]).fit(X, Y),
     ValueError, ("nonlocal_operators", "AtLeast", "operators")),
    ("RuleClassifier.fit-nonlocal_operators-shape-outside-operators",
     lambda: rc(operators=["Or", "AtLeast"], nonlocal_backend="native", nonlocal_operators=["DNF", "keep"]).fit(X, Y),
     ValueError, ("nonlocal_operators", "DNF")),
    ("RuleClassifier.fit-nonlocal_operators-keep-outside-operators",
     lambda: rc(operators=["AtLeast", "Choose"], nonlocal_backend="native", nonlocal_operators=["keep"]).fit(X, Y),
     ValueError, ("nonlocal_operators", "keep")),
    ("RuleClassifier.fit-nonlocal_operators-empty",
     lambda: rc(nonlocal_backend="highs", nonlocal_operators=()).fit(X, Y), ValueError, ("nonlocal_operators",)),
    ("RuleClassifier.fit-num_iterations_burn_in-negative",
     lambda: rc(nonlocal_backend="highs", num_iterations_burn_in=-1).fit(X, Y), ValueError,
     ("num_iterations_burn_in",)),
    ("RuleClassifier.fit-patience-negative", lambda: rc(nonlocal_backend="highs", patience=-1).fit(X, Y), ValueError,
     ("patience",)),
    ("RuleClassifier.fit-max_samples-zero", lambda: rc(nonlocal_backend="highs", max_samples=0).fit(X, Y),
     ValueError, ("max_samples",)),
    ("RuleClassifier.fit-max_samples-float", lambda: rc(nonlocal_backend="highs", max_samples=50.0).fit(X, Y),
     TypeError, ("max_samples",)),
    ("RuleClassifier.fit-nonlocal_time_limit-negative",
     lambda: rc(nonlocal_backend="highs", nonlocal_time_limit=-1).fit(X, Y), ValueError, ("nonlocal_time_limit",)),
    ("RuleClassifier.fit-nonlocal_time_limit-text",
     lambda: rc(nonlocal_backend="highs", nonlocal_time_limit="fast").fit(X, Y), TypeError,
     ("nonlocal_time_limit",)),
    ("RuleClassifier.fit-nonlocal_policy-unknown", lambda: rc(nonlocal_backend="highs", nonlocal_policy="best").fit(X, Y),
     ValueError, ("nonlocal_policy",)),
    ("RuleClassifier.fit-scan_moves-above-one", lambda: rc(scan_moves=1.5).fit(X, Y), ValueError, ("scan_moves",)),
    ("RuleClassifier.fit-nonlocal_time_share-zero", lambda: rc(nonlocal_time_share=0).fit(X, Y), ValueError,
     ("nonlocal_time_share",)),
    ("RuleClassifier.fit-nonlocal_time_share-above-one", lambda: rc(nonlocal_time_share=1.5).fit(X, Y), ValueError,
     ("nonlocal_time_share",)),
    ("RuleClassifier.fit-scan_moves-text", lambda: rc(scan_moves="often").fit(X, Y), TypeError, ("scan_moves",)),
    # DepthOneClassifier
    *rows_for_estimator("DepthOneClassifier", lambda **p: DepthOneClassifier(**{"max_num_literals": 2, **p})),
    *rows_for_search("DepthOneClassifier", lambda **p: DepthOneClassifier(**{"max_num_literals": 2, **p})),
    *rows_for_predict("DepthOneClassifier", fitted_d1),
    ("DepthOneClassifier.fit-operator-unknown", lambda: DepthOneClassifier("Xor").fit(X, Y), ValueError,
     ("operator", "Xor")),
    ("DepthOneClassifier.fit-max_num_literals-zero", lambda: DepthOneClassifier(max_num_literals=0).fit(X, Y),
     ValueError, ("max_num_literals",)),
    ("DepthOneClassifier.fit-max_num_literals-float", lambda: DepthOneClassifier(max_num_literals=2.5).fit(X, Y),
     TypeError, ("max_num_literals",)),
    ("DepthOneClassifier.fit-min_num_literals-negative",
     lambda: DepthOneClassifier(min_num_literals=-1).fit(X, Y), ValueError, ("min_num_literals",)),
    ("DepthOneClassifier.fit-min-above-max",
     lambda: DepthOneClassifier(max_num_literals=2, min_num_literals=3).fit(X, Y), ValueError,
     ("min_num_literals", "max_num_literals")),
    ("DepthOneClassifier.fit-negated-text", lambda: DepthOneClassifier(negated="yes").fit(X, Y), TypeError,
     ("negated",)),
    ("DepthOneClassifier.fit-metric-unsupported", lambda: DepthOneClassifier(metric="f1").fit(X, Y), ValueError,
     ("metric", "f1")),
    ("DepthOneClassifier.fit-backend-unknown", lambda: DepthOneClassifier(backend="quantum").fit(X, Y), ValueError,
     ("backend", "quantum")),
    ("DepthOneClassifier.fit-backend-missing-config",
     lambda: DepthOneClassifier(backend="missing.toml").fit(X, Y), FileNotFoundError,
     ("backend:", "missing.toml", "does not exist")),
    ("DepthOneClassifier.fit-time_limit-negative", lambda: DepthOneClassifier(time_limit=-1).fit(X, Y), ValueError,
     ("time_limit",)),
    ("DepthOneClassifier.fit-time_limit-text", lambda: DepthOneClassifier(time_limit="fast").fit(X, Y), TypeError,
     ("time_limit",)),
    ("DepthOneClassifier.fit-max_samples-zero", lambda: DepthOneClassifier(max_samples=0).fit(X, Y), ValueError,
     ("max_samples",)),
    ("DepthOneClassifier.fit-min_num_literals-above-features",
     lambda: DepthOneClassifier(max_num_literals=9, min_num_literals=5).fit(X, Y), ValueError,
     ("min_num_literals", "features")),
    ("DepthOneClassifier.fit-max_samples-one-class-subset",
     lambda: DepthOneClassifier(max_samples=1).fit(X, Y), ValueError, ("max_samples", "one class")),
    ("DepthOneClassifier.predict-not-fitted", lambda: DepthOneClassifier().predict(X), NotFittedError,
     ("not fitted",)),
    # SingleLiteralClassifier
    *rows_for_estimator("SingleLiteralClassifier", SingleLiteralClassifier),
    *rows_for_predict("SingleLiteralClassifier", lambda Xv=X: SingleLiteralClassifier().fit(Xv, Y)),
    # QuantileBinarizer
    ("QuantileBinarizer.fit-num_bins-one", lambda: QuantileBinarizer(num_bins=1).fit(F), ValueError, ("num_bins",)),
    ("QuantileBinarizer.fit-num_bins-float", lambda: QuantileBinarizer(num_bins=4.0).fit(F), TypeError,
     ("num_bins",)),
    ("QuantileBinarizer.fit-X-NaN", lambda: QuantileBinarizer().fit(with_value(F, np.nan)), ValueError,
     ("x0", "NaN")),
    ("QuantileBinarizer.fit-X-inf", lambda: QuantileBinarizer().fit(with_value(F, np.inf)), ValueError,
     ("x0", "infinity")),
    ("QuantileBinarizer.fit-DataFrame-NaN",
     lambda: QuantileBinarizer().fit(pd.DataFrame(with_value(F, np.nan), columns=["age", "b", "c"])), ValueError,
     ("age", "NaN")),
    ("QuantileBinarizer.fit-DataFrame-text-None",
     lambda: QuantileBinarizer().fit(pd.DataFrame({"colour": ["red", None, "blue"]})), ValueError,
     ("colour", "NaN")),
    ("QuantileBinarizer.fit-X-1D", lambda: QuantileBinarizer().fit(F[:, 0]), ValueError, ("2D array",)),
    ("QuantileBinarizer.fit-X-3D", lambda: QuantileBinarizer().fit(F[:, :, None]), ValueError, ("dim 3",)),
    ("QuantileBinarizer.fit-X-no-rows", lambda: QuantileBinarizer().fit(F[:0]), ValueError, ("0 sample",)),
    ("QuantileBinarizer.fit-X-no-columns", lambda: QuantileBinarizer().fit(F[:, :0]), ValueError, ("0 feature",)),
    ("QuantileBinarizer.fit-DataFrame-no-rows", lambda: QuantileBinarizer().fit(pd.DataFrame({"a": []})),
     ValueError, ("X", "at least one row")),
    ("QuantileBinarizer.transform-not-fitted", lambda: QuantileBinarizer().transform(F), NotFittedError,
     ("not fitted",)),
    ("QuantileBinarizer.transform-X-wrong-width", lambda: fitted_qb().transform(F[:, :2]), ValueError,
     ("X has 2 features",)),
    ("QuantileBinarizer.transform-X-NaN", lambda: fitted_qb().transform(with_value(F, np.nan)), ValueError,
     ("x0", "NaN")),
    ("QuantileBinarizer.transform-X-text", lambda: fitted_qb().transform(np.array(F, dtype=str).astype(object)
                                                                          + "cm"), ValueError, ("x0", "text")),
    ("QuantileBinarizer.get_feature_names_out-wrong-length",
     lambda: fitted_qb().get_feature_names_out(["a"]), ValueError, ("input_features",)),
    # metrics
    ("get_metric-unknown", lambda: get_metric("auc"), ValueError, ("metric", "auc")),
    ("score_counts-metric-unknown", lambda: score_counts("auc", Y, Y), ValueError, ("metric", "auc")),
    ("score_counts-length-mismatch", lambda: score_counts("accuracy", Y, Y_SHORT), ValueError,
     ("y_true", "y_pred")),
    ("score_counts-y_true-non-binary", lambda: score_counts("accuracy", Y_TWO, Y), ValueError, ("y_true", "0/1")),
    ("score_counts-y_pred-NaN", lambda: score_counts("accuracy", Y, Y_NAN), ValueError, ("y_pred", "0/1")),
    ("score_counts-y_pred-text", lambda: score_counts("accuracy", Y, Y_TEXT), TypeError, ("y_pred", "numbers")),
    ("score_counts-empty", lambda: score_counts("accuracy", Y[:0], Y[:0]), ValueError, ("y_true", "empty")),
    ("score_counts-y_true-2D", lambda: score_counts("accuracy", Y_2D, Y_2D), ValueError, ("y_true", "1-D")),
    ("balanced_sample_weight-one-class", lambda: balanced_sample_weight(Y_ONE_CLASS), ValueError,
     ("y", "both classes")),
    ("balanced_sample_weight-non-binary", lambda: balanced_sample_weight(Y_TWO), ValueError, ("y", "0/1")),
    ("balanced_sample_weight-NaN", lambda: balanced_sample_weight(Y_NAN), ValueError, ("y", "0/1")),
    ("balanced_sample_weight-2D", lambda: balanced_sample_weight(Y_2D), ValueError, ("y", "1-D")),
    ("balanced_sample_weight-empty", lambda: balanced_sample_weight(Y[:0]), ValueError, ("y",)),
    # RuleScorer (the native search's scorer)
    ("RuleScorer-y-length", lambda: RuleScorer(BitMatrix(X), Y_SHORT), ValueError, ("y", "one per row")),
    ("RuleScorer-y-non-binary", lambda: RuleScorer(BitMatrix(X), Y_TWO), ValueError, ("y", "binary")),
    ("RuleScorer-y-NaN", lambda: RuleScorer(BitMatrix(X), Y_NAN), ValueError, ("y", "NaN")),
    ("RuleScorer-bits-array", lambda: RuleScorer(X, Y), TypeError, ("bits", "BitMatrix")),
    ("RuleScorer-lam-negative", lambda: RuleScorer(BitMatrix(X), Y, lam=-1), ValueError, ("lam",)),
    ("RuleScorer-metric-unknown", lambda: RuleScorer(BitMatrix(X), Y, metric="auc"), ValueError, ("metric",)),
    # rule constructors
    ("Literal-index-negative", lambda: Literal(-1), ValueError, ("index",)),
    ("Literal-index-float", lambda: Literal(1.5), TypeError, ("index",)),
    ("Literal-index-text", lambda: Literal("3"), TypeError, ("index",)),
    ("Literal-negated-text", lambda: Literal(0, negated="no"), TypeError, ("negated",)),
    ("Or-no-children", lambda: Or(), ValueError, ("Or", "sub-rule")),
    ("And-empty-list", lambda: And([]), ValueError, ("And", "sub-rule")),
    ("And-child-not-rule", lambda: And(Literal(0), 1), TypeError, ("sub-rules", "int")),
    ("Or-negated-text", lambda: Or(Literal(0), negated=1), TypeError, ("negated",)),
    ("AtLeast-k-too-large", lambda: AtLeast(3, Literal(0), Literal(1)), ValueError, ("k=3",)),
    ("AtLeast-k-negative", lambda: AtLeast(-1, Literal(0), Literal(1)), ValueError, ("k=-1",)),
    ("AtMost-k-float", lambda: AtMost(1.0, Literal(0), Literal(1)), TypeError, ("k",)),
    ("Choose-k-missing", lambda: Choose(Literal(0), Literal(1)), TypeError, ("k",)),
    ("Choose-no-children", lambda: Choose(1), ValueError, ("Choose", "sub-rule")),
    # Rule.evaluate, BitMatrix, check_binary_matrix
    ("Rule.evaluate-X-1D", lambda: Or(Literal(0), Literal(1)).evaluate(X_1D), ValueError, ("X", "2-D")),
    ("Rule.evaluate-X-3D", lambda: Or(Literal(0), Literal(1)).evaluate(X_3D), ValueError, ("X", "2-D")),
    ("Rule.evaluate-X-non-binary", lambda: Or(Literal(0), Literal(1)).evaluate(X_TWO), ValueError, ("X", "binary")),
    ("Rule.evaluate-X-NaN", lambda: Or(Literal(0), Literal(1)).evaluate(X_NAN), ValueError, ("X", "NaN")),
    ("Rule.evaluate-X-inf", lambda: Or(Literal(0), Literal(1)).evaluate(X_INF), ValueError, ("X", "binary", "inf")),
    ("Rule.evaluate-X-text", lambda: Or(Literal(0), Literal(1)).evaluate(X_TEXT), TypeError, ("X", "dtype")),
    ("Rule.evaluate-X-too-narrow", lambda: Literal(7).evaluate(X), ValueError, ("X", "feature 7")),
    ("Literal.evaluate-X-DataFrame-text", lambda: Literal(0).evaluate(pd.DataFrame({"a": ["x", "y"]})), TypeError,
     ("X", "dtype")),
    ("BitMatrix-X-non-binary", lambda: BitMatrix(X_TWO), ValueError, ("X", "binary")),
    ("BitMatrix-X-1D", lambda: BitMatrix(X_1D), ValueError, ("X", "2-D")),
    ("BitMatrix.evaluate-literal-beyond-data", lambda: BitMatrix(X).evaluate(Literal(X.shape[1])), ValueError,
     ("feature", "columns")),
    ("BitMatrix.evaluate-operator-beyond-data",
     lambda: BitMatrix(X).evaluate(Or(Literal(0), Literal(X.shape[1] + 1))), ValueError, ("feature", "columns")),
    ("BitMatrix-X-object", lambda: BitMatrix(X_OBJECT), TypeError, ("X", "dtype")),
    ("check_binary_matrix-name", lambda: check_binary_matrix(X_NAN, "features"), ValueError, ("features", "NaN")),
    # depth_one: arrays
    ("depth_one-X-NaN", lambda: depth_one(X_NAN, Y, "Or", max_num_literals=2), ValueError, ("X", "NaN")),
    ("depth_one-X-inf", lambda: depth_one(X_INF, Y, "Or", max_num_literals=2), ValueError, ("X", "binary")),
    ("depth_one-X-text", lambda: depth_one(X_TEXT, Y, "Or", max_num_literals=2), TypeError, ("X", "dtype")),
    ("depth_one-X-1D", lambda: depth_one(X_1D, Y, "Or", max_num_literals=2), ValueError, ("X", "2-D")),
    ("depth_one-X-3D", lambda: depth_one(X_3D, Y, "Or", max_num_literals=2), ValueError, ("X", "2-D")),
    ("depth_one-X-no-rows", lambda: depth_one(X_NO_ROWS, Y[:0], "Or", max_num_literals=2), ValueError,
     ("X", "at least one row")),
    ("depth_one-X-no-columns", lambda: depth_one(X_NO_COLUMNS, Y, "Or", max_num_literals=2), ValueError,
     ("X", "one column")),
    ("depth_one-X-non-binary", lambda: depth_one(X_TWO, Y, "Or", max_num_literals=2), ValueError, ("X", "binary")),
    ("depth_one-y-length", lambda: depth_one(X, Y_SHORT, "Or", max_num_literals=2), ValueError, ("y", "20 labels")),
    ("depth_one-y-2D", lambda: depth_one(X, Y_2D, "Or", max_num_literals=2), ValueError, ("y", "1-D")),
    ("depth_one-y-non-binary", lambda: depth_one(X, Y_TWO, "Or", max_num_literals=2), ValueError, ("y", "0/1")),
    ("depth_one-y-NaN", lambda: depth_one(X, Y_NAN, "Or", max_num_literals=2), ValueError, ("y", "0/1")),
    ("depth_one-y-text", lambda: depth_one(X, Y_TEXT, "Or", max_num_literals=2), TypeError, ("y", "0/1")),
    ("depth_one-y-one-class", lambda: depth_one(X, Y_ONE_CLASS, "Or", max_num_literals=2), ValueError,
     ("y", "both classes")),
    ("depth_one-sample_weight-negative",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, sample_weight=with_value(np.ones(20), -1)), ValueError,
     ("sample_weight", ">= 0")),
    ("depth_one-sample_weight-NaN",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, sample_weight=with_value(np.ones(20), np.nan)), ValueError,
     ("sample_weight", "finite")),
    ("depth_one-sample_weight-length",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, sample_weight=np.ones(19)), ValueError,
     ("sample_weight", "one weight per sample")),
    ("depth_one-sample_weight-text-array",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, sample_weight=["heavy"] * 20), TypeError,
     ("sample_weight",)),
    ("depth_one-sample_weight-unknown-mode",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, sample_weight="heavy"), ValueError,
     ("sample_weight", "heavy", "'balanced'")),
    # depth_one: parameters
    ("depth_one-operator-unknown", lambda: depth_one(X, Y, "Xor", max_num_literals=2), ValueError,
     ("operator", "Xor")),
    ("depth_one-operator-not-operator-class", lambda: depth_one(X, Y, Literal, max_num_literals=2), ValueError,
     ("operator",)),
    ("depth_one-max_num_literals-zero", lambda: depth_one(X, Y, "Or", max_num_literals=0), ValueError,
     ("max_num_literals",)),
    ("depth_one-max_num_literals-above-2m", lambda: depth_one(X, Y, "Or", max_num_literals=9), ValueError,
     ("max_num_literals", "8")),
    ("depth_one-max_num_literals-float", lambda: depth_one(X, Y, "Or", max_num_literals=2.0), TypeError,
     ("max_num_literals",)),
    ("depth_one-min_num_literals-negative",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, min_num_literals=-1), ValueError, ("min_num_literals",)),
    ("depth_one-min-above-max", lambda: depth_one(X, Y, "Or", max_num_literals=2, min_num_literals=3), ValueError,
     ("min_num_literals", "max_num_literals")),
    ("depth_one-min-above-features-exclusive",
     lambda: depth_one(X, Y, "Or", max_num_literals=6, min_num_literals=5), ValueError,
     ("min_num_literals", "exclusive")),
    ("depth_one-lam-negative", lambda: depth_one(X, Y, "Or", max_num_literals=2, lam=-1), ValueError, ("lam",)),
    ("depth_one-lam-NaN", lambda: depth_one(X, Y, "Or", max_num_literals=2, lam=float("nan")), ValueError, ("lam",)),
    ("depth_one-lam-text", lambda: depth_one(X, Y, "Or", max_num_literals=2, lam="1"), TypeError, ("lam",)),
    ("depth_one-negated-text", lambda: depth_one(X, Y, "Or", max_num_literals=2, negated="yes"), TypeError,
     ("negated",)),
    ("depth_one-exclusive_literals-text",
     lambda: depth_one(X, Y, "Or", max_num_literals=2, exclusive_literals="no"), TypeError, ("exclusive_literals",)),
    # DepthOneProblem
    ("DepthOneProblem.decode-b-wrong-length", lambda: problem().decode({"b": [0, 1], "bt": [0, 0]}), ValueError,
     ("b", "bt", "4 values")),
    ("DepthOneProblem.decode-bt-missing", lambda: problem().decode({"b": [0, 1, 0, 0]}), ValueError,
     ("values", "b, bt")),
    ("DepthOneProblem.decode-k-missing",
     lambda: problem(operator="AtLeast").decode({"b": [1, 0, 0, 0], "bt": [0, 0, 0, 0]}), ValueError,
     ("values", "b, bt, k")),
    ("DepthOneProblem.decode-k-out-of-range",
     lambda: problem(operator="AtLeast").decode({"b": [1, 0, 0, 0], "bt": [0, 0, 0, 0], "k": 3}), ValueError,
     ("k=3",)),
    ("DepthOneProblem.objective-rule-too-wide", lambda: problem().objective(Literal(9)), ValueError,
     ("X", "feature 9")),
    # compile_qubo
    ("compile_qubo-problem-wrong-type", lambda: compile_qubo("problem.lp"), TypeError, ("problem", "DepthOneProblem")),
    ("compile_qubo-penalty-negative", lambda: compile_qubo(problem(), penalty={"soft": -1, "hard": 1}), ValueError,
     ("penalty",)),
    ("compile_qubo-penalty-NaN", lambda: compile_qubo(problem(), penalty={"soft": 1, "hard": float("nan")}),
     ValueError, ("penalty",)),
    ("compile_qubo-penalty-text-weight", lambda: compile_qubo(problem(), penalty={"soft": "low", "hard": 1}),
     TypeError, ("penalty", "soft")),
    ("compile_qubo-penalty-missing-key", lambda: compile_qubo(problem(), penalty={"soft": 1}), ValueError,
     ("penalty", "hard")),
    ("compile_qubo-penalty-unknown-mode", lambda: compile_qubo(problem(), penalty="strong"), ValueError,
     ("penalty", "strong")),
    ("compile_qubo-slack-unknown", lambda: compile_qubo(problem(), slack="tight"), ValueError, ("slack", "tight")),
    ("QuboProblem.decode-sample-wrong-length", lambda: compile_qubo(problem()).decode([0, 1]), ValueError,
     ("sample", "variables")),
    ("QuboProblem.with_penalties-negative", lambda: compile_qubo(problem()).with_penalties({"soft": 0, "hard": 1}),
     ValueError, ("penalty",)),
    ("compile_qubo-eta-text", lambda: compile_qubo(problem(), eta="no"), TypeError, ("eta",)),
    ("DepthOneProblem.to_qubo-penalty-negative", lambda: problem().to_qubo(penalty={"soft": 1, "hard": -2}),
     ValueError, ("penalty",)),
    # IlpBackend
    ("IlpBackend.solve-problem-wrong-type", lambda: IlpBackend().solve(None), TypeError, ("problem", "DepthOneProblem")),
    ("IlpBackend-solver-unknown", lambda: IlpBackend("cplexx"), ValueError, ("solver", "cplexx")),
    ("IlpBackend-time_limit-text", lambda: IlpBackend(time_limit="fast"), TypeError, ("time_limit",)),
    ("IlpBackend-time_limit-negative", lambda: IlpBackend(time_limit=-1), ValueError, ("time_limit",)),
    ("IlpBackend-mip_gap-negative", lambda: IlpBackend(mip_gap=-0.1), ValueError, ("mip_gap",)),
    ("IlpBackend-threads-zero", lambda: IlpBackend(threads=0), ValueError, ("threads",)),
    ("IlpBackend-warm_start-text", lambda: IlpBackend(warm_start="yes"), TypeError, ("warm_start",)),
    # get_backend and Backend.solve
    ("get_backend-name-unknown", lambda: get_backend("quantum"), ValueError, ("backend", "quantum")),
    ("get_backend-name-not-text", lambda: get_backend(3), ValueError, ("backend",)),
    ("get_backend-option-unknown", lambda: get_backend("sa", sweeps=10), ValueError, ("option", "sweeps")),
    ("get_backend-instance-with-options", lambda: get_backend(get_backend("sa"), num_reads=3), ValueError,
     ("options",)),
    ("get_backend-highs-time_limit-text", lambda: get_backend("highs", time_limit="fast"), TypeError,
     ("time_limit",)),
    ("get_backend-highs-time_limit-negative", lambda: get_backend("highs", time_limit=-1), ValueError,
     ("time_limit",)),
    ("get_backend-highs-mip_gap-NaN", lambda: get_backend("highs", mip_gap=float("nan")), ValueError, ("mip_gap",)),
    ("get_backend-highs-threads-zero", lambda: get_backend("highs", threads=0), ValueError, ("threads",)),
    ("get_backend-highs-warm_start-text", lambda: get_backend("highs", warm_start="no"), TypeError, ("warm_start",)),
    ("get_backend-sa-num_reads-zero", lambda: get_backend("sa", num_reads=0), ValueError, ("num_reads",)),
    ("get_backend-sa-num_reads-float", lambda: get_backend("sa", num_reads=10.0), TypeError, ("num_reads",)),
    ("get_backend-sa-num_sweeps-negative", lambda: get_backend("sa", num_sweeps=-5), ValueError, ("num_sweeps",)),
    ("get_backend-sa-seed-negative", lambda: get_backend("sa", seed=-1), ValueError, ("seed",)),
    ("get_backend-sa-beta_range-decreasing", lambda: get_backend("sa", beta_range=(10, 1)), ValueError,
     ("beta_range",)),
    ("get_backend-sa-beta_range-scalar", lambda: get_backend("sa", beta_range=1.0), ValueError, ("beta_range",)),
    ("get_backend-sa-eta-text", lambda: get_backend("sa", eta="no"), TypeError, ("eta",)),
    ("get_backend-sa-penalty-unknown", lambda: get_backend("sa", penalty="strong"), ValueError, ("penalty",)),
    ("get_backend-sa-penalty-negative", lambda: get_backend("sa", penalty={"soft": -1, "hard": 1}), ValueError,
     ("penalty",)),
    ("get_backend-sa-slack-unknown", lambda: get_backend("sa", slack="tight"), ValueError, ("slack",)),
    ("get_backend-tabu-timeout-zero", lambda: get_backend("tabu", timeout=0), ValueError, ("timeout",)),
    ("get_backend-exact-max_variables-zero", lambda: get_backend("exact", max_variables=0), ValueError,
     ("max_variables",)),
    ("get_backend-qaoa-reps-zero", lambda: get_backend("qaoa", reps=0), ValueError, ("reps",)),
    ("get_backend-qaoa-optimizer-unknown", lambda: get_backend("qaoa", optimizer="SPSA"), ValueError,
     ("optimizer", "SPSA")),
    ("get_backend-qaoa-shots-zero", lambda: get_backend("qaoa", shots=0), ValueError, ("shots",)),
    ("get_backend-steepest-num_reads-zero", lambda: get_backend("steepest", num_reads=0), ValueError,
     ("num_reads",)),
    # the cloud backends check their options before they look for a token
    ("get_backend-dwave-qpu-num_reads-zero", lambda: get_backend("dwave-qpu", num_reads=0), ValueError,
     ("num_reads",)),
    ("get_backend-dwave-qpu-chain_strength-negative", lambda: get_backend("dwave-qpu", chain_strength=-1),
     ValueError, ("chain_strength",)),
    ("get_backend-dwave-qpu-solver-number", lambda: get_backend("dwave-qpu", solver=5), TypeError, ("solver",)),
    ("get_backend-dwave-qpu-solver-and-sampler", lambda: get_backend("dwave-qpu", solver="Advantage", sampler=object()),
     ValueError, ("solver", "sampler")),
    ("get_backend-leap-hybrid-time_limit-negative", lambda: get_backend("leap-hybrid", time_limit=-1), ValueError,
     ("time_limit",)),
    ("get_backend-leap-cqm-time_limit-text", lambda: get_backend("leap-cqm", time_limit="long"), TypeError,
     ("time_limit",)),
    ("Backend.solve-option-unknown", lambda: solve("highs", sweeps=3), ValueError, ("option", "sweeps")),
    ("Backend.solve-option-wrong-type", lambda: get_backend("highs").solve(problem(), time_limit="fast"), TypeError,
     ("time_limit",)),
    ("Backend.solve-sa-num_reads-zero", lambda: get_backend("sa").solve(problem(), num_reads=0), ValueError,
     ("num_reads",)),
    ("Backend.solve-highs-problem-wrong-type", lambda: get_backend("highs").solve("problem.lp"), TypeError,
     ("problem", "DepthOneProblem")),
    ("Backend.solve-sa-problem-wrong-type", lambda: get_backend("sa").solve(X), TypeError,
     ("problem", "DepthOneProblem")),
    ("Backend.solve-exact-too-large", lambda: solve("exact", max_variables=10), ValueError, ("max_variables", "variables")),
    ("Backend.solve-qaoa-too-large", lambda: solve("qaoa", max_qubits=5), ValueError, ("max_qubits", "qubits")),
    # load_dataset
    ("load_dataset-name-unknown", lambda: load_dataset("iris-2"), ValueError, ("name", "iris-2")),
]


def _rows():
    ids = [row[0] for row in ROWS]
    assert len(ids) == len(set(ids)), "row ids must be unique"
    return [pytest.param(call, exc, names, id=row_id) for row_id, call, exc, names in ROWS]


@pytest.mark.parametrize("call, expected, names", _rows())
def test_bad_input_gives_clear_error(call, expected, names):
    assert_raises_clearly(expected, call, *names)


# Nothing the user passed is modified in place


def _copies(*arrays):
    """Deep copies of numpy arrays, DataFrames and Series."""
    return [a.copy(deep=True) if isinstance(a, (pd.DataFrame, pd.Series)) else np.array(a, copy=True) for a in arrays]


def _assert_unchanged(originals, copies):
    for original, copy in zip(originals, copies):
        if isinstance(original, pd.DataFrame):
            pd.testing.assert_frame_equal(original, copy)
        elif isinstance(original, pd.Series):
            pd.testing.assert_series_equal(original, copy)
        else:
            assert original.dtype == copy.dtype
            np.testing.assert_array_equal(original, copy)


INPUTS = {
    "uint8": (np.array(X), np.array(Y)),
    "bool": (X.astype(bool), Y.astype(bool)),
    "float": (X.astype(float), Y.astype(float)),
    "continuous": (F.copy(), np.array(Y)),
    "DataFrame": (pd.DataFrame(F, columns=["a", "b", "c"]).assign(d=["u", "v"] * 10), pd.Series(Y, name="y")),
}


@pytest.mark.parametrize("kind", list(INPUTS))
@pytest.mark.parametrize("make", [
    pytest.param(lambda: RuleClassifier(num_starts=2, num_iterations=30, random_state=0), id="RuleClassifier"),
    pytest.param(lambda: DepthOneClassifier(max_num_literals=2), id="DepthOneClassifier"),
])
def test_classifiers_do_not_modify_inputs(make, kind):
    Xa, ya = (a.copy() for a in INPUTS[kind])
    before = _copies(Xa, ya)
    clf = make().fit(Xa, ya)
    clf.predict(Xa)
    clf.score(Xa, ya)
    _assert_unchanged((Xa, ya), before)


@pytest.mark.parametrize("kind", ["continuous", "DataFrame"])
def test_binarizer_does_not_modify_inputs(kind):
    Xa = INPUTS[kind][0].copy()
    before = _copies(Xa)
    QuantileBinarizer(num_bins=4).fit(Xa).transform(Xa)
    _assert_unchanged((Xa,), before)


@pytest.mark.parametrize("backend", ["highs", "sa", "exact-small"])
@pytest.mark.parametrize("kind", ["uint8", "bool", "float"])
def test_formulations_and_backends_do_not_modify_inputs(kind, backend):
    Xa, ya = (a.copy() for a in INPUTS[kind])
    if backend == "exact-small":
        Xa, ya = Xa[:4, :2], ya[:4]
    weights = np.linspace(0.5, 2.0, len(ya))
    before = _copies(Xa, ya, weights)
    p = depth_one(Xa, ya, "AtLeast", max_num_literals=2, sample_weight=weights)
    compile_qubo(p, penalty="calibrated")
    IlpBackend().solve(p)
    if backend == "exact-small":
        result = get_backend("exact", eta=False, max_variables=30).solve(p)
    else:
        result = get_backend(backend, **({"num_reads": 5, "seed": 0} if backend == "sa" else {})).solve(p)
    p.objective(result.rule)
    score_counts("accuracy", ya, result.rule.evaluate(Xa))
    balanced_sample_weight(ya)
    _assert_unchanged((Xa, ya, weights), before)
