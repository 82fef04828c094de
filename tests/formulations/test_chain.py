"""The reduction protocol (`formulations/chain.py`) and each step of the QUBO chain on its own.

Every step round-trips (`invert(encode(x)) == x`), holds no problem state, and reads what a row or
column is from the blocks the standard form carries, never from names: the blocks are checked here
against the Pyomo model itself, and the chain is run on a form whose names are meaningless.
"""

import dataclasses

import numpy as np
import pyomo.environ as pyo
import pytest
from pyomo.repn import generate_standard_repn

from boolrules.formulations import depth_one
from boolrules.formulations.chain import Chain, Reduction
from boolrules.formulations.qubo import PenaltyQubo
from boolrules.formulations.qubo_problem import CALIBRATED, calibrated_penalties, qubo_chain
from boolrules.formulations.reductions import BinaryExpansion, FixToZero
from boolrules.formulations.repair import feasible_point
from boolrules.formulations.standard_form import ToStandardForm

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]


def problem_of(operator, seed=0, n=9, m=3, **kwargs):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, m), dtype=np.uint8)
    y = rng.integers(0, 2, n).astype(np.uint8)
    y[:2] = [0, 1]
    kwargs = {"max_num_literals": 3, "min_num_literals": 1, "lam": 0.1, "sample_weight": rng.uniform(0.2, 2.0, n),
              **kwargs}
    return depth_one(X, y, operator, **kwargs)


def component(model, block, index):
    """The model's variable or constraint `block[index]` (index -1: the scalar component)."""
    comp = getattr(model, str(block))
    return comp if index == -1 else comp[int(index)]


def random_values(problem, rng):
    """Random b, bt (and k in its range): not necessarily a valid rule."""
    m = problem.num_features
    values = {"b": rng.integers(0, 2, m), "bt": rng.integers(0, 2, m)}
    if problem.parameterized:
        values["k"] = int(rng.integers(0, problem.max_num_literals + 1))
    return values


# The standard form: its blocks are the model's components.


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("negated", [False, True])
def test_row_and_column_blocks_are_the_models_components(operator, negated):
    """Row r of the standard form is the constraint `row_block[r][row_index[r]]` of the model (same
    coefficients on the columns of its variables, same bounds), column j the variable
    `col_block[j][col_index[j]]` (same bounds); every constraint and variable appears once."""
    problem = problem_of(operator, negated=negated)
    model, form = problem.model, problem.standard_form
    column = {(str(b), int(i)): j for j, (b, i) in enumerate(zip(form.col_block, form.col_index))}
    assert len(column) == form.num_vars
    for j, (block, index) in enumerate(zip(form.col_block, form.col_index)):
        var = component(model, block, index)
        assert (var.lb, var.ub) == (form.var_lower[j], form.var_upper[j])
    A = form.A.toarray()
    for r, (block, index) in enumerate(zip(form.row_block, form.row_index)):
        con = component(model, block, index)
        assert isinstance(con.parent_component(), pyo.Constraint)
        repn = generate_standard_repn(con.body)
        row = np.zeros(form.num_vars)
        for var, coef in zip(repn.linear_vars, repn.linear_coefs):
            index_of = var.index()
            row[column[var.parent_component().local_name, -1 if index_of is None else index_of]] += coef
        np.testing.assert_allclose(A[r], row)
        lower = -np.inf if con.lower is None else pyo.value(con.lower) - repn.constant
        upper = np.inf if con.upper is None else pyo.value(con.upper) - repn.constant
        assert (form.lower[r], form.upper[r]) == (lower, upper)
    rows = list(zip(form.row_block.tolist(), form.row_index.tolist()))
    assert len(set(rows)) == len(rows)
    assert dict(zip(*np.unique(form.row_block, return_counts=True))) == problem.constraint_counts()
    assert dict(zip(*np.unique(form.col_block, return_counts=True))) == {
        k: v for k, v in problem.variable_counts().items() if v
    }


@pytest.mark.parametrize("operator", OPERATORS)
def test_sample_rows_and_the_literal_group_come_from_the_blocks(operator):
    """A row of a sample block constrains the sample of its index (of the block's label class) and
    carries its weight; every other row is hard. b and bt form group 0, bounded by m' and defined
    by the literal-count rows."""
    problem = problem_of(operator, min_num_literals=2)
    form = problem.standard_form
    blocks = {block.name: block for block in problem.row_blocks}
    sample_rows = np.isin(form.row_block, list(blocks))
    assert sample_rows.any() and (~sample_rows).any()
    assert np.array_equal(form.row_sample, np.where(sample_rows, form.row_index, -1))
    positives = set(problem.model.positive_samples)
    for block, sample in zip(form.row_block[sample_rows], form.row_sample[sample_rows]):
        assert (sample in positives) == (blocks[block].samples == "positive")
    np.testing.assert_array_equal(form.row_weight[sample_rows], problem.weights[form.row_sample[sample_rows]])
    assert not form.row_weight[~sample_rows].any()
    assert np.array_equal(form.col_group == 0, np.isin(form.col_block, ["b", "bt"]))
    assert np.array_equal(form.row_group == 0, np.isin(form.row_block, ["max_literals", "min_literals"]))
    assert form.group_bound.tolist() == [problem.max_num_literals]


@pytest.mark.parametrize("operator", OPERATORS)
def test_standard_form_step_round_trips_in_any_column_order(operator):
    """`ToStandardForm.encode`/`invert` place each block by its column blocks: on a form whose
    columns are permuted (blocks permuted with them), a point is the permuted point and decodes
    to the same values."""
    problem = problem_of(operator)
    step, rng = ToStandardForm(), np.random.default_rng(1)
    form, inverse = step.apply(problem)
    assert form is problem.standard_form
    perm = rng.permutation(form.num_vars)
    shuffled = dataclasses.replace(
        form, A=form.A[:, perm], col_block=form.col_block[perm], col_index=form.col_index[perm],
        var_names=[form.var_names[j] for j in perm],
    )
    for _ in range(5):
        values = random_values(problem, rng)
        eta = rng.integers(0, 2, problem.num_samples)
        x = step.encode({**values, "eta": eta}, inverse)
        assert step.invert(x, inverse).keys() == values.keys()
        for key, value in step.invert(x, inverse).items():
            np.testing.assert_array_equal(value, values[key])
        np.testing.assert_array_equal(x[form.columns("eta")], eta)
        np.testing.assert_array_equal(step.encode({**values, "eta": eta}, shuffled), x[perm])
        for key, value in step.invert(x[perm], shuffled).items():
            np.testing.assert_array_equal(value, values[key])
        assert problem.values_from_vector(x).keys() == values.keys()
    points = np.stack([step.encode(random_values(problem, rng), inverse) for _ in range(4)])
    batch = step.invert(points, inverse)
    for i, point in enumerate(points):
        for key, value in step.invert(point, inverse).items():
            np.testing.assert_array_equal(batch[key][i], value)


def test_standard_form_step_names_a_wrong_block():
    problem = problem_of("Or")
    with pytest.raises(ValueError, match=r"values\['q'\] has 3 entries .* 0 variables"):
        problem.vector_from_values({"b": np.zeros(3), "q": np.ones(3)})
    with pytest.raises(ValueError, match=r"values\['b'\] has 2 entries .* 3 variables"):
        problem.vector_from_values({"b": np.zeros(2)})
    with pytest.raises(ValueError, match="standard form has"):
        problem.values_from_vector(np.zeros(3))


# The reductions after the standard form, one at a time.


@pytest.mark.parametrize("operator", OPERATORS)
def test_fix_to_zero_drops_the_block_and_round_trips(operator):
    problem = problem_of(operator)
    form = problem.standard_form
    step = FixToZero(("eta",))
    reduced, mask = step.apply(form)
    assert np.array_equal(mask, form.col_block == "eta")
    assert "eta" not in set(reduced.col_block) and reduced.num_vars == form.num_vars - problem.num_samples
    assert reduced.var_names == [n for n, fixed in zip(form.var_names, mask) if not fixed]
    x = np.random.default_rng(2).integers(0, 2, (4, form.num_vars)).astype(float)
    z = step.encode(x, mask)
    np.testing.assert_array_equal(step.invert(z, mask), np.where(mask, 0, x))
    np.testing.assert_array_equal(step.encode(step.invert(z, mask), mask), z)
    np.testing.assert_allclose(reduced.A @ z.T, form.A @ np.where(mask, 0, x).T)
    np.testing.assert_allclose(z @ reduced.c, np.where(mask, 0, x) @ form.c)


@pytest.mark.parametrize("operator", ["AtLeast", "Choose"])
def test_binary_expansion_round_trips_and_keeps_rows_and_objective(operator):
    """Every integer point within its bounds encodes to bits that invert back to it, with the same
    row activities (shifted by the expansion's offset) and objective."""
    problem = problem_of(operator, max_num_literals=3, min_num_literals=0)
    form = problem.standard_form
    step = BinaryExpansion()
    expanded, inverse = step.apply(form)
    k = form.columns("k")[0]
    assert expanded.var_names[-2:] == ["k#0", "k#1"]  # m' = 3: k in 0..3 takes two bits
    kept = form.col_block != "k"
    assert expanded.col_block.tolist() == form.col_block[kept].tolist() + ["k", "k"]
    assert expanded.col_index.tolist() == form.col_index[kept].tolist() + [-1, -1]
    assert set(expanded.var_lower) == {0} and set(expanded.var_upper) == {1}
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2, (8, form.num_vars)).astype(float)
    x[:, k] = np.arange(8) % (problem.max_num_literals + 1)
    z = step.encode(x, inverse)
    assert set(np.unique(z)) <= {0, 1}
    np.testing.assert_allclose(step.invert(z, inverse), x)
    shift = form.A @ inverse.x0  # x = E z + x0
    np.testing.assert_allclose((expanded.A @ z.T).T, (form.A @ x.T).T - shift)
    np.testing.assert_array_equal(expanded.lower, form.lower - shift)
    np.testing.assert_array_equal(expanded.upper, form.upper - shift)
    np.testing.assert_allclose(z @ expanded.c + expanded.c0, x @ form.c + form.c0)


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("slack", ["minimal", "below", "above"])
def test_penalty_qubo_round_trips_and_is_a_new_frozen_form(operator, slack):
    problem = problem_of(operator)
    binary, _ = BinaryExpansion().apply(problem.standard_form)
    step = PenaltyQubo(slack)
    form, layout = step.apply(binary)
    assert form is not step and form.slack is layout and layout.num_vars == binary.num_vars
    with pytest.raises(dataclasses.FrozenInstanceError):
        form.C = None
    z = np.random.default_rng(4).integers(0, 2, (6, binary.num_vars)).astype(float)
    samples = step.encode(z, layout)
    assert samples.shape == (6, len(form.labels)) and set(np.unique(samples)) <= {0, 1}
    np.testing.assert_array_equal(step.invert(samples, layout), z)
    np.testing.assert_array_equal(step.encode(step.invert(samples, layout), layout), samples)


# The chain.


def test_chain_runs_apply_forward_and_invert_backward():
    calls = []

    @dataclasses.dataclass(frozen=True)
    class Add(Reduction):
        amount: int

        def apply(self, form):
            calls.append(("apply", self.amount))
            return form + self.amount, self.amount

        def invert(self, solution, inverse):
            calls.append(("invert", inverse))
            return solution - inverse

        def encode(self, solution, inverse):
            calls.append(("encode", inverse))
            return solution + inverse

    chain = Chain([Add(1), Add(10)])
    form, inverses = chain.apply(0)
    assert (form, inverses) == (11, (1, 10))
    assert chain.invert(111, inverses) == 100 and chain.encode(100, inverses) == 111
    assert calls == [("apply", 1), ("apply", 10), ("invert", 10), ("invert", 1), ("encode", 1), ("encode", 10)]
    assert chain[1:].encode(0, inverses[1:]) == 10 and chain[0] == Add(1) and len(chain) == 2
    with pytest.raises(ValueError, match="2 steps but 1 inverse"):
        chain.invert(0, inverses[:1])
    with pytest.raises(TypeError, match="Reduction steps, got function"):
        Chain([lambda form: form])


@pytest.mark.parametrize("eta", [True, False])
def test_reductions_hold_no_problem_state(eta):
    """One chain compiles two problems; each keeps what it needs in its own inverse data."""
    chain = qubo_chain(eta=eta)
    first, second = problem_of("Choose", seed=5), problem_of("AtLeast", seed=6, n=7, m=4)
    form_1, inverses_1 = chain.apply(first)
    form_2, inverses_2 = chain.apply(second)
    for step in chain.reductions:
        with pytest.raises(dataclasses.FrozenInstanceError):
            step.mask = None
    for problem, form, inverses in ((first, form_1, inverses_1), (second, form_2, inverses_2)):
        separately = problem.to_qubo(eta=eta)
        assert form.labels == separately.labels
        values = random_values(problem, np.random.default_rng(7))
        sample = chain.encode(values, inverses)
        decoded = chain.invert(sample, inverses)
        np.testing.assert_array_equal(decoded["b"][0], values["b"])
        np.testing.assert_array_equal(decoded["bt"][0], values["bt"])
        assert decoded.get("k", [None])[0] == values.get("k")
        x = feasible_point(problem, values)
        np.testing.assert_array_equal(separately.sample_from_vector(x), chain[1:].encode(x, inverses[1:])[0])


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("eta", [True, False])
def test_names_are_labels_only(operator, eta):
    """The chain after the standard form gives the same QUBO on a form whose variable and row names
    mean nothing: soft rows, weights and the literal group travel in the blocks."""
    problem = problem_of(operator, min_num_literals=2)
    qubo = problem.to_qubo(eta=eta, penalty={"soft": 1.3, "hard": 7.0})
    form = problem.standard_form
    garbled = dataclasses.replace(form, var_names=[f"v{j}" for j in range(form.num_vars)],
                                  row_names=[f"r{r}" for r in range(len(form.row_names))])
    penalty_form, _ = qubo.chain[1:].apply(garbled)
    bqm = penalty_form.bqm(qubo.penalties)
    expected = qubo.bqm.to_numpy_vectors(qubo.labels)
    got = bqm.to_numpy_vectors(penalty_form.labels)
    np.testing.assert_allclose(got[0], expected[0])
    for a, b in zip(got[1], expected[1]):
        np.testing.assert_allclose(a, b)
    assert got[2] == pytest.approx(expected[2])


# Penalty weights.


def test_calibrated_penalties_are_an_explicit_read_only_table():
    problem = problem_of("Or")
    for eta in (True, False):
        qubo = problem.to_qubo(eta=eta, penalty="calibrated")
        expected = CALIBRATED[eta]
        assert qubo.penalties.soft == expected.soft
        assert qubo.penalties.hard == pytest.approx(expected.hard * problem.weights.mean())
        assert qubo.penalties == calibrated_penalties(problem.weights, CALIBRATED[eta])
    with pytest.raises(TypeError):
        CALIBRATED[True] = CALIBRATED[False]
    explicit = problem.to_qubo(eta=False, penalty={"soft": CALIBRATED[False].soft,
                                                  "hard": CALIBRATED[False].hard * problem.weights.mean()})
    assert explicit.bqm == problem.to_qubo(eta=False, penalty="calibrated").bqm
