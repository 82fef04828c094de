"""Rule values: the `Rule` base class, literals and the constant rules (`operators.py` holds the
operators over sub-rules).

Rules are immutable and hashable, so sub-rules are shared between rules freely: a local
move rebuilds only the path from the root to the changed node, and evaluation results
can be memoised per node (see `bitset.py`). Evaluation, descriptions, dictionaries and graphs are
written over a node's `kind` in the modules below this one, so the methods here call down to them.
"""

from __future__ import annotations

import numpy as np

from ..exceptions import InputError
from ..validation import check_bool, check_integer
from .bitset import evaluate
from .depth import MAX_WALK_DEPTH, SHALLOW_DEPTH
from .describe import describe
from .encode import to_dict
from .graph import plot, to_graph
from .names import feature_name, feature_names_of

__all__ = ["Rule", "Literal", "Trivial", "Zero", "One"]


class Rule:
    """Base class of all rules: a Boolean function of the rows of a binary matrix."""

    __slots__ = ("negated", "complexity", "depth", "_hash", "_nodes")
    kind: str  # "literal", "constant" or "operator": how the modules below the node classes tell nodes apart

    def evaluate(self, X) -> np.ndarray:
        """Boolean prediction of this rule for each row of the 0/1 matrix `X`."""
        return evaluate(self, X)

    def literals(self) -> tuple[Literal, ...]:
        """All literals of the rule, left to right (with repetitions)."""
        return ()

    def walk(self) -> tuple[tuple[tuple[int, ...], Rule], ...]:
        """`(path, node)` for every node, depth first; `path` is a tuple of child positions. Rules
        deeper than `MAX_WALK_DEPTH` are refused (ValueError): their paths would fill the memory."""
        try:
            return self._nodes
        except AttributeError:
            if self.depth > SHALLOW_DEPTH:
                nodes = _deep_walk(self)
            else:
                nodes = [((), self)]
                for i, sub in enumerate(self.subrules):
                    nodes.extend(((i, *path), node) for path, node in sub.walk())
            object.__setattr__(self, "_nodes", tuple(nodes))
            return self._nodes

    @property
    def subrules(self) -> tuple[Rule, ...]:
        return ()

    def max_feature_index(self) -> int:
        """Largest feature index the rule references (-1 when it references none)."""
        return max((lit.index for lit in self.literals()), default=-1)

    def to_str(self, feature_names=None) -> str:
        """Text form; with `feature_names`, features are named (quoted when they hold commas,
        parentheses, ...: `quote_name`) and negations read naturally (`FeatureNames`); `parse`
        reads it back."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_str()}>"

    def __hash__(self) -> int:
        return self._hash

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _init(self, negated: bool, complexity: int, depth: int, key: tuple) -> None:
        object.__setattr__(self, "negated", negated)
        object.__setattr__(self, "complexity", complexity)
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "_hash", hash(key))

    def simplify(self) -> Rule:
        """The canonical form: the same prediction on every input, never more nodes, familiar
        operators (a literal or a constant is its own; see `operators.py` for the rewrites and the
        order of preference)."""
        return self

    def describe(self, feature_names=None) -> str:
        """Indented plain-language text ("all of:", "at least 2 of the following hold:", ...)."""
        return describe(self, feature_names)

    def to_dict(self) -> dict:
        """JSON-safe dictionary form (see `encode.py`)."""
        return to_dict(self)

    def to_graph(self, feature_names=None):
        """The rule as a networkx directed tree (see `graph.py`)."""
        return to_graph(self, feature_names)

    def plot(self, feature_names=None, ax=None):
        """Draw the rule tree with matplotlib, labelled in plain language (see `graph.py`)."""
        return plot(self, feature_names, ax=ax)


def _deep_walk(rule: Rule) -> list:
    """`Rule.walk` of a rule deeper than `SHALLOW_DEPTH`: nodes on a stack, not by recursion."""
    if rule.depth > MAX_WALK_DEPTH:
        raise InputError(f"the rule is nested {rule.depth} operators deep; listing its nodes with their paths "
                         f"(walk, describe, explain, graphs) takes memory that grows as the depth squared, "
                         f"so it is refused beyond depth {MAX_WALK_DEPTH}")
    nodes, stack = [], [((), rule)]
    while stack:
        path, node = stack.pop()
        nodes.append((path, node))
        stack.extend(((*path, i), sub) for i, sub in reversed(tuple(enumerate(node.subrules))))
    return nodes


class Literal(Rule):
    """Feature `index` (`f3`) or its negation (`~f3`)."""

    __slots__ = ("index",)
    kind = "literal"

    def __init__(self, index: int, negated: bool = False):
        index = check_integer(index, "index", 0)
        object.__setattr__(self, "index", index)
        self._init(check_bool(negated, "negated"), 1, 0, (Literal, index, bool(negated)))

    def literals(self):
        return (self,)

    def to_str(self, feature_names=None) -> str:
        if feature_names is None:
            return ("~f" if self.negated else "f") + str(self.index)
        feature_name(feature_names, self.index)  # names that cannot name this feature: an error naming them
        return feature_names_of(feature_names).text(self.index, self.negated)

    def __invert__(self) -> Literal:
        return Literal(self.index, not self.negated)

    def __reduce__(self):
        return (Literal, (self.index, self.negated))

    __hash__ = Rule.__hash__

    def __eq__(self, other) -> bool:
        return (
            self is other
            or type(other) is Literal
            and self.index == other.index
            and self.negated == other.negated
        )


class Trivial(Rule):
    """A constant rule; it holds no literals and has complexity 0."""

    __slots__ = ()
    kind = "constant"
    value: bool

    def __init__(self):
        self._init(False, 0, 0, (type(self),))

    def __reduce__(self):
        return (type(self), ())

    def to_str(self, feature_names=None) -> str:
        return type(self).__name__

    __hash__ = Rule.__hash__

    def __eq__(self, other) -> bool:
        return type(other) is type(self)


class Zero(Trivial):
    """The rule that is always false."""

    __slots__ = ()
    value = False

    def __invert__(self) -> One:
        return One()


class One(Trivial):
    """The rule that is always true."""

    __slots__ = ()
    value = True

    def __invert__(self) -> Zero:
        return Zero()
