"""Reference: the best depth-one rule by enumerating every literal set (and k), for small data."""

from itertools import combinations

import numpy as np

from boolrules.rules import OPERATORS, Literal

from ..reference import depth_one_predictions


def all_depth_one_rules(num_features, operator, min_lit, max_lit, exclusive=True):
    """Yield (literals, k) for every depth-one rule within the bounds (k over 0..L)."""
    literals = [Literal(j, neg) for j in range(num_features) for neg in (False, True)]
    for size in range(min_lit, max_lit + 1):
        for chosen in combinations(literals, size):
            if exclusive and len({lit.index for lit in chosen}) < size:
                continue
            if OPERATORS[operator].parameterized:
                for k in range(size + 1):
                    yield chosen, k
            else:
                yield chosen, None


def best_objective(X, y, weights, operator, *, min_lit, max_lit, lam, negated, exclusive=True):
    """Minimum of Σ w_i [error_i] + λ L over all depth-one rules."""
    y = np.asarray(y, dtype=bool)
    best = np.inf
    for chosen, k in all_depth_one_rules(X.shape[1], operator, min_lit, max_lit, exclusive):
        pred = depth_one_predictions(X, operator, chosen, k) != negated
        best = min(best, float(weights @ (pred != y)) + lam * len(chosen))
    return best
