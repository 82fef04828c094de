"""`boolrules explain`: fit a rule as `fit` does (there is no saved model), then explain its
prediction for one row of the data."""

from __future__ import annotations

from .data import load_data
from .errors import UsageError
from .fit import fitted
from .report import data_info, data_lines, print_json, split_info

__all__ = ["run"]


def run(args) -> int:
    """`boolrules explain`: fit as `fit` does, then explain the prediction for `--row`."""
    data = load_data(args)
    if not 0 <= args.row < len(data.y):
        raise UsageError(f"--row: {args.row} is not a row of {data.name}, which has rows 0 to {len(data.y) - 1}")
    clf, (X_train, _, y_train, y_test), _, seconds = fitted(args, data)
    explanation = clf.explain(data.raw.iloc[[args.row]])
    split = "training" if args.row in X_train.index else "test"
    result = {**data_info(data, args), **split_info(args, len(y_train), len(y_test)), "rule": clf.rule_text_,
              "rule_indices": str(clf.rule_), "complexity": clf.rule_.complexity, "row": args.row, "split": split,
              "label": int(data.y[args.row]), "seconds": seconds, "explanation": explanation.to_dict()}
    if args.json:
        print_json(result)
        return 0
    print("\n".join(data_lines(data, args, f"{result['train_rows']} train, {result['test_rows']} test; binarized on "
                                           "the training rows")))
    print(f"rule:       {result['rule']}")
    print(f"row:        {args.row} (of the {split} split), label {result['label']}")
    print(explanation.to_text())
    return 0
