"""k copied per sample and chained (issue 23 research): a change of k travels as a domain wall.

With one global k every sample row holds k, so a k flip shifts every row's residual at once and
about half of them must move a slack bit (the study's diagnosis). Here sample i has its own copy
k_i = u_i1 + ... + u_im' (unary, any pattern), its row on d_i = t_i - k_i paired with unary offsets
(biased for misses by two or more, no η, as `build_thermometer`), and consecutive copies are tied by
`strength`·(k_i - k_i+1)²: a k change enters at one end of the chain and moves one sample per
flip, each step costing that sample's row change only. Hard (H): exclusive literals, L <= m',
k_0 <= L. The ground state has all copies equal when `strength` exceeds what one sample can save
by its own k (its deepest miss, m'(m'+1)/2 · w_i). Raw: the lowest-energy sample's literals and
its k if every copy agrees; otherwise infeasible.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_thermometer import biased_energy  # noqa: E402
from kfree_lib import Builder, emit, offsets, parser, problem_arrays, sample_sa, solved, window_row  # noqa: E402


def build_k_chain(problem, *, strength: float | None = None, hard: float | None = None):
    _, n, m2, m, mp, _, w = problem_arrays(problem)
    B = Builder(m2)
    copies = [B.add(mp, [f"u[{i}][{j}]" for j in range(mp)]) for i in range(n)]
    for i in range(n):
        window_row(B, problem, i, copies[i])
    if strength is None:
        strength = float(w.max()) * mp * (mp + 1) / 2 + float(w.mean())
    for i in range(n - 1):
        vec = np.zeros(len(B.h))
        vec[copies[i]] = 1.0
        vec[copies[i + 1]] = -1.0
        B.square(strength, vec, 0.0)
    if hard is None:
        g = problem.greedy_values()
        hard = biased_energy(problem, np.asarray(g["b"]), np.asarray(g["bt"]), int(g["k"])) + float(w.mean())
    offs = offsets(mp, True)
    oL = B.add(len(offs), [f"oL#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h)); vec[:m2] = 1; vec[oL] = -np.asarray(offs, float)
    B.paired(hard, vec, 0.0)
    oK = B.add(len(offs), [f"oK#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h)); vec[:m2] = 1; vec[copies[0]] = -1; vec[oK] = -np.asarray(offs, float)
    B.paired(hard, vec, 0.0)
    for j in range(m):
        B.Q[j, j + m] += hard
    return B, dict(m=m, mp=mp, copies=copies, hard=hard, strength=strength)


def raw_k_chain(problem, ss, meta):
    """(energy, objective or None, L, k or None, distinct copies) of the lowest-energy sample."""
    best = ss.first
    m = meta["m"]
    x = np.array([best.sample[j] for j in range(2 * m)])
    ks = {int(sum(best.sample[int(v)] for v in c)) for c in meta["copies"]}
    b, bt = x[:m], x[m:]
    L = int(x.sum())
    if len(ks) != 1 or (b & bt).any() or L > meta["mp"]:
        return best.energy, None, L, None, len(ks)
    k = ks.pop()
    if k > L:
        return best.energy, None, L, k, 1
    return best.energy, problem.objective(problem.decode({"b": b, "bt": bt, "k": k})), L, k, 1


def main(argv=None):
    ap = parser()
    ap.add_argument("--strength-scale", type=float, nargs="+", default=[1.0])
    args = ap.parse_args(argv)
    out = open(args.jsonl, "a") if args.jsonl else None
    for ds, op, problem, opt, default in solved(args):
        for scale in args.strength_scale:
            B, meta = build_k_chain(problem)
            if scale != 1.0:
                B, meta = build_k_chain(problem, strength=meta["strength"] * scale, hard=meta["hard"])
            bqm = B.bqm()
            ss = sample_sa(bqm, args.reads)
            energy, obj, L, k, distinct = raw_k_chain(problem, ss, meta)
            gap = math.inf if obj is None else ((obj - opt) / opt if opt > 1e-9 else (0.0 if obj < 1e-9 else math.inf))
            emit(dict(dataset=ds, operator=op, reads=args.reads, strength_scale=scale, optimum=opt, raw=obj,
                      raw_gap=gap, energy=float(energy), L=L, k=k, distinct_k=distinct, strength=meta["strength"],
                      hard=meta["hard"], variables=bqm.num_variables, interactions=bqm.num_interactions,
                      default_variables=default.bqm.num_variables,
                      default_interactions=default.bqm.num_interactions), out)


if __name__ == "__main__":
    main()
