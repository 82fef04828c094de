"""Thresholds that follow the label: `QuantileBinarizer(thresholds=...)` arms at equal search (issue 25 item 1).

Protocol: each dataset is split as in `bench_peers.py` (80/20 in/out of sample, then the in-sample
rows `--splits` times 70/30 stratified, `bench_pareto.split_rows`); the training set is subsampled
(stratified) to at most `--max-train` rows. Every arm fits `RuleClassifier(max_complexity=
--max-complexity, num_starts, num_iterations, random_state=split seed)` on the raw training rows with
`binarizer=QuantileBinarizer(num_bins=N, thresholds=T)`, so the binarizer sees the training rows
(and labels) only; all arms share the split, the seed and the search settings.

    python benchmarks/bench_thresholds.py --arms quantile:10 tree:10 both:10 quantile:30

Prints one markdown row per fit, then per (dataset, arm) the means over the splits of the number
of features, training and test balanced accuracy, and the paired difference to the first arm on
the same splits with its standard error (std with ddof=1 over the splits / sqrt(splits)).
`--out FILE.csv` keeps the rows; `--pool A.csv B.csv` prints the summary of earlier runs' rows
pooled (runs with other `--seed`s: other splits, numbered apart).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_cv import keep, markdown
from bench_peers import capped_split
from sklearn.metrics import balanced_accuracy_score

from boolrules import QuantileBinarizer, RuleClassifier, load_dataset
from boolrules.datasets import DATASETS


def fit_one(dataset: str, split: int, arm: str, args) -> dict:
    """Fit the arm `arm` ("THRESHOLDS:NUM_BINS") on one split; the row of its measurements."""
    thresholds, num_bins = arm.split(":")
    data = load_dataset(dataset)
    train, test = capped_split(data.y, args.splits, args.seed, split, args.max_train)
    X_train, X_test, y_train, y_test = data.raw.iloc[train], data.raw.iloc[test], data.y[train], data.y[test]
    model = RuleClassifier(max_complexity=args.max_complexity, num_starts=args.num_starts,
                           num_iterations=args.num_iterations, random_state=args.seed * 1000 + split,
                           binarizer=QuantileBinarizer(num_bins=int(num_bins), thresholds=thresholds))
    start = time.perf_counter()
    model.fit(X_train, y_train)
    return {"dataset": dataset, "split": split, "arm": arm, "features": len(model.feature_names_),
            "seconds": time.perf_counter() - start, "complexity": model.rule_.complexity,
            "train_ba": balanced_accuracy_score(y_train, model.predict(X_train)),
            "test_ba": balanced_accuracy_score(y_test, model.predict(X_test))}


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Means per dataset and arm, and the paired differences to the first arm with their standard errors."""
    first = frame["arm"].iloc[0]
    base = frame[frame["arm"] == first].set_index(["dataset", "split"])
    keys = list(zip(frame["dataset"], frame["split"]))
    frame = frame.assign(**{f"d_{s}": frame[f"{s}_ba"].to_numpy() - base.loc[keys, f"{s}_ba"].to_numpy()
                            for s in ("test", "train")})
    groups = frame.groupby(["dataset", "arm"], sort=False)
    table = groups[["features", "train_ba", "test_ba", "d_train", "d_test"]].mean()
    for column in ("d_train", "d_test"):
        table[f"se_{column}"] = groups[column].std(ddof=1) / np.sqrt(groups[column].count())
    table.insert(0, "splits", groups.size())
    return table[["splits", "features", "train_ba", "test_ba", "d_train", "se_d_train", "d_test", "se_d_test"]].round(4)


def pool(paths) -> pd.DataFrame:
    """The rows of the runs in `paths` as one frame, the k-th run's splits numbered k * 1000 + split."""
    return pd.concat([pd.read_csv(path).assign(split=lambda f, k=k: f["split"] + 1000 * k)
                      for k, path in enumerate(paths)], ignore_index=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--arms", nargs="+", default=["quantile:10", "tree:10", "both:10"],
                        help="THRESHOLDS:NUM_BINS of QuantileBinarizer; differences are to the first")
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--max-train", type=int, default=3000)
    parser.add_argument("--max-complexity", type=int, default=5)
    parser.add_argument("--num-starts", type=int, default=10)
    parser.add_argument("--num-iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--pool", nargs="+", type=Path, help="summarise these --out files instead of fitting")
    args = parser.parse_args(argv)
    if args.pool:
        print(markdown(summary(pool(args.pool))))
        return
    rows = []
    for split in range(args.splits):  # splits outside: a cut-short run has every dataset
        for dataset in args.datasets:
            for arm in args.arms:
                keep(rows, fit_one(dataset, split, arm, args), args.out)
    print(markdown(summary(pd.DataFrame(rows))))


if __name__ == "__main__":
    main()
