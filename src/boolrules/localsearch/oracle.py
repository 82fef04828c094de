"""The non-local move: replace a subtree by the best depth-one (or depth-two) subtree found by any backend.

`docs/formulations.md`, "Non-local move oracle": evaluate the rule with the target forced to 0 and
to 1, keep the samples whose outcome depends on the target, label each with the target value
that classifies it correctly, keep its original weight (so the subproblem's weighted error
differs from the full rule's by a constant: exact for balanced accuracy), solve, splice. An
operator builds a depth-one problem; a `Shape` ("DNF", "CNF") a depth-two problem whose
complexity cap is the node's budget (`depth_two_bounds`).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, fields
from functools import partial

import numpy as np

from ..backends.base import unseeded
from ..exceptions import InputError
from ..formulations import depth_one, depth_two
from ..rules import And, AtLeast, AtMost, Choose, Keep, Literal, One, Operator, Or, Rule, Shape, Zero
from ..sampling import subsample_rows
from ..seeding import draw_seed
from .moves import SearchSpace, node_at, replace_at
from .payoff import Payoff

__all__ = ["CallTimes", "NonLocalOracle", "OracleStats", "depth_two_bounds", "native_form", "POLICIES"]

# How `propose` picks its call: "random" a uniform node and operator (the paper's Algorithm 2); "gain"
# a node drawn by the error weight its replacement could remove and an operator by Thompson sampling
# on how often each one's moves have lowered the error so far (benchmarks/README.md, "Move policies");
# "sweep" a uniform node and every operator on its subproblem, keeping the replacement of least error.
POLICIES = ("random", "gain", "sweep")
# Under the "random" policy, depth-two shapes are drawn only while their solves have taken at most this
# share of the oracle's seconds (`CallTimes.depth_two`), so the many short depth-one calls that pay on
# real data keep the rest of the oracle's time (at half, Credit Risk lost 0.006 train BA at equal time;
# benchmarks/studies/native-depth-two.md, "Three-term moves that earn their time").
DEPTH_TWO_SHARE = 0.25
# Seconds between two looks at the clock while a solve runs under a time slice: a solve is left
# running at most this long after its slice ended.
SOLVE_POLL = 0.01


@dataclass
class OracleStats:
    """Counts of oracle calls: proposed moves, empty answers, and backend failures by kind; what the
    solver itself contributed: of the calls it `solved` (answered with a rule), those whose raw
    answer (a sampler's lowest-energy sample as it stands) was a valid rule (`raw_feasible`), and
    each proposed move by the first stage of the answer that already reached its objective
    (`moves_by_stage`: "raw", the solver's own; "repaired"; "polished", the classical clean-up's);
    the wall `seconds` the search waited on the oracle."""

    calls: int = 0
    proposed: int = 0
    nothing: int = 0
    failures: dict = field(default_factory=dict)
    solved: int = 0
    raw_feasible: int = 0
    moves_by_stage: dict = field(default_factory=dict)
    seconds: float = field(default=0.0, compare=False)  # wall time: runs that repeat exactly still compare equal

    def fail(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1

    def answered(self, result) -> None:
        """Count a backend's answer with a rule: solved, and whether its raw stage was valid as it stood."""
        self.solved += 1
        raw = result.stages.get("raw")
        self.raw_feasible += bool(raw is not None and raw.feasible)

    def credit(self, result) -> None:
        """Count a proposed move under the first stage of `result` that reached its objective."""
        stage = next((name for name, stage in result.stages.items()
                      if stage.objective is not None and stage.objective <= result.objective + 1e-12), result.stage)
        self.moves_by_stage[stage] = self.moves_by_stage.get(stage, 0) + 1

    def __add__(self, other: OracleStats) -> OracleStats:
        """The counts of both (a fit's starts summed): numbers added, counts by kind merged."""
        def merged(a: dict, b: dict) -> dict:
            return {key: a.get(key, 0) + b.get(key, 0) for key in {**a, **b}}
        return OracleStats(**{f.name: merged(getattr(self, f.name), getattr(other, f.name))
                              if isinstance(getattr(self, f.name), dict) else getattr(self, f.name) + getattr(other, f.name)
                              for f in fields(self)})

    @property
    def failed(self) -> int:
        return sum(self.failures.values())


@dataclass
class CallTimes:
    """Seconds that non-local moves have taken, shared by the oracles of the starts on one process,
    and a solve still `running` in the background after its start's slice ended (`NonLocalOracle`).
    Under a time slice a move is proposed only when a mean one fits in the time left and no solve
    is left running: one `sa` call can outlast a whole slice, and later starts must not lose their time to it.
    `limits`: the time limit each depth-two shape has earned, `depth_two` the seconds their solves
    took, and `record` per shape its calls that lowered the error and those that did not (`NonLocalOracle`)."""

    seconds: float = 0.0
    calls: int = 0
    running: threading.Thread | None = None
    limits: dict = field(default_factory=dict)
    depth_two: float = 0.0
    record: dict = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def mean(self) -> float:
        return self.seconds / max(self.calls, 1)

    @property
    def busy(self) -> bool:
        return self.running is not None and self.running.is_alive()

    def add_depth_two(self, seconds: float) -> None:
        """Count `seconds` more of depth-two solves."""
        with self.lock:
            self.depth_two += seconds

    def add(self, seconds: float, calls: int = 1) -> None:
        """Count `seconds` more (of `calls` moves; 0: the rest of a solve left running)."""
        with self.lock:
            self.seconds += seconds
            self.calls += calls


def native_form(rule: Rule) -> Rule | None:
    """`rule` in the native search space (1 <= k <= d-1, at least two sub-rules), or None.

    The formulations allow k over 0..L; the extremes are other operators in disguise:
    AtLeast_L and Choose_L are And, AtMost_0 and Choose_0 are And of the negations,
    AtLeast_0 and AtMost_L are always true. And and Or keep one of repeated sub-rules (a depth-two
    formulation may repeat a term to meet its least number of terms: Or(x, x) is x)."""
    if not isinstance(rule, Operator):
        return rule
    subs = tuple(dict.fromkeys(rule.subrules))
    if isinstance(rule, (And, Or)) and len(subs) < len(rule.subrules):
        if len(subs) == 1:
            return ~subs[0] if rule.negated else subs[0]
        rule = rule.replace(subs)
    d = len(rule.subrules)
    if isinstance(rule, (AtLeast, AtMost, Choose)) and not 1 <= rule.k <= d - 1:
        if (isinstance(rule, AtLeast) and rule.k == 0) or (isinstance(rule, AtMost) and rule.k == d):
            return None
        all_true = rule.k == d
        subs = rule.subrules if all_true else tuple(~s for s in rule.subrules)
        rule = And(*subs, negated=rule.negated)
    return rule if d >= 2 else None


def depth_two_bounds(shape: Shape, budget: int, depth_left: int | None, root: bool, num_features: int) -> dict | None:
    """`depth_two`'s bounds for a node with `budget` nodes and `depth_left` levels (None: unbounded)
    to fill, or None when no depth-two subtree fits. At the root at least two terms (an operator,
    never a bare literal), elsewhere at least one (never a constant); each term gets the literals
    left once the outer node and a second term are paid for (`shape.max_literals_per_term` at most)."""
    if (depth_left is not None and depth_left < 2) or budget < 3:
        return None
    per_term = min(budget - 3, num_features, shape.max_literals_per_term or num_features)
    return {"max_terms": shape.max_terms, "max_literals_per_term": max(per_term, 1), "max_complexity": budget,
            "min_terms": 2 if root else 1}


class NonLocalOracle:
    """Proposes non-local moves for one search: fixed data, backend and budget, reusable across calls.

    A backend that takes a time limit gets `time_limit` seconds per call, and never more than what is
    left until `until` (a `time.monotonic()` value: the end of the start's time slice). With
    `max_time_limit`, each depth-two shape earns its own limit: twice the last after a call that
    stopped at its limit without a proof (status "time_limit"), half after one that ended early,
    between `time_limit` and `max_time_limit`. A depth-two call cut short lacks whole terms (each
    term is a depth-one search), while a depth-one call cut short returns a near incumbent, and many
    such short calls find more than a few long ones. Under the "random" policy a shape is tried at
    the root, and a drawn one is made by Thompson sampling on its record (moves that lowered the
    error, and not; no verdict on a call cut short before its limit reached the cap) while
    depth-two solves have taken at most `DEPTH_TWO_SHARE` of the oracle's seconds, an operator
    instead otherwise: the oracle's time goes to depth-two moves where they pay. With `until`,
    on every backend, a solve still running then is left to end in the background, its answer
    unused (`_solve`). `call_times` (None: the oracle's own) times the moves of all the starts
    on one process (and the limits and records of their shapes), and `payoff` (None: its own) counts
    what they and the local moves gained."""

    def __init__(self, bits, X: np.ndarray, y: np.ndarray, weights: np.ndarray, space: SearchSpace,
                 backend, *, operators, max_samples: int, time_limit: float | None, rng: random.Random,
                 until: float | None = None, max_time_limit: float | None = None, policy: str = "random",
                 call_times: CallTimes | None = None, payoff: Payoff | None = None):
        if policy not in POLICIES:
            raise InputError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        self.bits = bits
        self.X = X
        self.y = y.astype(bool)
        self.weights = weights
        self.space = space
        self.backend = backend
        shapes = [op.name for op in operators if isinstance(op, Shape)]
        if shapes and "depth_two" not in backend.capabilities:
            raise InputError(f"backend {backend.name!r} solves depth-one problems only, so it cannot make the "
                             f"depth-two moves {', '.join(shapes)}: drop them from nonlocal_operators or use "
                             "a backend that takes depth-two problems (native, highs, a QUBO sampler)")
        self.operators = operators
        self._depth_one = [op for op in operators if not isinstance(op, (Shape, Keep))]
        self.max_samples = max_samples
        self.time_limit = time_limit if "time_limit" in backend.capabilities else None
        self.max_time_limit = None if self.time_limit is None else max_time_limit
        self.until = until if "time_limit" in backend.capabilities else None
        self.slice_end = until
        self.call_times = CallTimes() if call_times is None else call_times
        self.payoff = Payoff() if payoff is None else payoff
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

    def propose(self, rule: Rule, memo: dict | None = None, time_limit: float | None = None) -> Rule | None:
        """A node of `rule` replaced by the best depth-one subtree the backend finds, node and
        operator chosen by the policy (`POLICIES`); `time_limit` cuts this call's limit further."""
        nodes = rule.walk()
        if self.policy == "random":  # a shape at the root, where the whole rule's budget leaves room for its terms
            path, _ = nodes[self.rng.randrange(len(nodes))]
            operator = self.rng.choice(self.operators)
            if isinstance(operator, Shape) and self._depth_one and not self._try_shape(operator):
                operator = self.rng.choice(self._depth_one)
            return self.replace(rule, () if isinstance(operator, Shape) else path, operator, memo, time_limit)
        if self.policy == "sweep":
            path, _ = nodes[self.rng.randrange(len(nodes))]
            share = None if time_limit is None else time_limit / len(self.operators)
            found = [new for op in self.operators if (new := self.replace(rule, path, op, memo, share)) is not None]
            return min(found, key=lambda new: (self._error(new, memo), new.complexity), default=None)
        gains = self.gains(rule, memo)
        if not gains.any():  # the rule is right on every row: no replacement can gain
            self.stats.nothing += 1
            return None
        cumulative = np.cumsum(gains)
        index = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"))
        path, _ = nodes[min(index, len(nodes) - 1)]
        operator = max(self.operators, key=lambda op: self.rng.betavariate(self._wins[op] + 1, self._losses[op] + 1))
        nothing = self.stats.nothing
        new = self.replace(rule, path, operator, memo, time_limit)
        if new is not None and self._error(new, memo) < self._error(rule, memo):
            self._wins[operator] += 1
        elif self.stats.nothing == nothing:  # a solve (or failure) that did not help; no room is no verdict
            self._losses[operator] += 1
        return new

    def _try_shape(self, shape: Shape) -> bool:
        """Whether to make the drawn depth-two move: while depth-two solves have taken at most
        `DEPTH_TWO_SHARE` of the oracle's seconds, with the chance that `shape`'s calls lower the
        error (a draw from the Beta posterior of its record on this process: Thompson sampling)."""
        if self.call_times.depth_two > DEPTH_TWO_SHARE * self.call_times.seconds:
            return False
        wins, losses = self.call_times.record.get(shape, (0, 0))
        return self.rng.random() < self.rng.betavariate(wins + 1, losses + 1)

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

    def replace(self, rule: Rule, path: tuple, operator, memo: dict | None = None,
                time_limit: float | None = None) -> Rule | None:
        """`rule` with the node at `path` replaced by the backend's best depth-one `operator`
        subtree (or a literal below the root), or best depth-two subtree when `operator` is a
        `Shape`, or a kept sub-rule and its partner when it is `Keep` (`keep`), or None when there
        is no valid one (or a solve left running by an earlier call has not ended: the backend is
        busy, and no call is made)."""
        if isinstance(operator, Keep):
            return self.keep(rule, path, memo, time_limit)
        if self.call_times.busy:
            return None
        self.stats.calls += 1
        target = node_at(rule, path)
        budget = self.space.max_complexity - (rule.complexity - target.complexity)
        min_literals = 2 if not path else 1
        max_literals = min(budget - 1, 2 * self.space.num_features)
        if self.space.max_depth is not None and len(path) + 1 > self.space.max_depth:
            max_literals = min(max_literals, 1 if path else 0)
        if isinstance(operator, Shape):
            depth_left = None if self.space.max_depth is None else self.space.max_depth - len(path)
            bounds = depth_two_bounds(operator, budget, depth_left, not path, self.space.num_features)
            build = None if bounds is None else partial(depth_two, shape=operator, **bounds)
        else:
            build = None if max_literals < min_literals else partial(
                depth_one, operator=operator, max_num_literals=max_literals, min_num_literals=min_literals)
        rows, labels = self.subproblem(rule, path, memo)
        if build is None or len(rows) == 0:
            self.stats.nothing += 1
            return None
        keep = subsample_rows(len(rows), self.max_samples, self.rng)
        rows, labels = rows[keep], labels[keep]
        try:
            problem = build(self.X[rows], labels.astype(np.uint8), sample_weight=self.weights[rows])
            seed = {"seed": draw_seed(self.rng)} if self._seeded else {}  # random_state reaches samplers too
            limit = self._limit(operator)
            options, began = {**self._time_limit(time_limit, limit), **seed}, time.perf_counter()
            try:
                result = self._solve(problem, options)
            finally:
                if isinstance(operator, Shape):
                    self.call_times.add_depth_two(time.perf_counter() - began)
        except Exception as exc:  # a failing backend never stops the search
            self.stats.fail(type(exc).__name__)
            return None
        if result is None:
            self.stats.fail("abandoned")  # still running when the start's slice ended
            return None
        self._earn(operator, limit, result.status)
        if result.rule is None:  # a solve that failed is counted by its exception, if it kept one
            self.stats.fail(result.status if result.error is None else type(result.error).__name__)
            return None
        self.stats.answered(result)
        new = self._splice(rule, path, result.rule)
        if new is not None:
            self.stats.credit(result)
        if isinstance(operator, Shape):
            cut = result.status == "time_limit" and self.max_time_limit is not None and limit < self.max_time_limit
            self._judge(operator, rule, new, memo, cut)
        return new

    def keep(self, rule: Rule, path: tuple, memo: dict | None = None, time_limit: float | None = None) -> Rule | None:
        """`rule` with the operator X at `path` (a literal's parent for a literal) replaced by And(C, N)
        or Or(C, N), whichever the search space allows (`Keep`): C is X or an operator below it, either
        way round, N's operator drawn at random (`partner`). Literals are not kept: keeping one is a
        depth-one move's work."""
        outers = [op for op in (And, Or) if op in self.space.operators]
        if not self._depth_one or not outers:
            self.stats.nothing += 1
            return None
        path = path if isinstance(node_at(rule, path), Operator) else path[:-1]
        node = node_at(rule, path)
        kept = self.rng.choice((node, *(sub for sub in node.subrules if isinstance(sub, Operator))))
        kept = ~kept if self.rng.random() < 0.5 else kept
        return self.partner(rule, path, kept, self.rng.choice(outers), self.rng.choice(self._depth_one),
                            memo, time_limit)

    def partner(self, rule: Rule, path: tuple, kept: Rule, outer: type[Operator], operator,
                memo: dict | None = None, time_limit: float | None = None) -> Rule | None:
        """`rule` with the node at `path` replaced by outer(kept, N), N the backend's best depth-one
        `operator` subtree for that place; merged into a parent of the same kind where it can be.
        None when `kept` one level deeper breaks `max_depth`."""
        if self.space.max_depth is not None and len(path) + 1 + kept.depth > self.space.max_depth:
            self.stats.nothing += 1
            return None
        holder = replace_at(rule, path, outer(kept, One() if outer is And else Zero()))
        new = self.replace(holder, path + (1,), operator, memo, time_limit)
        if new is None:
            return None
        for at in (path + (1,), path + (0,), path):  # N, then C, then the new node into its parent
            new = self._merged(new, at)
        return new

    def _merged(self, rule: Rule, path: tuple) -> Rule:
        """`rule` with the And or Or at `path` merged into a parent of its kind (And(a, And(b, c)) is
        And(a, b, c)) when the result stays in the search space."""
        if not path:
            return rule
        node, parent = node_at(rule, path), node_at(rule, path[:-1])
        if type(node) is not type(parent) or type(node) not in (And, Or) or node.negated:
            return rule
        merged = replace_at(rule, path[:-1], parent.replace(
            parent.subrules[: path[-1]] + node.subrules + parent.subrules[path[-1] + 1 :]))
        return merged if self.space.contains(merged) else rule

    def _judge(self, shape: Shape, rule: Rule, new: Rule | None, memo: dict | None, cut: bool) -> None:
        """Count `shape`'s move in its record: a win when it lowered the error of `rule`, else a loss,
        unless the call was `cut` short before its limit could grow to the cap (no verdict yet)."""
        won = new is not None and self._error(new, memo) < self._error(rule, memo)
        if won or not cut:
            with self.call_times.lock:
                wins, losses = self.call_times.record.get(shape, (0, 0))
                self.call_times.record[shape] = (wins + won, losses + (not won))

    def _solve(self, problem, options: dict):
        """`backend.solve(problem, **options)`; under a slice, waited for until its end at most: a
        solve still running then is left to end in a daemon thread (`call_times.running`, its
        seconds counted when it ends) and None is returned, so that no call, on any backend (an `sa`
        read, a QUBO compile, a backend without a time limit), outlasts its start's slice."""
        if self.slice_end is None:
            return self.backend.solve(problem, **options)
        outcome, left = {}, []

        def run():
            began = time.perf_counter()
            try:
                outcome["result"] = self.backend.solve(problem, **options)
            except Exception as exc:  # raised in the caller's thread, unless it has left
                outcome["error"] = exc
            if left:  # the time past the wait, so the mean call counts all of it
                self.call_times.add(time.perf_counter() - max(began, left[0]), calls=0)

        thread = threading.Thread(target=run, name="boolrules non-local solve", daemon=True)
        thread.start()
        while thread.is_alive():
            wait = self.slice_end - time.monotonic()
            if wait <= 0:
                left.append(time.perf_counter())
                self.call_times.running = thread
                return None
            thread.join(min(wait, SOLVE_POLL))
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]

    def _limit(self, operator) -> float | None:
        """The time limit `operator`'s calls have earned: a shape's under `max_time_limit`, else `time_limit`."""
        if self.max_time_limit is None or not isinstance(operator, Shape):
            return self.time_limit
        return min(self.max_time_limit, max(self.time_limit, self.call_times.limits.get(operator, 0.0)))

    def _earn(self, operator, limit: float | None, status: str) -> None:
        """`operator`'s next limit: twice `limit` after a call that stopped at it unproven, else half."""
        if self.max_time_limit is not None and isinstance(operator, Shape):
            with self.call_times.lock:
                self.call_times.limits[operator] = limit * 2 if status == "time_limit" else limit / 2

    def _time_limit(self, extra: float | None = None, limit: float | None = None) -> dict:
        """The time limit of the next call: `limit` (default `time_limit`), cut to the time left until
        `until` and to `extra` (for backends that take a time limit)."""
        limit = self.time_limit if limit is None else limit
        limits = [] if limit is None else [limit]
        if extra is not None and "time_limit" in self.backend.capabilities:
            limits.append(max(0.0, extra))
        if self.until is not None:
            limits.append(max(0.0, self.until - time.monotonic()))
        return {"time_limit": min(limits)} if limits else {}

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
        parent = node_at(rule, path[:-1])
        return {s.index for j, s in enumerate(parent.subrules) if j != path[-1] and type(s) is Literal}
