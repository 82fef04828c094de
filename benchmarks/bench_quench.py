"""The quench in default fits (no time budget): with it at N iterations per start, against without
it at N and at 1.5 N iterations (about its cost and more), on the paper's datasets.

Each dataset is split 70/30 (stratified) per seed; every fit has the same starts and seed. Printed
per fit: train and test balanced accuracy and wall seconds; then the means per variant.

Run (the numbers in benchmarks/README.md):
    .venv/bin/python benchmarks/bench_quench.py --datasets breast_cancer credit_risk customer_churn --seeds 0 1 2
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from sklearn.model_selection import train_test_split

from boolrules import RuleClassifier, load_dataset


def variants(iterations: int) -> dict:
    return {f"quench, {iterations} it": {"num_iterations": iterations},
            f"no quench, {iterations} it": {"num_iterations": iterations, "quench": False},
            f"no quench, {iterations * 3 // 2} it": {"num_iterations": iterations * 3 // 2, "quench": False}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["breast_cancer", "credit_risk", "customer_churn"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--num-starts", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=2000, help="iterations per start with the quench")
    args = parser.parse_args(argv)
    print(f"{args.num_starts} starts per fit, one process; seeds {args.seeds}.\n")
    results = defaultdict(list)
    for name in args.datasets:
        data = load_dataset(name)
        for seed in args.seeds:
            X_train, X_test, y_train, y_test = train_test_split(data.X, data.y, test_size=0.3, stratify=data.y,
                                                                random_state=seed)
            for label, params in variants(args.iterations).items():
                start = time.perf_counter()
                clf = RuleClassifier(num_starts=args.num_starts, random_state=seed, binarizer=None, **params)
                clf.fit(X_train, y_train)
                row = (clf.best_score_, clf.score(X_test, y_test), time.perf_counter() - start)
                results[name, label].append(row)
                print(f"  {name} seed {seed} {label}: train {row[0]:.4f} test {row[1]:.4f} {row[2]:.2f} s", flush=True)
    print("\n| dataset | variant | train BA | test BA | seconds |")
    print("|---|---|---:|---:|---:|")
    for (name, label), rows in results.items():
        train, test, seconds = np.mean(rows, axis=0)
        print(f"| {name} | {label} | {train:.4f} | {test:.4f} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
