"""QUBO backends: compile the problem to a BQM, sample it with a dimod sampler, decode the best rule.

A concrete backend names its sampler in `make_sampler()` and the sampling keywords it accepts;
compilation options (`eta`, `penalty`, `slack`) and decoding (repair, exact k, true objective)
are shared here. The raw `SampleSet` stays on the result.
"""

from __future__ import annotations

import time

import dimod

from ..formulations.problem import check_problem
from ..formulations.qubo import SLACK_MODES
from ..formulations.qubo_problem import check_penalty
from ..validation import check_bool
from .base import Backend, Result

__all__ = ["QuboBackend"]


class QuboBackend(Backend):
    """Base of the sampler backends. Subclasses implement `make_sampler()` and `sample_params()`."""

    eta: bool
    penalty: object
    slack: str

    def _set_compile_options(self, eta, penalty, slack) -> None:
        """Check and keep the options of `DepthOneProblem.to_qubo` that every QUBO backend takes."""
        eta = check_bool(eta, "eta")
        check_penalty(penalty)
        if slack not in SLACK_MODES:
            raise ValueError(f"slack must be one of {', '.join(SLACK_MODES)}, got {slack!r}")
        self.eta, self.penalty, self.slack = eta, penalty, slack

    def make_sampler(self) -> dimod.Sampler:
        raise NotImplementedError

    def sample_params(self, options: dict) -> dict:
        """Keyword arguments for `sampler.sample` from this backend's options."""
        raise NotImplementedError

    def check_size(self, qubo) -> None:
        """Refuse QUBOs this backend cannot take (raise ValueError saying how to shrink them)."""

    def compile(self, problem, options: dict):
        return problem.to_qubo(eta=options["eta"], penalty=options["penalty"], slack=options["slack"])

    def solve(self, problem, **options) -> Result:
        check_problem(problem)
        backend = self.configured(options)
        opts = backend.options()
        start = time.perf_counter()
        qubo = backend.compile(problem, opts)
        backend.check_size(qubo)
        sampleset = backend.make_sampler().sample(qubo.bqm, **backend.sample_params(opts))
        try:
            rule, objective = qubo.decode_best(sampleset)
        except ValueError as exc:  # a sampler that returned nothing usable: an error result, as for ILP solvers
            return Result(None, None, "error", time.perf_counter() - start, self.name,
                          message=f"unusable samples: {exc}", raw=sampleset)
        return Result(
            rule, objective, "feasible", time.perf_counter() - start, self.name,
            solver_objective=float(sampleset.first.energy), message=f"{len(sampleset)} samples", raw=sampleset,
        )
