"""Expressive Boolean rules: literals and operators, evaluation, text, JSON and graph forms."""

from .bitset import BitMatrix, check_binary_matrix, evaluate
from .nodes import (
    OPERATORS,
    And,
    AtLeast,
    AtMost,
    Choose,
    Literal,
    One,
    Operator,
    Or,
    Rule,
    Zero,
    negate_name,
)
from .parse import parse
from .serialize import from_dict, from_json, to_dict

__all__ = [
    "OPERATORS",
    "And",
    "AtLeast",
    "AtMost",
    "BitMatrix",
    "Choose",
    "Literal",
    "One",
    "Operator",
    "Or",
    "Rule",
    "Zero",
    "check_binary_matrix",
    "evaluate",
    "from_dict",
    "from_json",
    "negate_name",
    "parse",
    "to_dict",
]
