"""Does `time_budget` hold? `fit()`'s wall time against the budget, per budget, `n_jobs` and oracle.

Each fit runs in a fresh Python process (so a parallel fit starts its joblib workers from cold, as a
user's first fit does), timed around `fit()` there; printed per fit: that wall time, `fit_seconds_`,
the ratio to the budget, each start's iterations (`n_iter_`) and the train balanced accuracy. With
`--busy N`, N processes spinning on a core run beside the fits (ended when the script ends).

Run (the table in benchmarks/README.md, "Budgets that hold"):
    .venv/bin/python benchmarks/bench_budget.py --budgets 1 3 10 30 --n-jobs 1 2 --backends none native sa --busy 1
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

FIT = """
import json, sys, time
from boolrules import RuleClassifier, load_dataset
args = json.loads(sys.argv[1])
data = load_dataset(args["dataset"])
clf = RuleClassifier(num_starts=args["num_starts"], num_iterations=None, time_budget=args["budget"],
                     n_jobs=args["n_jobs"], nonlocal_backend=args["backend"], random_state=args["seed"])
began = time.perf_counter()
clf.fit(data.X, data.y)
wall = time.perf_counter() - began
print(json.dumps({"wall": wall, "fit_seconds": clf.fit_seconds_, "n_iter": clf.n_iter_.tolist(),
                  "train_ba": clf.best_score_}))
"""


def fit_in_a_fresh_process(dataset, budget, n_jobs, backend, num_starts, seed) -> dict:
    spec = {"dataset": dataset, "budget": budget, "n_jobs": n_jobs, "backend": backend, "num_starts": num_starts,
            "seed": seed}
    out = subprocess.run([sys.executable, "-c", FIT, json.dumps(spec)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="breast_cancer")
    parser.add_argument("--budgets", type=float, nargs="+", default=[1, 3, 10])
    parser.add_argument("--n-jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--backends", nargs="+", default=["none", "native", "sa"], help="non-local backends (none: local only)")
    parser.add_argument("--num-starts", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on a core beside the fits")
    args = parser.parse_args(argv)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        print(f"{args.dataset}, {args.num_starts} starts, no cap on iterations, seed {args.seed}, "
              f"{args.busy} busy process(es) beside; each fit in a fresh process.\n")
        print("| budget s | n_jobs | oracle | fit() wall s | fit_seconds_ | wall / budget | n_iter_ | train BA |")
        print("|---:|---:|---|---:|---:|---:|---|---:|")
        worst = 0.0
        for budget in args.budgets:
            for n_jobs in args.n_jobs:
                for backend in args.backends:
                    row = fit_in_a_fresh_process(args.dataset, budget, n_jobs, None if backend == "none" else backend,
                                                 args.num_starts, args.seed)
                    worst = max(worst, row["wall"] / budget)
                    print(f"| {budget:g} | {n_jobs} | {backend} | {row['wall']:.2f} | {row['fit_seconds']:.2f} | "
                          f"{row['wall'] / budget:.3f} | {row['n_iter']} | {row['train_ba']:.4f} |", flush=True)
        print(f"\nworst wall / budget: {worst:.3f}")
    finally:
        for process in busy:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s in all)", file=sys.stderr)
