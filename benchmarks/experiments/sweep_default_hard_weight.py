"""The default QUBO (`to_qubo()`) with its sufficient hard weight times 1, 2, 4, 8: raw and repaired
objectives and the feasible share of 100 dwave-samplers SA reads (default schedule), on the study's
subproblems (80 stratified rows, seed 0, m' = 3). Usage: sweep_default_hard_weight.py [DATASET:OPERATOR ...]
(issue 23: can a larger hard weight make the raw samples of AtLeast/AtMost both valid and good?)"""
import sys

from dwave.samplers import SimulatedAnnealingSampler

from boolrules import load_dataset
from boolrules.formulations import depth_one
from boolrules.sampling import subsample_rows

CASES = ["breast_cancer:AtLeast", "breast_cancer:AtMost", "parkinsons:AtMost", "parkinsons:AtLeast", "credit_risk:AtMost"]

for case in sys.argv[1:] or CASES:
    dataset, operator = case.split(":")
    data = load_dataset(dataset)
    rows = subsample_rows(len(data.y), 80, 0, labels=data.y)
    qubo = depth_one(data.X[rows], data.y[rows], operator, max_num_literals=3).to_qubo()
    for factor in (1, 2, 4, 8):
        weighted = qubo.with_penalties({"soft": qubo.penalties.soft, "hard": qubo.penalties.hard * factor})
        decoding = weighted.decode_stages(SimulatedAnnealingSampler().sample(weighted.bqm, num_reads=100, seed=0),
                                          polish=False)
        raw, repaired = decoding.stages["raw"], decoding.stages["repaired"]
        print(f"{dataset} {operator} hard x{factor} ({weighted.penalties.hard:.3g}): raw "
              f"{'infeasible' if raw.rule is None else f'{raw.objective:.4g}'}, repaired {repaired.objective:.4g}, "
              f"{decoding.feasible}/{decoding.num_samples} samples feasible", flush=True)
