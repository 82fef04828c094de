from types import SimpleNamespace

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import PredefinedSplit
from sklearn.utils.estimator_checks import parametrize_with_checks

from boolrules import QuantileBinarizer, RuleClassifier, RuleClassifierCV, model_selection
from boolrules.plotting import plot_validation_curve
from boolrules.rules import And, AtLeast, Literal, Or

from .errors import assert_raises_clearly
from .planted import planted as planted_data
from .processes import loky_pool

matplotlib.use("Agg")

FAST = {"num_starts": 2, "num_iterations": 300}


# The cheapest search that still selects between two complexities on two folds and refits (30
# iterations a start: the checks' data is learned as well as with 100): each check fits it several
# times, and only the contract is checked here, not the quality of the rule.
@parametrize_with_checks([RuleClassifierCV(complexities=[3, 4], cv=2, num_starts=1, num_iterations=30,
                                           random_state=0)])
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def planted():
    return planted_data(AtLeast(2, Literal(0), ~Literal(3), Literal(5)), 300, 10)


@pytest.fixture(scope="module")
def fitted(planted):
    X, y = planted
    # 3 is too few literals for the planted rule, 4 is enough (larger budgets take the same path)
    return RuleClassifierCV(complexities=[3, 4], lams=[0.0, 0.01], cv=3, random_state=0, num_starts=4,
                            num_iterations=1000, fold_starts=None).fit(X, y)


def test_chooses_the_planted_complexity_and_refits_it(fitted, planted):
    X, y = planted
    results = fitted.cv_results_
    assert len(results["params"]) == 4 and set(results) >= {"split0_test_score", "split2_test_score",
                                                             "mean_test_score", "std_test_score", "rank_test_score"}
    exact = results["mean_test_score"] == 1.0
    assert exact.any() and not exact[results["param_max_complexity"] == 3].any()
    # the simplest candidate that is exact on every fold: complexity 4, and the larger lam
    assert fitted.best_params_ == {"max_complexity": 4, "lam": 0.01} == results["params"][fitted.best_index_]
    assert (fitted.max_complexity_, fitted.lam_, fitted.cv_score_) == (4, 0.01, 1.0)
    assert isinstance(fitted.estimator_, RuleClassifier)
    assert fitted.estimator_.get_params()["max_complexity"] == 4 and fitted.estimator_.get_params()["lam"] == 0.01
    assert fitted.best_rule_ is fitted.estimator_.best_rule_ and fitted.best_rule_.complexity <= 4
    assert fitted.score(X, y) == 1.0 and np.array_equal(fitted.predict(X), y)
    assert results["rank_test_score"][fitted.best_index_] == 1


def test_one_standard_error_rule_prefers_the_simpler_candidate():
    candidates = [(3, 0.0), (5, 0.0), (8, 0.0)]
    scores = np.array([[0.80, 0.89, 0.91], [0.82, 0.91, 0.89], [0.78, 0.90, 0.93]])  # folds x candidates
    one_se = RuleClassifierCV(selection="one_se")._select(candidates, scores)
    best = RuleClassifierCV(selection="best")._select(candidates, scores)
    assert (one_se, best) == (1, 2)  # 0.90 is within one standard error (0.0115) of 0.91; 0.80 is not
    assert RuleClassifierCV()._select(candidates, scores) == best  # the default
    # a number of standard errors: 0.90 is within 0.9 of them (0.0104) of 0.91, not within half of one (0.0058)
    assert [RuleClassifierCV(selection=e)._select(candidates, scores) for e in (0.9, 0.5, 0)] == [1, 2, 2]


def test_a_negative_number_of_standard_errors_is_refused():
    X, y = np.eye(6, dtype=int)[:, :3].repeat(2, axis=0), np.tile([0, 1], 6)
    with pytest.raises(ValueError, match="selection"):
        RuleClassifierCV(selection=-0.5).fit(X, y)


def test_best_mean_ties_go_to_the_simplest_candidate():
    candidates = [(5, 0.0), (3, 0.0), (3, 0.01)]  # lam-major order puts a larger complexity first
    scores = np.array([[0.9, 0.8, 0.9], [0.8, 0.9, 0.8]])
    assert RuleClassifierCV(selection="best")._select(candidates, scores) == 2  # complexity 3, larger lam


def _fitted(rule, objective):
    """What `_fit_candidate` returns for a fit that found `rule` of training objective `objective`."""
    return SimpleNamespace(best_rule_=rule, best_objective_=objective, best_score_=objective), 0.0


def test_a_larger_budget_keeps_a_smaller_budgets_better_rule(monkeypatch):
    """Work is shared: when the search at a larger budget ends worse on the training fold than a
    smaller budget's, the smaller budget's rule is the one validated for it."""
    X, y = planted_data(Or(Literal(0), Literal(1)), 120, 6)
    good, bad = Or(Literal(0), Literal(1)), And(Literal(2), Literal(3), Literal(4), Literal(5))

    def fake(X, y, rows, params, metric, seed, parent):
        return _fitted(good, 1.0) if params["max_complexity"] == 3 else _fitted(bad, 0.2)

    monkeypatch.setattr(model_selection, "_fit_candidate", fake)
    search = RuleClassifierCV(complexities=[3, 6], cv=3, random_state=0, **FAST).fit(X, y)
    assert list(search.cv_results_["mean_test_score"]) == [1.0, 1.0]
    assert list(search.cv_results_["mean_rule_complexity"]) == [3.0, 3.0]


def test_the_refit_keeps_the_best_rule_at_or_below_the_chosen_complexity(monkeypatch):
    """The folds choose complexity 4; on all the data the search at 4 ends worse than the one at 3,
    so the refit is the one at 3 (issue 25: in 7 of 30 splits the refit scored lower on training
    than a fit at a smaller complexity)."""
    X, y = planted_data(Or(Literal(0), Literal(1)), 120, 6)
    good, poor, worse = Or(Literal(0), Literal(1)), And(Literal(2), Literal(3)), And(Literal(2), Literal(3), Literal(4))

    def fake(X, y, rows, params, metric, seed, parent):
        refit, small = len(rows) == len(y), params["max_complexity"] == 3
        if refit:
            return _fitted(good, 1.0) if small else _fitted(worse, 0.6)
        return _fitted(poor, 0.5) if small else _fitted(good, 1.0)

    monkeypatch.setattr(model_selection, "_fit_candidate", fake)
    search = RuleClassifierCV(complexities=[3, 4], cv=3, selection="best", random_state=0, **FAST).fit(X, y)
    assert search.max_complexity_ == 4 and search.cv_score_ == 1.0
    assert search.best_rule_ == good and search.best_score_ == 1.0 and search.score(X, y) == 1.0


@pytest.mark.parametrize("ccp_alpha, gain, kept_small", [
    (0.0, 0.003, False),    # no pruning: the best training objective
    (0.002, 0.003, True),   # 0.003 for two more units of complexity is less than 0.002 each
    (0.002, 0.100, False)])
def test_cost_complexity_pruning_of_the_final_rule(monkeypatch, ccp_alpha, gain, kept_small):
    """`ccp_alpha`: the folds choose complexity 5 (its rule is exact on every fold); the rule returned is
    the best training objective less ccp_alpha x complexity among those found on all the data up to 5."""
    X, y = planted_data(Or(Literal(0), Literal(1), Literal(2), Literal(3)), 200, 6)
    small, large = Or(Literal(0), Literal(1)), Or(Literal(0), Literal(1), Literal(2), Literal(3))

    def fake(X, y, rows, params, metric, seed, parent):
        return _fitted(small, 0.9) if params["max_complexity"] == 3 else _fitted(large, 0.9 + gain)

    monkeypatch.setattr(model_selection, "_fit_candidate", fake)
    search = RuleClassifierCV(complexities=[3, 5], cv=3, ccp_alpha=ccp_alpha, random_state=0, **FAST).fit(X, y)
    assert search.max_complexity_ == 5 and search.cv_score_ == 1.0  # the folds validate unpruned rules
    assert list(search.cv_results_["mean_rule_complexity"]) == [3.0, 5.0]
    assert search.best_rule_ == (small if kept_small else large)
    assert search.best_objective_ == (0.9 if kept_small else 0.9 + gain)


@pytest.mark.parametrize("final_objective, final_kept", [(10.0, True), (1.0, False)])
def test_the_rounds_search_with_the_fold_budget_and_the_chosen_candidate_gets_the_full_one(
        monkeypatch, final_objective, final_kept):
    """With `fold_starts`/`fold_iterations` below the full search, every round's fit (folds and
    refits) uses them; then the chosen candidate is refitted on all rows with `num_starts` x
    `num_iterations`, from the round's rule, and kept only if its training objective is better."""
    X, y = planted_data(Or(Literal(0), Literal(1)), 120, 6)
    rounds_rule, final_rule = Or(Literal(0), Literal(2)), Or(Literal(0), Literal(1))
    calls = []

    def fake(X, y, rows, params, metric, seed, parent=None):
        calls.append((len(rows), params))
        final = params["num_starts"] == 5
        return _fitted(final_rule, final_objective) if final else _fitted(rounds_rule, float(params["max_complexity"]))

    monkeypatch.setattr(model_selection, "_fit_candidate", fake)
    search = RuleClassifierCV(complexities=[3, 4], cv=3, stop_after=None, num_starts=5, num_iterations=700,
                              fold_starts=1, fold_iterations=100, n_jobs=1, random_state=0).fit(X, y)
    *rounds, (rows, final) = calls
    assert len(rounds) == 8 and {(p["num_starts"], p["num_iterations"]) for _, p in rounds} == {(1, 100)}
    assert rows == len(y) and final["n_jobs"] == 1 and search.max_complexity_ == 3
    assert (final["num_starts"], final["num_iterations"], final["max_complexity"]) == (5, 700, 3)
    assert final["init_rule"] == rounds_rule  # the round's refit at the chosen complexity
    assert search.best_rule_ == (final_rule if final_kept else rounds_rule)


@pytest.mark.parametrize("params, rounds", [
    ({}, (4, 1000)),  # the defaults: rounds of 4 x 1000, the chosen candidate refitted with 10 x 2000
    ({"num_starts": 1, "num_iterations": 300}, (1, 300)),  # the caps never raise the search
    ({"fold_starts": None, "fold_iterations": None}, (10, 2000)),
    ({"num_iterations": None, "time_budget": 1.0}, (4, 1000)),
    ({"num_iterations": None, "time_budget": 1.0, "fold_iterations": None}, (4, None)),
])
def test_fold_caps_bound_the_rounds_search(params, rounds):
    settings = RuleClassifierCV(**params)._round_params()
    assert (settings["num_starts"], settings["num_iterations"]) == rounds


def test_a_smaller_fold_budget_refits_the_chosen_candidate_for_real(planted):
    X, y = planted
    search = RuleClassifierCV(complexities=[3, 4], cv=2, num_starts=2, num_iterations=600, fold_starts=1,
                              fold_iterations=200, random_state=0).fit(X, y)
    assert search.max_complexity_ == 4 and search.refit_time_ > 0 and search.score(X, y) == 1.0
    assert RuleClassifierCV(complexities=[3], cv=2, random_state=0, **FAST).fit(X, y).refit_time_ == 0.0


def _plateau(calls, scores_by_complexity):
    """A fake `_fit_candidate` that records its calls and, at complexity c, returns on every fold a
    rule of validation score `scores_by_complexity[c]` on the planted data of `_plateau_data`
    (its training objective grows with c, so each fit is the one kept)."""
    def fake(X, y, rows, params, metric, seed, parent):
        calls.append(params)
        c = params["max_complexity"]
        return _fitted(_PLATEAU_RULES[scores_by_complexity[c]], float(c))
    return fake


# on planted Or(x0, x1), rules of growing balanced accuracy (about 0.5, 0.67 and 1)
_PLATEAU_RULES = {0: And(Literal(2), Literal(3)), 1: Or(Literal(0), Literal(2)), 2: Or(Literal(0), Literal(1))}


@pytest.mark.parametrize("levels, stop_after, rounds", [
    ({3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}, 2, 3),  # best at 3, no gain at 4 and 5: stop
    ({3: 1, 4: 0, 5: 2, 6: 2, 7: 2, 8: 2}, 2, 5),  # a gain at 5 starts the count again
    ({3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}, None, 6),  # None: every complexity
])
def test_early_stopping_ends_the_rounds(monkeypatch, levels, stop_after, rounds):
    """Complexities are tried in rounds (every fold and the refit) until `stop_after` of them in a
    row do not raise the best mean validation score; only the tried ones are in `cv_results_`."""
    X, y = planted_data(Or(Literal(0), Literal(1)), 120, 6)
    calls = []
    monkeypatch.setattr(model_selection, "_fit_candidate", _plateau(calls, levels))
    search = RuleClassifierCV(complexities=range(3, 9), cv=3, stop_after=stop_after, random_state=0,
                              **FAST).fit(X, y)
    assert len(calls) == rounds * 4  # 3 folds and the refit a round
    assert list(search.cv_results_["param_max_complexity"]) == list(range(3, 3 + rounds))


@pytest.mark.parametrize("warm_start", [True, False])
def test_warm_starts_pass_the_previous_complexitys_rule(monkeypatch, warm_start):
    """Each fit at a complexity begins from the rule kept at the previous one on the same rows."""
    X, y = planted_data(Or(Literal(0), Literal(1)), 120, 6)
    calls, ids = [], {}

    def rule(rows_id, c):  # a rule of its own for each rows and complexity
        return (Or if c % 2 else And)(Literal(rows_id), Literal(5))

    def fake(X, y, rows, params, metric, seed, parent):
        rows_id, c = ids.setdefault(rows.tobytes(), len(ids)), params["max_complexity"]
        calls.append((rows_id, c, params["init_rule"]))
        return _fitted(rule(rows_id, c), float(c))

    monkeypatch.setattr(model_selection, "_fit_candidate", fake)
    RuleClassifierCV(complexities=[3, 4, 5], cv=3, stop_after=None, warm_start=warm_start, random_state=0,
                     **FAST).fit(X, y)
    assert len(ids) == 4 and len(calls) == 12  # 3 folds and the refit, 3 complexities
    for rows_id, c, init in calls:
        assert init == (rule(rows_id, c - 1) if warm_start and c > 3 else None)


@loky_pool
def test_same_seed_same_result_across_n_jobs(planted):
    X, y = planted
    fits = [RuleClassifierCV(complexities=[3, 5], cv=2, random_state=4, n_jobs=n_jobs, **FAST).fit(X, y)
            for n_jobs in (None, 2)]
    assert str(fits[0].best_rule_) == str(fits[1].best_rule_)
    for key in ("split0_test_score", "split1_test_score", "mean_rule_complexity"):
        assert np.array_equal(fits[0].cv_results_[key], fits[1].cv_results_[key])


def test_given_splitter_and_dataframe_names():
    from sklearn.model_selection import KFold

    data = load_breast_cancer(as_frame=True)
    search = RuleClassifierCV(complexities=[3], cv=KFold(2), random_state=0, **FAST).fit(data.data, data.target)
    assert search.binarizer_ is not None and sum(k.startswith("split") for k in search.cv_results_) == 2
    assert any(name in search.rule_text_ for name in data.feature_names)


def fit_recording_binarizers(monkeypatch, X, y, thresholds):
    """Fit a `RuleClassifierCV` on two fixed folds (fold 0 holds out the even rows, fold 1 the odd
    ones); return each binarizer fit's (rows, thresholds per column) in order, and the 0/1 data
    given to the fits of fold 0, fold 1 and the refit."""
    fits, data = [], {}

    class Recording(QuantileBinarizer):
        def fit(self, X, y=None):
            super().fit(X, y)
            fits.append((len(X), [values.tolist() for _, values, _ in self.encodings_]))
            return self

    def fit_candidate(X, y, rows, *args):
        data[len(rows), int(rows[0])] = X
        return fit(X, y, rows, *args)

    fit = model_selection._fit_candidate
    monkeypatch.setattr(model_selection, "_fit_candidate", fit_candidate)
    RuleClassifierCV(complexities=[3], cv=PredefinedSplit(np.arange(len(y)) % 2), random_state=0,
                     binarizer=Recording(thresholds=thresholds), num_starts=1, num_iterations=20).fit(X, y)
    return fits, [data[len(y) // 2, 1], data[len(y) // 2, 0], data[len(y), 0]]


@pytest.mark.parametrize("thresholds", ["tree", "both"])
def test_a_supervised_binarizer_learns_each_folds_cuts_from_its_training_rows_only(monkeypatch, thresholds):
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=120), "b": rng.normal(size=120)})
    y = (X["a"] + rng.normal(size=120) > 0).to_numpy().astype(int)
    fits, data = fit_recording_binarizers(monkeypatch, X, y, thresholds)
    # half of fold 0's held-out labels flipped (all of them would give a tree the same splits)
    flipped = y ^ (np.arange(120) % 4 == 0)
    flipped_fits, _ = fit_recording_binarizers(monkeypatch, X, flipped, thresholds)
    # the refit's binarizer on all 120 rows, then one per fold on its 60 training rows
    assert [rows for rows, _ in fits] == [120, 60, 60]
    assert flipped_fits[1] == fits[1]  # fold 0's cuts never saw its held-out labels
    assert flipped_fits[0] != fits[0] and flipped_fits[2] != fits[2]  # those that did see them changed
    odd = np.arange(1, 120, 2)
    fold = QuantileBinarizer(thresholds=thresholds).fit(X.iloc[odd], y[odd])
    assert np.array_equal(data[0], fold.transform(X))  # fold 0's fits and scores use its own features


def test_an_unsupervised_binarizer_is_fitted_once_for_every_fold(monkeypatch):
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=120), "b": rng.normal(size=120)})
    fits, data = fit_recording_binarizers(monkeypatch, X, (X["a"] > 0).to_numpy().astype(int), "quantile")
    assert [rows for rows, _ in fits] == [120] and data[0] is data[1] is data[2]


def test_multiclass_selects_per_class():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (150, 6), dtype=np.uint8)
    y = X[:, 0] + X[:, 1] * (1 - X[:, 0]) * 2
    search = RuleClassifierCV(complexities=[3, 4], cv=2, random_state=0, **FAST).fit(X, y)
    assert len(search.estimators_) == 3 and all(hasattr(e, "cv_results_") for e in search.estimators_)
    assert search.estimators_[0].score(X, (y == 0).astype(np.uint8)) == 1.0  # class 0 is And(~x0, ~x1)


@pytest.mark.parametrize("params, name", [
    ({"complexities": [2, 5]}, "complexities"),
    ({"complexities": []}, "complexities"),
    ({"complexities": [3.5]}, "complexities"),
    ({"lams": [-0.1]}, "lams"),
    ({"lams": [float("nan")]}, "lams"),
    ({"cv": 1}, "cv"),
    ({"selection": "smallest"}, "selection"),
    ({"ccp_alpha": -0.001}, "ccp_alpha"),
    ({"num_iterations": None}, "num_iterations"),
    ({"stop_after": 0}, "stop_after"),
    ({"warm_start": "yes"}, "warm_start"),
])
def test_bad_parameters_are_named(planted, params, name):
    X, y = planted
    assert_raises_clearly(ValueError, lambda: RuleClassifierCV(**{**FAST, **params}).fit(X, y), name)


def test_validation_curve_plot(fitted):
    from matplotlib.container import ErrorbarContainer

    ax = plot_validation_curve(fitted)
    lines = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(lines) == 2  # one per lam
    assert np.allclose(sorted(lines[0].lines[0].get_xdata()), [3, 4])
    chosen = ax.collections[-1].get_offsets()
    assert np.allclose(chosen, [[4, 1.0]])
    with pytest.raises(ValueError, match="fitted two-class RuleClassifierCV"):
        plot_validation_curve(RuleClassifierCV())


def test_frame_of_results_is_like_gridsearchcv(fitted):
    frame = pd.DataFrame(fitted.cv_results_)
    assert (frame["std_test_score"] >= 0).all() and frame["mean_fit_time"].gt(0).all()
