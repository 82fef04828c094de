"""The data a command reads (`--dataset` or `--csv`), its train/test split, and the depth-one
problem the problem options build on it."""

from __future__ import annotations

import math

from ..backends.config import problem_caps
from ..datasets import Dataset, load_csv, load_dataset
from ..depth_one_classifier import DepthOneClassifier
from ..formulations import DepthOneProblem
from .errors import UsageError

__all__ = ["binarizer", "depth_one_classifier", "depth_one_problem", "load_data", "num_bins", "resolve_caps", "split"]

LEARNERS = ("fit", "explain")  # commands that learn a rule as `RuleClassifier` does, with its binarizer


def num_bins(args) -> int | str:
    """--num-bins, or the command's default: the Python estimators' "auto" for the rule learners
    (`fit`, `explain`), the paper's 10 for the depth-one commands (`solve`, `inspect`, `export`)."""
    if args.num_bins is not None:
        return args.num_bins
    return "auto" if args.command in LEARNERS else 10


def load_data(args) -> Dataset:
    """The data that `--dataset` or `--csv/--label/--positive` name."""
    if args.csv is None:
        if args.label is not None or args.positive is not None:
            raise UsageError("--label and --positive go with --csv PATH")
        return load_dataset(args.dataset or "breast_cancer", num_bins=num_bins(args), paper_layout=args.paper_layout,
                            missing=args.missing)
    if args.label is None:
        raise UsageError("--csv needs --label COLUMN, the column that holds the class")
    return load_csv(args.csv, args.label, args.positive, num_bins=num_bins(args), positive_name="--positive",
                    paper_layout=args.paper_layout, missing=args.missing)


def binarizer(data: Dataset, args):
    """An unfitted copy of the binarizer that made `data.X` (its --num-bins), cutting where --thresholds
    says: a split's training rows (and labels) are binarized by it."""
    from sklearn.base import clone

    return clone(data.binarizer).set_params(thresholds=args.thresholds)


def split(data: Dataset, args):
    """The stratified train/test split of the raw columns (binarized later, on the training rows),
    drawn with --seed; --test-size 0: every row trains and the test part is empty."""
    if args.test_size == 0:
        return data.raw, data.raw.iloc[:0], data.y, data.y[:0]
    from sklearn.model_selection import train_test_split

    num_rows = len(data.y)
    num_test = math.ceil(args.test_size * num_rows)  # as train_test_split rounds
    if min(num_test, num_rows - num_test) < 2:
        raise UsageError(f"--test-size {args.test_size} leaves {num_test} test and {num_rows - num_test} training rows "
                         f"of {num_rows}; each part needs a row of each class (--test-size 0: every row trains)")
    return train_test_split(data.raw, data.y, test_size=args.test_size, stratify=data.y, random_state=args.seed)


def resolve_caps(args, spec=None) -> None:
    """`--max-samples` and `--max-features` given as auto, as `DepthOneClassifier` reads "auto": the
    [problem] table of the backend's .toml file (`spec`) where it has them, else every row and feature."""
    caps = {} if spec is None else problem_caps(spec)
    for key in ("max_samples", "max_features"):
        if getattr(args, key) == "auto":
            setattr(args, key, caps.get(key))


def depth_one_classifier(args, data: Dataset, backend="highs") -> DepthOneClassifier:
    """`DepthOneClassifier` with the problem options, binarizing as `data` was binarized and seeded
    with --seed: `solve` fits it on the training rows, `export` and `inspect` build its problem."""
    return DepthOneClassifier(
        binarizer=binarizer(data, args), operator=args.operator, max_num_literals=args.max_num_literals,
        min_num_literals=args.min_num_literals, lam=args.lam, negated=args.negated, backend=backend,
        max_samples=args.max_samples, max_features=args.max_features, feature_score=args.feature_score,
        random_state=args.seed,
    )


def depth_one_problem(args, data: Dataset, X_train, y_train) -> DepthOneProblem:
    """The depth-one problem `solve` solves with the same options: built by `DepthOneClassifier`
    from the training rows (`split`), binarized on them, with `--max-samples` of them drawn
    (stratified) with --seed and the `--max-features` best features on them."""
    return depth_one_classifier(args, data).build_problem(X_train, y_train)
