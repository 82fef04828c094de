"""Unbalanced penalization of the sample rows (issue 23 research): no slack, no η.

Montanez-Barrera et al. (Quantum Sci. Technol. 9, 025022, 2024) replace an inequality h(x) >= 0's
slack by the penalty -l1·h + l2·h². Here every sample row of AtLeast/AtMost (k in a thermometer
code u_1 >= ... >= u_m', one flip per unit of k) is such a row on h = t - k (or its mirror), with
l1 + l2 = w_i so that a miss by one costs exactly w_i and h = 0 costs 0; rho = l1/l2 sets where
the penalty is lowest (h = rho/2: a reward for margin; rho = 1 is the slack-free pair penalty,
zero at h in {0, 1}). Hard (weight H): exclusive literals, L <= m', k <= L (paired, unary
offsets), thermometer order (`--k-code binary`: bits, no order). `--hard global`: H = the
surrogate energy of the library's greedy rule minus the surrogate's lower bound plus the mean
weight, so a valid rule beats every state that breaks a hard row by one unit; `local`:
`local_hard`; `--hard-scales` multiplies it. Choose (research too): positives h², negatives
1 - h². SA default schedule; raw = the lowest-energy sample's literals and k as they stand.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfree_lib import Builder, emit, literal_matrix, offsets, parser, problem_arrays, sample_sa, solved  # noqa: E402


def margins(problem, t, k):
    """h per sample (>= 0 when the sample is classified right) for counts t and threshold k;
    Choose: t - k."""
    y = np.asarray(problem.target)
    if problem.operator == "AtLeast":
        return np.where(y == 1, t - k, k - 1 - t)
    if problem.operator == "AtMost":
        return np.where(y == 1, k - t, t - k - 1)
    return t - k


def surrogate(h, rho):
    l2 = 1.0 / (1.0 + rho)
    return l2 * h * h - rho * l2 * h


def sample_costs(problem, h, rho):
    """Per-sample surrogate costs (unit weight): Choose positives h², negatives 1 - h²."""
    if problem.operator != "Choose":
        return surrogate(h, rho)
    y = np.asarray(problem.target)
    return np.where(y == 1, h * h, 1.0 - h * h)


def local_hard(problem, rho: float) -> float:
    """The largest energy change one literal flip can make in the sample rows (each row's largest
    step of the surrogate over its range of h, weighted, summed over the samples where the literal
    is true), plus the mean weight: with it, a state breaking a hard row by one unit always has a
    single flip (drop or add a literal) that lowers its energy."""
    C = literal_matrix(problem)
    mp = problem.max_num_literals
    w = np.asarray(problem.weights, float)
    span = np.arange(-mp, mp + 1, dtype=float)
    if problem.operator == "Choose":
        y = np.asarray(problem.target)
        steps = np.where(y == 1, np.abs(np.diff(span * span)).max(), np.abs(np.diff(1 - span * span)).max())
    else:
        steps = np.full(len(w), np.abs(np.diff(surrogate(span, rho))).max())
    return float(((w * steps) @ C).max() + w.mean())


def build_unbalanced(problem, rho: float, hard_scale: float = 1.0, k_code: str = "unary", hard: str = "global"):
    C, n, m2, m, mp, y, w = problem_arrays(problem)
    B = Builder(m2)
    if k_code == "unary":
        u = B.add(mp, [f"u[{j}]" for j in range(1, mp + 1)])
        kw = np.ones(mp)
    else:  # binary, capped at m' by the k <= L row
        bits = int(np.ceil(np.log2(mp + 1)))
        u = B.add(bits, [f"u[{j}]" for j in range(bits)])
        kw = 2.0 ** np.arange(bits)
    l2 = 1.0 / (1.0 + rho)
    for i in range(n):
        vec = np.zeros(len(B.h))
        if problem.operator == "Choose":
            vec[:m2] = C[i]
            vec[u] = -kw
            if y[i] == 1:
                B.square(w[i], vec, 0.0)
            else:
                B.square(-w[i], vec, 0.0)
                B.c += w[i]
            continue
        sign = 1.0 if (problem.operator == "AtLeast") == (y[i] == 1) else -1.0
        vec[:m2] = sign * C[i]
        vec[u] = -sign * kw
        d = 0.0 if sign > 0 else -1.0  # positives of AtLeast: t - k; negatives: k - 1 - t; AtMost mirrored
        if problem.operator == "AtMost":
            d = 0.0 if y[i] == 1 else -1.0
        B.square(w[i] * l2, vec, d, linear_part=rho)
    g = problem.greedy_values()
    x = np.concatenate([np.asarray(g["b"]), np.asarray(g["bt"])])
    e_greedy = float(w @ sample_costs(problem, margins(problem, C @ x, int(g["k"])), rho))
    span = np.arange(-mp, mp + 1)
    if problem.operator == "Choose":
        floor = float(w[y != 1].sum()) * (1.0 - mp * mp)
    else:
        floor = float(w.sum()) * float(surrogate(span, rho).min())
    hard = (e_greedy - floor + float(w.mean())) if hard == "global" else local_hard(problem, rho)
    hard *= hard_scale
    offs = offsets(mp, True)
    oL = B.add(len(offs), [f"oL#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h)); vec[:m2] = 1; vec[oL] = -np.asarray(offs, float)
    B.paired(hard, vec, 0.0)
    oK = B.add(len(offs), [f"oK#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h)); vec[:m2] = 1; vec[u] = -kw; vec[oK] = -np.asarray(offs, float)
    B.paired(hard, vec, 0.0)
    for j in range(m):
        B.Q[j, j + m] += hard
    if k_code == "unary":  # thermometer order u_{j+1} <= u_j
        for j in range(mp - 1):
            B.Q[u[j + 1], u[j + 1]] += hard
            B.Q[u[j], u[j + 1]] -= hard
    return B, dict(m=m, mp=mp, u=u, kw=kw, hard=hard, unary=k_code == "unary")


def raw_unbalanced(problem, ss, meta):
    """(energy, objective or None, L, k) of the lowest-energy sample as it stands (k = Σ kw·u; a
    thermometer out of order is broken)."""
    best = ss.first
    m = meta["m"]
    x = np.array([best.sample[j] for j in range(2 * m)])
    k = int(round(sum(wt * best.sample[int(v)] for wt, v in zip(meta["kw"], meta["u"]))))
    b, bt = x[:m], x[m:]
    L = int(x.sum())
    uu = [best.sample[int(v)] for v in meta["u"]]
    ordered = not meta["unary"] or all(a >= b for a, b in zip(uu, uu[1:]))
    if (b & bt).any() or L > meta["mp"] or k > L or not ordered:
        return best.energy, None, L, k
    return best.energy, problem.objective(problem.decode({"b": b, "bt": bt, "k": k})), L, k


def main(argv=None):
    ap = parser()
    ap.add_argument("--rhos", nargs="+", type=float, default=[1.0, 2.0, 3.0, 6.0])
    ap.add_argument("--hard-scales", nargs="+", type=float, default=[1.0],
                    help="multiply the hard weight (below 1 it no longer bounds every broken state)")
    ap.add_argument("--hard", choices=["global", "local"], default="global",
                    help="global: above the greedy rule's energy minus the surrogate's floor; local: `local_hard`")
    ap.add_argument("--k-code", choices=["unary", "binary"], default="unary")
    args = ap.parse_args(argv)
    out = open(args.jsonl, "a") if args.jsonl else None
    for ds, op, problem, opt, default in solved(args):
        for rho, scale in ((r, s) for r in args.rhos for s in args.hard_scales):
            B, meta = build_unbalanced(problem, rho, scale, args.k_code, args.hard)
            bqm = B.bqm()
            ss = sample_sa(bqm, args.reads)
            energy, obj, L, k = raw_unbalanced(problem, ss, meta)
            gap = math.inf if obj is None else ((obj - opt) / opt if opt > 1e-9 else (0.0 if obj < 1e-9 else math.inf))
            emit(dict(dataset=ds, operator=op, rho=rho, hard_scale=scale, hard_mode=args.hard, k_code=args.k_code,
                      reads=args.reads, optimum=opt, raw=obj, raw_gap=gap,
                      energy=float(energy), L=L, k=k, hard=meta["hard"], variables=bqm.num_variables,
                      interactions=bqm.num_interactions, default_variables=default.bqm.num_variables,
                      default_interactions=default.bqm.num_interactions), out)


if __name__ == "__main__":
    main()
