"""Operators over sub-rules (`Or`, `And`, `AtLeast`, `AtMost`, `Choose`), the flat form pickling
reads back, and the canonical form of a rule (`simplify`), which rewrites operators into one another
and so lives beside them: the same prediction on every input, never more nodes.

Every operator is a function of how many of its n sub-rules are true, so an operator node is a
*pattern*: its truth for each count 0..n. `simplify` rewrites bottom-up: it removes constant
sub-rules, pairs of a sub-rule and its negation (each pair counts exactly one) and repeated
sub-rules where that leaves a simpler rule, then writes the node's pattern with the most familiar
operator that has it, in this order of preference (ties in complexity are decided by it):

1. a constant (`Zero`, `One`) or, over one sub-rule, the sub-rule itself or its negation;
2. `Or` (count >= 1) and `And` (count == n); "none of" (count == 0) as `And` of the negated
   sub-rules and "not all of" (count <= n - 1) as `Or` of them — a negation costs no node, and a
   negated literal reads naturally (`age < 50`), a negated operator is rewritten in turn;
3. `AtLeast` k, then `AtMost` k, then `Choose` k, over the sub-rules as they are;
4. `~Choose` k (count != k), the one pattern no un-negated operator has.

`Or` inside `Or` and `And` inside `And` are flattened. Sub-rules keep their order (the first
occurrence of a repeated one). The result is a fixed point: simplifying it again changes nothing.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from functools import lru_cache

from ..exceptions import InputError, InputTypeError
from ..validation import check_bool, check_integer
from .depth import SHALLOW_DEPTH
from .encode import to_postfix, write_nested
from .names import feature_names_of
from .nodes import Literal, One, Rule, Trivial, Zero
from .semantics import operator_output

__all__ = [
    "Operator",
    "Or",
    "And",
    "AtLeast",
    "AtMost",
    "Choose",
    "OPERATORS",
    "resolve_operator",
    "resolve_operators",
    "make_operator",
    "from_postfix",
    "simplify",
    "negation",
]


def make_operator(cls, subrules, k, negated) -> Rule:
    """An operator of class `cls` (parameterized or not) over `subrules`."""
    if cls.parameterized:
        return cls(k, *subrules, negated=negated)
    return cls(*subrules, negated=negated)


class Operator(Rule):
    """An operator over one or more sub-rules; parameterized operators also hold `k`."""

    __slots__ = ("_subrules", "k")
    kind = "operator"
    parameterized = False

    def __init__(self, *subrules: Rule, negated: bool = False, k: int | None = None):
        if len(subrules) == 1 and isinstance(subrules[0], (list, tuple)):
            subrules = tuple(subrules[0])
        if not subrules:
            raise InputError(f"{type(self).__name__} needs at least one sub-rule")
        for sub in subrules:
            if not isinstance(sub, Rule):
                raise InputTypeError(f"sub-rules of {type(self).__name__} must be rules, got {type(sub).__name__}")
        if self.parameterized:
            k = check_integer(k, "k")
            if not 0 <= k <= len(subrules):
                raise InputError(
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
        return make_operator(type(self), tuple(subrules), k, negated)

    def to_str(self, feature_names=None) -> str:
        feature_names = feature_names_of(feature_names)
        if self.depth > SHALLOW_DEPTH:
            return _deep_str(self, feature_names)
        inner = ", ".join(sub.to_str(feature_names) for sub in self._subrules)
        return f"{self.name}({inner})"

    def __invert__(self) -> Operator:
        return make_operator(type(self), self._subrules, self.k, not self.negated)

    def __reduce__(self):  # flat, so pickling and unpickling never recurse (any depth loads back)
        return (from_postfix, (to_postfix(self),))

    def simplify(self) -> Rule:
        return simplify(self)

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


def _deep_str(rule: Rule, feature_names) -> str:
    """`to_str` of a rule deeper than `SHALLOW_DEPTH`: pieces written in order from a stack and
    joined once (by recursion, each level would also copy all the text below it)."""
    return write_nested(rule, lambda node: node.to_str(feature_names) if not isinstance(node, Operator)
                        or node.depth <= SHALLOW_DEPTH else None, lambda op: op.name + "(", ")")


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
        raise InputError(f"unknown operator {operator!r} in {name}; choose from {', '.join(OPERATORS)}")
    return cls


def resolve_operators(operators, name: str = "operators") -> tuple[type[Operator], ...]:
    """Operator classes from one name or class, or a non-empty list of them, without repeats;
    errors name the argument `name`."""
    if isinstance(operators, (str, type)):
        operators = (operators,)
    try:
        operators = tuple(operators)
    except TypeError:
        raise InputError(f"{name} must be an operator name or class, or a list of them, got {operators!r}") from None
    if not operators:
        raise InputError(f"{name} must name at least one operator")
    return tuple(dict.fromkeys(resolve_operator(op, name) for op in operators))


def from_postfix(tokens) -> Rule:
    """Rebuild a rule from `to_postfix` output; malformed input raises ValueError."""
    done: list[Rule] = []
    try:
        for token in tokens:
            if token[0] == "f":
                done.append(Literal(token[1], token[2]))
            elif token[0] == "c":
                done.append(One() if check_bool(token[1], "constant") else Zero())
            else:
                name, negated, k, count = token
                cls = OPERATORS[name]
                count = check_integer(count, "number of sub-rules", 1, len(done))
                subrules = done[-count:]
                del done[-count:]
                done.append(cls(k, *subrules, negated=negated) if cls.parameterized
                            else cls(*subrules, negated=negated))
    except (KeyError, IndexError, TypeError) as exc:
        raise InputError(f"malformed postfix rule: {exc!r}") from None
    if len(done) != 1:
        raise InputError(f"malformed postfix rule: it holds {len(done)} rules, not one")
    return done[0]


def simplify(rule: Rule) -> Rule:
    """The canonical form of `rule`: equivalent on every input and of no greater complexity."""
    if not isinstance(rule, Rule):
        raise InputTypeError(f"simplify expects a rule, got {type(rule).__name__}")
    if not isinstance(rule, Operator):
        return rule
    if rule.depth > SHALLOW_DEPTH:
        return _simplify_deep(rule)
    children = [simplify(sub) for sub in rule.subrules]
    return _canonical(_pattern(rule), children)


def _simplify_deep(rule: Operator) -> Rule:
    """`simplify` of a rule deeper than `SHALLOW_DEPTH`: runs of Or in Or (And in And) spliced first
    (`_spliced`), then its deep nodes bottom-up from an explicit stack, shallow subtrees by
    recursion. The rewrites of one node ask only for the negations of its new children, which
    `negation` has cached while the level below was rewritten."""
    rule = _spliced(rule)
    if not isinstance(rule, Operator) or rule.depth <= SHALLOW_DEPTH:
        return simplify(rule)
    done: dict = {}
    stack = [rule]
    while stack:
        node = stack[-1]
        deep = [sub for sub in node.subrules if sub.depth > SHALLOW_DEPTH and sub not in done]
        if deep:
            stack.extend(deep)
            continue
        stack.pop()
        if node not in done:
            children = [done[sub] if sub.depth > SHALLOW_DEPTH else simplify(sub) for sub in node.subrules]
            done[node] = _canonical(_pattern(node), children)
    return done[rule]


def _spliced(rule: Rule) -> Rule:
    """`rule` with every un-negated Or that is a sub-rule of an un-negated Or spliced into it (And
    likewise), in one pass from the top: rewriting bottom-up would rebuild the growing node at every
    level of a chain, time quadratic in its depth."""
    children: dict = {}  # operator -> its sub-rules, runs spliced in
    order = []  # operators, each before its sub-rules
    stack = [rule]
    while stack:
        node = stack.pop()
        if not isinstance(node, Operator) or node in children:
            continue
        subs, run = [], list(reversed(node.subrules))
        splices = type(node) in (Or, And) and not node.negated
        while run:
            sub = run.pop()
            if splices and type(sub) is type(node) and not sub.negated:
                run.extend(reversed(sub.subrules))
            else:
                subs.append(sub)
        children[node] = subs
        order.append(node)
        stack.extend(subs)
    built: dict = {}
    for node in reversed(order):  # sub-rules first
        subs = [built.get(sub, sub) for sub in children[node]]
        same = len(subs) == len(node.subrules) and all(a is b for a, b in zip(subs, node.subrules))
        built[node] = node if same else node.replace(subs)
    return built.get(rule, rule)


@lru_cache(maxsize=4096)  # each sub-rule's negation is asked for by its parent and its siblings
def negation(rule: Rule) -> Rule:
    """The canonical form of `~rule` for a rule already in canonical form."""
    if isinstance(rule, Operator):
        return _canonical(tuple(not p for p in _pattern(rule)), list(rule.subrules))
    return ~rule


def _pattern(op: Operator) -> tuple[bool, ...]:
    """Truth of `op` (negation included) for each count 0..n of true sub-rules."""
    n = len(op.subrules)
    truth = operator_output(type(op), range(n + 1), n, op.k)
    return tuple(bool(t) != op.negated for t in truth)


def _constant(pattern) -> Rule | None:
    if all(pattern):
        return One()
    if not any(pattern):
        return Zero()
    return None


# Canonical rules made so far, each kept as the one object of its value: an equal rule built again
# is replaced by it, so comparing two of them stops at identical sub-rules instead of walking a deep
# rule to its leaves. Emptied when it grows past _INTERNED_MAX.
_interned: dict = {}
_INTERNED_MAX = 65536


def _canonical(pattern: tuple[bool, ...], children: list[Rule]) -> Rule:
    """The canonical rule that is `pattern` over `children` (each already canonical)."""
    rule = _rewrite(pattern, children)
    if len(_interned) > _INTERNED_MAX:
        _interned.clear()
    return _interned.setdefault(rule, rule)


def _rewrite(pattern: tuple[bool, ...], children: list[Rule]) -> Rule:
    pattern, children = _drop_constants(pattern, children)
    pattern, children = _drop_complements(pattern, children)
    constant = _constant(pattern)
    if constant is not None:
        return constant
    repeated = _split_repeated(pattern, children)
    if repeated is not None:
        return repeated
    return _write(pattern, children)


def _drop_constants(pattern, children):
    """A true constant shifts the count by one; a false one does not count."""
    kept = []
    for child in children:
        if isinstance(child, Trivial):
            pattern = pattern[1:] if child.value else pattern[:-1]
        else:
            kept.append(child)
    return pattern, kept


def _drop_complements(pattern, children):
    """A sub-rule and its negation together count exactly one: drop both, shift the count. Left to
    right, each sub-rule pairs with the first later copy of its negation still there (positions
    found by value, so a node of n sub-rules costs O(n), not O(n**2))."""
    later = defaultdict(deque)
    for j, child in enumerate(children):
        later[child].append(j)
    dropped = set()
    for i, child in enumerate(children):
        if i in dropped:
            continue
        positions = later.get(negation(child))
        while positions and (positions[0] <= i or positions[0] in dropped):
            positions.popleft()
        if positions:
            dropped.update((i, positions.popleft()))
    pairs = len(dropped) // 2
    return pattern[pairs:len(pattern) - pairs], [child for i, child in enumerate(children) if i not in dropped]


def _split_repeated(pattern, children) -> Rule | None:
    """A sub-rule d repeated m times: when d true or d false makes the node constant, the node is
    Or/And of d (or ~d) and an operator over the others, which has fewer nodes. None if no repeated
    sub-rule allows it."""
    counts = Counter(children)
    tried = set()
    for d in children:
        m = counts[d]
        if m < 2 or d in tried:
            continue
        tried.add(d)
        rest = [child for child in children if child != d]
        size = len(rest)
        when_false, when_true = pattern[: size + 1], pattern[m:]
        if when_false == when_true:
            return _canonical(when_false, rest)
        if all(when_true):
            return _canonical(_any(2), [d, _canonical(when_false, rest)])
        if not any(when_true):
            return _canonical(_all(2), [negation(d), _canonical(when_false, rest)])
        if not any(when_false):
            return _canonical(_all(2), [d, _canonical(when_true, rest)])
        if all(when_false):
            return _canonical(_any(2), [negation(d), _canonical(when_true, rest)])
    return None


def _any(n: int) -> tuple[bool, ...]:
    """The pattern of Or over n sub-rules."""
    return (False,) + (True,) * n


def _all(n: int) -> tuple[bool, ...]:
    """The pattern of And over n sub-rules."""
    return (False,) * n + (True,)


def _write(pattern, children) -> Rule:
    """`pattern` (not constant) over distinct, non-constant `children` with the preferred operator."""
    n = len(children)
    if n == 1:
        return children[0] if pattern == (False, True) else negation(children[0])
    if pattern == _any(n):
        return _flatten(Or, children)
    if pattern == _all(n):
        return _flatten(And, children)
    if pattern == (True,) + (False,) * n:  # none of them: all of their negations
        return _canonical(_all(n), [negation(c) for c in children])
    if pattern == (True,) * n + (False,):  # not all of them: any of their negations
        return _canonical(_any(n), [negation(c) for c in children])
    first = pattern.index(True)
    last = n - pattern[::-1].index(True)
    if all(pattern[first:]):
        return AtLeast(first, *children)
    if all(pattern[:last + 1]):
        return AtMost(last, *children)
    if pattern.count(True) == 1:
        return Choose(first, *children)
    # What is left is true for every count but one: operator patterns, shifted by dropped constants,
    # complements and repeats, are thresholds, single counts or all counts but one.
    return Choose(pattern.index(False), *children, negated=True)


def _flatten(cls, children) -> Rule:
    """`cls` over `children`, with children of the same (un-negated) operator spliced in; the
    spliced rule is simplified again, since splicing can bring repeats or complements together."""
    if not any(type(c) is cls and not c.negated for c in children):
        return cls(*children)
    spliced = []
    for child in children:
        spliced.extend(child.subrules if type(child) is cls and not child.negated else (child,))
    n = len(spliced)
    return _canonical(_any(n) if cls is Or else _all(n), spliced)

