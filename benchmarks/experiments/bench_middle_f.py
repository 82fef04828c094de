"""The middle QUBO counted on false literals (AtLeast k = L - 1, AtMost k = L - 2), raw at READS reads. Usage: bench_middle_f.py READS DATASETS OPERATORS (issue 23 research, branch kfree)"""
from pathlib import Path
import sys, json
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
reads = int(sys.argv[1])
for ds in sys.argv[2].split(","):
    for op, (c, k) in [("AtLeast", ("f", 1)), ("AtMost", ("f", 2))]:
        if op not in sys.argv[3]: continue
        problem = load(ds, op)
        B, meta = build_fixed_k(problem, k, count=c)
        bqm = B.bqm()
        ss = sample_sa(bqm, reads)
        e, obj, L, kk = raw_of(problem, ss, meta)
        print(json.dumps(dict(dataset=ds, operator=op, middle=f"{c}{k}", energy=float(e), raw=obj, L=L, k=kk, variables=bqm.num_variables, interactions=bqm.num_interactions)), flush=True)
