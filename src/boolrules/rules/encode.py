"""Rules written out: a JSON-safe dictionary, JSON text, the flat postfix tuple pickling uses, and
nested text built from a stack. Every function walks a rule with an explicit stack, never by
recursion, so a rule of any depth that can be built can be written (`serialize.py` reads them back).
A node is told apart by its `kind`, so writing needs no node class and the nodes' `to_dict` and
pickling call it."""

from __future__ import annotations

import json

__all__ = ["to_dict", "to_json", "to_postfix", "write_nested"]


def _leaf_dict(rule) -> dict:
    if rule.kind == "literal":
        return {"literal": rule.index, "negated": rule.negated}
    return {"constant": rule.value}


def _operator_head(rule) -> dict:
    out = {"operator": type(rule).__name__, "negated": rule.negated}
    if rule.parameterized:
        out["k"] = rule.k
    return out


def to_dict(rule) -> dict:
    """`{"literal": 3, "negated": true}`, `{"constant": false}` or an operator dict with sub-rules."""
    done: list[dict] = []
    stack: list[tuple] = [(rule, False)]
    while stack:
        node, children_done = stack.pop()
        if node.kind != "operator":
            done.append(_leaf_dict(node))
        elif not children_done:
            stack.append((node, True))
            stack.extend((sub, False) for sub in reversed(node.subrules))
        else:
            count = len(node.subrules)
            subrules = done[-count:]
            del done[-count:]
            done.append({**_operator_head(node), "subrules": subrules})
    return done[0]


def to_json(rule) -> str:
    """JSON text of `to_dict(rule)`, written without recursion (`json.dumps` stops near depth 500)."""
    return write_nested(rule, lambda node: None if node.kind == "operator" else json.dumps(_leaf_dict(node)),
                        lambda op: json.dumps(_operator_head(op))[:-1] + ', "subrules": [', "]}")


def to_postfix(rule) -> tuple:
    """The rule as a flat tuple, children before parents: `("f", index, negated)`, `("c", value)`,
    `(operator name, negated, k, number of sub-rules)`. Pickling uses it, so it never recurses."""
    out = []
    stack: list[tuple] = [(rule, False)]
    while stack:
        node, children_done = stack.pop()
        if node.kind == "literal":
            out.append(("f", node.index, node.negated))
        elif node.kind == "constant":
            out.append(("c", node.value))
        elif not children_done:
            stack.append((node, True))
            stack.extend((sub, False) for sub in reversed(node.subrules))
        else:
            out.append((type(node).__name__, node.negated, node.k, len(node.subrules)))
    return tuple(out)


def write_nested(rule, whole, opening, closing: str) -> str:
    """Text of `rule` built from a stack, never by recursion: `whole(node)` is a node's whole text,
    or None to write it as `opening(node)`, its sub-rules joined by ", ", then `closing`."""
    parts: list[str] = []
    stack: list = [rule]
    while stack:
        item = stack.pop()
        text = item if isinstance(item, str) else whole(item)
        if text is not None:
            parts.append(text)
            continue
        parts.append(opening(item))
        stack.append(closing)
        for i, sub in enumerate(reversed(item.subrules)):
            stack.extend((", ", sub) if i else (sub,))
    return "".join(parts)
