"""Feature names as rule text: how a name is quoted, how a negated feature reads (`age < 50`,
`x is not missing`, `~smoker`), and a literal's condition in plain language. These know names, not
the node classes, so every form of a rule (text, description, graph, export) shares them."""

from __future__ import annotations

import re
from collections import Counter

from ..exceptions import InputError, InputTypeError

__all__ = ["negate_name", "has_comparison", "quote_name", "unquote_name", "display_text", "FeatureNames",
           "feature_names_of", "feature_name", "literal_text"]

_COMPARISON = re.compile(r" (>=|<=|==|!=|>|<) ")
_OPPOSITE = {">=": "<", "<": ">=", "<=": ">", ">": "<=", "==": "!=", "!=": "=="}
_MISSING = " is missing"  # the suffix of QuantileBinarizer's missing-value features
_NEEDS_QUOTES = re.compile(r"[,()`~]|^\s|\s$|^$|^(?:Zero|One)$")


def negate_name(name: str) -> str:
    """Readable name of a negated feature: a name holding exactly one comparison (as the binarizer
    writes `a >= 3`) flips it (`a < 3`), `x is missing` becomes `x is not missing`, and any other
    name (`smoker`, `temp > 37 == yes`, whose flip would misstate it) gets `~`."""
    if name.endswith(_MISSING):
        return name[: -len(_MISSING)] + " is not missing"
    if len(_COMPARISON.findall(name)) == 1:
        lhs, op, rhs = _COMPARISON.split(name)
        return f"{lhs} {_OPPOSITE[op]} {rhs}"
    return "~" + name


def has_comparison(name: str) -> bool:
    """Does `name` hold a comparison (` >= `, ` == `, ...)?"""
    return _COMPARISON.search(name) is not None


def quote_name(name: str) -> str:
    """A name as rule text holds it: as is, or in backticks (a backtick doubled, a backslash and
    any character that does not print escaped: `\\`, `\n`, `\x1b`, `\u202e`) when it holds a
    comma, a parenthesis, a backtick or `~`, a character that does not print, starts or ends with a
    space, is empty, or is Zero/One. So a name is always one visible token on one line."""
    if _NEEDS_QUOTES.search(name) is None and name.isprintable():
        return name
    return _backticks(name)


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "`": "``"}
_UNESCAPE = re.compile(r"``|\\(?:[\\nrt]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")


def _escape(char: str) -> str:
    """One character as backticks hold it."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def unquote_name(quoted: str) -> str:
    """The name inside backticks as `quote_name` wrote it (without the backticks)."""
    def one(match) -> str:
        text = match.group()
        if text == "``":
            return "`"
        code = int(text[2:], 16) if text[1] in "xuU" else None
        if code is None:
            return {"\\\\": "\\", "\\n": "\n", "\\r": "\r", "\\t": "\t"}[text]
        return chr(code) if code <= 0x10FFFF else text
    return _UNESCAPE.sub(one, quoted)


def display_text(text: str) -> str:
    """`text` (a name, a label) as printed for people: as is when every character prints, else in
    backticks with the others escaped (`quote_name`), so it never adds a line or hides text."""
    return text if text.isprintable() else _backticks(text)


class FeatureNames:
    """Feature names with the text `to_str` prints for each literal, and the way back (`parse`).

    A negated literal reads as `negate_name` flips it unless that text is also another literal's
    (`a < 3` beside a feature named `a < 3`); then, as for names it does not flip, it is `~name`
    (the name in backticks when it holds a comparison: ``~`temp > 37 == yes` ``)."""

    def __init__(self, names):
        self.names = [str(name) for name in names]
        flips = [negate_name(name) for name in self.names]
        counts = Counter(self.names) + Counter(flips)
        # per feature: the flipped text of its negation, or None where it reads `~name`
        self.flipped = [
            None if flip == "~" + name or counts[flip] > 1 else flip for name, flip in zip(self.names, flips)
        ]

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, index):
        return self.names[index]

    def text(self, index: int, negated: bool) -> str:
        """The text of feature `index`, negated or not, as rule text holds it."""
        name = self.names[index]
        if not negated:
            return quote_name(name)
        if self.flipped[index] is not None:
            return quote_name(self.flipped[index])
        return "~" + (_backticks(name) if has_comparison(name) else quote_name(name))

    def literals(self) -> dict:
        """Each literal's unquoted text -> (index, negated), or None for a text two literals share."""
        seen: dict = {}
        for i, (name, flipped) in enumerate(zip(self.names, self.flipped)):
            for text, negated in ((name, False), (flipped, True)):
                if text is not None:
                    seen[text] = None if text in seen else (i, negated)
        return seen


def _backticks(name: str) -> str:
    return "`" + "".join(map(_escape, name)) + "`"


def feature_names_of(names) -> FeatureNames | None:
    """`names` as a `FeatureNames` (kept when it already is one), or None; names that are no
    sequence (text is not a list of names) raise an error naming `feature_names`."""
    if names is None or isinstance(names, FeatureNames):
        return names
    if isinstance(names, (str, bytes)) or not hasattr(names, "__len__"):
        raise InputTypeError(f"feature_names must be a sequence of names, got {type(names).__name__}")
    return FeatureNames(names)


def feature_name(feature_names, index: int) -> str:
    """`feature_names[index]` as text; names that are no sequence, or too few, raise an error naming
    `feature_names` (not a bare IndexError)."""
    if isinstance(feature_names, (str, bytes)) or not hasattr(feature_names, "__len__"):
        raise InputTypeError(f"feature_names must be a sequence of names, got {type(feature_names).__name__}")
    if index >= len(feature_names):
        raise InputError(f"feature_names has {len(feature_names)} names but the rule references feature {index}")
    try:
        return str(feature_names[index])
    except (KeyError, IndexError) as err:
        raise InputError(f"feature_names holds no name for feature {index} ({err!r})") from None


def literal_text(literal, feature_names=None, display: bool = True) -> str:
    """A literal as a condition: `age >= 50`, negated `age < 50`; a plain name `smoker`, negated
    `not smoker` (`not (temp > 37 == yes)` when it holds comparisons); without names `f3` and `not f3`.
    With `display` (text for people), a name holding characters that do not print (a newline) is
    shown escaped in backticks (`display_text`) and never flipped; else the exact name (JSON)."""
    name = f"f{literal.index}" if feature_names is None else feature_name(feature_names, literal.index)
    if display and not name.isprintable():
        return ("not " if literal.negated else "") + display_text(name)
    if not literal.negated:
        return name
    negated = negate_name(name)
    if negated != "~" + name:
        return negated
    return f"not ({name})" if has_comparison(name) else "not " + name
