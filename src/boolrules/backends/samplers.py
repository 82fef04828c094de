"""Classical dimod samplers as QUBO backends: simulated annealing, tabu, steepest descent, exhaustive.

Each backend is its sampler plus the keywords it takes; compiling, decoding and the raw
`SampleSet` on the result come from `QuboBackend`. A given `seed` makes results reproducible
(except tabu, which stops on a wall-clock `timeout`).
"""

from __future__ import annotations

import dimod
from dwave.samplers import SimulatedAnnealingSampler, SteepestDescentSolver, TabuSampler

from ..validation import check_integer, check_number
from .base import register_backend
from .qubo import QuboBackend

__all__ = ["SimulatedAnnealingBackend", "TabuBackend", "SteepestDescentBackend", "ExactBackend"]

MAX_SEED = 2**32 - 1


def _seed(seed) -> int | None:
    return None if seed is None else check_integer(seed, "seed", 0, MAX_SEED)


def _beta_range(beta_range) -> tuple[float, float]:
    """(hot, cold) inverse temperatures, both > 0 and hot <= cold."""
    if not isinstance(beta_range, (tuple, list)) or len(beta_range) != 2:
        raise ValueError(f"beta_range must be a pair (hot, cold) of inverse temperatures, got {beta_range!r}")
    hot, cold = (check_number(beta, "beta_range", 0) for beta in beta_range)
    if not 0 < hot <= cold:
        raise ValueError(f"beta_range must satisfy 0 < hot <= cold, got {beta_range!r}")
    return hot, cold


def _present(options: dict, names: tuple[str, ...]) -> dict:
    """The `names` of `options` that are set (None leaves the sampler's default)."""
    return {name: options[name] for name in names if options[name] is not None}


class SimulatedAnnealingBackend(QuboBackend):
    """Simulated annealing (`dwave.samplers.SimulatedAnnealingSampler`): `num_reads` runs of
    `num_sweeps` sweeps each; `beta_range` (hot, cold) overrides the automatic schedule."""

    name = "sa"

    def __init__(self, num_reads=100, num_sweeps=1000, seed=None, beta_range=None,
                 eta=False, penalty="calibrated", slack="minimal"):
        self.num_reads = check_integer(num_reads, "num_reads", 1)
        self.num_sweeps = check_integer(num_sweeps, "num_sweeps", 1)
        self.seed = _seed(seed)
        self.beta_range = None if beta_range is None else _beta_range(beta_range)
        self._set_compile_options(eta, penalty, slack)

    def make_sampler(self) -> dimod.Sampler:
        return SimulatedAnnealingSampler()

    def sample_params(self, options: dict) -> dict:
        return _present(options, ("num_reads", "num_sweeps", "seed", "beta_range"))


class TabuBackend(QuboBackend):
    """Tabu search (`dwave.samplers.TabuSampler`): `num_reads` restarts, each stopping after `timeout` ms."""

    name = "tabu"

    def __init__(self, num_reads=10, timeout=100, seed=None, eta=False, penalty="calibrated", slack="minimal"):
        self.num_reads = check_integer(num_reads, "num_reads", 1)
        self.timeout = check_integer(timeout, "timeout", 1)
        self.seed = _seed(seed)
        self._set_compile_options(eta, penalty, slack)

    def make_sampler(self) -> dimod.Sampler:
        return TabuSampler()

    def sample_params(self, options: dict) -> dict:
        return _present(options, ("num_reads", "timeout", "seed"))


class SteepestDescentBackend(QuboBackend):
    """Greedy steepest descent (`dwave.samplers.SteepestDescentSolver`) from `num_reads` random states."""

    name = "steepest"

    def __init__(self, num_reads=100, seed=None, eta=False, penalty="calibrated", slack="minimal"):
        self.num_reads = check_integer(num_reads, "num_reads", 1)
        self.seed = _seed(seed)
        self._set_compile_options(eta, penalty, slack)

    def make_sampler(self) -> dimod.Sampler:
        return SteepestDescentSolver()

    def sample_params(self, options: dict) -> dict:
        return _present(options, ("num_reads", "seed"))


class ExactBackend(QuboBackend):
    """Every one of the 2^N states (`dimod.ExactSolver`), for QUBOs of at most `max_variables` variables.

    The default penalty is "sufficient", so the ground state decodes to the ILP optimum. Only the
    lowest-energy state is kept and decoded: decoding all 2^N states would dominate the run.
    """

    name = "exact"

    def __init__(self, max_variables=25, eta=True, penalty="sufficient", slack="minimal"):
        self.max_variables = check_integer(max_variables, "max_variables", 1)
        self._set_compile_options(eta, penalty, slack)

    def check_size(self, qubo) -> None:
        if qubo.num_variables > self.max_variables:
            raise ValueError(
                f"the QUBO has {qubo.num_variables} variables, more than the exact backend's max_variables="
                f"{self.max_variables} (it enumerates all 2^{qubo.num_variables} states); shrink the problem "
                "(fewer samples, fewer features, a smaller max_num_literals) or use another backend "
                "(sa, tabu, highs)"
            )

    def make_sampler(self) -> dimod.Sampler:
        return dimod.TruncateComposite(dimod.ExactSolver(), 1)

    def sample_params(self, options: dict) -> dict:
        return {}


register_backend("sa", SimulatedAnnealingBackend)
register_backend("neal", SimulatedAnnealingBackend)
register_backend("tabu", TabuBackend)
register_backend("steepest", SteepestDescentBackend)
register_backend("exact", ExactBackend)
