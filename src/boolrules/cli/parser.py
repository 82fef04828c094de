"""The `boolrules` parser: its commands, their options and help, built without loading the
library (`choices.py` holds the copies of its choices and defaults)."""

from __future__ import annotations

import argparse
import sys

from .choices import (EXPORT_FORMATS, FEATURE_SCORES, KEEP, LEARNER_DEFAULTS, MAX_SEED, METRICS, OPERATORS, PENALTY_MODES,
                      POLICIES, PROBLEM_DEFAULTS, QASM3_MAX_QUBITS, QPU_EMBEDDING_TIMEOUT, QPU_EMBEDDING_TIMEOUT_CAP,
                      QPU_TOPOLOGIES, SHAPES, SLACK_MODES)
from .values import (MAX_STARTS, bins_or_auto, bounded, call_limit, count_or_auto, count_or_none, iterations, n_jobs,
                     positive_int, rows_or_auto, share_or_auto)

__all__ = ["build_parser"]

DESCRIPTION = """The `boolrules` command line: learn rules, and solve, inspect or export depth-one problems
(inspect depth-two ones too), and decode samples of an export solved elsewhere."""

EPILOG = """exit status: 0 success, 1 a solver or backend failed at run time, 2 bad usage or bad input,
130 interrupted"""


# Options that bound one count from both sides, checked against each other once parsed.
RANGES = (("min_num_literals", "max_num_literals"), ("min_terms", "max_terms"))


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors reported as `boolrules: error: ...` like every other error."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, f"boolrules: error: {message}\n")

    def parse_args(self, args=None, namespace=None):
        """The options, a lower bound above its upper one (`RANGES`) refused naming both options."""
        parsed = super().parse_args(args, namespace)
        for low, high in RANGES:
            lo, hi = getattr(parsed, low, None), getattr(parsed, high, None)
            if lo is not None and hi is not None and lo > hi:
                self.error(f"--{low.replace('_', '-')} {lo} is more than --{high.replace('_', '-')} {hi}")
        return parsed


def _parents() -> dict[str, argparse.ArgumentParser]:
    """Option groups that several commands share."""
    defaults = PROBLEM_DEFAULTS
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
    group.add_argument("--num-bins", type=bins_or_auto, metavar="N",
                       help="cut points per numeric column: at N quantiles, or auto: 10 below 1000 training rows, "
                            "then one per 100 rows up to 30 and a cut above a value that fills a bin (default: "
                            "auto for fit and explain, as the Python estimators' binarizer; 10, the paper's, for "
                            "the depth-one commands)")
    group.add_argument("--thresholds", choices=("quantile", "tree", "both"), default="quantile",
                       help="where numeric columns are cut: at N quantiles, at the split points of a small tree "
                            "fitted on each column against the training labels (at most N leaves), or both "
                            "(default: %(default)s)")
    group.add_argument("--paper-layout", action="store_true",
                       help="keep constant and duplicate binary features, as the paper counts them (300 on "
                            "breast_cancer)")
    group.add_argument("--seed", type=bounded(int, 0, MAX_SEED), default=0, metavar="N",
                       help="seeds the split, the row subset and the solvers (default: %(default)s)")

    split = _Parser(add_help=False)
    split.add_argument("--test-size", type=bounded(float, 0, 1, open_high=True), default=0.3, metavar="FRACTION",
                       help="share of rows held out, stratified, drawn with --seed; the rest are the training rows "
                            "(0: every row trains, no test score; default: %(default)s)")

    problem = _Parser(add_help=False)
    group = problem.add_argument_group("depth-one problem")
    group.add_argument("--operator", choices=list(OPERATORS), default=defaults["operator"],
                       help="the rule's operator (default: %(default)s)")
    group.add_argument("--max-num-literals", type=positive_int, default=defaults["max_num_literals"], metavar="N",
                       help="(default: %(default)s)")
    group.add_argument("--min-num-literals", type=bounded(int, 0), default=defaults["min_num_literals"], metavar="N",
                       help="(default: %(default)s)")
    group.add_argument("--negated", action="store_true", default=defaults["negated"],
                       help="learn ~operator(...) instead")
    group.add_argument("--lam", type=bounded(float, 0), default=defaults["lam"], help="penalty λ per literal (default: %(default)s)")
    group.add_argument("--max-samples", type=rows_or_auto, default=defaults["max_samples"], metavar="N",
                       help="build the problem on this many training rows drawn (stratified) with --seed, or auto: "
                            "all, or for solve the [problem] max_samples of a .toml backend (default: %(default)s)")
    group.add_argument("--max-features", type=count_or_auto, default=defaults["max_features"], metavar="N",
                       help="build the problem on the N best binary features by --feature-score on the training "
                            "rows, to fit a size-limited backend; the rule names the original features; auto: all, or "
                            "for solve the [problem] max_features of a .toml backend (default: %(default)s)")
    group.add_argument("--feature-score", choices=FEATURE_SCORES, default=defaults["feature_score"],
                       help="how --max-features ranks features: the weighted error of the feature alone, or its "
                            "mutual information with the label (default: %(default)s)")

    qubo = _Parser(add_help=False)
    group = qubo.add_argument_group("QUBO compilation")
    group.add_argument("--eta", action=argparse.BooleanOptionalAction, default=defaults["eta"],
                       help="keep the error variables η (--no-eta: sample rows become soft penalties; default: "
                            "kept for Or and And, dropped for AtLeast, AtMost and Choose, which anneal better without)")
    group.add_argument("--penalty", choices=PENALTY_MODES, default=defaults["penalty"],
                       help="penalty weights (default: %(default)s)")
    group.add_argument("--slack", choices=SLACK_MODES, default=defaults["slack"],
                       help="how inequality rows are penalised: binary slack from the bound of smaller magnitude "
                            "(minimal), from one side (below, above), or paired: slack-free error and product rows "
                            "where exact, r(r-1) with half the slack elsewhere; window: exact error windows without "
                            "eta; unbalanced: AtLeast/AtMost sample rows without slack, rewarding margins "
                            "(heuristic) (default: %(default)s)")
    return {"common": common, "data": data, "split": split, "problem": problem, "qubo": qubo}


def build_parser() -> argparse.ArgumentParser:
    """The `boolrules` parser; `args.command` names the command given (`main.py` runs it)."""
    parser = _Parser(prog="boolrules", description=DESCRIPTION, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = _parents()
    learner = {**LEARNER_DEFAULTS, "operators": list(LEARNER_DEFAULTS["operators"])}

    search = _Parser(add_help=False)  # the options of the search, which `explain` runs too
    search.add_argument("--max-complexity", type=bounded(int, 3), default=learner["max_complexity"], help="(default: %(default)s)")
    search.add_argument("--max-depth", type=bounded(int, 1), default=learner["max_depth"], help="(default: unbounded)")
    search.add_argument("--operators", nargs="+", choices=list(OPERATORS), default=learner["operators"],
                        metavar="OPERATOR", help=f"operators the rule may use ({', '.join(OPERATORS)}; default: all)")
    search.add_argument("--metric", choices=list(METRICS), default=learner["metric"],
                        help="the score to maximise (default: %(default)s)")
    search.add_argument("--num-starts", type=bounded(int, 1, MAX_STARTS), default=learner["num_starts"], help="(default: %(default)s)")
    search.add_argument("--num-iterations", type=iterations, default=learner["num_iterations"], metavar="N",
                        help="iterations per start; with --time-budget a cap, or none for no cap "
                             "(default: %(default)s)")
    search.add_argument("--time-budget", type=bounded(float, 0, open_low=True), default=learner["time_budget"], metavar="SECONDS",
                        help="seconds for the whole search: every start cools down over its share and the best rule "
                             "so far is returned (default: none; not exactly repeatable, it depends on the machine)")
    search.add_argument("--lam", type=bounded(float, 0), default=learner["lam"], help="complexity penalty (default: %(default)s)")
    search.add_argument("--n-jobs", type=n_jobs, default=learner["n_jobs"], metavar="N",
                        help="parallel workers for the starts; -1: one per core (default: one process)")
    backend = search.add_mutually_exclusive_group()
    backend.add_argument("--nonlocal-backend", metavar="NAME_OR_TOML", default=None,
                         help="backend for non-local moves: a name (highs, sa, ...) or a .toml config; "
                              "default: local moves only")
    backend.add_argument("--config", metavar="FILE", help="the non-local backend from a TOML config file")
    search.add_argument("--max-samples", type=count_or_auto, default=learner["max_samples"], metavar="N",
                        help="most rows in a non-local subproblem, or auto: the [problem] max_samples of a .toml "
                             "backend, else 400 on native and 100 on the others (default: %(default)s)")
    search.add_argument("--nonlocal-shapes", nargs="+", choices=[*SHAPES, KEEP, "auto", "none"], default=["auto"],
                        metavar="SHAPE",
                        help=f"non-local moves besides the operators: depth-two subtrees ({', '.join(SHAPES)}; a backend "
                             "that takes depth-two problems: native, highs, a QUBO sampler), keep (a node's sub-rule kept "
                             "beside a solved partner), none, or auto: DNF and CNF of up to three terms and keep on "
                             "native under the random policy (default: auto)")
    search.add_argument("--nonlocal-time-limit", type=call_limit, default=learner["nonlocal_time_limit"],
                        metavar="S", help="seconds per non-local solve, none for the backend's own, or auto: 1 s, "
                                          "and under --time-budget 0.4%% of each start's time (default: %(default)s)")
    search.add_argument("--nonlocal-time-share", type=share_or_auto, default=learner["nonlocal_time_share"], metavar="F",
                        help="under --time-budget, the most of each start's time oracle calls may take, or auto: "
                             "that share while the calls raise the best rule as fast as local moves, less where they "
                             "do not (default: %(default)s)")
    search.add_argument("--nonlocal-policy", choices=POLICIES, default=learner["nonlocal_policy"],
                        help="how a non-local move picks its node and operator (default: %(default)s)")
    search.add_argument("--scan-moves", type=bounded(float, 0, 1), default=learner["scan_moves"], metavar="RATE",
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

    explain = sub.add_parser("explain", parents=[p["data"], p["split"], search, p["common"]], epilog=EPILOG,
                             help="fit a rule, then explain its prediction for one row",
                             description="Fit a rule as `fit` does (there is no saved model), then explain its "
                                         "prediction for one row of the data: which conditions held, how many "
                                         "counted under each operator, and a smallest set of the row's values "
                                         "that forces the prediction.")
    explain.add_argument("--row", type=int, required=True, metavar="INDEX",
                         help="the row to explain: its position in the data (after rows with missing values "
                              "are dropped), 0-based, in the training or the test split")

    solve = sub.add_parser("solve", parents=[p["data"], p["split"], p["problem"], p["common"]], epilog=EPILOG,
                           help="solve one depth-one problem on a backend",
                           description="Solve one depth-one problem on the training rows of a stratified "
                                       "split; print the rule, status, objective, bound and gap where known, "
                                       "train/test balanced accuracy and time.")
    backend = solve.add_mutually_exclusive_group()
    backend.add_argument("--backend", default="highs", metavar="NAME_OR_TOML",
                         help="a backend name (highs, sa, tabu, exact, ...) or a .toml config (default: %(default)s)")
    backend.add_argument("--config", metavar="FILE", help="the backend from a TOML config file")
    solve.add_argument("--time-limit", type=bounded(float, 0), default=None, metavar="S",
                       help="seconds for the solver, for backends that take a time limit")
    solve.add_argument("--no-polish", dest="polish", action="store_false",
                       help="a QUBO sampler backend: report its repaired rule, without native literal swaps "
                            "(the objective of each stage is printed either way)")

    inspect = sub.add_parser("inspect", parents=[p["data"], p["split"], p["problem"], p["qubo"], p["common"]],
                             epilog=EPILOG, help="print the sizes of a depth-one (or depth-two) model and of its QUBO",
                             description="Build the depth-one problem `solve` solves with the same options (a "
                                         "depth-two one with --shape) on the training rows of the same split (or "
                                         "--max-samples of them) and print its variables and constraints per "
                                         "block, the paper's variable count, nonzeros and coefficient range, and "
                                         "its QUBO's variables per block, largest bias and dynamic range.")
    group = inspect.add_argument_group("depth-two problem")
    group.add_argument("--shape", choices=list(SHAPES), default=None,
                       help="inspect a depth-two problem of this shape instead (DNF: Or of Ands, CNF: And of Ors)")
    group.add_argument("--max-terms", type=positive_int, default=2, metavar="N", help="(default: %(default)s)")
    group.add_argument("--max-literals-per-term", type=positive_int, default=3, metavar="N",
                       help="(default: %(default)s)")
    group.add_argument("--max-complexity", type=positive_int, default=None, metavar="N",
                       help="most nodes of the rule (default: no cap)")
    group.add_argument("--min-terms", type=bounded(int, 0), default=0, metavar="N", help="(default: %(default)s)")
    group = inspect.add_argument_group("hardware")
    group.add_argument("--embed", choices=list(QPU_TOPOLOGIES), default=None,
                       help="also search a minor embedding of the QUBO into a QPU graph of this topology "
                            "(minorminer, seeded with --seed)")
    group.add_argument("--embed-timeout", type=bounded(float, 0, QPU_EMBEDDING_TIMEOUT_CAP), default=QPU_EMBEDDING_TIMEOUT,
                       metavar="S", help="seconds the embedding search may take, a hard bound (default: %(default)s, "
                                         "as the dwave-qpu backend)")
    group.add_argument("--modes", action="store_true",
                       help="also compile the QUBO with and without η, paired and minimal slack, and compare their "
                            "size, dynamic range and the share of a QPU's range the objective keeps; name the one that "
                            "suits a QPU best")

    export = sub.add_parser("export", parents=[p["data"], p["split"], p["problem"], p["qubo"], p["common"]],
                            epilog=EPILOG, help="write a depth-one model or its QUBO to a file",
                            description="Write the depth-one problem `solve` solves with the same options (the "
                                        "training rows of the same split, or --max-samples of them): "
                                        f"{', '.join(f for f, (c, _) in EXPORT_FORMATS.items() if c == 'model')} "
                                        "hold the ILP model, cqm the ILP as a dimod CQM, the others its QUBO.")
    export.add_argument("--format", required=True, choices=list(EXPORT_FORMATS), help="the file format")
    export.add_argument("--output", "-o", required=True, metavar="PATH", help="the file to write")
    export.add_argument("--max-qubits", type=count_or_none, default=QASM3_MAX_QUBITS, metavar="N",
                        help="qasm3: the largest circuit written, or none (default: %(default)s, the largest "
                             "gate-based processors')")

    decode = sub.add_parser("decode", epilog=EPILOG,
                            help="decode samples solved elsewhere, with an export's sidecar",
                            description="Rebuild the problem an export's sidecar (FILE.boolrules.json) describes "
                                        "and decode samples of that file as `solve` reports a sampler's answer: the "
                                        "lowest-energy sample as it stands (raw), the best sample repaired and, with "
                                        "--polish, polished, each rule with its objective, and how many samples were "
                                        "feasible.")
    decode.add_argument("sidecar", metavar="SIDECAR", help="the sidecar written beside the exported file")
    decode.add_argument("samples", metavar="SAMPLES",
                        help="a JSON file ('-': standard input): a dict {variable: value}, a list of them, a "
                             "bitstring or a list of bitstrings (file order: the first character is variable 0), "
                             "a dimod SampleSet (to_serializable), or Qiskit counts {\"0101...\": n} "
                             "(little-endian as Qiskit prints them: the last character is variable 0)")
    decode.add_argument("--polish", action="store_true",
                        help="polish the repaired rule by native literal swaps, additions and removals (stage "
                             "polished)")
    decode.add_argument("--json", action="store_true", help="print one JSON object")

    datasets = sub.add_parser("datasets", parents=[p["common"]], epilog=EPILOG,
                              help="list the datasets `--dataset` accepts",
                              description="List the dataset names; with --json, load each and give its size.")
    return parser
