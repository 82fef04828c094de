"""The `boolrules` command line: learn rules, and solve, inspect or export depth-one problems
(inspect depth-two ones too), and decode samples of an export solved elsewhere.

Exit status: 0 success, 1 a solver or backend failed at run time, 2 bad usage or bad input,
130 interrupted. Errors are one line on stderr, `boolrules: error: ...`, without a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from contextlib import contextmanager, nullcontext
from inspect import Parameter, signature
from pathlib import Path

__all__ = ["EXPORT_FORMATS", "build_parser", "main"]

# The parser's choices and defaults, copied from the library so that building and running the parser
# (`--help`, a usage error) imports none of it: numpy, scikit-learn, Pyomo and dimod take seconds to
# load. A command imports them when it runs (`_load_library`). tests/test_cli.py checks every copy
# against the library's value (its source is named beside each).
_MAX_SEED = 2**31 - 1  # seeding.MAX_SEED
_OPERATORS = ("Or", "And", "AtLeast", "AtMost", "Choose")  # rules.OPERATORS
_SHAPES = ("DNF", "CNF")  # rules.SHAPES
_METRICS = ("balanced_accuracy", "accuracy", "f1", "precision", "recall", "matthews_corrcoef",
            "jaccard")  # metrics.METRICS
_POLICIES = ("random", "gain", "sweep")  # localsearch.oracle.POLICIES
_FEATURE_SCORES = ("error", "mutual_info")  # formulations.preselection.FEATURE_SCORES
_PENALTY_MODES = ("sufficient", "calibrated", "tuned")  # formulations.qubo_problem.PENALTY_MODES
_SLACK_MODES = ("minimal", "below", "above", "paired", "window")  # formulations.qubo.SLACK_MODES
_QPU_TOPOLOGIES = ("pegasus", "zephyr")  # backends.hardware.QPU_TOPOLOGIES
_QPU_EMBEDDING_TIMEOUT = 60  # backends.hardware.QPU_EMBEDDING_TIMEOUT
_PROBLEM_FORMATS = ("lp", "mps", "ommx")  # formats.PROBLEM_FORMATS
_QUBO_FORMATS = ("bqm", "json", "cqm", "ising", "qubo", "lp", "qasm3", "npz", "mtx", "ommx")  # formats.QUBO_FORMATS
# python_defaults(), the options of the depth-one problem and of its QUBO
_PROBLEM_DEFAULTS = {"operator": "AtLeast", "max_num_literals": 4, "min_num_literals": 0, "negated": False,
                     "lam": 0.0, "max_samples": None, "max_features": None, "feature_score": "error",
                     "eta": "auto", "penalty": "sufficient", "slack": "paired"}
# _learner_defaults(), the options of `fit` and `explain`
_LEARNER_DEFAULTS = {"max_complexity": 10, "max_depth": None, "operators": list(_OPERATORS),
                     "metric": "balanced_accuracy", "num_starts": 20, "num_iterations": 2000, "time_budget": None,
                     "lam": 0.0, "n_jobs": None, "max_samples": "auto", "nonlocal_time_limit": "auto",
                     "nonlocal_time_share": 0.25, "nonlocal_policy": "random", "scan_moves": 0.0}


def _load_library() -> None:
    """Import what the commands use into this module (seconds), once the command line is parsed."""
    global np, Backend, backend_names, unseeded, backend_from_spec, load_backend, problem_caps
    global QPU_EMBEDDING_TIMEOUT, QPU_TOPOLOGIES, embedding_report, hardware_report
    global QPU_H_RANGE, QPU_J_RANGE, SOFT_SHARE_FLOOR, best_mode, mode_report, precision_report
    global DATASETS, Dataset, load_csv, load_dataset, DepthOneClassifier
    global PROBLEM_FORMATS, QUBO_FORMATS, load_problem, sidecar_path, DepthOneProblem, depth_one, depth_two
    global FEATURE_SCORES, select_features, PENALTY_MODES, POLICIES, METRICS, balanced_sample_weight
    global score_counts, OPERATORS, SHAPES, subsample_rows

    import numpy as np

    from .backends import Backend, backend_names
    from .backends.base import unseeded
    from .backends.config import backend_from_spec, load_backend, problem_caps
    from .backends.hardware import (QPU_EMBEDDING_TIMEOUT, QPU_H_RANGE, QPU_J_RANGE, QPU_TOPOLOGIES, SOFT_SHARE_FLOOR,
                                    best_mode, embedding_report, hardware_report, mode_report, precision_report)
    from .datasets import DATASETS, Dataset, load_csv, load_dataset
    from .depth_one_classifier import DepthOneClassifier
    from .formats import PROBLEM_FORMATS, QUBO_FORMATS, load_problem, sidecar_path
    from .formulations import DepthOneProblem, depth_one, depth_two
    from .formulations.preselection import FEATURE_SCORES, select_features
    from .formulations.qubo_problem import PENALTY_MODES
    from .localsearch.oracle import POLICIES
    from .metrics import METRICS, balanced_sample_weight, score_counts
    from .rules import OPERATORS, SHAPES
    from .sampling import subsample_rows


# `boolrules export --format` names: the model's formats as they are, the QUBO's too unless the
# model has taken the name ("lp"), then with a "qubo-" prefix. Each maps to (what is written, format).
EXPORT_FORMATS = {
    **{fmt: ("model", fmt) for fmt in _PROBLEM_FORMATS},
    **{(f"qubo-{fmt}" if fmt in _PROBLEM_FORMATS else fmt): ("qubo", fmt) for fmt in _QUBO_FORMATS},
}

EPILOG = """exit status: 0 success, 1 a solver or backend failed at run time, 2 bad usage or bad input,
130 interrupted"""


class UsageError(Exception):
    """Bad usage or bad input: exit status 2."""


class SolverFailure(Exception):
    """A solver or backend failed at run time: exit status 1."""


# Data


def _load_data(args) -> Dataset:
    """The data that `--dataset` or `--csv/--label/--positive` name."""
    if args.csv is None:
        if args.label is not None or args.positive is not None:
            raise UsageError("--label and --positive go with --csv PATH")
        return load_dataset(args.dataset or "breast_cancer", paper_layout=args.paper_layout, missing=args.missing)
    if args.label is None:
        raise UsageError("--csv needs --label COLUMN, the column that holds the class")
    return load_csv(args.csv, args.label, args.positive, positive_name="--positive", paper_layout=args.paper_layout,
                    missing=args.missing)


def _binarizer(data: Dataset):
    """An unfitted copy of the binarizer that made `data.X`, so a split is binarized by the same rule."""
    from sklearn.base import clone

    return clone(data.binarizer)


def _data_info(data: Dataset, args) -> dict:
    info = {"dataset": data.name, "rows": len(data.y), "binary_features": int(data.X.shape[1])}
    if args.csv is not None:
        info["label"] = {"column": args.label, "positive": data.positive, "default": args.positive is None}
        info["dropped_rows"] = data.dropped_rows
    return info


def _data_lines(data: Dataset, args, detail: str, width: int = 12) -> list[str]:
    lines = [f"{'dataset:':<{width}}{data.name} ({len(data.y)} rows, {detail})"]
    if args.csv is not None:
        how = (" (the second of its 2 values in sorted order; --positive VALUE picks another)"
               if args.positive is None else "")
        lines.append(f"{'label:':<{width}}{args.label} == {data.positive} is positive{how}")
        if data.dropped_rows:
            lines.append(f"{'dropped:':<{width}}{data.dropped_rows} rows with missing values "
                         "(--missing indicator keeps them)")
    return lines


def _split(data: Dataset, args):
    """The stratified train/test split of the raw columns (binarized later, on the training rows)."""
    from sklearn.model_selection import train_test_split

    return train_test_split(data.raw, data.y, test_size=args.test_size, stratify=data.y, random_state=args.seed)


def _problem(args, data: Dataset):
    """The depth-one problem on all rows, or on `--max-samples` of them drawn (stratified) with
    `--seed`, on all features or the `--max-features` best on all rows."""
    rows = subsample_rows(len(data.y), args.max_samples, args.seed, labels=data.y)
    if len(np.unique(data.y[rows])) < 2:
        raise UsageError(f"the {len(rows)} rows drawn hold one class only; raise --max-samples")
    features = None
    if args.max_features is not None:  # the best features on all rows, as DepthOneClassifier picks them
        features = select_features(data.X, data.y, balanced_sample_weight(data.y), args.max_features,
                                   args.feature_score)
    problem = depth_one(
        data.X[rows], data.y[rows], args.operator,
        max_num_literals=min(args.max_num_literals, 2 * (data.X.shape[1] if features is None else len(features))),
        min_num_literals=args.min_num_literals, lam=args.lam, negated=args.negated, features=features,
    )
    return problem, rows


# Backends, progress, output


def _backend(spec, config, seed: int, time_limit: float | None = None, option: str = "--backend",
             polish: bool = True) -> Backend:
    """The backend a name or .toml path (`spec`, given as `option`) or a config file names; seeded
    with `seed` when it takes a seed that is not set, given `time_limit` when one is asked for, and
    polish=False with `--no-polish` (`polish` False)."""
    if config is None and spec not in backend_names() and Path(spec).suffix != ".toml":
        raise UsageError(f"unknown backend {spec!r}; give a .toml config or one of: {', '.join(backend_names())}")
    backend = load_backend(config) if config is not None else backend_from_spec(spec, option)
    overrides = {"seed": seed} if unseeded(backend) else {}
    if not polish:
        if "polish" not in backend.capabilities:
            raise UsageError(f"--no-polish: backend {backend.name!r} does not polish (only QUBO sampler backends "
                             f"do: sa, tabu, exact, qaoa, dwave-qpu, ...)")
        overrides["polish"] = False
    if time_limit is not None:
        if "time_limit" not in backend.capabilities:
            raise UsageError(f"--time-limit: backend {backend.name!r} takes no time limit; its options: "
                             f"{', '.join(backend.options())}")
        overrides["time_limit"] = time_limit
    return backend.with_options(**overrides)


@contextmanager
def _running(what: str):
    """Report an unexpected failure of `what` (a solver, a backend) as SolverFailure; input that it
    refuses (ValueError, TypeError) stays bad input, and a RuntimeError already says what failed."""
    try:
        yield
    except (UsageError, SolverFailure, ValueError, TypeError, RuntimeError):
        raise
    except Exception as err:
        raise SolverFailure(f"{what} failed: {err or type(err).__name__}") from err


def _show_progress(args) -> bool:
    return args.progress if args.progress is not None else sys.stderr.isatty()


class _Steps:
    """A progress bar over a command's steps, on stderr; shown with --progress, or on a terminal
    unless --no-progress."""

    def __init__(self, args, total: int):
        from tqdm import tqdm

        self._bar = tqdm(total=total, file=sys.stderr, disable=not _show_progress(args), leave=False,
                         bar_format="{desc} ({n_fmt}/{total_fmt}) [{elapsed}]")
        self._started = False

    def __call__(self, description: str) -> None:
        """Start the next step."""
        if self._started:
            self._bar.update()
        self._started = True
        self._bar.set_description_str(description)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._bar.close()


def _jsonable(value):
    """`value` with numpy scalars and arrays as Python values and non-finite floats as null."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _print_json(result: dict) -> None:
    print(json.dumps(_jsonable(result)))


def _counts(counts: dict) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items())


# Commands


def _fitted(args, data: Dataset):
    """`RuleClassifier` fitted with the search options of `fit` on the training split of `data`:
    the classifier, the split, the non-local backend (or None) and the seconds it took."""
    from .localsearch import RuleClassifier
    from .localsearch.classifier import configured_max_samples

    backend = None
    if args.nonlocal_backend is not None or args.config is not None:
        backend = _backend(args.nonlocal_backend, args.config, args.seed, option="--nonlocal-backend",
                           polish=args.polish)
    elif not args.polish:
        raise UsageError("--no-polish applies to a QUBO sampler backend: give --nonlocal-backend or --config")
    X_train, X_test, y_train, y_test = _split(data, args)
    operators = tuple(dict.fromkeys(args.operators))
    clf = RuleClassifier(
        binarizer=_binarizer(data),
        max_complexity=args.max_complexity,
        max_depth=args.max_depth,
        operators=operators,
        num_starts=args.num_starts,
        num_iterations=args.num_iterations,
        time_budget=args.time_budget,
        lam=args.lam,
        metric=args.metric,
        n_jobs=args.n_jobs,
        random_state=args.seed,
        verbose=_show_progress(args),
        nonlocal_backend=backend,
        nonlocal_operators=operators + tuple(dict.fromkeys(args.nonlocal_shapes)),
        max_samples=configured_max_samples(args.max_samples, args.config or args.nonlocal_backend),
        nonlocal_time_limit=args.nonlocal_time_limit,
        nonlocal_time_share=args.nonlocal_time_share,
        nonlocal_policy=args.nonlocal_policy,
        scan_moves=args.scan_moves,
        quench=args.quench,
    )
    start = time.perf_counter()
    with _running(f"non-local backend {backend.name!r}") if backend is not None else nullcontext():
        clf.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    return clf, (X_train, X_test, y_train, y_test), backend, seconds


def _fit(args) -> int:
    data = _load_data(args)
    clf, (X_train, X_test, y_train, y_test), backend, seconds = _fitted(args, data)
    result = {
        **_data_info(data, args),
        "rule": clf.rule_text_,
        "rule_indices": str(clf.rule_),
        "complexity": clf.rule_.complexity,
        "search_rule": clf.best_rule_.to_str(clf.feature_names_),
        "search_complexity": clf.best_rule_.complexity,
        "train_balanced_accuracy": score_counts("balanced_accuracy", y_train, clf.predict(X_train)),
        "test_balanced_accuracy": score_counts("balanced_accuracy", y_test, clf.predict(X_test)),
        "metric": args.metric,
        "train_score": clf.score(X_train, y_train),
        "test_score": clf.score(X_test, y_test),
        "seconds": seconds,
        "time_budget": args.time_budget,
        "iterations": clf.n_iter_,
        "quench_steps": [start.quench_steps for start in clf.starts_],
    }
    if clf.nonlocal_stats_ is not None:
        stats = clf.nonlocal_stats_
        result["nonlocal"] = {"backend": backend.name, "calls": stats.calls, "proposed": stats.proposed,
                              "failed": stats.failed}
    if args.describe:
        result["description"] = clf.rule_description_
    if args.json:
        _print_json(result)
        return 0
    print("\n".join(_data_lines(data, args, "binarized on the training split")))
    print(f"rule:       {result['rule']}")
    print(f"complexity: {result['complexity']}")
    if result["search_rule"] != result["rule"]:
        print(f"as found:   {result['search_rule']} (complexity {result['search_complexity']}; "
              "the rule above is its canonical form, with the same predictions)")
    if args.describe:
        print("in words:\n" + "\n".join("  " + line for line in result["description"].splitlines()))
    print(f"balanced accuracy: train {result['train_balanced_accuracy']:.4f}, "
          f"test {result['test_balanced_accuracy']:.4f}")
    if args.metric != "balanced_accuracy":
        print(f"{args.metric}: train {result['train_score']:.4f}, test {result['test_score']:.4f}")
    print(f"time:       {seconds:.2f} s ({_effort(args, clf.n_iter_)})")
    if "nonlocal" in result:
        nonlocal_ = result["nonlocal"]
        print(f"non-local:  {nonlocal_['calls']} oracle calls to {nonlocal_['backend']}, {nonlocal_['proposed']} "
              f"moves proposed, {nonlocal_['failed']} failed")
    return 0


def _explain(args) -> int:
    data = _load_data(args)
    if not 0 <= args.row < len(data.y):
        raise UsageError(f"--row: {args.row} is not a row of {data.name}, which has rows 0 to {len(data.y) - 1}")
    clf, (X_train, _, _, _), _, seconds = _fitted(args, data)
    explanation = clf.explain(data.raw.iloc[[args.row]])
    split = "training" if args.row in X_train.index else "test"
    result = {**_data_info(data, args), "rule": clf.rule_text_, "rule_indices": str(clf.rule_),
              "complexity": clf.rule_.complexity, "row": args.row, "split": split, "label": int(data.y[args.row]),
              "seconds": seconds, "explanation": explanation.to_dict()}
    if args.json:
        _print_json(result)
        return 0
    print("\n".join(_data_lines(data, args, "binarized on the training split")))
    print(f"rule:       {result['rule']}")
    print(f"row:        {args.row} (of the {split} split), label {result['label']}")
    print(explanation.to_text())
    return 0


def _effort(args, iterations) -> str:
    """The search effort: starts x iterations, or with a time budget the iterations the starts ran."""
    if args.time_budget is None:
        return f"{args.num_starts} starts x {args.num_iterations} iterations"
    low, high = int(iterations.min()), int(iterations.max())
    ran = f"{low}" if low == high else f"{low} to {high}"
    cap = "" if args.num_iterations is None else f" of at most {args.num_iterations}"
    return f"budget {args.time_budget:g} s; {args.num_starts} starts ran {ran} iterations{cap}"


def _with_caps(args, spec) -> None:
    """`--max-samples` and `--max-features`, where not given, from the [problem] table of the
    backend's .toml file (`spec`), as `DepthOneClassifier` takes them."""
    for key, value in problem_caps(spec).items():
        if getattr(args, key) is None:
            setattr(args, key, value)


def _solve(args) -> int:
    backend = _backend(args.backend, args.config, args.seed, args.time_limit, polish=args.polish)
    _with_caps(args, args.config if args.config is not None else args.backend)
    with _Steps(args, 3) as step:
        step("loading data")
        data = _load_data(args)
        X_train, X_test, y_train, y_test = _split(data, args)
        clf = DepthOneClassifier(
            binarizer=_binarizer(data), operator=args.operator,
            max_num_literals=args.max_num_literals, min_num_literals=args.min_num_literals,
            lam=args.lam, negated=args.negated, backend=backend, max_samples=args.max_samples,
            max_features=args.max_features, feature_score=args.feature_score, random_state=args.seed,
        )
        step(f"building and solving the model with {backend.name}")
        start = time.perf_counter()
        with _running(f"backend {backend.name!r}"):
            clf.fit(X_train, y_train)
        seconds = time.perf_counter() - start
        step("scoring the rule")
        r = clf.result_
        result = {
            **_data_info(data, args),
            "train_rows": len(y_train),
            "test_rows": len(y_test),
            "problem_rows": min(len(y_train), args.max_samples or len(y_train)),
            "operator": ("~" if args.negated else "") + args.operator,
            "min_num_literals": args.min_num_literals,
            "max_num_literals": args.max_num_literals,
            "max_features": args.max_features,
            "lam": args.lam,
            "backend": backend.name,
            "backend_options": {k: v for k, v in backend.options().items()
                                if v is None or isinstance(v, (bool, int, float, str, dict))},
            "rule": r.rule.to_str(clf.feature_names_),  # the depth-one problem's answer, in its operator
            "rule_indices": str(r.rule),
            "num_literals": len(r.rule.literals()),
            "status": r.status,
            "objective": r.objective,
            "bound": r.bound,
            "gap": r.gap,
            "message": r.message,
            "stage": r.stage,
            "stages": {name: {"rule": None if stage.rule is None else stage.rule.to_str(clf.feature_names_),
                              "objective": stage.objective, "feasible": stage.feasible}
                       for name, stage in r.stages.items()},
            "timing": r.timing,
            "solver_info": r.info,
            "train_balanced_accuracy": score_counts("balanced_accuracy", y_train, clf.predict(X_train)),
            "test_balanced_accuracy": score_counts("balanced_accuracy", y_test, clf.predict(X_test)),
            "seconds": seconds,
            "solver_seconds": r.seconds,
        }
    if args.json:
        _print_json(result)
        return 0
    rows = f"{result['train_rows']} train, {result['test_rows']} test"
    if result["problem_rows"] < result["train_rows"]:
        rows += f"; the problem takes {result['problem_rows']} training rows"
    print("\n".join(_data_lines(data, args, rows)))
    kept = "" if args.max_features is None else f", on the {args.max_features} best features by {args.feature_score}"
    print(f"problem:    {result['operator']} with {args.min_num_literals}..{args.max_num_literals} literals, "
          f"λ = {args.lam:g}{kept}")
    print(f"backend:    {backend.name}")
    print(f"rule:       {result['rule']}")
    detail = f" ({r.message})" if r.message and r.message.lower() != r.status.replace("_", " ") else ""
    print(f"status:     {r.status}{detail}")
    proof = [f"bound {r.bound:.6g}"] if r.bound is not None and math.isfinite(r.bound) else []
    proof += [f"gap {100 * r.gap:.2f}%"] if r.gap is not None else []
    print(f"objective:  {r.objective:.6g}" + (f" ({', '.join(proof)})" if proof else "")
          + "  (weighted errors + λ × literals on the problem's rows)")
    print(f"balanced accuracy: train {result['train_balanced_accuracy']:.4f}, "
          f"test {result['test_balanced_accuracy']:.4f}")
    steps = "".join(f", {step} {s:.2f}" for step, s in r.timing.items())
    print(f"time:       {seconds:.2f} s (solver {r.seconds:.2f} s{steps})")
    return 0


def _depth_two_problem(args, data: Dataset):
    """The depth-two problem of `--shape` on all rows, or on `--max-samples` of them drawn with `--seed`."""
    rows = subsample_rows(len(data.y), args.max_samples, args.seed)
    problem = depth_two(
        data.X[rows], data.y[rows], args.shape, max_terms=args.max_terms,
        max_literals_per_term=min(args.max_literals_per_term, data.X.shape[1]), max_complexity=args.max_complexity,
        min_terms=args.min_terms, lam=args.lam, negated=args.negated,
    )
    return problem, rows


def _inspect(args) -> int:
    if args.shape and args.max_features is not None:
        raise UsageError("--max-features applies to depth-one problems, not to --shape")
    with _Steps(args, 3 + bool(args.embed) + bool(args.modes)) as step:
        step("loading data")
        data = _load_data(args)
        step("building the model")
        problem, rows = (_depth_two_problem if args.shape else _problem)(args, data)
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
    result = {**_data_info(data, args), "problem_rows": len(rows), "formulation": formulation, "qubo": qubo,
              "hardware": hardware}
    if args.json:
        _print_json(result)
        return 0
    f = formulation
    lo, hi = f["coefficient_range"]
    print("\n".join(_data_lines(data, args, f"the problem takes {len(rows)}; {f['features']} binary features", 13)))
    if args.shape:
        cap = "" if f["max_complexity"] is None else f", at most {f['max_complexity']} nodes"
        print(f"problem:     {f['shape']} of {f['min_terms']}..{f['max_terms']} terms of at most "
              f"{f['max_literals_per_term']} literals{cap}, λ = {f['lam']:g} per node; {f['fired_samples']} samples "
              f"a term should fire on")
        print(f"variables:   {f['num_variables']}: {_counts(f['variables'])}")
    else:
        print(f"problem:     {f['operator']} with {f['min_num_literals']}..{f['max_num_literals']} literals, "
              f"λ = {f['lam']:g}; {f['positive_samples']} positive, {f['negative_samples']} negative samples")
        print(f"variables:   {f['num_variables']} (paper: {f['paper_num_variables']}): {_counts(f['variables'])}")
    print(f"constraints: {f['num_constraints']}: {_counts(f['constraints'])}")
    print(f"nonzeros:    {f['nonzeros']}, |coefficients| in [{lo:g}, {hi:g}]")
    print(f"QUBO:        {qubo['num_variables']} variables, {qubo['num_interactions']} interactions "
          f"({'with' if qubo['eta'] else 'without'} η, {args.penalty} penalties soft {qubo['penalties']['soft']:.4g} "
          f"/ hard {qubo['penalties']['hard']:.4g}, {qubo['slack']} slack)")
    print(f"  ground state: {qubo['ground_state']}")
    print(f"  blocks:    {_counts(qubo['blocks'])}")
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


def _export(args) -> int:
    content, fmt = EXPORT_FORMATS[args.format]
    path = Path(args.output)
    if not path.parent.is_dir():
        raise UsageError(f"--output: folder {path.parent} does not exist")
    if path.is_dir():
        raise UsageError(f"--output: {path} is a folder; give a file name")
    with _Steps(args, 3 if content == "model" else 4) as step:
        step("loading data")
        data = _load_data(args)
        step("building the model")
        problem, rows = _problem(args, data)
        if content == "qubo":
            step("compiling the QUBO")
            qubo = problem.to_qubo(eta=args.eta, penalty=args.penalty, slack=args.slack)
        step(f"writing {args.format}")
        with _running(f"writing {args.format}"):
            try:
                from .formats import export_problem, export_qubo

                written = (export_problem(problem, path, fmt, data.feature_names) if content == "model"
                           else export_qubo(qubo, path, fmt, data.feature_names))
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
    result = {**_data_info(data, args), "problem_rows": len(rows), "path": str(written), "format": args.format,
              "content": content, "bytes": written.stat().st_size, "sidecar": str(sidecar), **sizes}
    if args.json:
        _print_json(result)
        return 0
    print(f"wrote {written} ({args.format}, {result['bytes']} bytes): {what}, from {len(rows)} rows of {data.name}")
    print(f"and its sidecar {sidecar} (`boolrules decode {sidecar} SAMPLES` decodes answers)")
    if content == "qubo":
        print(f"ground state: {sizes['ground_state']}")
        print(f"recommended: {_schedule_text(sizes['schedule'])}")
    return 0


def _schedule_text(schedule: dict) -> str:
    """A sampler schedule (`QuboProblem.schedule`) in one line."""
    hot, cold = schedule["beta_range"]
    return (f"{schedule['sampler']}, {schedule['num_reads']} reads x {schedule['num_sweeps']} sweeps, "
            f"{schedule['beta_schedule_type']} beta {hot:.4g} -> {cold:.4g}")


def _decode(args) -> int:
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
        _print_json(result)
        return 0
    r = decoding
    what = "model" if qubo is None else f"QUBO ({qubo.compilation})"
    print(f"problem:    {loaded.problem.label} {what} of {loaded.sidecar['file']} ({loaded.format}), "
          f"{loaded.problem.num_samples} samples x {loaded.problem.num_features} features")
    if schedule is not None:
        print(f"schedule:   {_schedule_text(schedule)} (recommended at export)")
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


def _datasets(args) -> int:
    if not args.json:
        for name in DATASETS:
            print(name)
        return 0
    from tqdm import tqdm

    rows = []
    for name in tqdm(DATASETS, desc="loading datasets", file=sys.stderr, disable=not _show_progress(args),
                     leave=False):
        try:
            data = load_dataset(name)
        except (FileNotFoundError, ValueError) as err:  # missing or corrupt file
            rows.append({"name": name, "error": str(err)})
            continue
        rows.append({"name": name, "rows": len(data.y), "columns": int(data.raw.shape[1]),
                     "binary_features": int(data.X.shape[1]), "positive_rate": float(data.y.mean())})
    _print_json({"datasets": rows})
    return 0


# Parser


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors reported as `boolrules: error: ...` like every other error."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, f"boolrules: error: {message}\n")


def _iterations(text: str) -> int | None:
    """A number of iterations >= 1, or "none" (no cap: the time budget ends the search)."""
    if text.lower() == "none":
        return None
    return _positive_int(text)


def _samples(text: str) -> int | str:
    """Rows per non-local subproblem: an integer >= 1 or "auto"."""
    if text.lower() == "auto":
        return "auto"
    try:
        return _positive_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1 or auto, got {text!r}") from None


def _call_limit(text: str) -> float | str | None:
    """Seconds >= 0 per non-local solve, "auto" or "none" (the backend's own)."""
    if text.lower() in ("auto", "none"):
        return None if text.lower() == "none" else "auto"
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be seconds >= 0, auto or none, got {text!r}")
    return value


def _bounded(kind: type, low, high=None, *, open_low: bool = False, open_high: bool = False):
    """An argparse type: a finite `kind` (int or float) between `low` and `high`, so a bad value is
    refused naming the option, never by the library or dependency it is passed to."""
    what = ("an integer" if kind is int else "a number") + (" > " if open_low else " >= ") + f"{low}"
    if high is not None:
        what += (" and < " if open_high else " and <= ") + f"{high}"

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and (value > low if open_low else value >= low)
                and (high is None or (value < high if open_high else value <= high))):
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
        return value

    return parse


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def _keyword_defaults(function) -> dict:
    return {name: p.default for name, p in signature(function).parameters.items() if p.default is not Parameter.empty}


def python_defaults() -> dict:
    """The defaults of the depth-one problem and QUBO options, read from Python: `depth_one`'s
    (literal bounds, λ, preselection), `DepthOneClassifier`'s where `depth_one` has none (the
    operator, max_num_literals, max_samples) and `to_qubo`'s (η, penalties)."""
    from .depth_one_classifier import DepthOneClassifier
    from .formulations import DepthOneProblem, depth_one

    return {**DepthOneClassifier().get_params(), **_keyword_defaults(depth_one),
            **_keyword_defaults(DepthOneProblem.to_qubo)}


def _learner_defaults() -> dict:
    """`fit`'s defaults: `RuleClassifier`'s, with the operators as a list of names."""
    from .localsearch import RuleClassifier

    defaults = RuleClassifier().get_params()
    return {**defaults, "operators": list(defaults["operators"])}


def _parents() -> dict[str, argparse.ArgumentParser]:
    """Option groups that several commands share."""
    defaults = _PROBLEM_DEFAULTS
    common = _Parser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON object")
    common.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress on stderr (default: when stderr is a terminal)")

    data = _Parser(add_help=False)
    group = data.add_argument_group("data")
    source = group.add_mutually_exclusive_group()
    source.add_argument("--dataset", help="a dataset name (see `boolrules datasets`; default: breast_cancer)")
    source.add_argument("--csv", metavar="PATH", help="a CSV file with a header row, binarized on the fly")
    group.add_argument("--label", metavar="COLUMN", help="with --csv: the column that holds the class")
    group.add_argument("--positive", metavar="VALUE",
                       help="with --csv: the label value of the positive class (default: the second of two "
                            "values in sorted order)")
    group.add_argument("--missing", choices=("drop", "indicator"), default="drop",
                       help="rows with missing values: drop them (the paper) or keep them, with a `COLUMN is "
                            "missing` feature per column that has some (default: %(default)s)")
    group.add_argument("--paper-layout", action="store_true",
                       help="keep constant and duplicate binary features, as the paper counts them (300 on "
                            "breast_cancer)")
    group.add_argument("--seed", type=_bounded(int, 0, _MAX_SEED), default=0, metavar="N",
                       help="seeds the split, the row subset and the solvers (default: %(default)s)")

    split = _Parser(add_help=False)
    split.add_argument("--test-size", type=_bounded(float, 0, 1, open_low=True, open_high=True), default=0.3, metavar="FRACTION",
                       help="share of rows held out, stratified (default: %(default)s)")

    problem = _Parser(add_help=False)
    group = problem.add_argument_group("depth-one problem")
    group.add_argument("--operator", choices=list(_OPERATORS), default=defaults["operator"],
                       help="the rule's operator (default: %(default)s)")
    group.add_argument("--max-num-literals", type=_positive_int, default=defaults["max_num_literals"], metavar="N",
                       help="(default: %(default)s)")
    group.add_argument("--min-num-literals", type=_bounded(int, 0), default=defaults["min_num_literals"], metavar="N",
                       help="(default: %(default)s)")
    group.add_argument("--negated", action="store_true", default=defaults["negated"],
                       help="learn ~operator(...) instead")
    group.add_argument("--lam", type=_bounded(float, 0), default=defaults["lam"], help="penalty λ per literal (default: %(default)s)")
    group.add_argument("--max-samples", type=_positive_int, default=defaults["max_samples"], metavar="N",
                       help="build the problem on this many rows drawn (stratified) with --seed (default: all; solve takes "
                            "the [problem] max_samples of a .toml backend)")
    group.add_argument("--max-features", type=_positive_int, default=defaults["max_features"], metavar="N",
                       help="build the problem on the N best binary features by --feature-score, to fit a "
                            "size-limited backend; the rule names the original features (default: all; solve takes the "
                            "[problem] max_features of a .toml backend)")
    group.add_argument("--feature-score", choices=_FEATURE_SCORES, default=defaults["feature_score"],
                       help="how --max-features ranks features: the weighted error of the feature alone, or its "
                            "mutual information with the label (default: %(default)s)")

    qubo = _Parser(add_help=False)
    group = qubo.add_argument_group("QUBO compilation")
    group.add_argument("--eta", action=argparse.BooleanOptionalAction, default=defaults["eta"],
                       help="keep the error variables η (--no-eta: sample rows become soft penalties; default: "
                            "kept for Or and And, dropped for AtLeast, AtMost and Choose, which anneal better without)")
    group.add_argument("--penalty", choices=_PENALTY_MODES, default=defaults["penalty"],
                       help="penalty weights (default: %(default)s)")
    group.add_argument("--slack", choices=_SLACK_MODES, default=defaults["slack"],
                       help="how inequality rows are penalised: binary slack from the bound of smaller magnitude "
                            "(minimal), from one side (below, above), or paired: slack-free error and product rows "
                            "where exact, r(r-1) with half the slack elsewhere (default: %(default)s)")
    return {"common": common, "data": data, "split": split, "problem": problem, "qubo": qubo}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boolrules", description=__doc__.split("\n\n")[0], epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = _parents()
    learner = {**_LEARNER_DEFAULTS, "operators": list(_LEARNER_DEFAULTS["operators"])}

    search = _Parser(add_help=False)  # the options of the search, which `explain` runs too
    search.add_argument("--max-complexity", type=_bounded(int, 3), default=learner["max_complexity"], help="(default: %(default)s)")
    search.add_argument("--max-depth", type=_bounded(int, 1), default=learner["max_depth"], help="(default: unbounded)")
    search.add_argument("--operators", nargs="+", choices=list(_OPERATORS), default=learner["operators"],
                        metavar="OPERATOR", help=f"operators the rule may use ({', '.join(_OPERATORS)}; default: all)")
    search.add_argument("--metric", choices=list(_METRICS), default=learner["metric"],
                        help="the score to maximise (default: %(default)s)")
    search.add_argument("--num-starts", type=_bounded(int, 1), default=learner["num_starts"], help="(default: %(default)s)")
    search.add_argument("--num-iterations", type=_iterations, default=learner["num_iterations"], metavar="N",
                        help="iterations per start; with --time-budget a cap, or none for no cap "
                             "(default: %(default)s)")
    search.add_argument("--time-budget", type=_bounded(float, 0, open_low=True), default=learner["time_budget"], metavar="SECONDS",
                        help="seconds for the whole search: every start cools down over its share and the best rule "
                             "so far is returned (default: none; not exactly repeatable, it depends on the machine)")
    search.add_argument("--lam", type=_bounded(float, 0), default=learner["lam"], help="complexity penalty (default: %(default)s)")
    search.add_argument("--n-jobs", type=int, default=learner["n_jobs"], help="parallel workers for the starts")
    backend = search.add_mutually_exclusive_group()
    backend.add_argument("--nonlocal-backend", metavar="NAME_OR_TOML", default=None,
                         help="backend for non-local moves: a name (highs, sa, ...) or a .toml config; "
                              "default: local moves only")
    backend.add_argument("--config", metavar="FILE", help="the non-local backend from a TOML config file")
    search.add_argument("--max-samples", type=_samples, default=learner["max_samples"], metavar="N",
                        help="most rows in a non-local subproblem, or auto: the [problem] max_samples of a .toml "
                             "backend, else 400 on native and 100 on the others (default: %(default)s)")
    search.add_argument("--nonlocal-shapes", nargs="+", choices=list(_SHAPES), default=[], metavar="SHAPE",
                        help=f"depth-two non-local moves besides the operators ({', '.join(_SHAPES)}; a backend that "
                             "takes depth-two problems, such as highs)")
    search.add_argument("--nonlocal-time-limit", type=_call_limit, default=learner["nonlocal_time_limit"],
                        metavar="S", help="seconds per non-local solve, none for the backend's own, or auto: 1 s, "
                                          "and under --time-budget 0.4%% of each start's time (default: %(default)s)")
    search.add_argument("--nonlocal-time-share", type=_bounded(float, 0, 1, open_low=True), default=learner["nonlocal_time_share"], metavar="F",
                        help="under --time-budget, the most of each start's time oracle calls may take "
                             "(default: %(default)s)")
    search.add_argument("--nonlocal-policy", choices=_POLICIES, default=learner["nonlocal_policy"],
                        help="how a non-local move picks its node and operator (default: %(default)s)")
    search.add_argument("--scan-moves", type=_bounded(float, 0, 1), default=learner["scan_moves"], metavar="RATE",
                        help="share of local proposals that are literal scans (default: %(default)s)")
    search.add_argument("--no-quench", dest="quench", action="store_false",
                        help="end each start at the annealing's best rule, without the steepest ascent to a local "
                             "optimum")
    search.add_argument("--no-polish", dest="polish", action="store_false",
                        help="a QUBO sampler as non-local backend: keep its repaired rule, without native literal "
                             "swaps")
    fit = sub.add_parser("fit", parents=[p["data"], p["split"], search, p["common"]], epilog=EPILOG,
                         help="learn a rule with the native simulated-annealing search",
                         description="Learn a rule with the native search on a stratified split; print it "
                                     "with its complexity, train/test balanced accuracy and time.")
    fit.add_argument("--describe", action="store_true", help="print the rule in plain language too")
    fit.set_defaults(func=_fit)

    explain = sub.add_parser("explain", parents=[p["data"], p["split"], search, p["common"]], epilog=EPILOG,
                             help="fit a rule, then explain its prediction for one row",
                             description="Fit a rule as `fit` does (there is no saved model), then explain its "
                                         "prediction for one row of the data: which conditions held, how many "
                                         "counted under each operator, and a smallest set of the row's values "
                                         "that forces the prediction.")
    explain.add_argument("--row", type=int, required=True, metavar="INDEX",
                         help="the row to explain: its position in the data (after rows with missing values "
                              "are dropped), 0-based, in the training or the test split")
    explain.set_defaults(func=_explain)

    solve = sub.add_parser("solve", parents=[p["data"], p["split"], p["problem"], p["common"]], epilog=EPILOG,
                           help="solve one depth-one problem on a backend",
                           description="Solve one depth-one problem on the training rows of a stratified "
                                       "split; print the rule, status, objective, bound and gap where known, "
                                       "train/test balanced accuracy and time.")
    backend = solve.add_mutually_exclusive_group()
    backend.add_argument("--backend", default="highs", metavar="NAME_OR_TOML",
                         help="a backend name (highs, sa, tabu, exact, ...) or a .toml config (default: %(default)s)")
    backend.add_argument("--config", metavar="FILE", help="the backend from a TOML config file")
    solve.add_argument("--time-limit", type=_bounded(float, 0), default=None, metavar="S",
                       help="seconds for the solver, for backends that take a time limit")
    solve.add_argument("--no-polish", dest="polish", action="store_false",
                       help="a QUBO sampler backend: report its repaired rule, without native literal swaps "
                            "(the objective of each stage is printed either way)")
    solve.set_defaults(func=_solve)

    inspect = sub.add_parser("inspect", parents=[p["data"], p["problem"], p["qubo"], p["common"]], epilog=EPILOG,
                             help="print the sizes of a depth-one (or depth-two) model and of its QUBO",
                             description="Build a depth-one problem (a depth-two one with --shape) on all rows "
                                         "(or --max-samples of them) and print its variables and constraints per "
                                         "block, the paper's variable count, nonzeros and coefficient range, and "
                                         "its QUBO's variables per block, largest bias and dynamic range.")
    group = inspect.add_argument_group("depth-two problem")
    group.add_argument("--shape", choices=list(_SHAPES), default=None,
                       help="inspect a depth-two problem of this shape instead (DNF: Or of Ands, CNF: And of Ors)")
    group.add_argument("--max-terms", type=_positive_int, default=2, metavar="N", help="(default: %(default)s)")
    group.add_argument("--max-literals-per-term", type=_positive_int, default=3, metavar="N",
                       help="(default: %(default)s)")
    group.add_argument("--max-complexity", type=_positive_int, default=None, metavar="N",
                       help="most nodes of the rule (default: no cap)")
    group.add_argument("--min-terms", type=_bounded(int, 0), default=0, metavar="N", help="(default: %(default)s)")
    group = inspect.add_argument_group("hardware")
    group.add_argument("--embed", choices=list(_QPU_TOPOLOGIES), default=None,
                       help="also search a minor embedding of the QUBO into a QPU graph of this topology "
                            "(minorminer, seeded with --seed)")
    group.add_argument("--embed-timeout", type=_bounded(float, 0), default=_QPU_EMBEDDING_TIMEOUT, metavar="S",
                       help="seconds the embedding search may take (default: %(default)s, as the dwave-qpu backend)")
    group.add_argument("--modes", action="store_true",
                       help="also compile the QUBO with and without η, paired and minimal slack, and compare their "
                            "size, dynamic range and the share of a QPU's range the objective keeps; name the one that "
                            "suits a QPU best")
    inspect.set_defaults(func=_inspect)

    export = sub.add_parser("export", parents=[p["data"], p["problem"], p["qubo"], p["common"]], epilog=EPILOG,
                            help="write a depth-one model or its QUBO to a file",
                            description="Write a depth-one problem (all rows, or --max-samples of them): "
                                        f"{', '.join(f for f, (c, _) in EXPORT_FORMATS.items() if c == 'model')} "
                                        "hold the ILP model, cqm the ILP as a dimod CQM, the others its QUBO.")
    export.add_argument("--format", required=True, choices=list(EXPORT_FORMATS), help="the file format")
    export.add_argument("--output", "-o", required=True, metavar="PATH", help="the file to write")
    export.set_defaults(func=_export)

    decode = sub.add_parser("decode", epilog=EPILOG,
                            help="decode samples solved elsewhere, with an export's sidecar",
                            description="Rebuild the problem an export's sidecar (FILE.boolrules.json) describes "
                                        "and decode samples of that file: print the best one's rule, its objective, "
                                        "whether the raw sample was feasible, and the repaired rule.")
    decode.add_argument("sidecar", metavar="SIDECAR", help="the sidecar written beside the exported file")
    decode.add_argument("samples", metavar="SAMPLES",
                        help="a JSON file ('-': standard input): a dict {variable: value}, a list of them, a "
                             "bitstring or a list of bitstrings (file order: the first character is variable 0), "
                             "a dimod SampleSet (to_serializable), or Qiskit counts {\"0101...\": n} "
                             "(little-endian as Qiskit prints them: the last character is variable 0)")
    decode.add_argument("--json", action="store_true", help="print one JSON object")
    decode.set_defaults(func=_decode)

    datasets = sub.add_parser("datasets", parents=[p["common"]], epilog=EPILOG,
                              help="list the datasets `--dataset` accepts",
                              description="List the dataset names; with --json, load each and give its size.")
    datasets.set_defaults(func=_datasets)
    return parser


def main(argv=None) -> int:
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help (0) or a usage error (2), already printed by argparse
            return exc.code if isinstance(exc.code, int) else 2
        _load_library()
        return args.func(args)
    except KeyboardInterrupt:
        print("boolrules: interrupted", file=sys.stderr)
        return 130
    except (SolverFailure, RuntimeError, ImportError) as exc:  # RuntimeError: e.g. no rule, no D-Wave token
        print(f"boolrules: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except (UsageError, ValueError, TypeError, OSError) as exc:  # OSError: missing or unreadable files
        print(f"boolrules: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _one_line(exc: BaseException) -> str:
    """The message of `exc` on one line (a message from a library may span several)."""
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip()) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
