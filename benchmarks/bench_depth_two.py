"""Depth-two (DNF/CNF) problems: model and QUBO sizes, and HiGHS time per solve.

Data: `--rows` x `--features` uniformly random 0/1 features labelled by a planted DNF
Or(And(x0, x1, ~x2), And(x3, x4)) with `--noise` of the labels flipped (per seed). For each seed
and shape the depth-two problem (`--terms` terms of `--literals` literals, balanced weights) is
built, compiled to the QUBO (with η, sufficient penalties), and solved by HiGHS with `--time-limit`
(the oracle's default is 1 s); the depth-one Or problem with as many literals in all (terms x
literals) is solved beside it in the same run, as the reference time. Printed: variables and
constraints per block, QUBO variables and interactions, HiGHS status, objective, bound and
seconds per solve (build + solve, as the oracle pays) and the ratio to depth one.

With `--search ITERATIONS`, instead: `RuleClassifier` (operators Or and And, max_complexity 9, one
start, no burn-in) on the same planted data, local-only (with as many iterations and with 100 times as many, for about the same
wall time as the non-local searches), with depth-one non-local moves (Or, And) and
with DNF moves, all on HiGHS with a 1 s limit; printed per seed: the rule, whether it equals the
planted rule on fresh clean data (balanced accuracy >= 0.99 on 2000 new rows), oracle calls, seconds.

With `--oracle-calls ITERATIONS`, instead: the depth-two subproblems the non-local oracle builds in
a search (`RuleClassifier`, max_complexity 12, one start of ITERATIONS, DNF/CNF moves of up to
`--terms` terms on native, as many rows per call as native's default) on the same planted data,
recorded and then each solved by native and by HiGHS with `--time-limit` (default 10 s): per call
the rows, bounds, both statuses, objectives and seconds (build + solve), and a summary of native's
objective against HiGHS's and the ratio of their times.

Run:
    .venv/bin/python benchmarks/bench_depth_two.py --rows 1000 --features 30 --noise 0.02 --search 300 \
        --seeds 0 1 2
    .venv/bin/python benchmarks/bench_depth_two.py --rows 3000 --features 30 --noise 0.02 --oracle-calls 300 \
        --terms 3 --seeds 0 1 --time-limit 10
    .venv/bin/python benchmarks/bench_depth_two.py --rows 100 --features 30 --terms 2 --literals 3 --seeds 0 1 2 \
        --noise 0 --time-limit 60
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bench_oracle import Recording  # benchmarks/ is on the path: scripts run from it, and the tests add it

from boolrules.backends import get_backend
from boolrules.formulations import depth_one, depth_two
from boolrules.formulations.depth_two_problem import DepthTwoProblem
from boolrules.rules import And, Literal, Or, Shape

PLANTED = Or(And(Literal(0), Literal(1), ~Literal(2)), And(Literal(3), Literal(4)))


def data(rows: int, features: int, noise: float, seed: int):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (rows, features), dtype=np.uint8)
    y = PLANTED.evaluate(X).astype(np.uint8)
    flip = rng.random(rows) < noise
    y[flip] = 1 - y[flip]
    return X, y


def timed(build, backend):
    start = time.perf_counter()
    problem = build()
    result = backend.solve(problem)
    return problem, result, time.perf_counter() - start


def search(args) -> None:
    from sklearn.metrics import balanced_accuracy_score

    from boolrules import RuleClassifier

    moves = {"local": (None, ("Or",), 1), "local x100": (None, ("Or",), 100), "depth-one": ("highs", ("Or", "And"), 1),
             "DNF": ("highs", ("DNF",), 1)}
    for seed in args.seeds:
        X, y = data(args.rows, args.features, args.noise, seed)
        X_test, y_test = data(2000, args.features, 0.0, seed + 1000)
        for name, (backend, operators, factor) in moves.items():
            start = time.perf_counter()
            clf = RuleClassifier(
                max_complexity=9, operators=["Or", "And"], num_starts=1, num_iterations=args.search * factor,
                num_iterations_burn_in=0, nonlocal_backend=backend, nonlocal_operators=operators,
                nonlocal_time_limit=1.0, random_state=seed,
            ).fit(X, y)
            seconds = time.perf_counter() - start
            test = balanced_accuracy_score(y_test, clf.predict(X_test))
            calls = clf.nonlocal_stats_.calls if clf.nonlocal_stats_ is not None else 0
            print(f"seed {seed} {name:10s}: {clf.best_rule_}  train {clf.best_score_:.3f} test {test:.3f} "
                  f"{'recovered' if test >= 0.99 else 'not recovered'}, {calls} oracle calls, {seconds:.1f} s")


def oracle_calls(args) -> None:
    from boolrules import RuleClassifier

    shapes = [Shape("DNF", Or, And, max_terms=args.terms), Shape("CNF", And, Or, max_terms=args.terms)]
    limit = 10.0 if args.time_limit is None else args.time_limit
    print("| seed | call | shape | rows | terms x literals, max complexity | native | HiGHS | native s | HiGHS s |")
    print("|---|---:|---|---:|---|---|---|---:|---:|")
    rows = []
    for seed in args.seeds:
        X, y = data(args.rows, args.features, args.noise, seed)
        recording = Recording(get_backend("native"))
        RuleClassifier(max_complexity=12, num_starts=1, num_iterations=args.oracle_calls, random_state=seed,
                       binarizer=None, nonlocal_backend=recording, nonlocal_operators=shapes).fit(X, y)
        depth_two_calls = [problem for problem in recording.problems if isinstance(problem, DepthTwoProblem)]
        for call, problem in enumerate(depth_two_calls[: args.calls]):
            solved = {}
            for name in ("native", "highs"):
                _, result, seconds = timed(lambda: depth_two(
                    problem.X, problem.y, problem.shape, max_terms=problem.max_terms,
                    max_literals_per_term=problem.max_literals_per_term, max_complexity=problem.max_complexity,
                    min_terms=problem.min_terms, sample_weight=problem.weights), get_backend(name, time_limit=limit))
                solved[name] = (result, seconds)
            (native, native_s), (highs, highs_s) = solved["native"], solved["highs"]
            rows.append((native.objective, highs.objective, native_s, highs_s))
            print(f"| {seed} | {call} | {problem.label} | {problem.num_samples} | {problem.max_terms} x "
                  f"{problem.max_literals_per_term}, {problem.max_complexity} | {native.status} "
                  f"{native.objective:.4f} | {highs.status} {highs.objective:.4f} | {native_s:.3f} | {highs_s:.3f} |",
                  flush=True)
    if not rows:
        print("no depth-two calls recorded: more iterations (--oracle-calls)")
        return
    native, highs, native_s, highs_s = (np.array(column) for column in zip(*rows))
    print(f"\n{len(rows)} calls: native's objective below HiGHS's on {(native < highs - 1e-9).sum()}, equal on "
          f"{(abs(native - highs) <= 1e-9).sum()}, above on {(native > highs + 1e-9).sum()}; seconds native "
          f"median {np.median(native_s):.3f} sum {native_s.sum():.1f}, HiGHS median {np.median(highs_s):.3f} sum "
          f"{highs_s.sum():.1f}; HiGHS / native: median {np.median(highs_s / native_s):.1f}x, of the sums "
          f"{highs_s.sum() / native_s.sum():.1f}x")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--features", type=int, default=30)
    parser.add_argument("--terms", type=int, default=2)
    parser.add_argument("--literals", type=int, default=3)
    parser.add_argument("--noise", type=float, default=0.05)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--shapes", nargs="+", default=["DNF", "CNF"])
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per HiGHS solve (default: none)")
    parser.add_argument("--search", type=int, default=None, metavar="ITERATIONS",
                        help="run the search comparison with this many iterations instead")
    parser.add_argument("--oracle-calls", type=int, default=None, metavar="ITERATIONS",
                        help="record the oracle's depth-two calls in a search of this many iterations and solve "
                             "each with native and HiGHS instead")
    parser.add_argument("--calls", type=int, default=10, help="most recorded calls solved per seed")
    args = parser.parse_args(argv)
    if args.oracle_calls is not None:
        oracle_calls(args)
        return
    if args.search is not None:
        search(args)
        return
    highs = get_backend("highs", time_limit=args.time_limit)
    print(f"{args.rows} rows x {args.features} features, {args.terms} terms x {args.literals} literals, "
          f"noise {args.noise}, time limit {args.time_limit}")
    for shape in args.shapes:
        times, reference, gaps = [], [], []
        for seed in args.seeds:
            X, y = data(args.rows, args.features, args.noise, seed)
            problem, result, seconds = timed(lambda: depth_two(
                X, y, shape, max_terms=args.terms, max_literals_per_term=args.literals), highs)
            _, one, one_seconds = timed(lambda: depth_one(
                X, y, "Or", max_num_literals=args.terms * args.literals), highs)
            times.append(seconds)
            reference.append(one_seconds)
            gaps.append(one.objective - result.objective)
            if seed == args.seeds[0]:
                qubo = problem.to_qubo(eta=True, penalty="sufficient")
                print(f"{shape}: ILP {problem.num_variables} variables ({problem.variable_counts()}), "
                      f"{problem.num_constraints} constraints ({problem.constraint_counts()}), "
                      f"{problem.standard_form.A.nnz} nonzeros")
                print(f"{shape}: QUBO {qubo.num_variables} variables, {qubo.bqm.num_interactions} interactions, "
                      f"dynamic range {qubo.summary()['dynamic_range']:.3g}")
            print(f"{shape} seed {seed}: {result.status}, objective {result.objective:.4f} (bound "
                  f"{result.bound if result.bound is None else round(result.bound, 4)}; {result.rule}), "
                  f"{seconds:.3f} s; depth-one Or {one.objective:.4f} in {one_seconds:.3f} s")
        times, reference = np.array(times), np.array(reference)
        print(f"{shape}: HiGHS build+solve median {np.median(times):.3f} s (min {times.min():.3f}, max "
              f"{times.max():.3f}); depth-one Or of {args.terms * args.literals} literals median "
              f"{np.median(reference):.3f} s; ratio {np.median(times / reference):.1f}x; objective gained over "
              f"depth one: mean {np.mean(gaps):.3f}")


if __name__ == "__main__":
    main()
