"""Rules read back from JSON-safe dictionaries and JSON text, validated on the way in; with the
writers (`encode.py`) and the flat postfix form pickling uses (`operators.py`), the module callers
find every serial form of a rule in.

Every function here reads a rule with an explicit stack, never by recursion, so a rule of any depth
that can be written is read back.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from json.scanner import NUMBER_RE

from ..exceptions import InputError, InputTypeError
from ..validation import check_integer
from .encode import to_dict, to_json, to_postfix
from .nodes import Literal, One, Rule, Zero
from .operators import OPERATORS, Operator, from_postfix

__all__ = ["to_dict", "from_dict", "to_json", "from_json", "to_postfix", "from_postfix"]


def from_dict(data) -> Rule:
    """Rebuild a rule from `to_dict` output; malformed input raises ValueError naming the problem."""
    done: list[Rule] = []
    stack: list[tuple] = [(data, None)]
    open_ids: set[int] = set()  # the operator dicts being read, from the top down to the current one
    while stack:
        item, cls = stack.pop()
        if cls is not None:  # an operator whose sub-rules are built
            count = len(item["subrules"])
            subrules = done[-count:]
            del done[-count:]
            done.append(_operator(cls, item, subrules))
            open_ids.discard(id(item))
            continue
        if not isinstance(item, dict):
            raise InputError(f"a rule dictionary must be a dict, got {type(item).__name__}")
        if "operator" in item and "literal" not in item and "constant" not in item:
            if id(item) in open_ids:
                raise InputError("a rule dictionary holds itself as a sub-rule (a cycle)")
            cls = _operator_class(item)
            open_ids.add(id(item))
            stack.append((item, cls))
            stack.extend((sub, None) for sub in reversed(item["subrules"]))
        else:
            done.append(_leaf(item))
    return done[0]


def _leaf(data: dict) -> Rule:
    try:
        if "literal" in data:
            _expect_keys(data, {"literal", "negated"})
            return Literal(check_integer(data["literal"], "literal index", 0), data.get("negated", False))
        if "constant" in data:
            _expect_keys(data, {"constant"})
            if not isinstance(data["constant"], bool):
                raise InputError("'constant' must be true or false")
            return One() if data["constant"] else Zero()
    except TypeError as exc:
        raise InputError(f"malformed rule dictionary: {exc}") from None
    raise InputError(
        "a rule dictionary needs one of the keys 'literal', 'constant' or 'operator', "
        f"got {sorted(map(str, data))}"
    )


def _operator_class(data: dict) -> type[Operator]:
    _expect_keys(data, {"operator", "negated", "k", "subrules"})
    cls = OPERATORS.get(data["operator"]) if isinstance(data["operator"], str) else None
    if cls is None:
        raise InputError(f"unknown operator {data['operator']!r}; known: {', '.join(OPERATORS)}")
    if not isinstance(data.get("subrules"), list):
        raise InputError("'subrules' must be a list")
    if not data["subrules"]:
        raise InputError(f"{cls.__name__} needs at least one sub-rule")
    if cls.parameterized and "k" not in data:
        raise InputError(f"{cls.__name__} needs 'k'")
    if not cls.parameterized and "k" in data:
        raise InputError(f"{cls.__name__} takes no 'k'")
    return cls


def _operator(cls: type[Operator], data: dict, subrules: list) -> Operator:
    negated = data.get("negated", False)
    try:
        if cls.parameterized:
            return cls(data["k"], *subrules, negated=negated)
        return cls(*subrules, negated=negated)
    except TypeError as exc:
        raise InputError(f"malformed rule dictionary: {exc}") from None


def from_json(text) -> Rule:
    """Rebuild a rule from JSON text of `to_dict` output (`to_json(rule)`, or `json.dumps` of
    `to_dict`) at any depth; text that is no JSON or not a rule dictionary raises ValueError."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise InputTypeError(f"from_json expects JSON text (str or bytes), got {type(text).__name__}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # deeper than the json module recurses: read with an explicit stack
        data = _deep_loads(text)
    except ValueError as err:  # JSONDecodeError, bad UTF-8, an integer of thousands of digits
        raise InputError(f"rule JSON is not valid JSON: {err}") from None
    return from_dict(data)


_SPACE = re.compile(r"[ \t\n\r]*")
_LITERALS = {"true": True, "false": False, "null": None}


def _deep_loads(text) -> object:
    """`json.loads` for nesting too deep for it: containers on an explicit stack (no NaN or Infinity)."""
    if not isinstance(text, str):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    try:
        return _scan(text)
    except (IndexError, ValueError) as err:
        raise InputError(f"rule JSON is not valid JSON: {err}") from None


def _scan(s: str) -> object:
    open_: list[list] = []  # [container, pending key] of each container not yet closed
    idx = _SPACE.match(s, 0).end()
    while True:
        char = s[idx:idx + 1]
        if char in ("{", "["):
            idx = _SPACE.match(s, idx + 1).end()
            if s[idx:idx + 1] == ("}" if char == "{" else "]"):
                value, idx = ({} if char == "{" else []), idx + 1
            else:
                key = None
                if char == "{":
                    key, idx = _key(s, idx)
                open_.append([{} if char == "{" else [], key])
                continue
        elif char == '"':
            value, idx = scanstring(s, idx + 1)
        else:
            value, idx = _scalar(s, idx)
        while True:  # place the value, then close every container that ends here
            idx = _SPACE.match(s, idx).end()
            if not open_:
                if idx != len(s):
                    raise InputError(f"extra data at position {idx}")
                return value
            container, key = open_[-1]
            if isinstance(container, dict):
                container[key] = value
            else:
                container.append(value)
            char = s[idx:idx + 1]
            if char == ",":
                idx = _SPACE.match(s, idx + 1).end()
                if isinstance(container, dict):
                    open_[-1][1], idx = _key(s, idx)
                break
            if char != ("}" if isinstance(container, dict) else "]"):
                raise InputError(f"expected ',' or the container's end at position {idx}")
            value, idx = container, idx + 1
            open_.pop()


def _key(s: str, idx: int) -> tuple[str, int]:
    if s[idx:idx + 1] != '"':
        raise InputError(f"expected a key at position {idx}")
    key, idx = scanstring(s, idx + 1)
    idx = _SPACE.match(s, idx).end()
    if s[idx:idx + 1] != ":":
        raise InputError(f"expected ':' at position {idx}")
    return key, _SPACE.match(s, idx + 1).end()


def _scalar(s: str, idx: int) -> tuple[object, int]:
    for word, value in _LITERALS.items():
        if s.startswith(word, idx):
            return value, idx + len(word)
    match = NUMBER_RE.match(s, idx)
    if match is None:
        raise InputError(f"expected a value at position {idx}")
    integer, frac, exp = match.groups()
    return (float(integer + (frac or "") + (exp or "")) if frac or exp else int(integer)), match.end()


def _no_constant(name: str):
    raise InputError(f"{name} is not a number a rule holds")


def _expect_keys(data: dict, allowed: set) -> None:
    extra = set(data) - allowed
    if extra:
        raise InputError(f"unexpected keys in rule dictionary: {sorted(map(str, extra))}")


