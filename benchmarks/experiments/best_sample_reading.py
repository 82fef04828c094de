"""The raw stage read two ways: the lowest-energy sample (as `decode_stages` does) against the best
sample by the true objective among those feasible as they stand (no sample changed; what
qiskit-optimization's result interpretation does), beside the repaired stage.

Same subproblems, export round trip and sampler as `bench_qubo_quality.py` (80 stratified rows, m' = 3,
dwave-samplers sa with its default schedule, 100 reads); one JSON line per problem. Study section
"Reading the best sample instead of the lowest energy" in benchmarks/studies/qubo-quality.md.

Run from the repository root:
    PYTHONPATH=src .venv/bin/python benchmarks/experiments/best_sample_reading.py --mode default \
        --operators AtLeast AtMost Choose --seeds 0 > best_sample_default.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_qubo_quality as bench  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="default", help="a bench_qubo_quality mode (SLACK:ETA:PENALTY or an alias)")
    parser.add_argument("--datasets", nargs="+", default=["breast_cancer", "credit_risk", "customer_churn", "parkinsons"])
    parser.add_argument("--operators", nargs="+", default=["AtLeast", "AtMost", "Choose"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--reads", type=int, default=100)
    args = parser.parse_args(argv)
    setting = argparse.Namespace(datasets=args.datasets, seeds=args.seeds, samples=80, operators=args.operators,
                                 negated=False, max_literals=3)
    folder = Path(tempfile.mkdtemp(prefix="best_sample_"))
    for dataset, seed, problem in bench.instances(setting):
        qubo = bench.compile_mode(problem, bench.parse_mode(args.mode))
        bqm, rebuilt = bench.exported(qubo, folder, f"{dataset}{seed}{problem.label}")
        samples = bench.run_sampler("sa", bqm, args.reads, seed, problem.weights)
        optimum, _ = bench.exact_optimum(problem, 60)
        arr = rebuilt._as_array(samples)
        feasible = rebuilt.feasible(arr)
        objectives = np.array([rebuilt.problem.objective(rebuilt.problem.decode(values)) if ok else math.inf
                               for values, ok in zip(rebuilt.variable_values(arr), feasible)])
        stages = rebuilt.decode_stages(samples, polish=False).stages
        best = float(objectives.min()) if np.isfinite(objectives).any() else None
        lowest, repaired = stages["raw"].objective, stages["repaired"].objective
        print(json.dumps({"dataset": dataset, "seed": seed, "operator": problem.label, "mode": args.mode,
                          "optimum": optimum, "lowest": lowest, "best": best, "repaired": repaired,
                          "gap_lowest": bench.gap(lowest, optimum), "gap_best": bench.gap(best, optimum),
                          "gap_repaired": bench.gap(repaired, optimum), "feasible": int(feasible.sum())}), flush=True)


if __name__ == "__main__":
    main()
