"""Property tests of the depth-one QUBO compile chain (`docs/formulations.md`).

1. Decoding: *any* 0/1 sample over a QUBO's variables decodes (with repair) to a valid depth-one
   rule of the problem, and the objective reported for it is the one recomputed here.
2. Energy = objective: a feasible ILP point, carried forward through the chain
   (`QuboProblem.sample_from_vector`, slacks at their best values), has QUBO energy equal to its
   ILP objective (the compiler's constant offset is zero by design). At any other point a broken
   hard row costs at least the hard weight, with η the error variables cannot be cheated, and
   without η each misclassified sample costs at least its soft penalty.

Instances are small random ones: X, labels and positive weights, every operator, negated root or
not, feasible literal bounds, exclusive literals or not, λ, with and without η. Objectives are
recomputed independently of the library (`reference.depth_one_predictions`, weighted errors + λ L).
"""

import functools

import dimod
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from boolrules.backends import get_backend
from boolrules.formulations import depth_one
from boolrules.formulations.reductions import capped_binary_bits, capped_binary_weights
from boolrules.formulations.repair import feasible_point
from boolrules.rules import OPERATORS, AtLeast, Literal, One, Operator, Zero

from ..reference import depth_one_predictions

OPERATOR_NAMES = list(OPERATORS)
SETTINGS = settings(max_examples=50, deadline=None)  # per operator: 5 x 50 examples per property


@st.composite
def problems(draw, operator):
    """A small depth-one problem with feasible literal bounds and random positive weights."""
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 3))
    X = draw(arrays(np.uint8, (n, m), elements=st.integers(0, 1)))
    y = draw(arrays(np.uint8, n, elements=st.integers(0, 1)))
    weights = draw(arrays(float, n, elements=st.integers(1, 40).map(lambda v: v / 10)))
    exclusive = draw(st.booleans())
    max_lit = draw(st.integers(1, 2 * m))
    min_lit = draw(st.integers(0, min(max_lit, m) if exclusive else max_lit))
    lam = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    negated = draw(st.booleans())
    return built_problem(X.tobytes(), X.shape, y.tobytes(), weights.tobytes(), operator, max_lit, min_lit, lam,
                         negated, exclusive)


@functools.lru_cache(maxsize=1024)
def built_problem(X, shape, y, weights, operator, max_lit, min_lit, lam, negated, exclusive):
    """`depth_one` of the drawn arrays (as bytes) and options, built once: about a quarter of the
    drawn problems repeat one drawn before, and the tests only read a problem (its model and
    standard form are computed once, on first use)."""
    return depth_one(
        np.frombuffer(X, np.uint8).reshape(shape), np.frombuffer(y, np.uint8), operator,
        max_num_literals=max_lit, min_num_literals=min_lit, lam=lam, sample_weight=np.frombuffer(weights, float),
        negated=negated, exclusive_literals=exclusive,
    )


@st.composite
def selections(draw, problem):
    """Model values {"b", "bt", "k"} of a random valid rule: literal count within the bounds,
    no contradicting pair when literals are exclusive, k in 0..L."""
    m = problem.num_features
    most = min(problem.max_num_literals, m if problem.exclusive_literals else 2 * m)
    size = draw(st.one_of(st.just(most), st.integers(problem.min_num_literals, most)))  # full rules often
    if problem.exclusive_literals:
        features = draw(st.permutations(range(m)))[:size]
        chosen = [(j, draw(st.booleans())) for j in features]
    else:
        chosen = [(j % m, j >= m) for j in draw(st.permutations(range(2 * m)))[:size]]
    b, bt = np.zeros(m, np.int64), np.zeros(m, np.int64)
    for j, negated in chosen:
        (bt if negated else b)[j] = 1
    values = {"b": b, "bt": bt}
    if problem.parameterized:
        values["k"] = draw(st.one_of(st.sampled_from([0, size]), st.integers(0, size)))  # edge k often
    return values


def selection_literals(values) -> list[Literal]:
    return [Literal(int(j), False) for j in np.flatnonzero(values["b"])] + [
        Literal(int(j), True) for j in np.flatnonzero(values["bt"])
    ]


def expected_errors(problem, literals, k) -> np.ndarray:
    """Misclassified samples of the depth-one rule (operator, literals, k, root negation)."""
    pred = depth_one_predictions(problem.X, problem.operator, literals, k) != problem.negated
    return pred != problem.y.astype(bool)


def expected_objective(problem, literals, k) -> float:
    """Σ w_i [error_i] + λ L, computed here, not by the library."""
    return float(problem.weights @ expected_errors(problem, literals, k)) + problem.lam * len(literals)


def rule_objective(problem, rule) -> float:
    """The true objective of a decoded rule from its own evaluation on X."""
    errors = np.asarray(rule.evaluate(problem.X), dtype=bool) != problem.y.astype(bool)
    return float(problem.weights @ errors) + problem.lam * len(rule.literals())


def assert_valid_rule(problem, rule):
    """`rule` is a depth-one rule of `problem`, or (decoding simplifies) the literal or constant an
    operator over at most one literal is equivalent to (a constant only where no literal is required:
    elsewhere the constant operator keeps its literal)."""
    m, lo, hi = problem.num_features, problem.min_num_literals, problem.max_num_literals
    literals = rule.literals()
    assert all(isinstance(lit, Literal) and 0 <= lit.index < m for lit in literals), rule
    assert len(set(literals)) == len(literals), f"repeated literal in {rule}"
    if problem.exclusive_literals:
        assert len({lit.index for lit in literals}) == len(literals), f"contradicting literals in {rule}"
    assert len(literals) <= hi, rule
    if isinstance(rule, Operator):
        assert type(rule) is OPERATORS[problem.operator], rule
        assert rule.negated == problem.negated, rule
        assert all(isinstance(sub, Literal) for sub in rule.subrules), rule
        assert lo <= len(literals) and (len(literals) >= 2 or lo >= 1), rule
        if rule.parameterized:
            assert 0 <= rule.k <= len(literals), rule
        else:
            assert rule.k is None
        # The operator semantics of the rule module agree with the independent count.
        pred = depth_one_predictions(problem.X, problem.operator, literals, rule.k) != problem.negated
        assert (np.asarray(rule.evaluate(problem.X), dtype=bool) == pred).all()
    elif isinstance(rule, Literal):
        assert lo <= 1, rule
    else:
        assert isinstance(rule, (One, Zero)), rule
        assert lo == 0, rule  # from an empty selection or an operator over one literal


def raw_selection(qubo, sample) -> list[Literal]:
    """The literals a QUBO sample selects, read from its b/bt bits by label."""
    bits = dict(zip(qubo.labels, np.asarray(sample).tolist()))
    m = qubo.problem.num_features
    return [Literal(j, False) for j in range(m) if bits[f"b[{j}]"]] + [
        Literal(j, True) for j in range(m) if bits[f"bt[{j}]"]
    ]


# 1. Any sample decodes to a valid rule, with its true objective.


@pytest.mark.parametrize("operator", OPERATOR_NAMES)
@SETTINGS
@given(data=st.data(), eta=st.booleans(), slack=st.sampled_from(["minimal", "paired", "window"]))
def test_any_sample_decodes_to_a_valid_rule(operator, eta, slack, data):
    problem = data.draw(problems(operator), label="problem")
    qubo = problem.to_qubo(eta=eta, slack=slack)
    samples = data.draw(
        arrays(np.int8, (data.draw(st.integers(1, 3)), len(qubo.labels)), elements=st.integers(0, 1)),
        label="samples",
    )
    objectives = []
    for sample in samples:
        rule = qubo.decode(sample)
        assert_valid_rule(problem, rule)
        objective = rule_objective(problem, rule)
        assert qubo.objective(rule) == pytest.approx(objective, abs=1e-9)
        objectives.append(objective)

        if isinstance(rule, Operator) and rule.parameterized:  # k is the best one for these literals
            best = min(expected_objective(problem, rule.literals(), k) for k in range(len(rule.literals()) + 1))
            assert objective == pytest.approx(best, abs=1e-9)

        chosen = raw_selection(qubo, sample)  # a selection within the bounds is kept as it is
        within = problem.min_num_literals <= len(chosen) <= problem.max_num_literals
        if within and not (problem.exclusive_literals and len({lit.index for lit in chosen}) < len(chosen)):
            if isinstance(rule, Operator):
                assert set(rule.literals()) == set(chosen)
            elif isinstance(rule, Literal):
                assert len(chosen) == 1 and chosen[0].index == rule.index
            else:
                assert len(chosen) <= 1

    sampleset = dimod.SampleSet.from_samples((samples, qubo.labels), dimod.BINARY, qubo.energy(samples))
    rule, objective = qubo.decode_best(sampleset, polish=False)
    assert_valid_rule(problem, rule)
    assert objective == pytest.approx(rule_objective(problem, rule), abs=1e-9)
    assert objective == pytest.approx(min(objectives), abs=1e-9)
    polished, polished_objective = qubo.decode_best(sampleset, polish=True)
    assert_valid_rule(problem, polished)
    assert polished_objective == pytest.approx(rule_objective(problem, polished), abs=1e-9)
    assert polished_objective <= objective + 1e-9


def test_decoding_covers_every_operator_and_root():
    """The decoder's simplification of one-literal operators is what the operator means."""
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], dtype=np.uint8)
    y = np.array([0, 1, 1, 0], dtype=np.uint8)
    for name in OPERATOR_NAMES:
        for negated in (False, True):
            problem = depth_one(X, y, name, max_num_literals=1, negated=negated, sample_weight=np.ones(4))
            qubo = problem.to_qubo(eta=False)
            empty = qubo.decode(np.zeros(len(qubo.labels), dtype=np.int8))
            assert empty == ((One() if name != "Or" else Zero()) if not negated else (Zero() if name != "Or" else One()))
            sample = dict.fromkeys(qubo.labels, 0)
            sample["b[0]"] = 1
            rule = qubo.decode(sample)
            assert rule_objective(problem, rule) == pytest.approx(
                min(expected_objective(problem, [Literal(0)], k) for k in ((0, 1) if problem.parameterized else (None,)))
            )


# 2. Energy = objective for feasible points carried through the chain.


def assert_feasible(problem, x):
    form = problem.standard_form
    body = form.A @ x
    assert (body >= form.lower - 1e-9).all() and (body <= form.upper + 1e-9).all(), [
        name for name, v, lo, hi in zip(form.row_names, body, form.lower, form.upper) if not lo - 1e-9 <= v <= hi + 1e-9
    ]
    assert (x >= form.var_lower).all() and (x <= form.var_upper).all()
    assert np.array_equal(x, np.round(x))


penalty_choices = st.one_of(
    st.sampled_from(["sufficient", "calibrated"]),
    st.builds(lambda s, h: {"soft": s, "hard": h}, st.floats(0.1, 5.0), st.floats(0.1, 50.0)),
)


@pytest.mark.parametrize("operator", OPERATOR_NAMES)
@SETTINGS
@given(penalty=penalty_choices, slack=st.sampled_from(["minimal", "paired", "window"]), data=st.data())
def test_energy_of_a_feasible_point_is_its_ilp_objective(operator, penalty, slack, data):
    """A valid rule's feasible ILP point (`repair.feasible_point`: η marks its errors, q the side of
    k) carried forward by `sample_from_vector` has QUBO energy = ILP objective = the objective
    recomputed here, for any penalty weights, and decodes back to the same b, bt, k."""
    problem = data.draw(problems(operator), label="problem")
    values = data.draw(selections(problem), label="values")
    literals, k = selection_literals(values), values.get("k")
    expected = expected_objective(problem, literals, k)

    x = feasible_point(problem, values)
    assert_feasible(problem, x)
    form = problem.standard_form
    assert form.c @ x + form.c0 == pytest.approx(expected, abs=1e-9)

    qubo = problem.to_qubo(eta=True, penalty=penalty, slack=slack)
    sample = qubo.sample_from_vector(x)
    assert sample.shape == (len(qubo.labels),) and set(np.unique(sample)) <= {0, 1}
    assert qubo.energy(sample) == pytest.approx(expected, abs=1e-9)  # offset 0, every residual 0

    decoded = qubo.variable_values(sample)[0]  # the forward map is inverted by decoding
    assert np.array_equal(decoded["b"], values["b"]) and np.array_equal(decoded["bt"], values["bt"])
    assert decoded.get("k") == k
    bits = dict(zip(qubo.labels, sample.tolist()))
    for name in form.var_names:
        if name.startswith(("eta[", "q[")) and name in bits:  # slack="paired" drops the η of error rows
            assert bits[name] == x[form.var_names.index(name)]

    # The slacks are at their best: flipping any slack bit only adds penalty.
    bits_of_slack = [i for i, label in enumerate(qubo.labels) if label.startswith("s[")]
    if bits_of_slack:
        flipped = np.repeat(sample[None, :], len(bits_of_slack), axis=0)
        flipped[np.arange(len(bits_of_slack)), bits_of_slack] ^= 1
        if slack in ("paired", "window"):  # a value shared by two pairs {o, o + 1} is at its best under both offsets
            assert (np.atleast_1d(qubo.energy(flipped)) >= expected - 1e-9).all()
        else:
            assert (np.atleast_1d(qubo.energy(flipped)) > expected + 1e-9).all()


def test_capped_binary_bits_invert_the_weights():
    """The forward map of the capped encoding: every value 0..span gets bits summing to it."""
    spans = np.arange(41)
    owner, position, weight = capped_binary_weights(spans)
    values = np.array([[min(v, span) for span in spans] for v in range(41)])
    bits = capped_binary_bits(values, owner, position, weight)
    assert set(np.unique(bits)) <= {0, 1}
    assert np.array_equal(np.stack([np.bincount(owner, weight * row, len(spans)) for row in bits]), values)
    with pytest.raises(ValueError, match="within 0..span"):
        capped_binary_bits(spans + 1, owner, position, weight)


@st.composite
def any_values(draw, problem):
    """b, bt (and k in its variable range): a valid rule, arbitrary bits, or a valid rule with one
    hard row broken (a contradicting pair, one literal too many or too few, k = L + 1)."""
    values = draw(selections(problem))
    m, b, bt = problem.num_features, values["b"], values["bt"]
    kind = draw(st.sampled_from(["valid", "arbitrary", "contradiction", "too_many", "too_few", "k_above_L"]))
    if kind == "arbitrary":
        b[:] = draw(arrays(np.int64, m, elements=st.integers(0, 1)), label="b")
        bt[:] = draw(arrays(np.int64, m, elements=st.integers(0, 1)), label="bt")
    elif kind == "contradiction":
        j = draw(st.integers(0, m - 1))
        b[j] = bt[j] = 1
    elif kind == "too_many":
        free = [(arr, j) for arr in (b, bt) for j in range(m) if not arr[j]]
        extra = problem.max_num_literals + 1 - int(b.sum() + bt.sum())
        for arr, j in draw(st.permutations(free))[:extra]:
            arr[j] = 1
    elif kind == "too_few" and problem.min_num_literals > 0:
        members = [(arr, j) for arr in (b, bt) for j in range(m) if arr[j]]
        for arr, j in draw(st.permutations(members))[: len(members) - problem.min_num_literals + 1]:
            arr[j] = 0
    if problem.parameterized:
        size = int(b.sum() + bt.sum())
        if kind == "k_above_L" and size < problem.max_num_literals:
            values["k"] = size + 1
        elif kind != "valid":
            values["k"] = draw(st.integers(0, problem.max_num_literals))
    return values


def satisfies_hard_rows(problem, values) -> bool:
    size = int(values["b"].sum() + values["bt"].sum())
    return (
        problem.min_num_literals <= size <= problem.max_num_literals
        and not (problem.exclusive_literals and (values["b"] & values["bt"]).any())
        and values.get("k", 0) <= size
    )


@pytest.mark.parametrize("operator", OPERATOR_NAMES)
@SETTINGS
@given(eta=st.booleans(), soft=st.floats(1.0, 4.0), hard=st.floats(0.5, 50.0),
       slack=st.sampled_from(["minimal", "paired", "window"]), data=st.data())
def test_energy_bounds_at_any_point(operator, eta, soft, hard, slack, data):
    """Any b, bt, k, η, q (slacks at their best) against the penalty guarantees:
    - a hard row broken (literal bounds, a contradicting pair, k > L) costs at least the hard weight;
    - otherwise, with η and a soft weight >= 1 (the sufficient 2 included), the energy is at least
      λ L + Σ w_i [η_i or error_i]: leaving η_i = 0 on a misclassified sample never pays;
    - without η, at least λ L + soft Σ w_i [error_i], and exactly λ L when nothing is misclassified.
    With the sufficient hard weight (> Σ w + 2 m λ), the ground state is therefore a valid rule.
    slack="paired": the same, except that a sample whose η is dropped (an error row) costs exactly
    w_i when misclassified, whatever the soft weight, and the sufficient hard weight is only above
    the energy of the greedy rule (a valid point), which a broken hard row alone exceeds."""
    problem = data.draw(problems(operator), label="problem")
    values = data.draw(any_values(problem), label="values")
    form = problem.standard_form
    full = dict(values)
    if problem.parameterized:
        full["k"] = np.array([values["k"]])
    for block in ("eta", "q"):
        if hasattr(problem.model, block):
            full[block] = data.draw(arrays(np.int64, len(getattr(problem.model, block)), elements=st.integers(0, 1)),
                                    label=block)
    x = problem.vector_from_values(full)
    qubo = problem.to_qubo(eta=eta, penalty={"soft": soft, "hard": hard}, slack=slack)
    energy = qubo.energy(qubo.sample_from_vector(x))
    if not satisfies_hard_rows(problem, values):
        assert energy >= hard - 1e-9
        sufficient = qubo.with_penalties("sufficient")
        if slack in ("paired", "window"):
            greedy = sufficient.energy(sufficient.sample_from_vector(problem.greedy_point()))
            assert sufficient.energy(sufficient.sample_from_vector(x)) > greedy
        else:
            assert sufficient.energy(sufficient.sample_from_vector(x)) > problem.weights.sum() + problem.lam * 2 * problem.num_features
        return
    literals, k = selection_literals(values), values.get("k")
    errors = expected_errors(problem, literals, k)
    complexity = problem.lam * len(literals)
    kept = set(qubo.labels)
    if eta:
        flagged = np.array([x[form.var_names.index(f"eta[{i}]")] and f"eta[{i}]" in kept
                            for i in range(problem.num_samples)], dtype=bool)
        bound = complexity + float(problem.weights @ (flagged | errors))
        assert energy >= bound - 1e-9
        sufficient = qubo.with_penalties("sufficient")
        assert sufficient.energy(sufficient.sample_from_vector(x)) >= bound - 1e-9
    else:
        soft = min(soft, 1.0) if slack in ("paired", "window") else soft  # error rows cost exactly w_i
        assert energy >= complexity + soft * float(problem.weights @ errors) - 1e-9
        if not errors.any():  # with the right q for Choose, every soft row holds
            best = qubo.energy(qubo.sample_from_vector(feasible_point(problem, values)))
            assert best == pytest.approx(complexity, abs=1e-9)


@pytest.mark.parametrize("operator", OPERATOR_NAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_energy_of_the_ilp_optimum_is_the_optimum(operator, seed):
    """The solved ILP optimum, carried into the with-η QUBO, has energy equal to the optimum."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (8, 4), dtype=np.uint8)
    y = rng.integers(0, 2, 8).astype(np.uint8)
    problem = depth_one(X, y, operator, max_num_literals=3, min_num_literals=1, lam=0.1,
                        sample_weight=rng.uniform(0.2, 2.0, 8), negated=bool(seed))
    result = get_backend("highs", warm_start=False).solve(problem)
    assert result.status == "optimal"
    values = problem.values_from_vector(result.raw)
    literals, k = selection_literals(values), values.get("k")
    assert result.solver_objective == pytest.approx(expected_objective(problem, literals, k), abs=1e-6)
    x = feasible_point(problem, values)
    assert_feasible(problem, x)
    qubo = problem.to_qubo(eta=True)
    assert qubo.energy(qubo.sample_from_vector(x)) == pytest.approx(result.solver_objective, abs=1e-6)


def test_polish_never_worsens_a_rule_that_decodes_to_a_constant():
    """Found by `test_any_sample_decodes_to_a_valid_rule`: ~AtLeast_0(~f0) decoded to Zero (no
    literal, no λ), while `repair.polish` charges λ for the selected literal and swapped to ~f0,
    so `decode_best(polish=True)` returned a worse rule (0.3) than without polishing (0.1). With
    min_num_literals=1 the constant now keeps its literal and is charged λ for it (issue 29)."""
    problem = depth_one(np.array([[0]], dtype=np.uint8), np.array([1]), "AtLeast", max_num_literals=1,
                        min_num_literals=1, lam=0.3, sample_weight=np.array([0.1]), negated=True,
                        exclusive_literals=False)
    qubo = problem.to_qubo(eta=False)
    sample = dict.fromkeys(qubo.labels, 0)
    sample["bt[0]"] = 1
    sampleset = dimod.SampleSet.from_samples(sample, dimod.BINARY, 0.0)
    rule, objective = qubo.decode_best(sampleset, polish=False)
    assert (rule, objective) == (~AtLeast(0, Literal(0, True)), pytest.approx(0.4))
    assert qubo.decode_best(sampleset, polish=True)[1] <= objective
