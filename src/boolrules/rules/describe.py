"""Rules in plain language: indented text a domain expert can read without knowing the operators.

A node is told apart by its `kind` and an operator by its class name, so describing needs no node
class and the nodes' `describe` calls it."""

from __future__ import annotations

from ..exceptions import InputTypeError
from .names import feature_name, literal_text

__all__ = ["describe", "header", "node_text"]

_INDENT = "  "
_KINDS = ("literal", "constant", "operator")


def header(op, short: bool = False) -> str:
    """What an operator asks of its sub-rules: "all of", "at least 2 of the following hold" (with
    `short`, "at least 2 of", for plot labels)."""
    k, negated, name = op.k, op.negated, type(op).__name__
    of = " of" if short else " of the following hold"
    if name == "Or":
        return "none of" if negated else "any of"
    if name == "And":
        return "not all of" if negated else "all of"
    if name == "AtLeast":
        return f"fewer than {k}{of}" if negated else f"at least {k}{of}"
    if name == "AtMost":
        return f"more than {k}{of}" if negated else f"at most {k}{of}"
    if name == "Choose":
        if negated:
            return f"not exactly {k}{of}"
        return "exactly one of" if k == 1 else f"exactly {k}{of}"
    raise InputTypeError(f"cannot describe {name}")


def node_text(node, feature_names=None, short: bool = False) -> str:
    """One line for one node: a condition, an operator's header, or a constant."""
    kind = getattr(node, "kind", None)
    if kind == "literal":
        return literal_text(node, feature_names)
    if kind == "operator":
        return header(node, short)
    if kind == "constant":
        return "always true" if node.value else "always false"
    raise InputTypeError(f"cannot describe {type(node).__name__}")


def describe(rule, feature_names=None) -> str:
    """Indented text: an operator's header ends in ":" and its sub-rules follow as "- " items, one
    level deeper."""
    if getattr(rule, "kind", None) not in _KINDS:
        raise InputTypeError(f"describe expects a rule, got {type(rule).__name__}")
    if feature_names is not None and rule.max_feature_index() >= 0:
        feature_name(feature_names, rule.max_feature_index())  # raises for names that do not fit the rule
    lines = []
    for path, node in rule.walk():
        prefix = _INDENT * (len(path) - 1) + "- " if path else ""
        suffix = ":" if node.kind == "operator" else ""
        lines.append(prefix + node_text(node, feature_names) + suffix)
    return "\n".join(lines)
