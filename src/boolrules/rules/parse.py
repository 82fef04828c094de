"""Parse the text form of rules (`And(Choose2(f0, f1, f2), ~f4, f5)`), the inverse of `str`, and of
named rules (`Or(worst area >= 686.5, mean texture < 20)`), the inverse of `to_str(feature_names)`."""

from __future__ import annotations

import re

from ..exceptions import InputError, InputTypeError
from .names import feature_names_of, unquote_name
from .nodes import Literal, One, Rule, Zero
from .operators import OPERATORS

__all__ = ["parse"]

_TOKEN = re.compile(r"\s*(?:(~)|(f\d+)|([A-Za-z]+?)(\d*)\(|(Zero|One)\b|(,)|(\)))", re.ASCII)
# with feature names: a backticked name (`` doubles a backtick) or a bare one, up to `,` or `)`
_NAMED_TOKEN = re.compile(
    r"\s*(?:(~)|`((?:[^`]|``)*)`|([A-Za-z]+?)(\d*)\(|(Zero|One)(?=\s*(?:[,)]|$))|(,)|(\))|([^,()`~\s][^,()`]*))",
    re.ASCII,
)
_MAX_DIGITS = 18  # of a feature index or a parameter k (int64)


def parse(text: str, feature_names=None) -> Rule:
    """Rule from its text form; malformed text raises ValueError saying where.

    With `feature_names`, features are read by name as `Rule.to_str(feature_names)` prints them
    (in backticks when they hold commas, parentheses, ...; negations as printed, or `~name`)."""
    if not isinstance(text, str):
        raise InputTypeError(f"parse expects a string, got {type(text).__name__}")
    names = None if feature_names is None else feature_names_of(feature_names).literals()
    rule, pos = _parse_rule(text, names)
    if text[pos:].strip():
        raise InputError(f"unexpected text after the rule at position {pos}: {text[pos:pos + 20]!r}")
    return rule


def _error(text: str, pos: int, what: str) -> ValueError:
    return InputError(f"cannot parse rule at position {pos} ({text[pos:pos + 20]!r}): expected {what}")


def _parse_rule(text: str, names) -> tuple[Rule, int]:
    """The rule at the start of `text` and where it ends. Operators being read wait on a stack, not
    in recursive calls, so text nested to any depth is read (the depth `str` writes)."""
    token = _TOKEN if names is None else _NAMED_TOKEN
    open_: list[tuple] = []  # per operator being read: (class, k, its match, ~ count, sub-rules so far)
    pos = 0
    while True:
        match = token.match(text, pos)
        negations = 0
        while match is not None and match.group(1):  # a run of ~ is read in a loop
            negations += 1
            pos = match.end()
            match = token.match(text, pos)
        head = _head(text, pos, match, names)
        pos = match.end()
        if not isinstance(head, Rule):
            open_.append((*head, match, negations, []))
            continue
        rule = ~head if negations % 2 else head
        while open_:  # the rule is a sub-rule: place it, then close every operator that ends here
            cls, k, opened, opened_negations, subrules = open_[-1]
            subrules.append(rule)
            sep = _TOKEN.match(text, pos)
            if sep is None or not (sep.group(6) or sep.group(7)):
                raise _error(text, pos, "',' or ')'")
            pos = sep.end()
            if sep.group(6):
                break
            open_.pop()
            rule = _operator(cls, k, subrules, opened)
            rule = ~rule if opened_negations % 2 else rule
        else:
            return rule, pos


def _named_literal(text: str, pos: int, name: str, names) -> Literal:
    """The literal whose text is `name` (a feature's name or its negation as printed)."""
    if name not in names:
        close = [known for known in names if known.lower().startswith(name[:3].lower())][:5]
        raise InputError(f"unknown feature name {name!r} at position {pos}"
                         + (f"; similar names: {', '.join(map(repr, close))}" if close else ""))
    if names[name] is None:
        raise InputError(f"feature name {name!r} at position {pos} is ambiguous: two features print as it")
    return Literal(*names[name])


def _number(text: str, digits: str, start: int, what: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise InputError(f"{what} at position {start} has more than {_MAX_DIGITS} digits: {digits[:20]}...")
    return int(digits)


def _head(text: str, pos: int, match, names):
    """What `match` (a token at `pos`, after any ~) starts: a literal or constant (a `Rule`), or an
    operator as `(class, k)`, its sub-rules to follow."""
    if match is None:
        raise _error(text, pos, "a literal like f3, an operator like Or( or AtLeast2(, Zero or One"
                     if names is None else "a feature name, an operator like Or( or AtLeast2(, Zero or One")
    _, literal, opname, param, constant = match.groups()[:5]
    if names is not None:
        bare = match.group(8)
        if literal is not None or bare:
            name = unquote_name(literal) if literal is not None else bare.rstrip()
            return _named_literal(text, pos, name, names)
    elif literal:
        return Literal(_number(text, literal[1:], pos, "feature index"))
    if constant:
        return One() if constant == "One" else Zero()
    if opname is None:
        raise _error(text, pos, "a rule")
    cls = OPERATORS.get(opname)
    if cls is None:
        raise InputError(f"unknown operator {opname!r} at position {pos}; known: {', '.join(OPERATORS)}")
    if cls.parameterized and not param:
        raise InputError(f"{opname} at position {pos} needs its parameter, e.g. {opname}2(...)")
    if not cls.parameterized and param:
        raise InputError(f"{opname} at position {pos} takes no parameter")
    return cls, (_number(text, param, pos, f"the parameter of {opname}") if cls.parameterized else None)


def _operator(cls, k, subrules, match) -> Rule:
    """The operator `match` opened, over its sub-rules; what its class refuses, as a ValueError saying where."""
    try:
        if cls.parameterized:
            return cls(k, *subrules)
        return cls(*subrules)
    except (TypeError, ValueError) as exc:
        raise InputError(f"invalid {match.group(3)} at position {match.start()}: {exc}") from None
