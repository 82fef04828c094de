"""Rules in plain language: indented text a domain expert can read without knowing the operators."""

from __future__ import annotations

from .nodes import (
    And,
    AtLeast,
    AtMost,
    Choose,
    Literal,
    Operator,
    Or,
    Rule,
    Trivial,
    feature_name,
    has_comparison,
    negate_name,
)

__all__ = ["describe", "header", "literal_text", "node_text"]

_INDENT = "  "


def literal_text(literal: Literal, feature_names=None) -> str:
    """A literal as a condition: `age >= 50`, negated `age < 50`; a plain name `smoker`, negated
    `not smoker` (`not (temp > 37 == yes)` when it holds comparisons); without names `f3` and `not f3`."""
    name = f"f{literal.index}" if feature_names is None else feature_name(feature_names, literal.index)
    if not literal.negated:
        return name
    negated = negate_name(name)
    if negated != "~" + name:
        return negated
    return f"not ({name})" if has_comparison(name) else "not " + name


def header(op: Operator, short: bool = False) -> str:
    """What an operator asks of its sub-rules: "all of", "at least 2 of the following hold" (with
    `short`, "at least 2 of", for plot labels)."""
    k, negated, cls = op.k, op.negated, type(op)
    of = " of" if short else " of the following hold"
    if cls is Or:
        return "none of" if negated else "any of"
    if cls is And:
        return "not all of" if negated else "all of"
    if cls is AtLeast:
        return f"fewer than {k}{of}" if negated else f"at least {k}{of}"
    if cls is AtMost:
        return f"more than {k}{of}" if negated else f"at most {k}{of}"
    if cls is Choose:
        if negated:
            return f"not exactly {k}{of}"
        return "exactly one of" if k == 1 else f"exactly {k}{of}"
    raise TypeError(f"cannot describe {cls.__name__}")


def node_text(node: Rule, feature_names=None, short: bool = False) -> str:
    """One line for one node: a condition, an operator's header, or a constant."""
    if isinstance(node, Literal):
        return literal_text(node, feature_names)
    if isinstance(node, Operator):
        return header(node, short)
    if isinstance(node, Trivial):
        return "always true" if node.value else "always false"
    raise TypeError(f"cannot describe {type(node).__name__}")


def describe(rule: Rule, feature_names=None) -> str:
    """Indented text: an operator's header ends in ":" and its sub-rules follow as "- " items, one
    level deeper."""
    if not isinstance(rule, Rule):
        raise TypeError(f"describe expects a rule, got {type(rule).__name__}")
    if feature_names is not None and rule.max_feature_index() >= 0:
        feature_name(feature_names, rule.max_feature_index())  # raises for names that do not fit the rule
    lines = []
    for path, node in rule.walk():
        prefix = _INDENT * (len(path) - 1) + "- " if path else ""
        suffix = ":" if isinstance(node, Operator) else ""
        lines.append(prefix + node_text(node, feature_names) + suffix)
    return "\n".join(lines)
