"""Diagnostic: the AtLeast k = 2 QUBO, exact (one error bit per sample) vs biased slack-free, at 1000 and 10000 sweeps, 100 reads. Usage: diag_exact_sweeps.py DATASET (issue 23 research, branch kfree)"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from kfree_lib import *
from dwave.samplers import SimulatedAnnealingSampler
ds = sys.argv[1]
problem = load(ds, "AtLeast")
for exact in (True, False):
    B, meta = build_fixed_k(problem, 2, count="t", exact=exact)
    for sweeps in (1000, 10000):
        ss = SimulatedAnnealingSampler().sample(B.bqm(), num_reads=100, num_sweeps=sweeps, seed=0)
        print(ds, "exact" if exact else "biased", sweeps, "sweeps:", raw_of(problem, ss, meta)[:2], "median E", np.median(ss.record.energy), flush=True)
