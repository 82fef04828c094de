import numpy as np
import pyomo.environ as pyo
import pytest

from boolrules import load_dataset
from boolrules.backends import BACKENDS, IlpBackend, get_backend, highs, pyomo_solvers
from boolrules.backends.ilp import available_ilp_solvers
from boolrules.formulations import depth_one


def test_registry_names_every_ilp_solver():
    get_backend("cbc")  # imports the ILP module, which registers every ILP solver
    assert {"highs", "highs-pyomo", "scip", "cbc", "glpk", "gurobi", "cplex", "xpress"} <= set(BACKENDS)
    assert isinstance(get_backend("highs"), IlpBackend)
    backend = IlpBackend(time_limit=3)
    assert get_backend(backend) is backend


@pytest.mark.parametrize("solver", ["highs", "highs-pyomo", "scip"])
def test_installed_solvers_find_the_planted_rule(or_problem, solver):
    assert solver in available_ilp_solvers()
    result = get_backend(solver, time_limit=30).solve(or_problem)
    assert result.status == "optimal"
    assert str(result.rule) == "Or(f0, f3)"
    assert result.objective == pytest.approx(0.0, abs=1e-9)
    assert result.gap == pytest.approx(0.0, abs=1e-6)
    assert result.backend == solver


def model_values(problem) -> list:
    return [v.value for var in problem.model.component_objects(pyo.Var) for v in var.values()]


@pytest.mark.parametrize("solver", ["highs", "highs-pyomo", "scip", "classic"])
def test_solvers_leave_the_model_untouched(atleast_problem, solver, monkeypatch):
    """No solver writes its answer (or a classic solver's warm start) into `problem.model`; a classic
    interface (here Pyomo's appsi HiGHS standing in for cbc) solves a clone."""
    if solver == "classic":
        monkeypatch.setattr(pyomo_solvers, "interface", lambda name: ("classic", pyo.SolverFactory("appsi_highs")))
        solver = "cbc"
    problem = depth_one(atleast_problem.X, atleast_problem.y, "AtLeast", max_num_literals=2, lam=0.05)
    result = get_backend(solver).solve(problem)
    optimum = get_backend("highs").solve(atleast_problem)
    assert (result.status, result.rule, result.objective) == ("optimal", optimum.rule, optimum.objective)
    assert set(model_values(problem)) == {None}


def test_missing_solver_names_the_installed_ones(or_problem):
    missing = next(s for s in ("cplex", "xpress", "gurobi", "cbc", "glpk") if s not in available_ilp_solvers())
    with pytest.raises(ValueError, match=f"'{missing}' is not installed; installed: .*highs"):
        get_backend(missing).solve(or_problem)


@pytest.mark.parametrize(
    "name, options, match",
    [
        ("simplex", {}, "unknown backend 'simplex'; available: .*highs"),
        ("highs", {"timelimit": 3}, r"unknown option\(s\) \['timelimit'\].*time_limit"),
        ("highs", {"time_limit": -1}, "time_limit must be >= 0"),
        ("highs", {"threads": 0}, "threads must be >= 1"),
    ],
)
def test_bad_backend_arguments(name, options, match):
    with pytest.raises(ValueError, match=match):
        get_backend(name, **options)


def test_per_call_options_are_checked(or_problem):
    with pytest.raises(ValueError, match="unknown option"):
        get_backend("highs").solve(or_problem, gap=0.1)


@pytest.fixture(scope="module")
def hard():
    data = load_dataset("breast_cancer", paper_layout=True)
    return depth_one(data.X[:150], data.y[:150], "AtLeast", max_num_literals=6)


def test_time_limit_returns_the_incumbent(hard):
    """time_limit=0: HiGHS stops at once, its incumbent the warm start (deterministic, however fast HiGHS is)."""
    result = get_backend("highs", time_limit=0).solve(hard)
    assert result.status == "time_limit", result.message
    assert result.rule is not None and result.bound is None and result.gap is None
    assert result.objective == pytest.approx(hard.objective(result.rule))
    assert result.solver_objective == pytest.approx(result.objective)


def test_warm_start_guarantees_an_incumbent(hard):
    from boolrules.formulations.repair import repair

    greedy = repair(hard, np.zeros(hard.num_features), np.zeros(hard.num_features))
    result = get_backend("highs", time_limit=0).solve(hard)
    assert result.rule is not None and result.status == "time_limit"
    assert result.objective <= hard.objective(greedy) + 1e-9


def test_no_incumbent_is_an_error_result(hard):
    result = get_backend("highs", time_limit=0, warm_start=False).solve(hard)
    assert result.rule is None and result.status == "error"
    assert result.message == "backend 'highs': no incumbent (Time limit reached)"


def test_solver_crash_is_an_error_result(or_problem, monkeypatch):
    def crash(*args, **kwargs):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(highs, "solve_highs", crash)
    result = get_backend("highs").solve(or_problem)
    assert result.status == "error" and result.rule is None
    assert result.message == "backend 'highs': RuntimeError: solver exploded"
    assert isinstance(result.error, RuntimeError)


def test_threads_are_capped_at_the_cores():
    """threads beyond the cores is refused at construction, naming the option (HiGHS with
    threads=100000 ran for minutes on a 30-row problem, deaf to Ctrl-C)."""
    from boolrules.backends.ilp import MAX_THREADS

    from ..errors import assert_raises_clearly

    assert MAX_THREADS == (__import__("os").cpu_count() or 1)
    get_backend("highs", threads=MAX_THREADS)
    for name in ("highs", "scip"):
        assert_raises_clearly(ValueError, lambda: get_backend(name, threads=100000), "threads", str(MAX_THREADS))


@pytest.mark.parametrize("solver, threads", [("highs", None), ("highs", 1), ("highs-pyomo", None), ("scip", None)])
def test_ilp_solves_from_several_threads_at_once(atleast_problem, solver, threads):
    """Solves started from several threads at once all succeed with the optimum (highspy's run
    locks are shared by every instance: all but one highs solve used to end in "Solver is already
    running"; highs-pyomo deadlocked, hence the time-out)."""
    from concurrent.futures import ThreadPoolExecutor

    backend = get_backend(solver, threads=threads)
    optimum = backend.solve(atleast_problem)
    pool = ThreadPoolExecutor(4)
    try:
        results = list(pool.map(lambda _: backend.solve(atleast_problem), range(12), timeout=120))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    assert [(r.status, r.rule, r.objective) for r in results] == [("optimal", optimum.rule, optimum.objective)] * 12
