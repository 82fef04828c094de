import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from boolrules import QuantileBinarizer, RuleClassifier
from boolrules.backends.dwave import MissingCredentialsError
from boolrules.localsearch.classifier import NATIVE_MAX_SAMPLES, PAPER_MAX_SAMPLES
from boolrules.rules import AtLeast, Literal

from ..errors import assert_raises_clearly
from ..planted import planted as planted_data
from ..processes import loky_pool

FAST = {"num_starts": 2, "num_iterations": 300}


# One short start per fit: every check fits a real model, only the contract is checked here.
@parametrize_with_checks([RuleClassifier(random_state=0, num_starts=1, num_iterations=100)])
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def planted():
    return planted_data(AtLeast(2, Literal(0), ~Literal(3), Literal(5)), 300, 10)


def test_learns_a_planted_rule(planted):
    X, y = planted
    clf = RuleClassifier(max_complexity=5, random_state=0, num_starts=4, num_iterations=1500).fit(X, y)
    assert clf.best_score_ == 1.0 and clf.score(X, y) == 1.0
    assert clf.best_rule_.complexity <= 5
    assert np.array_equal(clf.predict(X), y)


@loky_pool
def test_same_seed_same_rule_across_n_jobs(planted):
    X, y = planted
    rules = {
        str(RuleClassifier(random_state=7, n_jobs=n_jobs, **FAST).fit(X, y).best_rule_)
        for n_jobs in (None, 2)  # n_jobs=1 takes the same serial path as None
    }
    assert len(rules) == 1


def test_a_large_n_jobs_starts_a_worker_per_chunk_of_starts(planted, monkeypatch):
    """n_jobs=10000 for two starts asks joblib for two workers, not ten thousand (which ran > 90 s)."""
    import joblib

    from boolrules.localsearch import classifier

    asked = []

    class Recording(joblib.Parallel):
        def __init__(self, n_jobs=None, **kwargs):
            asked.append(n_jobs)
            super().__init__(n_jobs=n_jobs, **kwargs)

    monkeypatch.setattr(classifier, "Parallel", Recording)
    X, y = planted
    with joblib.parallel_config(backend="threading"):
        RuleClassifier(random_state=7, n_jobs=10000, num_starts=2, num_iterations=20).fit(X, y)
    assert asked == [2]


def test_scan_moves_are_seeded_and_reach_the_planted_rule(planted):
    X, y = planted
    fits = [
        RuleClassifier(random_state=3, scan_moves=0.2, max_complexity=5, num_starts=4, num_iterations=1500).fit(X, y)
        for _ in range(2)
    ]
    assert str(fits[0].best_rule_) == str(fits[1].best_rule_)
    assert fits[0].best_score_ == 1.0


def test_dataframe_names_appear_in_the_rule():
    data = load_breast_cancer(as_frame=True)
    clf = RuleClassifier(max_complexity=4, random_state=0, **FAST).fit(data.data, data.target)
    assert clf.binarizer_ is not None
    assert any(name in clf.rule_text_ for name in data.feature_names)
    assert clf.score(data.data, data.target) > 0.85


def test_auto_binarizer_cuts_one_quantile_per_100_rows_of_large_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1800, 2))
    y = (X[:, 0] > 0.3).astype(int)
    clf = RuleClassifier(max_complexity=3, random_state=0, **FAST).fit(X, y)
    assert clf.binarizer_.num_bins_ == 18 and clf.n_features_in_ == 2
    assert len(clf.feature_names_) == 2 * 17  # x >= min, constant, is left out
    small = RuleClassifier(max_complexity=3, random_state=0, **FAST).fit(X[:600], y[:600])
    assert small.binarizer_.num_bins_ == 10


def test_pipeline_after_binarizer():
    data = load_breast_cancer()
    pipe = make_pipeline(QuantileBinarizer(), RuleClassifier(binarizer=None, max_complexity=4, random_state=0, **FAST))
    scores = cross_val_score(pipe, data.data, data.target, cv=3)
    assert scores.mean() > 0.85


def test_a_supervised_binarizer_learns_from_the_training_labels():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.permutation(np.arange(200.0)), "z": rng.normal(size=200)})
    y = np.where(X["x"] >= 73, "yes", "no")  # text labels: the binarizer gets them as 0/1
    clf = RuleClassifier(binarizer=QuantileBinarizer(thresholds="tree"), max_complexity=3, random_state=0,
                         **FAST).fit(X, y)
    assert "x >= 73" in clf.feature_names_ and "x >= 73" in clf.rule_text_  # quantiles cut at 60 and 80, not 73


def test_multiclass_one_vs_rest():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (300, 6), dtype=np.uint8)
    y = np.where(X[:, 0] == 1, "a", np.where(X[:, 1] == 1, "b", "c"))
    clf = RuleClassifier(random_state=0, max_complexity=4, **FAST).fit(X, y)
    assert len(clf.estimators_) == 3
    assert np.mean(clf.predict(X) == y) > 0.9


def test_trajectory_kept_when_asked(planted):
    X, y = planted
    clf = RuleClassifier(random_state=0, record_trajectory=True, **FAST).fit(X, y)
    assert len(clf.starts_) == 2
    assert all(len(s.trajectory.objective) == 300 for s in clf.starts_)


def test_inputs_are_not_modified(planted):
    X, y = planted
    X_float = X.astype(float) * 3.5
    copies = (X.copy(), y.copy(), X_float.copy())
    RuleClassifier(random_state=0, **FAST).fit(X, y)
    RuleClassifier(random_state=0, **FAST).fit(X_float, y)
    assert all(np.array_equal(a, b) for a, b in zip((X, y, X_float), copies))


def test_dataframe_columns_kept_for_binary_input():
    X = pd.DataFrame({"smoker": [0, 1, 1, 0] * 10, "old": [1, 1, 0, 0] * 10, "male": [0, 0, 0, 1] * 10})
    y = X["smoker"] & X["old"]
    clf = RuleClassifier(random_state=0, max_complexity=3, **FAST).fit(X, y)
    assert clf.binarizer_ is None
    assert clf.rule_text_ in ("And(smoker, old)", "And(old, smoker)")


def test_every_parameter_is_checked_by_its_constraint():
    check_param_validation("RuleClassifier", RuleClassifier(**FAST))


@pytest.mark.parametrize("params", [
    {"temperatures": (0.2, float("inf"))},
    {"lam": float("inf")},
    {"nonlocal_time_limit": float("inf")},
    {"max_samples": True},
])
def test_infinity_and_bools_are_refused(params):
    """Infinity is no temperature, time limit or weight; and True, which sklearn's `Interval`
    takes for 1, is no count."""
    with pytest.raises(ValueError, match=next(iter(params))):
        RuleClassifier(**params, **FAST).fit([[0, 1], [1, 0]], [0, 1])


def test_no_credentials_needed_until_fit(planted, no_dwave_credentials):
    """A cloud backend for non-local moves is named, not built, until `fit`: construct, clone and
    get_params work without a token; fit builds the backend and says the token is missing."""
    clf = clone(RuleClassifier(nonlocal_backend="dwave-qpu", **FAST))
    assert clf.get_params()["nonlocal_backend"] == "dwave-qpu"
    clf._validate_params()  # what fit checks first: the spec, without building the backend
    with pytest.raises(MissingCredentialsError):
        clf.fit(*planted)
    assert not hasattr(clf, "classes_")


def test_a_missing_backend_config_names_the_parameter():
    with pytest.raises(FileNotFoundError, match="nonlocal_backend: .*missing.toml does not exist"):
        RuleClassifier(nonlocal_backend="missing.toml", **FAST).fit([[0, 1], [1, 0]], [0, 1])


def test_binary_score_follows_the_labels_or_refuses_others(planted):
    """score() of a perfect binary model with string labels is 1.0 (as a list too); labels outside
    classes_ (other strings, the 0/1 the labels stand for) are refused naming y, as the multi-class
    path refuses them, never scored as the negative class."""
    from ..errors import assert_raises_clearly

    X, y = planted
    labels = np.where(y == 1, "sick", "well")
    clf = RuleClassifier(max_complexity=5, random_state=0, num_starts=4, num_iterations=1500).fit(X, labels)
    assert clf.score(X, labels) == 1.0 and clf.score(X, labels.tolist()) == 1.0
    assert clf.score(X, np.where(y == 1, "well", "sick")) == pytest.approx(0.0)
    for other in (np.where(y == 1, "a", "b"), y, np.where(y == 1, "sick", "maybe")):
        assert_raises_clearly(ValueError, lambda: clf.score(X, other), "y", "classes")
    numeric = clone(clf).fit(X, y)
    assert numeric.score(X, y) == 1.0 and numeric.score(X, y.astype(float)) == 1.0
    assert_raises_clearly(ValueError, lambda: numeric.score(X, y.astype(str)), "y", "classes")


@pytest.mark.parametrize(("backend", "params", "rows"), [
    ("native", {}, NATIVE_MAX_SAMPLES), ("highs", {}, PAPER_MAX_SAMPLES), ("toml", {}, 37),
    ("native", {"max_samples": 250}, 250), ("toml", {"max_samples": 250}, 250), ("toml", {"max_samples": None}, None)])
def test_auto_max_samples_follows_the_backend(planted, tmp_path, monkeypatch, backend, params, rows):
    """max_samples="auto" (the default) gives `native`'s oracle 400 rows per subproblem, other
    backends' the paper's 100, a TOML backend's its [problem] max_samples; a number is kept, and
    None is every row (as in DepthOneClassifier)."""
    from boolrules.localsearch import classifier

    seen = []
    oracle = classifier.NonLocalOracle
    monkeypatch.setattr(classifier, "NonLocalOracle",
                        lambda *args, **kwargs: seen.append(kwargs["max_samples"]) or oracle(*args, **kwargs))
    if backend == "toml":
        backend = tmp_path / "highs.toml"
        backend.write_text('[backend]\nname = "highs"\n\n[problem]\nmax_samples = 37\n')
    clf = RuleClassifier(nonlocal_backend=str(backend), num_starts=2, num_iterations=5, random_state=0, **params)
    clf.fit(*planted)
    assert seen == [rows, rows]


def test_init_rule_is_where_the_first_start_begins(planted):
    """A warm start: the first start begins from `init_rule` (after one move and no quench it still
    holds the planted rule, which no later move beats), the second from a random rule."""
    X, y = planted
    rule = AtLeast(2, Literal(0), ~Literal(3), Literal(5))
    params = {"max_complexity": 5, "num_starts": 2, "num_iterations": 1, "quench": False, "random_state": 0}
    warm = RuleClassifier(init_rule=rule, **params).fit(X, y)
    assert warm.starts_[0].rule == rule and warm.starts_[0].score == 1.0
    assert warm.starts_[1].score < 1.0
    assert RuleClassifier(**params).fit(X, y).starts_[0].score < 1.0


def test_an_init_rule_outside_the_search_space_is_named(planted):
    rule = AtLeast(2, Literal(0), ~Literal(3), Literal(5))
    assert_raises_clearly(ValueError, lambda: RuleClassifier(init_rule=rule, max_complexity=3, **FAST).fit(*planted),
                          "init_rule", "complexity 4 exceeds max_complexity=3")
