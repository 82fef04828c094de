"""Rule values: literals, operators and trivial rules.

Rules are immutable and hashable, so sub-rules are shared between rules freely: a local
move rebuilds only the path from the root to the changed node, and evaluation results
can be memoised per node (see `bitset.py`).
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ..validation import check_bool, check_integer

__all__ = [
    "Rule",
    "Literal",
    "Operator",
    "Or",
    "And",
    "AtLeast",
    "AtMost",
    "Choose",
    "Zero",
    "One",
    "feature_name",
    "negate_name",
    "quote_name",
    "FeatureNames",
    "feature_names_of",
    "resolve_operator",
    "resolve_operators",
]

_COMPARISON = re.compile(r" (>=|<=|==|!=|>|<) ")
_OPPOSITE = {">=": "<", "<": ">=", "<=": ">", ">": "<=", "==": "!=", "!=": "=="}
_MISSING = " is missing"  # the suffix of QuantileBinarizer's missing-value features
_NEEDS_QUOTES = re.compile(r"[,()`~]|^\s|\s$|^$|^(?:Zero|One)$")
# Rules up to this depth are walked by recursion (the fast path, a few Python frames per level);
# deeper ones with an explicit stack, so every operation works at any depth a rule can be built to.
SHALLOW_DEPTH = 100
# `walk` lists every node with its path from the root: for a rule of depth d that is about d**2 / 2
# positions (5 * 10**9 at depth 10**5), so walk, describe, explain and graphs refuse deeper rules.
MAX_WALK_DEPTH = 2000


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
    """A name as rule text holds it: as is, or in backticks (a backtick doubled) when it holds a
    comma, a parenthesis, a backtick or `~`, starts or ends with a space, is empty, or is Zero/One."""
    if _NEEDS_QUOTES.search(name) is None and name.isprintable():
        return name
    return _backticks(name)


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
    return "`" + name.replace("`", "``") + "`"


def feature_names_of(names) -> FeatureNames | None:
    """`names` as a `FeatureNames` (kept when it already is one), or None; names that are no
    sequence (text is not a list of names) raise an error naming `feature_names`."""
    if names is None or isinstance(names, FeatureNames):
        return names
    if isinstance(names, (str, bytes)) or not hasattr(names, "__len__"):
        raise TypeError(f"feature_names must be a sequence of names, got {type(names).__name__}")
    return FeatureNames(names)


def feature_name(feature_names, index: int) -> str:
    """`feature_names[index]` as text; names that are no sequence, or too few, raise an error naming
    `feature_names` (not a bare IndexError)."""
    if isinstance(feature_names, (str, bytes)) or not hasattr(feature_names, "__len__"):
        raise TypeError(f"feature_names must be a sequence of names, got {type(feature_names).__name__}")
    if index >= len(feature_names):
        raise ValueError(f"feature_names has {len(feature_names)} names but the rule references feature {index}")
    try:
        return str(feature_names[index])
    except (KeyError, IndexError) as err:
        raise ValueError(f"feature_names holds no name for feature {index} ({err!r})") from None


class Rule:
    """Base class of all rules: a Boolean function of the rows of a binary matrix."""

    __slots__ = ("negated", "complexity", "depth", "_hash", "_nodes")

    def evaluate(self, X) -> np.ndarray:
        """Boolean prediction of this rule for each row of the 0/1 matrix `X`."""
        from .bitset import evaluate

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

    def __reduce__(self):  # flat, so pickling and unpickling never recurse (any depth loads back)
        from .serialize import from_postfix, to_postfix

        return (from_postfix, (to_postfix(self),))

    def simplify(self) -> Rule:
        """The canonical form: the same prediction on every input, never more nodes, familiar
        operators (see `simplify.py` for the rewrites and the order of preference)."""
        from .simplify import simplify

        return simplify(self)

    def describe(self, feature_names=None) -> str:
        """Indented plain-language text ("all of:", "at least 2 of the following hold:", ...)."""
        from .describe import describe

        return describe(self, feature_names)

    def to_dict(self) -> dict:
        """JSON-safe dictionary form (see `serialize.py`)."""
        from .serialize import to_dict

        return to_dict(self)

    def to_graph(self, feature_names=None):
        """The rule as a networkx directed tree (see `graph.py`)."""
        from .graph import to_graph

        return to_graph(self, feature_names)

    def plot(self, feature_names=None, ax=None):
        """Draw the rule tree with matplotlib, labelled in plain language (see `graph.py`)."""
        from .graph import plot

        return plot(self, feature_names, ax=ax)


def _deep_walk(rule: Rule) -> list:
    """`Rule.walk` of a rule deeper than `SHALLOW_DEPTH`: nodes on a stack, not by recursion."""
    if rule.depth > MAX_WALK_DEPTH:
        raise ValueError(f"the rule is nested {rule.depth} operators deep; listing its nodes with their paths "
                         f"(walk, describe, explain, graphs) takes memory that grows as the depth squared, "
                         f"so it is refused beyond depth {MAX_WALK_DEPTH}")
    nodes, stack = [], [((), rule)]
    while stack:
        path, node = stack.pop()
        nodes.append((path, node))
        stack.extend(((*path, i), sub) for i, sub in reversed(tuple(enumerate(node.subrules))))
    return nodes


def _deep_str(rule: Rule, feature_names) -> str:
    """`to_str` of a rule deeper than `SHALLOW_DEPTH`: pieces written in order from a stack and
    joined once (by recursion, each level would also copy all the text below it)."""
    return write_nested(rule, lambda node: node.to_str(feature_names) if not isinstance(node, Operator)
                        or node.depth <= SHALLOW_DEPTH else None, lambda op: op.name + "(", ")")


def write_nested(rule: Rule, whole, opening, closing: str) -> str:
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


def _rebuild(data):
    """Unpickle a rule pickled by earlier versions (as its `to_dict` form)."""
    from .serialize import from_dict

    return from_dict(data)


class Literal(Rule):
    """Feature `index` (`f3`) or its negation (`~f3`)."""

    __slots__ = ("index",)

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
    value: bool

    def __init__(self):
        self._init(False, 0, 0, (type(self),))

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


class Operator(Rule):
    """An operator over one or more sub-rules; parameterized operators also hold `k`."""

    __slots__ = ("_subrules", "k")
    parameterized = False

    def __init__(self, *subrules: Rule, negated: bool = False, k: int | None = None):
        if len(subrules) == 1 and isinstance(subrules[0], (list, tuple)):
            subrules = tuple(subrules[0])
        if not subrules:
            raise ValueError(f"{type(self).__name__} needs at least one sub-rule")
        for sub in subrules:
            if not isinstance(sub, Rule):
                raise TypeError(f"sub-rules of {type(self).__name__} must be rules, got {type(sub).__name__}")
        if self.parameterized:
            k = check_integer(k, "k")
            if not 0 <= k <= len(subrules):
                raise ValueError(
                    f"{type(self).__name__} parameter k={k} must be between 0 and the number "
                    f"of sub-rules ({len(subrules)})"
                )
        object.__setattr__(self, "_subrules", tuple(subrules))
        object.__setattr__(self, "k", k)
        negated = check_bool(negated, "negated")
        self._init(
            negated,
            1 + sum(s.complexity for s in subrules),
            1 + max(s.depth for s in subrules),
            (type(self), k, negated, subrules),
        )

    @property
    def subrules(self) -> tuple[Rule, ...]:
        return self._subrules

    @property
    def name(self) -> str:
        """Operator label as printed: `~AtLeast2`, `Or`."""
        return ("~" if self.negated else "") + type(self).__name__ + (
            str(self.k) if self.parameterized else ""
        )

    def literals(self):  # nodes on a stack, so rules of any depth list theirs
        found, stack = [], list(reversed(self._subrules))
        while stack:
            node = stack.pop()
            if isinstance(node, Operator):
                stack.extend(reversed(node._subrules))
            elif isinstance(node, Literal):
                found.append(node)
        return tuple(found)

    def replace(self, subrules, k: int | None = None, negated: bool | None = None) -> Operator:
        """A copy with other sub-rules (and optionally another `k` or negation)."""
        k = self.k if k is None else k
        negated = self.negated if negated is None else negated
        return _make(type(self), tuple(subrules), k, negated)

    def to_str(self, feature_names=None) -> str:
        feature_names = feature_names_of(feature_names)
        if self.depth > SHALLOW_DEPTH:
            return _deep_str(self, feature_names)
        inner = ", ".join(sub.to_str(feature_names) for sub in self._subrules)
        return f"{self.name}({inner})"

    def __invert__(self) -> Operator:
        return _make(type(self), self._subrules, self.k, not self.negated)

    __hash__ = Rule.__hash__

    def __eq__(self, other) -> bool:  # pairs of nodes on a stack, so rules of any depth compare
        pairs = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if a is b:
                continue
            if type(b) is not type(a) or a._hash != b._hash:
                return False
            if not isinstance(a, Operator):
                if a != b:
                    return False
            elif a.k != b.k or a.negated != b.negated or len(a._subrules) != len(b._subrules):
                return False
            else:
                pairs.extend(zip(a._subrules, b._subrules))
        return True


def _make(cls, subrules, k, negated) -> Operator:
    if cls.parameterized:
        return cls(k, *subrules, negated=negated)
    return cls(*subrules, negated=negated)


class Or(Operator):
    """True when at least one sub-rule is true."""

    __slots__ = ()


class And(Operator):
    """True when every sub-rule is true."""

    __slots__ = ()


class _Counting(Operator):
    """Operators that compare the number of true sub-rules with `k`."""

    __slots__ = ()
    parameterized = True

    def __init__(self, k: int, *subrules: Rule, negated: bool = False):
        super().__init__(*subrules, negated=negated, k=k)


class AtLeast(_Counting):
    """True when at least `k` sub-rules are true."""

    __slots__ = ()


class AtMost(_Counting):
    """True when at most `k` sub-rules are true."""

    __slots__ = ()


class Choose(_Counting):
    """True when exactly `k` sub-rules are true."""

    __slots__ = ()


OPERATORS: dict[str, type[Operator]] = {
    cls.__name__: cls for cls in (Or, And, AtLeast, AtMost, Choose)
}


def resolve_operator(operator, name: str = "operator") -> type[Operator]:
    """The operator class named by `operator` (a name such as "AtLeast", or the class itself);
    errors name the argument `name`."""
    cls = OPERATORS.get(operator) if isinstance(operator, str) else operator
    if cls not in OPERATORS.values():
        raise ValueError(f"unknown operator {operator!r} in {name}; choose from {', '.join(OPERATORS)}")
    return cls


def resolve_operators(operators, name: str = "operators") -> tuple[type[Operator], ...]:
    """Operator classes from one name or class, or a non-empty list of them, without repeats;
    errors name the argument `name`."""
    if isinstance(operators, (str, type)):
        operators = (operators,)
    try:
        operators = tuple(operators)
    except TypeError:
        raise ValueError(f"{name} must be an operator name or class, or a list of them, got {operators!r}") from None
    if not operators:
        raise ValueError(f"{name} must name at least one operator")
    return tuple(dict.fromkeys(resolve_operator(op, name) for op in operators))
