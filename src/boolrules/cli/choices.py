"""The parser's choices and defaults, copied from the library so that building and running the
parser (`--help`, a usage error) imports none of it: numpy, scikit-learn, Pyomo and dimod take
seconds to load. tests/test_cli.py checks every copy against the library's value (its source is
named beside each, and `python_defaults`/`learner_defaults` read the defaults from Python)."""

from __future__ import annotations

from inspect import Parameter, signature

__all__ = ["DATASETS", "EXPORT_FORMATS", "FEATURE_SCORES", "KEEP", "LEARNER_DEFAULTS", "MAX_SEED", "METRICS", "OPERATORS", "PENALTY_MODES",
           "POLICIES", "PROBLEM_DEFAULTS", "PROBLEM_FORMATS", "QASM3_MAX_QUBITS", "QPU_EMBEDDING_TIMEOUT", "QPU_EMBEDDING_TIMEOUT_CAP", "QPU_TOPOLOGIES", "QUBO_FORMATS",
           "SHAPES", "SLACK_MODES", "learner_defaults", "python_defaults"]

MAX_SEED = 2**31 - 1  # seeding.MAX_SEED
DATASETS = ("breast_cancer", "credit_risk", "customer_churn", "parkinsons", "home_equity", "online_shoppers",
            "direct_marketing", "credit_card_default")  # datasets.DATASETS
OPERATORS = ("Or", "And", "AtLeast", "AtMost", "Choose")  # rules.OPERATORS
SHAPES = ("DNF", "CNF")  # rules.SHAPES
KEEP = "keep"  # rules.KEEP.name
METRICS = ("balanced_accuracy", "accuracy", "f1", "precision", "recall", "matthews_corrcoef",
           "jaccard")  # metrics.METRICS
POLICIES = ("random", "gain", "sweep")  # localsearch.oracle.POLICIES
FEATURE_SCORES = ("error", "mutual_info")  # formulations.preselection.FEATURE_SCORES
PENALTY_MODES = ("sufficient", "calibrated", "tuned")  # formulations.qubo_problem.PENALTY_MODES
SLACK_MODES = ("minimal", "below", "above", "paired", "window", "unbalanced")  # formulations.qubo.SLACK_MODES
QPU_TOPOLOGIES = ("pegasus", "zephyr")  # backends.hardware.QPU_TOPOLOGIES
QPU_EMBEDDING_TIMEOUT = 60  # backends.hardware.QPU_EMBEDDING_TIMEOUT
QPU_EMBEDDING_TIMEOUT_CAP = 86_400  # backends.hardware.QPU_EMBEDDING_TIMEOUT_CAP
PROBLEM_FORMATS = ("lp", "mps", "ommx")  # formats.PROBLEM_FORMATS
QUBO_FORMATS = ("bqm", "json", "cqm", "ising", "qubo", "lp", "qasm3", "npz", "mtx", "ommx")  # formats.QUBO_FORMATS
QASM3_MAX_QUBITS = 156  # formats.files.QASM3_MAX_QUBITS
# python_defaults(), the options of the depth-one problem and of its QUBO
PROBLEM_DEFAULTS = {"operator": "AtLeast", "max_num_literals": 4, "min_num_literals": 0, "negated": False,
                    "lam": 0.0, "max_samples": "auto", "max_features": "auto", "feature_score": "error",
                    "eta": "auto", "penalty": "sufficient", "slack": "paired"}
# learner_defaults(), the options of `fit` and `explain`
LEARNER_DEFAULTS = {"max_complexity": 10, "max_depth": None, "operators": list(OPERATORS),
                    "metric": "balanced_accuracy", "num_starts": 20, "num_iterations": 2000, "time_budget": None,
                    "lam": 0.0, "n_jobs": None, "max_samples": "auto", "nonlocal_time_limit": "auto",
                    "nonlocal_time_share": 0.25, "nonlocal_policy": "random", "scan_moves": 0.0}

# `boolrules export --format` names: the model's formats as they are, the QUBO's too unless the
# model has taken the name ("lp"), then with a "qubo-" prefix. Each maps to (what is written, format).
EXPORT_FORMATS = {
    **{fmt: ("model", fmt) for fmt in PROBLEM_FORMATS},
    **{(f"qubo-{fmt}" if fmt in PROBLEM_FORMATS else fmt): ("qubo", fmt) for fmt in QUBO_FORMATS},
}


def _keyword_defaults(function) -> dict:
    return {name: p.default for name, p in signature(function).parameters.items() if p.default is not Parameter.empty}


def python_defaults() -> dict:
    """The defaults of the depth-one problem and QUBO options, read from Python: `DepthOneClassifier`'s
    (the operator, literal bounds, λ, the caps), `depth_one`'s where it has none (the feature
    score) and `to_qubo`'s (η, penalties)."""
    from ..depth_one_classifier import DepthOneClassifier
    from ..formulations import DepthOneProblem, depth_one

    return {**_keyword_defaults(depth_one), **DepthOneClassifier().get_params(),
            **_keyword_defaults(DepthOneProblem.to_qubo)}


def learner_defaults() -> dict:
    """`fit`'s defaults: `RuleClassifier`'s, with the operators as a list of names."""
    from ..localsearch import RuleClassifier

    defaults = RuleClassifier().get_params()
    return {**defaults, "operators": list(defaults["operators"])}
