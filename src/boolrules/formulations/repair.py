"""Decoding help for heuristic samples: repair a literal selection into a valid depth-one rule.

`docs/formulations.md`, "Decoding a QUBO sample": drop contradicting pairs (exclusive literals),
bring the literal count into [m_min, m'] by dropping or adding the literal that hurts the true
objective least, and choose the best k exactly. Candidates are scored together as matrices.
"""

from __future__ import annotations

import time

import numpy as np

from ..rules import Rule, operator_output

__all__ = ["repair", "repair_values", "polish", "feasible_point", "selection_objectives"]


def _literal_truth(problem) -> np.ndarray:
    """(n, 2m) truth of every literal: features, then negated features."""
    X = problem.X.astype(np.int16)
    return np.concatenate([X, 1 - X], axis=1)


def selection_objectives(problem, counts: np.ndarray, size: int) -> np.ndarray:
    """True objective for candidate selections of `size` literals given their per-sample true
    counts `counts` (c, n): shape (c, K) over k = 0..size (K = 1 for Or/And)."""
    k = np.arange(size + 1)[None, :, None] if problem.parameterized else None
    pred = operator_output(problem.operator, counts[:, None, :], size, k)
    errors = pred != (problem.y.astype(bool) != problem.negated)
    return errors @ problem.weights + problem.lam * size


def repair(problem, b: np.ndarray, bt: np.ndarray) -> Rule:
    """The valid rule nearest to the selection (b, bt), with the best k for its literals."""
    return problem.decode(repair_values(problem, b, bt))


def repair_values(problem, b: np.ndarray, bt: np.ndarray) -> dict:
    """`repair` as model values {"b", "bt", "k"} (a selection the ILP accepts)."""
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
    return _selection_values(problem, chosen, counts)


def _selection_values(problem, chosen: np.ndarray, counts: np.ndarray) -> dict:
    """Model values of a literal selection with its best k."""
    m = problem.num_features
    size = int(chosen.sum())
    k = int(np.argmin(selection_objectives(problem, counts[None, :], size)[0])) if problem.parameterized else None
    return {"b": chosen[:m].astype(np.int64), "bt": chosen[m:].astype(np.int64), "k": k}


def polish(problem, values: dict, deadline: float | None = None) -> dict:
    """Native local search on a valid selection: apply the best single change (swap one literal for
    another, add one, or drop one, within the literal bounds; best k each time) while it lowers
    the true objective, and no step starts after `deadline` (a `time.perf_counter()` value). The
    QUBO samplers flip one bit at a time, while a literal swap needs two flips through an
    infeasible state (paper Section 5.6); this step makes that move directly."""
    m = problem.num_features
    truth = _literal_truth(problem)
    chosen = np.concatenate([values["b"], values["bt"]]) > 0.5
    counts = truth[:, chosen].sum(axis=1)
    current = selection_objectives(problem, counts[None, :], int(chosen.sum())).min()
    while deadline is None or time.perf_counter() < deadline:
        members = np.flatnonzero(chosen)
        taken = chosen[:m] | chosen[m:] if problem.exclusive_literals else np.zeros(m, bool)
        options = np.flatnonzero(~chosen & ~np.concatenate([taken, taken]))
        size = len(members)
        best = (current - 1e-12, None)
        candidates = []
        if size > problem.min_num_literals and size > 0:
            drops = counts[None, :] - truth[:, members].T
            candidates.append((selection_objectives(problem, drops, size - 1).min(axis=1), members, None))
        if size < problem.max_num_literals and len(options):
            adds = counts[None, :] + truth[:, options].T
            candidates.append((selection_objectives(problem, adds, size + 1).min(axis=1), None, options))
        for objective, drop, add in candidates:
            i = int(np.argmin(objective))
            if objective[i] < best[0]:
                best = (objective[i], (drop[i] if drop is not None else None, add[i] if add is not None else None))
        feature = np.arange(2 * m) % m
        for j in members:  # a handful of members; their candidate swaps are scored together
            allowed = ~chosen & (~np.concatenate([taken, taken]) | (feature == j % m))
            swaps = np.flatnonzero(allowed)
            if not len(swaps):
                continue
            objective = selection_objectives(problem, (counts - truth[:, j])[None, :] + truth[:, swaps].T, size)
            objective = objective.min(axis=1)
            i = int(np.argmin(objective))
            if objective[i] < best[0]:
                best = (objective[i], (j, swaps[i]))
        if best[1] is None:
            break
        current, (drop, add) = best
        if drop is not None:
            chosen[drop] = False
            counts = counts - truth[:, drop]
        if add is not None:
            chosen[add] = True
            counts = counts + truth[:, add]
    return _selection_values(problem, chosen, counts)


def feasible_point(problem, values: dict) -> np.ndarray:
    """A feasible ILP solution (over `standard_form.var_names`) for the selection `values`:
    η marks the samples it misclassifies and, for Choose, q says which side of k a count is."""
    chosen = np.concatenate([values["b"], values["bt"]]) > 0.5
    counts = _literal_truth(problem)[:, chosen].sum(axis=1)
    size = int(chosen.sum())
    k = values.get("k")
    pred = operator_output(problem.operator, counts, size, None if k is None else int(k))
    errors = pred != (problem.y.astype(bool) != problem.negated)
    full = {"b": values["b"], "bt": values["bt"], "eta": errors.astype(np.int64)}
    if k is not None:
        full["k"] = np.array([int(k)])
    if problem.operator == "Choose":
        negatives = np.flatnonzero(problem.target == 0)
        full["q"] = (counts[negatives] < int(k)).astype(np.int64)
    return problem.vector_from_values(full)
