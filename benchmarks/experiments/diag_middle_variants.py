"""Diagnostic: the AtLeast k = 2 / AtMost k = 1 QUBO in variants NAME:EXACT:E_COST (EXACT 1 adds one error bit per sample with cost E_COST·w). Usage: diag_middle_variants.py READS DATASETS OPERATORS VARIANTS (issue 23 research, branch kfree)"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
from boolrules.backends import get_backend
reads = int(sys.argv[1]); datasets = sys.argv[2].split(","); ops = sys.argv[3].split(",")
variants = [v.split(":") for v in sys.argv[4].split(",")]  # name:exact:win_soft
for ds in datasets:
    for op in ops:
        problem = load(ds, op)
        opt = get_backend("native").solve(problem)
        c, k = ("t", 2) if op == "AtLeast" else ("t", 1)
        for name, exact, ws in variants:
            import kfree_lib; kfree_lib.E_COST = float(ws)
            B, meta = build_fixed_k(problem, k, count=c, exact=exact == "1", e_cost=float(ws))
            bqm = B.bqm()
            ss = sample_sa(bqm, reads)
            e, obj, L, _ = raw_of(problem, ss, meta)
            o = opt.objective
            print(f"{ds} {op} {c}{k} {name}: opt {o:.3f} raw {obj} energy {e:.3f} H {meta['hard']:.2f} vars {bqm.num_variables} int {bqm.num_interactions} median E {np.median(ss.record.energy):.2f}", flush=True)
