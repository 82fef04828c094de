"""Reference evaluators: operator semantics written out plainly, row by row, which the fast
bit-packed evaluation, decoding and repair are checked against."""

import numpy as np

from boolrules.rules import Literal, One, Zero


def operator_output(operator: str, count, size: int, k):
    """Output of `operator` over `size` sub-rules of which `count` are true (k: its parameter)."""
    return {
        "Or": count >= 1,
        "And": count == size,
        "AtLeast": count >= (k or 0),
        "AtMost": count <= (k or 0),
        "Choose": count == (k or 0),
    }[operator]


def evaluate(rule, X) -> np.ndarray:
    """`rule` on each row of `X`, one row and one node at a time."""
    return np.array([_row(rule, row) for row in X], dtype=bool)


def _row(rule, row) -> bool:
    if isinstance(rule, One):
        return True
    if isinstance(rule, Zero):
        return False
    if isinstance(rule, Literal):
        value = bool(row[rule.index])
    else:
        count = sum(_row(sub, row) for sub in rule.subrules)
        value = operator_output(type(rule).__name__, count, len(rule.subrules), rule.k)
    return value != rule.negated


def depth_one_predictions(X, operator: str, literals, k) -> np.ndarray:
    """Output of `operator` over `literals` (the empty selection included) on each row of `X`."""
    X = np.asarray(X, dtype=bool)
    count = np.zeros(len(X), int)
    for lit in literals:
        count += X[:, lit.index] != lit.negated
    return operator_output(operator, count, len(literals), k)
