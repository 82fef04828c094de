"""The cost of solving HiGHS in highspy's solver thread with its user interrupt (so Ctrl-C stops it).

`backends.highs.solve_highs` runs HiGHS through `run_interruptibly` (solver thread, interrupt
callbacks); this compares it with HiGHS's blocking `run()` (`interruptible=False`) on oracle-sized problems: 100 random Breast Cancer
rows, each operator, max 4 literals, a 0.5 s limit (as the non-local moves use), the two ways
alternated `--repeats` times. Prints wall and CPU seconds per way, their ratio, and on how many
problems both found the same objective (all of them, unless a solve stopped at its wall-clock
time limit at a different point).

    .venv/bin/python benchmarks/bench_interruptible.py --output benchmarks/results/interruptible_highs_overhead.md
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from boolrules import load_dataset
from boolrules.backends.highs import solve_highs
from boolrules.backends.ilp import IlpBackend
from boolrules.formulations import depth_one

OPERATORS = ("Or", "And", "AtLeast", "AtMost", "Choose")


def main(argv=None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operators", nargs="+", default=list(OPERATORS))
    parser.add_argument("--problems-per-operator", type=int, default=4)
    parser.add_argument("--time-limit", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", default=None)
    args = parser.parse_args(argv)

    data = load_dataset("breast_cancer", paper_layout=True)
    rng = np.random.default_rng(0)
    problems = [depth_one(data.X[rows], data.y[rows], op, max_num_literals=4)
                for op in args.operators for rows in (rng.choice(len(data.y), 100, replace=False)
                                                 for _ in range(args.problems_per_operator))]
    forms = [IlpBackend().compile(p, {"warm_start": True})[0] for p in problems]  # what `highs` hands solve_highs
    ways = {"blocking run()": False, "interruptible": True}
    times = {way: [] for way in ways}
    objectives = {}
    for _ in range(args.repeats):
        for way, interruptible in ways.items():
            wall, cpu = time.perf_counter(), time.process_time()
            objectives[way] = [solve_highs(form, time_limit=args.time_limit, interruptible=interruptible).objective
                               for form in forms]
            times[way].append((time.perf_counter() - wall, time.process_time() - cpu))
    best = {way: np.min(np.array(t), axis=0) for way, t in times.items()}
    lines = [f"{len(problems)} problems x {args.repeats} repeats, load average {os.getloadavg()[0]:.2f}", "",
             "| HiGHS run | best wall s | best CPU s |", "|---|---:|---:|"]
    lines += [f"| {way} | {w:.2f} | {c:.2f} |" for way, (w, c) in best.items()]
    ratio = best["interruptible"] / best["blocking run()"]
    same = sum(a == b for a, b in zip(objectives["interruptible"], objectives["blocking run()"]))
    lines += ["", f"interruptible / blocking: wall {ratio[0]:.3f}, CPU {ratio[1]:.3f}; "
                  f"same objective on {same} of {len(problems)} problems"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    return text


if __name__ == "__main__":
    main()
