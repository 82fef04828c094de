"""`boolrules inspect`: the sizes of a depth-one (or depth-two) model and of its QUBO, against what
each backend and a QPU can take."""

from __future__ import annotations

from ..backends.hardware import (QPU_H_RANGE, QPU_J_RANGE, QPU_TOPOLOGIES, SOFT_SHARE_FLOOR, best_mode,
                                 embedding_report, hardware_report, mode_report, precision_report)
from ..datasets import Dataset
from ..formulations import DepthTwoProblem, depth_two
from ..sampling import subsample_rows
from .data import binarizer, depth_one_problem, load_data, resolve_caps, split
from .errors import UsageError
from .report import Steps, counts, data_info, data_lines, print_json, rows_text, split_info

__all__ = ["run"]


def _depth_two_problem(args, data: Dataset, X_train, y_train) -> DepthTwoProblem:
    """The depth-two problem of `--shape` on the training rows of the split, binarized on them as
    `solve` binarizes its rows, or on `--max-samples` of them drawn with `--seed`."""
    X = binarizer(data, args).fit_transform(X_train, y_train)
    rows = subsample_rows(len(y_train), args.max_samples, args.seed)
    return depth_two(
        X[rows], y_train[rows], args.shape, max_terms=args.max_terms,
        max_literals_per_term=min(args.max_literals_per_term, X.shape[1]), max_complexity=args.max_complexity,
        min_terms=args.min_terms, lam=args.lam, negated=args.negated,
    )


def run(args) -> int:
    """`boolrules inspect`: build the problem and its QUBO and print their sizes, and how they fit a QPU."""
    resolve_caps(args)
    if args.shape and args.max_features is not None:
        raise UsageError("--max-features applies to depth-one problems, not to --shape")
    with Steps(args, 3 + bool(args.embed) + bool(args.modes)) as step:
        step("loading data")
        data = load_data(args)
        step("building the model")
        X_train, _, y_train, y_test = split(data, args)
        problem = (_depth_two_problem if args.shape else depth_one_problem)(args, data, X_train, y_train)
        formulation = problem.summary()
        step("compiling the QUBO")
        compiled = problem.to_qubo(eta=args.eta, penalty=args.penalty, slack=args.slack)
        qubo, hardware = compiled.summary(), hardware_report(compiled.bqm)
        hardware["precision"] = precision_report(compiled)
        if args.modes:
            step("comparing compile modes")
            modes = mode_report(problem, args.penalty)
            hardware["modes"], hardware["best_mode"] = modes, best_mode(modes)
        if args.embed:
            step(f"embedding the QUBO into a {args.embed} graph")
            hardware["embedding"] = embedding_report(compiled.bqm, args.embed, args.seed, args.embed_timeout)
    result = {**data_info(data, args), **split_info(args, len(y_train), len(y_test), problem.num_samples),
              "formulation": formulation, "qubo": qubo, "hardware": hardware}
    if args.json:
        print_json(result)
        return 0
    f = formulation
    lo, hi = f["coefficient_range"]
    print("\n".join(data_lines(data, args, f"{f['features']} binary features on the training rows", 13)))
    print(f"rows:        the problem takes {rows_text(result)}")
    if args.shape:
        cap = "" if f["max_complexity"] is None else f", at most {f['max_complexity']} nodes"
        print(f"problem:     {f['shape']} of {f['min_terms']}..{f['max_terms']} terms of at most "
              f"{f['max_literals_per_term']} literals{cap}, λ = {f['lam']:g} per node; {f['fired_samples']} samples "
              f"a term should fire on")
        print(f"variables:   {f['num_variables']}: {counts(f['variables'])}")
    else:
        print(f"problem:     {f['operator']} with {f['min_num_literals']}..{f['max_num_literals']} literals, "
              f"λ = {f['lam']:g}; {f['positive_samples']} positive, {f['negative_samples']} negative samples")
        print(f"variables:   {f['num_variables']} (paper: {f['paper_num_variables']}): {counts(f['variables'])}")
    print(f"constraints: {f['num_constraints']}: {counts(f['constraints'])}")
    print(f"nonzeros:    {f['nonzeros']}, |coefficients| in [{lo:g}, {hi:g}]")
    print(f"QUBO:        {qubo['num_variables']} variables, {qubo['num_interactions']} interactions "
          f"({'with' if qubo['eta'] else 'without'} η, {args.penalty} penalties soft {qubo['penalties']['soft']:.4g} "
          f"/ hard {qubo['penalties']['hard']:.4g}, {qubo['slack']} slack)")
    print(f"  ground state: {qubo['ground_state']}")
    print(f"  blocks:    {counts(qubo['blocks'])}")
    print(f"  biases:    max |bias| {qubo['max_abs_bias']:.4g}, min |bias| {qubo['min_abs_bias']:.4g}, "
          f"dynamic range {qubo['dynamic_range']:.4g}")
    print("\n".join(_hardware_lines(hardware, compiled.eta)))
    return 0


def _hardware_lines(hardware: dict, eta: bool) -> list[str]:
    """The QUBO's size and density against each backend's limit, and the embedding found if asked
    (or how to shrink the QUBO: with `eta`, --no-eta too)."""
    precision = hardware["precision"]
    lines = [f"hardware:    {hardware['variables']} variables, {hardware['interactions']} interactions, "
             f"density {100 * hardware['density']:.3g}%",
             f"  QPU scale: divided by {precision['scale']:.4g} to fit h in ±{QPU_H_RANGE:g} and J in "
             f"±{QPU_J_RANGE:g}, the objective and sample rows keep {100 * precision['soft_share']:.3g}% of the range"]
    for limit in hardware["limits"]:
        verdict = "fits" if limit["fits"] else "too large"
        system = f", couplers {limit['couplers']} of {limit['system']}" if "system" in limit else ""
        lines.append(f"  {limit['backend'] + ':':<11}{verdict}: {limit['limit']} {limit['value']}{system}")
    modes = hardware.get("modes")
    if modes is None:
        lines.append("  (--modes compares the compile modes for a QPU: size, dynamic range, soft share)")
    else:
        lines.append("  modes:     η    slack    variables interactions dynamic range soft share  QPU size")
        lines += [f"             {'yes' if mode['eta'] else 'no':<4} {mode['slack']:<8} {mode['variables']:>9} "
                  f"{mode['interactions']:>12} {mode['dynamic_range']:>13.4g} {100 * mode['soft_share']:>9.3g}%  "
                  f"{'fits' if mode['fits_qpu'] else 'too large'}" for mode in modes]
        best = hardware["best_mode"]
        lines.append(f"  for a QPU: {'--eta' if best['eta'] else '--no-eta'} --slack {best['slack']} (within a QPU's "
                     f"qubits and couplers first, then a soft share of {100 * SOFT_SHARE_FLOOR:g}% or more, then the "
                     "fewest variables)")
    embedding = hardware.get("embedding")
    if embedding is None:
        lines.append(f"  (a QPU also needs a minor embedding: --embed {' or '.join(QPU_TOPOLOGIES)} searches one)")
    else:
        where = f"into {embedding['topology']} ({embedding['system']})"
        if embedding["found"]:
            lines.append(f"  embedding: found {where}: {embedding['qubits']} qubits, longest chain "
                         f"{embedding['max_chain']}, {embedding['seconds']:.2f} s (seed {embedding['seed']})")
        else:
            lines.append(f"  embedding: none {where}: {embedding['reason']} (seed {embedding['seed']}); "
                         f"shrink with --max-samples, --max-features{' or --no-eta' if eta else ''}")
    return lines
