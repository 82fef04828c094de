"""Literal scans: every literal at one place of a rule scored in one vectorised pass (a cheap large move).

With the place left as a hole and the rule evaluated with the hole forced to 0 and to 1 (`r0`, `r1`,
as the non-local oracle does), the rule with literal j in the hole predicts `r0 ^ ((r0 ^ r1) & L_j)`:
its confusion counts are those of `r0` plus popcounts of `L_j` against four masks, for all 2m
literals at once. Two kinds of hole: the node itself (replaced by a literal; not the root) and a
new last child of an operator (a literal inserted).
"""

from __future__ import annotations

import random

import numpy as np

from ..rules import Literal, One, Operator, Rule, Zero
from .moves import SearchSpace, node_at, replace_at

__all__ = ["LiteralScan", "REPLACE", "INSERT"]

REPLACE, INSERT = 0, 1


class LiteralScan:
    """Proposes a literal replacement or insertion at a random node, drawn by its objective at the
    current temperature among all of them, scored by `scan` on the scorer's packed data."""

    def __init__(self, scorer, space: SearchSpace, rng: random.Random):
        self.scorer = scorer
        self.space = space
        self.rng = rng
        bits = scorer.bits
        self._literal_words = bits.literal_words
        self._not_y = ~scorer.y_words & bits.ones
        self._features = np.arange(2 * bits.m) % bits.m
        self._negated = np.arange(2 * bits.m) >= bits.m

    def candidate(self, rule: Rule, path: tuple, kind: int, j: int) -> Rule:
        """`rule` with literal `j` (row j of the packed literals) in the hole of `kind` at `path`."""
        literal = Literal(int(self._features[j]), bool(self._negated[j]))
        if kind == REPLACE:
            return replace_at(rule, path, literal)
        node = node_at(rule, path)
        return replace_at(rule, path, node.replace((*node.subrules, literal)))

    def scan(self, rule: Rule, path: tuple) -> tuple[np.ndarray, np.ndarray]:
        """`(objectives, valid)`, each (2, 2m): row REPLACE for the node at `path` replaced by each
        literal, row INSERT for each literal added to it (an operator); `valid` marks the candidates
        in the search space that differ from `rule`."""
        node = node_at(rule, path)
        num_literals = len(self._features)
        objectives = np.full((2, num_literals), -np.inf)
        valid = np.zeros((2, num_literals), dtype=bool)
        if path:
            valid[REPLACE] = self._free(node_at(rule, path[:-1]), skip=path[-1])
            if type(node) is Literal:
                valid[REPLACE, self.scorer.bits.literal_row(node)] = False
            objectives[REPLACE] = self._objectives(
                replace_at(rule, path, Zero()), replace_at(rule, path, One()),
                rule.complexity - node.complexity + 1,
            )
        if isinstance(node, Operator) and rule.complexity < self.space.max_complexity:
            valid[INSERT] = self._free(node)
            objectives[INSERT] = self._objectives(
                replace_at(rule, path, node.replace((*node.subrules, Zero()))),
                replace_at(rule, path, node.replace((*node.subrules, One()))),
                rule.complexity + 1,
            )
        return objectives, valid

    def propose(self, rule: Rule, temperature: float) -> Rule | None:
        """A literal replacement or insertion at a random node, drawn with weight
        exp(objective / temperature); None when there is none. (Taking the best one instead, with
        some probability, did no better: benchmarks/README.md, "Move policies".)"""
        nodes = rule.walk()
        path, _ = nodes[self.rng.randrange(len(nodes))]
        objectives, valid = self.scan(rule, path)
        if not valid.any():
            return None
        objectives = np.where(valid, objectives, -np.inf).ravel()
        cumulative = np.cumsum(np.exp((objectives - objectives.max()) / temperature))
        choice = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"))
        choice = min(choice, len(objectives) - 1)
        kind, j = divmod(choice, len(self._features))
        return self.candidate(rule, path, kind, j)

    def _free(self, op: Operator, skip: int | None = None) -> np.ndarray:
        """Literals whose feature is not already a literal child of `op` (child `skip` aside)."""
        taken = [s.index for i, s in enumerate(op.subrules) if i != skip and type(s) is Literal]
        return ~np.isin(self._features, taken)

    def _objectives(self, hole0: Rule, hole1: Rule, complexity: int) -> np.ndarray:
        """Objective of the rule for each literal in the hole, from the rule with the hole at 0 and at 1."""
        scorer = self.scorer
        bits = scorer.bits
        r0 = bits.evaluate(hole0, scorer.memo)
        r1 = bits.evaluate(hole1, scorer.memo)
        tp0 = int(np.bitwise_count(r0 & scorer.y_words).sum())
        fp0 = int(np.bitwise_count(r0).sum()) - tp0
        changed = r0 ^ r1
        words = np.flatnonzero(changed)  # only the words where the hole matters
        up, down = (changed & ~r0)[words], (changed & r0)[words]
        y, not_y = scorer.y_words[words], self._not_y[words]
        masks = np.stack([up & y, down & y, up & not_y, down & not_y])
        counts = np.bitwise_count(self._literal_words[:, None, words] & masks).sum(axis=2, dtype=np.int64)
        tp = tp0 + counts[:, 0] - counts[:, 1]
        fp = fp0 + counts[:, 2] - counts[:, 3]
        scores = np.asarray(scorer.metric(tp, fp, scorer.num_pos - tp, scorer.num_neg - fp), dtype=float)
        return scores - scorer.lam * complexity
