"""Expressive Boolean rules: literals and operators, evaluation, text, JSON and graph forms, the
canonical form, plain-language descriptions and explanations of single decisions."""

from .bitset import BitMatrix, evaluate
from .describe import describe
from .explain import Explanation, explain
from .export import export_rule
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
    quote_name,
    resolve_operator,
    resolve_operators,
)
from .parse import parse
from .semantics import operator_output
from .serialize import from_dict, from_json, to_dict
from .shapes import SHAPES, Shape, resolve_nonlocal_operators, resolve_shape
from .simplify import simplify

__all__ = [
    "OPERATORS",
    "And",
    "AtLeast",
    "AtMost",
    "BitMatrix",
    "Choose",
    "Explanation",
    "Literal",
    "One",
    "Operator",
    "Or",
    "Rule",
    "SHAPES",
    "Shape",
    "Zero",
    "describe",
    "evaluate",
    "explain",
    "export_rule",
    "from_dict",
    "from_json",
    "negate_name",
    "operator_output",
    "parse",
    "quote_name",
    "resolve_operator",
    "resolve_operators",
    "resolve_nonlocal_operators",
    "resolve_shape",
    "simplify",
    "to_dict",
]
