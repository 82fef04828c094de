"""`DepthTwoProblem`: a built depth-two model (`depth_two.py`) with its data, decoding, repair and
inspection.

A solution is the literal choice `z` (terms x 2m literals: features, then their negations); every
other variable follows from it. Candidate changes (add, drop a literal, start a term) are scored
together as matrices over the samples, for repair and for the greedy warm start.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyomo.environ as pyo

from ..exceptions import InputError
from ..rules import Literal, One, Rule, Shape, Zero
from .model_problem import ModelProblem
from .standard_form import Group, Layout

__all__ = ["DepthTwoProblem"]


@dataclass(eq=False)
class DepthTwoProblem(ModelProblem):
    """A depth-two rule problem (`docs/formulations.md`, "Depth-two subtrees") as a Pyomo model plus its data.

    Variables `z`, `u`, `s` (when terms may hold more than one literal), `a`, `eta`; constraints are
    named blocks (`term_max`, `fired_rows`, `quiet_rows`, ...). Objective: Σ w_i η_i + λ C with C the
    number of nodes of the decoded rule (depth-one problems charge λ per literal instead).
    """

    model: pyo.ConcreteModel
    X: np.ndarray
    y: np.ndarray
    shape: Shape
    negated: bool
    max_terms: int
    max_literals_per_term: int
    max_complexity: int | None
    min_terms: int
    lam: float
    weights: np.ndarray

    @property
    def label(self) -> str:
        """The shape as printed: `DNF`, `~CNF`."""
        return ("~" if self.negated else "") + self.shape.name

    @property
    def layout(self) -> Layout:
        """Sample rows are `fired_terms`, `fired_rows` and `quiet_rows`; the literals of each term
        form a group bounded by the literals per term (`standard_form.py`)."""
        groups = tuple(Group(("z",), ("term_max",), self.max_literals_per_term, key=k)
                       for k in range(self.max_terms))
        return Layout(("fired_terms", "fired_rows", "quiet_rows"), groups, ("z",))

    @property
    def keeps_eta(self) -> bool:
        return True

    @property
    def soft_rows_price_rules(self) -> bool:
        """No: without η no brute-force test bounds a depth-two QUBO's energy by the rule's objective."""
        return False

    @property
    def objective_range(self) -> float:
        """An upper bound on how much the objective can vary: all weights and λ times any node count."""
        nodes = 2 + 2 * self.max_terms + 2 * self.num_features * self.max_terms
        return float(self.weights.sum()) + self.lam * nodes

    @cached_property
    def _breaks(self) -> np.ndarray:
        """(n, 2m) V: literal j stops a term firing on sample i (false for an And term, true for an Or term)."""
        truth = np.concatenate([self.X, 1 - self.X], axis=1).astype(bool)
        return truth if self.shape.name == "CNF" else ~truth

    @cached_property
    def _fired(self) -> np.ndarray:
        """(n,) the samples on which some term should fire."""
        return (self.y == 1) ^ (self.shape.name == "CNF") ^ self.negated

    @property
    def fired(self) -> np.ndarray:
        """(n,) bool: the samples on which some term should fire (an And term true in a DNF, an Or
        term false in a CNF; the other way round when `negated`), the target of a search on terms."""
        return self._fired.copy()

    # Solutions and rules

    def _choice(self, values) -> np.ndarray:
        """(K, 2m) bool literal choice from {"z": ...}, checked."""
        if not isinstance(values, dict) or "z" not in values:
            raise InputError(f"values must be a dict with the block z, got {values!r:.80}")
        z = np.asarray(values["z"])
        K, m2 = self.max_terms, 2 * self.num_features
        if z.size != K * m2:
            raise InputError(f"z must hold {K} x {m2} values (terms x literals), got {z.size}")
        return z.reshape(K, m2).round().astype(bool)

    def _terms(self, z: np.ndarray) -> list[np.ndarray]:
        """The literal indices of each non-empty term."""
        return [np.flatnonzero(row) for row in z if row.any()]

    def decode(self, values) -> Rule:
        """The rule that `values` ({"z"}) encodes: unused (empty) terms are dropped, a term of one
        literal is that literal, a single term is the rule itself, no term is a constant."""
        m = self.num_features
        terms = []
        for literals in self._terms(self._choice(values)):
            subs = [Literal(int(j % m), bool(j >= m)) for j in literals]
            terms.append(subs[0] if len(subs) == 1 else self.shape.inner(*subs))
        if not terms:
            rule = Zero() if self.shape.outer.__name__ == "Or" else One()
        else:
            rule = terms[0] if len(terms) == 1 else self.shape.outer(*terms)
        return ~rule if self.negated else rule

    def errors(self, rule: Rule) -> np.ndarray:
        """0/1 per sample: does `rule` misclassify it?"""
        return rule.evaluate(self.X) != self.y.astype(bool)

    def objective(self, rule: Rule) -> float:
        """The true objective of `rule`: Σ w_i [error_i] + λ × complexity (its number of nodes)."""
        return float(self.weights @ self.errors(rule)) + self.lam * rule.complexity

    # Repair, greedy and feasible points (for heuristic samples and warm starts)

    @staticmethod
    def _complexity(sizes) -> int:
        sizes = [s for s in sizes if s]
        return (1 if len(sizes) > 1 else 0) + sum(s + (s > 1) for s in sizes)

    def _score(self, fires: np.ndarray, sizes) -> np.ndarray:
        """Objectives of candidates whose "some term fires" columns are `fires` (n, c)."""
        errors = fires != self._fired[:, None]
        return self.weights @ errors + self.lam * np.asarray(sizes, dtype=float)

    def _fires(self, z: np.ndarray) -> np.ndarray:
        """(n, K) term k fires on sample i (an empty term never fires)."""
        return (~(self._breaks.astype(np.int64) @ z.T.astype(np.int64)).astype(bool)) & z.any(axis=1)

    def _value(self, z: np.ndarray) -> float:
        sizes = z.sum(axis=1)
        return float(self._score(self._fires(z).any(axis=1)[:, None], [self._complexity(sizes)])[0])

    def _single_features(self, z: np.ndarray) -> np.ndarray:
        """Features of the single-literal terms."""
        singles = z[z.sum(axis=1) == 1]
        return np.flatnonzero(singles.any(axis=0)) % self.num_features

    def _fits(self, z: np.ndarray, strict: bool = True) -> bool:
        """Within the ILP's bounds (no term holds a feature and its negation), and when `strict` a
        valid native rule: no two terms are equal, no two single-literal terms share a feature."""
        m = self.num_features
        sizes = z.sum(axis=1)
        used = z[sizes > 0]
        singles = self._single_features(z)
        return bool(
            (sizes <= self.max_literals_per_term).all() and not (z[:, :m] & z[:, m:]).any()
            and (self.max_complexity is None or self._complexity(sizes) <= self.max_complexity)
            and (not strict or (len(np.unique(used, axis=0)) == len(used) and len(np.unique(singles)) == len(singles)))
        )

    def _moves(self, z: np.ndarray, grow: bool, shrink: bool, strict: bool = True):
        """(objective, new z) of every single literal addition (to a term, or as a new term) and
        removal that keeps the term bounds and exclusive literals (and when `strict`, starts no
        single-literal term beside one of the same feature); candidates scored together."""
        m, K = self.num_features, self.max_terms
        fires = self._fires(z)
        sizes = z.sum(axis=1)
        used = np.flatnonzero(sizes)
        out = []
        if grow:
            targets = list(used[sizes[used] < self.max_literals_per_term])
            if len(used) < K:
                targets.append(int(np.flatnonzero(sizes == 0)[0]))
            for k in targets:
                others = np.delete(fires, k, axis=1).any(axis=1)
                taken = z[k, :m] | z[k, m:]
                if strict and not sizes[k]:  # a single-literal term beside one of the same feature: no native rule
                    taken = taken.copy()
                    taken[self._single_features(z)] = True
                allowed = ~z[k] & ~np.concatenate([taken, taken])
                js = np.flatnonzero(allowed)
                base = fires[:, k] if sizes[k] else np.ones(len(fires), bool)
                new = others[:, None] | (base[:, None] & ~self._breaks[:, js])
                new_sizes = sizes.copy()
                new_sizes[k] += 1
                score = self._score(new, [self._complexity(new_sizes)] * len(js))
                out += [(score[c], k, j, True) for c, j in enumerate(js)]
        if shrink:
            for k in used:
                for j in np.flatnonzero(z[k]):
                    candidate = z.copy()
                    candidate[k, j] = False
                    out.append((self._value(candidate), k, j, False))
        return out

    def _apply(self, z, move) -> np.ndarray:
        _, k, j, add = move
        z = z.copy()
        z[k, j] = add
        return z

    def repair_values(self, values) -> dict:
        """The valid choice nearest to `values`: contradicting pairs dropped, then the literal whose
        removal hurts least dropped while a term or the rule is too large (or two terms are equal, or
        two single-literal terms share a feature), then the best literal added as a term while
        there are fewer than `min_terms` terms. When the native rules cannot hold `min_terms` terms
        (too few features for distinct single literals within the bounds), the terms added may
        repeat a feature or a term, as the ILP allows: every setting `depth_two` accepts has a choice."""
        m = self.num_features
        z = self._choice(values).copy()
        both = z[:, :m] & z[:, m:]
        z[:, :m] &= ~both
        z[:, m:] &= ~both
        while not self._fits(z):
            sizes = z.sum(axis=1)
            over = sizes > self.max_literals_per_term
            moves = [mv for mv in self._moves(z, False, True) if over[mv[1]] or not over.any()]
            z = self._apply(z, min(moves, key=lambda mv: mv[0]))
        z = z[np.argsort(~z.any(axis=1), kind="stable")]  # used terms first
        grown = self._add_terms(z, strict=True)
        return {"z": (self._add_terms(z, strict=False) if grown is None else grown).astype(np.int64).ravel()}

    def _add_terms(self, z: np.ndarray, strict: bool) -> np.ndarray | None:
        """`z` with the best single literals added as terms until there are `min_terms`, multi-literal
        terms shrunk to keep within the bounds; None when `strict` and no valid native rule is reached
        so (without `strict` single-literal terms always fit: `depth_two` checks max_complexity)."""
        while z.any(axis=1).sum() < self.min_terms:
            k = int(z.any(axis=1).sum())
            moves = [mv for mv in self._moves(z, True, False, strict) if mv[1] == k]
            if not moves:
                return None
            z = self._apply(z, min(moves, key=lambda mv: mv[0]))
            while not self._fits(z, strict):
                sizes = z.sum(axis=1)
                moves = [mv for mv in self._moves(z, False, True) if sizes[mv[1]] > 1]
                if not moves:
                    return None
                z = self._apply(z, min(moves, key=lambda mv: mv[0]))
        return z

    def polish_values(self, values, deadline: float | None = None) -> dict:
        """Apply the best single literal addition or removal while it lowers the true objective, the
        choice stays valid (at least `min_terms` terms) and `deadline` has not passed."""
        z = self._choice(self.repair_values(values))
        strict = self._fits(z)  # a repair that had to repeat a feature or a term polishes as the ILP allows
        current = self._value(z)
        while deadline is None or time.perf_counter() < deadline:
            best = None
            for move in self._moves(z, True, True, strict):
                candidate = self._apply(z, move)
                if move[0] < current - 1e-12 and self._fits(candidate, strict) and (
                        candidate.any(axis=1).sum() >= self.min_terms) and (best is None or move[0] < best[0]):
                    best = move
            if best is None:
                return {"z": z.astype(np.int64).ravel()}
            z = self._apply(z, best)
            z = z[np.argsort(~z.any(axis=1), kind="stable")]
            current = best[0]
        return {"z": z.astype(np.int64).ravel()}

    def greedy_values(self, deadline: float | None = None) -> dict:
        """The greedy choice grown from no literals until `deadline` (`polish_values` of the empty choice)."""
        return self.polish_values({"z": np.zeros(self.max_terms * 2 * self.num_features)}, deadline)

    def feasible_point(self, values) -> np.ndarray:
        """A feasible ILP solution (over the standard form's columns) for the valid choice `values`:
        terms in the model's symmetry order, u, s, which terms fire on P, and η the errors."""
        z = self._choice(values)
        keys = z.astype(np.int64) @ np.arange(1, z.shape[1] + 1)
        z = z[np.argsort(-keys, kind="stable")]
        sizes = z.sum(axis=1)
        fires = self._fires(z)
        full = {"z": z.astype(np.int64), "u": (sizes > 0).astype(np.int64),
                "a": fires[self._fired].astype(np.int64), "eta": (fires.any(axis=1) != self._fired).astype(np.int64)}
        if self.max_literals_per_term > 1:
            full["s"] = (sizes == 1).astype(np.int64)
        return self.vector_from_values(full)

    def greedy_point(self) -> np.ndarray:
        """The greedy choice as a feasible point: a warm start for the ILP solvers."""
        return self.feasible_point(self.greedy_values())

    # Inspection

    def summary(self) -> dict:
        """Sizes per block, nonzeros and coefficient range."""
        A = self.standard_form.A
        coefficients = np.abs(A.data[A.data != 0])
        return {
            "shape": self.label,
            "samples": self.num_samples,
            "fired_samples": int(self._fired.sum()),
            "features": self.num_features,
            "max_terms": self.max_terms,
            "max_literals_per_term": self.max_literals_per_term,
            "max_complexity": self.max_complexity,
            "min_terms": self.min_terms,
            "lam": self.lam,
            "variables": self.variable_counts(),
            "num_variables": self.num_variables,
            "constraints": self.constraint_counts(),
            "num_constraints": self.num_constraints,
            "nonzeros": int(A.nnz),
            "coefficient_range": ((float(coefficients.min()), float(coefficients.max())) if coefficients.size
                                  else (0.0, 0.0)),
        }

    def _repr_html_(self) -> str:
        s = self.summary()
        rows = "".join(
            f"<tr><td>{kind}</td><td>{html.escape(k)}</td><td>{v}</td></tr>"
            for kind in ("variables", "constraints") for k, v in s[kind].items()
        )
        lo, hi = s["coefficient_range"]
        return (
            f"<b>Depth-two {html.escape(s['shape'])} problem</b>: {s['samples']} samples, {s['features']} features, "
            f"up to {s['max_terms']} terms of {s['max_literals_per_term']} literals, λ = {s['lam']:g}<br>"
            f"{s['num_variables']} variables, {s['num_constraints']} constraints, {s['nonzeros']} nonzeros, "
            f"|coefficients| in [{lo:g}, {hi:g}]<table><tr><th></th><th>block</th><th>count</th></tr>{rows}</table>"
        )
