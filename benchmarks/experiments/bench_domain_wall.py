"""Domain walls over each raw column's thresholds (issue 23, research; no change to `src/`).

The binarized features of one numeric column are nested thresholds `x >= q_1 .. x >= q_J`, and the
annealer's misses are often one threshold off (parkinsons AtLeast: `spread1 >= -6.276` where the
optimum has `spread1 >= -6.658`): a swap, two flips through a worse state. Here the library's default
QUBO (`to_qubo()`) is rewritten so that, per column and polarity, the literal bits of its thresholds are
a domain wall: d_i = [p <= i] for the chosen threshold p (none: p = J + 1, all zeros, next to the
rarest literal), b_{j_i} = d_i - d_{i-1}, and H * d_{i-1} (1 - d_i) keeps d monotone. Moving the
threshold by one step is one flip. The substitution is exact on monotone d (the BQM's energy of the
literal bits it encodes), but a chain holds at most one threshold per column and polarity: the ground
state is the best rule of that kind (heuristic where the optimum uses two thresholds of one column
with the same polarity). Same subproblems, optimum and sampler as `bench_qubo_quality.py`; decoded
without polish through the original QUBO (`decode_stages`).

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/bench_domain_wall.py --operators AtLeast AtMost Choose
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import dimod
import numpy as np
from dwave.samplers import SimulatedAnnealingSampler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_qubo_quality import DATASETS, OPERATORS, exact_optimum, gap  # noqa: E402

from boolrules import load_dataset  # noqa: E402
from boolrules.formulations import depth_one  # noqa: E402
from boolrules.sampling import subsample_rows  # noqa: E402


def threshold_chains(names: list[str]) -> list[list[int]]:
    """Column indices of each numeric column's thresholds (`name >= q`), ascending q, 2+ of them."""
    groups = defaultdict(list)
    for j, name in enumerate(names):
        if " >= " in name:
            column, value = name.rsplit(" >= ", 1)
            groups[column].append((float(value), j))
    return [[j for _, j in sorted(g)] for g in groups.values() if len(g) >= 2]


def walls(labels: list[str], chains: list[list[int]]) -> list[list[int]]:
    """Chains of BQM variable positions, rarest literal last: b over ascending q, bt over descending."""
    index = {str(v): i for i, v in enumerate(labels)}
    out = []
    for chain in chains:
        out.append([index[f"b[{j}]"] for j in chain])
        out.append([index[f"bt[{j}]"] for j in reversed(chain)])
    return out


def rewrite(bqm: dimod.BinaryQuadraticModel, labels, chains, hard: float):
    """(new BQM over positions 0..n-1, T with old = T @ new): literal bits of each chain as a wall."""
    n = len(labels)
    h, (row, col, quad), offset = bqm.to_numpy_vectors(variable_order=labels)
    Q = np.zeros((n, n))
    Q[np.arange(n), np.arange(n)] = h
    np.add.at(Q, (row, col), quad)
    T = np.eye(n)
    for chain in chains:
        for a, pos in enumerate(chain):
            T[pos, :] = 0
            T[pos, pos] = 1
            if a > 0:
                T[pos, chain[a - 1]] = -1
    A = T.T @ Q @ T
    A = np.triu(A + A.T, 1) + np.diag(np.diag(A))
    for chain in chains:  # H d_{i-1} (1 - d_i)
        for prev, cur in zip(chain, chain[1:]):
            A[prev, prev] += hard
            i, j = min(prev, cur), max(prev, cur)
            A[i, j] -= hard
    new = dimod.BinaryQuadraticModel.from_qubo({(i, j): A[i, j] for i, j in zip(*np.nonzero(A))}, offset=offset)
    for i in range(n):
        if i not in new.variables:
            new.add_variable(i, 0.0)
    return new, T


def monotone(Z: np.ndarray, chains) -> np.ndarray:
    ok = np.ones(len(Z), bool)
    for chain in chains:
        ok &= (np.diff(Z[:, chain], axis=1) >= 0).all(axis=1)
    return ok


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--datasets", nargs="+", default=DATASETS)
    p.add_argument("--operators", nargs="+", default=OPERATORS)
    p.add_argument("--samples", type=int, default=80)
    p.add_argument("--max-literals", type=int, default=3)
    p.add_argument("--seeds", type=int, nargs="+", default=[0])
    p.add_argument("--reads", type=int, default=100)
    p.add_argument("--hard-scale", type=float, default=1.0, help="the wall's order weight, times the QUBO's hard weight")
    p.add_argument("--jsonl")
    args = p.parse_args(argv)
    for dataset in args.datasets:
        data = load_dataset(dataset)
        chains = threshold_chains(list(data.feature_names))
        for seed in args.seeds:
            rows = subsample_rows(len(data.y), args.samples, seed, labels=data.y)
            for operator in args.operators:
                problem = depth_one(data.X[rows], data.y[rows], operator, max_num_literals=args.max_literals)
                optimum, _ = exact_optimum(problem, 60)
                qubo = problem.to_qubo()
                labels = list(qubo.labels)
                wall = walls(labels, chains)
                new, T = rewrite(qubo.bqm, labels, wall, args.hard_scale * qubo.penalties.hard)
                record = {"dataset": dataset, "seed": seed, "operator": operator, "optimum": optimum,
                          "hard_scale": args.hard_scale, "variables": new.num_variables,
                          "interactions": new.num_interactions,
                          "default_interactions": qubo.bqm.num_interactions}
                for name, bqm in (("default", qubo.bqm), ("wall", new)):
                    order = labels if name == "default" else list(range(len(labels)))
                    ss = SimulatedAnnealingSampler().sample(bqm, num_reads=args.reads, seed=seed)
                    Z = ss.record.sample[:, [ss.variables.index(v) for v in order]]
                    energies = ss.record.energy
                    ok = monotone(Z, wall) if name == "wall" else np.ones(len(Z), bool)
                    X_old = (Z @ T.T).round().astype(int) if name == "wall" else Z
                    lowest = int(np.argmin(energies))
                    raw = None
                    if ok[lowest]:
                        stage = qubo.decode_stages(X_old[[lowest]], polish=False).stages["raw"]
                        raw = stage.objective
                    repaired = qubo.decode_stages(X_old[ok], polish=False).stages["repaired"].objective if ok.any() else None
                    record[name] = {"raw": raw, "repaired": repaired, "monotone": float(ok.mean()),
                                    "raw_gap": gap(raw, optimum), "repaired_gap": gap(repaired, optimum),
                                    "lowest_energy": float(energies[lowest])}
                print(json.dumps(record), flush=True)
                if args.jsonl:
                    with open(args.jsonl, "a") as f:
                        f.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
