"""`boolrules decode`: decode samples of an exported problem, solved elsewhere, with the export's
sidecar."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..formats import load_problem
from .errors import UsageError
from .report import print_json, schedule_text

__all__ = ["run"]


def run(args) -> int:
    """`boolrules decode`: decode SAMPLES of the export SIDECAR describes and print the best rule."""
    loaded = load_problem(args.sidecar)
    try:
        samples = json.load(sys.stdin) if args.samples == "-" else json.loads(Path(args.samples).read_text())
    except (ValueError, RecursionError) as err:
        raise UsageError(f"SAMPLES: {args.samples} is not JSON: {err}") from None
    decoding = loaded.decode(samples)
    names = loaded.feature_names
    qubo = loaded.qubo
    schedule = None if qubo is None else loaded.sidecar["qubo"].get("schedule")
    compiled = {} if qubo is None else {"eta": qubo.eta, "slack": qubo.slack, "schedule": schedule}
    result = {"problem": loaded.problem.label, "file": loaded.sidecar["file"], "format": loaded.format,
              **compiled, **decoding.to_dict(names)}
    if args.json:
        print_json(result)
        return 0
    r = decoding
    what = "model" if qubo is None else f"QUBO ({qubo.compilation})"
    print(f"problem:    {loaded.problem.label} {what} of {loaded.sidecar['file']} ({loaded.format}), "
          f"{loaded.problem.num_samples} samples x {loaded.problem.num_features} features")
    if schedule is not None:
        print(f"schedule:   {schedule_text(schedule)} (recommended at export)")
    print(f"samples:    {r.num_samples} read, {r.num_distinct} distinct, {r.num_feasible} feasible; the best "
          f"(lowest objective after repair) has energy {r.energy:.6g}")
    judged = ("every row of the ILP" if loaded.qubo is None
              else "the literal bounds and hard rows; η and slack not judged")
    print(f"feasible:   {'yes' if r.feasible else 'no'} (the raw sample as it stands: {judged})")
    raw = "none (its k exceeds its literals)" if r.raw_rule is None else (
        f"{r.raw_rule.to_str(names)}  objective {r.raw_objective:.6g}")
    print(f"raw rule:   {raw}")
    print(f"rule:       {r.rule.to_str(names)}  objective {r.objective:.6g}  (repaired to the literal bounds, "
          "best k)")
    return 0
