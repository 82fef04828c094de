"""Oracle policies at equal wall time: local-only against non-local variants, arms interleaved per seed.

For each dataset and seed (a 70/30 stratified split of the binarized data), every arm fits with the
same `time_budget` and `n_jobs=1`, one arm after the other, so that load from other jobs hits the
arms alike. An arm is `local` (no oracle) or a non-local backend with `RuleClassifier` parameters,
e.g. `native` or `native:nonlocal_time_share=auto`. Printed: one line per fit, then per dataset and
arm the means over the seeds (train and test balanced accuracy, iterations per start, oracle calls,
proposed moves, oracle seconds); with `--record`, also the oracle moves accepted and those that
made a new best (from the starts' trajectories; recording slows every arm alike).

Run:
    nice .venv/bin/python benchmarks/bench_oracle_policy.py --budget 20 --seeds 0 1 2 \
        --arms local native native:nonlocal_time_share=auto
    nice .venv/bin/python benchmarks/bench_oracle_policy.py --budget 20 --seeds 0 1 2 \
        --datasets credit_risk breast_cancer customer_churn parkinsons \
        --arms native "native:nonlocal_operators=['Or','And','AtLeast','AtMost','Choose','DNF3','CNF3']"
"""

from __future__ import annotations

import argparse
import ast
import re
import time

import numpy as np
from sklearn.model_selection import train_test_split

from boolrules import RuleClassifier, load_dataset
from boolrules.datasets import DATASETS
from boolrules.rules import And, Or, Shape

# Names an arm's nonlocal_operators may use for DNF/CNF moves of up to three terms (`rules.Shape`).
SHAPES3 = {"DNF3": Shape("DNF", Or, And, max_terms=3), "CNF3": Shape("CNF", And, Or, max_terms=3)}


def parse_arm(text: str) -> tuple[str, dict]:
    """`local`, or `backend[:param=value,...]` -> (label, RuleClassifier keyword arguments); a value
    is a Python literal (a list: `native:nonlocal_operators=['Or','And','DNF3']`, "DNF3" and "CNF3"
    there the three-term shapes `SHAPES3`) or else a string."""
    backend, _, options = text.partition(":")
    params = {} if backend == "local" else {"nonlocal_backend": backend}
    for pair in filter(None, re.split(r",(?=\w+=)", options)):  # a value may hold commas: a list
        key, value = pair.split("=", 1)
        try:
            params[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            params[key] = value
    if isinstance(params.get("nonlocal_operators"), list):
        params["nonlocal_operators"] = [SHAPES3.get(op, op) for op in params["nonlocal_operators"]]
    return text, params


def fit(data, seed: int, params: dict, args) -> dict:
    """One fit of one arm on the seed's split; its scores and the oracle's counts."""
    X_train, X_test, y_train, y_test = train_test_split(
        data.X, data.y, test_size=0.3, stratify=data.y, random_state=seed)
    clf = RuleClassifier(max_complexity=args.complexity, num_starts=args.num_starts, num_iterations=None,
                         time_budget=args.budget, random_state=seed, binarizer=None, n_jobs=1,
                         record_trajectory=args.record, **params)
    began = time.perf_counter()
    clf.fit(X_train, y_train)
    stats = clf.nonlocal_stats_
    row = {"train": clf.best_score_, "test": clf.score(X_test, y_test), "seconds": time.perf_counter() - began,
           "iterations": float(np.mean(clf.n_iter_)), "calls": getattr(stats, "calls", 0),
           "proposed": getattr(stats, "proposed", 0), "oracle_s": getattr(stats, "seconds", 0.0)}
    if args.record:
        accepted = made_best = 0
        for start in clf.starts_:
            t = start.trajectory
            moves = t.nonlocal_moves
            accepted += int(t.accepted[moves].sum())
            previous = np.concatenate([[-np.inf], t.best_objective[:-1]])
            made_best += int((t.best_objective[moves] > previous[moves]).sum())
        row.update(accepted=accepted, made_best=made_best)
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--arms", nargs="+", default=["local", "native", "native:nonlocal_time_share=auto"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("--complexity", type=int, default=10)
    parser.add_argument("--num-starts", type=int, default=4)
    parser.add_argument("--record", action="store_true", help="count accepted oracle moves (trajectories)")
    args = parser.parse_args(argv)
    arms = [parse_arm(text) for text in args.arms]
    keys = ["train", "test", "iterations", "calls", "proposed", "oracle_s", "seconds"]
    keys += ["accepted", "made_best"] if args.record else []
    print(f"max_complexity {args.complexity}, {args.num_starts} starts sharing time_budget={args.budget:g} s, "
          f"n_jobs=1, seeds {args.seeds}; arms interleaved per seed.\n", flush=True)
    tables = []
    for name in args.datasets:
        data = load_dataset(name, paper_layout=True)
        rows = {label: [] for label, _ in arms}
        for seed in args.seeds:
            for label, params in arms:
                rows[label].append(row := fit(data, seed, params, args))
                print(f"  {name} seed {seed} {label}: " + " ".join(f"{k} {row[k]:.4g}" for k in keys), flush=True)
        for label, _ in arms:
            mean = {k: float(np.mean([r[k] for r in rows[label]])) for k in keys}
            tables.append(f"| {name} | {label} | " + " | ".join(
                f"{mean[k]:.4f}" if k in ("train", "test") else f"{mean[k]:,.1f}" for k in keys) + " |")
    print("\n| dataset | arm | " + " | ".join(keys) + " |")
    print("|---|---|" + "---:|" * len(keys))
    print("\n".join(tables), flush=True)


if __name__ == "__main__":
    main()
