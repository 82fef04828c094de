"""Diagnostic: the AtLeast k = 2 QUBO made exact by a tilted error bit per deep-miss row
(`build_fixed_k(delta=...)`), against the biased slack-free one; raw at READS reads, and a brute
force check of exactness on a tiny instance. Usage: diag_tilted.py READS DATASETS DELTAS (issue 23 research, branch kfree)"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
import dimod

# exactness on a tiny instance: min over e of each row = w·[miss]
from boolrules.formulations import depth_one
rng = np.random.default_rng(1)
X = rng.integers(0, 2, (5, 3)); y = np.array([1, 1, 0, 0, 1])
tiny = depth_one(X, y, "AtLeast", max_num_literals=3)
B, meta = build_fixed_k(tiny, 2, count="t", delta=0.5)
low = dimod.ExactSolver().sample(B.bqm()).lowest(atol=1e-9)
import itertools
C = literal_matrix(tiny); best = np.inf
for L in (2, 3):
    for S in itertools.combinations(range(6), L):
        if any(j + 3 in S for j in S if j < 3): continue
        x = np.zeros(6); x[list(S)] = 1; t = C @ x
        best = min(best, float(tiny.weights @ np.where(tiny.target == 1, t < 2, t >= 2)))
print("tiny: ground", low.first.energy, "true k=2 optimum", best)

reads = int(sys.argv[1])
for ds in sys.argv[2].split(","):
    problem = load(ds, "AtLeast")
    for delta in [None] + [float(v) for v in sys.argv[3].split(",")]:
        B, meta = build_fixed_k(problem, 2, count="t", delta=delta)
        bqm = B.bqm()
        ss = sample_sa(bqm, reads)
        e, obj, L, _ = raw_of(problem, ss, meta)
        print(ds, "delta", delta, "raw", obj, "energy", round(float(e), 3), "vars", bqm.num_variables, "int", bqm.num_interactions, "median E", round(float(np.median(ss.record.energy)), 2), flush=True)
