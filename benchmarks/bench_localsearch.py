"""Native local search: boolrules against the published anchor boolxai 1.0.0, measured in one run.

Part 1 (speed and score): identical binarized Breast Cancer, the same settings (num_starts x
num_iterations, single process, lambda = 0, all operators, no depth limit), max_complexity 4/6/10,
several seeds. boolxai runs in its own virtual environment (it pins numpy 1.24) through
`boolxai_runner.py`, stock and with its redundant per-node input check switched off ("patched",
the same trajectory, the fair anchor).

Part 2 (equal time): data whose true rule is known (a planted rule plus label noise); boolxai
patched gets 20 x 2000 iterations, boolrules gets the same CPU time (its iteration count scaled
by its measured speed); both are scored on held-out rows against the planted rule.

Set up the anchor once (outside this project's environment):
    python3 -m venv /tmp/boolxai-venv && /tmp/boolxai-venv/bin/pip install boolxai==1.0.0
Run:
    .venv/bin/python benchmarks/bench_localsearch.py --boolxai-python /tmp/boolxai-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import balanced_accuracy_score

from boolrules import RuleClassifier, load_dataset
from boolrules.rules import And, AtLeast, Literal, Or

RUNNER = Path(__file__).with_name("boolxai_runner.py")


def run_ours(X, y, max_complexity, num_starts, num_iterations, seed):
    clf = RuleClassifier(
        max_complexity=max_complexity, num_starts=num_starts, num_iterations=num_iterations,
        random_state=seed, binarizer=None,
    )
    start, cpu = time.perf_counter(), time.process_time()
    clf.fit(X, y)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "iterations_per_second": num_starts * num_iterations / seconds,
        "iterations_per_cpu_second": num_starts * num_iterations / cpu_seconds,
        "train_balanced_accuracy": clf.best_score_,
        "rule": str(clf.best_rule_),
        "model": clf,
    }


def run_boolxai(python, data_path, max_complexity, num_starts, num_iterations, seed, patched, test_path=None):
    cmd = [
        python, str(RUNNER), "--data", str(data_path), "--max-complexity", str(max_complexity),
        "--num-starts", str(num_starts), "--num-iterations", str(num_iterations), "--seed", str(seed),
    ]
    if patched:
        cmd.append("--patched")
    if test_path is not None:
        cmd += ["--test-data", str(test_path)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def planted_data(seed, n=4000, m=60, noise=0.05):
    """Random 0/1 features, labels from a known depth-two rule with `noise` of them flipped."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    rule = Or(And(Literal(0), Literal(1), ~Literal(2)), AtLeast(2, Literal(3), ~Literal(4), Literal(5)))
    clean = rule.evaluate(X)
    y = (clean ^ (rng.random(n) < noise)).astype(np.uint8)
    return X, y, clean, rule


def part1(args, tmp):
    data = load_dataset("breast_cancer", paper_layout=True)
    path = tmp / "breast_cancer.npz"
    np.savez(path, X=data.X, y=data.y)
    print(f"## Breast Cancer ({data.X.shape[0]} x {data.X.shape[1]} binarized), "
          f"{args.num_starts} starts x {args.num_iterations} iterations, single process\n")
    print("Speeds are iterations per CPU second of the fitting process (time.process_time), which a busy "
          "machine disturbs far less than wall time.\n")
    print("| max_complexity | seed | boolrules it/s | boolxai patched it/s | boolxai stock it/s "
          "| speed-up vs patched | vs stock | boolrules train BA | boolxai train BA |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for mc in args.complexities:
        for seed in args.seeds:
            ours = run_ours(data.X, data.y, mc, args.num_starts, args.num_iterations, seed)
            patched = run_boolxai(args.boolxai_python, path, mc, args.num_starts, args.num_iterations, seed, True)
            stock = run_boolxai(args.boolxai_python, path, mc, args.stock_starts, args.num_iterations, seed, False)
            row = (mc, seed, ours["iterations_per_cpu_second"], patched["iterations_per_cpu_second"],
                   stock["iterations_per_cpu_second"], ours["train_balanced_accuracy"],
                   patched["train_balanced_accuracy"])
            rows.append(row)
            print(f"| {mc} | {seed} | {row[2]:,.0f} | {row[3]:,.0f} | {row[4]:,.0f} | {row[2] / row[3]:.1f}x "
                  f"| {row[2] / row[4]:.0f}x | {row[5]:.4f} | {row[6]:.4f} |", flush=True)
    r = np.array([row[2:] for row in rows])
    print(f"\nMean speed-up: {np.mean(r[:, 0] / r[:, 1]):.1f}x vs patched boolxai, "
          f"{np.mean(r[:, 0] / r[:, 2]):.0f}x vs stock; mean train balanced accuracy "
          f"{r[:, 3].mean():.4f} (boolrules) vs {r[:, 4].mean():.4f} (boolxai); "
          f"boolrules >= boolxai in {int(np.sum(r[:, 3] >= r[:, 4] - 1e-12))} of {len(r)} runs.")
    print(f"(stock boolxai ran {args.stock_starts} starts per run to save time; its speed per iteration "
          "does not depend on the number of starts.)\n")


def part2(args, tmp):
    print("## Equal CPU time on data with a planted rule\n")
    print("Planted: Or(And(f0, f1, ~f2), AtLeast2(f3, ~f4, f5)) on 60 random features, 4000 rows "
          "(half for training), 5% of labels flipped; max_complexity 10. The planted rule's test "
          "balanced accuracy against the noisy labels is the ceiling.\n")
    print("| seed | CPU seconds (boolxai / boolrules) | boolxai iterations | boolrules iterations | boolxai test BA "
          "| boolrules test BA | planted rule test BA |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    wins = []
    for seed in args.seeds:
        X, y, _, rule = planted_data(seed)
        half = len(y) // 2
        train, test = tmp / f"planted{seed}_train.npz", tmp / f"planted{seed}_test.npz"
        np.savez(train, X=X[:half], y=y[:half])
        np.savez(test, X=X[half:], y=y[half:])
        theirs = run_boolxai(args.boolxai_python, train, 10, args.num_starts, args.num_iterations, seed, True, test)
        probe = run_ours(X[:half], y[:half], 10, 2, 4 * args.num_iterations, seed)
        iterations = int(theirs["cpu_seconds"] * probe["iterations_per_cpu_second"] / args.num_starts)
        ours = run_ours(X[:half], y[:half], 10, args.num_starts, iterations, seed)
        ours_test = ours["model"].score(X[half:], y[half:])
        ceiling = balanced_accuracy_score(y[half:], rule.evaluate(X[half:]))
        wins.append(ours_test - theirs["test_balanced_accuracy"])
        print(f"| {seed} | {theirs['cpu_seconds']:.1f} / {ours['cpu_seconds']:.1f} | {args.num_starts} x "
              f"{args.num_iterations} | {args.num_starts} x {iterations} | "
              f"{theirs['test_balanced_accuracy']:.4f} | {ours_test:.4f} | {ceiling:.4f} |", flush=True)
    print(f"\nMean test balanced accuracy gain of boolrules at equal CPU time: {np.mean(wins):+.4f}\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boolxai-python", required=True, help="python of a venv with boolxai==1.0.0")
    parser.add_argument("--num-starts", type=int, default=20)
    parser.add_argument("--num-iterations", type=int, default=2000)
    parser.add_argument("--stock-starts", type=int, default=2, help="starts for the slow stock boolxai")
    parser.add_argument("--complexities", type=int, nargs="+", default=[4, 6, 10])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--skip-part1", action="store_true")
    parser.add_argument("--skip-part2", action="store_true")
    args = parser.parse_args(argv)
    if not Path(args.boolxai_python).exists():
        sys.exit(f"no python at {args.boolxai_python}; see the set-up line in this script's docstring")
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_part1:
            part1(args, Path(tmp))
        if not args.skip_part2:
            part2(args, Path(tmp))


if __name__ == "__main__":
    main()
