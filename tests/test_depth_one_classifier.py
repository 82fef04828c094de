import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from boolrules import DepthOneClassifier
from boolrules.backends import Backend, Result, get_backend
from boolrules.backends.dwave import MissingCredentialsError
from boolrules.rules import AtLeast, Literal, Or

from .formulations.brute_force import best_objective


@parametrize_with_checks([DepthOneClassifier(max_num_literals=2, time_limit=1)])
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def planted():
    X = np.random.default_rng(0).integers(0, 2, (120, 8), dtype=np.uint8)
    y = AtLeast(2, Literal(1), ~Literal(4), Literal(6)).evaluate(X).astype(int)
    return X, y


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


class Recording(Backend):
    """HiGHS, keeping the problems it is given."""

    name = "recording"

    def __init__(self):
        self.problems = []

    def solve(self, problem, **options):
        self.problems.append(problem)
        return get_backend("highs").solve(problem, **options)


def solved_rows(X, y, **params):
    """The rows of `X` (as tuples with their label) that the fit's problem was built on."""
    backend = Recording()
    DepthOneClassifier("Or", max_num_literals=2, backend=backend, **params).fit(X, y)
    (problem,) = backend.problems
    return sorted(map(tuple, np.column_stack([problem.X, problem.y])))


def test_max_samples_subsamples_reproducibly(planted):
    X, y = planted
    rows = solved_rows(X, y, max_samples=40, random_state=1)
    assert len(rows) == 40
    assert rows == solved_rows(X, y, max_samples=40, random_state=1)
    assert rows != solved_rows(X, y, max_samples=40, random_state=2)
    assert len(solved_rows(X, y, max_samples=len(y), random_state=1)) == len(y)
    everything = sorted(map(tuple, np.column_stack([X, y])))
    assert all(row in everything for row in rows)
    a = DepthOneClassifier("Or", max_num_literals=2, max_samples=40, random_state=1).fit(X, y)
    assert a.result_.raw is not None


def test_names_and_negation_on_breast_cancer():
    data = load_breast_cancer(as_frame=True)
    clf = DepthOneClassifier("Or", max_num_literals=2, negated=True, max_samples=150, random_state=0).fit(
        data.data, data.target
    )
    assert isinstance(clf.best_rule_, Or) and clf.best_rule_.negated and len(clf.best_rule_.subrules) == 2
    assert clf.rule_text_ == clf.best_rule_.to_str(clf.feature_names_)
    assert clf.rule_text_.startswith("~Or(") and "worst" in clf.rule_text_
    assert clf.score(data.data, data.target) > 0.85


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


class Empty(Backend):
    name = "empty"

    def solve(self, problem, **options):
        return Result(None, None, "error", 0.0, self.name, message="nothing")


def test_backend_without_rule_is_a_clear_error(planted):
    X, y = planted
    with pytest.raises(RuntimeError, match="backend 'empty' returned no rule"):
        DepthOneClassifier(backend=Empty()).fit(X, y)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"operator": "Nand"}, r"'operator' parameter .* operator name among \{And, AtLeast, AtMost, Choose, Or\}.* Got 'Nand'"),
        ({"max_num_literals": 0}, r"'max_num_literals' parameter .* in the range \[1, inf\)"),
        ({"min_num_literals": 5, "max_num_literals": 2}, "min_num_literals must be <= 2"),
        ({"metric": "f1"}, r"'metric' parameter .* among .*'accuracy'.* Got 'f1'"),
        ({"backend": "quantum-magic"}, r"'backend' parameter .* backend name among \{.*highs.*\}.* Got 'quantum-magic'"),
        ({"time_limit": -1}, r"'time_limit' parameter .* None or a float in the range \[0\.0, inf\)"),
        ({"max_samples": 0}, r"'max_samples' parameter .* None or an int in the range \[1, inf\)"),
    ],
)
def test_bad_parameters(planted, params, match):
    X, y = planted
    with pytest.raises(ValueError, match=match):
        DepthOneClassifier(**params).fit(X, y)


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
    assert backend.seed is None  # the caller's backend is left as it was
