"""Move policies at equal wall time: local-only, literal scans, and non-local moves under each policy.

Problems: planted rules (3000 rows x 30 random features, 2.5% of the training labels flipped; a
depth-one AtLeast3 of five literals and a depth-two DNF), judged also on 3000 clean test rows
(recovered: test balanced accuracy >= 0.99), and Breast Cancer (the library's binarization, 70/30
split). Every variant of one problem and seed runs in turn (interleaved, so the machine's load
disturbs all alike) for about the same wall time: a short calibration fit of each variant measures
its iterations per second, and the timed fit gets the iterations that fill `--seconds`; the
seconds it actually took are reported. Means over the seeds.

`--profile-policy` instead measures what one oracle call gains per second, by how its node and
operator are chosen and by max_samples: every (node, operator) of rules where short local searches
stopped is solved, and the expected gain in objective (0 for a worse move, which would mostly be
rejected) per second of call is reported for each choice rule.

Run (the numbers in benchmarks/README.md):
    .venv/bin/python benchmarks/bench_moves.py --seconds 10 --seeds 0 1 2
    .venv/bin/python benchmarks/bench_moves.py --profile-policy --max-samples 50 100 200
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from bench_planted import planted_problem
from sklearn.model_selection import train_test_split

from boolrules import RuleClassifier, load_dataset
from boolrules.rules import And, AtLeast, Literal, Or

NONLOCAL = {"nonlocal_backend": "highs"}
VARIANTS = {
    "local": {},
    "scan 0.1": {"scan_moves": 0.1},
    "scan 0.3": {"scan_moves": 0.3},
    "non-local random": {**NONLOCAL, "nonlocal_policy": "random"},
    "non-local gain": {**NONLOCAL, "nonlocal_policy": "gain"},
    "non-local gain + scan 0.1": {**NONLOCAL, "nonlocal_policy": "gain", "scan_moves": 0.1},
}
PLANTED = {
    "planted AtLeast3": AtLeast(3, Literal(0), ~Literal(1), Literal(2), ~Literal(3), Literal(4)),
    "planted DNF": Or(And(Literal(5), Literal(6), ~Literal(7)), And(Literal(8), ~Literal(9))),
}
CALIBRATION = {False: 1000, True: 40}  # iterations of the first calibration fit, local and non-local


def breast_cancer(seed):
    data = load_dataset("breast_cancer", paper_layout=True)
    X_train, X_test, y_train, y_test = train_test_split(data.X, data.y, test_size=0.3, stratify=data.y,
                                                        random_state=seed)
    return X_train, y_train, X_test, y_test


def fit(params, iterations, seed, args, X, y):
    clf = RuleClassifier(max_complexity=args.max_complexity, num_starts=args.num_starts, num_iterations=iterations,
                         random_state=seed, binarizer=None, max_samples=args.max_samples, **params)
    start = time.perf_counter()
    clf.fit(X, y)
    return clf, time.perf_counter() - start


def run(params, seed, args, X_train, y_train, X_test, y_test):
    """Calibrate the variant's speed (fits of growing length until one takes a quarter of the
    budget), then fit it for about `args.seconds`."""
    calibration = CALIBRATION["nonlocal_backend" in params]
    while True:
        _, seconds = fit(params, calibration, seed + 1000, args, X_train, y_train)
        if seconds >= args.seconds / 4:
            break
        calibration = round(calibration * min(8.0, args.seconds / (2 * seconds)))
    iterations = max(10, round(calibration * args.seconds / seconds))
    clf, seconds = fit(params, iterations, seed, args, X_train, y_train)
    stats = clf.nonlocal_stats_
    return {
        "train": clf.best_score_,
        "test": clf.score(X_test, y_test),
        "iterations": iterations,
        "seconds": seconds,
        "calls": 0 if stats is None else stats.calls,
    }


def profile_policy(problem, max_samples, num_states=6, seed=0):
    """Gain per second of oracle calls under each node rule (uniform, by gain, root only, below the root)
    and operator rule (uniform, each alone, the best of all five), at each max_samples."""
    import random

    from boolrules.backends import get_backend
    from boolrules.localsearch.annealing import RuleScorer, anneal
    from boolrules.localsearch.moves import SearchSpace
    from boolrules.localsearch.oracle import NonLocalOracle
    from boolrules.metrics import balanced_sample_weight
    from boolrules.rules import OPERATORS, BitMatrix

    X, y, _, _ = breast_cancer(seed) if problem == "breast_cancer" else planted_problem(PLANTED[problem], seed)
    bits, operators = BitMatrix(X), tuple(OPERATORS.values())
    scorer, space = RuleScorer(bits, y), SearchSpace(X.shape[1], operators, 10)
    states = [anneal(scorer, space, num_iterations=3000, temperatures=(0.2, 1e-4), seed=s).rule
              for s in range(num_states)]
    backend = get_backend("highs")
    for samples in max_samples:
        calls = []  # (state, node, is root, gain potential, operator, seconds, gain)
        for state, rule in enumerate(states):
            oracle = NonLocalOracle(bits, X, y, balanced_sample_weight(y), space, backend, operators=operators,
                                    max_samples=samples, time_limit=1.0, rng=random.Random(state))
            base = scorer.objective(rule)[1]
            for node, ((path, _), potential) in enumerate(zip(rule.walk(), oracle.gains(rule))):
                for op in operators:
                    start = time.perf_counter()
                    new = oracle.replace(rule, path, op)
                    seconds = time.perf_counter() - start
                    gain = 0.0 if new is None else max(0.0, scorer.objective(new)[1] - base)
                    calls.append((state, node, not path, potential, op.__name__, seconds, gain))

        def rate(node_weight, op_filter=lambda op: True):
            gain = seconds = 0.0
            for state in range(num_states):
                rows = [c for c in calls if c[0] == state and op_filter(c[4])]
                w = np.array([node_weight(c) for c in rows], float)
                if w.sum():
                    w /= w.sum()
                    gain += w @ [c[6] for c in rows]
                    seconds += w @ [c[5] for c in rows]
            return gain / seconds, gain / num_states, seconds / num_states

        def best_of_five():
            nodes = defaultdict(list)
            for c in calls:
                nodes[c[0], c[1]].append(c)
            gain = np.mean([max(c[6] for c in v) for v in nodes.values()])
            seconds = np.mean([sum(c[5] for c in v) for v in nodes.values()])
            return gain / seconds, gain, seconds

        rules = {
            "uniform node, random operator": rate(lambda c: 1),
            "node by gain, random operator": rate(lambda c: c[3]),
            "root only, random operator": rate(lambda c: c[2]),
            "below the root, random operator": rate(lambda c: not c[2]),
            **{f"uniform node, {op} only": rate(lambda c: 1, lambda name, op=op: name == op) for op in OPERATORS},
            "uniform node, best of all five operators": best_of_five(),
        }
        for name, (per_second, per_call, seconds) in rules.items():
            print(f"| {problem} | {samples} | {name} | {per_second:.4f} | {per_call:.4f} | {seconds:.2f} |", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", nargs="+", default=[*PLANTED, "breast_cancer"])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--seconds", type=float, default=10.0, help="wall time of each fit")
    parser.add_argument("--num-starts", type=int, default=2)
    parser.add_argument("--max-complexity", type=int, default=10)
    parser.add_argument("--max-samples", type=int, nargs="+", default=[100])
    parser.add_argument("--profile-policy", action="store_true", help="only measure oracle calls' gain per second")
    args = parser.parse_args(argv)
    if args.profile_policy:
        print("| problem | max_samples | choice | gain per second | gain per call | seconds per call |")
        print("|---|---:|---|---:|---:|---:|")
        for problem in args.problems:
            profile_policy(problem, args.max_samples)
        return
    args.max_samples = args.max_samples[0]
    print(f"{args.num_starts} starts per fit, about {args.seconds} s each, max_complexity {args.max_complexity}, "
          f"max_samples {args.max_samples}, HiGHS as the oracle; seeds {args.seeds}; means over the seeds.\n")
    results = defaultdict(list)
    for problem in args.problems:
        for seed in args.seeds:
            data = breast_cancer(seed) if problem == "breast_cancer" else planted_problem(PLANTED[problem], seed)
            for name in args.variants:
                row = run(VARIANTS[name], seed, args, *data)
                results[problem, name].append(row)
                print(f"  {problem} seed {seed} {name}: train {row['train']:.4f} test {row['test']:.4f} "
                      f"{row['iterations']} it {row['seconds']:.1f} s {row['calls']} calls", flush=True)
    print("\n| problem | variant | train BA | test BA | recovered | iterations per start | oracle calls | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (problem, name), rows in results.items():
        mean = {key: np.mean([r[key] for r in rows]) for key in rows[0]}
        recovered = "" if problem == "breast_cancer" else f"{sum(r['test'] >= 0.99 for r in rows)}/{len(rows)}"
        print(f"| {problem} | {name} | {mean['train']:.4f} | {mean['test']:.4f} | {recovered} | "
              f"{mean['iterations']:,.0f} | {mean['calls']:.0f} | {mean['seconds']:.1f} |")


if __name__ == "__main__":
    main()
