"""Reference: the best depth-one rule by enumerating every literal set (and k), and the best
depth-two rule by enumerating every set of terms, for small data."""

from itertools import combinations, combinations_with_replacement

import numpy as np

from boolrules.rules import OPERATORS, And, Literal, One, Or, Zero

from ..reference import evaluate, operator_output


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
    """Minimum of Σ w_i [error_i] + λ L over all depth-one rules: the rules of one literal count L
    are scored together, as a rows x literal-sets matrix of true-literal counts (the same sets, k
    and operator semantics as `all_depth_one_rules` and `depth_one_predictions`, without a Python
    step per rule)."""
    X, y = np.asarray(X, dtype=bool), np.asarray(y, dtype=bool)
    weights = np.asarray(weights, dtype=float)
    literals = [Literal(j, neg) for j in range(X.shape[1]) for neg in (False, True)]
    truth = np.stack([X[:, lit.index] != lit.negated for lit in literals], axis=1).astype(int)  # rows x literals
    best = np.inf
    for size in range(min_lit, max_lit + 1):
        sets = [chosen for chosen in combinations(range(len(literals)), size)
                if not exclusive or len({literals[i].index for i in chosen}) == size]
        if not sets:
            continue
        counts = truth[:, np.array(sets, dtype=int).reshape(len(sets), size)].sum(axis=2)  # rows x sets
        for k in range(size + 1) if OPERATORS[operator].parameterized else (None,):
            pred = operator_output(operator, counts, size, k) != negated
            best = min(best, float((weights @ (pred != y[:, None])).min()) + lam * size)
    return best


def all_depth_two_rules(num_features, shape, max_terms, max_lit, min_terms=0):
    """Yield (rule, complexity) for every depth-two rule of `shape` ("DNF": Or of Ands, "CNF": And
    of Ors) with min_terms..max_terms terms (repeats allowed) of 1..max_lit literals, no term holding
    a feature and its negation; a term of one literal is that literal, a single term is the rule,
    and no term is the outer operator's empty value (False for Or, True for And)."""
    outer, inner = (Or, And) if shape == "DNF" else (And, Or)
    literals = [Literal(j, neg) for j in range(num_features) for neg in (False, True)]
    terms = [
        chosen for size in range(1, max_lit + 1) for chosen in combinations(literals, size)
        if len({lit.index for lit in chosen}) == size
    ]
    for count in range(min_terms, max_terms + 1):
        for picked in combinations_with_replacement(terms, count):
            subs = [t[0] if len(t) == 1 else inner(*t) for t in picked]
            nodes = sum(1 if len(t) == 1 else 1 + len(t) for t in picked) + (count > 1)
            if count == 0:
                rule = Zero() if outer is Or else One()
            else:
                rule = subs[0] if count == 1 else outer(*subs)
            yield rule, nodes


def best_depth_two_objective(X, y, weights, shape, *, max_terms, max_lit, lam, negated, max_complexity=None,
                             min_terms=0):
    """Minimum of Σ w_i [error_i] + λ × nodes over all depth-two rules (`all_depth_two_rules`)."""
    y = np.asarray(y, dtype=bool)
    best = np.inf
    for rule, nodes in all_depth_two_rules(X.shape[1], shape, max_terms, max_lit, min_terms):
        if max_complexity is not None and nodes > max_complexity:
            continue
        pred = evaluate(rule, X) != negated
        best = min(best, float(weights @ (pred != y)) + lam * nodes)
    return best
