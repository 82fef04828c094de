#!/usr/bin/env python
"""Run the published boolxai (PyPI boolxai==1.0.0) RuleClassifier once and report timing.

This script is executed as a subprocess by ``benchmarks/bench_localsearch.py`` using the
Python interpreter of a separate virtual environment in which ``boolxai==1.0.0`` is
installed (it pins numpy==1.24.3 and scikit-learn==1.2.2). It must therefore only import
numpy, sklearn, boolxai and the standard library -- never our own package.

Usage::

    python boolxai_runner.py --data DATA.npz --max-complexity 6 --num-starts 20 \
        --num-iterations 2000 --seed 0 [--patched]

``DATA.npz`` holds ``X`` (0/1, shape n x m) and ``y`` (0/1, length n).

Prints exactly one JSON line to stdout with the keys ``seconds`` (wall time of
``fit``), ``iterations`` (num_starts * num_iterations), ``iterations_per_second``,
``train_balanced_accuracy`` (of ``best_rule_`` on the training data), ``rule``
(``str(best_rule_)``) and ``complexity`` (``best_rule_.complexity()``), plus a few
informational keys (``mode``, ``max_complexity``, ``seed``, ``num_starts``,
``num_iterations``, ``depth``, ``best_score``), and ``test_balanced_accuracy`` with
``--test-data TEST.npz``.

``--patched``: boolxai 1.0.0 spends most of its time in a redundant input check.
``Rule.evaluate(X, check=True)`` runs ``check_binary(np.unique(X))``, and every operator
evaluates its children with ``subrule.evaluate(state)`` (default ``check=True``), so
``np.unique`` over the whole of X runs at every non-root node of every rule evaluation.
(The solver's own top-level call uses ``check=False``, and ``fit`` already checks X once.)
The patch replaces ``boolxai.rules.rule.Rule.evaluate`` (which no subclass overrides)
with the same function minus the check. Rule outputs, and so the random number draws,
are identical, so the search follows exactly the same path; only the speed changes.
"""

import argparse
import json
import sys
import time

import boolxai
import numpy as np
from boolxai import BoolXAI, all_operator_classes
from boolxai.rules.rule import Rule
from sklearn.metrics import balanced_accuracy_score


def _evaluate_without_check(self, X, check=True):
    """Same as boolxai 1.0.0 ``Rule.evaluate`` but never runs the binary-input check."""
    if self.negated:
        return np.logical_not(self._evaluate(X))
    else:
        return self._evaluate(X)


def apply_patch():
    """Monkeypatch boolxai so that rule evaluation skips the per-node input check."""
    Rule.evaluate = _evaluate_without_check


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="npz file with X and y")
    parser.add_argument("--max-complexity", type=int, default=6)
    parser.add_argument("--num-starts", type=int, default=20)
    parser.add_argument("--num-iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--test-data", default=None, help="npz file with held-out X and y to score the rule on")
    parser.add_argument(
        "--patched",
        action="store_true",
        help="skip boolxai's redundant per-node np.unique input check",
    )
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)

    with np.load(args.data) as data:
        X = np.asarray(data["X"])
        y = np.asarray(data["y"])
    if X.ndim != 2:
        raise ValueError(f"X must be two-dimensional, got shape {X.shape}")
    X = X.astype(np.uint8, copy=False)
    y = y.astype(np.int64, copy=False)

    if args.patched:
        apply_patch()

    clf = BoolXAI.RuleClassifier(
        max_complexity=args.max_complexity,
        max_depth=None,  # None = no depth limit (every depth check is skipped)
        operators=all_operator_classes,  # And, Or, AtMost, AtLeast, Choose
        num_iterations=args.num_iterations,
        num_starts=args.num_starts,
        max_samples=None,  # use all samples in every start
        temp_high=0.2,
        temp_low=1e-6,
        regularization=0.0,  # objective = metric only (lambda = 0)
        metric=balanced_accuracy_score,
        random_state=args.seed,
        num_jobs=1,  # single process: starts run sequentially in this process
        baseline=False,  # no trivial / single-feature baseline rule
        postprocess=False,  # return rules exactly as found by the search
    )

    t0, c0 = time.perf_counter(), time.process_time()
    clf.fit(X, y)
    seconds, cpu_seconds = time.perf_counter() - t0, time.process_time() - c0

    rule = clf.best_rule_
    predictions = rule.evaluate(X, check=False)
    train_bacc = float(balanced_accuracy_score(y, predictions))
    iterations = args.num_starts * args.num_iterations

    result = {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "iterations": iterations,
        "iterations_per_second": iterations / seconds if seconds > 0 else None,
        "iterations_per_cpu_second": iterations / cpu_seconds if cpu_seconds > 0 else None,
        "train_balanced_accuracy": train_bacc,
        "rule": str(rule),
        "complexity": int(rule.complexity()),
        "mode": "patched" if args.patched else "stock",
        "max_complexity": args.max_complexity,
        "seed": args.seed,
        "num_starts": args.num_starts,
        "num_iterations": args.num_iterations,
        "depth": int(rule.depth()),
        "best_score": float(clf.best_score_),
        "boolxai_version": boolxai.__version__,
    }
    if args.test_data:
        with np.load(args.test_data) as test:
            X_test, y_test = np.asarray(test["X"], dtype=np.uint8), np.asarray(test["y"], dtype=np.int64)
        result["test_balanced_accuracy"] = float(balanced_accuracy_score(y_test, rule.evaluate(X_test, check=False)))
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
