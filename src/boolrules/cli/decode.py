"""`boolrules decode`: decode samples of an exported problem, solved elsewhere, with the export's
sidecar, stage by stage as `boolrules solve` reports a sampler's answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..formats import load_problem
from ..rules.names import display_text
from .errors import UsageError
from .report import print_json, schedule_text

__all__ = ["run"]

# What each stage is, as the text output says it.
_STAGES = {"raw": "the lowest-energy sample as it stands",
           "repaired": "the best sample repaired to the literal bounds, best k",
           "polished": "the repaired rule polished by literal swaps, additions and removals"}


def run(args) -> int:
    """`boolrules decode`: decode SAMPLES of the export SIDECAR describes and print each stage's rule."""
    loaded = load_problem(args.sidecar)
    try:
        samples = json.load(sys.stdin) if args.samples == "-" else json.loads(Path(args.samples).read_text())
    except (ValueError, RecursionError) as err:
        raise UsageError(f"SAMPLES: {args.samples} is not JSON: {err}") from None
    decoding = loaded.decode(samples, polish=args.polish)
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
    print(f"problem:    {loaded.problem.label} {what} of {display_text(str(loaded.sidecar['file']))} ({loaded.format}), "
          f"{loaded.problem.num_samples} samples x {loaded.problem.num_features} features")
    if schedule is not None:
        print(f"schedule:   {schedule_text(schedule)} (recommended at export)")
    judged = ("every row of the ILP" if loaded.qubo is None
              else "the literal bounds and hard rows; η and slack not judged")
    print(f"samples:    {r.num_samples} read, {r.num_distinct} distinct, {r.num_feasible} feasible as they stand "
          f"({judged}); the lowest energy {r.energy:.6g}")
    for name, stage in r.stages.items():
        found = ("infeasible" if stage.rule is None
                 else f"{stage.rule.to_str(names)}  objective {stage.objective:.6g}")
        print(f"{name + ':':<12}{found}  ({_STAGES[name]})")
    print(f"rule:       {r.rule.to_str(names)}  objective {r.objective:.6g}  (stage {r.stage})")
    return 0
