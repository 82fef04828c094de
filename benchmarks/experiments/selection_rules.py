"""Selection rules for `RuleClassifierCV` compared on the same cross-validation (issue 25 item 2, research).

Per dataset and split (as `bench_cv.py`: `bench_peers` splits, at most 3000 training rows, the default
"auto" quantiles fitted on the training rows), one `RuleClassifierCV(stop_after=None)` fit tries every
complexity 3..15; its fold scores are what any selection rule sees, and the rounds' rule on all the
training rows at each complexity (2 x 1000 iterations, warm-started, kept only when it fits better) is
scored on the test rows. Each rule below then picks a complexity from the fold scores (after the
default's early stop, `stop_after=3`, which ends the rounds where the real estimator would) and is
credited with that complexity's test score: the rules are compared on the same fits, without the
final 10 x 2000 refit (the fitted estimator's own test score, with it, is the `default_refit` row).

    PYTHONPATH=src python benchmarks/experiments/selection_rules.py --collect curves.jsonl   # ~20 min
    PYTHONPATH=src python benchmarks/experiments/selection_rules.py --evaluate curves.jsonl --out DIR

`--evaluate` prints the mean test score and complexity per rule and dataset, and writes per rule a
`bench_cv.py`-style CSV (config = the rule's name) for `bench_peers.py --load ... --rule-cv-from`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATASETS = ("parkinsons", "breast_cancer", "credit_risk", "customer_churn", "home_equity", "online_shoppers",
            "direct_marketing", "credit_card_default")


def collect(dataset: str, split: int, seed: int, n_jobs: int) -> dict:
    """Fold scores (folds x complexities) and the all-rows rule's test score at every complexity."""
    from sklearn.metrics import balanced_accuracy_score

    from bench_pareto import split_rows
    from bench_peers import _cap
    from boolrules import QuantileBinarizer, RuleClassifierCV, load_dataset

    data = load_dataset(dataset)
    train, test = split_rows(data.y, 5, seed, split)
    train = _cap(train, data.y, 3000, seed)
    binarizer = QuantileBinarizer(num_bins="auto").fit(data.raw.iloc[train])
    X_train, X_test = binarizer.transform(data.raw.iloc[train]), binarizer.transform(data.raw.iloc[test])
    y_train, y_test = data.y[train], data.y[test]
    captured = {}

    class Capturing(RuleClassifierCV):
        def _select(self, candidates, scores):  # the rounds' rules on all rows, from the caller's frame
            captured["kept"] = sys._getframe(1).f_locals["kept"][-1, :, 0]
            return super()._select(candidates, scores)

    model = Capturing(stop_after=None, binarizer=None, n_jobs=n_jobs, random_state=seed * 1000 + split)
    model.fit(X_train, y_train)
    results = model.cv_results_
    folds = sorted(key for key in results if key.startswith("split"))
    rules = captured["kept"]
    return {"dataset": dataset, "split": split, "seed": seed, "train_rows": len(train),
            "complexities": [int(c) for c in results["param_max_complexity"]],
            "fold_scores": np.array([results[key] for key in folds]).T.tolist(),  # complexities x folds
            "rule_complexity": [int(clf.best_rule_.complexity) for clf in rules],
            "train_ba": [float(balanced_accuracy_score(y_train, clf.best_rule_.evaluate(X_train))) for clf in rules],
            "test_ba": [float(balanced_accuracy_score(y_test, clf.best_rule_.evaluate(X_test))) for clf in rules],
            "chosen_default": int(model.max_complexity_),
            "test_ba_default": float(balanced_accuracy_score(y_test, model.predict(X_test)))}


def stopped(means: np.ndarray, stop_after: int = 3) -> int:
    """How many complexities the rounds try before `stop_after` in a row fail to raise the best mean."""
    best, stale = -np.inf, 0
    for i, mean in enumerate(means):
        best, stale = (mean, 0) if mean > best else (best, stale + 1)
        if stale >= stop_after:
            return i + 1
    return len(means)


def _smallest_within(means: np.ndarray, tolerance: float) -> int:
    return int(np.flatnonzero(means >= means.max() - tolerance - 1e-12)[0])


def _library(selection):
    """`RuleClassifierCV(selection=...)`'s own choice on these fold scores (one lam)."""
    from boolrules import RuleClassifierCV

    def choose(s):
        return RuleClassifierCV(selection=selection)._select([(i, 0.0) for i in range(len(s))], s.T)

    return choose


def rules() -> dict:
    """Selection rules: fold scores (complexities x folds, the tried ones) -> index of the chosen complexity;
    the best mean, one and half a standard error are the estimator's own `selection` values."""
    def paired_se(s):  # smallest complexity whose fold-paired shortfall to the best is within its own SE
        top = np.argmax(s.mean(axis=1))
        diff = s[top][None, :] - s
        se = diff.std(axis=1, ddof=1) / np.sqrt(s.shape[1])
        return int(np.flatnonzero(diff.mean(axis=1) <= se + 1e-12)[0])

    def smoothed(s):  # best mean of each complexity averaged with its neighbours
        means = s.mean(axis=1)
        padded = np.r_[means[0], means, means[-1]]
        return int(np.argmax((padded[:-2] + padded[1:-1] + padded[2:]) / 3))

    def within_0005(s):
        return _smallest_within(s.mean(axis=1), 0.005)

    return {"best": _library("best"), "one_se": _library("one_se"), "half_se": _library(0.5), "paired_se": paired_se,
            "smoothed": smoothed, "within_0.005": within_0005}


def evaluate(curves: list[dict], out: Path | None) -> pd.DataFrame:
    rows = []
    for curve in curves:
        scores = np.array(curve["fold_scores"])
        tried = stopped(scores.mean(axis=1))
        for name, rule in rules().items():
            i = rule(scores[:tried])
            rows.append({"dataset": curve["dataset"], "split": curve["split"], "config": name,
                         "chosen": curve["complexities"][i], "complexity": curve["rule_complexity"][i],
                         "train_rows": curve["train_rows"], "train_ba": curve["train_ba"][i],
                         "test_ba": curve["test_ba"][i], "seconds": 0.0})
        rows.append({"dataset": curve["dataset"], "split": curve["split"], "config": "default_refit",
                     "chosen": curve["chosen_default"], "complexity": np.nan, "train_rows": curve["train_rows"],
                     "train_ba": np.nan, "test_ba": curve["test_ba_default"], "seconds": 0.0})
    frame = pd.DataFrame(rows)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        frame.to_csv(out / "selection_rules.csv", index=False)
    return frame


def summary(frame: pd.DataFrame) -> str:
    base = frame[frame["config"] == "best"].set_index(["dataset", "split"])["test_ba"]
    lines = ["| dataset | rule | test BA | complexity | − best (paired, ± SE) |", "|---|---|---:|---:|---:|"]
    for (dataset, config), group in frame.groupby(["dataset", "config"], sort=False):
        diff = group.set_index(["dataset", "split"])["test_ba"] - base
        lines.append(f"| {dataset} | {config} | {group['test_ba'].mean():.4f} | {group['complexity'].mean():.1f} | "
                     f"{diff.mean():+.4f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.4f} |")
    lines += ["", "| rule | splits | − best over all (± SE) |", "|---|---:|---:|"]
    for config, group in frame.groupby("config", sort=False):
        diff = group.set_index(["dataset", "split"])["test_ba"] - base
        lines.append(f"| {config} | {len(diff)} | {diff.mean():+.4f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.4f} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", type=Path, help="append one JSON line per (dataset, split) to this file")
    parser.add_argument("--evaluate", type=Path, help="a --collect file to compare the rules on")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.collect:
        done = set()
        if args.collect.exists():
            recorded = map(json.loads, args.collect.read_text().splitlines())
            done = {(c["dataset"], c["split"], c["seed"]) for c in recorded}
        for dataset in args.datasets:
            for split in range(args.splits):
                if (dataset, split, args.seed) not in done:
                    with args.collect.open("a") as file:
                        file.write(json.dumps(collect(dataset, split, args.seed, args.n_jobs)) + "\n")
                    print(dataset, split, flush=True)
    if args.evaluate:
        curves = [json.loads(line) for line in args.evaluate.read_text().splitlines()]
        print(summary(evaluate(curves, args.out)))


if __name__ == "__main__":
    main()
