"""The non-local oracle on a QUBO sampler: how often each compile mode's *raw* sample, and its
repaired or polished rule, makes an improving move (issue 23).

Oracle calls are recorded from real searches (`RuleClassifier(max_complexity=10, nonlocal_backend=
"native")` with the five operators' depth-one moves, on binarized datasets): for each call, the rule, the node, the operator and the state of
the oracle's random generator. Each call is then replayed, interleaved, with every `--configs` sampler
backend: a fresh `NonLocalOracle` with the recorded generator state builds the same subproblem (the
same rows, the same sampler seed) and asks the backend. Per call and config:

- *raw*: the lowest-energy sample's rule as it stands (`result.stages["raw"]`, nothing if it breaks a
  hard row), spliced in at the node;
- *rule*: the backend's answer (the repaired rule with `polish=False`, the polished one with
  `polish=True`), spliced in as the oracle does.

A move *improves* when the spliced rule's weighted error on all rows is below the current rule's.
Reported per config: calls, improving moves from the raw sample and from the answer, how many raw
samples were feasible, and the median seconds per call.

Run:
    PYTHONPATH=src .venv/bin/python benchmarks/bench_oracle_stages.py --datasets breast_cancer credit_risk \
        --iterations 300 --calls 40
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from boolrules import RuleClassifier, load_dataset
from boolrules.backends import get_backend
from boolrules.localsearch.oracle import NonLocalOracle
from boolrules.rules import OPERATORS

DATASETS = ("breast_cancer", "credit_risk", "customer_churn")
# name -> the sa backend's options: today's sampler default (no η, calibrated, minimal-bound slack,
# polished) and the paired modes with polish off ("auto": η for Or and And only, the compiler's default).
CONFIGS = {
    "minimal:noeta:calibrated+polish": {"eta": False, "penalty": "calibrated", "slack": "minimal", "polish": True},
    "minimal:noeta:calibrated": {"eta": False, "penalty": "calibrated", "slack": "minimal", "polish": False},
    "paired:eta:sufficient": {"eta": True, "penalty": "sufficient", "slack": "paired", "polish": False},
    "paired:noeta:sufficient": {"eta": False, "penalty": "sufficient", "slack": "paired", "polish": False},
    "paired:auto:sufficient": {"eta": "auto", "penalty": "sufficient", "slack": "paired", "polish": False},
    "paired:auto:sufficient+polish": {"eta": "auto", "penalty": "sufficient", "slack": "paired", "polish": True},
}


def record(name: str, iterations: int, seed: int, calls: int, max_samples: int | str = "auto") -> list[dict]:
    """Up to `calls` oracle calls of one native-driven search on dataset `name` (each with the
    search's own answer), subproblems of at most `max_samples` rows."""
    data = load_dataset(name)
    kept = []
    replace = NonLocalOracle.replace

    def recording(self, rule, path, operator, memo=None, time_limit=None):
        call = {"oracle": self, "rule": rule, "path": path, "operator": operator, "state": self.rng.getstate()}
        call["answer"] = replace(self, rule, path, operator, memo, time_limit)
        if len(kept) < calls:
            kept.append(call)
        return call["answer"]

    NonLocalOracle.replace = recording
    try:
        RuleClassifier(max_complexity=10, num_starts=1, num_iterations=iterations, random_state=seed, binarizer=None,
                       nonlocal_backend="native", nonlocal_operators=list(OPERATORS),  # depth-one calls, as the issue's
                       max_samples=max_samples).fit(data.X, data.y)
    finally:
        NonLocalOracle.replace = replace
    return kept


class Keeping:
    """A backend wrapper that keeps the last `Result`."""

    def __init__(self, inner):
        self.inner, self.name, self.capabilities, self.last = inner, inner.name, inner.capabilities, None

    def options(self) -> dict:
        return self.inner.options()

    def solve(self, problem, **options):
        self.last = self.inner.solve(problem, **options)
        return self.last


def replay(call: dict, backend: Keeping) -> dict:
    """One recorded call asked of `backend`: whether its raw sample and its answer improve the rule,
    and the answer (`move`)."""
    old = call["oracle"]
    oracle = NonLocalOracle(old.bits, old.X, old.y, old.weights, old.space, backend, operators=old.operators,
                            max_samples=old.max_samples, time_limit=None, rng=random.Random())
    oracle.rng.setstate(call["state"])
    rule, path = call["rule"], call["path"]
    before = oracle._error(rule, None)
    start = time.perf_counter()
    answer = oracle.replace(rule, path, call["operator"])
    seconds = time.perf_counter() - start
    result = backend.last
    raw = None if result is None or result.stages is None else result.stages.get("raw")
    raw_move = None if raw is None or not raw.feasible else oracle._splice(rule, path, raw.rule)
    improves = lambda new: new is not None and oracle._error(new, None) < before - 1e-12  # noqa: E731
    return {"raw_feasible": raw is not None and raw.feasible, "raw": improves(raw_move), "rule": improves(answer),
            "seconds": seconds, "move": answer}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--iterations", type=int, default=300, help="iterations of each recorded search")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--calls", type=int, default=40, help="oracle calls kept per search")
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    parser.add_argument("--reads", type=int, default=100, help="sa reads per call (1000 sweeps each)")
    args = parser.parse_args(argv)

    backends = {name: Keeping(get_backend("sa", num_reads=args.reads, **CONFIGS[name])) for name in args.configs}
    rows = {name: [] for name in args.configs}
    for name in args.datasets:
        for seed in args.seeds:
            calls = record(name, args.iterations, seed, args.calls)
            print(f"{name} seed {seed}: {len(calls)} oracle calls recorded", flush=True)
            for i, call in enumerate(calls):
                for config, backend in backends.items():  # interleaved: the same load for each
                    rows[config].append(replay(call, backend))
                    shown = {k: v for k, v in rows[config][-1].items() if k != "move"}
                    shown["operator"] = getattr(call["operator"], "__name__", str(call["operator"]))
                    print(f"  call {i} {config}: {shown}", flush=True)
    print(f"\nsa, {args.reads} reads x 1000 sweeps per call; datasets {', '.join(args.datasets)}, seeds "
          f"{' '.join(map(str, args.seeds))}\n")
    print("| config | calls | raw feasible | improving moves from the raw sample | improving moves from the answer "
          "| median s per call |")
    print("|---|---:|---:|---:|---:|---:|")
    for config, found in rows.items():
        n = len(found)
        count = lambda key: sum(r[key] for r in found)  # noqa: E731
        print(f"| {config} | {n} | {count('raw_feasible')} | {count('raw')} | {count('rule')} | "
              f"{np.median([r['seconds'] for r in found]):.2f} |")
    return rows


if __name__ == "__main__":
    main()
