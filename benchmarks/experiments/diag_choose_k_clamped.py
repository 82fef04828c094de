"""Choose's default QUBO with k clamped to each value in turn (k's bits fixed in the exported BQM),
dwave-samplers sa default schedule, 100 reads: the lowest sample's rule per k against the exact
optimum, and the optimum's own energy in the QUBO (aux at their best). Study section "Reading the best
sample instead of the lowest energy".

Run from the repository root:
    PYTHONPATH=src .venv/bin/python benchmarks/experiments/diag_choose_k_clamped.py credit_risk
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from dwave.samplers import SimulatedAnnealingSampler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_qubo_quality as bench  # noqa: E402

from boolrules.backends import get_backend  # noqa: E402
from boolrules.formulations.repair import feasible_point  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset")
    parser.add_argument("--operator", default="Choose")
    args = parser.parse_args(argv)
    setting = argparse.Namespace(datasets=[args.dataset], seeds=[0], samples=80, operators=[args.operator],
                                 negated=False, max_literals=3)
    folder = Path(tempfile.mkdtemp(prefix="choose_k_"))
    for dataset, seed, problem in bench.instances(setting):
        qubo = bench.compile_mode(problem, bench.parse_mode("default"))
        bqm, rebuilt = bench.exported(qubo, folder, f"{dataset}{seed}{problem.label}")
        optimum = get_backend("native").solve(problem)
        point = feasible_point(problem, problem.repair_values(_values_of(problem, optimum.rule)))
        print(f"{dataset} {problem.label}: optimum {optimum.rule} {optimum.objective:.4g}, its QUBO energy "
              f"{float(rebuilt.energy(rebuilt.sample_from_vector(point))):.4g}")
        bits = sorted((v for v in bqm.variables if str(v).startswith("k#")), key=str)
        for k in range(2 ** len(bits)):
            clamped = bqm.copy()
            for i, v in enumerate(bits):
                clamped.fix_variable(v, (k >> i) & 1)
            lowest = SimulatedAnnealingSampler().sample(clamped, num_reads=100, seed=seed).first.sample
            sample = {**lowest, **{v: (k >> i) & 1 for i, v in enumerate(bits)}}
            arr = np.array([[sample[label] for label in rebuilt.labels]])
            values = rebuilt.variable_values(arr)[0]
            rule = problem.decode(values) if rebuilt.feasible(arr)[0] else None
            print(f"  k = {values['k']}: lowest sample {rule} "
                  f"{'infeasible' if rule is None else f'{problem.objective(rule):.4g}'}")


def _values_of(problem, rule) -> dict:
    """Model values {b, bt, k} of a depth-one rule over the problem's features."""
    b, bt = np.zeros(problem.num_features, int), np.zeros(problem.num_features, int)
    for literal in rule.subrules:
        (bt if literal.negated else b)[literal.index] = 1
    return {"b": b, "bt": bt, "k": getattr(rule, "k", None)}


if __name__ == "__main__":
    main()
