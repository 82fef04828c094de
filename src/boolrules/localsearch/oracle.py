"""The non-local move: replace a subtree by the best depth-one subtree found by any backend.

`formulations.md`, "Non-local move oracle": evaluate the rule with the target forced to 0 and
to 1, keep the samples whose outcome depends on the target, label each with the target value
that classifies it correctly, keep its original weight (so the subproblem's weighted error
differs from the full rule's by a constant: exact for balanced accuracy), solve, splice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from ..backends.base import unseeded
from ..formulations import depth_one
from ..rules import And, AtLeast, AtMost, Choose, Literal, One, Operator, Rule, Zero
from ..sampling import subsample_rows
from .moves import SearchSpace, replace_at

__all__ = ["NonLocalOracle", "OracleStats", "native_form", "POLICIES"]

# How `propose` picks its call: "random" a uniform node and operator (the paper's Algorithm 2); "gain"
# a node drawn by the error weight its replacement could remove and an operator by Thompson sampling
# on how often each one's moves have lowered the error so far (benchmarks/README.md, "Move policies").
POLICIES = ("random", "gain")


@dataclass
class OracleStats:
    """Counts of oracle calls: proposed moves, empty answers, and backend failures by kind."""

    calls: int = 0
    proposed: int = 0
    nothing: int = 0
    failures: dict = field(default_factory=dict)

    def fail(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1

    @property
    def failed(self) -> int:
        return sum(self.failures.values())


def native_form(rule: Rule) -> Rule | None:
    """`rule` in the native search space (1 <= k <= d-1, at least two sub-rules), or None.

    The formulations allow k over 0..L; the extremes are other operators in disguise:
    AtLeast_L and Choose_L are And, AtMost_0 and Choose_0 are And of the negations,
    AtLeast_0 and AtMost_L are always true."""
    if not isinstance(rule, Operator):
        return rule
    d = len(rule.subrules)
    if isinstance(rule, (AtLeast, AtMost, Choose)) and not 1 <= rule.k <= d - 1:
        if (isinstance(rule, AtLeast) and rule.k == 0) or (isinstance(rule, AtMost) and rule.k == d):
            return None
        all_true = rule.k == d
        subs = rule.subrules if all_true else tuple(~s for s in rule.subrules)
        rule = And(*subs, negated=rule.negated)
    return rule if d >= 2 else None


class NonLocalOracle:
    """Proposes non-local moves for one search: fixed data, backend and budget, reusable across calls."""

    def __init__(self, bits, X: np.ndarray, y: np.ndarray, weights: np.ndarray, space: SearchSpace,
                 backend, *, operators, max_samples: int, time_limit: float | None, rng: random.Random,
                 policy: str = "random"):
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        self.bits = bits
        self.X = X
        self.y = y.astype(bool)
        self.weights = weights
        self.space = space
        self.backend = backend
        self.operators = operators
        self.max_samples = max_samples
        takes_time_limit = "time_limit" in backend.capabilities
        self.options = {"time_limit": time_limit} if time_limit is not None and takes_time_limit else {}
        self.rng = rng
        self.policy = policy
        self._wins = dict.fromkeys(operators, 0)  # per operator: proposals that lowered the error, and not
        self._losses = dict.fromkeys(operators, 0)
        self._seeded = unseeded(backend)
        self.stats = OracleStats()

    def subproblem(self, rule: Rule, path: tuple, memo: dict | None = None):
        """Rows whose outcome depends on the node at `path`, and the target value each needs."""
        r0 = self.bits.unpack(self.bits.evaluate(replace_at(rule, path, Zero()), memo))
        r1 = self.bits.unpack(self.bits.evaluate(replace_at(rule, path, One()), memo))
        rows = np.flatnonzero(r0 != r1)
        return rows, (r1[rows] == self.y[rows])

    def propose(self, rule: Rule, memo: dict | None = None) -> Rule | None:
        """A node of `rule` replaced by the best depth-one subtree the backend finds, node and
        operator chosen by the policy (`POLICIES`)."""
        nodes = rule.walk()
        if self.policy == "random":
            path, _ = nodes[self.rng.randrange(len(nodes))]
            return self.replace(rule, path, self.rng.choice(self.operators), memo)
        gains = self.gains(rule, memo)
        if not gains.any():  # the rule is right on every row: no replacement can gain
            self.stats.nothing += 1
            return None
        cumulative = np.cumsum(gains)
        index = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"))
        path, _ = nodes[min(index, len(nodes) - 1)]
        operator = max(self.operators, key=lambda op: self.rng.betavariate(self._wins[op] + 1, self._losses[op] + 1))
        nothing = self.stats.nothing
        new = self.replace(rule, path, operator, memo)
        if new is not None and self._error(new, memo) < self._error(rule, memo):
            self._wins[operator] += 1
        elif self.stats.nothing == nothing:  # a solve (or failure) that did not help; no room is no verdict
            self._losses[operator] += 1
        return new

    def gains(self, rule: Rule, memo: dict | None = None) -> np.ndarray:
        """Per node of `rule.walk()`: the weight of the rows it misclassifies whose outcome depends
        on that node, the most its replacement could remove from the weighted error."""
        wrong = self.bits.unpack(self.bits.evaluate(rule, memo)) != self.y
        return np.array([self.weights[rows[wrong[rows]]].sum() for rows in
                         (self.subproblem(rule, path, memo)[0] for path, _ in rule.walk())])

    def _error(self, rule: Rule, memo: dict | None) -> float:
        """Weighted error of `rule` on every row."""
        wrong = self.bits.unpack(self.bits.evaluate(rule, memo)) != self.y
        return float(self.weights[wrong].sum())

    def replace(self, rule: Rule, path: tuple, operator, memo: dict | None = None) -> Rule | None:
        """`rule` with the node at `path` replaced by the backend's best depth-one `operator`
        subtree (or a literal below the root), or None when there is no valid one."""
        self.stats.calls += 1
        target = rule
        for i in path:
            target = target.subrules[i]
        budget = self.space.max_complexity - (rule.complexity - target.complexity)
        min_literals = 2 if not path else 1
        max_literals = min(budget - 1, 2 * self.space.num_features)
        if self.space.max_depth is not None and len(path) + 1 > self.space.max_depth:
            max_literals = min(max_literals, 1 if path else 0)
        rows, labels = self.subproblem(rule, path, memo)
        if max_literals < min_literals or len(rows) == 0:
            self.stats.nothing += 1
            return None
        keep = subsample_rows(len(rows), self.max_samples, self.rng)
        rows, labels = rows[keep], labels[keep]
        try:
            problem = depth_one(
                self.X[rows], labels.astype(np.uint8), operator, max_num_literals=max_literals,
                min_num_literals=min_literals, sample_weight=self.weights[rows],
            )
            seed = {"seed": self.rng.randrange(2**31 - 1)} if self._seeded else {}  # random_state reaches samplers too
            result = self.backend.solve(problem, **self.options, **seed)
        except Exception as exc:  # a failing backend never stops the search
            self.stats.fail(type(exc).__name__)
            return None
        if result.rule is None:  # a solve that failed is counted by its exception, if it kept one
            self.stats.fail(result.status if result.error is None else type(result.error).__name__)
            return None
        return self._splice(rule, path, result.rule)

    def _splice(self, rule: Rule, path: tuple, subtree: Rule) -> Rule | None:
        if not isinstance(subtree, Rule):
            self.stats.fail("invalid")
            return None
        subtree = native_form(subtree)
        if subtree is None or isinstance(subtree, (Zero, One)):  # a constant: nothing to splice
            self.stats.nothing += 1
            return None
        if isinstance(subtree, Literal) and (not path or subtree.index in self._sibling_features(rule, path)):
            self.stats.nothing += 1  # a literal is no root, and one beside a literal of its feature is redundant
            return None
        new = replace_at(rule, path, subtree)
        if not self.space.contains(new):
            self.stats.fail("invalid")
            return None
        self.stats.proposed += 1
        return new

    @staticmethod
    def _sibling_features(rule: Rule, path: tuple) -> set[int]:
        """Features of the literals beside the node at `path`."""
        parent = rule
        for i in path[:-1]:
            parent = parent.subrules[i]
        return {s.index for j, s in enumerate(parent.subrules) if j != path[-1] and type(s) is Literal}
