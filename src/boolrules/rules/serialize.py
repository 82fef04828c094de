"""JSON-safe dictionaries for rules, validated on the way back in."""

from __future__ import annotations

import json

from ..validation import check_integer
from .nodes import OPERATORS, Literal, One, Rule, Zero

__all__ = ["to_dict", "from_dict", "from_json"]

_MAX_DEPTH = 200


def to_dict(rule: Rule) -> dict:
    """`{"literal": 3, "negated": true}`, `{"constant": false}` or an operator dict with sub-rules."""
    if isinstance(rule, Literal):
        return {"literal": rule.index, "negated": rule.negated}
    if isinstance(rule, (Zero, One)):
        return {"constant": rule.value}
    out = {"operator": type(rule).__name__, "negated": rule.negated}
    if rule.parameterized:
        out["k"] = rule.k
    out["subrules"] = [to_dict(sub) for sub in rule.subrules]
    return out


def from_dict(data, _depth: int = 0) -> Rule:
    """Rebuild a rule from `to_dict` output; malformed input raises ValueError naming the problem."""
    if _depth > _MAX_DEPTH:
        raise ValueError(f"rule dictionary is nested deeper than {_MAX_DEPTH} levels")
    if not isinstance(data, dict):
        raise ValueError(f"a rule dictionary must be a dict, got {type(data).__name__}")
    try:
        if "literal" in data:
            _expect_keys(data, {"literal", "negated"})
            return Literal(check_integer(data["literal"], "literal index", 0), data.get("negated", False))
        if "constant" in data:
            _expect_keys(data, {"constant"})
            if not isinstance(data["constant"], bool):
                raise ValueError("'constant' must be true or false")
            return One() if data["constant"] else Zero()
        if "operator" in data:
            _expect_keys(data, {"operator", "negated", "k", "subrules"})
            cls = OPERATORS.get(data["operator"]) if isinstance(data["operator"], str) else None
            if cls is None:
                raise ValueError(
                    f"unknown operator {data['operator']!r}; known: {', '.join(OPERATORS)}"
                )
            subs = data.get("subrules")
            if not isinstance(subs, list):
                raise ValueError("'subrules' must be a list")
            subrules = [from_dict(sub, _depth + 1) for sub in subs]
            negated = data.get("negated", False)
            if cls.parameterized:
                if "k" not in data:
                    raise ValueError(f"{cls.__name__} needs 'k'")
                return cls(data["k"], *subrules, negated=negated)
            if "k" in data:
                raise ValueError(f"{cls.__name__} takes no 'k'")
            return cls(*subrules, negated=negated)
    except TypeError as exc:
        raise ValueError(f"malformed rule dictionary: {exc}") from None
    raise ValueError(
        "a rule dictionary needs one of the keys 'literal', 'constant' or 'operator', "
        f"got {sorted(map(str, data))}"
    )


def from_json(text) -> Rule:
    """Rebuild a rule from JSON text of `to_dict` output (`json.dumps(rule.to_dict())`); text that is no
    JSON, nested too deeply, or not a rule dictionary raises ValueError."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"from_json expects JSON text (str or bytes), got {type(text).__name__}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError(f"rule JSON is nested deeper than {_MAX_DEPTH} levels") from None
    except ValueError as err:  # JSONDecodeError, bad UTF-8, an integer of thousands of digits
        raise ValueError(f"rule JSON is not valid JSON: {err}") from None
    return from_dict(data)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a rule holds")


def _expect_keys(data: dict, allowed: set) -> None:
    extra = set(data) - allowed
    if extra:
        raise ValueError(f"unexpected keys in rule dictionary: {sorted(map(str, extra))}")


