import itertools

import numpy as np
import pytest

from boolrules import DepthOneClassifier, RuleClassifier
from boolrules.backends import get_backend
from boolrules.backends.depth_one_search import _pick_bounds, search_depth_one
from boolrules.cli import main
from boolrules.formulations import depth_one
from boolrules.rules import And, Literal, Or

from ..errors import assert_raises_clearly
from ..formulations.brute_force import best_objective
from ..planted import planted

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]


def random_problem(rng, operator, n, m, max_lit, exclusive, negated, lam, min_lit, weighted):
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    weights = rng.uniform(0.1, 3.0, n) if weighted else "balanced" if 0 < y.sum() < n else "uniform"
    return depth_one(X, y, operator, max_num_literals=max_lit, min_num_literals=min_lit, lam=lam, negated=negated,
                     sample_weight=weights, exclusive_literals=exclusive)


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("negated", [False, True])
@pytest.mark.parametrize("exclusive", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_native_equals_brute_force(operator, negated, exclusive, seed):
    """Every operator, negated or not, exclusive literals on or off, with λ, literal bounds and
    weights drawn at random: the native optimum is the brute-force optimum."""
    rng = np.random.default_rng([seed, OPERATORS.index(operator), negated, exclusive])
    m = int(rng.integers(1, 5))
    max_lit = int(rng.integers(1, min(2 * m, 4) + 1))
    min_lit = int(rng.integers(0, min(max_lit, m if exclusive else max_lit) + 1))
    lam = float(rng.choice([0.0, 0.2, 1.5]))
    problem = random_problem(rng, operator, int(rng.integers(1, 12)), m, max_lit, exclusive, negated, lam, min_lit,
                             weighted=bool(seed % 2))
    result = get_backend("native").solve(problem)
    expected = best_objective(problem.X, problem.y, problem.weights, operator, min_lit=min_lit, max_lit=max_lit,
                              lam=lam, negated=negated, exclusive=exclusive)
    assert result.status == "optimal"
    assert result.solver_objective == pytest.approx(expected, abs=1e-9)
    assert result.objective == pytest.approx(problem.objective(result.rule), abs=1e-12)
    assert result.objective <= expected + 1e-9  # decoding may shorten a one-literal operator to a constant
    assert result.bound == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("exclusive", [True, False])
@pytest.mark.parametrize("seed", range(10))
def test_the_search_alone_equals_brute_force(operator, exclusive, seed):
    """The branch and bound without any first incumbent (no polish, no beam), so that its bounds
    and dominance do the pruning; with a duplicated column."""
    rng = np.random.default_rng([seed, OPERATORS.index(operator), exclusive, 7])
    X = rng.integers(0, 2, (int(rng.integers(8, 25)), int(rng.integers(2, 5))), dtype=np.uint8)
    X = np.concatenate([X, X[:, :1]], axis=1)  # identical columns: a literal may count twice
    target = rng.integers(0, 2, len(X)).astype(bool)
    weights = rng.uniform(0.1, 3.0, len(X))
    lam = float(rng.choice([0.0, 0.1]))
    found = search_depth_one(X, target, weights, operator, min_literals=1, max_literals=4, lam=lam, exclusive=exclusive,
                             beam_width=0)
    expected = best_objective(X, target, weights, operator, min_lit=1, max_lit=4, lam=lam, negated=False,
                              exclusive=exclusive)
    assert found.optimal and found.objective == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("operator", OPERATORS)
def test_native_equals_highs_on_medium_instances(operator):
    """40 rows × 12 features (a planted rule with noise), up to 3 literals (Choose: 20 rows and 2
    literals, whose ILP HiGHS takes long to prove): the same optimum as HiGHS. (The time is HiGHS's.)
    Negated only for Or and And: native takes a negated root by searching the complemented target
    (problem.target), the same for every operator; the brute-force tests above negate every one."""
    rng = np.random.default_rng(OPERATORS.index(operator))
    n = 20 if operator == "Choose" else 40
    X = rng.integers(0, 2, (n, 12), dtype=np.uint8)
    y = ((X[:, 0] + X[:, 3] + 1 - X[:, 5] >= 2) ^ (rng.random(n) < 0.1)).astype(np.uint8)  # And, AtLeast, AtMost:
    weights = rng.uniform(0.5, 2.0, n)  # optima of 3 literals
    for negated in (False, True) if operator in ("Or", "And") else (False,):
        problem = depth_one(X, y, operator, max_num_literals=2 if operator == "Choose" else 3, min_num_literals=1,
                            sample_weight=weights, negated=negated, lam=0.01)
        native = get_backend("native").solve(problem)
        highs = get_backend("highs").solve(problem)
        assert native.status == highs.status == "optimal"
        assert native.solver_objective == pytest.approx(highs.solver_objective, abs=1e-6)


def test_a_time_limit_returns_the_incumbent_and_a_valid_bound():
    rng = np.random.default_rng(0)
    problem = random_problem(rng, "AtLeast", 100, 60, 8, True, False, 0.0, 1, weighted=True)
    result = get_backend("native", time_limit=0.0).solve(problem)
    assert result.status == "time_limit" and result.rule is not None
    assert result.objective == pytest.approx(problem.objective(result.rule))
    assert 0 <= result.bound <= result.objective
    assert 1 <= len(result.rule.literals()) <= 8


def test_search_stops_at_its_time_limit_with_a_lower_bound_below_the_optimum():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, (12, 5), dtype=np.uint8)
    y = rng.integers(0, 2, 12).astype(bool)
    w = rng.uniform(0.5, 1.5, 12)
    cut = search_depth_one(X, y, w, "Choose", min_literals=1, max_literals=4, lam=0.0, exclusive=True, time_limit=0.0)
    full = search_depth_one(X, y, w, "Choose", min_literals=1, max_literals=4, lam=0.0, exclusive=True)
    assert not cut.optimal and full.optimal
    assert np.isfinite(cut.objective) and 1 <= len(cut.literals) <= 4  # a valid set even without any incumbent
    assert cut.bound <= full.objective + 1e-12 <= cut.objective + 1e-12


@pytest.mark.parametrize("options, names", [
    ({"time_limit": -1}, ["time_limit"]), ({"time_limit": "soon"}, ["time_limit"]), ({"seed": 1}, ["seed", "native"]),
])
def test_bad_options_raise_clearly_before_any_work(options, names):
    error = TypeError if options.get("time_limit") == "soon" else ValueError
    assert_raises_clearly(error, lambda: get_backend("native", **options), *names)
    assert_raises_clearly(error, lambda: get_backend("native").with_options(**options), *names)


def test_native_never_builds_the_pyomo_model_and_the_model_still_works():
    rng = np.random.default_rng(2)
    problem = random_problem(rng, "Choose", 20, 5, 3, True, True, 0.0, 1, weighted=False)
    result = get_backend("native").solve(problem)
    assert "model" not in problem.__dict__  # the cached Pyomo model was never built
    assert problem.standard_form.A.shape[1] == problem.num_variables  # built on first access
    assert "model" in problem.__dict__
    assert problem.summary()["num_variables"] == problem.num_variables
    assert get_backend("highs").solve(problem).solver_objective == pytest.approx(result.solver_objective)


def test_depth_one_classifier_takes_the_native_backend():
    X = np.random.default_rng(3).integers(0, 2, (80, 6), dtype=np.uint8)
    y = (X[:, 1] | X[:, 4]).astype(np.uint8)
    clf = DepthOneClassifier("Or", max_num_literals=2, backend="native").fit(X, y)
    assert clf.score(X, y) == 1.0


def test_non_local_search_with_the_native_backend_proposes_moves():
    X, y = planted(And(Or(Literal(5), Literal(6)), Or(Literal(0), ~Literal(1))), 200, 8)
    clf = RuleClassifier(num_starts=2, num_iterations=150, patience=3, random_state=0, max_complexity=6,
                         nonlocal_backend="native").fit(X, y)
    assert clf.nonlocal_stats_.calls > 0 and clf.nonlocal_stats_.proposed > 0
    assert clf.nonlocal_stats_.failed == 0


def test_cli_solve_with_the_native_backend(capsys):
    assert main(["solve", "--operator", "AtLeast", "--max-num-literals", "2", "--max-samples", "60",
                 "--backend", "native"]) == 0
    out = capsys.readouterr().out
    assert "backend:    native" in out and "status:     optimal" in out


def test_choose_does_not_use_literal_dominance():
    """Swapping a literal for a dominating one can break Choose (a count may overshoot k): on this
    instance, searching Choose with dominance misses the optimum."""
    rng = np.random.default_rng([154, 4, 1, 7])
    X = rng.integers(0, 2, (int(rng.integers(6, 14)), int(rng.integers(2, 4))), dtype=np.uint8)
    target = rng.integers(0, 2, len(X)).astype(bool)
    weights = rng.uniform(0.1, 3, len(X))
    found = search_depth_one(X, target, weights, "Choose", min_literals=1, max_literals=3, lam=0.0, exclusive=True,
                             beam_width=0)
    expected = best_objective(X, target, weights, "Choose", min_lit=1, max_lit=3, lam=0, negated=False)
    assert found.objective == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("kind", ["Or", "AtLeast", "Choose"])
@pytest.mark.parametrize("seed", range(40))
def test_pick_bounds_never_exceed_the_best_extension(kind, seed):
    """The gain/cost bound of each child S + {l} is at most the objective of every set adding 1..r
    later literals to it (enumerated), for every k; on random weighted rows, some wanting both."""
    rng = np.random.default_rng([seed, kind == "Or"])
    n, num_literals = int(rng.integers(3, 12)), int(rng.integers(3, 8))
    truth = rng.random((n, num_literals)) < rng.uniform(0.2, 0.8)
    wp = rng.uniform(0, 2, n) * (rng.random(n) < 0.6)
    wn = rng.uniform(0, 2, n) * (rng.random(n) < 0.6)
    lam, min_literals = float(rng.choice([0.0, 0.3])), int(rng.integers(0, 4))
    chosen = np.sort(rng.choice(num_literals - 1, int(rng.integers(0, 3)), replace=False))
    last = chosen[-1] if len(chosen) else -1
    children = np.arange(last + 1, num_literals - 1)
    if not len(children):
        return
    size, remaining = len(chosen) + 1, int(rng.integers(1, 4))
    counts = truth[:, chosen].sum(axis=1)[None, :] + truth[:, children].T
    reach = np.stack([truth[:, l + 1:].sum(axis=1) for l in children])
    bounds = _pick_bounds(kind, counts.astype(np.int16), reach, children + 1, truth.astype(float), remaining, wp, wn,
                          lam, size, min_literals)
    for i, l in enumerate(children):
        best = np.inf
        for t in range(1, remaining + 1):
            for added in itertools.combinations(range(l + 1, num_literals), t):
                final = counts[i] + truth[:, list(added)].sum(axis=1)
                ks = [1] if kind == "Or" else range(size + t + 1)
                if kind == "Choose":
                    error = min((final != k) @ wp + (final == k) @ wn for k in ks)
                else:
                    error = min((final < k) @ wp + (final >= k) @ wn for k in ks)
                best = min(best, error + lam * max(size + t, min_literals))
        assert bounds[i] <= best + 1e-9


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("seed", range(6))  # even seeds exclusive, odd ones not
def test_the_search_alone_with_many_literals_equals_brute_force(operator, seed):
    """Up to 6 literals of 12 on noisy weighted rows, without a first incumbent (beam_width=0), so
    the gain/cost bounds prune from a poor start."""
    rng = np.random.default_rng([seed, OPERATORS.index(operator), 11])
    X = rng.integers(0, 2, (int(rng.integers(10, 30)), 6), dtype=np.uint8)
    target = ((X[:, 0] + X[:, 1] + X[:, 2] >= 2) ^ (rng.random(len(X)) < 0.2)).astype(bool)
    weights = rng.uniform(0.1, 3.0, len(X))
    lam, min_lit = float(rng.choice([0.0, 0.05])), int(rng.integers(1, 4))
    found = search_depth_one(X, target, weights, operator, min_literals=min_lit, max_literals=6, lam=lam,
                             exclusive=bool(seed % 2), beam_width=0)
    expected = best_objective(X, target, weights, operator, min_lit=min_lit, max_lit=6, lam=lam, negated=False,
                              exclusive=bool(seed % 2))
    assert found.optimal and found.objective == pytest.approx(expected, abs=1e-9)


def test_polish_takes_no_step_after_its_deadline():
    """A passed deadline leaves the greedy rule as it is; without one polish improves it (so the
    first incumbent of a short native solve costs no more than the time it is given)."""
    import time

    from boolrules.formulations.repair import polish, repair_values

    rng = np.random.default_rng(8)
    X = rng.integers(0, 2, (60, 6), dtype=np.uint8)
    y = (X[:, 0] | X[:, 1]).astype(np.uint8)
    problem = depth_one(X, y, "Or", max_num_literals=3, min_num_literals=1)
    start = repair_values(problem, np.array([0, 0, 0, 0, 1, 1]), np.zeros(6))
    late = polish(problem, start, deadline=time.perf_counter() - 1)
    assert all(np.array_equal(late[key], start[key]) for key in ("b", "bt"))
    assert problem.objective(problem.decode(polish(problem, start))) < problem.objective(problem.decode(start))
    greedy = problem.greedy_values(deadline=time.perf_counter() - 1)
    assert greedy["b"].sum() + greedy["bt"].sum() == 1  # grown to min_num_literals, not polished


@pytest.mark.parametrize("kind", ["Or", "AtLeast"])
def test_the_beam_narrows_to_what_its_deadline_leaves(monkeypatch, kind):
    """On a clock where growing the sets of a size by every literal takes one tick per set, a
    deadline that leaves about one tick per size left narrows the beam to width 1 after the first
    size: it returns the width-1 beam's set. (Without a deadline the width matters here.)"""
    from boolrules.backends import depth_one_search as search

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (40, 10)).astype(bool)
    truth = np.concatenate([X, ~X], axis=1).astype(np.int16)
    target, weights = rng.random(40) < 0.5, rng.uniform(0.5, 1, 40)
    args = (kind, truth, (np.arange(20) + 10) % 20, weights * target, weights * ~target, 0.0, 1, 4, True, 0.0)

    def found(width, deadline):
        best = min(search._beam(*args, width, deadline), key=lambda found: found[2])
        return sorted(best[0].tolist()), best[1], round(best[2], 12)

    readings = iter(range(100))  # perf_counter per size: its start, then one tick later (one set grown)
    monkeypatch.setattr(search.time, "perf_counter", lambda: (next(readings) + 1) // 2)
    narrowed = found(8, 4.5)  # after size s at time s: int((4.5 - s) / (4 - s)) = 1 for s = 1, 2, 3
    monkeypatch.undo()
    assert narrowed == found(1, None) != found(8, None)


def _set_objective(kind, truth, chosen, wp, wn, lam):
    """Reference: the weighted error of the literal set `chosen` at its best k, plus λ per literal."""
    counts = truth[:, list(chosen)].sum(axis=1)
    ks = [1] if kind == "Or" else range(len(chosen) + 1)
    if kind == "Choose":
        error = min((counts != k) @ wp + (counts == k) @ wn for k in ks)
    else:
        error = min((counts < k) @ wp + (counts >= k) @ wn for k in ks)
    return error + lam * len(chosen)


@pytest.mark.parametrize("kind", ["Or", "AtLeast", "Choose"])
@pytest.mark.parametrize("seed", range(40))
def test_descent_ends_where_no_swap_addition_or_drop_helps(kind, seed):
    """From a random valid set (exclusive: one literal per feature), the descent returns a valid set
    (literal bounds, no feature with both literals when exclusive) with its true objective and k,
    no worse than the start, and no set one swap, addition or drop away (for Or also two additions;
    enumerated) is better."""
    from boolrules.backends.depth_one_search import _descend

    rng = np.random.default_rng([seed, ["Or", "AtLeast", "Choose"].index(kind), 5])
    n, m = int(rng.integers(4, 16)), int(rng.integers(1, 6))
    X = rng.random((n, m)) < 0.5
    truth = np.concatenate([X, ~X], axis=1).astype(np.int16)
    partner = (np.arange(2 * m) + m) % (2 * m)
    wp = rng.uniform(0, 2, n) * (rng.random(n) < 0.6)
    wn = rng.uniform(0, 2, n) * (rng.random(n) < 0.6)
    lam, exclusive = float(rng.choice([0.0, 0.3, 1.0])), bool(seed % 2)
    max_literals = int(rng.integers(1, min(m, 4) + 1))
    min_literals = int(rng.integers(0, max_literals + 1))
    size = int(rng.integers(min_literals, max_literals + 1))
    start = rng.permutation(m)[:size] + m * rng.integers(0, 2, size)

    def valid(chosen):
        return (min_literals <= len(chosen) <= max_literals and len(set(chosen)) == len(chosen)
                and (not exclusive or len({j % m for j in chosen}) == len(chosen)))

    chosen, k, objective = _descend(kind, truth, partner, wp, wn, lam, min_literals, max_literals, exclusive, start,
                                    None)
    chosen = chosen.tolist()
    assert valid(chosen)
    assert objective == pytest.approx(_set_objective(kind, truth, chosen, wp, wn, lam), abs=1e-9)
    assert objective <= _set_objective(kind, truth, start, wp, wn, lam) + 1e-9
    if kind != "Or":
        counts = truth[:, chosen].sum(axis=1)
        error = ((counts != k) @ wp + (counts == k) @ wn if kind == "Choose"
                 else (counts < k) @ wp + (counts >= k) @ wn)
        assert error + lam * len(chosen) == pytest.approx(objective, abs=1e-9)
    others = [l for l in range(2 * m) if l not in chosen]
    neighbours = ([chosen + [l] for l in others] + [chosen[:i] + chosen[i + 1:] for i in range(len(chosen))]
                  + [chosen[:i] + [l] + chosen[i + 1:] for i in range(len(chosen)) for l in others]
                  + ([chosen + list(pair) for pair in itertools.combinations(others, 2)] if kind == "Or" else []))
    for neighbour in filter(valid, neighbours):
        assert _set_objective(kind, truth, neighbour, wp, wn, lam) >= objective - 1e-9


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("seed", range(6))  # even seeds exclusive, odd ones not
def test_a_timed_search_widens_its_beams_then_proves_the_brute_force_optimum(monkeypatch, operator, seed):
    """With time to spare, a timed search over more than two literals runs beams ever wider up to
    WIDEST (each one's sets descended) and then the branch and bound: status optimal, the
    brute-force optimum, and the rule (with its k) scoring what the solver reports."""
    from boolrules.backends import depth_one_search as search

    widths = []
    beam = search._beam
    monkeypatch.setattr(search, "_beam", lambda *args: widths.append(args[-2]) or beam(*args))
    rng = np.random.default_rng([seed, OPERATORS.index(operator), 13])
    m, max_lit = int(rng.integers(5, 7)), int(rng.integers(3, 5))
    min_lit, lam = int(rng.integers(0, 3)), float(rng.choice([0.0, 0.1]))
    problem = random_problem(rng, operator, int(rng.integers(40, 60)), m, max_lit, bool(seed % 2 == 0),
                             bool(rng.integers(0, 2)), lam, min_lit, weighted=True)
    result = get_backend("native", time_limit=60).solve(problem)
    expected = best_objective(problem.X, problem.y, problem.weights, operator, min_lit=min_lit, max_lit=max_lit,
                              lam=lam, negated=problem.negated, exclusive=problem.exclusive_literals)
    assert result.status == "optimal" and result.solver_objective == pytest.approx(expected, abs=1e-9)
    assert result.objective == pytest.approx(problem.objective(result.rule), abs=1e-12)
    assert result.objective <= expected + 1e-9
    assert widths == sorted(set(widths)) and widths[-1] == search.WIDEST


@pytest.mark.parametrize("exclusive", [True, False])
def test_descent_adds_two_literals_at_once_for_or_but_never_a_feature_twice(exclusive):
    """Or on features a, b: a row wanting 0 where both are true, one wanting 1 where only a is, one
    where only b is, a heavy one wanting 0 where neither is. Each single addition hurts, a and b
    together help. On a feature c whose two literals together are true on every row, the best,
    {c, ~c}, is not allowed when exclusive."""
    from boolrules.backends.depth_one_search import _descend

    X = np.array([[1, 1], [1, 0], [0, 1], [0, 0]], dtype=bool)
    truth = np.concatenate([X, ~X], axis=1).astype(np.int16)
    wp, wn = np.array([0, 1.5, 1.5, 0]), np.array([2, 0, 0, 5.0])
    chosen, _, objective = _descend("Or", truth, (np.arange(4) + 2) % 4, wp, wn, 0.0, 0, 2, exclusive,
                                    np.zeros(0, np.int64), None)
    assert sorted(chosen.tolist()) == [0, 1] and objective == pytest.approx(2.0)
    c = np.array([[1, 0], [0, 1], [1, 0]], dtype=np.int16)  # c and ~c on rows wanting 1, 1, 0
    chosen, _, objective = _descend("Or", c, np.array([1, 0]), np.array([1.0, 1, 0]), np.array([0, 0, 0.1]), 0.0, 0,
                                    2, exclusive, np.zeros(0, np.int64), None)
    assert sorted(chosen.tolist()) == ([1] if exclusive else [0, 1])
    assert objective == pytest.approx(1.0 if exclusive else 0.1)
    chosen, _, _ = _descend("Or", c, np.array([1, 0]), np.array([1.0, 1, 0]), np.array([0, 0, 0.1]), 0.0, 1, 3,
                            exclusive, np.array([0]), None)  # one literal left, room for two: no pair to score
    assert sorted(chosen.tolist()) == ([1] if exclusive else [0, 1])


def test_a_timed_search_whose_beams_find_nothing_returns_its_incumbent(monkeypatch):
    """A beam whose deadline passed before its first size returns no set (here every beam): the
    timed search goes on from the descended incumbent to the proven optimum."""
    from boolrules.backends import depth_one_search as search

    monkeypatch.setattr(search, "_beam", lambda *args: [])
    rng = np.random.default_rng(4)
    problem = random_problem(rng, "AtLeast", 40, 5, 3, True, False, 0.0, 1, weighted=True)
    result = get_backend("native", time_limit=60).solve(problem)
    expected = best_objective(problem.X, problem.y, problem.weights, "AtLeast", min_lit=1, max_lit=3, lam=0.0,
                              negated=False)
    assert result.status == "optimal" and result.solver_objective == pytest.approx(expected, abs=1e-9)


def test_a_timed_search_without_a_beam_width_runs_one_beam(monkeypatch):
    """Only the native backend widens its beams: a timed `search_depth_one` left at its default (as
    the depth-two search's term solves call it, sharing their time between slots) runs one beam."""
    from boolrules.backends import depth_one_search as search

    widths = []
    beam = search._beam
    monkeypatch.setattr(search, "_beam", lambda *args: widths.append(args[-2]) or beam(*args))
    rng = np.random.default_rng(5)
    X, target = rng.integers(0, 2, (40, 6)), rng.random(40) < 0.5
    found = search.search_depth_one(X, target, rng.uniform(0.5, 2, 40), "AtLeast", min_literals=1, max_literals=4,
                                    lam=0.0, exclusive=True, time_limit=60)
    assert found.optimal and len(widths) == 1
