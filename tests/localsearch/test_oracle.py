import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import balanced_accuracy_score

from boolrules import RuleClassifier
from boolrules.backends import get_backend
from boolrules.backends.base import Result
from boolrules.localsearch.moves import SearchSpace
from boolrules.localsearch.oracle import NonLocalOracle, native_form
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import OPERATORS, And, AtLeast, AtMost, BitMatrix, Choose, Literal, Or

from ..fakes import Garbage, Raising, Recording, Returning, TimingOut
from ..formulations.brute_force import best_objective
from ..planted import planted as planted_data
from ..processes import loky_pool

ALL = tuple(OPERATORS.values())


def make_oracle(X, y, backend="highs", max_complexity=8, max_samples=1000, seed=0, max_depth=None):
    space = SearchSpace(X.shape[1], ALL, max_complexity, max_depth)
    return NonLocalOracle(
        BitMatrix(X), X, y, balanced_sample_weight(y), space, get_backend(backend),
        operators=ALL, max_samples=max_samples, time_limit=10.0, rng=random.Random(seed),
    )


TRUTH = And(Or(Literal(5), Literal(6)), Or(Literal(0), ~Literal(1)))
START = And(Or(Literal(5), Literal(6)), Or(Literal(2), Literal(3)))  # the second Or is wrong


@pytest.fixture(scope="module")
def planted():
    return planted_data(TRUTH, 200, 8)


def test_subproblem_keeps_exactly_the_undetermined_rows(planted):
    X, y = planted
    rows, labels = make_oracle(X, y).subproblem(START, (1,))
    assert np.array_equal(rows, np.flatnonzero(X[:, 5] | X[:, 6]))  # elsewhere And(., .) is 0 anyway
    assert np.array_equal(labels, y[rows].astype(bool))


@pytest.mark.parametrize("operator", ["Or", "AtLeast"])
def test_one_call_repairs_the_planted_error(planted, operator):
    X, y = planted
    new = make_oracle(X, y).replace(START, (1,), OPERATORS[operator])
    assert np.array_equal(new.evaluate(X), y.astype(bool))


# HiGHS proves a Choose subproblem optimal in well under a second up to ~20 rows, but not within
# seconds beyond ~30 (the fixture's subproblem has ~150): Choose gets 24 planted rows, ~18 of them in it
@pytest.mark.parametrize("operator, num_rows", [("Or", 200), ("AtLeast", 200), ("AtMost", 200), ("Choose", 24)])
def test_replacement_is_the_brute_force_best(operator, num_rows):
    X, y = planted_data(TRUTH, num_rows, 8)
    oracle = make_oracle(X, y, max_complexity=START.complexity)  # the subtree may hold 2 literals
    rows, labels = oracle.subproblem(START, (1,))
    new = oracle.replace(START, (1,), OPERATORS[operator])
    assert new is not None
    w = balanced_sample_weight(y)[rows]
    expected = best_objective(X[rows], labels, w, operator, min_lit=1, max_lit=2, lam=0, negated=False)
    assert float(w @ (new.subrules[1].evaluate(X[rows]) != labels)) == pytest.approx(expected)


def test_the_backend_gets_max_samples_of_the_subproblem_rows_and_the_time_limit(planted):
    """Above max_samples, a subset of the subproblem's rows drawn from the oracle's rng (the same for
    the same seed, another for another) reaches the backend with its labels, and so does the time limit."""
    X, y = planted

    def solved(seed, max_samples=30):
        backend = Recording()
        oracle = make_oracle(X, y, backend=backend, max_samples=max_samples, seed=seed)
        oracle.replace(START, (1,), Or)
        (problem, options), = backend.calls
        return oracle, problem, options

    oracle, problem, options = solved(0)
    rows, labels = oracle.subproblem(START, (1,))
    assert len(rows) > 30 and problem.num_samples == 30
    expected = {row.tobytes() for row in np.column_stack([X[rows], labels])}
    assert all(row.tobytes() in expected for row in np.column_stack([problem.X, problem.y]))
    assert options == {"time_limit": 10.0}
    assert np.array_equal(solved(0)[1].X, problem.X) and not np.array_equal(solved(1)[1].X, problem.X)
    everything = solved(0, max_samples=len(rows))[1]
    assert np.array_equal(everything.X, X[rows]) and np.array_equal(everything.y, labels)


def test_a_subtree_beyond_the_complexity_or_depth_budget_is_refused(planted):
    """Whatever the backend returns, a splice never makes the rule too complex or too deep."""
    X, y = planted
    wide = make_oracle(X, y, backend=Garbage(Or(*(Literal(j) for j in range(6)))), max_complexity=START.complexity)
    assert wide.replace(START, (1,), Or) is None
    deep = make_oracle(X, y, backend=Garbage(Or(Literal(0), Literal(2))), max_depth=START.depth)
    assert deep.replace(START, (1, 0), Or) is None
    assert wide.stats.failures == deep.stats.failures == {"invalid": 1}


def test_root_replacement_needs_two_literals(planted):
    X, y = planted
    oracle = make_oracle(X, y)
    new = oracle.replace(Or(Literal(2), Literal(3)), (), And)
    assert isinstance(new, And) and len(new.subrules) >= 2


def test_native_form_of_degenerate_parameters():
    a, b = Literal(0), Literal(1)
    assert native_form(AtLeast(2, a, b)) == And(a, b)
    assert native_form(Choose(0, a, b)) == And(~a, ~b)
    assert native_form(AtMost(0, a, b)) == And(~a, ~b)
    assert native_form(AtLeast(0, a, b)) is None
    assert native_form(AtMost(1, a, b)) == AtMost(1, a, b)


def test_auto_moves_stay_within_the_searched_operators():
    """With operators=["Or", "And"] the default oracle builds no AtLeast/AtMost/Choose node, which the
    search space would refuse (each such call counted as a backend failure before)."""
    X, y = planted_data(AtLeast(2, Literal(0), ~Literal(3), Literal(5)), 300, 10)
    clf = RuleClassifier(operators=["Or", "And"], num_starts=2, num_iterations=300, num_iterations_burn_in=0,
                         random_state=0, nonlocal_backend="native").fit(X, y)
    assert clf.nonlocal_stats_.proposed > 0 and clf.nonlocal_stats_.failures == {}


def test_native_form_keeps_one_of_repeated_terms():
    """A time-limited depth-two answer may repeat a term to meet its least number of terms
    (Or(f0, f0)): that is the term itself, not a rule outside the search space."""
    a, b = Literal(0), Literal(1)
    assert native_form(Or(a, a)) == a and native_form(~And(a, a)) == ~a
    assert native_form(Or(And(a, b), And(a, b), b)) == Or(And(a, b), b)
    assert native_form(AtLeast(1, a, a, b)) == AtLeast(1, a, a, b)  # counts: repeats matter


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 1000), max_complexity=st.integers(3, 9), max_depth=st.one_of(st.none(), st.integers(1, 3)))
def test_every_non_local_move_is_valid(seed, max_complexity, max_depth):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (60, 6), dtype=np.uint8)
    y = rng.integers(0, 2, 60).astype(np.uint8)
    y[:2] = [0, 1]
    # 10 rows per subproblem: validity is about the budget, and HiGHS's Choose slows sharply beyond ~20 rows
    oracle = make_oracle(X, y, max_complexity=max_complexity, seed=seed, max_samples=10, max_depth=max_depth)
    from boolrules.localsearch.moves import LocalMoves, random_rule

    moves = LocalMoves(oracle.space, random.Random(seed))
    rule = random_rule(oracle.space, random.Random(seed))
    for _ in range(6):
        new = oracle.propose(rule)
        if new is not None:
            oracle.space.validate(new)
            rule = new
        rule = moves.propose(rule)
    assert oracle.stats.calls == 6


@pytest.mark.parametrize(
    "backend, kind",
    [(Raising(), "RuntimeError"), (TimingOut(), "time_limit"), (Garbage(), "invalid"), (Garbage(Literal(999)), "invalid"),
     (get_backend(Returning(lambda bqm: 1 / 0)), "ZeroDivisionError")],  # an error result, counted by its exception
)
def test_failing_backends_never_stop_the_search(planted, backend, kind):
    X, y = planted
    with pytest.warns(RuntimeWarning, match=f"non-local backend '{backend.name}' failed on .* oracle calls .*{kind}"):
        clf = RuleClassifier(
            num_starts=2, num_iterations=60, patience=2, num_iterations_burn_in=10, random_state=0,
            nonlocal_backend=backend, record_trajectory=True, max_samples=12,
        ).fit(X, y)
    stats = clf.nonlocal_stats_
    assert stats.calls > 0 and stats.failures.get(kind, 0) > 0
    assert stats.proposed == 0
    assert all(len(start.trajectory.objective) == 60 for start in clf.starts_)  # every start ran to its end
    assert clf.best_score_ == pytest.approx(balanced_accuracy_score(y, clf.predict(X)))
    SearchSpace(X.shape[1], ALL, clf.max_complexity).validate(clf.best_rule_)


def test_non_local_moves_are_recorded(planted):
    X, y = planted
    clf = RuleClassifier(
        num_starts=2, num_iterations=120, patience=3, random_state=1, max_complexity=6,
        nonlocal_backend="highs", record_trajectory=True, max_samples=12,
    ).fit(X, y)
    assert clf.nonlocal_stats_.proposed > 0
    moves = np.concatenate([s.trajectory.nonlocal_moves for s in clf.starts_])
    assert moves.size == clf.nonlocal_stats_.proposed
    assert moves.min() >= 40  # burn-in: the first third
    gains = np.concatenate([s.trajectory.nonlocal_gain[s.trajectory.nonlocal_moves] for s in clf.starts_])
    assert np.isfinite(gains).all()


def test_the_stats_tell_the_solvers_contribution_from_the_clean_up(planted):
    """What the hardware did, per fit: an ILP's answers are its own (raw, valid, every move by it);
    a sampler's moves split by the stage that made them, and sum to the moves proposed."""
    X, y = planted
    common = dict(num_starts=2, num_iterations=120, patience=3, random_state=1, max_complexity=6, max_samples=12)
    ilp = RuleClassifier(nonlocal_backend="highs", **common).fit(X, y).nonlocal_stats_
    assert ilp.proposed > 0 and ilp.raw_feasible == ilp.solved >= ilp.proposed
    assert ilp.moves_by_stage == {"raw": ilp.proposed}
    sampled = RuleClassifier(nonlocal_backend=get_backend("sa", num_reads=5, num_sweeps=50), **common).fit(X, y)
    stats = sampled.nonlocal_stats_
    assert stats.proposed > 0 and sum(stats.moves_by_stage.values()) == stats.proposed
    assert set(stats.moves_by_stage) <= {"raw", "repaired", "polished"} and 0 <= stats.raw_feasible <= stats.solved
    assert sum((s.oracle for s in sampled.starts_), type(stats)()) == stats  # the fit's stats sum its starts'


@loky_pool
def test_a_sampler_oracle_follows_random_state_across_n_jobs(planted):
    """An unseeded sampler backend gets its seeds from `random_state`, so non-local search is
    reproducible with any number of workers; another `random_state` gives another search."""
    X, y = planted

    def fit(n_jobs, random_state=3):
        clf = RuleClassifier(
            num_starts=2, num_iterations=60, patience=2, num_iterations_burn_in=10, random_state=random_state,
            n_jobs=n_jobs, record_trajectory=True, nonlocal_backend=get_backend("sa", num_reads=3, num_sweeps=50),
            max_samples=12,
        ).fit(X, y)
        return str(clf.best_rule_), [s.trajectory.objective.tolist() for s in clf.starts_], clf.nonlocal_stats_

    runs = [fit(n_jobs) for n_jobs in (None, 2)]
    assert runs[0][2].proposed > 0
    assert runs[0][2].failures == {}  # every seed drawn is one the sampler takes
    assert runs[0] == runs[1]
    assert fit(None, random_state=4)[1] != runs[0][1]


def reference_gains(rule, X, y, weights):
    """Per node: the weight of the misclassified rows whose prediction flips with the node's value."""
    from boolrules.localsearch.moves import replace_at
    from boolrules.rules import One, Zero

    wrong = rule.evaluate(X) != y.astype(bool)
    return [
        weights[wrong & (replace_at(rule, path, Zero()).evaluate(X) != replace_at(rule, path, One()).evaluate(X))].sum()
        for path, _ in rule.walk()
    ]


class OnlyOr(Recording):
    """Solves Or problems (with native: which solver does not matter here, and HiGHS costs ~0.1 s a call)
    and answers every other one with an invalid literal."""

    name = "only-or"

    def solve(self, problem, **options):
        self.calls.append((problem, options))
        if problem.operator == "Or":
            return get_backend("native").solve(problem)
        return Result(Literal(999), 0.0, "optimal", 0.0, self.name)


def gain_oracle(X, y, backend, seed=0, policy="gain", max_samples=1000):
    space = SearchSpace(X.shape[1], ALL, 8)
    return NonLocalOracle(
        BitMatrix(X), X, y, balanced_sample_weight(y), space, backend, operators=ALL, max_samples=max_samples,
        time_limit=None, rng=random.Random(seed), policy=policy,
    )


def test_gains_are_the_error_weight_each_node_could_remove(planted):
    X, y = planted
    oracle = gain_oracle(X, y, Recording())
    w = balanced_sample_weight(y)
    for rule in (START, ~START, AtLeast(2, Or(Literal(5), Literal(2)), Literal(0), ~Literal(1)), TRUTH):
        assert oracle.gains(rule) == pytest.approx(reference_gains(rule, X, y, w))
    assert not oracle.gains(TRUTH).any()
    gains = oracle.gains(Or(TRUTH, And(Literal(2), Literal(3))))  # the second child adds only false positives
    assert gains[1:8].sum() == 0 and gains[8:].min() > 0  # so only it (and the root) can gain


def test_gain_policy_draws_nodes_by_their_gain_and_skips_a_perfect_rule(planted):
    X, y = planted
    for rule in (START, Or(TRUTH, And(Literal(2), Literal(3)))):
        oracle = gain_oracle(X, y, Recording())
        drawn = []
        oracle.replace = lambda rule, path, operator, memo=None, time_limit=None: drawn.append(path)
        gains_of, known = oracle.gains, {}

        def once(rule, memo=None):  # the real gains, computed once per rule the draws ask about
            if str(rule) not in known:
                known[str(rule)] = gains_of(rule, memo)
            return known[str(rule)]

        oracle.gains = once
        for _ in range(3000):
            oracle.propose(rule)
        gains = gains_of(rule)
        counts = np.array([drawn.count(path) for path, _ in rule.walk()])
        assert np.all(counts[gains == 0] == 0)
        assert counts / len(drawn) == pytest.approx(gains / gains.sum(), abs=0.02)
    backend = Recording()
    perfect = gain_oracle(X, y, backend)
    assert perfect.propose(TRUTH) is None and backend.calls == [] and perfect.stats.nothing == 1


@pytest.mark.parametrize("policy", ["gain", "random"])
def test_gain_policy_learns_which_operator_helps(planted, policy):
    """Only Or answers can lower the error here: the gain policy soon asks mostly for Or, the random
    one keeps asking for each operator alike."""
    X, y = planted
    backend = OnlyOr()
    oracle = gain_oracle(X, y, backend, policy=policy)
    for _ in range(80):
        oracle.propose(START)
    late = [problem.operator for problem, _ in backend.calls[40:]]
    share = late.count("Or") / len(late)
    assert share > 0.7 if policy == "gain" else share < 0.4


def test_unknown_policy_is_refused(planted):
    X, y = planted
    with pytest.raises(ValueError, match="policy"):
        gain_oracle(X, y, Recording(), policy="best")


@loky_pool
def test_gain_policy_fits_repeat_exactly_across_n_jobs(planted):
    X, y = planted

    def fit(n_jobs):
        clf = RuleClassifier(
            num_starts=2, num_iterations=120, patience=3, random_state=5, max_complexity=6, n_jobs=n_jobs,
            nonlocal_backend="native", nonlocal_policy="gain", record_trajectory=True, max_samples=12,
        ).fit(X, y)
        return str(clf.best_rule_), [s.trajectory.objective.tolist() for s in clf.starts_], clf.nonlocal_stats_

    runs = [fit(n_jobs) for n_jobs in (None, 2)]
    assert runs[0][2].proposed > 0
    assert runs[0] == runs[1]


def test_highs_oracle_under_joblib_threads_learns_the_n_jobs_1_rule(planted):
    """With joblib's threading backend, HiGHS solves run in parallel threads: no move is lost and
    the rule is the one n_jobs=1 learns."""
    from joblib import parallel_backend

    X, y = planted

    def fit(n_jobs):
        return RuleClassifier(num_starts=2, num_iterations=120, num_iterations_burn_in=10, random_state=5,
                              n_jobs=n_jobs, nonlocal_backend="highs", max_samples=12).fit(X, y)

    one = fit(1)
    with parallel_backend("threading", n_jobs=2):
        two = fit(2)
    assert one.nonlocal_stats_.proposed > 0 and two.nonlocal_stats_.failures == {}
    assert str(two.best_rule_) == str(one.best_rule_)
    assert two.nonlocal_stats_ == one.nonlocal_stats_


def test_a_backend_that_rarely_fails_is_no_warning(planted, recwarn):
    """One failure in many calls is counted, not warned about (the warning is for most calls failing)."""
    X, y = planted
    highs = get_backend("highs")

    class OnceFailing(type(highs)):
        failed = False

        def solve(self, problem, **options):
            if not OnceFailing.failed:
                OnceFailing.failed = True
                raise RuntimeError("once")
            return super().solve(problem, **options)

    clf = RuleClassifier(num_starts=1, num_iterations=120, num_iterations_burn_in=10, random_state=5,
                         nonlocal_backend=OnceFailing(), max_samples=12).fit(X, y)
    assert clf.nonlocal_stats_.failures == {"RuntimeError": 1} and clf.nonlocal_stats_.calls > 2
    assert not [w for w in recwarn if "non-local backend" in str(w.message)]


@pytest.mark.parametrize("seed", range(6))
def test_sweep_keeps_the_best_operator_at_its_node(planted, seed):
    """The "sweep" policy calls every operator at one uniform node and keeps the replacement of least
    error: the same node, solved operator by operator, gives no better rule."""
    X, y = planted
    oracle = make_oracle(X, y, backend="native", seed=seed)
    oracle.policy = "sweep"
    nodes = START.walk()
    path, _ = nodes[random.Random(seed).randrange(len(nodes))]
    new = oracle.propose(START)
    assert oracle.stats.calls == len(ALL)
    single = make_oracle(X, y, backend="native", seed=seed)
    found = [r for op in ALL if (r := single.replace(START, path, op)) is not None]
    w = balanced_sample_weight(y)

    def error(rule):
        return float(w @ (rule.evaluate(X) != y.astype(bool)))

    assert (new is None) == (not found)
    if found:
        assert error(new) == pytest.approx(min(error(r) for r in found))
