"""Depth-two (DNF/CNF) problems: the ILP optimum and the exact QUBO ground state equal brute-force
enumeration of every rule within the bounds; decoding, repair and inspection."""

import itertools

import dimod
import numpy as np
import pytest

from boolrules.backends import get_backend
from boolrules.formulations import depth_one, depth_two
from boolrules.metrics import balanced_sample_weight
from boolrules.rules import And, Literal, One, Or, Zero

from ..errors import assert_raises_clearly
from .brute_force import all_depth_two_rules, best_depth_two_objective
from .exact import ground_energy

SHAPES = ["DNF", "CNF"]


def instance(seed, n=10, m=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    y[:2] = [0, 1]
    return X, y


def assert_in_class(rule, shape, max_terms, max_lit, max_complexity=None):
    """`rule` is a decoded depth-two rule of `shape` within the bounds."""
    outer, inner = (Or, And) if shape == "DNF" else (And, Or)
    rule = ~rule if rule.negated else rule
    if max_complexity is not None:
        assert rule.complexity <= max_complexity
    if isinstance(rule, (Zero, One, Literal)):
        return
    terms = rule.subrules if type(rule) is outer else (rule,)
    assert len(terms) <= max_terms
    for term in terms:
        assert type(term) is Literal or (type(term) is inner and not term.negated), rule
        assert len(term.literals()) <= max_lit and all(type(s) is Literal for s in term.subrules)
        assert len({lit.index for lit in term.literals()}) == len(term.literals())


CASES = [
    {"max_terms": 2, "max_literals_per_term": 2},
    {"max_terms": 2, "max_literals_per_term": 2, "lam": 0.3},
    {"max_terms": 2, "max_literals_per_term": 3, "max_complexity": 5},
    {"max_terms": 3, "max_literals_per_term": 1, "lam": 0.1},
    {"max_terms": 2, "max_literals_per_term": 2, "min_terms": 2, "max_complexity": 4, "lam": 0.05},
]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("negated", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("seed", [0, 1])
def test_ilp_optimum_equals_brute_force(shape, negated, case, seed):
    kwargs = CASES[case]
    X, y = instance(seed)
    problem = depth_two(X, y, shape, negated=negated, **kwargs)
    result = get_backend("highs").solve(problem)
    expected = best_depth_two_objective(
        X, y, balanced_sample_weight(y), shape, max_terms=kwargs["max_terms"], max_lit=kwargs["max_literals_per_term"],
        lam=kwargs.get("lam", 0.0), negated=negated, max_complexity=kwargs.get("max_complexity"),
        min_terms=kwargs.get("min_terms", 0),
    )
    assert result.status == "optimal"
    assert result.solver_objective == pytest.approx(expected, abs=1e-6)
    assert result.objective == pytest.approx(expected, abs=1e-6)  # the decoded rule, re-evaluated
    assert_in_class(result.rule, shape, kwargs["max_terms"], kwargs["max_literals_per_term"],
                    kwargs.get("max_complexity"))


@pytest.mark.parametrize("shape", SHAPES)
def test_random_weights(shape):
    """Per-sample weights (the non-local oracle's) with a complexity cap and λ."""
    X, y = instance(7, n=12)
    weights = np.random.default_rng(7).uniform(0.1, 3.0, len(y))
    problem = depth_two(X, y, shape, max_terms=2, max_literals_per_term=2, max_complexity=6, lam=0.02,
                        sample_weight=weights)
    result = get_backend("highs").solve(problem)
    expected = best_depth_two_objective(X, y, weights, shape, max_terms=2, max_lit=2, lam=0.02, negated=False,
                                        max_complexity=6)
    assert result.objective == pytest.approx(expected, abs=1e-6)


def test_brute_force_counts_its_rules():
    """The enumeration is the class the model describes: 8 terms over 2 features of at most 2 literals
    (4 single literals, 4 pairs of different features), so 1 + 8 + 36 rules of at most 2 terms."""
    rules = list(all_depth_two_rules(2, "DNF", 2, 2))
    assert len(rules) == 45
    assert all(rule.complexity == nodes for rule, nodes in rules)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kwargs", [
    {}, {"negated": True}, {"lam": 0.25}, {"max_complexity": 4}, {"min_terms": 2, "lam": 0.1},
])
@pytest.mark.parametrize("seed", [0, 1])
def test_qubo_ground_state_is_the_ilp_optimum(shape, kwargs, seed):
    """With η and sufficient penalties, the exact QUBO minimum is the ILP optimum, and the ground
    state decodes to an optimal rule."""
    X, y = instance(seed, n=6, m=2)
    problem = depth_two(X, y, shape, max_terms=2, max_literals_per_term=2, **kwargs)
    qubo = problem.to_qubo(eta=True, penalty="sufficient")
    optimum = get_backend("highs").solve(problem)
    decision = [v for v, block in zip(qubo.labels, qubo.form.label_block) if block in ("z", "u", "s")]
    energy, state = ground_energy(qubo.bqm, decision)
    assert energy == pytest.approx(optimum.objective, abs=1e-6)
    ground = problem.decode(qubo.variable_values(state)[0])  # as it is; `qubo.decode` repairs to a native rule
    assert problem.objective(ground) == pytest.approx(optimum.objective, abs=1e-6)
    assert problem.objective(qubo.decode(state)) >= optimum.objective - 1e-9


def test_exact_decomposition_matches_dimods_exact_solver():
    """The decomposed exact minimiser agrees with dimod's ExactSolver where both run: a depth-one QUBO
    and a random BQM."""
    X, y = instance(3, n=4, m=2)
    qubo = depth_one(X, y, "Or", max_num_literals=1).to_qubo()
    bqm = qubo.bqm
    assert bqm.num_variables <= 20
    decision = [v for v, block in zip(qubo.labels, qubo.form.label_block) if block in ("b", "bt")]
    assert ground_energy(bqm, decision)[0] == pytest.approx(dimod.ExactSolver().sample(bqm).first.energy)
    rng = np.random.default_rng(0)
    random_bqm = dimod.BinaryQuadraticModel(
        {i: rng.normal() for i in range(12)}, {(i, j): rng.normal() for i, j in itertools.combinations(range(12), 2)
                                              if rng.random() < 0.3}, 0.5, dimod.BINARY)
    assert ground_energy(random_bqm, range(6))[0] == pytest.approx(dimod.ExactSolver().sample(random_bqm).first.energy)


def random_choice(problem, rng):
    """A random valid choice {"z"}: repaired random literals."""
    z = rng.random((problem.max_terms, 2 * problem.num_features)) < 0.3
    return problem.repair_values({"z": z.astype(int).ravel()})


def terms_of(rule):
    """A rule as its type, negation and set of sub-rules (order-free)."""
    return type(rule), rule.negated, frozenset(rule.subrules) if rule.subrules else rule


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("negated", [False, True])
def test_feasible_points_round_trip(shape, negated):
    """A valid choice is a feasible ILP point whose objective is the decoded rule's; the point decodes
    back to the same rule, and its QUBO sample has energy equal to that objective."""
    X, y = instance(4)
    problem = depth_two(X, y, shape, max_terms=3, max_literals_per_term=2, max_complexity=8, lam=0.1,
                        negated=negated)
    form = problem.standard_form
    qubo = problem.to_qubo()
    rng = np.random.default_rng(0)
    for _ in range(20):
        values = random_choice(problem, rng)
        rule = problem.decode(values)
        x = problem.feasible_point(values)
        body = form.A @ x
        assert (body >= form.lower - 1e-9).all() and (body <= form.upper + 1e-9).all()
        assert form.c @ x + form.c0 == pytest.approx(problem.objective(rule))
        assert terms_of(problem.decode(problem.values_from_vector(x))) == terms_of(rule)  # terms in symmetry order
        assert qubo.energy(qubo.sample_from_vector(x)) == pytest.approx(problem.objective(rule))


def test_a_term_never_holds_a_feature_and_its_negation():
    """The choice And(f0, ~f0) (a term that never fires) is infeasible, though its objective would
    equal an unused term's plus nodes: only exclusive_literals rules it out."""
    X, y = instance(4)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    form = problem.standard_form
    z = np.zeros((2, 6), int)
    z[0, [0, 3]] = 1
    values = {"z": z.ravel(), "u": [1, 0], "s": [0, 0], "a": np.zeros(len(problem.model.fired_samples) * 2),
              "eta": problem._fired.astype(int)}
    body = form.A @ problem.vector_from_values(values)
    broken = (body < form.lower - 1e-9) | (body > form.upper + 1e-9)
    assert set(form.row_block[broken]) == {"exclusive_literals"}


def test_decode_simplifies_terms():
    """Unused terms vanish, a one-literal term is its literal, a single term is the rule."""
    X, y = instance(0, m=3)
    problem = depth_two(X, y, "DNF", max_terms=3, max_literals_per_term=2)

    def values(*terms):
        z = np.zeros((3, 6), int)
        for k, literals in enumerate(terms):
            z[k, literals] = 1
        return {"z": z.ravel()}

    assert problem.decode(values()) == Zero()
    assert problem.decode(values([4])) == Literal(1, True)
    assert problem.decode(values([0, 4])) == And(Literal(0), Literal(1, True))
    assert problem.decode(values([0, 4], [], [2])) == Or(And(Literal(0), Literal(1, True)), Literal(2))
    cnf = depth_two(X, y, "CNF", max_terms=3, max_literals_per_term=2, negated=True)
    assert cnf.decode(values()) == ~One()
    assert cnf.decode(values([0], [1, 5])) == ~And(Literal(0), Or(Literal(1), Literal(2, True)))


@pytest.mark.parametrize("shape", SHAPES)
def test_repair_and_greedy_stay_within_bounds(shape):
    X, y = instance(5, n=12, m=4)
    problem = depth_two(X, y, shape, max_terms=2, max_literals_per_term=2, max_complexity=5, min_terms=1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        z = (rng.random(2 * 8) < 0.5).astype(int)
        rule = problem.decode(problem.repair_values({"z": z}))
        assert_in_class(rule, shape, 2, 2, 5)
        singles = [s for s in (~rule if rule.negated else rule).subrules if type(s) is Literal]
        assert len({s.index for s in singles}) == len(singles)  # a native rule: no Or(f1, ~f1), no Or(f1, f1)
        assert not isinstance(~rule if rule.negated else rule, (Zero, One))  # min_terms=1
    greedy = problem.decode(problem.greedy_values())
    assert_in_class(greedy, shape, 2, 2, 5)
    empty_single = problem.decode(problem.repair_values({"z": np.zeros(16, int)}))
    assert problem.objective(greedy) <= problem.objective(empty_single) + 1e-12


def test_repair_makes_native_rules():
    """Repair drops what the native search refuses: equal terms, and two single-literal terms of one
    feature (Or(f1, ~f1)); what is left is the rest of the choice."""
    X, y = instance(5, n=12, m=4)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    z = np.zeros((2, 8), int)
    z[0, 1] = z[1, 5] = 1  # f1 and ~f1
    rule = problem.decode(problem.repair_values({"z": z.ravel()}))
    assert rule in (Literal(1), Literal(1, True))
    z = np.zeros((2, 8), int)
    z[:, [0, 2]] = 1  # And(f0, f2) twice
    rule = problem.decode(problem.repair_values({"z": z.ravel()}))
    assert type(rule) is Or and And(Literal(0), Literal(2)) in rule.subrules or rule == And(Literal(0), Literal(2))
    assert len(set(rule.subrules)) == len(rule.subrules)


def test_counts_per_block():
    """Variables and constraints per block follow the formulation: z K·2m, u, s K, a |P|·K, eta n;
    rows per term, per feature pair, per fired sample and term, per other sample and term."""
    X, y = instance(2, n=11, m=4)
    K, M = 3, 2
    problem = depth_two(X, y, "DNF", max_terms=K, max_literals_per_term=M, max_complexity=7, min_terms=1)
    P = int(y.sum())
    assert problem.variable_counts() == {"z": K * 8, "u": K, "s": K, "a": P * K, "eta": 11}
    assert problem.constraint_counts() == {
        "term_max": K, "term_min": K, "single_used": K, "exclusive_literals": K * 4, "used_order": K - 1,
        "term_order": K - 1, "max_complexity": 1, "min_terms": 1, "fired_terms": P * K, "fired_rows": P,
        "quiet_rows": (11 - P) * K,
    }
    assert problem.num_variables == problem.standard_form.num_vars
    summary = problem.summary()
    assert summary["shape"] == "DNF" and summary["num_constraints"] == problem.standard_form.A.shape[0]
    cnf = depth_two(X, y, "CNF", max_terms=K, max_literals_per_term=1)  # CNF fires on the negatives
    assert cnf.variable_counts() == {"z": K * 8, "u": K, "a": (11 - P) * K, "eta": 11}
    qubo = problem.to_qubo()
    assert sum(qubo.blocks().values()) == qubo.num_variables


def test_groups_bound_the_term_rows():
    """Each term's literals are a cardinality group bounded by the literals per term, defined by its
    own `term_max` row; sample rows carry their sample (the first element of their index)."""
    X, y = instance(2, n=8, m=3)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    form = problem.standard_form
    z = form.columns("z")
    assert form.col_group[z].tolist() == [0] * 6 + [1] * 6
    assert (form.col_group[form.col_block != "z"] == -1).all()
    assert form.group_bound.tolist() == [2, 2]
    term_rows = np.flatnonzero(form.row_block == "term_max")
    assert form.row_group[term_rows].tolist() == form.row_index[term_rows].tolist() == [0, 1]
    samples = np.isin(form.row_block, ["fired_terms", "fired_rows", "quiet_rows"])
    assert (form.row_sample[samples] >= 0).all() and (form.row_sample[~samples] == -1).all()
    fired = set(problem.model.fired_samples)
    assert set(form.row_sample[form.row_block == "fired_terms"]) == fired
    np.testing.assert_array_equal(form.row_weight[samples], problem.weights[form.row_sample[samples]])


@pytest.mark.parametrize("backend", ["sa", "tabu"])
def test_samplers_decode_a_valid_rule(backend):
    X, y = instance(6, n=20, m=4)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2, max_complexity=5)
    result = get_backend(backend, seed=0, **({"num_reads": 5} if backend == "sa" else {})).solve(problem)
    assert result.ok, result.message
    assert_in_class(result.rule, "DNF", 2, 2, 5)
    assert result.objective == pytest.approx(problem.objective(result.rule))
    assert result.objective >= get_backend("highs").solve(problem).objective - 1e-9


def test_backends_that_take_only_depth_one_say_so():
    from boolrules.backends.dwave import LeapCqmBackend

    from ..fakes import FakeCqmSampler

    X, y = instance(0)
    problem = depth_two(X, y, "DNF", max_terms=2, max_literals_per_term=2)
    sampler = FakeCqmSampler(problem)
    assert_raises_clearly(TypeError, lambda: LeapCqmBackend(sampler=sampler).solve(problem),
                          "DepthOneProblem", "DepthTwoProblem")
    assert not hasattr(sampler, "params")  # refused before any work


@pytest.mark.parametrize("kwargs, error, names", [
    ({"shape": "XOR"}, ValueError, ["shape", "DNF"]),
    ({"max_terms": 0}, ValueError, ["max_terms"]),
    ({"max_literals_per_term": 4}, ValueError, ["max_literals_per_term"]),
    ({"min_terms": 3}, ValueError, ["min_terms"]),
    ({"min_terms": 2, "max_complexity": 2}, ValueError, ["max_complexity", "min_terms"]),
    ({"lam": -1}, ValueError, ["lam"]),
    ({"negated": 1}, TypeError, ["negated"]),
])
def test_bad_arguments_are_named(kwargs, error, names):
    X, y = instance(0)
    arguments = {"shape": "DNF", "max_terms": 2, "max_literals_per_term": 2, **kwargs}
    shape = arguments.pop("shape")
    assert_raises_clearly(error, lambda: depth_two(X, y, shape, **arguments), *names)


def test_nothing_passed_is_modified():
    X, y = instance(0)
    weights = np.linspace(0.5, 2, len(y))
    copies = X.copy(), y.copy(), weights.copy()
    problem = depth_two(X, y, "CNF", max_terms=2, max_literals_per_term=2, sample_weight=weights, negated=True)
    get_backend("highs").solve(problem)
    for before, after in zip(copies, (X, y, weights)):
        np.testing.assert_array_equal(before, after)


def _settings():
    """Every small setting (features, max_terms, min_terms, literals per term, max_complexity)."""
    for m, K in itertools.product((1, 2, 3), (1, 2, 3)):
        for min_terms, M in itertools.product(range(K + 1), range(1, m + 1)):
            for cap in (None, 1, 2, 3, 4, 5, 6):
                yield m, K, min_terms, M, cap


def test_repair_and_greedy_reach_every_setting_depth_two_accepts():
    """Whatever `depth_two` accepts, the ILP can satisfy (terms may repeat a feature or a term), and
    repair and the greedy start find a feasible point there, at least `min_terms` terms; with
    two features, three terms need a term of two literals (no longer "min() arg is an empty sequence")."""
    rng = np.random.default_rng(2)
    accepted = 0
    for m, K, min_terms, M, cap in _settings():
        X, y = instance(7, n=8, m=m)
        try:
            problem = depth_two(X, y, "DNF", max_terms=K, max_literals_per_term=M, max_complexity=cap,
                                min_terms=min_terms, lam=0.01)
        except ValueError as err:
            assert "max_complexity" in str(err)
            continue
        accepted += 1
        starts = [problem.greedy_values()] + [problem.repair_values({"z": rng.integers(0, 2, 2 * m * K)})
                                              for _ in range(3)]
        for values in starts:
            x = problem.feasible_point(values)
            assert problem.feasible(x)[0], (m, K, min_terms, M, cap, values)
            assert problem._choice(values).any(axis=1).sum() >= min_terms
    assert accepted > 100


@pytest.mark.parametrize("backend", ["highs", "sa", "tabu"])
def test_three_terms_of_two_features(backend):
    """The issue's case: three terms on two features need a two-literal term; every backend finds a
    rule with three terms, as HiGHS does without its warm start."""
    X, y = instance(8, n=12, m=2)
    problem = depth_two(X, y, "DNF", max_terms=3, min_terms=3, max_literals_per_term=2)
    result = get_backend(backend, **({} if backend == "highs" else {"seed": 0})).solve(problem)
    assert result.ok, result.message
    assert type(result.rule) is Or and len(result.rule.subrules) == 3
    assert result.objective == pytest.approx(problem.objective(result.rule))
