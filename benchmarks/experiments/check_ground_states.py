"""Brute-force checks of the prototypes' guarantees on tiny instances (issue 23 research).

For random 3-feature problems (6 literals, m' = 3, balanced weights) and AtLeast/AtMost:
- `build_fixed_k` (slack-free middle QUBO, k fixed or k = L - j): the exhaustive ground state is a
  valid rule (exclusive literals, k <= L <= m'); its energy is the smallest *biased* objective
  (`meta['soft_energy']`: Σ w_i·c(miss_i), c(d) = d(d+1)/2 on paired rows, c(d) = d on
  linear end rows) over the valid rules of that k, and the rule's
  true objective is >= the true optimum of that k (no state costs less than its rule's objective).
- `build_thermometer`: the same with k free in 0..L.
Prints one line per case and "ALL OK" when every check holds.
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path
import types

import dimod
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import build_fixed_k, build_thermometer, raw_of, raw_thermo  # noqa: E402


def problem_of(X, y, operator):
    from boolrules.formulations import depth_one
    return depth_one(X, y, operator, max_num_literals=3)


def miss_cost(d):
    return d * (d + 1) / 2


def rules(m, mp):
    for L in range(0, mp + 1):
        for S in itertools.combinations(range(2 * m), L):
            if any(j + m in S for j in S if j < m):
                continue
            x = np.zeros(2 * m, dtype=int); x[list(S)] = 1
            yield x


def costs(problem, x, k):
    C = np.hstack([problem.X, 1 - problem.X]).astype(float)
    t = C @ x
    y = problem.target; w = problem.weights
    if problem.operator == "AtLeast":
        miss = np.where(y == 1, np.maximum(k - t, 0), np.maximum(t - k + 1, 0))
    else:
        miss = np.where(y == 1, np.maximum(t - k, 0), np.maximum(k + 1 - t, 0))
    return float(w @ miss_cost(miss)), float(w @ (miss > 0))


def ground(bqm):
    ss = dimod.ExactSolver().sample(bqm)
    return ss.lowest(atol=1e-9)


def main():
    rng = np.random.default_rng(0)
    ok = True
    for trial in range(4):
        n = 5
        X = rng.integers(0, 2, (n, 3))
        y = np.array([1, 1, 0, 0, int(rng.integers(0, 2))])
        for op in ("AtLeast", "AtMost"):
            problem = problem_of(X, y, op)
            m, mp = 3, 3
            for count, k in ([("t", 1), ("t", 2), ("f", 0), ("f", 1)] if op == "AtLeast" else [("t", 0), ("t", 1), ("f", 1), ("f", 2)]):
                B, meta = build_fixed_k(problem, k, count=count)
                bqm = B.bqm()
                low = ground(bqm)
                e, obj, L, kk = raw_of(problem, low.truncate(1), meta)
                valid = [(x, (k if count == "t" else int(x.sum()) - k)) for x in rules(m, mp)
                         if meta["lo_L"] <= x.sum() <= meta["hi_L"] and 0 <= (k if count == "t" else x.sum() - k) <= x.sum()]
                best_biased = min(meta["soft_energy"](x) for x, kv in valid)
                best_true = min(costs(problem, x, kv)[1] for x, kv in valid)
                good = obj is not None and abs(e - best_biased) < 1e-6 and obj >= best_true - 1e-9
                ok &= good
                print(f"trial {trial} {op} {count}{k}: {bqm.num_variables} vars, ground {e:.4f} biased min {best_biased:.4f} "
                      f"valid {obj is not None} true {obj} >= {best_true:.4f}: {'ok' if good else 'FAIL'}")
            B, meta = build_thermometer(problem, hard=float(problem.weights.sum()) * 10)
            bqm = B.bqm()
            if bqm.num_variables <= 22:
                low = ground(bqm)
                e, obj, L, kk = raw_thermo(problem, low.truncate(1), meta)
                valid = [(x, kv) for x in rules(m, mp) for kv in range(0, int(x.sum()) + 1)]
                best_biased = min(costs(problem, x, kv)[0] for x, kv in valid)
                good = obj is not None and abs(e - best_biased) < 1e-6
                ok &= good
                print(f"trial {trial} {op} thermometer: {bqm.num_variables} vars, ground {e:.4f} biased min {best_biased:.4f} "
                      f"valid {obj is not None}: {'ok' if good else 'FAIL'}")
            else:
                print(f"trial {trial} {op} thermometer: {bqm.num_variables} vars, too many to enumerate")
    print("ALL OK" if ok else "SOME FAILED")


if __name__ == "__main__":
    main()
