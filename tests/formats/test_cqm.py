"""`to_cqm`: the CQM is the standard form, read back from its file."""

import dimod
import numpy as np

from boolrules.formats import export_qubo, load_qubo_file
from boolrules.formulations.cqm import to_cqm

from ..errors import assert_raises_clearly


def test_cqm_round_trip_is_the_standard_form(tmp_path, problem, qubo):
    cqm = load_qubo_file(export_qubo(qubo, tmp_path / "problem.cqm", "cqm"), "cqm")
    form = problem.standard_form
    assert cqm.is_equal(to_cqm(problem.standard_form))
    assert sorted(cqm.constraints) == sorted(form.row_names)
    assert {cqm.vartype(v) for v in cqm.variables} == {dimod.BINARY, dimod.INTEGER}
    rng = np.random.default_rng(2)
    upper = form.var_upper.astype(int)
    x = rng.integers(0, upper + 1, (50, len(upper)))
    with_eta = x.copy()  # η_i = 1 satisfies every sample row, so many of these are feasible
    with_eta[:, [i for i, n in enumerate(form.var_names) if n.startswith("eta[")]] = 1
    x = np.vstack([x, with_eta, np.where(np.char.startswith(form.var_names, "eta["), 1, 0)])
    np.testing.assert_allclose(cqm.objective.energies((x, form.var_names)), x @ form.c + form.c0)
    Ax = form.A @ x.T
    expected = ((Ax >= form.lower[:, None] - 1e-9) & (Ax <= form.upper[:, None] + 1e-9)).all(axis=0)
    feasible = np.array([cqm.check_feasible(dict(zip(form.var_names, row))) for row in x])
    assert np.array_equal(feasible, expected) and 0 < feasible.sum() < len(x)


def test_to_cqm_takes_the_standard_form(problem):
    assert_raises_clearly(TypeError, lambda: to_cqm(problem), "form must be a StandardForm", "DepthOneProblem")


def test_the_cqm_chain_decodes_a_sample_to_the_rule_it_encodes(problem):
    from boolrules.formulations.cqm import CQM_CHAIN

    cqm, inverses = CQM_CHAIN.apply(problem)
    values = {"b": np.array([1, 0, 0, 1]), "bt": np.array([0, 0, 1, 0]), "k": 2}
    sample = CQM_CHAIN.encode(values, inverses)
    assert set(sample) == set(cqm.variables)
    decoded = CQM_CHAIN.invert(sample, inverses)
    assert problem.decode(decoded) == problem.decode(values)
    del sample["k"]
    assert_raises_clearly(ValueError, lambda: CQM_CHAIN.invert(sample, inverses), "lacks 1 of the CQM's variables")
