"""Classical dimod samplers as named backends: simulated annealing, tabu, steepest descent, exhaustive.

Each is a `Preset`: its sampler and the defaults it starts from (the compiler's, `COMPILE_DEFAULTS`;
exact with η). A given `seed` makes results reproducible (except tabu, which stops on a wall-clock
`timeout`).
"""

from __future__ import annotations

import dimod
from dwave.samplers import SimulatedAnnealingSampler, SteepestDescentSolver, TabuSampler

from ..exceptions import InputError
from ..validation import check_integer
from .hardware import (EXACT_MAX_VARIABLES, EXACT_VARIABLES_CAP, MEMORY_SHARE, SHRINK, TABU_DENSE_COPIES,
                       physical_memory)
from .registry import register_backend
from .sampler import Preset

__all__ = ["SIMULATED_ANNEALING", "TABU", "STEEPEST_DESCENT", "EXACT"]


def _exhaustive() -> dimod.Sampler:
    """Every state of the QUBO (`dimod.ExactSolver`), of which only the lowest-energy one is kept:
    decoding all 2^N states would dominate the run."""
    return dimod.TruncateComposite(dimod.ExactSolver(), 1)


def _at_most_max_variables(name, qubo, sampler, options) -> None:
    if qubo.num_variables > options["max_variables"]:
        raise InputError(
            f"the QUBO has {qubo.num_variables} variables, more than the {name} backend's max_variables="
            f"{options['max_variables']} (it enumerates all 2^{qubo.num_variables} states); shrink the problem "
            f"({SHRINK}) or use another backend (sa, tabu, highs)"
        )


def _dense_fits_in_memory(name, qubo, sampler, options) -> None:
    """tabu holds the QUBO as dense matrices (`TABU_DENSE_COPIES` of n x n float64): refuse, before
    it takes the machine's memory, a QUBO whose copies exceed `MEMORY_SHARE` of it."""
    memory = physical_memory()
    need = TABU_DENSE_COPIES * 8 * qubo.num_variables ** 2
    if memory is not None and need > MEMORY_SHARE * memory:
        raise InputError(
            f"the QUBO has {qubo.num_variables} variables: the {name} backend holds it as dense matrices of about "
            f"{need / 1e9:.3g} GB, more than {MEMORY_SHARE:.0%} of this machine's {memory / 1e9:.3g} GB; shrink the "
            f"problem ({SHRINK}) or use sa or steepest, which keep it sparse"
        )


# `num_reads` runs of `num_sweeps` sweeps each; `beta_range` (hot, cold) overrides the automatic schedule.
SIMULATED_ANNEALING = Preset(SimulatedAnnealingSampler,
                             {"num_reads": 100, "num_sweeps": 1000, "seed": None, "beta_range": None})
# `num_reads` restarts, each stopping after `timeout` ms; they run in C, deaf to Ctrl-C, so they go in
# short batches, and Ctrl-C stops the sampling after the batch (or the read) in progress.
TABU = Preset(TabuSampler, {"num_reads": 10, "timeout": 100, "seed": None}, guard=_dense_fits_in_memory,
             stop_between_reads=True)
# Greedy descent from `num_reads` random states.
STEEPEST_DESCENT = Preset(SteepestDescentSolver, {"num_reads": 100, "seed": None})
# All 2^N states, for QUBOs of at most `max_variables` variables; the "sufficient" penalties with
# η make the ground state the ILP optimum.
EXACT = Preset(_exhaustive, {"max_variables": EXACT_MAX_VARIABLES, "eta": True, "penalty": "sufficient"},
               checks={"max_variables": lambda value: check_integer(value, "max_variables", 1, EXACT_VARIABLES_CAP)},
               guard=_at_most_max_variables)

for _name, _preset in {"sa": SIMULATED_ANNEALING, "neal": SIMULATED_ANNEALING, "tabu": TABU,
                       "steepest": STEEPEST_DESCENT, "exact": EXACT}.items():
    register_backend(_name, _preset, _preset.check)
