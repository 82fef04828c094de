"""Expressive Boolean rules: literals and operators, evaluation, text, JSON and graph forms, the
canonical form, plain-language descriptions and explanations of single decisions."""

from .bitset import BitMatrix, evaluate
from .describe import describe
from .encode import to_dict
from .explain import Explanation, explain
from .export import export_rule
from .names import negate_name, quote_name
from .nodes import Literal, One, Rule, Zero
from .operators import OPERATORS, And, AtLeast, AtMost, Choose, Operator, Or, resolve_operator, resolve_operators, simplify
from .parse import parse
from .semantics import operator_output
from .serialize import from_dict, from_json
from .shapes import KEEP, SHAPES, Keep, Shape, resolve_nonlocal_operators, resolve_shape

__all__ = [
    "OPERATORS",
    "And",
    "AtLeast",
    "AtMost",
    "BitMatrix",
    "Choose",
    "Explanation",
    "KEEP",
    "Keep",
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
