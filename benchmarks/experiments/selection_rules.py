"""Selection rules for `RuleClassifierCV` compared on the same cross-validation (issue 25 item 2, research).

Per dataset and split (as `bench_cv.py`: `bench_peers` splits, at most 3000 training rows, the default
"auto" quantiles fitted on the training rows), one `RuleClassifierCV(stop_after=None)` fit tries every
complexity 3..15; its fold scores are what any selection rule sees, and the rounds' rule on all the
training rows at each complexity (2 x 1000 iterations, warm-started, kept only when it fits better) is
scored on the test rows. Each rule below then picks a complexity from the fold scores (after the
default's early stop, `stop_after=3`, which ends the rounds where the real estimator would) and is
credited with that complexity's test score: the rules are compared on the same fits, without the
final 10 x 2000 refit (the fitted estimator's own test score, with it, is the `default_refit` row).
The folds' rules' training objectives and sizes are recorded too, so `--ccp-alphas` replays
`RuleClassifierCV(ccp_alpha=...)` on the same fits (`ccp_A`: pruning changes no search, only which rule
the refit returns; `ccp_folds_A`: the variant that also prunes each fold's rule before validating it).

    PYTHONPATH=src python benchmarks/experiments/selection_rules.py --collect curves.jsonl   # ~20 min
    PYTHONPATH=src python benchmarks/experiments/selection_rules.py --evaluate curves.jsonl --out DIR \
        --ccp-alphas 0.001 0.002 0.003 0.005

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

    from bench_peers import capped_split
    from boolrules import QuantileBinarizer, RuleClassifierCV, load_dataset

    data = load_dataset(dataset)
    train, test = capped_split(data.y, 5, seed, split, 3000)  # the whole test split, as recorded
    binarizer = QuantileBinarizer(num_bins="auto").fit(data.raw.iloc[train])
    X_train, X_test = binarizer.transform(data.raw.iloc[train]), binarizer.transform(data.raw.iloc[test])
    y_train, y_test = data.y[train], data.y[test]
    captured = {}

    class Capturing(RuleClassifierCV):
        def _select(self, candidates, scores):  # the rounds' rules on all rows, from the caller's frame
            captured["kept"] = sys._getframe(1).f_locals["kept"][:, :, 0]
            return super()._select(candidates, scores)

    model = Capturing(stop_after=None, binarizer=None, n_jobs=n_jobs, random_state=seed * 1000 + split)
    model.fit(X_train, y_train)
    results = model.cv_results_
    folds = sorted(key for key in results if key.startswith("split"))
    tried = len(results["params"])
    rules, fold_rules = captured["kept"][-1, :tried], captured["kept"][:-1, :tried].T  # complexities x folds
    return {"dataset": dataset, "split": split, "seed": seed, "train_rows": len(train),
            "complexities": [int(c) for c in results["param_max_complexity"]],
            "fold_scores": np.array([results[key] for key in folds]).T.tolist(),  # complexities x folds
            "fold_objective": [[float(clf.best_objective_) for clf in row] for row in fold_rules],
            "fold_rule_complexity": [[int(clf.best_rule_.complexity) for clf in row] for row in fold_rules],
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


def _pruned(objective: np.ndarray, complexity: np.ndarray, alpha: float) -> np.ndarray:
    """Per complexity (rows), the row cost-complexity pruning keeps: of the rules kept at that complexity
    and below, the first of best objective less `alpha` x complexity."""
    value = objective - alpha * complexity
    best = np.maximum.accumulate(value, axis=0)
    return np.argmax(value[None, ...] >= best[:, None, ...] - 1e-12, axis=1)  # the first row reaching the best


def ccp(curve: dict, alpha: float, in_folds: bool = False) -> tuple[int, int]:
    """`RuleClassifierCV(ccp_alpha=alpha)` on one curve (the best mean, `stop_after=3`): the chosen
    complexity's index and the index of the all-rows rule it returns. `in_folds`: the variant not
    adopted, each fold validating its own pruned rule (the choice then moves with the pruning)."""
    scores = np.array(curve["fold_scores"])
    if in_folds:
        picks = _pruned(np.array(curve["fold_objective"]), np.array(curve["fold_rule_complexity"]), alpha)
        scores = np.take_along_axis(scores, picks, axis=0)  # each fold scores its pruned rule
    means = scores.mean(axis=1)
    i = int(np.argmax(means[:stopped(means)]))
    kept = _pruned(np.array(curve["train_ba"])[:, None], np.array(curve["rule_complexity"])[:, None], alpha)
    return i, int(kept[i, 0])


def evaluate(curves: list[dict], out: Path | None, alphas=()) -> pd.DataFrame:
    rows = []
    for curve in curves:
        scores = np.array(curve["fold_scores"])
        tried = stopped(scores.mean(axis=1))
        picks = {name: (i, i) for name, rule in rules().items() for i in [rule(scores[:tried])]}
        picks.update({f"ccp_{alpha:g}": ccp(curve, alpha) for alpha in alphas})
        picks.update({f"ccp_folds_{alpha:g}": ccp(curve, alpha, in_folds=True) for alpha in alphas})
        for name, (i, j) in picks.items():
            rows.append({"dataset": curve["dataset"], "seed": curve["seed"], "split": curve["split"], "config": name,
                         "chosen": curve["complexities"][i], "complexity": curve["rule_complexity"][j],
                         "train_rows": curve["train_rows"], "train_ba": curve["train_ba"][j],
                         "test_ba": curve["test_ba"][j], "seconds": 0.0})
        rows.append({"dataset": curve["dataset"], "seed": curve["seed"], "split": curve["split"], "config": "default_refit",
                     "chosen": curve["chosen_default"], "complexity": np.nan, "train_rows": curve["train_rows"],
                     "train_ba": np.nan, "test_ba": curve["test_ba_default"], "seconds": 0.0})
    frame = pd.DataFrame(rows)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        frame.to_csv(out / "selection_rules.csv", index=False)
    return frame


def summary(frame: pd.DataFrame) -> str:
    keys = ["dataset", "seed", "split"]  # the curves of several seeds may be evaluated together
    base = frame[frame["config"] == "best"].set_index(keys)["test_ba"]
    lines = ["| dataset | rule | test BA | complexity | − best (paired, ± SE) |", "|---|---|---:|---:|---:|"]
    for (dataset, config), group in frame.groupby(["dataset", "config"], sort=False):
        diff = group.set_index(keys)["test_ba"] - base
        lines.append(f"| {dataset} | {config} | {group['test_ba'].mean():.4f} | {group['complexity'].mean():.1f} | "
                     f"{diff.mean():+.4f} ± {diff.std(ddof=1) / np.sqrt(len(diff)):.4f} |")
    lines += ["", "| rule | splits | − best over all (± SE) |", "|---|---:|---:|"]
    for config, group in frame.groupby("config", sort=False):
        diff = group.set_index(keys)["test_ba"] - base
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
    parser.add_argument("--ccp-alphas", type=float, nargs="*", default=[],
                        help="also `ccp_alpha` values (curves collected with the folds' objectives)")
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
        print(summary(evaluate(curves, args.out, args.ccp_alphas)))


if __name__ == "__main__":
    main()
