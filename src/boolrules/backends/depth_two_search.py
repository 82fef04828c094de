"""Depth-two search on arrays: the best DNF (Or of Ands) on the problem's terms, exact when small.

A CNF is a DNF by De Morgan: `And_k Or_j l_kj = ~Or_k And_j ~l_kj`, so an Or term of a CNF "fires"
(is false) exactly when the And of its complemented literals is true; searching And terms on the
complemented data `1 - X` with the problem's "wants a term to fire" target (`DepthTwoProblem.fired`,
which already holds the shape and the negated root) serves both shapes, and literal j of the search is
literal j of the problem. Identical rows are merged and a row wanting both ways keeps only the
difference of its weights (as in `depth_one_search.py`).

Two stages share one incumbent. A heuristic (`_cover`): term slots re-solved one at a time with the
others fixed, each the best single literal or the best And found by the exact depth-one search on the
rows the other terms leave open, until a sweep over the slots improves nothing (sequential covering on
the first sweep, term-by-term re-optimisation after); run twice, the second time with Ands only in
the first sweep, as a broad literal taken first often traps the sweeps. Then, when the terms are few
enough to list (`EXACT_TERMS`), a proof (`_branch_and_bound`): every term listed, those with equal or dominated
firing dropped, and multisets of terms searched depth first with bounds from weighted counts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations, product
from math import comb

import numpy as np

from .depth_one_search import search_depth_one

__all__ = ["DepthTwoResult", "EXACT_TERMS", "search_depth_two"]

_EPS = 1e-9
EXACT_TERMS = 2000  # the most terms (literal sets of 1..M literals) listed for the exact search
_BLOCK = 256  # columns of the dominance matrix computed between two deadline checks


@dataclass
class DepthTwoResult:
    """The best terms found (`terms`: max_terms x 2m bool, unused rows empty; literals are the
    problem's, features then negated features), their objective, a lower bound on the optimum
    (None where no proof was tried), whether the optimum is proven and whether the time limit
    stopped the search."""

    terms: np.ndarray
    objective: float
    bound: float | None
    optimal: bool
    stopped: bool


def _complexity(count: int, cost: float) -> float:
    """Nodes of a rule of `count` terms whose term nodes sum to `cost`: the outer node when two or more."""
    return cost + (count > 1)


def _term_cost(size):
    """Nodes of a term of `size` literals: the literal alone, or an And node and its literals."""
    return size + (size > 1)


class _Rows:
    """The merged rows: literal truth (n, 2m) of the searched And terms, the weight of rows wanting a
    term to fire (`wp`) and wanting none (`wn`), and the constant every rule loses."""

    def __init__(self, X: np.ndarray, fired: np.ndarray, weights: np.ndarray):
        rows, inverse = np.unique(X.astype(bool), axis=0, return_inverse=True)
        inverse = inverse.ravel()
        wp = np.bincount(inverse, weights=np.where(fired, weights, 0.0), minlength=len(rows))
        wn = np.bincount(inverse, weights=np.where(fired, 0.0, weights), minlength=len(rows))
        base = np.minimum(wp, wn)
        keep = (wp > base) | (wn > base)
        self.X = rows[keep]
        self.truth = np.concatenate([self.X, ~self.X], axis=1)
        self.wp, self.wn = (wp - base)[keep], (wn - base)[keep]
        self.constant = float(base.sum())

    def error(self, covered: np.ndarray) -> np.ndarray:
        """Weighted errors of the coverings `covered` (n,) or (n, c): rows wanting a term left
        uncovered, rows wanting none covered."""
        return self.wp @ ~covered + self.wn @ covered


@dataclass
class _Settings:
    """The problem's bounds and λ (max_complexity inf: no cap; max_literals at most m)."""

    max_terms: int
    max_literals: int
    max_complexity: float
    min_terms: int
    lam: float


def _best_term(rows: _Rows, s: _Settings, others: np.ndarray, count: int, cost: float, time_limit,
               singles: bool = True):
    """(objective, literals) of the best term to add to terms with covering `others`, `count` terms
    and term nodes `cost`, within `time_limit` seconds (None: none), keeping room for the terms
    `min_terms` still needs; None when none fits. A single literal is scored directly; an And of
    2..M literals by the exact depth-one search on the rows the other terms leave open (the covered
    ones are decided whatever the term)."""
    total = count + 1
    room = s.max_complexity - cost - (max(total, s.min_terms) > 1) - max(0, s.min_terms - total)
    if room < 1:
        return None
    covered = others[:, None] | rows.truth
    objective = rows.error(covered) + s.lam * _complexity(total, cost + 1)
    j = int(np.argmin(objective))
    single = (float(objective[j]), np.array([j]))
    best = single if singles else None
    longest = int(min(s.max_literals, room - 1, rows.X.shape[1]))
    open_rows = ~others
    if longest >= 2 and open_rows.any() and (time_limit is None or time_limit > 0):
        found = search_depth_one(
            rows.X[open_rows], rows.wp[open_rows] > 0, (rows.wp + rows.wn)[open_rows], "And", min_literals=2,
            max_literals=longest, lam=s.lam, exclusive=True, time_limit=time_limit)
        value = found.objective + rows.wn @ others + s.lam * (_complexity(total, cost) + 1)
        if best is None or value < best[0] - _EPS:
            best = (float(value), found.literals)
    return single if best is None else best


def _cover(rows: _Rows, s: _Settings, deadline, singles_first: bool = True) -> tuple[list, float]:
    """(terms, objective) of the heuristic: each slot of `max_terms` re-solved with the others fixed
    (`_best_term`, or left empty when that is better and `min_terms` allows), sweep after sweep until
    one improves nothing or `deadline` passes; each slot's depth-one search gets an equal share of the
    time left to the sweep's end. On the first sweep the empty slots fill (sequential covering; single
    literals only when `singles_first`) and every slot takes a term until there are `min_terms`, which
    the slots keep room for."""
    terms: list = [None] * s.max_terms
    fires = np.zeros((len(rows.wp), s.max_terms), bool)
    current = np.inf  # until the terms are `min_terms`, whatever a slot finds is taken
    changed, first = True, True
    while changed and (deadline is None or time.perf_counter() < deadline or current == np.inf):
        changed = False
        for k in range(s.max_terms):
            used = [i for i in range(s.max_terms) if i != k and terms[i] is not None]
            others = fires[:, used].any(axis=1)
            cost = float(sum(_term_cost(len(terms[i])) for i in used))
            options = []
            if len(used) >= s.min_terms:
                options.append((float(rows.error(others)) + s.lam * _complexity(len(used), cost), None))
            share = None if deadline is None else max(0.0, deadline - time.perf_counter()) / (s.max_terms - k)
            found = _best_term(rows, s, others, len(used), cost, share, singles_first or not first)
            if found is not None:
                options.append(found)
            if not options:
                continue
            value, literals = min(options, key=lambda option: option[0])
            if value < current - _EPS:
                terms[k] = literals
                fires[:, k] = False if literals is None else rows.truth[:, literals].all(axis=1)
                current = value if len(used) + (literals is not None) >= s.min_terms else np.inf
                changed = True
        first = False
    return [t for t in terms if t is not None], current


def _all_terms(m: int, max_literals: int) -> list[np.ndarray]:
    """Every term of 1..`max_literals` literals over `m` features, no feature twice: one (c, size)
    array of literal indices per size."""
    out = []
    for size in range(1, max_literals + 1):
        features = np.array(list(combinations(range(m), size)), dtype=np.int64).reshape(-1, size)
        signs = np.array(list(product((0, m), repeat=size)), dtype=np.int64)  # 0: the feature, m: its negation
        out.append((features[:, None, :] + signs[None, :, :]).reshape(-1, size))
    return out


def _count_terms(m: int, max_literals: int) -> int:
    return sum(comb(m, size) * 2 ** size for size in range(1, max_literals + 1))


def _candidates(rows: _Rows, s: _Settings, deadline):
    """(fires (n, T), cost (T,), literal arrays) of the terms worth searching: of terms that fire on
    the same rows the cheapest, and no term dominated by another (firing on every row wanting a term
    where it fires, on no row wanting none where it does not, at no more nodes: swapping keeps any rule
    valid and never worse, repeats being allowed); ordered best alone first. None when `deadline`
    passes first (the T x T dominance is computed in blocks of columns, the deadline checked between)."""
    by_size = _all_terms(rows.X.shape[1], s.max_literals)
    literals = [t for block in by_size for t in block]
    fires = np.concatenate([rows.truth[:, block].all(axis=2) for block in by_size], axis=1)
    cost = np.concatenate([np.full(len(block), _term_cost(block.shape[1]), float) for block in by_size])
    positive, negative = fires[rows.wp > 0].astype(np.float32), fires[rows.wn > 0].astype(np.float32)
    dominates = np.empty((len(cost), len(cost)), bool)
    for start in range(0, len(cost), _BLOCK):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        b = slice(start, start + _BLOCK)
        dominates[:, b] = ((((1 - positive).T @ positive[:, b]) == 0) & ((negative.T @ (1 - negative[:, b])) == 0)
                           & (cost[:, None] <= cost[b]))
    mutual = dominates & dominates.T
    np.fill_diagonal(dominates, False)
    earlier = np.triu(np.ones_like(dominates), 1)
    dominated = (dominates & ~mutual).any(axis=0) | (mutual & earlier).any(axis=0)
    keep = np.flatnonzero(~dominated)
    alone = rows.error(fires[:, keep]) + s.lam * cost[keep]
    keep = keep[np.argsort(alone, kind="stable")]
    return fires[:, keep], cost[keep], [literals[i] for i in keep]


def _branch_and_bound(rows: _Rows, s: _Settings, incumbent: float, deadline):
    """(the best terms, as literal arrays, or None when none beat `incumbent`; their objective; a lower
    bound, None when `deadline` passed while the terms were listed; proven). Multisets of terms in
    non-decreasing index order, depth first; a node scores all its children at once. A child's
    subtree (one term or more, from its index on) is bounded below by its errors on rows wanting none
    (they only grow), the rows wanting a term that no later term reaches, or the uncovered weight less
    the largest gains of the terms still allowed, whichever is larger, and the fewest nodes its rules
    have."""
    listed = _candidates(rows, s, deadline)
    if listed is None:
        return None, incumbent, None, False
    fires, cost, literals = listed
    T = len(cost)
    reach = np.zeros_like(fires)  # rows some term from index t on fires on
    reach[:, ::-1] = np.logical_or.accumulate(fires[:, ::-1], axis=1)
    cheapest = np.minimum.accumulate(cost[::-1])[::-1]  # the fewest nodes of a term from index t on
    best, best_set = incumbent, None
    if s.min_terms == 0:
        empty = float(rows.wp.sum())
        if empty < best - _EPS:
            best, best_set = empty, []
    stack = [(-np.inf, [], np.zeros(len(rows.wp), bool), 0, 0.0)]
    timed_out = False
    while stack:
        if deadline is not None and time.perf_counter() > deadline:
            timed_out = True
            break
        bound, chosen, covered, last, node_cost = stack.pop()
        if bound >= best - _EPS:
            continue
        count = len(chosen) + 1
        candidates = np.arange(last, T)
        room = s.max_complexity - node_cost - (count > 1) - cost[candidates]
        candidates = candidates[room >= 0]
        if not len(candidates):
            continue
        gains = (rows.wp * ~covered) @ fires[:, candidates]
        new = covered[:, None] | fires[:, candidates]
        wrong_negative = rows.wn @ new
        uncovered = rows.wp @ ~covered - gains
        child_cost = node_cost + cost[candidates]
        objective = uncovered + wrong_negative + s.lam * _complexity(count, 0.0) + s.lam * child_cost
        if count >= s.min_terms:
            i = int(np.argmin(objective))
            if objective[i] < best - _EPS:
                best, best_set = float(objective[i]), chosen + [int(candidates[i])]
        if count >= s.max_terms:
            continue
        more = max(1, s.min_terms - count)  # terms any rule below a child adds
        nodes = child_cost + more * cheapest[candidates] + (count + more > 1)
        fits = nodes <= s.max_complexity
        top = np.sort(gains)[::-1][: s.max_terms - count].sum()
        unreachable = (rows.wp * ~new.T * ~reach[:, candidates].T).sum(axis=1)
        bounds = wrong_negative + np.maximum(uncovered - top, unreachable) + s.lam * nodes
        promising = np.flatnonzero(fits & (bounds < best - _EPS))
        for i in promising[np.argsort(-objective[promising], kind="stable")]:  # best child popped first
            stack.append((float(bounds[i]), chosen + [int(candidates[i])], new[:, i], int(candidates[i]),
                          float(child_cost[i])))
    lower = min([best] + [entry[0] for entry in stack]) if timed_out else best
    terms = None if best_set is None else [literals[i] for i in best_set]
    return terms, best, max(lower, 0.0), not timed_out


def search_depth_two(X: np.ndarray, fired: np.ndarray, weights: np.ndarray, cnf: bool, *, max_terms: int,
                     max_literals: int, max_complexity: int | None, min_terms: int, lam: float,
                     time_limit: float | None = None, exact_terms: int = EXACT_TERMS) -> DepthTwoResult:
    """The terms minimising Σ w_i [error_i] + λ C (C: the rule's nodes) for a DNF (a CNF when `cnf`)
    on 0/1 `X` (n, m) whose samples `fired` want a term to fire, with at most `max_terms` terms of
    1..`max_literals` literals, C <= `max_complexity` (None: no cap) and at least `min_terms` terms
    (repeats allowed, as in the ILP). The heuristic's terms (the better of its two runs), then, when at
    most `exact_terms` terms exist, the exact search's; `time_limit` (seconds) stops either with the
    best terms so far."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    X = np.asarray(X).astype(bool)
    m = X.shape[1]
    rows = _Rows(~X if cnf else X, np.asarray(fired, bool), np.asarray(weights, float))
    s = _Settings(max_terms, min(max_literals, m), np.inf if max_complexity is None else max_complexity,
                  min_terms, lam)
    terms, objective = _cover(rows, s, deadline)
    other, value = _cover(rows, s, deadline, singles_first=False)  # a broad literal first can trap the sweeps
    if value < objective - _EPS:
        terms, objective = other, value
    bound, optimal = None, False
    if _count_terms(m, s.max_literals) <= exact_terms and (deadline is None or time.perf_counter() < deadline):
        found, objective, bound, optimal = _branch_and_bound(rows, s, objective, deadline)
        terms = terms if found is None else found
        bound = None if bound is None else bound + rows.constant
    z = np.zeros((max_terms, 2 * m), bool)
    for k, literals in enumerate(terms):
        z[k, literals] = True
    stopped = not optimal and deadline is not None and time.perf_counter() >= deadline
    return DepthTwoResult(z, objective + rows.constant, bound, optimal, stopped)
