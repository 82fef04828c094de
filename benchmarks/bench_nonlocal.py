"""Non-local moves (paper RQ3, Figure 16): the native search with and without non-local moves.

For each dataset (a 70/30 stratified split of the binarized data), max_complexity and number of
iterations, the native local search runs local-only and with non-local moves from each chosen
backend (ILP via HiGHS; `sa` QUBO where installed). Reported: mean train and test balanced
accuracy over the seeds, oracle calls (proposed / failed), and time; then, per dataset and
complexity, the fewest iterations at which the non-local search reaches the local-only score at
the most iterations. Rows are printed as they finish, so a cut-short run still reports.

Per second instead of per iteration (`--budgets`): every fit gets the same `time_budget` and no
cap on iterations, and the table says how many iterations each side ran in that time.

Run (the paper's settings are 20 starts, 1 s ILP time limit; the defaults here are smaller;
`--profile-oracle` instead times the parts of an oracle call):
    .venv/bin/python benchmarks/bench_nonlocal.py --datasets breast_cancer credit_risk customer_churn \
        --complexities 5 10 15 --iterations 250 500 1000 2000 --seeds 0 1 --num-starts 4
    .venv/bin/python benchmarks/bench_nonlocal.py --complexities 10 --budgets 10 30 --seeds 0 1 2 \
        --backends native highs
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from sklearn.model_selection import train_test_split

from boolrules import RuleClassifier, load_dataset


def run(X_train, y_train, X_test, y_test, mc, iterations, seed, backend, args, budget=None, quench=True,
        max_samples=None):
    """One fit of `iterations` per start, or with `budget` seconds (and no cap on iterations); the oracle's
    `max_samples` (None: the first of `--max-samples`)."""
    clf = RuleClassifier(
        max_complexity=mc, num_starts=args.num_starts, num_iterations=None if budget else iterations,
        time_budget=budget, random_state=seed, binarizer=None, nonlocal_backend=backend,
        nonlocal_time_limit=args.time_limit, max_samples=max_samples or args.max_samples[0], n_jobs=args.n_jobs,
        quench=quench,
    )
    start = time.perf_counter()
    clf.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    stats = clf.nonlocal_stats_
    return {
        "train": clf.best_score_,
        "test": clf.score(X_test, y_test),
        "seconds": seconds,
        "calls": 0 if stats is None else stats.calls,
        "proposed": 0 if stats is None else stats.proposed,
        "failed": 0 if stats is None else stats.failed,
        "iterations": float(np.mean(clf.n_iter_)),
    }


def profile_oracle(num_calls=30, time_limit=1.0, seed=0):
    """Where an oracle call spends its time: Pyomo build, standard form, HiGHS (Breast Cancer)."""
    import random

    from boolrules.backends import get_backend
    from boolrules.formulations import depth_one
    from boolrules.localsearch.moves import LocalMoves, SearchSpace, random_rule
    from boolrules.localsearch.oracle import NonLocalOracle
    from boolrules.metrics import balanced_sample_weight
    from boolrules.rules import OPERATORS, BitMatrix

    data = load_dataset("breast_cancer", paper_layout=True)
    rng = random.Random(seed)
    space = SearchSpace(data.X.shape[1], tuple(OPERATORS.values()), 10)
    oracle = NonLocalOracle(BitMatrix(data.X), data.X, data.y, balanced_sample_weight(data.y), space,
                            get_backend("highs"), operators=space.operators, max_samples=100,
                            time_limit=time_limit, rng=rng)
    moves, times = LocalMoves(space, rng), []
    rule = random_rule(space, rng)
    while len(times) < num_calls:
        rule = moves.propose(rule)
        path, _ = rule.walk()[rng.randrange(len(rule.walk()))]
        rows, labels = oracle.subproblem(rule, path)
        if len(rows) < 10:
            continue
        rows, labels = rows[:100], labels[:100]
        t0 = time.perf_counter()
        problem = depth_one(data.X[rows], labels.astype(np.uint8), rng.choice(list(OPERATORS)), max_num_literals=4,
                            min_num_literals=1, sample_weight=balanced_sample_weight(data.y)[rows])
        t1 = time.perf_counter()
        problem.standard_form
        t2 = time.perf_counter()
        get_backend("highs", time_limit=time_limit).solve(problem)
        times.append((t1 - t0, t2 - t1, time.perf_counter() - t2))
    build, form, solve = np.mean(times, axis=0)
    total = build + form + solve
    print(f"## Oracle call profile ({num_calls} subproblems of <= 100 Breast Cancer rows, m' = 4, "
          f"HiGHS time limit {time_limit} s)\n")
    print("| Pyomo build | standard form | HiGHS (incl. warm start) | build share |")
    print("|---:|---:|---:|---:|")
    print(f"| {build * 1e3:.1f} ms | {form * 1e3:.1f} ms | {solve * 1e3:.0f} ms | {100 * (build + form) / total:.1f}% |\n")


def mean_over_seeds(data, mc, iterations, mode, args, budget=None, quench=True, label=None, max_samples=None) -> dict:
    """`run` on the 70/30 stratified split of each seed, its numbers averaged over the seeds (each
    seed's scores printed first when a `label` is given)."""
    rows = []
    for seed in args.seeds:
        X_train, X_test, y_train, y_test = train_test_split(
            data.X, data.y, test_size=0.3, stratify=data.y, random_state=seed
        )
        rows.append(run(X_train, y_train, X_test, y_test, mc, iterations, seed, mode, args, budget, quench,
                        max_samples))
        if label is not None:
            print(f"  {data.name} seed {seed} {label}: train {rows[-1]['train']:.4f} test {rows[-1]['test']:.4f} "
                  f"{rows[-1]['iterations']:,.0f} it/start {rows[-1]['calls']} calls", flush=True)
    return {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}


def per_second(args):
    """RQ3 at equal wall time: each mode gets the same `time_budget`; means over the seeds (each mode also
    without the quench with `--no-quench-too`, each non-local one with every `--max-samples`)."""
    quenches = (True, False)[: 1 + args.no_quench]
    modes = [(mode, quench, samples) for mode in (None, *args.backends) for quench in quenches
             for samples in ([None] if mode is None else args.max_samples)]
    print(f"{args.num_starts} starts per fit sharing each budget, non-local time limit {args.time_limit}, "
          f"max_samples {args.max_samples}, seeds {args.seeds}; means over the seeds.\n")
    print("| dataset | max_complexity | budget s | moves | train BA | test BA | iterations per start | "
          "oracle calls | proposed | failed | seconds |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.datasets:
        data = load_dataset(name, paper_layout=True)
        for mc in args.complexities:
            for budget in args.budgets:
                for mode, quench, samples in modes:
                    label = ("local" if mode is None else f"+ non-local ({mode})") + ("" if quench else ", no quench")
                    label += f", max_samples {samples}" if mode is not None and len(args.max_samples) > 1 else ""
                    mean = mean_over_seeds(data, mc, None, mode, args, budget, quench, label, samples)
                    print(f"| {name} | {mc} | {budget:g} | {label} | {mean['train']:.4f} | {mean['test']:.4f} | "
                          f"{mean['iterations']:,.0f} | {mean['calls']:.0f} | {mean['proposed']:.0f} | "
                          f"{mean['failed']:.0f} | {mean['seconds']:.1f} |", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["breast_cancer", "credit_risk", "customer_churn"])
    parser.add_argument("--complexities", type=int, nargs="+", default=[5, 10, 15])
    parser.add_argument("--iterations", type=int, nargs="+", default=[250, 500, 1000, 2000])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--backends", nargs="*", default=["highs", "sa"], help="non-local backends (none: local only)")
    parser.add_argument("--num-starts", type=int, default=4)
    parser.add_argument("--time-limit", type=lambda text: text if text == "auto" else float(text), default="auto",
                        help="nonlocal_time_limit: seconds or auto (1 s; under a budget 0.4%% of each start's time)")
    parser.add_argument("--max-samples", type=lambda text: text if text == "auto" else int(text), nargs="+",
                        default=["auto"], help="the oracle's max_samples (auto: RuleClassifier's default, 400 on "
                                               "native, 100 on others); with --budgets each non-local variant runs with each")
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--budgets", type=float, nargs="+", default=None,
                        help="seconds per fit: compare at equal wall time instead of equal iterations")
    parser.add_argument("--no-quench-too", dest="no_quench", action="store_true",
                        help="with --budgets, each variant also with quench=False")
    parser.add_argument("--profile-oracle", action="store_true", help="only profile oracle calls")
    args = parser.parse_args(argv)
    if args.profile_oracle:
        profile_oracle(time_limit=1.0 if args.time_limit == "auto" else args.time_limit)
        return
    if args.budgets:
        per_second(args)
        return
    modes = [None, *args.backends]
    print(f"{args.num_starts} starts per fit, non-local time limit {args.time_limit}, max_samples "
          f"{args.max_samples}, seeds {args.seeds}; means over the seeds.\n")
    print("| dataset | max_complexity | iterations | moves | train BA | test BA | oracle calls | proposed | failed | seconds |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    table = defaultdict(dict)
    for name in args.datasets:
        data = load_dataset(name, paper_layout=True)
        for mc in args.complexities:
            for iterations in args.iterations:
                for mode in modes:
                    mean = mean_over_seeds(data, mc, iterations, mode, args)
                    label = "local" if mode is None else f"+ non-local ({mode})"
                    table[(name, mc)][(label, iterations)] = mean["train"]
                    print(f"| {name} | {mc} | {iterations} | {label} | {mean['train']:.4f} | {mean['test']:.4f} | "
                          f"{mean['calls']:.0f} | {mean['proposed']:.0f} | {mean['failed']:.0f} | "
                          f"{mean['seconds']:.1f} |", flush=True)
    print("\n## Iterations needed to reach the local-only train score at the most iterations\n")
    print("| dataset | max_complexity | local-only score | " + " | ".join(
        f"fewest iterations ({m})" for m in args.backends) + " |")
    print("|---|---:|---:|" + "---:|" * len(args.backends))
    most = max(args.iterations)
    for (name, mc), scores in table.items():
        target = scores.get(("local", most))
        if target is None:
            continue
        cells = []
        for backend in args.backends:
            reached = [it for it in sorted(args.iterations)
                       if scores.get((f"+ non-local ({backend})", it), -1) >= target - 1e-9]
            cells.append(str(reached[0]) if reached else "not reached")
        print(f"| {name} | {mc} | {target:.4f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
