import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import balanced_accuracy_score
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from boolrules import DepthOneClassifier
from boolrules.backends import get_backend
from boolrules.backends.dwave import MissingCredentialsError
from boolrules.exceptions import InputError
from boolrules.rules import And, AtLeast, Literal, Or

from .fakes import Empty, Recording
from .formulations.brute_force import best_objective
from .planted import planted as planted_data


# Without a time limit, so that every fit is solved to optimality whatever the machine's load (a
# check that compares two fits, such as check_supervised_y_2d, needs the same rule twice): native
# on every feature, HiGHS (the default) on 8 of them, each fast on the checks' small data.
@parametrize_with_checks([DepthOneClassifier(max_num_literals=2, backend="native"),
                          DepthOneClassifier(max_num_literals=2, max_features=8, feature_score="mutual_info")])
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def planted():
    return planted_data(AtLeast(2, Literal(1), ~Literal(4), Literal(6)), 120, 8)


def test_recovers_planted_rule(planted):
    X, y = planted
    clf = DepthOneClassifier("AtLeast", max_num_literals=3).fit(X, y)
    assert clf.best_score_ == 1.0
    assert clf.best_rule_ == AtLeast(2, Literal(1), Literal(4, True), Literal(6))
    assert clf.result_.status == "optimal"
    assert np.array_equal(clf.predict(X), y)


@pytest.mark.parametrize("metric, weights", [("balanced_accuracy", None), ("accuracy", "uniform")])
def test_optimum_matches_brute_force(metric, weights):
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (14, 4), dtype=np.uint8)
    y = rng.integers(0, 2, 14)
    clf = DepthOneClassifier("Choose", max_num_literals=3, min_num_literals=1, metric=metric).fit(X, y)
    from boolrules.metrics import balanced_sample_weight

    w = balanced_sample_weight(y) if weights is None else np.ones(len(y))
    expected = best_objective(X, y, w, "Choose", min_lit=1, max_lit=3, lam=0, negated=False)
    assert clf.result_.objective == pytest.approx(expected)
    assert 1 - expected / len(y) == pytest.approx(clf.best_score_)


def test_max_samples_solves_a_random_subset_drawn_from_random_state(planted):
    """The backend receives max_samples training rows with their labels, the same rows for the same
    random_state and others for another; best_score_ is still scored on every training row."""
    X, y = planted

    def fit(max_samples, random_state):
        backend = Recording()
        clf = DepthOneClassifier("Or", max_num_literals=2, max_samples=max_samples, random_state=random_state,
                                 backend=backend).fit(X, y)
        (problem, _), = backend.calls
        return clf, problem

    clf, problem = fit(40, 1)
    assert problem.num_samples == 40
    training_rows = {row.tobytes() for row in np.column_stack([X, y])}
    assert all(row.tobytes() in training_rows for row in np.column_stack([problem.X, problem.y]))
    assert np.array_equal(fit(40, 1)[1].X, problem.X)
    assert not np.array_equal(fit(40, 2)[1].X, problem.X)
    assert clf.best_score_ == pytest.approx(balanced_accuracy_score(y, clf.best_rule_.evaluate(X)))
    everything = fit(len(y) + 1, 1)[1]
    assert np.array_equal(everything.X, X) and np.array_equal(everything.y, y)


def test_build_problem_is_the_problem_fit_solves():
    """build_problem(X, y) builds what fit(X, y) hands the backend, binarizer, rows drawn, features
    kept, weights and names alike, without solving; the estimator is left unfitted and its
    parameters and the data as they were."""
    data = load_breast_cancer(as_frame=True)
    X, y = data.data, data.target
    X_before = X.copy()
    backend = Recording()
    clf = DepthOneClassifier("AtLeast", max_num_literals=2, lam=0.01, metric="accuracy", max_samples=80,
                             max_features=12, random_state=3, backend=backend)
    params = clf.get_params()
    built = clf.build_problem(X, y)
    assert clf.get_params() == params and not hasattr(clf, "classes_") and not hasattr(clf, "binarizer_")
    pd.testing.assert_frame_equal(X, X_before)
    clf.fit(X, y)
    (solved, _), = backend.calls
    for name in ("X", "y", "weights", "features"):
        assert np.array_equal(getattr(built, name), getattr(solved, name)), name
    for name in ("operator", "negated", "max_num_literals", "min_num_literals", "lam", "feature_names"):
        assert getattr(built, name) == getattr(solved, name), name
    assert built.num_samples == 80 and len(built.features) == 12
    assert built.objective(clf.best_rule_) == pytest.approx(clf.result_.objective)
    with pytest.raises(InputError, match="build_problem builds a two-class problem; y has 3 classes"):
        DepthOneClassifier().build_problem(X, np.arange(len(y)) % 3)
    with pytest.raises(ValueError, match="'max_samples' parameter of DepthOneClassifier"):  # checked as fit checks
        DepthOneClassifier(max_samples=0).build_problem(X, y)


def test_time_limit_reaches_the_backend(planted):
    X, y = planted
    backend = Recording()
    DepthOneClassifier("Or", max_num_literals=2, time_limit=7.5, backend=backend).fit(X, y)
    DepthOneClassifier("Or", max_num_literals=2, backend=backend).fit(X, y)
    assert [options.get("time_limit") for _, options in backend.calls] == [7.5, None]


def test_names_and_negation_on_breast_cancer():
    data = load_breast_cancer(as_frame=True)
    clf = DepthOneClassifier("Or", max_num_literals=2, negated=True, max_samples=150, random_state=0).fit(
        data.data, data.target
    )
    assert isinstance(clf.best_rule_, Or) and clf.best_rule_.negated
    names = clf.best_rule_.to_str(clf.feature_names_).removeprefix("~Or(").removesuffix(")").split(", ")
    assert len(names) == len(clf.best_rule_.subrules)
    assert all(any(name.startswith(f"{column} ") for column in data.feature_names) for name in names)
    # what users read is the canonical form: "none of" is "all of" the negated conditions
    assert len(clf.best_rule_.subrules) == 2 and clf.rule_ == And(*(~lit for lit in clf.best_rule_.subrules))
    assert clf.rule_text_ == clf.rule_.to_str(clf.feature_names_)
    assert clf.score(data.data, data.target) > 0.85


def test_a_dataframe_rule_reads_in_its_column_names():
    """Binary columns keep their names and numeric ones are named by their threshold."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.permutation(100), "income": rng.normal(50, 10, 100), "smoker": rng.integers(0, 2, 100)})
    y = ~((X["age"] >= 50) | (X["smoker"] == 1))
    clf = DepthOneClassifier("Or", max_num_literals=2, negated=True).fit(X, y.astype(int))
    assert clf.rule_text_ in ("And(age < 49.5, ~smoker)", "And(~smoker, age < 49.5)")
    assert clf.score(X, y.astype(int)) == 1.0


def test_every_parameter_is_checked_by_its_constraint():
    check_param_validation("DepthOneClassifier", DepthOneClassifier(max_num_literals=2))


def test_no_credentials_needed_until_fit(planted, no_dwave_credentials):
    """A cloud backend is named, not built, until `fit`: construct, clone and get_params work
    without a token; fit builds the backend and says the token is missing."""
    clf = clone(DepthOneClassifier(backend="dwave-qpu"))
    assert clf.get_params()["backend"] == "dwave-qpu"
    clf._validate_params()  # what fit checks first: the spec, without building the backend
    with pytest.raises(MissingCredentialsError):
        clf.fit(*planted)
    assert not hasattr(clf, "classes_")


def test_backend_without_rule_is_a_clear_error(planted):
    X, y = planted
    with pytest.raises(RuntimeError, match="backend 'empty' returned no rule"):
        DepthOneClassifier(backend=Empty()).fit(X, y)


def test_an_unseeded_sampler_is_seeded_from_random_state(planted):
    """Every random choice flows from random_state: a sampler backend given no seed samples the
    same with the same random_state, and differently with another."""
    X, y = planted
    backend = get_backend("sa", num_reads=5, num_sweeps=20)

    def samples(random_state):
        clf = DepthOneClassifier(backend=backend, max_num_literals=2, random_state=random_state).fit(X, y)
        return clf.result_.raw.record.sample

    first = samples(3)
    assert np.array_equal(first, samples(3))
    assert not np.array_equal(first, samples(4))
    assert backend.options()["seed"] is None  # the caller's backend is left as it was


def test_max_features_keeps_the_original_feature_names():
    """The rule learnt on the 2 best features names the original columns, which are the best on
    all training rows even when the problem takes a few of them."""
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    clf = DepthOneClassifier("Or", max_num_literals=2, max_features=2, max_samples=30, random_state=0).fit(X, y)
    from boolrules.formulations.preselection import select_features
    from boolrules.metrics import balanced_sample_weight

    Xb = clf.binarizer_.transform(X)
    kept = select_features(Xb, y.to_numpy(), balanced_sample_weight(y.to_numpy()), 2)
    assert {lit.index for lit in clf.best_rule_.literals()} <= set(kept.tolist())
    assert clf.best_score_ > 0.85  # the best features of all rows, not of the 30 drawn
    assert clf.rule_text_ == clf.best_rule_.to_str(clf.feature_names_)
    assert np.array_equal(clf.predict(X), clf.best_rule_.evaluate(Xb))


def test_the_problem_caps_of_a_toml_backend_apply_unless_given(tmp_path, planted):
    """A .toml backend's [problem] caps size the problem when max_samples/max_features are "auto" (the
    default); a number, or None (every row and feature, as in RuleClassifier), overrides them."""
    X, y = planted
    path = tmp_path / "tiny.toml"
    path.write_text('[backend]\nname = "exact"\nmax_variables = 20\n[qubo]\neta = false\n'
                    '[problem]\nmax_samples = 4\nmax_features = 2\n')
    clf = DepthOneClassifier(backend=str(path), random_state=0).fit(X, y)
    assert clf.result_.status == "feasible" and len(clf.best_rule_.literals()) <= 4
    with pytest.raises(ValueError, match="more than the exact backend's max_variables=20"):
        DepthOneClassifier(backend=str(path), max_samples=40, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="more than the exact backend's max_variables=20"):
        DepthOneClassifier(backend=str(path), max_samples=None, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="more than the exact backend's max_variables=20"):
        DepthOneClassifier(backend=str(path), max_features=None, random_state=0).fit(X, y)
