"""`boolrules explain`: fit a rule as `fit` does (there is no saved model), then explain its
prediction for one row of the data."""

from __future__ import annotations

from .data import load_data
from .errors import UsageError
from .fit import fitted
from .report import data_info, data_lines, print_json

__all__ = ["run"]


def run(args) -> int:
    """`boolrules explain`: fit as `fit` does, then explain the prediction for `--row`."""
    data = load_data(args)
    if not 0 <= args.row < len(data.y):
        raise UsageError(f"--row: {args.row} is not a row of {data.name}, which has rows 0 to {len(data.y) - 1}")
    clf, (X_train, _, _, _), _, seconds = fitted(args, data)
    explanation = clf.explain(data.raw.iloc[[args.row]])
    split = "training" if args.row in X_train.index else "test"
    result = {**data_info(data, args), "rule": clf.rule_text_, "rule_indices": str(clf.rule_),
              "complexity": clf.rule_.complexity, "row": args.row, "split": split, "label": int(data.y[args.row]),
              "seconds": seconds, "explanation": explanation.to_dict()}
    if args.json:
        print_json(result)
        return 0
    print("\n".join(data_lines(data, args, "binarized on the training split")))
    print(f"rule:       {result['rule']}")
    print(f"row:        {args.row} (of the {split} split), label {result['label']}")
    print(explanation.to_text())
    return 0
