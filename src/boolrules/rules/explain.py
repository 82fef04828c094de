"""Reasons for one decision: how a rule evaluated on one sample, and a smallest set of the sample's
feature values that forces the same prediction whatever the rule's other features are, and the
nodes that those values alone decide.

The reason is a *smallest* one (fewest features) when the rule reads at most `EXACT_MAX_FEATURES`
distinct features: every assignment of them is evaluated once, and the reason is a smallest set of
features on which every assignment with the other prediction differs from the sample (a minimum
hitting set, searched by increasing size). Above that, it is found greedily — drop each feature in
turn while a three-valued evaluation (unknown features are unknown, an operator is decided when
every count its unknown sub-rules allow gives the same output) still decides the prediction —
and is *sufficient* but not necessarily smallest (subset-minimal when every feature occurs once).
A node is *decided* by the reason when it has the same value on every completion of the other
features (checked on all of them up to the limit, by the three-valued evaluation above it).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

import numpy as np

from ..exceptions import InputError, InputTypeError
from ..validation import check_binary_matrix
from .bitset import BitMatrix
from .describe import header, node_text
from .graph import plot
from .names import display_text, literal_text
from .nodes import Literal, Rule, Trivial
from .operators import Operator
from .semantics import operator_output

__all__ = ["EXACT_MAX_FEATURES", "EXPLANATION_STYLES", "Explanation", "NodeReport", "explain"]

EXACT_MAX_FEATURES = 12  # 2**12 assignments, and at most C(12, 6) = 924 candidate sets per size
EXPLANATION_STYLES = {
    "true": {"facecolor": "#d9ead3"},  # the node holds on the sample
    "false": {"facecolor": "#f4cccc"},  # it does not
    "decided": {"edgecolor": "black", "linewidth": 2.0},  # the reason alone decides it
    "reason": {"edgecolor": "#0b5394", "linewidth": 3.0},  # a literal of the reason
}


@dataclass(frozen=True)
class NodeReport:
    """One node on the sample: whether it holds, how many of its sub-rules held against the count
    it needs (operators: `needs` such as ">= 2", "!= 1"), and whether the reason alone decides it."""

    path: tuple[int, ...]
    text: str
    holds: bool
    true_count: int | None
    size: int | None
    needs: str | None
    decided: bool
    in_reason: bool

    def to_dict(self) -> dict:
        return {"path": list(self.path), "text": self.text, "holds": self.holds, "true_count": self.true_count,
                "size": self.size, "needs": self.needs, "decided": self.decided, "in_reason": self.in_reason}


@dataclass(frozen=True)
class Explanation:
    """Why `rule` predicts what it does for one sample (see the module docstring)."""

    rule: Rule
    prediction: bool
    label: object
    reason: tuple[Literal, ...]
    reason_kind: str
    nodes: tuple[NodeReport, ...]
    feature_names: list | None = field(default=None, repr=False)

    def condition(self, literal: Literal, display: bool = False) -> str:
        """The literal as a condition: with the exact names (JSON), or for people (`display`)."""
        return literal_text(literal, self.feature_names, display)

    def to_dict(self) -> dict:
        """JSON-safe form: the prediction, the reason (feature, value and condition) and every node."""
        return {
            "prediction": self.prediction,
            "label": _jsonable(self.label),
            "rule": self.rule.to_str(self.feature_names),
            "reason_kind": self.reason_kind,
            "reason": [{"feature": lit.index, "value": int(not lit.negated), "condition": self.condition(lit)}
                       for lit in self.reason],
            "nodes": [node.to_dict() for node in self.nodes],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def to_text(self) -> str:
        """What a credit officer or clinician is shown: the prediction, the reason, the evaluation."""
        outcome = "holds" if self.prediction else "does not hold"
        label = "" if self.label is None else f"{display_text(str(self.label))} "
        lines = [f"prediction: {label}(the rule {outcome})"]
        others = len({lit.index for lit in self.rule.literals()}) - len(self.reason)
        what = "a smallest set" if self.reason_kind == "smallest" else "a set"
        if self.reason:
            conditions = "condition" if len(self.reason) == 1 else "conditions"
            lines.append(f"because ({what} of {len(self.reason)} {conditions} that forces this prediction, whatever "
                         f"the rule's {others} other features are):")
            lines.extend(f"  - {self.condition(lit, display=True)}" for lit in self.reason)
        else:
            lines.append("because the rule is constant")
        lines.append("how the rule evaluated (* decided by those conditions alone, > one of them):")
        for node, (_, rule_node) in zip(self.nodes, self.rule.walk()):  # names escaped, one line each
            text = node_text(rule_node, self.feature_names)
            mark = ">" if node.in_reason else "*" if node.decided else " "
            state = "true " if node.holds else "false"
            count = "" if node.size is None else f" — {node.true_count} of {node.size} hold (needs {node.needs})"
            lines.append(f"{mark} [{state}] {'  ' * len(node.path)}{text}{count}")
        return "\n".join(lines)

    __str__ = to_text

    def plot(self, ax=None):
        """The explained rule's tree: green where a node holds on the sample, red where it does not,
        a thick black outline on the nodes the reason alone decides and a thick blue one on the
        reason's literals (`EXPLANATION_STYLES`); returns the matplotlib Axes."""
        styles = {}
        for node in self.nodes:
            style = dict(EXPLANATION_STYLES["true" if node.holds else "false"])
            if node.decided:
                style.update(EXPLANATION_STYLES["decided"])
            if node.in_reason:
                style.update(EXPLANATION_STYLES["reason"])
            styles[node.path] = style
        ax = plot(self.rule, self.feature_names, ax=ax, styles=styles)
        outcome = "holds" if self.prediction else "does not hold"
        ax.set_title(f"the rule {outcome}; outlined: decided by the {len(self.reason)} reason condition(s)")
        return ax


def _jsonable(value):
    return value.item() if isinstance(value, np.generic) else value


def explain(rule: Rule, x, feature_names=None, label=None) -> Explanation:
    """Explain `rule`'s prediction on the 0/1 sample `x` (one row of binary features)."""
    if not isinstance(rule, Rule):
        raise InputTypeError(f"explain expects a rule, got {type(rule).__name__}")
    x = check_binary_matrix(np.asarray(x).reshape(1, -1), "x")[0]
    if rule.max_feature_index() >= len(x):
        raise InputError(f"the rule references feature {rule.max_feature_index()} but x has only {len(x)} values")
    if feature_names is not None and len(feature_names) < len(x):
        raise InputError(f"feature_names has {len(feature_names)} names but x has {len(x)} values")
    features = sorted({lit.index for lit in rule.literals()})
    prediction = bool(rule.evaluate(x.reshape(1, -1))[0])
    known_all = {j: bool(x[j]) for j in features}
    if len(features) <= EXACT_MAX_FEATURES:
        chosen, kind = _smallest_reason(rule, x, features, prediction), "smallest"
        decided = _decided_exactly(rule, x, features, chosen)
    else:
        chosen, kind = _greedy_reason(rule, known_all, prediction), "sufficient"
        decided = {path for path, value in _three_valued(rule, {j: known_all[j] for j in chosen}).items()
                   if value is not None}
    reason = tuple(Literal(j, not x[j]) for j in chosen)
    known = set(chosen)
    truth = _three_valued(rule, known_all)
    nodes = tuple(_report(path, node, truth, path in decided, known, feature_names) for path, node in rule.walk())
    return Explanation(rule, prediction, label, reason, kind, nodes, feature_names)


def _report(path, node, truth, decided, known, feature_names) -> NodeReport:
    """`truth`: every node's value on the sample (all features known), by path."""
    holds = truth[path]
    if isinstance(node, Operator):
        count = sum(truth[(*path, i)] for i in range(len(node.subrules)))
        return NodeReport(path, header(node), holds, count, len(node.subrules), _needs(node), decided, False)
    if isinstance(node, Literal):
        return NodeReport(path, literal_text(node, feature_names, display=False), holds, None, None, None, decided,
                          node.index in known)
    return NodeReport(path, "always true" if node.value else "always false", holds, None, None, None, True, False)


_COMPARISONS = {"Or": ">=", "And": "==", "AtLeast": ">=", "AtMost": "<=", "Choose": "=="}
_NEGATED = {">=": "<", "<=": ">", "==": "!="}


def _needs(op: Operator) -> str:
    """The count of true sub-rules an operator needs to hold: ">= 1" (Or), "== 3" (And of 3), "!= 2"."""
    name = type(op).__name__
    k = 1 if name == "Or" else len(op.subrules) if name == "And" else op.k
    comparison = _COMPARISONS[name]
    return f"{_NEGATED[comparison] if op.negated else comparison} {k}"


def _assignments(num: int) -> np.ndarray:
    """Every 0/1 assignment of `num` variables, one per row (row i is i's bits, variable 0 lowest)."""
    return ((np.arange(2**num)[:, None] >> np.arange(num)) & 1).astype(np.uint8)


def _smallest_reason(rule: Rule, x, features, prediction) -> tuple[int, ...]:
    """Fewest features whose sample values force `prediction`: every assignment of the rule's
    features that predicts otherwise must differ from the sample on one of them."""
    m = len(features)
    assignments = _assignments(m)
    data = np.zeros((len(assignments), len(x)), np.uint8)
    data[:, features] = assignments
    wrong = assignments[rule.evaluate(data) != prediction]
    if not len(wrong):
        return ()
    differs = (wrong != x[features]) @ (1 << np.arange(m))  # bit i: differs on features[i]
    for size in range(1, m):
        for chosen in itertools.combinations(range(m), size):
            mask = sum(1 << i for i in chosen)
            if np.all(differs & mask):
                return tuple(features[i] for i in chosen)
    return tuple(features)  # all of them: fixing every feature fixes the output


def _decided_exactly(rule: Rule, x, features, chosen) -> set[tuple]:
    """Paths of the nodes whose value is the same on every completion of the sample's values on
    `chosen` (all assignments of the rule's other features)."""
    free = [j for j in features if j not in set(chosen)]
    data = np.tile(x, (2 ** len(free), 1))
    data[:, free] = _assignments(len(free))
    bits, memo = BitMatrix(data, checked=True), {}
    decided = set()
    for path, node in rule.walk():
        values = bits.unpack(bits.evaluate(node, memo))
        if values.all() or not values.any():
            decided.add(path)
    return decided


def _greedy_reason(rule: Rule, known: dict[int, bool], prediction) -> tuple[int, ...]:
    """Drop features one by one while the three-valued evaluation still decides the prediction;
    each trial revisits only the dropped feature's literals and the ancestors whose value changes
    (near-linear in the rule's size; re-evaluating the whole rule per feature was quadratic)."""
    values = _IncrementalValues(rule, known)
    kept = []
    for j in list(known):
        undo = values.forget(j)
        if values.root != prediction:
            values.restore(undo)
            kept.append(j)
    return tuple(sorted(kept))


class _IncrementalValues:
    """Every node's three-valued value (as `_three_valued`) with, per operator, how many of its
    sub-rules are true and how many false, updated as features are forgotten."""

    def __init__(self, rule: Rule, known: dict[int, bool]):
        walk = rule.walk()
        position = {path: i for i, (path, _) in enumerate(walk)}
        self.nodes = [node for _, node in walk]
        self.parent = [position[path[:-1]] if path else -1 for path, _ in walk]
        truth = _three_valued(rule, known)
        self.values = [truth[path] for path, _ in walk]
        self.true = [0] * len(walk)
        self.false = [0] * len(walk)
        self.literals: dict[int, list[int]] = {}
        for i, (parent, node, value) in enumerate(zip(self.parent, self.nodes, self.values)):
            if parent >= 0:
                self.true[parent] += value is True
                self.false[parent] += value is False
            if isinstance(node, Literal):
                self.literals.setdefault(node.index, []).append(i)

    @property
    def root(self):
        return self.values[0]

    def forget(self, feature: int) -> list:
        """Make `feature` unknown; returns what `restore` needs to undo it."""
        undo: list = []
        for leaf in self.literals.get(feature, ()):
            node, new = leaf, None
            while node >= 0 and self.values[node] != new:
                old, parent = self.values[node], self.parent[node]
                undo.append((node, old, parent, *((self.true[parent], self.false[parent]) if parent >= 0 else ())))
                self.values[node] = new
                if parent < 0:
                    break
                self.true[parent] += (new is True) - (old is True)
                self.false[parent] += (new is False) - (old is False)
                node, new = parent, _decide(self.nodes[parent], self.true[parent], self.false[parent])
        return undo

    def restore(self, undo: list) -> None:
        for node, old, parent, *counts in reversed(undo):
            self.values[node] = old
            if parent >= 0:
                self.true[parent], self.false[parent] = counts


def _decide(node: Operator, true: int, false: int) -> bool | None:
    """An operator's value when `true` of its sub-rules are true, `false` false and the rest
    unknown: the output where it is the same for every count they allow, else None. The output
    changes only next to the operator's threshold, so the range's ends and the counts beside the
    threshold decide it (not every count of a wide operator)."""
    size = len(node.subrules)
    low, high = true, size - false
    name = type(node).__name__
    threshold = 1 if name == "Or" else size if name == "And" else node.k
    counts = [c for c in {low, high, threshold - 1, threshold, threshold + 1} if low <= c <= high]
    outputs = set(operator_output(type(node), counts, size, node.k).tolist())
    return None if len(outputs) > 1 else outputs.pop() != node.negated


def _three_valued(rule: Rule, known: dict[int, bool]) -> dict[tuple, bool | None]:
    """Each node's value when only the features in `known` are known (None: undecided). Sound: a
    decided node has that value for every value of the unknown features."""
    values: dict[tuple, bool | None] = {}
    for path, node in reversed(rule.walk()):  # children before their parent, without recursion
        if isinstance(node, Literal):
            value = known.get(node.index)
            values[path] = None if value is None else value != node.negated
        elif isinstance(node, Trivial):
            values[path] = node.value
        else:
            subs = [values[(*path, i)] for i in range(len(node.subrules))]
            values[path] = _decide(node, sum(s is True for s in subs), sum(s is False for s in subs))
    return values
