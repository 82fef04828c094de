"""Tests of boolrules.data: QuantileBinarizer against a per-cell reference and sklearn's checks."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from boolrules.data import QuantileBinarizer

from .errors import assert_raises_clearly


def reference_binarize(frame, num_bins=10):
    """Binarize column by column and cell by cell with the documented rules (slow, obvious)."""
    names, columns = [], []
    for name in frame.columns:
        values = list(frame[name])
        distinct = sorted(set(values), key=lambda v: (str(type(v)), v))
        numeric = all(isinstance(v, (int, float, bool, np.number, np.bool_)) for v in values)
        if len(distinct) == 2:
            flag = distinct[1]
            plain = numeric and set(distinct) == {0, 1}
            names.append(name if plain else f"{name} == {flag}")
            columns.append([int(v == flag) for v in values])
        elif numeric and len(distinct) > num_bins:
            levels = np.linspace(0, 1, num_bins, endpoint=False)
            quantiles = np.quantile(np.asarray(values, float), levels)
            for q in sorted(set(quantiles)):
                names.append(f"{name} >= {format(q, '.4g')}")
                columns.append([int(v >= q) for v in values])
        else:
            for value in distinct:
                names.append(f"{name} == {value}")
                columns.append([int(v == value) for v in values])
    return names, np.array(columns, dtype=np.uint8).T


@pytest.fixture
def frame():
    rng = np.random.default_rng(0)
    n = 40
    return pd.DataFrame(
        {
            "amount": rng.normal(100, 30, n).round(1),
            "count": rng.integers(0, 4, n),
            "steps": np.repeat(np.arange(8), 5) * 3,
            "flag01": rng.integers(0, 2, n),
            "weekend": rng.integers(0, 2, n).astype(bool),
            "answer": rng.choice(["No", "Yes"], n),
            "color": pd.Categorical(rng.choice(["red", "green", "blue"], n)),
            "city": rng.choice(["Oslo", "Lima", "Pune", "Kyiv"], n).astype(object),
            "skewed": np.r_[np.zeros(30), rng.uniform(1, 2, 10)],
        }
    )


def without_redundant(names, columns):
    """Keep the features that vary and differ from every earlier kept one and its negation."""
    kept = []
    for j in range(columns.shape[1]):
        column = columns[:, j]
        if 0 < column.sum() < len(column) and not any(
            (column == columns[:, i]).all() or (column != columns[:, i]).all() for i in kept
        ):
            kept.append(j)
    return [names[j] for j in kept], columns[:, kept]


@pytest.mark.parametrize("paper_layout", [True, False])
def test_matches_reference(frame, paper_layout):
    frame = frame.assign(constant=7, same_as_answer=frame["answer"].map({"No": "n", "Yes": "y"}),
                         not_answer=frame["answer"].map({"No": "y", "Yes": "n"}))
    binarizer = QuantileBinarizer(num_bins=4, paper_layout=paper_layout)
    X = binarizer.fit_transform(frame)
    names, expected = reference_binarize(frame, num_bins=4)
    if not paper_layout:
        names, expected = without_redundant(names, expected)
        assert not any(n.startswith(("constant", "same_as_answer", "not_answer")) for n in names)
    assert binarizer.get_feature_names_out().tolist() == names
    assert X.dtype == np.uint8
    np.testing.assert_array_equal(X, expected)


def test_column_rules(frame):
    names = QuantileBinarizer(num_bins=4, paper_layout=True).fit(frame).get_feature_names_out().tolist()
    assert "flag01" in names and "weekend" in names  # already binary: plain name
    assert "answer == Yes" in names and "answer == No" not in names
    colors = [n for n in names if n.startswith("color")]
    assert colors == ["color == blue", "color == green", "color == red"]
    assert sum(n.startswith("count") for n in names) == 4  # 4 values <= num_bins: one-hot
    assert sum(n.startswith("amount >= ") for n in names) == 4
    assert names.count("skewed >= 0") == 1  # repeated zero quantiles collapse to one threshold


def test_breast_cancer_gives_300_features_with_readable_names_in_the_paper_layout():
    data = load_breast_cancer(as_frame=True).data
    binarizer = QuantileBinarizer(paper_layout=True)
    X = binarizer.fit_transform(data)
    names = binarizer.get_feature_names_out()
    assert X.shape == (569, 300)
    assert "worst area >= 686.5" in names
    assert len(set(names)) == 300
    assert (X.all(axis=0)).sum() == 30  # x >= min, one per column


def test_breast_cancer_has_no_constant_or_duplicate_feature_by_default():
    data = load_breast_cancer(as_frame=True).data
    binarizer = QuantileBinarizer()
    X = binarizer.fit_transform(data)
    names = binarizer.get_feature_names_out().tolist()
    assert X.shape == (569, 269) and len(names) == 269  # 30 constant, 1 duplicate left out
    assert X.any(axis=0).all() and not X.all(axis=0).any()
    assert len(np.unique(X, axis=1).T) == 269
    assert "worst area >= 686.5" in names and "mean radius >= 6.981" not in names


def test_keeps_minimum_threshold_in_the_paper_layout():
    X = np.arange(20.0).reshape(-1, 1)
    binarizer = QuantileBinarizer(num_bins=5, paper_layout=True).fit(X)
    assert binarizer.get_feature_names_out().tolist() == [
        "x0 >= 0", "x0 >= 3.8", "x0 >= 7.6", "x0 >= 11.4", "x0 >= 15.2",
    ]
    assert binarizer.transform(X)[:, 0].all()
    assert QuantileBinarizer(num_bins=5).fit(X).get_feature_names_out().tolist() == [
        "x0 >= 3.8", "x0 >= 7.6", "x0 >= 11.4", "x0 >= 15.2",
    ]


def test_redundancy_is_judged_on_the_fitted_rows_only():
    train = pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 0, 1], "c": [5, 5, 5, 5]})
    binarizer = QuantileBinarizer().fit(train)
    assert binarizer.get_feature_names_out().tolist() == ["a"]
    np.testing.assert_array_equal(binarizer.transform(pd.DataFrame({"a": [1, 0], "b": [0, 0], "c": [5, 6]})),
                                  [[1], [0]])


def test_all_constant_input_is_refused():
    with pytest.raises(ValueError, match="every feature of X is constant"):
        QuantileBinarizer().fit(np.ones((3, 2)))


def test_missing_values_as_an_indicator(frame):
    frame = frame.astype({"amount": float})
    frame.loc[[1, 4], "amount"] = np.nan
    frame.loc[[2], "city"] = None
    frame["color"] = frame["color"].astype(object)
    frame.loc[[3], "color"] = None
    binarizer = QuantileBinarizer(num_bins=4, missing="indicator")
    X = binarizer.fit_transform(frame)
    names = binarizer.get_feature_names_out().tolist()
    for column, rows in (("amount", [1, 4]), ("city", [2]), ("color", [3])):
        indicator = X[:, names.index(f"{column} is missing")]
        np.testing.assert_array_equal(np.flatnonzero(indicator), rows)
        others = [j for j, n in enumerate(names) if n.startswith(column) and not n.endswith("is missing")]
        assert not X[rows][:, others].any()  # a missing value is in no other feature of its column
    assert "city == None" not in names and "count is missing" not in names  # no text "None"; no NaN in count
    # thresholds from the present values; `amount >= min` is the negation of the indicator, so it goes
    assert [n for n in names if n.startswith("amount >=")] == [
        n for n in QuantileBinarizer(num_bins=4).fit(frame[["amount"]].dropna()).get_feature_names_out()]
    paper = QuantileBinarizer(num_bins=4, missing="indicator", paper_layout=True).fit(frame)
    assert "amount >= 30.2" in paper.get_feature_names_out() and "amount >= 30.2" not in names
    later = binarizer.transform(frame.assign(count=frame["count"].astype(float)).head(2).assign(count=np.nan))
    assert not later[:, [n.startswith("count") for n in names]].any()  # no indicator fitted: all zeros


def test_missing_values_raise_by_default_and_name_the_option(frame):
    frame = frame.astype({"amount": float})
    frame.loc[3, "amount"] = np.nan
    with pytest.raises(ValueError, match="column 'amount'.*missing=\"indicator\""):
        QuantileBinarizer().fit(frame)
    with pytest.raises(ValueError, match="column 'amount'.*infinity"):
        QuantileBinarizer(missing="indicator").fit(frame.replace(np.nan, np.inf))


@pytest.mark.parametrize("dates", [
    pd.date_range("2020-01-01", periods=40), pd.timedelta_range("1D", periods=40),
    pd.date_range("2020-01-01", periods=40, tz="UTC"), pd.period_range("2020-01", periods=40, freq="M"),
])
def test_datetime_columns_are_refused_by_name(frame, dates):
    with pytest.raises(ValueError, match="column\\(s\\) 'when' of X hold dates or times"):
        QuantileBinarizer().fit(frame.assign(when=dates))


def test_labels_gain_digits_only_to_stay_distinct():
    X = np.r_[np.full(5, 1.00001), np.full(5, 1.00002), np.arange(10.0) + 5].reshape(-1, 1)
    names = QuantileBinarizer(num_bins=10, paper_layout=True).fit(X).get_feature_names_out().tolist()
    assert len(set(names)) == len(names)
    assert names[:2] == ["x0 >= 1.00001", "x0 >= 1.00002"]


def test_unseen_categories_and_values_give_zeros(frame):
    binarizer = QuantileBinarizer(num_bins=4).fit(frame)
    new = frame.head(1).copy()
    new["city"] = "Accra"
    new["count"] = 17
    out = binarizer.transform(new)[0]
    names = binarizer.get_feature_names_out()
    assert not out[[n.startswith(("city", "count")) for n in names]].any()


def test_numpy_input_uses_x_names_and_object_arrays_work():
    X = np.array([[1.5, "a"], [2.5, "b"], [3.5, "c"]], dtype=object)
    binarizer = QuantileBinarizer(paper_layout=True).fit(X)  # x1's features repeat x0's
    assert binarizer.get_feature_names_out().tolist() == [
        "x0 == 1.5", "x0 == 2.5", "x0 == 3.5", "x1 == a", "x1 == b", "x1 == c",
    ]
    np.testing.assert_array_equal(binarizer.transform(X), np.tile(np.eye(3, dtype=np.uint8), 2))


def test_input_features_override_names():
    binarizer = QuantileBinarizer(paper_layout=True).fit(np.array([[0, 1], [1, 2], [0, 3]]))
    names = binarizer.get_feature_names_out(["a", "b"]).tolist()
    assert names == ["a", "b == 1", "b == 2", "b == 3"]
    with pytest.raises(ValueError, match="input_features"):
        binarizer.get_feature_names_out(["a"])


def test_does_not_modify_input(frame):
    before = frame.copy(deep=True)
    array = frame[["amount", "count"]].to_numpy()
    array_before = array.copy()
    QuantileBinarizer(num_bins=4).fit(frame).transform(frame)
    QuantileBinarizer(num_bins=4).fit_transform(array)
    pd.testing.assert_frame_equal(frame, before)
    np.testing.assert_array_equal(array, array_before)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_or_inf_in_fit_names_the_column(frame, bad):
    frame = frame.astype({"amount": float})
    frame.loc[3, "amount"] = bad
    with pytest.raises(ValueError, match="column 'amount'.*NaN or infinity"):
        QuantileBinarizer().fit(frame)


def test_nan_in_transform_names_the_column(frame):
    binarizer = QuantileBinarizer().fit(frame)
    broken = frame.copy()
    broken.loc[0, "city"] = None
    with pytest.raises(ValueError, match="column 'city'.*NaN"):
        binarizer.transform(broken)


def test_text_where_numbers_were_fitted(frame):
    binarizer = QuantileBinarizer().fit(frame)
    broken = frame.astype({"amount": str})
    with pytest.raises(ValueError, match="column 'amount'.*numeric"):
        binarizer.transform(broken)


def test_one_dimensional_x_is_rejected():
    with pytest.raises(ValueError, match="2D"):
        QuantileBinarizer().fit(np.arange(5.0))


@pytest.mark.parametrize(
    ("num_bins", "error"), [(1, ValueError), (2.5, TypeError), (True, TypeError), ("rice", ValueError)]
)
def test_bad_num_bins(num_bins, error):
    with pytest.raises(error, match="num_bins"):
        QuantileBinarizer(num_bins=num_bins).fit(np.ones((3, 1)))


@parametrize_with_checks([QuantileBinarizer(), QuantileBinarizer(num_bins=3), QuantileBinarizer(num_bins="auto"),
                          QuantileBinarizer(paper_layout=True),
                          QuantileBinarizer(missing="indicator"), QuantileBinarizer(thresholds="tree"),
                          QuantileBinarizer(thresholds="both")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize(("rows", "bins"), [(50, 10), (1099, 10), (1100, 11), (2599, 25), (3000, 30), (5000, 30)])
def test_auto_num_bins_is_one_bin_per_100_rows_within_10_and_30(rows, bins):
    column = np.random.RandomState(0).normal(size=(rows, 1))
    auto = QuantileBinarizer(num_bins="auto").fit(column)
    fixed = QuantileBinarizer(num_bins=bins).fit(column)
    assert auto.num_bins_ == bins and fixed.num_bins_ == bins
    np.testing.assert_array_equal(auto.get_feature_names_out(), fixed.get_feature_names_out())
    assert len(auto.get_feature_names_out()) == bins - 1  # x >= min is constant, left out


def test_auto_num_bins_cuts_above_a_value_that_fills_a_bin():
    rng = np.random.default_rng(3)
    spike = np.where(rng.random(1200) < 0.7, 0.0, rng.uniform(1, 100, 1200))  # 70% zeros
    middle = np.where(rng.random(1200) < 0.4, 5.0, rng.uniform(0, 10, 1200))  # 40% at 5
    X = pd.DataFrame({"spike": spike, "middle": middle})
    auto = set(QuantileBinarizer(num_bins="auto").fit(X).get_feature_names_out())
    fixed = set(QuantileBinarizer(num_bins=12).fit(X).get_feature_names_out())
    above_zero, above_five = spike[spike > 0].min(), middle[middle > 5].min()
    extra = auto - fixed
    assert len(extra) == 2 and fixed < auto
    cuts = sorted(float(name.split(" >= ")[1]) for name in extra)  # names carry 4 significant digits
    assert cuts == pytest.approx(sorted([above_zero, above_five]), rel=1e-3)
    assert "middle >= 5" in auto  # the cut below the spike is a quantile already
    small = X.iloc[:999]  # below 1000 rows "auto" is the paper's layout: 10 quantiles, no cut above a spike
    np.testing.assert_array_equal(QuantileBinarizer(num_bins="auto").fit(small).get_feature_names_out(),
                                  QuantileBinarizer(num_bins=10).fit(small).get_feature_names_out())


def test_auto_num_bins_also_sets_the_tree_thresholds_leaves():
    rng = np.random.default_rng(2)
    x = rng.normal(size=1500)
    y = (np.sin(3 * x) > 0).astype(int) ^ (rng.random(1500) < 0.05)  # many label changes: many cuts
    X = pd.DataFrame({"x": x})
    names = [QuantileBinarizer(num_bins=bins, thresholds="tree").fit(X, y).get_feature_names_out()
             for bins in ("auto", 15, 10)]
    np.testing.assert_array_equal(names[0], names[1])
    assert len(names[0]) > len(names[2])


def test_num_bins_is_checked_by_its_constraint():
    check_param_validation("QuantileBinarizer", QuantileBinarizer())


@pytest.mark.parametrize("make", ["RuleClassifier", "DepthOneClassifier"])
def test_estimators_name_a_date_column(make):
    """Issue 15 item 14: a datetime column raised numpy's DTypePromotionError naming nothing."""
    import boolrules
    from tests.errors import assert_raises_clearly

    X = pd.DataFrame({"a": np.arange(20.0), "when": pd.date_range("2020-01-01", periods=20)})
    assert_raises_clearly(ValueError, lambda: getattr(boolrules, make)().fit(X, np.arange(20) % 2), "'when'", "X")


def test_numbers_at_transform_match_a_categorical_or_text_column_of_fit():
    """A column categorical (or text) in fit and plain numbers at predict is encoded as in fit (3.0
    and 3 match "3"), so the classifier's accuracy is unchanged (it was all zeros: 1.0 -> 0.65)."""
    from boolrules import RuleClassifier

    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 5, 300), rng.normal(size=300)
    y = (a == 3).astype(int)
    for fitted in (pd.Categorical(a), a.astype(str), pd.Categorical(a.astype(float))):
        binarizer = QuantileBinarizer().fit(pd.DataFrame({"a": fitted}))
        expected = binarizer.transform(pd.DataFrame({"a": fitted}))
        for given in (a, a.astype(float), a.astype(str), pd.array(a, dtype="Int64")):
            assert np.array_equal(binarizer.transform(pd.DataFrame({"a": given})), expected)
    clf = RuleClassifier(random_state=0, num_starts=2, num_iterations=300).fit(
        pd.DataFrame({"a": pd.Categorical(a), "b": b}), y)
    assert clf.score(pd.DataFrame({"a": pd.Categorical(a), "b": b}), y) == 1.0
    for given in (a, a.astype(float)):
        assert clf.score(pd.DataFrame({"a": given, "b": b}), y) == 1.0


def test_fractional_numbers_at_transform_match_their_text():
    binarizer = QuantileBinarizer().fit(pd.DataFrame({"a": ["0.5", "1", "2.25"]}))
    assert np.array_equal(binarizer.transform(pd.DataFrame({"a": [2.25, 1.0, 0.5, 7.0]})),
                          [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 0, 0]])


def _as_floats(values):
    """The float64 column (NaN where missing) that `values` means."""
    return pd.Series(values, dtype=object).to_numpy(dtype=float, na_value=np.nan)


MARKERS = [None, pd.NA, np.nan, pd.NaT]


def _numbers_with(marker, kind, n=60, seed=0):
    """An object column of numbers (ints, floats, numpy scalars or bools) with `marker` in some rows."""
    rng = np.random.default_rng(seed)
    numbers = {"float": rng.normal(size=n), "int": rng.integers(-20, 20, n), "bool": rng.random(n) < 0.4}[kind]
    values = numbers.astype(object) if kind != "numpy" else list(numbers)
    values[[2, 11, 30]] = marker
    return values


@pytest.mark.parametrize("marker", MARKERS, ids=repr)
@pytest.mark.parametrize("kind", ["float", "int", "bool"])
def test_object_numbers_with_missing_markers_are_numeric(marker, kind):
    """Numbers in an object column with None, pd.NA, NaN or NaT are binarized as the float column
    they mean (thresholds, not one-hot text), in fit and at transform."""
    values = _numbers_with(marker, kind)
    as_objects = pd.DataFrame({"a": values})
    as_floats = pd.DataFrame({"a": _as_floats(values)})
    expected = QuantileBinarizer(missing="indicator").fit(as_floats)
    for X in (as_objects, np.array(values, dtype=object)[:, None]):
        binarizer = QuantileBinarizer(missing="indicator").fit(X)
        names = [name.replace("x0", "a") for name in binarizer.get_feature_names_out()]
        assert names == list(expected.get_feature_names_out())
        assert (binarizer.transform(X) == expected.transform(as_floats)).all()
    assert (expected.transform(as_objects) == expected.transform(as_floats)).all()  # fitted on floats, given objects


@pytest.mark.parametrize("dtype, values", [
    ("Int64", [3, 1, None, 4, 1, 5, 9, 2, 6, 5, 3, 5]), ("Float64", [3.5, 1, None, 4, 1.5, 5, 9, 2, 6, 5, 3, 5]),
    ("boolean", [True, None, False, True, False, True, False, False, True, True, None, False]),
])
def test_nullable_dtypes_are_numeric(dtype, values):
    frame = pd.DataFrame({"c": pd.array(values * 3, dtype=dtype)})
    floats = pd.DataFrame({"c": _as_floats(values * 3)})
    binarizer = QuantileBinarizer(num_bins=4, missing="indicator").fit(frame)
    expected = QuantileBinarizer(num_bins=4, missing="indicator").fit(floats)
    assert list(binarizer.get_feature_names_out()) == list(expected.get_feature_names_out())
    assert (binarizer.transform(frame) == expected.transform(floats)).all()
    assert (expected.transform(frame) == expected.transform(floats)).all()


@pytest.mark.parametrize("marker", MARKERS, ids=repr)
def test_missing_at_transform_in_a_column_numeric_in_fit(marker):
    """A column with no missing value in fit reads a missing marker at transform as all zeros with
    missing="indicator", and raises naming the column (not "is text now") by default."""
    rng = np.random.default_rng(1)
    fitted = pd.DataFrame({"a": rng.normal(size=50), "b": rng.integers(0, 5, 50)})
    given = pd.DataFrame({"a": np.array([0.3, marker, 2], dtype=object), "b": np.array([1, 2, marker], dtype=object)})
    indicator = QuantileBinarizer(missing="indicator").fit(fitted)
    expected = indicator.transform(given.apply(_as_floats))
    assert (indicator.transform(given) == expected).all()
    names = indicator.get_feature_names_out()
    assert not expected[1, [n.startswith("a ") for n in names]].any()  # the missing value is in no feature
    assert not expected[2, [n.startswith("b ") for n in names]].any()
    assert_raises_clearly(ValueError, lambda: QuantileBinarizer().fit(fitted).transform(given), "column 'a'", "missing")


def test_complex_numbers_are_refused_naming_the_column():
    assert_raises_clearly(TypeError, lambda: QuantileBinarizer().fit(pd.DataFrame({"z": [1 + 1j, 2j, 3]})),
                          "column 'z'", "complex")


def reference_tree_cuts(column, y, num_bins):
    """The split points of the documented tree fitted on the raw column, each moved up to the
    smallest value of the column above it (the slow, obvious way)."""
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(max_leaf_nodes=num_bins, min_samples_leaf=max(1, len(column) // (2 * num_bins)),
                                  class_weight="balanced", random_state=0).fit(column.reshape(-1, 1), y)
    splits = tree.tree_.threshold[tree.tree_.feature >= 0]
    return sorted(min(v for v in column if v > t) for t in splits)


@pytest.fixture
def labelled():
    """Two numeric columns and labels that follow the first: y is 1 from 37 up, with 10% noise."""
    rng = np.random.default_rng(1)
    x = rng.permutation(np.arange(100.0))
    y = (x >= 37).astype(int) ^ (rng.random(100) < 0.1)
    return pd.DataFrame({"x": x, "z": rng.normal(0, 1, 100)}), y


def test_tree_thresholds_are_a_small_trees_split_points(labelled):
    X, y = labelled
    binarizer = QuantileBinarizer(thresholds="tree", paper_layout=True).fit(X, y)
    for (op, values, _), name in zip(binarizer.encodings_, X.columns):
        expected = reference_tree_cuts(X[name].to_numpy(), y, 10)
        assert op == ">=" and 1 <= len(values) <= 9 and values.tolist() == expected
    assert "x >= 37" in binarizer.get_feature_names_out()  # where the label changes, not a quantile
    assert "x >= 37" not in QuantileBinarizer(paper_layout=True).fit(X, y).get_feature_names_out()


def test_both_is_the_union_of_quantile_and_tree_thresholds(labelled):
    X, y = labelled
    fitted = {t: QuantileBinarizer(thresholds=t, paper_layout=True).fit(X, y) for t in ("quantile", "tree", "both")}
    for j in range(X.shape[1]):
        union = np.union1d(fitted["quantile"].encodings_[j][1], fitted["tree"].encodings_[j][1])
        assert np.array_equal(fitted["both"].encodings_[j][1], union)


def test_quantile_thresholds_ignore_y_and_only_the_supervised_ones_require_it(labelled):
    X, y = labelled
    quantile = QuantileBinarizer().fit(X)
    assert np.array_equal(QuantileBinarizer(thresholds="quantile").fit_transform(X, y), quantile.transform(X))
    assert not quantile.__sklearn_tags__().target_tags.required
    for thresholds in ("tree", "both"):
        assert QuantileBinarizer(thresholds=thresholds).__sklearn_tags__().target_tags.required
        assert_raises_clearly(ValueError, lambda: QuantileBinarizer(thresholds=thresholds).fit(X), "y", thresholds)
    assert_raises_clearly(ValueError, lambda: QuantileBinarizer(thresholds="tree").fit(X, y[:-1]), "samples")
    assert_raises_clearly(ValueError, lambda: QuantileBinarizer(thresholds="tree").fit(X, X["z"]), "continuous")
    assert_raises_clearly(ValueError, lambda: QuantileBinarizer(thresholds="trees").fit(X, y), "thresholds")


def test_tree_thresholds_skip_missing_rows_and_survive_huge_values(labelled):
    X, y = labelled
    gappy = X.assign(x=X["x"].where(np.arange(100) % 7 > 0))
    binarizer = QuantileBinarizer(thresholds="tree", missing="indicator", paper_layout=True).fit(gappy, y)
    seen = gappy["x"].notna().to_numpy()
    assert binarizer.encodings_[0][1].tolist() == reference_tree_cuts(gappy["x"].to_numpy()[seen], y[seen], 10)
    huge = QuantileBinarizer(thresholds="tree", paper_layout=True).fit(X.assign(x=X["x"] * 1e300), y)
    assert "x >= 3.7e+301" in huge.get_feature_names_out()  # beyond float32, where trees compute
