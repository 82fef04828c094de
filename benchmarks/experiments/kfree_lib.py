"""Prototype QUBO builders for AtLeast/AtMost with a fixed k (issue 23 research, branch kfree).

Standalone: builds BQMs with numpy from a depth-one problem's X, target and weights, samples them
with dwave-samplers' SimulatedAnnealingSampler (default schedule) and reads the lowest-energy
sample's literals as they stand (raw).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path
import time

import dimod
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def load(dataset: str, operator: str, samples: int = 80, max_literals: int = 3, seed: int = 0):
    from bench_qubo_quality import instances
    args = argparse.Namespace(datasets=[dataset], seeds=[seed], samples=samples, operators=[operator], negated=False,
                              max_literals=max_literals)
    _, _, problem = next(instances(args))
    return problem


def literal_matrix(problem) -> np.ndarray:
    X = np.asarray(problem.X, dtype=float)
    return np.hstack([X, 1 - X])


class Builder:
    """A QUBO assembled densely, starting from the 2m literal columns b[0..m-1], bt[0..m-1]."""

    def __init__(self, m2: int):
        self.Q = np.zeros((m2, m2))
        self.h = np.zeros(m2)
        self.c = 0.0
        self.labels = [f"b[{j}]" for j in range(m2 // 2)] + [f"bt[{j}]" for j in range(m2 // 2)]

    def add(self, count: int, names) -> np.ndarray:
        start = len(self.h)
        n = start + count
        Q = np.zeros((n, n)); Q[:start, :start] = self.Q; self.Q = Q
        self.h = np.concatenate([self.h, np.zeros(count)])
        self.labels += list(names)
        return np.arange(start, n)

    def square(self, W, a: np.ndarray, d: float, linear_part: float = 0.0):
        """W·(r² − linear_part·r) with r = a·z + d (a dense over current variables)."""
        a = np.concatenate([a, np.zeros(len(self.h) - len(a))])
        self.Q += W * np.outer(a, a)
        self.h += 2 * W * d * a - W * linear_part * a
        self.c += W * d * d - W * linear_part * d

    def paired(self, W, a, d):
        """(W/2)·r(r − 1), r = a·z + d."""
        self.square(W / 2, a, d, linear_part=1.0)

    def linear(self, W, a, d):
        a = np.concatenate([a, np.zeros(len(self.h) - len(a))])
        self.h += W * a
        self.c += W * d

    def product(self, W, a, d, e: int):
        """W·(a·z + d)·(1 − z_e)."""
        a = np.concatenate([a, np.zeros(len(self.h) - len(a))])
        self.h += W * a
        self.c += W * d
        self.Q[:, e] -= W * a
        self.h[e] -= W * d

    def bqm(self) -> dimod.BinaryQuadraticModel:
        Q = self.Q
        n = len(self.h)
        lin = self.h + np.diag(Q)
        U = np.triu(Q, 1) + np.tril(Q, -1).T
        U[np.abs(U) < 1e-12] = 0
        rows, cols = np.nonzero(U)
        return dimod.BinaryQuadraticModel.from_numpy_vectors(lin, (rows, cols, U[rows, cols]), self.c, dimod.BINARY,
                                                             variable_order=list(range(n)))


def problem_arrays(problem):
    """(literal matrix, rows, 2m, m, m', labels after any flip, weights) of a depth-one problem."""
    Lit = literal_matrix(problem)
    n, m2 = Lit.shape
    return (Lit, n, m2, m2 // 2, problem.max_num_literals, np.asarray(problem.target),
            np.asarray(problem.weights, dtype=float))


def parser() -> argparse.ArgumentParser:
    """The experiments' common options: datasets, operators, reads per QUBO, a JSON-lines file."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", nargs="+", default=["breast_cancer", "credit_risk", "customer_churn", "parkinsons"])
    ap.add_argument("--operators", nargs="+", default=["AtLeast", "AtMost"])
    ap.add_argument("--reads", type=int, default=100)
    ap.add_argument("--jsonl")
    return ap


def solved(args):
    """(dataset, operator, problem, exact optimum, the minimal-bound QUBO with η that was the
    default when these experiments ran) for each of `args.datasets` x `args.operators`."""
    from boolrules.backends import get_backend

    for ds in args.datasets:
        for op in args.operators:
            problem = load(ds, op)
            yield ds, op, problem, get_backend("native").solve(problem).objective, problem.to_qubo(eta=True, slack="minimal")


def offsets(span: int, unary: bool):
    """Offset weights of a paired row over 0..span (values o with {o, o+1} covering 0..span)."""
    if span <= 1:
        return []
    if unary:
        return [1] * (span - 1)
    from boolrules.formulations.reductions import paired_offset_weights
    _, _, w = paired_offset_weights(np.array([span]))
    return w.tolist()


E_COST = 1.0


def row_cost(kind: str, t: np.ndarray, a: int, b: int, mp: int, exact: bool) -> np.ndarray:
    """Minimum over a row's aux bits of its penalty, per unit weight, at count t."""
    t = np.asarray(t, dtype=float)
    if kind == "none":
        return np.zeros_like(t)
    if kind == "bottom":
        return np.minimum(t, 1.0) if exact else t
    if kind == "top":
        return np.minimum(mp - t, 1.0) if exact else mp - t
    # paired over [a, b]: r = t - a - o, o in 0..b-a-1 (any encoding covering them)
    below = np.maximum(a - t, 0)
    above = np.maximum(t - b, 0)
    cost = below * (below + 1) / 2 + above * (above + 1) / 2
    if exact:
        cost = np.minimum(cost, E_COST)
    return cost


def build_fixed_k(problem, k: int, *, unary: bool = True, exact: bool = False, exact_ends: bool = False,
                  end_soft: float = 2.0, hard: float | None = None, count: str = "t", win_soft: float = 1.0,
                  e_cost: float = 1.0, delta: float | None = None):
    """The QUBO of `problem` (AtLeast or AtMost) for one value of k, literals and per-row aux bits only.

    count "t": k fixed; rows on the true-literal count t_i. count "f": k = L − `k` (k here is the
    number of false literals allowed, j); rows on the false-literal count f_i = L − t_i (j = 0 is
    And for AtLeast). Each sample's allowed count interval [a, b] within [0, m']: ends (a = b = 0 or
    m') linear (`exact_ends`: a product `end_soft`·w·(c − end)(1 − e) with an error bit e of cost w);
    otherwise a paired penalty (w/2)·r(r−1) with offsets (unary weights 1 or the binary paired
    weights) and, with `exact`, an error bit that moves the window past a violation of depth 2.
    Hard: exclusive literals and L in its range (t: k ≤ L ≤ m'; f: max(j, 1) ≤ L ≤ m')."""
    Lit, n, m2, m, mp, y, w = problem_arrays(problem)
    op = problem.operator
    C = Lit if count == "t" else 1 - Lit
    B = Builder(m2)
    rows = []
    for i in range(n):
        if count == "t":
            if op == "AtLeast":
                a, b = (k, mp) if y[i] == 1 else (0, k - 1)
            else:
                a, b = (0, k) if y[i] == 1 else (k + 1, mp)
        else:  # f = L - t, k = L - j: AtLeast t >= L - j <=> f <= j; AtMost t <= L - j <=> f >= j
            if op == "AtLeast":
                a, b = (0, k) if y[i] == 1 else (k + 1, mp)
            else:
                a, b = (k, mp) if y[i] == 1 else (0, k - 1)
        if a <= 0 and b >= mp:
            kind = "none"
        elif a == b == 0:
            kind = "bottom"
        elif a == b == mp:
            kind = "top"
        else:
            kind = "paired"
        rows.append((kind, a, b))
        lit = C[i]
        if kind == "none":
            continue
        if kind in ("bottom", "top"):
            a_vec = lit if kind == "bottom" else -lit
            d = 0.0 if kind == "bottom" else float(mp)
            if exact_ends:
                e = B.add(1, [f"e[{i}]"])[0]
                B.product(end_soft * w[i], a_vec, d, e)
                B.h[e] += w[i]
            else:
                B.linear(w[i], a_vec, d)
            continue
        offs = offsets(b - a, unary)
        o_idx = B.add(len(offs), [f"o[{i}]#{p}" for p in range(len(offs))])
        vec = np.concatenate([lit, np.zeros(len(B.h) - m2)])
        vec[o_idx] = -np.asarray(offs, float)
        d = -float(a)
        windowed = False
        if delta is not None and (a == 2 or mp - b == 2):
            # exact with a tilted error bit: the e = 0 slice is the paired (biased) row; e = 1 adds
            # w·(c + d·t), the line through -2w at the deep miss and +delta·w at the shallow one, so
            # min over e is w at both misses and e = 0 wins everywhere else (by delta at the shallow miss)
            B.paired(w[i], vec, d)
            e = B.add(1, [f"e[{i}]"])[0]
            t_deep, t_shallow = (a - 2, a - 1) if a == 2 else (b + 2, b + 1)
            slope = (delta + 2.0) / (t_shallow - t_deep)
            B.h[e] += w[i] * (-2.0 - slope * t_deep)
            B.Q[:m2, e] += w[i] * slope * lit
            continue
        if exact and a >= 2:  # window below: e moves r up by 2 (t in {a-2, a-1} allowed at cost w)
            e = B.add(1, [f"e[{i}]"])[0]
            vec = np.concatenate([vec, [2.0]])
            B.h[e] += e_cost * w[i]
            windowed = True
        if exact and mp - b >= 2:
            e = B.add(1, [f"e[{i}]"])[0]
            vec = np.concatenate([vec, [-(b - a + 1.0)]])
            B.h[e] += e_cost * w[i]
            windowed = True
        B.paired((win_soft if windowed else 1.0) * w[i], vec, d)
    lo_L = k if count == "t" else max(k, 1)
    hi_L = mp
    span = hi_L - lo_L
    offs = offsets(span, unary)
    o_L = B.add(len(offs), [f"oL#{p}" for p in range(len(offs))])
    meta = dict(rows=rows, mp=mp, k=k, count=count, m=m, lit=Lit, w=w, o_L=o_L, lo_L=lo_L, hi_L=hi_L)

    def soft_energy(x):
        t = C @ x
        return float(sum(w[i] * row_cost(kind, t[i], a, b, mp, exact) for i, (kind, a, b) in enumerate(rows)))

    meta["soft_energy"] = soft_energy
    kinds = np.array([r[0] for r in rows]); lo = np.array([r[1] for r in rows], float); hi = np.array([r[2] for r in rows], float)

    def costs(T):  # T: (n, candidates) counts -> soft energy per candidate
        below = np.maximum(lo[:, None] - T, 0); above = np.maximum(T - hi[:, None], 0)
        pc = below * (below + 1) / 2 + above * (above + 1) / 2
        bot = T; top = mp - T
        if exact_ends:
            bot, top = np.minimum(bot, 1), np.minimum(top, 1)
        if exact:
            pc = np.minimum(pc, e_cost)
        cost = np.where((kinds == "bottom")[:, None], bot, np.where((kinds == "top")[:, None], top,
                        np.where((kinds == "none")[:, None], 0.0, pc)))
        return w @ cost

    meta["greedy"] = polished_greedy(costs, C, m, lo_L, mp)
    if hard is None:
        hard = meta["greedy"] + w.mean()
    meta["hard"] = hard
    literal_rows(B, hard, m, lo_L, span, o_L, offs)
    return B, meta


def literal_rows(B, hard: float, m: int, lo_L: int, span: int, o_L, offs) -> None:
    """The hard rows on the literals: exclusive pairs hard·b_j·bt_j, and lo_L <= L <= lo_L + span as
    a square (span 0) or a pair penalty with the offsets `offs` in the columns `o_L`."""
    m2 = 2 * m
    Lvec = np.concatenate([np.ones(m2), np.zeros(len(B.h) - m2)])
    for j in range(m):
        B.Q[j, j + m] += hard
    if span == 0:
        B.square(hard, Lvec, -float(lo_L))
    else:
        Lvec[o_L] = -np.asarray(offs, float)
        B.paired(hard, Lvec, -float(lo_L))


def emit(rec: dict, out) -> None:
    """One result as a JSON line on stdout and, when `out` is open, in that file."""
    print(json.dumps(rec), flush=True)
    if out:
        out.write(json.dumps(rec) + "\n")
        out.flush()


def greedy_energy(soft_energy, m, lo_L, mp):
    """Soft energy of a greedy valid selection: literals added one at a time (lo_L of them, then
    more up to m' while the energy drops)."""
    m2 = 2 * m
    x = np.zeros(m2)
    best = None
    for step in range(mp):
        cands = []
        for j in range(m2):
            if x[j] or x[(j + m) % m2]:
                continue
            x2 = x.copy(); x2[j] = 1
            cands.append((soft_energy(x2), j))
        e_best, j = min(cands)
        if step + 1 > lo_L and best is not None and e_best >= best:
            break
        x[j] = 1
        best = e_best
    return best


def polished_greedy(costs, C, m, lo_L, mp):
    """Soft energy of a valid selection found by greedy additions then best-improvement swaps,
    additions and removals (L kept in [lo_L, m']): the reference for the hard weight."""
    m2 = 2 * m
    x = np.zeros(m2, dtype=bool)
    ok = lambda x: ~(x | np.roll(x, m))  # literals that may be added (not chosen, partner not chosen)
    for _ in range(lo_L):
        T = (C @ x)[:, None] + C
        e = costs(T); e[~ok(x)] = np.inf
        x[int(np.argmin(e))] = True
    best = costs((C @ x)[:, None])[0]
    for _ in range(200):
        t = C @ x
        moves = []
        if x.sum() < mp:
            e = costs(t[:, None] + C); e[~ok(x)] = np.inf
            moves.append((e.min(), ("add", int(np.argmin(e)))))
        for r in np.flatnonzero(x):
            if x.sum() > lo_L:
                moves.append((costs((t - C[:, r])[:, None])[0], ("drop", r)))
            x2 = x.copy(); x2[r] = False
            e = costs((t - C[:, r])[:, None] + C); e[~ok(x2)] = np.inf; e[r] = np.inf
            moves.append((e.min(), ("swap", r, int(np.argmin(e)))))
        e, move = min(moves, key=lambda mv: mv[0])
        if e >= best - 1e-12:
            break
        best = e
        if move[0] == "add":
            x[move[1]] = True
        elif move[0] == "drop":
            x[move[1]] = False
        else:
            x[move[1]] = False; x[move[2]] = True
    return float(best)


def k_values(operator: str, mp: int):
    """The (count, k) QUBOs whose rules cover every AtLeast/AtMost rule with L <= m' (k = 0 of
    AtLeast and k = L of AtMost, the constant true, left out)."""
    if operator == "AtLeast":
        return [("t", k) for k in range(1, mp)] + [("f", 0)]
    return [("t", k) for k in range(0, mp - 1)] + [("f", 1)]


def sample_sa(bqm, reads: int, seed: int = 0):
    from dwave.samplers import SimulatedAnnealingSampler
    return SimulatedAnnealingSampler().sample(bqm, num_reads=reads, seed=seed)


def raw_of(problem, ss, meta, k_of=None):
    """The lowest-energy sample's rule as it stands: (energy, objective or None, literals, L)."""
    best = ss.first
    m = meta["m"]
    x = np.array([best.sample[j] for j in range(2 * m)])
    b, bt = x[:m], x[m:]
    L = int(x.sum())
    k = meta["k"] if meta.get("count", "t") == "t" else L - meta["k"]
    feasible = not (b & bt).any() and meta["lo_L"] <= L <= meta["hi_L"] and 0 <= k <= L
    if not feasible:
        return best.energy, None, L, k
    rule = problem.decode({"b": b, "bt": bt, "k": k})
    return best.energy, problem.objective(rule), L, k


def window_row(B, problem, i: int, k_cols, unary: bool = True) -> None:
    """Sample i's row of AtLeast/AtMost on d = t_i − k (k the sum of the columns `k_cols`), paired
    over its allowed interval of d with offsets (unary weights 1 or binary): biased, a miss by two
    costs 3 w_i."""
    Lit, _, m2, _, mp, y, w = problem_arrays(problem)
    if problem.operator == "AtLeast":
        a, b = (0, mp) if y[i] == 1 else (-mp, -1)
    else:
        a, b = (-mp, 0) if y[i] == 1 else (1, mp)
    offs = offsets(b - a, unary)
    o_idx = B.add(len(offs), [f"o[{i}]#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h))
    vec[:m2] = Lit[i]
    vec[k_cols] = -1.0
    vec[o_idx] = -np.asarray(offs, float)
    B.paired(w[i], vec, -float(a))


def build_thermometer(problem, *, unary: bool = True, hard: float | None = None, k_fixed=None):
    """One QUBO with k variable in a thermometer code u_1 >= u_2 >= ... >= u_m' (k = Σ u_j; one
    flip per unit of k; order rows H·u_{j+1}(1 − u_j)): sample rows on d = t − k with paired
    penalties and offsets (biased for deep violations, like build_fixed_k), k ≤ L ≤ m' hard."""
    Lit, n, m2, m, mp, y, w = problem_arrays(problem)
    op = problem.operator
    B = Builder(m2)
    u = B.add(mp, [f"u[{j}]" for j in range(1, mp + 1)])
    for i in range(n):
        window_row(B, problem, i, u, unary)
    if hard is None:
        hard = float(w.sum()) / 4
    # L <= m' (L in [0, mp]) and L - k >= 0 (in [0, mp])
    offs = offsets(mp, unary)
    oL = B.add(len(offs), [f"oL#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h)); vec[:m2] = 1; vec[oL] = -np.asarray(offs, float)
    B.paired(hard, vec, 0.0)
    oK = B.add(len(offs), [f"oK#{p}" for p in range(len(offs))])
    vec = np.zeros(len(B.h)); vec[:m2] = 1; vec[u] = -1; vec[oK] = -np.asarray(offs, float)
    B.paired(hard, vec, 0.0)
    for j in range(m):
        B.Q[j, j + m] += hard
    for j in range(mp - 1):  # u_{j+1} <= u_j
        B.Q[u[j + 1], u[j + 1]] += hard
        B.Q[u[j], u[j + 1]] -= hard
    meta = dict(m=m, mp=mp, u=u, hard=hard, lo_L=0, hi_L=mp, k=None, count="thermo")
    return B, meta


def raw_thermo(problem, ss, meta):
    best = ss.first
    m = meta["m"]
    x = np.array([best.sample[j] for j in range(2 * m)])
    uu = np.array([best.sample[int(j)] for j in meta["u"]])
    b, bt = x[:m], x[m:]
    L = int(x.sum()); k = int(uu.sum())
    ordered = all(uu[j] >= uu[j + 1] for j in range(len(uu) - 1))
    if (b & bt).any() or L > meta["mp"] or k > L or not ordered:
        return best.energy, None, L, k
    return best.energy, problem.objective(problem.decode({"b": b, "bt": bt, "k": k})), L, k


def build_choose_k(problem, k: int, *, hard: float | None = None):
    """Choose with k fixed (1 <= k <= m' - 1, L in [k, m']): positives t = k squared, w·(t − k)²
    (slack-free; a miss by d costs d²·w); negatives t ≠ k with one aux q_i: (w/2)·r(r − 1),
    r = t − (k − 2) − 3q: zero for t in {k−2, k−1} (q = 0) or {k+1, k+2} (q = 1), exactly w at
    t = k (exact for m' <= k + 2 and k <= 2). Hard: exclusive literals, k <= L <= m'."""
    Lit, n, m2, m, mp, y, w = problem_arrays(problem)
    B = Builder(m2)
    for i in range(n):
        if y[i] == 1:
            B.square(w[i], Lit[i], -float(k))
        else:
            q = B.add(1, [f"q[{i}]"])[0]
            vec = np.concatenate([Lit[i], np.zeros(len(B.h) - m2)])
            vec[q] = -3.0
            B.paired(w[i], vec, -float(k - 2))
    P = y == 1

    def soft_energy(x):
        t = Lit @ x
        pos = (t - k) ** 2
        neg = (t == k).astype(float)
        return float(w @ np.where(P, pos, neg))

    lo_L, hi_L = k, mp
    if hard is None:
        def costs(T):
            return w @ np.where(P[:, None], (T - k) ** 2, (T == k).astype(float))
        hard = polished_greedy(costs, Lit, m, lo_L, mp) + w.mean()
    span = hi_L - lo_L
    offs = offsets(span, True)
    oL = B.add(len(offs), [f"oL#{p}" for p in range(len(offs))])
    literal_rows(B, hard, m, lo_L, span, oL, offs)
    return B, dict(m=m, mp=mp, k=k, count="t", lo_L=lo_L, hi_L=hi_L, hard=hard, soft_energy=soft_energy)
