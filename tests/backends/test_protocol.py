"""The solving protocol: every backend solves through `Backend.solve` (chain, `solve_form`, decode,
`Result`), and a backend that declares a chain and a `solve_form` is complete."""

import importlib
import time

import numpy as np
import pytest

from boolrules.backends import BACKEND_MODULES, Answer, Backend, get_backend
from boolrules.formulations.standard_form import ILP_CHAIN


def backend_classes() -> set[type]:
    """Every Backend subclass the registered modules define (all imported)."""
    for module in set(BACKEND_MODULES.values()):
        importlib.import_module(f"boolrules.backends.{module}")
    found, todo = set(), [Backend]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("boolrules.") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def test_no_backend_writes_its_own_solve():
    classes = backend_classes()
    assert {"IlpBackend", "NativeBackend", "SamplerBackend", "LeapCqmBackend"} <= {cls.__name__ for cls in classes}
    assert [cls.__name__ for cls in classes if cls.solve is not Backend.solve] == []


class Greedy(Backend):
    """The greedy rule as a backend's answer: a chain and a solve_form are all it declares."""

    name = "greedy"
    chain = ILP_CHAIN

    def __init__(self, point, objective=None):
        self.point, self.objective, self.calls = point, objective, []

    def solve_form(self, form, deadline, **options):
        self.calls.append(form)
        if isinstance(self.point, Exception):
            raise self.point
        return Answer(self.point, "feasible", "the greedy rule", objective=self.objective)


def test_a_chain_and_a_solve_form_make_a_backend(or_problem):
    point = or_problem.greedy_point()
    form = or_problem.standard_form
    backend = Greedy(point, float(form.c @ point + form.c0))
    result = backend.solve(or_problem)
    assert backend.calls == [or_problem.standard_form]
    assert (result.status, result.stage, result.message) == ("feasible", "raw", "the greedy rule")
    assert result.rule == or_problem.decode(or_problem.values_from_vector(backend.point))
    assert result.objective == pytest.approx(or_problem.objective(result.rule))
    assert result.solver_objective == pytest.approx(result.objective)
    assert result.bound is None and result.gap is None and result.timing == {} and result.raw is backend.point


def test_a_crash_or_an_undecodable_solution_is_an_error_result(or_problem):
    crash = RuntimeError("solver exploded")
    result = Greedy(crash).solve(or_problem)
    assert (result.status, result.message, result.error) == ("error", "backend 'greedy': RuntimeError: solver exploded",
                                                             crash)
    result = Greedy(None).solve(or_problem)  # no solution: an error naming the solver's message
    assert (result.status, result.message) == ("error", "backend 'greedy': no incumbent (the greedy rule)")
    point = np.zeros(3)  # not over the form's columns
    result = Greedy(point).solve(or_problem)
    assert result.status == "error" and result.message.startswith("backend 'greedy': InputError: x has shape (3,)")
    assert isinstance(result.error, ValueError) and result.raw is point
    with pytest.raises(TypeError, match="DepthOneProblem"):  # a problem it cannot take: raised before any work
        Greedy(point).solve(or_problem.to_qubo())


def test_a_backend_without_solve_form_says_so(or_problem):
    class Unfinished(Backend):
        name = "unfinished"
        chain = ILP_CHAIN

    result = Unfinished().solve(or_problem)
    assert result.status == "error" and "Unfinished has no solve_form" in result.message


def test_solve_form_is_given_what_compiling_left_of_the_time_limit(or_problem):
    seen = {}

    class Timed(Greedy):
        capabilities = frozenset({"time_limit"})
        _options = {"time_limit": None}

        def check_options(self, options):
            return options

        def compile(self, problem, options):
            time.sleep(0.05)
            return super().compile(problem, options)

        def solve_form(self, form, time_left, **options):
            seen.update(time_left=time_left, **options)
            return super().solve_form(form, time_left, **options)

    backend = Timed(or_problem.greedy_point())
    backend.solve(or_problem, time_limit=5)
    assert 4 < seen["time_left"] <= 5 - 0.05 and seen["time_limit"] == 5
    backend.solve(or_problem, time_limit=0.01)
    assert seen["time_left"] == 0
    backend.solve(or_problem)
    assert seen["time_left"] is None
    assert get_backend("native").solve(or_problem, time_limit=5).status == "optimal"
