#!/usr/bin/env python
"""Fit the peer rule learners of `bench_peers.py` on one split, in the peers' own environment.

Executed as a subprocess by ``benchmarks/bench_peers.py`` with the Python of the peers' virtual
environment (imodels, wittgenstein; see that script's docstring), so it imports only numpy,
pandas, scikit-learn, the peers and the standard library -- never boolrules.

Usage::

    python peers_runner.py --data SPLIT.npz --seed 0

``SPLIT.npz`` holds ``X_train``, ``y_train``, ``X_test``, ``y_test`` (0/1 features, 0/1 labels).
Prints one JSON list of rows, each with ``method``, ``setting``, ``complexity``, ``train_ba``,
``test_ba``, ``seconds`` (wall time of fit) and ``status`` ("ok" or the error's text).

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
from sklearn.utils.class_weight import compute_sample_weight


def _ripper(max_rules, seed):
    import wittgenstein as lw

    def fit(X, y):
        model = lw.RIPPER(max_rules=max_rules, random_state=seed)
        model.fit(pd.DataFrame(X), y, pos_class=1)
        rules = model.ruleset_.rules
        return model, sum(len(rule.conds) for rule in rules) + len(rules)

    return fit


def _figs(max_rules, seed):
    from imodels import FIGSClassifier

    def fit(X, y):
        model = FIGSClassifier(max_rules=max_rules, random_state=seed)
        model.fit(X, y, sample_weight=compute_sample_weight("balanced", y))
        return model, int(model.complexity_)

    return fit


def _rule_list(kind, max_depth):
    from imodels import GreedyRuleListClassifier, OneRClassifier

    def fit(X, y):
        model = (GreedyRuleListClassifier(max_depth=max_depth) if kind == "greedy_rule_list"
                 else OneRClassifier(max_depth=max_depth))
        model.fit(X, y)
        entries = sum("col" in rule for rule in model.rules_)
        return model, 2 * entries

    return fit


def peers(seed):
    """(method, setting, fit) for every peer configuration."""
    configs = [("ripper", f"max_rules={k}", _ripper(k, seed)) for k in (1, 2, 3, 5)]
    configs += [("figs", f"max_rules={k}", _figs(k, seed)) for k in (1, 2, 3, 5, 7)]
    configs += [("greedy_rule_list", f"max_depth={d}", _rule_list("greedy_rule_list", d)) for d in (1, 2, 3, 5)]
    configs += [("one_r", f"max_depth={d}", _rule_list("one_r", d)) for d in (2, 4)]
    return configs


def _predict(model, X):
    if type(model).__name__ == "RIPPER":
        return np.asarray(model.predict(pd.DataFrame(X)), dtype=int)
    return np.asarray(model.predict(X), dtype=int)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    data = np.load(args.data)
    X_train, y_train, X_test, y_test = (data[k] for k in ("X_train", "y_train", "X_test", "y_test"))
    rows = []
    warnings.filterwarnings("ignore")
    for method, setting, fit in peers(args.seed):
        row = {"method": method, "setting": setting}
        try:
            start = time.perf_counter()
            model, complexity = fit(X_train, y_train)
            row["seconds"] = time.perf_counter() - start
            row["complexity"] = complexity
            row["train_ba"] = balanced_accuracy_score(y_train, _predict(model, X_train))
            row["test_ba"] = balanced_accuracy_score(y_test, _predict(model, X_test))
            row["status"] = "ok"
        except Exception as err:  # a peer that fails on a split is reported, not fatal
            row["status"] = f"{type(err).__name__}: {err}"[:200]
        rows.append(row)
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
