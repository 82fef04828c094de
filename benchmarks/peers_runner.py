#!/usr/bin/env python
"""Fit the peer rule learners of `bench_peers.py` on one split, in the peers' own environment.

Executed as a subprocess by ``benchmarks/bench_peers.py`` with the Python of the peers' virtual
environment (imodels, wittgenstein; see that script's docstring), so it imports only numpy,
pandas, scikit-learn, the peers and the standard library -- never boolrules.

Usage::

    python peers_runner.py --data SPLIT.npz --seed 0

``SPLIT.npz`` holds ``X_train``, ``y_train``, ``X_test``, ``y_test`` (0/1 features, 0/1 labels) and
optionally ``X_train_raw``, ``X_test_raw`` (the raw features as numbers), on which FIGS is fitted
too (method ``figs_raw``). Prints one JSON list of rows, each with ``method``, ``setting``,
``complexity``, ``train_ba``, ``test_ba``, ``seconds`` (wall time of fit) and ``status`` ("ok" or
the error's text). FIGS gets ``max_rules`` 1..15 (``FIGS_RULES``), on either feature set. With
``--tuned`` it fits instead FIGS with ``max_rules`` chosen by 5-fold stratified cross-validation on the
training rows (``figs_cv``, ``figs_raw_cv``; the best mean balanced accuracy, ties to the fewest rules),
the peers' counterpart of ``RuleClassifierCV``. FIGS's stumps break ties between features by numpy's
global random state (imodels 3.0.4 does not pass its ``random_state`` on), so each FIGS fit first seeds
it with ``--seed``: a run repeats (the runs recorded before 3 Dec 2026 were one unseeded draw).

Complexity as in the paper: split nodes for FIGS (its ``complexity_``); conditions + rules for the
rule sets and lists (RIPPER: every rule's conditions plus one per rule; GreedyRuleList and OneR:
one condition and one rule per entry of the list, the default rule not counted).
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.utils.class_weight import compute_sample_weight


def _ripper(max_rules, seed):
    def fit(X, y):
        import wittgenstein as lw

        model = lw.RIPPER(max_rules=max_rules, random_state=seed)
        model.fit(pd.DataFrame(X), y, pos_class=1)
        rules = model.ruleset_.rules
        return model, sum(len(rule.conds) for rule in rules) + len(rules)

    return fit


def _figs(max_rules, seed):
    def fit(X, y):
        from imodels import FIGSClassifier

        np.random.seed(seed)  # FIGS's tie-breaks (see the module's docstring)
        model = FIGSClassifier(max_rules=max_rules, random_state=seed)
        model.fit(X, y, sample_weight=compute_sample_weight("balanced", y))
        return model, int(model.complexity_)

    return fit


def _rule_list(kind, max_depth):
    def fit(X, y):
        from imodels import GreedyRuleListClassifier, OneRClassifier

        model = (GreedyRuleListClassifier(max_depth=max_depth) if kind == "greedy_rule_list"
                 else OneRClassifier(max_depth=max_depth))
        model.fit(X, y)
        entries = sum("col" in rule for rule in model.rules_)
        return model, 2 * entries

    return fit


FIGS_RULES = tuple(range(1, 16))


def _tuned_figs(seed, folds=5):
    """FIGS with `max_rules` chosen by stratified cross-validation (GridSearchCV, balanced accuracy, the
    first of the best means in FIGS_RULES' order), refitted on all the rows as the grid's fit is."""
    def fit(X, y):
        from imodels import FIGSClassifier

        np.random.seed(seed)  # as in _figs
        search = GridSearchCV(FIGSClassifier(random_state=seed), {"max_rules": list(FIGS_RULES)},
                              scoring="balanced_accuracy", cv=StratifiedKFold(folds, shuffle=True, random_state=seed))
        search.fit(X, y, sample_weight=compute_sample_weight("balanced", y))
        return search.best_estimator_, int(search.best_estimator_.complexity_)

    return fit


def peers(seed):
    """(method, setting, fit) for every peer configuration on the binary features."""
    configs = [("ripper", f"max_rules={k}", _ripper(k, seed)) for k in (1, 2, 3, 5)]
    configs += [("figs", f"max_rules={k}", _figs(k, seed)) for k in FIGS_RULES]
    configs += [("greedy_rule_list", f"max_depth={d}", _rule_list("greedy_rule_list", d)) for d in (1, 2, 3, 5)]
    configs += [("one_r", f"max_depth={d}", _rule_list("one_r", d)) for d in (2, 4)]
    return configs


def raw_peers(seed):
    """(method, setting, fit) for every peer configuration on the raw features."""
    return [("figs_raw", f"max_rules={k}", _figs(k, seed)) for k in FIGS_RULES]


def _fit_row(method, setting, fit, X_train, y_train, X_test, y_test):
    """One fit's row; a peer that fails on a split (or is not installed) is reported, its error in
    `status`, not fatal."""
    row = {"method": method, "setting": setting}
    try:
        start = time.perf_counter()
        model, complexity = fit(X_train, y_train)
        row["seconds"] = time.perf_counter() - start
        row["complexity"] = complexity
        row["train_ba"] = balanced_accuracy_score(y_train, _predict(model, X_train))
        row["test_ba"] = balanced_accuracy_score(y_test, _predict(model, X_test))
        row["status"] = "ok"
    except Exception as err:
        row["status"] = f"{type(err).__name__}: {err}"[:200]
    return row


def _predict(model, X):
    if type(model).__name__ == "RIPPER":
        return np.asarray(model.predict(pd.DataFrame(X)), dtype=int)
    return np.asarray(model.predict(X), dtype=int)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tuned", action="store_true", help="FIGS tuned by cross-validation instead of the grid")
    args = parser.parse_args(argv)
    data = np.load(args.data)
    X_train, y_train, X_test, y_test = (data[k] for k in ("X_train", "y_train", "X_test", "y_test"))
    warnings.filterwarnings("ignore")
    binary = [("figs_cv", "cv", _tuned_figs(args.seed))] if args.tuned else peers(args.seed)
    rows = [_fit_row(*config, X_train, y_train, X_test, y_test) for config in binary]
    if "X_train_raw" in data:
        raw = data["X_train_raw"], y_train, data["X_test_raw"], y_test
        on_raw = [("figs_raw_cv", "cv", _tuned_figs(args.seed))] if args.tuned else raw_peers(args.seed)
        rows += [_fit_row(*config, *raw) for config in on_raw]
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
