"""Brute force over all 2- and 3-literal sets: the biased (slack-free k = 2 QUBO) ground state and the true k = 2 optimum of AtLeast. Usage: brute_middle_k2.py DATASETS (issue 23 research, branch kfree)"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
for ds in sys.argv[1].split(","):
    op = "AtLeast"
    problem = load(ds, op)
    C = literal_matrix(problem); n, m2 = C.shape; m = m2 // 2
    y = problem.target; w = problem.weights
    P = y == 1
    def biased(T):  # T (n, K)
        pos = np.maximum(2 - T, 0); pos = pos * (pos + 1) / 2
        neg = np.maximum(T - 1, 0); neg = neg * (neg + 1) / 2
        return w @ np.where(P[:, None], pos, neg)
    def true(T):
        err = np.where(P[:, None], T < 2, T >= 2)
        return w @ err
    best_b = (np.inf, None); best_t = (np.inf, None)
    for a in range(m2):
        for b in range(a + 1, m2):
            if b == a + m: continue
            T2 = C[:, a] + C[:, b]
            eb, et = biased(T2[:, None])[0], true(T2[:, None])[0]
            if eb < best_b[0]: best_b = (eb, (a, b), et)
            if et < best_t[0]: best_t = (et, (a, b), eb)
            cs = np.arange(b + 1, m2)
            cs = cs[(cs != a + m) & (cs != b + m) & (cs != a - m) & (cs != b - m)]
            if not len(cs): continue
            T3 = T2[:, None] + C[:, cs]
            eb3, et3 = biased(T3), true(T3)
            i = int(np.argmin(eb3))
            if eb3[i] < best_b[0]: best_b = (eb3[i], (a, b, cs[i]), et3[i])
            i = int(np.argmin(et3))
            if et3[i] < best_t[0]: best_t = (et3[i], (a, b, cs[i]), eb3[i])
    print(ds, "biased ground:", best_b, "true opt (k=2):", best_t, flush=True)
