"""Random initial rules and the six local moves of the paper (Section 4.3, Algorithm 1).

Every rule produced here is valid for the native search: operators hold at least two
sub-rules, no two literal children of an operator share a feature, parameterized operators
have `1 <= k <= d - 1` for `d` sub-rules, and complexity (and depth, when bounded) stay
within their limits. Rules are immutable, so a move rebuilds only the path to its target.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..exceptions import InputError
from ..rules import Literal, Operator, Rule

__all__ = ["SearchSpace", "random_rule", "LocalMoves", "node_at", "replace_at"]

LITERAL_MOVES = ("remove_literal", "expand_literal", "swap_literal")
OPERATOR_MOVES = ("remove_operator", "add_literal", "swap_operator")


@dataclass(frozen=True)
class SearchSpace:
    """What the native search may build: features, operators and size limits."""

    num_features: int
    operators: tuple[type[Operator], ...]
    max_complexity: int
    max_depth: int | None = None

    def contains(self, rule: Rule) -> bool:
        """Whether `rule` is one the native search may build (the invariants in this module's docstring)."""
        return self._violation(rule) is None

    def validate(self, rule: Rule) -> None:
        """Raise ValueError saying which invariant `rule` breaks, if any."""
        violation = self._violation(rule)
        if violation is not None:
            raise InputError(f"{rule} is outside the search space: {violation}")

    def _violation(self, rule: Rule) -> str | None:
        if not isinstance(rule, Operator):
            return "the root must be an operator"
        if rule.complexity > self.max_complexity:
            return f"complexity {rule.complexity} exceeds max_complexity={self.max_complexity}"
        if self.max_depth is not None and rule.depth > self.max_depth:
            return f"depth {rule.depth} exceeds max_depth={self.max_depth}"
        for path, node in rule.walk():
            if type(node) is Literal:
                if node.index >= self.num_features:
                    return f"literal {node} at {path} is beyond the {self.num_features} features"
                continue
            if not isinstance(node, Operator):
                return f"the constant {node} at {path} is no literal or operator"
            if type(node) not in self.operators:
                return f"{type(node).__name__} at {path} is not one of the allowed operators"
            d = len(node.subrules)
            if d < 2:
                return f"{node.name} at {path} has fewer than two sub-rules"
            if node.parameterized and not 1 <= node.k <= d - 1:
                return f"{node.name} at {path} needs 1 <= k <= {d - 1}"
            features = [sub.index for sub in node.subrules if type(sub) is Literal]
            if len(features) != len(set(features)):
                return f"{node.name} at {path} has two literals of one feature"
        return None


def _operator(cls: type[Operator], subrules, rng: random.Random) -> Operator:
    """`cls` over `subrules` with a random valid parameter."""
    if cls.parameterized:
        return cls(rng.randint(1, len(subrules) - 1), *subrules)
    return cls(*subrules)


def _with_subrules(op: Operator, subrules) -> Operator:
    """`op` over new sub-rules, its parameter lowered to stay below their count."""
    k = min(op.k, len(subrules) - 1) if op.parameterized else None
    return op.replace(subrules, k=k)


def replace_at(root: Rule, path: tuple[int, ...], new: Rule) -> Rule:
    """`root` with the node at `path` replaced by `new` (ancestors rebuilt, the rest shared)."""
    if not path:
        return new
    subs = list(root.subrules)
    subs[path[0]] = replace_at(subs[path[0]], path[1:], new)
    return root.replace(subs)


def node_at(root: Rule, path: tuple[int, ...]) -> Rule:
    """The node of `root` at `path` (child indices from the root)."""
    for i in path:
        root = root.subrules[i]
    return root


def random_rule(space: SearchSpace, rng: random.Random) -> Operator:
    """A depth-one rule of 2..max_complexity-1 distinct random literals (paper Section 4.2)."""
    most = min(space.max_complexity - 1, space.num_features)
    features = rng.sample(range(space.num_features), rng.randint(2, most))
    literals = [Literal(j, rng.random() < 0.5) for j in features]
    return _operator(rng.choice(space.operators), literals, rng)


def _literal_features(op: Operator) -> set[int]:
    return {sub.index for sub in op.subrules if type(sub) is Literal}


class LocalMoves:
    """Proposes local moves by rejection sampling, cycling through the move types (Algorithm 1)."""

    def __init__(self, space: SearchSpace, rng: random.Random):
        self.space = space
        self.rng = rng
        self._literal_turn = 0
        self._operator_turn = 0

    def propose(self, rule: Operator) -> Operator:
        """A random valid neighbour of `rule`."""
        nodes = rule.walk()
        while True:
            path, target = self.rng.choice(nodes)
            if type(target) is Literal:
                move = LITERAL_MOVES[self._literal_turn]
                self._literal_turn = (self._literal_turn + 1) % 3
            else:
                move = OPERATOR_MOVES[self._operator_turn]
                self._operator_turn = (self._operator_turn + 1) % 3
            proposed = getattr(self, move)(rule, path, target)
            if proposed is not None:
                return proposed

    def remove_literal(self, rule, path, literal):
        parent = node_at(rule, path[:-1])
        if len(parent.subrules) < 3:
            return None
        subs = parent.subrules[: path[-1]] + parent.subrules[path[-1] + 1 :]
        return replace_at(rule, path[:-1], _with_subrules(parent, subs))

    def expand_literal(self, rule, path, literal):
        space = self.space
        parent = node_at(rule, path[:-1])
        if len(parent.subrules) < 3 or rule.complexity >= space.max_complexity:
            return None
        if space.max_depth is not None and len(path) + 1 > space.max_depth:
            return None
        siblings = [
            i for i, sub in enumerate(parent.subrules)
            if type(sub) is Literal and sub.index != literal.index
        ]
        if not siblings:
            return None
        sibling = self.rng.choice(siblings)
        new_op = _operator(self.rng.choice(space.operators), (literal, parent.subrules[sibling]), self.rng)
        subs = [
            new_op if i == path[-1] else sub
            for i, sub in enumerate(parent.subrules)
            if i != sibling
        ]
        return replace_at(rule, path[:-1], _with_subrules(parent, subs))

    def swap_literal(self, rule, path, literal):
        feature = self.rng.randrange(self.space.num_features)
        if feature == literal.index:
            return replace_at(rule, path, ~literal)
        if feature in _literal_features(node_at(rule, path[:-1])):
            return None
        return replace_at(rule, path, Literal(feature, self.rng.random() < 0.5))

    def remove_operator(self, rule, path, op):
        if not path:
            return None
        parent = node_at(rule, path[:-1])
        taken = _literal_features(parent)
        promoted = [
            sub for sub in op.subrules if type(sub) is not Literal or sub.index not in taken
        ]
        subs = parent.subrules[: path[-1]] + tuple(promoted) + parent.subrules[path[-1] + 1 :]
        return replace_at(rule, path[:-1], _with_subrules(parent, subs))

    def add_literal(self, rule, path, op):
        if rule.complexity >= self.space.max_complexity:
            return None
        feature = self.rng.randrange(self.space.num_features)
        if feature in _literal_features(op):
            return None
        new = op.replace((*op.subrules, Literal(feature, self.rng.random() < 0.5)))
        return replace_at(rule, path, new)

    def swap_operator(self, rule, path, op):
        cls = self.rng.choice(self.space.operators)
        new = _operator(cls, op.subrules, self.rng)
        if cls is type(op) and new.k == op.k:
            return None
        if op.negated:
            new = ~new
        return replace_at(rule, path, new)
