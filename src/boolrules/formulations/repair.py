"""Decoding help for heuristic samples: repair a literal selection into a valid depth-one rule.

`formulations.md`, "Decoding a QUBO sample": drop contradicting pairs (exclusive literals),
bring the literal count into [m_min, m'] by dropping or adding the literal that hurts the true
objective least, and choose the best k exactly. Candidates are scored together as matrices.
"""

from __future__ import annotations

import numpy as np

from ..rules import Rule

__all__ = ["repair", "selection_objectives"]


def _literal_truth(problem) -> np.ndarray:
    """(n, 2m) truth of every literal: features, then negated features."""
    X = problem.X.astype(np.int16)
    return np.concatenate([X, 1 - X], axis=1)


def selection_objectives(problem, counts: np.ndarray, size: int) -> np.ndarray:
    """True objective for candidate selections of `size` literals given their per-sample true
    counts `counts` (c, n): shape (c, K) over k = 0..size (K = 1 for Or/And)."""
    op = problem.operator
    if op == "Or":
        pred = (counts >= 1)[:, None, :]
    elif op == "And":
        pred = (counts == size)[:, None, :]
    else:
        k = np.arange(size + 1)[None, :, None]
        c = counts[:, None, :]
        pred = c >= k if op == "AtLeast" else c <= k if op == "AtMost" else c == k
    errors = pred != (problem.y.astype(bool) != problem.negated)
    return errors @ problem.weights + problem.lam * size


def repair(problem, b: np.ndarray, bt: np.ndarray) -> Rule:
    """The valid rule nearest to the selection (b, bt), with the best k for its literals."""
    m = problem.num_features
    chosen = np.concatenate([np.asarray(b) > 0.5, np.asarray(bt) > 0.5])
    if problem.exclusive_literals:
        both = chosen[:m] & chosen[m:]
        chosen[:m] &= ~both
        chosen[m:] &= ~both
    truth = _literal_truth(problem)
    counts = truth[:, chosen].sum(axis=1)
    while chosen.sum() > problem.max_num_literals:
        members = np.flatnonzero(chosen)
        candidates = counts[None, :] - truth[:, members].T
        best = selection_objectives(problem, candidates, len(members) - 1).min(axis=1)
        drop = members[int(np.argmin(best))]
        chosen[drop] = False
        counts = counts - truth[:, drop]
    while chosen.sum() < problem.min_num_literals:
        free = ~chosen
        if problem.exclusive_literals:
            taken = chosen[:m] | chosen[m:]
            free &= ~np.concatenate([taken, taken])
        options = np.flatnonzero(free)
        candidates = counts[None, :] + truth[:, options].T
        best = selection_objectives(problem, candidates, int(chosen.sum()) + 1).min(axis=1)
        add = options[int(np.argmin(best))]
        chosen[add] = True
        counts = counts + truth[:, add]
    size = int(chosen.sum())
    k = int(np.argmin(selection_objectives(problem, counts[None, :], size)[0])) if problem.parameterized else None
    return problem.decode({"b": chosen[:m], "bt": chosen[m:], "k": k})
