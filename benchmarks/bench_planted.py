"""Planted rules recovered within a time budget: local-only search against non-local moves.

Each problem is 3000 training rows x 30 random features labelled by a planted rule with 2.5% of
the labels flipped (`--noise`), and 3000 clean test rows; a rule is recovered when its test balanced
accuracy is >= 0.99. Every fit runs on one core (`n_jobs=1`) with the same `time_budget`; the
variants of one problem and seed run one after the other. By default depth-one planted rules get
depth-one non-local moves on `native`; depth-two ones get the DNF/CNF moves too, on `native`;
`--oracles` runs chosen oracles on every problem instead ("+shapes3": DNF/CNF moves of up to three
terms; "-shapes3-only": those moves alone). "DNF3" and "CNF3" (issue 28) have three terms of 2, 3
and 2 literals: complexity 11.

Run (the numbers in benchmarks/README.md):
    .venv/bin/python benchmarks/bench_planted.py --budget 30 --seeds 0 1 2
    .venv/bin/python benchmarks/bench_planted.py --time-limits 1 0.1 0.03 --no-local   # per-call limits
    .venv/bin/python benchmarks/bench_planted.py --oracles native highs+shapes --seeds 0 1 2 3
    .venv/bin/python benchmarks/bench_planted.py --no-quench-too   # with and without the quench
    .venv/bin/python benchmarks/bench_planted.py --problems DNF3 CNF3 --noise 0.02 --max-complexity 12 \
        --oracles native+shapes highs+shapes native+shapes3 --seeds 0 1 2   # issue 28's three-term rules
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from boolrules import RuleClassifier
from boolrules.localsearch.oracle import POLICIES
from boolrules.rules import And, AtLeast, AtMost, Choose, Literal, Or, Shape

x = [Literal(j) for j in range(30)]
PLANTED = {
    "AtLeast3 of 5": AtLeast(3, x[0], ~x[1], x[2], ~x[3], x[4]),
    "And(Choose1, AtMost1)": And(Choose(1, x[5], x[6]), AtMost(1, x[7], ~x[8], x[9]), x[10]),
    "DNF": Or(And(x[5], x[6], ~x[7]), And(x[8], ~x[9])),
    "CNF": And(Or(x[11], ~x[12]), Or(x[13], x[14], ~x[15])),
    "DNF3": Or(And(x[0], x[1]), And(x[2], ~x[3], x[4]), And(~x[5], x[6])),
    "CNF3": And(Or(x[11], ~x[12]), Or(x[13], x[14], ~x[15]), Or(~x[16], x[17])),
}
OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]
SHAPES3 = [Shape("DNF", Or, And, max_terms=3), Shape("CNF", And, Or, max_terms=3)]
ORACLES = {"native": {"nonlocal_backend": "native"},  # the default oracle: three-term DNF/CNF (stop 38) and keep moves (39)
           "native-depth-one": {"nonlocal_backend": "native", "nonlocal_operators": OPERATORS},  # the default before stop 38
           "native+shapes": {"nonlocal_backend": "native", "nonlocal_operators": [*OPERATORS, "DNF", "CNF"]},
           "highs+shapes": {"nonlocal_backend": "highs", "nonlocal_operators": [*OPERATORS, "DNF", "CNF"]},
           "native+shapes3": {"nonlocal_backend": "native", "nonlocal_operators": [*OPERATORS, *SHAPES3]},  # stop 38's default
           "native-shapes3-only": {"nonlocal_backend": "native", "nonlocal_operators": SHAPES3}}


def planted_problem(rule, seed, n=3000, m=30, noise=0.025):
    """Noisy training rows and clean test rows of `m` random 0/1 features labelled by `rule`."""
    rng = np.random.default_rng(seed)
    X_train, X_test = (rng.integers(0, 2, (n, m), dtype=np.uint8) for _ in range(2))
    y_train = rule.evaluate(X_train) ^ (rng.random(n) < noise)
    return X_train, y_train.astype(np.uint8), X_test, rule.evaluate(X_test).astype(np.uint8)


def variants(rule, time_limits=(), local=True, no_quench=False, policies=(), oracles=(), max_samples=()) -> dict:
    """local-only, and non-local moves on each of `oracles` (default: the one that fits the planted
    rule's depth), with the default nonlocal_time_limit, policy and max_samples, or one variant per
    limit in `time_limits`, per policy in `policies` and per value in `max_samples`; with `no_quench`
    each also without the quench."""
    named = [(f" {oracle}", ORACLES[oracle]) for oracle in oracles] or [
        ("", ORACLES["native" if rule.depth == 1 else "native+shapes"])]
    found = {"local": {}} if local else {}
    limits = [(f", {limit:g} s per call", {"nonlocal_time_limit": limit}) for limit in time_limits] or [("", {})]
    kinds = [(f", {policy}", {"nonlocal_policy": policy}) for policy in policies] or [("", {})]
    sizes = [(f", max_samples {size}", {"max_samples": size}) for size in max_samples] or [("", {})]
    found.update({f"+ non-local{oracle}{name}{kind}{sized}": {**params, **limit, **policy, **size}
                  for oracle, params in named for name, limit in limits for kind, policy in kinds
                  for sized, size in sizes})
    if no_quench:
        found = {key: value for name, params in found.items()
                 for key, value in ((name, params), (f"{name}, no quench", {**params, "quench": False}))}
    return found


def fit(params, seed, args, X_train, y_train, X_test, y_test) -> dict:
    clf = RuleClassifier(max_complexity=args.max_complexity, num_starts=args.num_starts, num_iterations=None,
                         time_budget=args.budget, random_state=seed, binarizer=None, n_jobs=1, **params)
    clf.fit(X_train, y_train)
    stats = clf.nonlocal_stats_
    return {"train": clf.best_score_, "test": clf.score(X_test, y_test), "iterations": float(np.mean(clf.n_iter_)),
            "calls": 0 if stats is None else stats.calls, "seconds": clf.fit_seconds_, "rule": str(clf.best_rule_)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", nargs="+", default=list(PLANTED), choices=list(PLANTED))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per fit")
    parser.add_argument("--num-starts", type=int, default=4)
    parser.add_argument("--max-complexity", type=int, default=10)
    parser.add_argument("--noise", type=float, default=0.025, help="share of training labels flipped")
    parser.add_argument("--time-limits", type=float, nargs="+", default=(),
                        help="non-local variants with these nonlocal_time_limit seconds (default: one, \"auto\")")
    parser.add_argument("--no-local", dest="local", action="store_false", help="skip the local-only variant")
    parser.add_argument("--policies", nargs="+", default=(), choices=POLICIES,
                        help="non-local variants with these nonlocal_policy values (default: one, the default)")
    parser.add_argument("--oracles", nargs="+", default=(), choices=list(ORACLES),
                        help="non-local variants on these oracles (default: native for depth-one planted rules, "
                             "native+shapes for deeper ones)")
    parser.add_argument("--max-samples", type=int, nargs="+", default=(),
                        help="non-local variants with these max_samples (default: one, the default)")
    parser.add_argument("--no-quench-too", dest="no_quench", action="store_true",
                        help="run each variant also with quench=False")
    args = parser.parse_args(argv)
    print(f"{args.num_starts} starts per fit sharing a {args.budget:g} s budget on one core, max_complexity "
          f"{args.max_complexity}, noise {args.noise:g}; seeds {args.seeds}.\n")
    results = defaultdict(list)
    for problem in args.problems:
        rule = PLANTED[problem]
        for seed in args.seeds:
            data = planted_problem(rule, seed, noise=args.noise)
            for name, params in variants(rule, args.time_limits, args.local, args.no_quench, args.policies,
                                         args.oracles, args.max_samples).items():
                row = fit(params, seed, args, *data)
                results[problem, name].append(row)
                print(f"  {problem} seed {seed} {name}: train {row['train']:.4f} test {row['test']:.4f} "
                      f"{row['iterations']:,.0f} it/start {row['calls']} calls {row['seconds']:.1f} s  {row['rule']}",
                      flush=True)
    print("\n| planted rule | moves | recovered | train BA | test BA | iterations per start | oracle calls | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (problem, name), rows in results.items():
        mean = {key: np.mean([r[key] for r in rows]) for key in ("train", "test", "iterations", "calls", "seconds")}
        recovered = sum(r["test"] >= 0.99 for r in rows)
        print(f"| {problem} | {name} | {recovered}/{len(rows)} | {mean['train']:.4f} | {mean['test']:.4f} | "
              f"{mean['iterations']:,.0f} | {mean['calls']:.0f} | {mean['seconds']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
