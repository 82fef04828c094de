"""Diagnostic: the middle QUBO's raw result against the hard weight H. Usage: diag_hard_weight.py READS DATASET OPERATOR {t|f}K H1,H2,... (issue 23 research, branch kfree)"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
reads = int(sys.argv[1]); ds = sys.argv[2]; op = sys.argv[3]; c = sys.argv[4][0]; k = int(sys.argv[4][1:])
problem = load(ds, op)
for H in [float(h) for h in sys.argv[5].split(",")]:
    B, meta = build_fixed_k(problem, k, count=c, hard=H)
    ss = sample_sa(B.bqm(), reads)
    e, obj, L, kk = raw_of(problem, ss, meta)
    import numpy as np
    ens = ss.record.energy
    print(f"{ds} {op} {c}{k} H {H} greedy {meta['greedy']:.2f} energy {e:.3f} raw {obj} median energy {np.median(ens):.2f}", flush=True)
