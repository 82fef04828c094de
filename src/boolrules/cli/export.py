"""`boolrules export`: write a depth-one model, or its QUBO, to a file with a sidecar that
`boolrules decode` reads."""

from __future__ import annotations

from pathlib import Path

from ..formats import export_problem, export_qubo, sidecar_path
from ..rules.names import display_text
from .backend import running
from .choices import EXPORT_FORMATS
from .data import depth_one_problem, load_data, resolve_caps, split
from .errors import UsageError
from .report import Steps, data_info, print_json, rows_text, schedule_text, split_info

__all__ = ["run"]


def run(args) -> int:
    """`boolrules export`: write the problem `solve` solves with the same options (or its QUBO) in
    `--format` to `--output`, with its sidecar."""
    content, fmt = EXPORT_FORMATS[args.format]
    resolve_caps(args)
    path = Path(args.output)
    if not path.parent.is_dir():
        raise UsageError(f"--output: folder {path.parent} does not exist")
    if path.is_dir():
        raise UsageError(f"--output: {path} is a folder; give a file name")
    with Steps(args, 3 if content == "model" else 4) as step:
        step("loading data")
        data = load_data(args)
        step("building the model")
        X_train, _, y_train, y_test = split(data, args)
        problem = depth_one_problem(args, data, X_train, y_train)
        if content == "qubo":
            step("compiling the QUBO")
            qubo = problem.to_qubo(eta=args.eta, penalty=args.penalty, slack=args.slack)
        step(f"writing {args.format}")
        with running(f"writing {args.format}"):
            try:
                written = (export_problem(problem, path, fmt) if content == "model"  # named by the problem's features
                           else export_qubo(qubo, path, fmt, max_qubits=args.max_qubits))
            except OSError as err:  # the file cannot be written there: bad input, not a failed solver
                raise UsageError(f"--output: {err}") from err
    if content == "model" or fmt == "cqm":  # a CQM file holds the ILP itself, not its QUBO
        content = "model"
        sizes = {"num_variables": problem.num_variables, "num_constraints": problem.num_constraints}
        what = f"the {problem.label} model: {sizes['num_variables']} variables, {sizes['num_constraints']} constraints"
    else:
        sizes = {"num_variables": qubo.num_variables, "num_interactions": qubo.bqm.num_interactions,
                 "eta": qubo.eta, "slack": qubo.slack, "penalty": args.penalty, "ground_state": qubo.guarantee,
                 "schedule": qubo.schedule}
        what = (f"the {problem.label} QUBO ({qubo.compilation}, {args.penalty} penalties): "
                f"{sizes['num_variables']} variables, {sizes['num_interactions']} interactions")
    sidecar = sidecar_path(written)
    result = {**data_info(data, args), **split_info(args, len(y_train), len(y_test), problem.num_samples),
              "path": str(written), "format": args.format, "content": content, "bytes": written.stat().st_size,
              "sidecar": str(sidecar), **sizes}
    if args.json:
        print_json(result)
        return 0
    print(f"wrote {written} ({args.format}, {result['bytes']} bytes): {what}")
    print(f"from {display_text(str(data.name))}: {rows_text(result)}, the rows `solve` takes with these options")
    print(f"and its sidecar {sidecar} (`boolrules decode {sidecar} SAMPLES` decodes answers)")
    if content == "qubo":
        print(f"ground state: {sizes['ground_state']}")
        print(f"recommended: {schedule_text(sizes['schedule'])}")
    return 0
