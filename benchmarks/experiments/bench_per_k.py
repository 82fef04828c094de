"""One QUBO per k for AtLeast/AtMost (issue 23 research, branch kfree): raw quality at the
issue's protocol, against the exact optimum and the default (minimal-bound, with η) sizes.

For m' = 3 an AtLeast rule is Or (k = 1), And (k = L) or AtLeast_2 of 3 literals (k = 2, L = 3;
AtLeast_2 of 2 is And); an AtMost rule is And of negations (k = 0), Or of negations (k = L - 1) or
AtMost_1 of 2..3 literals. So three QUBOs cover each operator:
- `Or` and `And`: the library's `to_qubo(slack="paired")` with η (exact, anneal to +0% in the
  study) of the Or / And problem on the same rows (for AtMost, Or and And on the same literals
  give Or(~S) = AtMost_{L-1}(S) and And(~S) = AtMost_0(S));
- the middle k (`kfree_lib.build_fixed_k(count="t")`, k = 2 for AtLeast, 1 for AtMost): literals
  only, no slack or η at all: positives (w/2)(t-a)(t-a-1), negatives alike, L in [k..m'] the
  slack-free (H/2)(L-k)(L-k-1) for m' = k + 1, exclusive literals H·b·bt. Biased: a sample that
  misses by two counts costs 3w (exact for one; the biased ground state need not be the optimum).

Each QUBO is sampled by dwave-samplers' SimulatedAnnealingSampler with its default schedule,
`--reads` reads (and `--split`: reads/3 each, the same total budget as one 100-read run); the
answer is the lowest-energy sample over the three QUBOs, its literals (and k: 1, L, or the fixed
k) read as they stand; infeasible if it breaks a hard row. Energies are comparable: at a valid
state each QUBO's energy is its rule's objective (Or/And, exact) or biased objective (>= it).
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
import time

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kfree_lib import build_fixed_k, emit, parser, raw_of, sample_sa, solved  # noqa: E402

from boolrules.formulations import depth_one  # noqa: E402


def library_part(problem, operator: str, reads: int):
    """Or/And of the same rows as a paired-with-η QUBO; (energy, objective as the parent's rule or None, sizes)."""
    sub = depth_one(problem.X, problem.y, operator, max_num_literals=problem.max_num_literals, negated=problem.negated)
    q = sub.to_qubo(eta=True, slack="paired")
    ss = sample_sa(q.bqm, reads)
    d = q.decode_stages(ss, polish=False)
    raw = d.stages["raw"]
    energy = float(ss.first.energy)
    obj = None if raw.objective is None else problem.objective(raw.rule) if raw.rule is not None else None
    return energy, obj, str(raw.rule), q.bqm.num_variables, q.bqm.num_interactions


def gap(obj, opt):
    if obj is None:
        return math.inf
    if opt <= 1e-9:
        return 0.0 if obj <= 1e-9 else math.inf
    return (obj - opt) / opt


def main(argv=None):
    ap = parser()
    ap.add_argument("--split", action="store_true", help="reads // 3 per QUBO (one run's budget in total)")
    ap.add_argument("--middle", choices=["t", "mirror"], default="t",
                    help="AtMost's middle QUBO: t = k fixed at 1 (rows on t); mirror = count f with k = L - 2 "
                         "(the AtLeast k = 2 QUBO on complemented literals: AtMost_1 of 3, AtMost_0 of 2)")
    args = ap.parse_args(argv)
    out = open(args.jsonl, "a") if args.jsonl else None
    for ds, op, problem, opt, default in solved(args):
        reads = args.reads // 3 if args.split else args.reads
        parts = {}
        for name in ("Or", "And"):
            e, obj, rule, nv, ni = library_part(problem, name, reads)
            parts[name] = dict(energy=e, objective=obj, rule=rule, variables=nv, interactions=ni)
        count, k = ("t", 2) if op == "AtLeast" else (("f", 2) if args.middle == "mirror" else ("t", 1))
        B, meta = build_fixed_k(problem, k, count=count)
        bqm = B.bqm()
        ss = sample_sa(bqm, reads)
        e, obj, L, _ = raw_of(problem, ss, meta)
        parts[f"k={k}" if count == "t" else f"k=L-{k}"] = dict(energy=float(e), objective=obj, rule=f"L={L}", variables=bqm.num_variables,
                               interactions=bqm.num_interactions)
        best = min(parts, key=lambda p: parts[p]["energy"])
        rec = dict(dataset=ds, operator=op, reads_per_qubo=reads, middle=f"{count}{k}", optimum=opt, chosen=best,
                   raw=parts[best]["objective"], raw_gap=gap(parts[best]["objective"], opt), parts=parts,
                   default_variables=default.bqm.num_variables, default_interactions=default.bqm.num_interactions)
        emit(rec, out)


if __name__ == "__main__":
    main()
