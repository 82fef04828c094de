"""How far the rounds' search of `RuleClassifierCV` falls short of the full search (issue 25, research).

The cross-validation ranks complexities by rules that its rounds fit with `fold_starts` x
`fold_iterations`; where that search misses rules the final 10 x 2000 refit finds, the fold scores
rank a weaker learner than the one refitted. Per dataset (split 0 of `bench_cv.py`'s protocol: at most
3000 training rows, the "auto" quantiles fitted on them) and the training rows of its first CV fold,
each search setting fits `RuleClassifier(max_complexity=c)` cold with `--seeds` random states; printed:
mean training balanced accuracy, its shortfall to the full search's, and CPU seconds per fit.

    PYTHONPATH=src python benchmarks/experiments/fold_search_gap.py --seeds 8
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATASETS = ("parkinsons", "breast_cancer", "credit_risk", "customer_churn", "home_equity", "online_shoppers",
            "direct_marketing", "credit_card_default")
SEARCHES = {"2 x 1000": {"num_starts": 2, "num_iterations": 1000}, "4 x 1000": {"num_starts": 4, "num_iterations": 1000},
            "2 x 1000, scans 0.1": {"num_starts": 2, "num_iterations": 1000, "scan_moves": 0.1},
            "10 x 2000": {"num_starts": 10, "num_iterations": 2000}}


def fold_rows(dataset: str):
    """The binary training rows of the first CV fold of split 0, and their labels."""
    from sklearn.model_selection import StratifiedKFold

    from bench_peers import capped_split
    from boolrules import QuantileBinarizer, load_dataset

    data = load_dataset(dataset)
    train, _ = capped_split(data.y, 5, 0, 0, 3000)
    X = QuantileBinarizer(num_bins="auto").fit_transform(data.raw.iloc[train])
    y = data.y[train]
    fold, _ = next(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    return X[fold], y[fold]


def measure(X, y, complexity: int, seeds: int) -> dict[str, tuple[float, float]]:
    """Per search: (mean training balanced accuracy, mean CPU seconds) over `seeds` cold fits."""
    from sklearn.metrics import balanced_accuracy_score

    from boolrules import RuleClassifier

    results = {}
    for name, search in SEARCHES.items():
        scores, seconds = [], []
        for seed in range(seeds):
            start = time.process_time()
            model = RuleClassifier(max_complexity=complexity, binarizer=None, random_state=seed, **search).fit(X, y)
            seconds.append(time.process_time() - start)
            scores.append(balanced_accuracy_score(y, model.predict(X)))
        results[name] = (float(np.mean(scores)), float(np.mean(seconds)))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--complexities", nargs="+", type=int, default=[5, 9])
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args(argv)
    names = list(SEARCHES)
    print("| dataset | complexity | " + " | ".join(f"{n}: train BA (shortfall), CPU s" for n in names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for dataset in args.datasets:
        X, y = fold_rows(dataset)
        for complexity in args.complexities:
            results = measure(X, y, complexity, args.seeds)
            full = results[names[-1]][0]
            cells = [f"{score:.4f} ({full - score:.4f}), {seconds:.2f}" for score, seconds in results.values()]
            print(f"| {dataset} | {complexity} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
