"""Binarize mixed tabular data into 0/1 features for Boolean rules (paper Section 6.2)."""

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_consistent_length, check_is_fitted, column_or_1d, validate_data

from .exceptions import InputError, InputTypeError
from .validation import Interval


class QuantileBinarizer(TransformerMixin, BaseEstimator):
    """Turn each column into readable 0/1 features: quantile "up" bins, one-hot or one flag.

    Per column, learned by ``fit``:

    - exactly two distinct values: one feature, ``name == v`` for the second value in sorted
      order, or just ``name`` when the column is already 0/1 numeric or boolean;
    - numeric with more than ``num_bins`` distinct values: one "up" feature ``name >= q`` per
      threshold ``q`` (duplicate thresholds dropped); the "down" bins are the negations, which
      rules already have. By default (``thresholds="quantile"``) the thresholds are the quantiles at
      ``np.linspace(0, 1, num_bins, endpoint=False)``; ``thresholds="tree"`` takes instead the
      split points of a small tree fitted on the column alone against ``y``, where the label
      changes (see ``thresholds``), and ``"both"`` the union of the two;
    - anything else (text, categorical, few numeric values): one-hot ``name == v``.

    A column is numeric when its dtype is (pandas' nullable ``Int64``, ``Float64`` and ``boolean``
    included) or when it holds objects that are all numbers (or all booleans) once the missing
    markers (None, NaN, ``pd.NA``, ``NaT``) are left out, in fit and at transform alike. Complex
    numbers raise ``TypeError`` naming the column.
    Text and categorical values are compared by their text (numbers given at ``transform`` for such
    a column by the text ``_format_value`` writes: 3.0 matches "3"); values unseen in ``fit`` give all
    zeros. Infinite values and date/time columns raise ``ValueError`` naming the column (turn
    dates into numbers or parts, such as days since an event or the month, first).

    By default a feature that is constant on the rows ``fit`` sees (``x >= min`` is always true)
    or equal on them to an earlier feature or its negation is left out: it can only cost a rule
    complexity.
    ``paper_layout=True`` keeps every feature, as the paper's Section 6.2 counts them (300 on
    Breast Cancer), for its Table 2 and benchmarks.

    Parameters
    ----------
    num_bins : int or "auto", default=10
        Number of quantiles per numeric column (the paper uses 10). "auto": the paper's 10 below
        1000 rows (where more cuts let a rule fit noise), then one per ``ROWS_PER_BIN`` (100) rows
        that ``fit`` sees, up to 30, the most measured (``num_bins_``), and there a value that fills
        a whole bin (a spike, such as 78% zeros) also gets a cut just above it, at the column's next
        value: equal quantiles collapse into one cut and lose that one (``x > 0``), which a tree on
        the raw column finds (benchmarks/README.md, "Quantiles that grow with the rows"). The rule
        classifiers' ``binarizer="auto"`` uses it.
    paper_layout : bool, default=False
        Keep constant and duplicate features (the paper's layout).
    thresholds : {"quantile", "tree", "both"}, default="quantile"
        Where numeric columns are cut. "quantile": at ``num_bins`` quantiles, unsupervised.
        "tree": at the split points of a ``DecisionTreeClassifier`` fitted on the column alone
        against the class labels ``y`` (then required by ``fit``), with at most ``num_bins``
        leaves of at least ``n_samples / (2 num_bins)`` rows each (half a quantile bin, so a cut
        does not chase a few rows), balanced class weights and a fixed seed; each split point is
        moved up to the smallest value of the column above it, so features read ``name >= value``
        with a value of the data and split the fitted rows as the tree does. "both": the quantiles
        and the tree's split points. A supervised choice puts the labels into the features: fit it
        on training rows only (`RuleClassifier` does; `RuleClassifierCV` refits it on each fold's
        training rows).
    missing : {"error", "indicator"}, default="error"
        Missing values (NaN, None, NA) raise ``ValueError`` naming the column, or with
        ``"indicator"`` give one more feature ``name is missing``; a missing value is then 0 in
        the column's other features (so ``~(x >= 3)`` also holds for it: pair it with the
        indicator when that matters). Columns with no missing value in ``fit`` get no indicator
        and read a missing value at ``transform`` as all zeros.

    Attributes
    ----------
    encodings_ : list of (str, ndarray, list of str)
        Per input column: the operator (``">="`` or ``"=="``), the thresholds or values
        (float64 for numeric columns, str for text ones) and the suffix of each feature name.
    missing_indicators_ : ndarray of bool
        Per input column: whether its ``name is missing`` feature follows its other features.
    num_bins_ : int
        The number of quantiles used: ``num_bins``, resolved for the fitted rows when "auto".
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` was a DataFrame with string column names.
    """

    _parameter_constraints: dict = {
        "num_bins": [Interval(Integral, 2, None, closed="left"), StrOptions({"auto"})],
        "paper_layout": ["boolean"],
        "missing": [StrOptions({"error", "indicator"})],
        "thresholds": [StrOptions({"quantile", "tree", "both"})],
    }

    def __init__(self, num_bins=10, paper_layout=False, missing="error", thresholds="quantile"):
        self.num_bins = num_bins
        self.paper_layout = paper_layout
        self.missing = missing
        self.thresholds = thresholds

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the thresholds and categories of every column of ``X``; ``y`` (class labels) is
        used by ``thresholds="tree"`` and ``"both"`` only, and ignored otherwise."""
        columns = self._columns(X, reset=True)
        y = self._check_y(y, X) if self.thresholds != "quantile" else None
        num_rows = len(columns[0][0])
        self.num_bins_ = auto_num_bins(num_rows) if self.num_bins == "auto" else self.num_bins
        mass_cuts = self.num_bins == "auto" and num_rows >= ROWS_PER_BIN * AUTO_BINS[0]
        self.encodings_ = [
            _fit_column(column[~missing], self.num_bins_, self.thresholds, None if y is None else y[~missing],
                        mass_cuts=mass_cuts)
            for column, missing in columns
        ]
        self.missing_indicators_ = np.array([missing.any() for _, missing in columns])
        if not self.paper_layout:
            self._drop_redundant(self._encode(columns))
        return self

    def _check_y(self, y, X):
        """The labels of a supervised fit as a 1-D array of classes as long as ``X``; refuse none."""
        if y is None:
            raise InputError(
                f"QuantileBinarizer requires y to be passed, but the target y is None: thresholds={self.thresholds!r} "
                "cuts numeric columns where the label changes; pass y or use thresholds='quantile'"
            )
        y = column_or_1d(y, warn=True)
        check_consistent_length(X, y)
        check_classification_targets(y)
        return y

    def transform(self, X):
        """Return the 0/1 features of ``X``: uint8 of shape (n_samples, n_features_out)."""
        check_is_fitted(self)
        return self._encode(self._columns(X, reset=False))

    def _encode(self, columns):
        """The 0/1 features of validated ``columns`` under the fitted encodings."""
        blocks = []
        for name, (column, missing), (op, values, _), indicator in zip(
            self._input_names(), columns, self.encodings_, self.missing_indicators_
        ):
            if values.dtype.kind == "U":
                column = _as_text(column)
            elif column.dtype.kind != "f":
                raise InputError(f"column {name!r} of X was numeric in fit but is text now")
            block = column[:, None] >= values if op == ">=" else column[:, None] == values
            blocks.append(block & ~missing[:, None])
            if indicator:
                blocks.append(missing[:, None])
        return np.hstack(blocks).astype(np.uint8)

    def _drop_redundant(self, Xb):
        """Leave out the features that are constant on ``Xb`` (the fitted rows) or equal there to an
        earlier one or to its negation (rules negate features), by shrinking ``encodings_`` and
        ``missing_indicators_``; ``name is missing`` features count as earliest."""
        indicators = np.zeros(Xb.shape[1], dtype=bool)
        widths = [len(values) + bool(ind) for (_, values, _), ind in zip(self.encodings_, self.missing_indicators_)]
        ends = np.cumsum(widths)
        indicators[(ends - 1)[self.missing_indicators_]] = True
        order = np.r_[np.flatnonzero(indicators), np.flatnonzero(~indicators)]
        canonical = Xb[:, order] ^ Xb[:1, order]  # a feature and its negation agree after the flip
        _, first = np.unique(np.packbits(canonical, axis=0).T, axis=0, return_index=True)
        keep = np.zeros(Xb.shape[1], dtype=bool)
        keep[order[first]] = True
        keep &= Xb.any(axis=0) & ~Xb.all(axis=0)
        if not keep.any():
            raise InputError(
                f"every feature of X is constant on its {Xb.shape[0]} rows (n_samples = {Xb.shape[0]}); "
                "a rule needs a column that varies"
            )
        start = 0
        for j, (op, values, suffixes) in enumerate(self.encodings_):
            kept = keep[start:start + len(values)]
            self.encodings_[j] = (op, values[kept], [s for s, k in zip(suffixes, kept) if k])
            start += len(values)
            if self.missing_indicators_[j]:
                self.missing_indicators_[j] = keep[start]
                start += 1

    def get_feature_names_out(self, input_features=None):
        """Return the readable output feature names, e.g. ``worst area >= 686.5``."""
        check_is_fitted(self)
        names = self._input_names()
        if input_features is not None:
            input_features = np.asarray(input_features, dtype=object)
            if len(input_features) != self.n_features_in_:
                raise InputError(
                    f"input_features should have length {self.n_features_in_}, "
                    f"got {len(input_features)}"
                )
            if hasattr(self, "feature_names_in_") and not np.array_equal(
                input_features, self.feature_names_in_
            ):
                raise InputError("input_features is not equal to feature_names_in_")
            names = [str(name) for name in input_features]
        return np.asarray(
            [
                name + suffix
                for name, (_, _, suffixes), indicator in zip(names, self.encodings_, self.missing_indicators_)
                for suffix in [*suffixes, *([MISSING_SUFFIX] if indicator else [])]
            ],
            dtype=object,
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The output is always 0/1 uint8, so no input float dtype is preserved and
        # check_transformer_preserve_dtypes does not apply.
        tags.transformer_tags.preserves_dtype = []
        # Text, pandas categorical and boolean columns are binarized like numbers.
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = self.missing == "indicator"
        # The supervised thresholds learn from y; `RuleClassifierCV` reads this to refit per fold.
        tags.target_tags.required = self.thresholds != "quantile"
        return tags

    def _input_names(self):
        """Column names from ``feature_names_in_``, else ``x0, x1, ...`` as sklearn does."""
        if hasattr(self, "feature_names_in_"):
            return [str(name) for name in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def _columns(self, X, reset):
        """Validate ``X`` and return ``(values, missing)`` per column: float64 (numeric, boolean)
        or str values, and a boolean mask of the missing ones."""
        if isinstance(X, pd.DataFrame):
            if X.shape[0] == 0 or X.shape[1] == 0:
                raise InputError(f"X needs at least one row and one column, got shape {X.shape}")
            check_no_datetimes(X, "X")
            validate_data(self, X, skip_check_array=True, reset=reset)
            raw = [X.iloc[:, j] for j in range(X.shape[1])]
        else:
            X = check_array(X, dtype=None, ensure_all_finite=False)
            validate_data(self, X, skip_check_array=True, reset=reset)
            raw = list(X.T)
        return [_column(values, name, self.missing) for values, name in zip(raw, self._input_names())]


MISSING_SUFFIX = " is missing"
ROWS_PER_BIN, AUTO_BINS = 100, (10, 30)  # num_bins="auto": a quantile per 100 rows, within 10..30


def auto_num_bins(num_rows: int) -> int:
    """`QuantileBinarizer(num_bins="auto")`'s quantile count for `num_rows` rows: n // 100 within 10..30."""
    return int(np.clip(num_rows // ROWS_PER_BIN, *AUTO_BINS))


def check_no_datetimes(frame, name):
    """Refuse date/time columns of the DataFrame ``frame`` (argument ``name``), naming them."""
    dated = [str(c) for c, dtype in frame.dtypes.items()
             if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype)
             or isinstance(dtype, pd.PeriodDtype)]
    if dated:
        raise InputError(
            f"column(s) {', '.join(map(repr, dated))} of {name} hold dates or times, which are not binarized; "
            "turn them into numbers or parts first (e.g. days since a date, the month)"
        )


def _column(values, name, missing):
    """One column as float64 if numeric or boolean, else as text, and its mask of missing values;
    infinity, and missing values unless ``missing == "indicator"``, raise."""
    series = pd.Series(values).infer_objects()
    absent = series.isna().to_numpy()
    if pd.api.types.is_complex_dtype(series):
        raise InputTypeError(f"column {name!r} of X holds complex numbers, which are not binarized")
    if _is_numeric(series, absent):
        column = series.to_numpy(dtype=np.float64, na_value=np.nan)
        bad = ~np.isfinite(column) & ~absent
    else:
        bad = np.zeros(len(series), dtype=bool)
        column = _as_text(series)
    if missing == "error":
        bad |= absent
    if bad.any():
        raise InputError(
            f"column {name!r} of X contains NaN or infinity in {int(bad.sum())} rows; "
            "drop or impute them first"
            + (", or pass missing=\"indicator\"" if missing == "error" and absent.any() else "")
        )
    return column, absent


_NUMBER_KINDS = {"integer", "floating", "mixed-integer-float", "decimal", "boolean", "empty"}


def _is_numeric(series, absent):
    """Whether a column is numbers (or booleans): of a numeric dtype, nullable ones included, or
    object values that are all numbers once the missing markers (None, NaN, pd.NA, NaT) are left
    out, as pandas keeps an object dtype for numbers mixed with pd.NA or NaT."""
    if pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series):
        return True
    return series.dtype == object and pd.api.types.infer_dtype(series[~absent], skipna=False) in _NUMBER_KINDS


def _as_text(column):
    """A column's values as text, numbers as `_format_value` writes them (3 and 3.0 as "3"): the same
    text whether a value comes as a number, a category or a string, in fit and at transform."""
    if getattr(column, "dtype", None) is not None and column.dtype.kind == "U":
        return column
    codes, values = pd.factorize(pd.Series(column, copy=False).astype(object), use_na_sentinel=False)
    return np.array([_format_value(value) for value in values] or [""], dtype=str)[codes]


def _fit_column(column, num_bins, thresholds="quantile", y=None, mass_cuts=False):
    """Return ``(op, values, suffixes)`` encoding one column, following the class docstring; ``y``:
    the labels of its rows, for the supervised ``thresholds``; ``mass_cuts``: also cut just above a
    value that fills a whole quantile bin (``num_bins="auto"`` on 1000 rows or more)."""
    values = np.unique(column)
    numeric = column.dtype.kind == "f"
    if len(values) == 2:
        if numeric and values[0] == 0 and values[1] == 1:
            return "==", values[1:], [""]
        return "==", values[1:], [f" == {_format_value(values[1])}"]
    if numeric and len(values) > num_bins:
        cuts = []
        if thresholds in ("quantile", "both"):
            quantiles = np.quantile(column, np.linspace(0, 1, num_bins, endpoint=False))
            cuts.append(quantiles)
            if mass_cuts:  # equal neighbouring quantiles: one value fills a bin, so cut above it too
                above = np.searchsorted(values, quantiles[1:][quantiles[1:] == quantiles[:-1]], side="right")
                cuts.append(values[above[above < len(values)]])
        if thresholds in ("tree", "both"):
            cuts.append(_tree_thresholds(column, y, num_bins, values))
        cuts = np.unique(np.concatenate(cuts))
        return ">=", cuts, [f" >= {label}" for label in _threshold_labels(cuts)]
    return "==", values, [f" == {_format_value(value)}" for value in values]


def _tree_thresholds(column, y, num_bins, values):
    """The split points of a balanced tree of at most ``num_bins`` leaves fitted on ``column`` alone
    against ``y``, each as the smallest of the column's sorted distinct ``values`` above it.

    The tree sees each value's rank, not the value: the same splits (a tree depends on the order
    only), exact in the float32 trees compute in, and no overflow for huge values."""
    ranks = np.searchsorted(values, column).reshape(-1, 1)
    tree = DecisionTreeClassifier(
        max_leaf_nodes=num_bins, min_samples_leaf=max(1, len(column) // (2 * num_bins)),
        class_weight="balanced", random_state=0,
    ).fit(ranks, y)
    splits = tree.tree_.threshold[tree.tree_.feature >= 0]  # a rank ending in .5: between two values
    return values[np.floor(splits).astype(int) + 1]


def _threshold_labels(thresholds):
    """Format thresholds with 4 significant digits, or more when needed to tell them apart."""
    for digits in range(4, 18):
        labels = [format(q, f".{digits}g") for q in thresholds]
        if len(set(labels)) == len(labels):
            break
    return labels


def _format_value(value):
    """Exact, short text of a category: integers without ``.0``, floats by shortest repr."""
    if isinstance(value, (float, np.floating)):
        return str(int(value)) if float(value).is_integer() else repr(float(value))
    return str(value)
