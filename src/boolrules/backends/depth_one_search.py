"""Exact depth-one search on arrays: depth-first branch and bound over literal sets.

Every operator is searched as one of three: Or, AtLeast (best k per set) and Choose (best k per
set). And(S) on target y is Or on the complemented literal columns with target 1 - y, and
AtMost_k(S) is AtLeast_{L-k} on the complemented columns (`_reduce`). Identical data rows are
merged into one row with two weights (wanting 1, wanting 0). A node is a literal set S in
increasing literal order; all its children S + {l} are scored at once (objective and best k from
weighted histograms of the per-row true counts) and each child's subtree gets a lower bound from
the interval of counts its rows can still reach, [t_S + x_l, t_S + x_l + min(r, u_l)] (u_l: the
literals after l true on the row, r: the literals still allowed), minimised over k; a node popped
with two or more literals still allowed gets a sharper one first (`_pick_bounds`: per k, the
later literals' summed gains minus their largest single cost). The first incumbents (the given set
and the beam search's best of each size, `_beam`) are improved by single swaps, additions and drops
(`_descend`) before the search starts.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np
from threadpoolctl import ThreadpoolController

__all__ = ["SearchResult", "search_depth_one"]

_EPS = 1e-9
WIDEST = 1024  # the widest beam of the native backend's timed searches


@dataclass
class SearchResult:
    """The best literal set found (indices into the 2m literals: features, then negated features),
    its k (None for Or/And), its objective, a lower bound on the optimum, and whether it is proven."""

    literals: np.ndarray
    k: int | None
    objective: float
    bound: float
    optimal: bool
    nodes: int


def _histogram(values: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """(c, size + 1): for each row of `values` (c, n) the weight of its entries equal to 0..size
    (entries above `size` are counted at `size`)."""
    c, n = values.shape
    index = np.minimum(values, size) + (size + 1) * np.arange(c)[:, None]
    return np.bincount(index.ravel(), weights=np.broadcast_to(weights, (c, n)).ravel(),
                       minlength=c * (size + 1)).reshape(c, size + 1)


def _scores(kind: str, counts: np.ndarray, size: int, wp: np.ndarray, wn: np.ndarray):
    """Weighted errors (c,) of the sets whose per-row true counts are `counts` (c, n), all of
    `size` literals, and the best k of each (None for Or)."""
    if kind == "Or":
        return (counts == 0) @ wp + (counts > 0) @ wn, None
    return _best_k(kind, _histogram(counts, wp, size), _histogram(counts, wn, size), wp.sum(), wn.sum())


def _child_scores(kind: str, counts: np.ndarray, columns: np.ndarray, size: int, wp: np.ndarray, wn: np.ndarray):
    """`_scores` (s, c) of the sets S_j + {l} for sets S_j with counts `counts` (s, n) and the
    literals' 0/1 `columns` (n, c), as matrix products: row i adds its weight to count t_i + x_il."""
    if kind == "Or":  # a child misses row i when t_i = 0 and x_il = 0
        free = counts == 0
        return (np.where(free, wp - wn, 0.0) @ (1.0 - columns)) + wn.sum(), None
    values = np.arange(size + 1)[:, None]
    at = counts[:, None, :] == values  # (s, size + 1, n): [t_i == v]
    before = counts[:, None, :] == values - 1

    def histogram(w):  # (s * c, size + 1): Σ_i w_i [t_i + x_il == v]
        return ((at @ w)[:, :, None] + ((before * w) - (at * w)) @ columns).transpose(0, 2, 1).reshape(-1, size + 1)

    errors, k = _best_k(kind, histogram(wp), histogram(wn), wp.sum(), wn.sum())
    return errors.reshape(len(counts), -1), k.reshape(len(counts), -1)


def _best_k(kind: str, hp: np.ndarray, hn: np.ndarray, total_p: float, total_n: float):
    """Best weighted error and k (c,) from the weights of rows wanting 1 (`hp`) and 0 (`hn`) at
    each count (c, size + 1)."""
    if kind == "AtLeast":  # k: positives below k are lost, negatives at or above k are lost
        below_p = np.cumsum(hp, axis=1) - hp
        below_n = np.cumsum(hn, axis=1) - hn
        errors = below_p + (total_n - below_n)
    else:  # Choose: positives off k and negatives on k are lost
        errors = total_p - hp + hn
    k = np.argmin(errors, axis=1)
    return errors[np.arange(len(k)), k], k


def _bounds(kind: str, low: np.ndarray, high: np.ndarray, top: int, wp: np.ndarray, wn: np.ndarray) -> np.ndarray:
    """Lower bounds (c,) on the weighted error of any set whose per-row counts lie in
    [low, high] (c, n) and whose k is at most `top`."""
    if kind == "Or":
        return (high == 0) @ wp + (low > 0) @ wn
    hp_low, hp_high = _histogram(low, wp, top + 1), _histogram(high, wp, top + 1)
    if kind == "AtLeast":  # for k: positives with high < k, negatives with low >= k are lost
        hn_low = _histogram(low, wn, top + 1)
        lost = (np.cumsum(hp_high, axis=1) - hp_high) + (wn.sum() - (np.cumsum(hn_low, axis=1) - hn_low))
    else:  # Choose: positives with k outside [low, high], negatives fixed at k
        above = wp.sum() - np.cumsum(hp_low, axis=1)  # positives with low > k
        below = np.cumsum(hp_high, axis=1) - hp_high  # positives with high < k
        fixed = _histogram(np.where(low == high, low, top + 1), wn, top + 1)
        lost = above + below + fixed
    return lost[:, : top + 1].min(axis=1)


def _pick_bounds(kind: str, counts: np.ndarray, reach: np.ndarray, after: np.ndarray, truth: np.ndarray,
                 remaining: int, wp: np.ndarray, wn: np.ndarray, lam: float, size: int,
                 min_literals: int) -> np.ndarray:
    """Lower bounds (c,) on the sets adding t = 1..`remaining` literals T, from positions >=
    `after` (c,), to sets of `size` literals with counts `counts` (c, n) (`reach` (c, n): later
    literals true on each row). For each k the error is that of the counts minus what T gains plus
    what it costs. A row wanting 1 at d = k - count > 0 needs d of T's literals, so its gain is at
    most Σ_T of weight/d on the rows each literal is true on (Choose: plus the rows wanting 0 at
    count k), and at most the rows that can reach k; every literal of T true on a row about to
    cross k for good (AtLeast: wanting 0 at k - 1; Choose: wanting 1 at k) loses it, so the cost is
    at least max_T c_j. With literals sorted by cost, the best T of size t whose costliest literal
    is q is g_q - c_q + (best t - 1 gains before q): a running maximum per t."""
    c, n = counts.shape
    before = np.arange(truth.shape[1])[None, :] < after[:, None]
    bounds = np.full(c, np.inf)
    for k in ([1] if kind == "Or" else range(size + remaining + 1)):
        short = k - counts.astype(np.int64)  # picks each row still needs to reach k
        wanted = np.where(short > 0, wp / np.maximum(short, 1), 0.0)
        reachable = (short > 0)[None] & (short[None] <= np.minimum(reach, np.arange(1, remaining + 1)[:, None, None]))
        reachable = reachable @ wp  # (remaining, c): by t
        if kind == "Choose":
            base = (short != 0) @ wp + (short == 0) @ wn
            wanted = wanted + (short == 0) * wn
            reachable = reachable + ((short == 0) & (reach > 0)) @ wn
            losing = (short == 0) * wp
        else:
            base = (short > 0) @ wp + (short <= 0) @ wn
            losing = (short == 1) * wn
        gain, cost = wanted @ truth, losing @ truth  # (c, N)
        gain[before] = -np.inf
        order = np.argsort(cost, axis=1, kind="stable")
        gain, cost = np.take_along_axis(gain, order, axis=1), np.take_along_axis(cost, order, axis=1)
        best_before = np.zeros_like(gain)  # best sum of t - 1 gains strictly before each position
        for t in range(1, remaining + 1):
            if size + t >= k:  # k is at most the final size
                improvement = (np.minimum(gain + best_before, reachable[t - 1][:, None]) - cost).max(axis=1)
                bounds = np.minimum(bounds, base - improvement + lam * max(size + t, min_literals))
            running = np.maximum.accumulate(gain + best_before, axis=1)
            best_before = np.concatenate([np.full((c, 1), -np.inf), running[:, :-1]], axis=1)
    return bounds


def _beam(kind, truth, partner, wp, wn, lam, min_literals, max_literals, exclusive, floor, width, deadline):
    """First incumbents by beam search: the best set (set, k, objective) of each size from
    `min_literals` on, keeping the `width` best sets of each size, every one grown by every
    literal at once (`_child_scores`), until `deadline` (perf_counter; None: none), the width
    narrowed after each size so that the sizes left fit in the time left at the pace so far. It
    guides the search; it proves nothing."""
    n, num_literals = truth.shape
    columns = truth.astype(float)
    sets, counts = np.zeros((1, 0), np.int64), np.zeros((1, n), np.int16)
    found = []
    for size in range(1, max_literals + 1):
        started = time.perf_counter()
        if deadline is not None and started > deadline:
            break
        allowed = np.ones((len(sets), num_literals), bool)
        rows = np.arange(len(sets))[:, None]
        allowed[rows, sets] = False
        if exclusive:
            allowed[rows, partner[sets]] = False
        parent, literal = np.nonzero(allowed)
        if not len(parent):
            break
        errors, k = _child_scores(kind, counts, columns, size, wp, wn)
        objective, k = errors[parent, literal] + lam * size, None if k is None else k[parent, literal]
        ranked = np.arange(len(objective))  # the best width × size children (each set is one of at most size)
        if width * size < len(ranked):
            ranked = np.argpartition(objective, width * size)[: width * size]
        ranked = ranked[np.lexsort((ranked, objective[ranked]))]  # best first, ties in literal order
        i = ranked[0]
        if size >= min_literals:
            found.append((np.append(sets[parent[i]], literal[i]), None if k is None else int(k[i]), float(objective[i])))
            if objective[i] <= floor + _EPS:
                break
        children = np.sort(np.concatenate([sets[parent[ranked]], literal[ranked, None]], axis=1), axis=1)
        grouped = np.lexsort(children.T[::-1])  # stable: equal sets stay in ranked order
        first = grouped[np.r_[True, (np.diff(children[grouped], axis=0) != 0).any(axis=1)]]
        if deadline is not None and size < max_literals:
            now = time.perf_counter()
            per_set = (now - started) / len(parent) * num_literals  # seconds to grow one set by every literal
            width = max(1, min(width, int((deadline - now) / (max_literals - size) / per_set)))
        keep = ranked[np.sort(first)[:width]]
        sets = np.sort(np.concatenate([sets[parent[keep]], literal[keep, None]], axis=1), axis=1)
        counts = counts[parent[keep]] + truth[:, literal[keep]].T
    return found


def _descend(kind, truth, partner, wp, wn, lam, min_literals, max_literals, exclusive, chosen, deadline):
    """The set `chosen` improved by the best move (swap a literal for another, add one or drop one;
    for Or also add two; within the literal bounds, best k each) while one lowers the objective
    and `deadline` (perf_counter; None: none) has not passed: (set, k, objective). Every move of a
    kind is scored at once (`_child_scores` over all members' sets without them; Or's pairs by one
    product). It proves nothing."""
    columns = truth.astype(float)
    chosen = np.asarray(chosen, dtype=np.int64)
    counts = truth[:, chosen].sum(axis=1, dtype=np.int16)
    errors, k = _scores(kind, counts[None, :], len(chosen), wp, wn)
    best = (np.sort(chosen), None if k is None else int(k[0]), float(errors[0]) + lam * len(chosen))
    while deadline is None or time.perf_counter() < deadline:
        size, moves = len(chosen), []  # (objective, k, dropped member, added literals) of each kind
        free = np.ones(truth.shape[1], bool)
        free[chosen] = False
        if exclusive:
            free[partner[chosen]] = False
        if size < max_literals and free.any():
            added = np.flatnonzero(free)
            errors, k = _child_scores(kind, counts[None, :], columns[:, added], size + 1, wp, wn)
            moves.append((errors[0] + lam * (size + 1), None if k is None else k[0], None, added[:, None]))
            if kind == "Or" and size + 2 <= max_literals and len(added) > 1:  # two at once: one product for Or
                missed = 1.0 - columns[:, added]  # a pair misses row i when both do (and the set does)
                errors = (missed * np.where(counts == 0, wp - wn, 0.0)[:, None]).T @ missed + wn.sum()
                first, second = np.triu_indices(len(added), 1)
                valid = (partner[added[first]] != added[second]) | (not exclusive)
                moves.append((np.where(valid, errors[first, second] + lam * (size + 2), np.inf), None, None,
                              np.stack([added[first], added[second]], axis=1)))
        if size > min_literals:
            errors, k = _scores(kind, counts[None, :] - truth[:, chosen].T, size - 1, wp, wn)
            moves.append((errors + lam * (size - 1), k, np.arange(size), None))
        if size:
            open_ = free.copy()  # a member's partner is open to the swap that drops that member
            open_[partner[chosen]] = True
            open_[chosen] = False
            swapped = np.flatnonzero(open_)
            if len(swapped):
                errors, k = _child_scores(kind, counts[None, :] - truth[:, chosen].T, columns[:, swapped], size, wp, wn)
                valid = free[swapped][None, :] | (swapped[None, :] == partner[chosen][:, None])
                objective = np.where(valid, errors + lam * size, np.inf)
                member, literal = np.divmod(np.arange(objective.size), len(swapped))
                moves.append((objective.ravel(), None if k is None else k.ravel(), member, swapped[literal, None]))
        step = None
        for objective, k, member, literal in moves:
            i = int(np.argmin(objective))
            if objective[i] < best[2] - _EPS and (step is None or objective[i] < step[0]):
                step = (float(objective[i]), None if k is None else int(k[i]),
                        None if member is None else member[i], None if literal is None else literal[i])
        if step is None:
            break
        objective, k, member, literal = step
        if member is not None:
            counts = counts - truth[:, chosen[member]]
            chosen = np.delete(chosen, member)
        if literal is not None:
            counts = counts + truth[:, literal].sum(axis=1, dtype=np.int16)
            chosen = np.append(chosen, literal)
        best = (np.sort(chosen), k, objective)
    return best


def _passed(deadline: float | None) -> bool:
    """Has `deadline` (perf_counter; None: none) passed?"""
    return deadline is not None and time.perf_counter() > deadline


def _dominators(truth: np.ndarray, wp: np.ndarray, wn: np.ndarray) -> np.ndarray:
    """(N, N) int: [a, b] = 1 when literal a comes before b and dominates it for Or and AtLeast (true
    on every row wanting 1 where b is, false on every row wanting 0 where b is). Swapping b for a
    never hurts, so some optimal set holds, with each of its literals b, each such a (or a's
    feature partner, which blocks the swap): the search only builds such sets."""
    positive, negative = truth[wp > 0].astype(np.float32), truth[wn > 0].astype(np.float32)
    violations = (1 - positive).T @ positive + negative.T @ (1 - negative)
    return np.triu(violations == 0, 1).astype(np.int16)


def _reduce(operator: str, truth: np.ndarray, wp: np.ndarray, wn: np.ndarray):
    """(operator searched, literal truth, weight of rows wanting 1, wanting 0) for `operator`:
    And(S) = ~Or(~S) and AtMost_k(S) = AtLeast_{L-k}(~S) search the complemented columns."""
    if operator == "And":
        return "Or", ~truth, wn, wp
    if operator == "AtMost":
        return "AtLeast", ~truth, wp, wn
    return operator, truth, wp, wn


@functools.cache
def _blas() -> ThreadpoolController:
    """The process's BLAS libraries, found once."""
    return ThreadpoolController()


def _one_blas_thread(function):
    """`function` run with BLAS on one thread: its matrix products are small, so more threads only
    add synchronisation (a beam 2-7x slower on a busy 2-core machine) and oversubscribe a fit's workers."""
    @functools.wraps(function)
    def run(*args, **kwargs):
        with _blas().limit(limits=1, user_api="blas"):
            return function(*args, **kwargs)
    return run


@_one_blas_thread
def search_depth_one(X: np.ndarray, target: np.ndarray, weights: np.ndarray, operator: str, *,
                     min_literals: int, max_literals: int, lam: float, exclusive: bool,
                     incumbent: np.ndarray | None = None, beam_width: int | None = None,
                     time_limit: float | None = None) -> SearchResult:
    """The literal set (and k) minimising Σ w_i [error_i] + λ L for the un-negated `operator` on
    0/1 `X` (n, m) with labels `target`, L within [min_literals, max_literals], no feature with
    both its literals when `exclusive`. `incumbent` (literal indices within the bounds) is a
    starting solution, and so is the best set of each size of beam searches (`_beam`), all
    improved by `_descend` before the branch and bound. The first beam is 8 wide up to 2 literals,
    else as wide as 2e6 row-literal scores per level allow (within 8..128); further beams, x4 wider
    while the time lasts, up to `beam_width` (over more than 2 literals; None: the first width; 0:
    no beam nor descent): the native backend's timed searches go up to `WIDEST`, as their incumbent
    is what they return when neither bound closes. `time_limit` (seconds) stops the search with the
    best set so far."""
    start = time.perf_counter()
    m = X.shape[1]
    X = X.astype(bool)
    target = np.asarray(target).astype(bool)
    rows, inverse = np.unique(X, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    wp = np.bincount(inverse, weights=np.where(target, weights, 0.0), minlength=len(rows))
    wn = np.bincount(inverse, weights=np.where(target, 0.0, weights), minlength=len(rows))
    kind, truth, wp, wn = _reduce(operator, np.concatenate([rows, ~rows], axis=1), wp, wn)
    base = np.minimum(wp, wn)  # a row wanting both ways loses the smaller weight whatever the rule
    wp, wn = wp - base, wn - base
    keep = (wp > 0) | (wn > 0)
    truth, wp, wn, constant = truth[keep], wp[keep], wn[keep], float(base.sum())
    n, num_literals = truth.shape
    truth16 = truth.astype(np.int16)
    # later-in-order literals true on each row, by position: suffix[p, i] counts order[p+1:]
    single, _ = _scores(kind, truth16.T, 1, wp, wn)
    order = np.argsort(single, kind="stable")
    ordered = truth16[:, order]
    ordered_float = ordered.astype(float)
    suffix = np.zeros((num_literals + 1, n), dtype=np.int16)
    suffix[:-1] = np.cumsum(ordered[:, ::-1], axis=1)[:, ::-1].T
    suffix = suffix[1:]
    partner = (order + m) % (2 * m)  # the other literal of each literal's feature
    position = np.empty(num_literals, dtype=np.int64)
    position[order] = np.arange(num_literals)
    partner_position = position[partner]

    dominators = _dominators(ordered, wp, wn) if kind != "Choose" and max_literals > 1 else None
    needed = None if dominators is None else dominators.sum(axis=0)

    if incumbent is None:  # the first features' literals: a valid set to return whenever the search stops
        incumbent = np.arange(min_literals)
    best_set = np.sort(position[np.asarray(incumbent, dtype=np.int64)])
    errors, k = _scores(kind, ordered[:, best_set].sum(axis=1)[None, :], len(best_set), wp, wn)
    best, best_k = float(errors[0]) + lam * len(best_set), None if k is None else int(k[0])
    if min_literals == 0:
        errors, k = _scores(kind, np.zeros((1, n), np.int16), 0, wp, wn)
        if errors[0] < best - _EPS:
            best_set, best_k, best = np.zeros(0, np.int64), None if k is None else int(k[0]), float(errors[0])

    # stack of open nodes: (bound, chosen positions, counts, last position)
    stack = [(-np.inf, np.zeros(0, np.int64), np.zeros(n, np.int16), -1)]
    nodes = 0
    timed_out = False
    floor = lam * min_literals  # no rule does better than no error
    first_width = int(np.clip(2e6 // max(1, n * num_literals), 8, 128)) if max_literals > 2 else 8
    if beam_width is None or max_literals <= 2:
        beam_width = first_width if beam_width is None else min(beam_width, first_width)
    deadline = None if time_limit is None else start + time_limit
    pending, tried, width = [(best_set, best_k, best)], set(), 0
    while beam_width > 0 and best > floor + _EPS and not _passed(deadline):
        # beams ever wider, each one's best set of each size (and the incumbent) descended, the best first
        width = min(4 * width or first_width, beam_width)
        pending += _beam(kind, ordered, partner_position, wp, wn, lam, min_literals, max_literals, exclusive, floor,
                         width, deadline)
        pending.sort(key=lambda found: found[2])
        if pending and pending[0][2] < best - _EPS:  # kept even when no time is left to descend from it
            best_set, best_k, best = pending[0]
        for first in pending:
            if best <= floor + _EPS or _passed(deadline):
                break
            key = tuple(np.sort(first[0]))
            if key not in tried:
                tried.add(key)
                found = _descend(kind, ordered, partner_position, wp, wn, lam, min_literals, max_literals, exclusive,
                                 first[0], deadline)
                if found[2] < best - _EPS:
                    best_set, best_k, best = found
        if width == beam_width:
            break
        pending = []
    while stack and best > floor + _EPS:
        if time_limit is not None and time.perf_counter() - start > time_limit:
            timed_out = True
            break
        bound, chosen, counts, last = stack.pop()
        if bound >= best - _EPS:
            continue
        if len(chosen) and max_literals - len(chosen) >= 2:  # worth a sharper bound
            bound = _pick_bounds(kind, counts[None, :], suffix[last][None, :], np.array([last + 1]), ordered_float,
                                 max_literals - len(chosen), wp, wn, lam, len(chosen), min_literals)[0]
            if bound >= best - _EPS:
                continue
        nodes += 1
        size = len(chosen) + 1
        candidates = np.arange(last + 1, num_literals)
        if exclusive and len(chosen):
            blocked = np.zeros(num_literals, bool)
            blocked[partner_position[chosen]] = True
            candidates = candidates[~blocked[candidates]]
        if dominators is not None and len(candidates):
            covered = np.zeros(num_literals, bool)
            covered[chosen] = covered[partner_position[chosen]] = True
            candidates = candidates[dominators[covered][:, candidates].sum(axis=0) == needed[candidates]]
        if not len(candidates):
            continue
        columns = ordered[:, candidates]
        errors, k = _child_scores(kind, counts[None, :], columns.astype(float), size, wp, wn)
        objective, k = errors[0] + lam * size, None if k is None else k[0]
        if size >= min_literals:
            i = int(np.argmin(objective))
            if objective[i] < best - _EPS:
                best, best_set = float(objective[i]), np.append(chosen, candidates[i])
                best_k = None if k is None else int(k[i])
        remaining = max_literals - size
        if remaining <= 0:
            continue
        child_counts = counts[None, :] + columns.T
        has_more = candidates < num_literals - 1
        candidates, child_counts, objective = candidates[has_more], child_counts[has_more], objective[has_more]
        if not len(candidates):
            continue
        high = child_counts + np.minimum(suffix[candidates], remaining)
        bounds = _bounds(kind, child_counts, high, max_literals, wp, wn) + lam * max(size + 1, min_literals)
        promising = np.flatnonzero(bounds < best - _EPS)
        for i in promising[np.argsort(-objective[promising], kind="stable")]:  # best child popped first
            stack.append((float(bounds[i]), np.append(chosen, candidates[i]), child_counts[i], int(candidates[i])))

    lower = min([best] + [entry[0] for entry in stack]) if timed_out else best
    if operator == "AtMost":
        best_k = len(best_set) - best_k
    return SearchResult(np.sort(order[best_set]), best_k, best + constant, max(lower, 0.0) + constant,
                        not timed_out, nodes)
