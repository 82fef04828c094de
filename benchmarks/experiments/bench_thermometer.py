"""One QUBO for AtLeast/AtMost with k in a thermometer code (issue 23 research, branch kfree).

`kfree_lib.build_thermometer`: k = u_1 + ... + u_m' with u_1 >= ... >= u_m' (one flip per unit of
k), every sample row on d = t - k penalised by the paired (w/2)·r(r-1) with unary offsets (weights
1: one flip per step of the window), no η (biased: a miss by two costs 3w, by three 6w). Hard
(weight H): exclusive literals, L <= m', k <= L (paired, unary offsets), thermometer order. H is
the biased energy of the library's greedy rule (`problem.greedy_values()`, polished, its best k)
plus the mean weight: above the energy of a valid state, as the paired mode's sufficient weights.
SA default schedule, `--reads` reads; raw = the lowest-energy sample's literals and k as they stand.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfree_lib import build_thermometer, emit, literal_matrix, parser, raw_thermo, sample_sa, solved  # noqa: E402



def biased_energy(problem, b, bt, k) -> float:
    C = literal_matrix(problem)
    mp = problem.max_num_literals
    d = C @ np.concatenate([b, bt]) - k
    y = problem.target
    if problem.operator == "AtLeast":
        below = np.where(y == 1, np.maximum(-d, 0), 0)
        above = np.where(y == 1, 0, np.maximum(d + 1, 0))
    else:
        below = np.where(y == 1, 0, np.maximum(1 - d, 0))
        above = np.where(y == 1, np.maximum(d, 0), 0)
    cost = below * (below + 1) / 2 + above * (above + 1) / 2
    return float(problem.weights @ cost)


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    out = open(args.jsonl, "a") if args.jsonl else None
    for ds, op, problem, opt, default in solved(args):
        g = problem.greedy_values()
        H = biased_energy(problem, np.asarray(g["b"]), np.asarray(g["bt"]), int(g["k"])) + float(problem.weights.mean())
        B, meta = build_thermometer(problem, hard=H)
        bqm = B.bqm()
        ss = sample_sa(bqm, args.reads)
        energy, obj, L, k = raw_thermo(problem, ss, meta)
        gap = math.inf if obj is None else ((obj - opt) / opt if opt > 1e-9 else (0.0 if obj < 1e-9 else math.inf))
        rec = dict(dataset=ds, operator=op, reads=args.reads, optimum=opt, raw=obj, raw_gap=gap, energy=float(energy),
                   L=L, k=k, hard=H, variables=bqm.num_variables, interactions=bqm.num_interactions,
                   default_variables=default.bqm.num_variables, default_interactions=default.bqm.num_interactions)
        emit(rec, out)


if __name__ == "__main__":
    main()
