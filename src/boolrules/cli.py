"""The `boolrules` command line."""

from __future__ import annotations

import argparse
import json
import sys
import time

__all__ = ["main"]


def _fit(args) -> int:
    from sklearn.model_selection import train_test_split

    from .datasets import load_dataset
    from .localsearch import RuleClassifier

    data = load_dataset(args.dataset)
    X_train, X_test, y_train, y_test = train_test_split(
        data.raw, data.y, test_size=args.test_size, stratify=data.y, random_state=args.seed
    )
    clf = RuleClassifier(
        max_complexity=args.max_complexity,
        max_depth=args.max_depth,
        num_starts=args.num_starts,
        num_iterations=args.num_iterations,
        lam=args.lam,
        n_jobs=args.n_jobs,
        random_state=args.seed,
        verbose=args.progress,
        nonlocal_backend=args.nonlocal_backend,
    )
    start = time.perf_counter()
    clf.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    result = {
        "dataset": data.name,
        "rows": int(len(data.y)),
        "binary_features": int(data.X.shape[1]),
        "rule": clf.rule_text_,
        "rule_indices": str(clf.best_rule_),
        "complexity": clf.best_rule_.complexity,
        "train_balanced_accuracy": clf.score(X_train, y_train),
        "test_balanced_accuracy": clf.score(X_test, y_test),
        "seconds": seconds,
    }
    if clf.nonlocal_stats_ is not None:
        stats = clf.nonlocal_stats_
        result["nonlocal"] = {"calls": stats.calls, "proposed": stats.proposed, "failed": stats.failed}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"dataset:    {data.name} ({result['rows']} rows, binarized on the training split)")
        print(f"rule:       {result['rule']}")
        print(f"complexity: {result['complexity']}")
        print(f"balanced accuracy: train {result['train_balanced_accuracy']:.4f}, "
              f"test {result['test_balanced_accuracy']:.4f}")
        print(f"time:       {seconds:.2f} s ({args.num_starts} starts x {args.num_iterations} iterations)")
        if "nonlocal" in result:
            print(f"non-local:  {result['nonlocal']['calls']} oracle calls, {result['nonlocal']['proposed']} moves "
                  f"proposed, {result['nonlocal']['failed']} failed")
    return 0


def _datasets(args) -> int:
    from .datasets import DATASETS

    for name in DATASETS:
        print(name)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boolrules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    fit = sub.add_parser("fit", help="learn a rule with the native simulated-annealing search")
    fit.add_argument("--dataset", default="breast_cancer", help="dataset name (see `boolrules datasets`)")
    fit.add_argument("--max-complexity", type=int, default=10)
    fit.add_argument("--max-depth", type=int, default=None)
    fit.add_argument("--num-starts", type=int, default=20)
    fit.add_argument("--num-iterations", type=int, default=2000)
    fit.add_argument("--lam", type=float, default=0.0, help="complexity penalty")
    fit.add_argument("--test-size", type=float, default=0.3)
    fit.add_argument("--n-jobs", type=int, default=None)
    fit.add_argument("--nonlocal-backend", default=None,
                     help="backend for non-local moves (e.g. highs, sa); default: local moves only")
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--json", action="store_true", help="print one JSON object")
    fit.add_argument("--progress", action="store_true", help="show a progress bar")
    fit.set_defaults(func=_fit)
    datasets = sub.add_parser("datasets", help="list the datasets `--dataset` accepts")
    datasets.set_defaults(func=_datasets)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, TypeError, FileNotFoundError) as exc:
        print(f"boolrules: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
