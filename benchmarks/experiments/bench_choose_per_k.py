"""Choose with one QUBO per k (And from the library's paired-with-η QUBO; k = 1, 2 from kfree_lib.build_choose_k), SA default schedule, lowest energy over the QUBOs. Usage: bench_choose_per_k.py READS DATASET[,DATASET] (issue 23 research, branch kfree)"""
from pathlib import Path
import sys, json
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
from bench_per_k import library_part, gap
from boolrules.backends import get_backend
reads = int(sys.argv[1])
for ds in sys.argv[2].split(","):
    problem = load(ds, "Choose")
    opt = get_backend("native").solve(problem)
    parts = {}
    e, obj, rule, nv, ni = library_part(problem, "And", reads)
    parts["And"] = dict(energy=e, objective=obj, variables=nv, interactions=ni)
    for k in (1, 2):
        B, meta = build_choose_k(problem, k)
        bqm = B.bqm()
        ss = sample_sa(bqm, reads)
        e, obj, L, _ = raw_of(problem, ss, meta)
        parts[f"k={k}"] = dict(energy=float(e), objective=obj, L=L, variables=bqm.num_variables, interactions=bqm.num_interactions, hard=meta["hard"])
    best = min(parts, key=lambda p: parts[p]["energy"])
    d = problem.to_qubo(slack="minimal")  # the default when measured
    print(json.dumps(dict(dataset=ds, operator="Choose", reads_per_qubo=reads, optimum=opt.objective, opt_rule=str(opt.rule), chosen=best, raw=parts[best]["objective"], raw_gap=gap(parts[best]["objective"], opt.objective), parts=parts, default_variables=d.bqm.num_variables, default_interactions=d.bqm.num_interactions)), flush=True)
