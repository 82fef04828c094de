"""The best rule by the unbalanced surrogate (`slack="unbalanced"`), by enumeration, against the
true optimum: how much of a raw gap is the surrogate's bias and how much the sampler's (issue 23).

Every AtLeast/AtMost rule of 1..m' literals (no feature with its negation) and every k <= L on the
harness's subproblems (`bench_qubo_quality.instances`), λ = 0: the surrogate
Σ w_i (h_i² - ρ h_i)/(1 + ρ) at margins h_i, and the true weighted error. Prints, per problem, the
true optimum over the same rules, the surrogate's best rule and its true objective.

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/surrogate_optimum.py --seeds 0 1 2
"""
from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_qubo_quality import DATASETS, instances  # noqa: E402

from boolrules.formulations.qubo import UNBALANCED_RHO  # noqa: E402


def literal_sets(num_features: int, size: int, chunk: int = 50_000):
    """Every set of `size` literals (indices < 2 m, no feature with its negation), in chunks."""
    batch = []
    for s in itertools.combinations(range(2 * num_features), size):
        if len({j % num_features for j in s}) == size:
            batch.append(s)
            if len(batch) == chunk:
                yield np.array(batch, dtype=np.int64)
                batch = []
    if batch:
        yield np.array(batch, dtype=np.int64)


def enumerate_rules(problem, rho: float):
    X = problem.X.astype(np.int8)
    m = X.shape[1]
    lit = np.concatenate([X, 1 - X], axis=1).astype(np.int16)  # sample x literal
    w = np.asarray(problem.weights, float)
    pos = problem.target == 1
    best = {"true": (np.inf, None), "surrogate": (np.inf, None, None)}
    for size in range(1, problem.max_num_literals + 1):
        for sets in literal_sets(m, size):
            t = lit[:, sets].sum(axis=2).T  # rules x samples
            for k in range(0, size + 1):
                if problem.operator == "AtLeast":
                    h = np.where(pos, t - k, k - 1 - t)
                else:
                    h = np.where(pos, k - t, t - k - 1)
                sur = ((h * h - rho * h) / (1 + rho)) @ w
                err = (h < 0) @ w
                i = int(np.argmin(err))
                if err[i] < best["true"][0] - 1e-12:
                    best["true"] = (float(err[i]), (tuple(sets[i]), k))
                j = int(np.argmin(sur))
                if sur[j] < best["surrogate"][0] - 1e-12:
                    best["surrogate"] = (float(sur[j]), float(err[j]), (tuple(sets[j]), k))
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--operators", nargs="+", default=["AtLeast", "AtMost"])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--samples", type=int, default=80)
    parser.add_argument("--max-literals", type=int, default=3)
    parser.add_argument("--negated", action="store_true")
    parser.add_argument("--rho", type=float, default=UNBALANCED_RHO)
    args = parser.parse_args()
    print("| dataset | seed | operator | optimum | surrogate's best: true objective | bias |")
    print("|---|---:|---|---:|---:|---:|")
    for dataset, seed, problem in instances(args):
        best = enumerate_rules(problem, args.rho)
        opt, sur_obj = best["true"][0], best["surrogate"][1]
        bias = "+0%" if sur_obj <= opt + 1e-9 else ("inf" if opt == 0 else f"+{100 * (sur_obj - opt) / opt:.0f}%")
        print(f"| {dataset} | {seed} | {problem.label} | {opt:.4g} | {sur_obj:.4g} | {bias} |", flush=True)


if __name__ == "__main__":
    main()
