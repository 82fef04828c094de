"""The non-local oracle's own subproblems solved by "highs" and by "native", call by call.

The subproblems are recorded from real searches (`RuleClassifier(max_complexity=10,
nonlocal_backend=...)` on Breast Cancer, Credit Risk and Customer Churn, binarized), by wrapping the
search's backend so that every `DepthOneProblem` the oracle builds is kept. Each is then solved by
HiGHS and by the native branch and bound, interleaved, both with the oracle's 1 s time limit; a
call's time is what the oracle pays: building the problem (`depth_one`) plus the solve. Reported per
dataset and per class of subproblem (by its most literals): median and mean time per call, the
ratio of the means, how many calls native ends at an objective no worse than HiGHS's (+1e-9), and
how many each side stopped at the time limit. Also the share of a HiGHS call spent building the
Pyomo model and its standard form (which the native path skips: the model is built lazily).

`--limits S ...` measures instead the speed-up at equal objective: native is re-run with each
time limit in turn (smallest first) until its objective is no worse than HiGHS's (which had the
oracle's 1 s), and the seconds of that run are set against HiGHS's.

`--short-limits S ...` measures how near native ends to a short limit (a budgeted fit's calls get
0.02-0.03 s): per dataset and limit, the mean seconds per call, its ratio to the limit, the calls
that took more than twice the limit, and the mean objective.

Run (`--save FILE` keeps the recorded subproblems, `--load FILE` solves those again instead of
recording, so that two versions of a backend are compared on the same set):
    .venv/bin/python benchmarks/bench_oracle.py --iterations 1000 --seeds 0 1 --save /tmp/oracle.pkl
    .venv/bin/python benchmarks/bench_oracle.py --load /tmp/oracle.pkl
    .venv/bin/python benchmarks/bench_oracle.py --load /tmp/oracle.pkl --limits 0.01 0.03 0.1 0.3 1
    .venv/bin/python benchmarks/bench_oracle.py --max-samples auto --short-limits 0.01 0.03 0.1
"""

from __future__ import annotations

import argparse
import pickle
import time
from collections import defaultdict

import numpy as np

from boolrules import RuleClassifier, load_dataset
from boolrules.backends import Backend, get_backend
from boolrules.formulations import depth_one

DATASETS = ("breast_cancer", "credit_risk", "customer_churn")
CLASSES = ((1, 2, "1-2 literals"), (3, 5, "3-5 literals"), (6, 9, "6-9 literals"))
SUMMARIES = CLASSES + ((3, 9, "3-9 literals"),)  # the classes, then the target (issue 28 item 1)


class Recording(Backend):
    """A backend that keeps every problem it is given and solves it with `inner`."""

    def __init__(self, inner: Backend):
        self.inner, self.name, self.capabilities, self.problems = inner, inner.name, inner.capabilities, []

    def check_options(self, options: dict) -> dict:
        return self.inner.check_options(options)

    def solve(self, problem, **options):
        self.problems.append(problem)
        return self.inner.solve(problem, **options)


def record(name: str, iterations: int, seed: int, driver: str, max_samples: int | str = 100) -> list:
    """The subproblems the oracle builds in one search on dataset `name`, of at most `max_samples` rows."""
    data = load_dataset(name, paper_layout=True)
    backend = Recording(get_backend(driver))
    RuleClassifier(max_complexity=10, num_starts=1, num_iterations=iterations, random_state=seed, binarizer=None,
                   nonlocal_backend=backend, max_samples=max_samples).fit(data.X, data.y)
    return backend.problems


def solve(problem, backend: str, time_limit: float) -> dict:
    """One oracle call on `problem`'s data with `backend`: build the problem, solve; the seconds
    spent and, for HiGHS, those spent building the model and its standard form."""
    start = time.perf_counter()
    fresh = depth_one(problem.X, problem.y, problem.operator, max_num_literals=problem.max_num_literals,
                      min_num_literals=problem.min_num_literals, sample_weight=problem.weights)
    build = 0.0
    if backend == "highs":
        fresh.standard_form  # what solve_highs does first; timed apart
        build = time.perf_counter() - start
    result = get_backend(backend, time_limit=time_limit).solve(fresh)
    return {"seconds": time.perf_counter() - start, "build": build, "objective": result.objective,
            "status": result.status}


def report(title: str, rows: list) -> None:
    if not rows:
        return
    highs = np.array([r["highs"]["seconds"] for r in rows])
    native = np.array([r["native"]["seconds"] for r in rows])
    equal = sum(r["native"]["objective"] <= r["highs"]["objective"] + 1e-9 for r in rows)
    better = sum(r["native"]["objective"] < r["highs"]["objective"] - 1e-9 for r in rows)
    print(f"| {title} | {len(rows)} | {np.median(highs) * 1e3:.1f} / {highs.mean() * 1e3:.1f} | "
          f"{np.median(native) * 1e3:.1f} / {native.mean() * 1e3:.1f} | {highs.mean() / native.mean():.1f}x | "
          f"{np.median(highs / native):.1f}x | {equal} ({better} better) | "
          f"{sum(r['highs']['status'] == 'time_limit' for r in rows)} | "
          f"{sum(r['native']['status'] == 'time_limit' for r in rows)} |", flush=True)


def equal_objective(rows: list, limits) -> None:
    """Per row, native's seconds at the smallest time limit whose objective is no worse than HiGHS's."""
    for row in rows:
        row["equal"] = None
        for limit in sorted(limits):
            run = solve(row["problem"], "native", limit)
            if run["objective"] <= row["highs"]["objective"] + 1e-9:
                row["equal"] = run["seconds"]
                break


def report_equal(title: str, rows: list) -> None:
    if not rows:
        return
    reached = [r for r in rows if r["equal"] is not None]
    ratios = np.array([r["highs"]["seconds"] / r["equal"] for r in reached])
    highs = sum(r["highs"]["seconds"] for r in reached)
    native = sum(r["equal"] for r in reached)
    median = np.median(ratios) if len(ratios) else float("nan")
    tenfold = np.mean(ratios >= 10) if len(ratios) else 0.0
    print(f"| {title} | {len(rows)} | {len(reached)} | {highs / max(native, 1e-12):.1f}x | {median:.1f}x | "
          f"{tenfold:.0%} |", flush=True)


def short_limits(recorded: dict, limits) -> None:
    """Native on every recorded subproblem at each of `limits`: time per call against the limit."""
    print("| dataset | rows per subproblem (mean) | limit s | mean ms per call | mean / limit | calls > 2x limit | "
          "mean objective |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, problems in recorded.items():
        rows = np.mean([len(p.y) for p in problems])
        for limit in limits:
            runs = [solve(problem, "native", limit) for problem in problems]
            seconds = np.array([run["seconds"] for run in runs])
            objective = np.mean([run["objective"] for run in runs])
            print(f"| {name} | {rows:.0f} | {limit:g} | {1e3 * seconds.mean():.1f} | {seconds.mean() / limit:.2f} | "
                  f"{np.sum(seconds > 2 * limit)}/{len(runs)} | {objective:.4f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--iterations", type=int, default=1000, help="iterations of each recorded search")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--driver", default="native", help="backend of the recorded searches")
    parser.add_argument("--time-limit", type=float, default=1.0, help="per call, as the oracle's default")
    parser.add_argument("--max-samples", type=lambda text: text if text == "auto" else int(text), default=100,
                        help="the recorded searches' max_samples (default 100, as in benchmarks/README.md; auto: "
                             "the classifier's default)")
    parser.add_argument("--save", help="pickle the recorded subproblems to this file (to rerun on the same set)")
    parser.add_argument("--load", help="solve the subproblems pickled by --save instead of recording")
    parser.add_argument("--limits", type=float, nargs="+", help="native's time limits for the equal-objective speed-up")
    parser.add_argument("--short-limits", type=float, nargs="+", help="only native at these limits, its time per call")
    args = parser.parse_args()

    if args.load:
        with open(args.load, "rb") as file:
            recorded = pickle.load(file)
    else:
        recorded = {name: [p for seed in args.seeds
                           for p in record(name, args.iterations, seed, args.driver, args.max_samples)]
                    for name in args.datasets}
    if args.save:
        with open(args.save, "wb") as file:
            pickle.dump(recorded, file)
    if args.short_limits:
        short_limits(recorded, args.short_limits)
        return
    rows = defaultdict(list)
    for name, problems in recorded.items():
        print(f"{name}: {len(problems)} oracle subproblems recorded", flush=True)
        for problem in problems:
            row = {"problem": problem}
            for backend in ("highs", "native"):  # interleaved, so both see the same machine load
                row[backend] = solve(problem, backend, args.time_limit)
            if args.limits:
                equal_objective([row], args.limits)
            rows[name].append(row)
    everything = [r for name in rows for r in rows[name]]
    if args.limits:
        print("\n| subproblems | calls | native reached HiGHS's objective | ratio of summed seconds | "
              "median ratio | calls >= 10x |")
        print("|---|---|---|---|---|---|")
        for low, high, title in SUMMARIES:
            report_equal(title, [r for r in everything if low <= r["problem"].max_num_literals <= high])
        report_equal("all", everything)
    print("\n| subproblems | calls | HiGHS median / mean ms | native median / mean ms | mean ratio | "
          "median ratio | native <= HiGHS | HiGHS time limit | native time limit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in rows:
        report(name, rows[name])
    for low, high, title in SUMMARIES:
        report(title, [r for r in everything if low <= r["problem"].max_num_literals <= high])
    report("all", everything)
    build = sum(r["highs"]["build"] for r in everything) / sum(r["highs"]["seconds"] for r in everything)
    print(f"\nPyomo model + standard form: {100 * build:.1f}% of the HiGHS calls' time (skipped by native)")
    worse = [r for r in everything if r["native"]["objective"] > r["highs"]["objective"] + 1e-9]
    for r in worse:
        p = r["problem"]
        print(f"native worse: {p.operator} {p.min_num_literals}..{p.max_num_literals} literals, {p.X.shape}: "
              f"{r['native']['objective']:.4f} vs HiGHS {r['highs']['objective']:.4f}")


if __name__ == "__main__":
    main()
