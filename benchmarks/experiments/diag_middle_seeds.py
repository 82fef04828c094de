"""Does SA find the middle QUBO's (slack-free, AtLeast k = 2) ground state robustly? Raw at 100
reads for sampler seeds 0..S-1. Usage: diag_middle_seeds.py DATASETS SEEDS (issue 23 research, branch kfree)"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
from dwave.samplers import SimulatedAnnealingSampler
for ds in sys.argv[1].split(","):
    problem = load(ds, "AtLeast")
    B, meta = build_fixed_k(problem, 2, count="t")
    bqm = B.bqm()
    out = []
    for seed in range(int(sys.argv[2])):
        ss = SimulatedAnnealingSampler().sample(bqm, num_reads=100, seed=seed)
        out.append(round(float(raw_of(problem, ss, meta)[1] or float("nan")), 3))
    print(ds, "raw per seed", out, flush=True)
