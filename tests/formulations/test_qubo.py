import itertools
import re

import dimod
import numpy as np
import pytest
import scipy.sparse as sp

from boolrules import load_dataset
from boolrules.backends import get_backend
from boolrules.formulations import StandardForm, depth_one
from boolrules.formulations.qubo import PenaltyQubo
from boolrules.formulations.reductions import capped_binary_weights, paired_offset_bits, paired_offset_weights
from boolrules.formulations.repair import feasible_point

from .brute_force import best_objective
from .tiny import exhaustive, tiny

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]


def ground_state(bqm):
    """Exhaustive minimum energy of a small BQM (all 2^N states)."""
    return exhaustive(bqm)[0]


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("kwargs", [{}, {"min_num_literals": 1, "lam": 0.25}, {"negated": True}])
def test_ground_state_is_the_ilp_optimum(operator, seed, kwargs):
    """With η and sufficient penalties every ground state is a feasible ILP point, an optimal one: no
    sample row is left broken (η marks exactly the errors of its rule), and its energy is the optimum.
    The optimum is the best rule by enumeration (`brute_force.best_objective`, which
    test_depth_one proves the ILP optimum) and, for one instance per operator, HiGHS's."""
    problem = tiny(operator, seed, **kwargs)
    qubo = problem.to_qubo(eta=True, penalty="sufficient", slack="minimal")
    optimum = best_objective(
        problem.X, problem.y, problem.weights, operator, min_lit=problem.min_num_literals,
        max_lit=problem.max_num_literals, lam=problem.lam, negated=problem.negated,
        exclusive=problem.exclusive_literals,
    )
    if seed == 0 and not kwargs:
        assert get_backend("highs").solve(problem).objective == pytest.approx(optimum, abs=1e-6)
    energy, grounds = exhaustive(qubo.bqm, qubo.labels)
    assert energy == pytest.approx(optimum, abs=1e-6)
    for sample in grounds:
        assert problem.objective(qubo.decode(sample)) == pytest.approx(optimum, abs=1e-6)
        ground = problem.decode(qubo.variable_values(sample)[0])  # a valid selection: nothing to repair
        eta = sample[[qubo.labels.index(f"eta[{i}]") for i in range(problem.num_samples)]].astype(bool)
        assert np.array_equal(eta, problem.errors(ground)), (ground, eta)


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("kwargs", [{}, {"min_num_literals": 1, "lam": 0.25}, {"negated": True},
                                    {"sample_weight": "uniform", "negated": True}])
def test_paired_ground_state_is_the_ilp_optimum(operator, seed, kwargs):
    """slack="paired" (the default) with η and sufficient penalties is exact, and no larger than the
    minimal-bound encoding in variables or interactions: the exhaustive ground state has the
    HiGHS optimum's energy, decodes to an optimal rule without repair, and every kept η marks
    exactly its rule's errors (the η of error rows are gone: their row's penalty is the error)."""
    problem = tiny(operator, seed, **kwargs)
    qubo = problem.to_qubo(eta=True, penalty="sufficient", slack="paired")
    minimal = problem.to_qubo(eta=True, slack="minimal")  # the paper's recipe, at the same guarantee
    assert qubo.num_variables <= minimal.num_variables and qubo.bqm.num_interactions <= minimal.bqm.num_interactions
    optimum = get_backend("highs").solve(problem)
    energy, grounds = exhaustive(qubo.bqm, qubo.labels, rtol=1e-5)  # dimod's ExactSolver, 50 times faster
    # the ILP's objective (a one-literal AtLeast_0 keeps its literal's λ; its rule, the constant, does not)
    assert energy == pytest.approx(optimum.solver_objective, abs=1e-6)
    for row in grounds:
        sample = dict(zip(qubo.labels, row.tolist()))
        assert qubo.feasible(sample).all()
        ground = problem.decode(qubo.variable_values(dict(sample))[0])
        assert problem.objective(ground) <= optimum.solver_objective + 1e-6
        errors = problem.errors(ground)
        for i in range(problem.num_samples):
            if f"eta[{i}]" in sample:
                assert sample[f"eta[{i}]"] == errors[i], (ground, i)


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paired_without_eta_ground_state_is_a_valid_rule_priced_at_least_its_objective(operator, seed):
    """slack="paired" without η (a heuristic mode): with sufficient penalties the ground state is a
    valid rule (every hard row holds), and no state costs less than the objective of its rule:
    a sample with a single row broken only by one unit (Or's positives, And's negatives) costs
    exactly its weight, every other broken sample row at least its weight."""
    problem = tiny(operator, seed, lam=0.1)
    qubo = problem.to_qubo(eta=False, penalty="sufficient", slack="paired")
    states = dimod.ExactSolver().sample(qubo.bqm)
    assert qubo.feasible(states.first.sample).all()
    record = states.record
    feasible = qubo.feasible(states)
    for values, energy in zip(np.asarray(qubo.variable_values(states))[feasible], record.energy[feasible]):
        rule = problem.decode(values)
        assert energy >= problem.objective(rule) - 1e-9


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("negated", [False, True])
def test_default_eta_is_kept_for_or_and_dropped_for_the_parameterized_operators(operator, negated):
    """eta="auto" (the default of to_qubo, export and the sampler backends) compiles exactly the QUBO
    of eta=True for Or and And and of eta=False for AtLeast, AtMost and Choose, negated or not."""
    problem = tiny(operator, 0, negated=negated)
    qubo = problem.to_qubo()
    expected = operator in ("Or", "And")
    assert qubo.eta is expected
    assert qubo.bqm == problem.to_qubo(eta=expected).bqm
    assert qubo.labels == problem.to_qubo(eta=expected).labels


def test_each_qubo_says_what_its_ground_state_is():
    """`guarantee` names only what the brute-force tests above prove: the ILP optimum with η and the
    sufficient (or tuned) penalties, a valid rule priced at least at its objective without η, nothing
    with heuristic weights; and the ground state it names holds on a tiny instance."""
    problem = tiny("AtLeast", 0)
    exact, valid = problem.to_qubo(eta=True), problem.to_qubo()
    assert exact.guarantee == "the ILP optimum" == problem.to_qubo(eta=True, slack="minimal").guarantee
    assert valid.guarantee.startswith("a valid rule, its energy at least its objective")
    assert problem.to_qubo(eta=True, penalty="calibrated").guarantee.startswith("no promise")
    assert problem.to_qubo(penalty={"soft": 1.0, "hard": 5.0}).guarantee.startswith("no promise")
    assert exact.summary()["ground_state"] == exact.guarantee
    optimum = get_backend("highs").solve(problem).solver_objective
    assert dimod.ExactSolver().sample(exact.bqm).first.energy == pytest.approx(optimum, abs=1e-6)
    ground = dimod.ExactSolver().sample(valid.bqm).first
    assert valid.feasible(ground.sample).all()
    assert ground.energy >= problem.objective(valid.decode(dict(ground.sample))) - 1e-9


@pytest.mark.parametrize("eta", [True, False])
def test_paired_or_and_have_no_slack_for_samples(eta):
    """Or with η under slack="paired": positives lose η (error rows, one offset bit for m' = 3),
    negatives keep η with slack-free product rows; their interactions are b/bt-η only."""
    data = load_dataset("breast_cancer")
    problem = depth_one(data.X[:60], data.y[:60], "Or", max_num_literals=3)
    qubo = problem.to_qubo(eta=eta, slack="paired")
    blocks = qubo.blocks()
    positives = int(problem.y.sum())
    negatives = problem.num_samples - positives
    assert blocks.get("eta", 0) == (negatives if eta else 0)
    assert blocks["slack positive_rows"] == positives and "slack negative_rows" not in blocks
    assert blocks["slack max_literals"] == 1
    assert qubo.num_variables < problem.to_qubo(eta=eta, slack="minimal").num_variables
    assert qubo.bqm.num_interactions < problem.to_qubo(eta=eta, slack="minimal").bqm.num_interactions


@pytest.mark.parametrize("span", range(0, 40))
def test_paired_offsets_cover_exactly_the_range(span):
    """Every value 0..span lies in a pair {o, o+1} of encodable offsets, none reaches past span,
    and `paired_offset_bits` picks such an o."""
    owner, position, weight = paired_offset_weights(np.array([span]))
    offsets = {sum(w for w, bit in zip(weight, bits) if bit) for bits in itertools.product((0, 1), repeat=len(weight))}
    assert all(o + 1 <= max(span, 1) for o in offsets)
    assert set(range(span + 1)) <= offsets | {o + 1 for o in offsets}
    if span > 1:
        assert len(weight) == int(np.ceil(np.log2(span // 2 + 1))) == len(capped_binary_weights(np.array([span]))[2]) - 1
    for value in range(span + 1):
        o = int(paired_offset_bits(np.array([value]), owner, position, weight) @ weight)
        assert o <= value <= o + 1


def _weights_reference(span):
    """Capped binary weights for one span, written out the long way."""
    if span == 0:
        return []
    bits = int(np.ceil(np.log2(span + 1)))
    weights = [2**p for p in range(bits - 1)]
    return weights + [span - sum(weights)]


@pytest.mark.parametrize("span", range(0, 40))
def test_capped_weights_encode_exactly_the_range(span):
    owner, position, weight = capped_binary_weights(np.array([span]))
    assert weight.tolist() == _weights_reference(span)
    values = {sum(w for w, bit in zip(weight, bits) if bit) for bits in itertools.product((0, 1), repeat=len(weight))}
    assert values == set(range(span + 1))


def reference_energy(problem, qubo, sample):
    """The penalty formula evaluated row by row from the Pyomo standard form, not the compiler's matrices."""
    form = problem.standard_form
    value = dict(sample)
    x = np.zeros(len(form.var_names))
    for j, name in enumerate(form.var_names):
        if name == "k":
            bits = sorted((int(lbl.split("#")[1]), lbl) for lbl in value if lbl.startswith("k#"))
            span = int(form.var_upper[j] - form.var_lower[j])
            x[j] = form.var_lower[j] + sum(w * value[lbl] for w, (_, lbl) in zip(_weights_reference(span), bits))
        elif name.startswith("eta[") and not qubo.eta:
            x[j] = 0
        else:
            x[j] = value[name]
    body = form.A @ x
    energy = form.c @ x + form.c0 if qubo.eta else form.c @ x + form.c0 - sum(
        form.c[j] * x[j] for j, n in enumerate(form.var_names) if n.startswith("eta["))
    row_of = {name: r for r, name in enumerate(form.row_names)}
    weights = {}
    for name in form.row_names:
        m = re.match(r"^(\w+)\[(\d+)\]$", name)
        sample_row = m and m.group(1) in {b.name for b in problem.row_blocks}
        weights[name] = qubo.penalties.soft * problem.weights[int(m.group(2))] if sample_row else qubo.penalties.hard
    penalised = set()
    for name, low, high in qubo.slack_ranges():
        slack_bits = sorted((int(lbl.rsplit("#", 1)[1]), lbl) for lbl in value if lbl.startswith(f"s[{name}]#"))
        s = sum(w * value[lbl] for w, (_, lbl) in zip(_weights_reference(int(round(high - low))), slack_bits))
        assert 0 <= s <= high - low
        r = row_of[name]
        below = abs(low) <= abs(high)
        residual = body[r] - low - s if below else body[r] - high + s
        energy += weights[name] * residual**2
        penalised.add(name)
    for j in range(problem.num_features):  # exclusive-literal rows become P·b·bt
        if f"exclusive_literals[{j}]" not in penalised:
            energy += qubo.penalties.hard * value[f"b[{j}]"] * value[f"bt[{j}]"]
    return energy


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("eta", [True, False])
def test_energy_equals_penalty_formula_on_random_samples(operator, eta):
    rng = np.random.default_rng(7)
    X = rng.integers(0, 2, (12, 5), dtype=np.uint8)
    y = rng.integers(0, 2, 12).astype(np.uint8)
    y[:2] = [0, 1]
    problem = depth_one(X, y, operator, max_num_literals=3, min_num_literals=1, lam=0.1)
    qubo = problem.to_qubo(eta=eta, penalty={"soft": 1.7, "hard": 5.0}, slack="minimal")
    for _ in range(25):
        sample = dict(zip(qubo.labels, rng.integers(0, 2, len(qubo.labels)).tolist()))
        assert qubo.energy(sample) == pytest.approx(reference_energy(problem, qubo, sample))


@pytest.fixture(scope="module")
def breast_cancer_or():
    """The paper's breast-cancer "Or" problem (4 literals) and its without-η QUBO, built once."""
    data = load_dataset("breast_cancer", paper_layout=True)
    problem = depth_one(data.X, data.y, "Or", max_num_literals=4)
    return data, problem, problem.to_qubo(eta=False, slack="minimal")


def test_paper_counts_on_breast_cancer(breast_cancer_or):
    data, problem, without_eta = breast_cancer_or
    counts = {("Or", True): problem.to_qubo(eta=True, slack="minimal").num_variables, ("Or", False): without_eta.num_variables}
    counts |= {
        (op, eta): depth_one(data.X, data.y, op, max_num_literals=4).to_qubo(eta=eta, slack="minimal").num_variables
        for op, eta in [("And", False), ("AtLeast", False)]
    }
    assert counts == {("Or", True): 2879, ("Or", False): 1027, ("And", False): 1317, ("AtLeast", False): 1959}


def test_blocks_and_summary(breast_cancer_or):
    qubo = breast_cancer_or[2]
    blocks = qubo.blocks()
    assert blocks == {"b": 300, "bt": 300, "slack max_literals": 3, "slack positive_rows": 424}
    summary = qubo.summary()
    assert summary["num_variables"] == 1027 and summary["max_abs_bias"] > 0
    assert "without η" in qubo._repr_html_()


def test_min_and_max_literal_rows_merge_into_one_slack():
    X = np.random.default_rng(0).integers(0, 2, (6, 4), dtype=np.uint8)
    y = np.array([0, 1, 0, 1, 1, 0])
    qubo = depth_one(X, y, "Or", max_num_literals=3, min_num_literals=1).to_qubo(slack="minimal")
    ranges = {name: (lo, hi) for name, lo, hi in qubo.slack_ranges() if "literals" in name}
    assert ranges == {"max_literals": (1.0, 3.0)}
    assert qubo.blocks()["slack max_literals"] == 2


def test_changing_penalties_does_not_rebuild(monkeypatch):
    X = np.random.default_rng(0).integers(0, 2, (6, 4), dtype=np.uint8)
    problem = depth_one(X, np.array([0, 1, 0, 1, 1, 0]), "AtLeast", max_num_literals=2)
    qubo = problem.to_qubo(penalty="sufficient")
    import boolrules.formulations.qubo_problem as qp
    from boolrules.formulations.chain import Chain

    monkeypatch.setattr(qp, "compile_qubo", lambda *a, **k: pytest.fail("recompiled"))
    monkeypatch.setattr(Chain, "apply", lambda *a, **k: pytest.fail("ran the chain again"))
    cheaper = qubo.with_penalties({"soft": 0.5, "hard": 2.0})
    assert cheaper.labels == qubo.labels and cheaper.penalties.hard == 2.0
    assert cheaper.summary()["max_abs_bias"] < qubo.summary()["max_abs_bias"]


@pytest.mark.parametrize("operator", ["Or", "And", "AtLeast", "AtMost"])
def test_a_repeated_sample_costs_what_its_weight_twice_costs(operator):
    """Without η every sample is a soft penalty row of its own: two copies of a sample cost what one
    copy of twice its weight costs, for every selection (rows of different samples never merge)."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, (8, 3), dtype=np.uint8)
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1], dtype=np.uint8)
    w = rng.uniform(0.5, 2.0, 8)
    penalty = {"soft": 1.0, "hard": 7.0}
    repeated = depth_one(np.vstack([X, X[:1]]), np.append(y, y[0]), operator, max_num_literals=3,
                         sample_weight=np.append(w, w[0])).to_qubo(eta=False, penalty=penalty)
    doubled = depth_one(X, y, operator, max_num_literals=3,
                        sample_weight=np.where(np.arange(8) == 0, 2 * w, w)).to_qubo(eta=False, penalty=penalty)
    for bits in itertools.product((0, 1), repeat=6):
        b, bt = np.array(bits[:3]), np.array(bits[3:])
        if sum(bits) > 3 or (b & bt).any():
            continue
        for k in range(sum(bits) + 1) if repeated.problem.parameterized else [None]:
            values = {"b": b, "bt": bt, "k": k}
            energies = [q.energy(q.sample_from_vector(feasible_point(q.problem, values))) for q in (repeated, doubled)]
            assert energies[0] == pytest.approx(energies[1]), (values, energies)


@pytest.mark.parametrize("slack", ["below", "above"])
def test_slack_sides_give_the_same_ground_state(slack):
    problem = tiny("AtLeast", 3, max_vars=18)
    qubo = problem.to_qubo(eta=True, penalty="sufficient", slack="minimal")
    other = problem.to_qubo(eta=True, slack=slack)
    assert other.num_variables == qubo.num_variables
    assert ground_state(other.bqm) == pytest.approx(ground_state(qubo.bqm))


def test_decode_repairs_bounds_and_picks_the_best_k():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, (40, 6), dtype=np.uint8)
    y = (X[:, :3].sum(axis=1) >= 2).astype(np.uint8)
    problem = depth_one(X, y, "AtLeast", max_num_literals=3, min_num_literals=2)
    qubo = problem.to_qubo(eta=False)
    sample = dict.fromkeys(qubo.labels, 0)
    for j in range(6):  # every literal and every contradiction: far outside the bounds
        sample[f"b[{j}]"] = sample[f"bt[{j}]"] = 1
    sample["b[0]"], sample["bt[0]"] = 1, 0
    rule = qubo.decode(sample)
    assert 2 <= len(rule.literals()) <= 3
    assert len({lit.index for lit in rule.literals()}) == len(rule.literals())
    empty = qubo.decode(dict.fromkeys(qubo.labels, 0))
    assert len(empty.literals()) == 2  # grown to min_num_literals
    best = min(
        (problem.objective(type(rule)(k, *rule.subrules)), k) for k in range(len(rule.subrules) + 1)
    )
    assert problem.objective(rule) == pytest.approx(best[0])


def test_infeasible_row_is_refused():
    form = StandardForm(
        A=sp.csr_matrix(np.array([[1.0, 1.0]])), lower=np.array([3.0]), upper=np.array([np.inf]),
        c=np.zeros(2), c0=0.0, var_lower=np.zeros(2), var_upper=np.ones(2), var_names=["x", "y"],
        row_names=["too_much"], col_block=np.array(["x", "y"]), col_index=np.full(2, -1),
        row_block=np.array(["too_much"]), row_index=np.full(1, -1), row_sample=np.full(1, -1),
        row_weight=np.zeros(1), col_group=np.full(2, -1), row_group=np.full(1, -1), group_bound=np.zeros(0),
    )
    with pytest.raises(ValueError, match="too_much can never be satisfied"):
        PenaltyQubo().apply(form)


@pytest.mark.parametrize("kwargs, match", [
    ({"penalty": "huge"}, "penalty must be one of"),
    ({"penalty": {"soft": 1}}, "exactly the keys"),
    ({"penalty": {"soft": -1, "hard": 1}}, "> 0"),
    ({"slack": "sideways"}, "slack must be one of"),
])
def test_bad_compile_arguments(kwargs, match):
    X = np.random.default_rng(0).integers(0, 2, (6, 3), dtype=np.uint8)
    problem = depth_one(X, np.array([0, 1, 0, 1, 1, 0]), "Or", max_num_literals=2)
    with pytest.raises(ValueError, match=match):
        problem.to_qubo(**kwargs)


def test_no_floating_point_residues_in_the_bqm():
    X = np.random.default_rng(3).integers(0, 2, (30, 5), dtype=np.uint8)
    y = np.random.default_rng(4).integers(0, 2, 30).astype(np.uint8)
    y[:2] = [0, 1]
    problem = depth_one(X, y, "AtLeast", max_num_literals=3, sample_weight=np.linspace(0.1, 0.7, 30))
    for eta in (True, False):
        bqm = problem.to_qubo(eta=eta, penalty={"soft": 0.2, "hard": 1.3}).bqm
        linear, (_, _, quadratic), _ = bqm.to_numpy_vectors()
        biases = np.abs(np.concatenate([linear, quadratic]))
        assert not ((biases > 0) & (biases < 1e-9 * biases.max())).any()


def test_polish_never_worsens_and_reaches_a_swap_optimum():
    from boolrules.formulations.repair import polish, repair_values, selection_objectives

    rng = np.random.default_rng(8)
    X = rng.integers(0, 2, (60, 6), dtype=np.uint8)
    y = (X[:, 0] | X[:, 1]).astype(np.uint8)
    for operator in OPERATORS:
        problem = depth_one(X, y, operator, max_num_literals=3, min_num_literals=1)
        start = repair_values(problem, np.array([0, 0, 0, 0, 1, 1]), np.zeros(6))
        polished = polish(problem, start)
        before, after = problem.objective(problem.decode(start)), problem.objective(problem.decode(polished))
        assert after <= before + 1e-12
        chosen = np.concatenate([polished["b"], polished["bt"]]).astype(bool)
        truth = np.concatenate([X, 1 - X], axis=1).astype(int)
        for j in np.flatnonzero(chosen):  # no single swap improves any further
            for add in np.flatnonzero(~chosen):
                if add % 6 != j % 6 and (chosen[add % 6] or chosen[add % 6 + 6]):
                    continue
                counts = truth[:, chosen].sum(axis=1) - truth[:, j] + truth[:, add]
                assert selection_objectives(problem, counts[None, :], int(chosen.sum())).min() >= after - 1e-9
    problem = depth_one(X, y, "Or", max_num_literals=2)
    qubo = problem.to_qubo(eta=False)
    sample = dict.fromkeys(qubo.labels, 0)
    sample["b[4]"] = sample["b[5]"] = 1
    rule, objective = qubo.decode_best(dimod.SampleSet.from_samples(sample, dimod.BINARY, 0.0))
    assert objective == pytest.approx(0.0) and str(rule) == "Or(f0, f1)"


@pytest.mark.parametrize("operator", ["Or", "AtLeast", "Choose"])
def test_tuned_penalties_never_go_below_sufficient_and_keep_the_ground_state(operator):
    """penalty="tuned" only raises the sufficient hard weight (until a short sa run is mostly
    feasible): with η and slack="paired" the ground state stays the ILP optimum."""
    problem = tiny(operator, 1)
    for slack in ("minimal", "paired"):
        tuned = problem.to_qubo(eta=True, penalty="tuned", slack=slack)
        sufficient = tuned.with_penalties("sufficient")
        assert tuned.penalties.soft == sufficient.penalties.soft
        assert tuned.penalties.hard >= sufficient.penalties.hard
    optimum = get_backend("highs").solve(problem)
    assert dimod.ExactSolver().sample(tuned.bqm).first.energy == pytest.approx(optimum.solver_objective, abs=1e-6)


@pytest.mark.parametrize("operator", ["Or", "And", "AtLeast", "AtMost"])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("negated", [False, True])
def test_window_without_eta_and_paired_with_eta_are_exact_on_ten_samples(operator, seed, negated):
    """slack="window" without η is exact for these operators: each sample row broken however deep
    costs exactly w_i through its error bit (paired windows below and above its range), so the
    ground energy is the ILP optimum; so is slack="paired" with η. Ten samples, m' = 3: too large
    for ExactSolver, enumerated per rule by `exact.ground_energy`."""
    from .exact import ground_energy

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (10, 3), dtype=np.uint8)
    y = rng.integers(0, 2, 10).astype(np.uint8)
    y[:2] = [0, 1]
    problem = depth_one(X, y, operator, max_num_literals=3, negated=negated, lam=0.05,
                        sample_weight=rng.uniform(0.5, 2.0, 10))
    optimum = get_backend("highs").solve(problem).solver_objective
    for slack, eta in (("window", False), ("paired", True)):
        qubo = problem.to_qubo(eta=eta, slack=slack)
        decision = [label for label in qubo.labels if label.startswith(("b[", "bt[", "k#"))]
        energy, sample = ground_energy(qubo.bqm, decision)
        assert energy == pytest.approx(optimum, abs=1e-6), slack
        assert qubo.feasible(sample).all()
        assert qubo.energy(qubo.sample_from_vector(problem.greedy_point())) >= energy - 1e-9
