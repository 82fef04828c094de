"""Diagnostic: a library mode (e.g. window:noeta) with k's bits clamped at each value, SA default schedule. Usage: diag_window_k_clamped.py DATASET OPERATOR SLACK:ETA READS (issue 23 research, branch kfree)"""
from pathlib import Path
import sys, time, numpy as np, dimod
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_qubo_quality import instances, exact_optimum
from boolrules.backends import get_backend
from dwave.samplers import SimulatedAnnealingSampler
import argparse
ds, op, mode, reads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
args = argparse.Namespace(datasets=[ds], seeds=[0], samples=80, operators=[op], negated=False, max_literals=3)
_, _, problem = next(instances(args))
res = get_backend("native").solve(problem)
print("opt", res.objective, res.rule)
slack, eta = mode.split(":")
q = problem.to_qubo(eta=eta == "eta", slack=slack)
bqm = q.bqm
kl = [v for v, b in zip(q.form.labels, q.form.label_block) if b == "k"]
print("k labels", kl, "vars", bqm.num_variables, "int", bqm.num_interactions)
for kval in [None] + list(range(0, 4)):
    b2 = bqm.copy()
    fixed = {}
    if kval is not None:
        # capped binary of k in 0..3: weights 1,2
        bits = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1)}[kval]
        fixed = dict(zip(kl, bits))
        b2.fix_variables(fixed)
    t = time.time()
    ss = SimulatedAnnealingSampler().sample(b2, num_reads=reads, seed=0)
    arr = ss.record.sample
    full = np.zeros((len(arr), len(q.labels)), dtype=np.int8)
    for j, v in enumerate(q.labels):
        full[:, j] = fixed[v] if v in fixed else arr[:, list(ss.variables).index(v)]
    d = q.decode_stages(full, polish=False)
    print("k", kval, "raw", d.stages["raw"].objective, d.stages["raw"].rule, "rep", d.stages["repaired"].objective, f"{time.time()-t:.1f}s")
