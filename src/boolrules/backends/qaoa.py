"""QAOA backend: sample the QUBO with qiskit-optimization's `MinimumEigenOptimizer` and `QAOA`.

The circuit runs on Aer's `SamplerV2` (preset pass manager, one simulator thread) when qiskit-aer
is installed, else on qiskit's `StatevectorSampler`. Measured for one solve (reps=1, 100 COBYLA
iterations, 1024 shots) of depth-one QUBOs, Aer against the statevector sampler: 12 qubits 5 s
and 6 s, 14 qubits 6 s and 38 s, 16 qubits 4 s and 150 s. Every variable is a qubit, so the
default compiles without η (fewer qubits) and `max_qubits` refuses QUBOs a simulator cannot hold.
The `qaoa` backend is `QAOASampler` as a `Preset`.
"""

from __future__ import annotations

import dimod
import numpy as np
from qiskit_optimization.algorithms import MinimumEigenOptimizer
from qiskit_optimization.minimum_eigensolvers import QAOA
from qiskit_optimization.optimizers import COBYLA, NELDER_MEAD

from ..exceptions import InputError
from ..formats.qiskit import quadratic_program
from ..validation import check_integer
from .hardware import QAOA_MAX_QUBITS, QAOA_QUBITS_CAP, SHRINK
from .registry import register_backend
from .sampler import Preset

__all__ = ["QAOA_PRESET", "QAOASampler", "OPTIMIZERS"]

# Deterministic optimizers only, so that `seed` fixes a whole run (SPSA draws from qiskit's globals).
OPTIMIZERS = {"COBYLA": COBYLA, "NELDER_MEAD": NELDER_MEAD}


def _primitive(shots: int, seed):
    """Aer's SamplerV2 with a preset pass manager if qiskit-aer is installed, else StatevectorSampler."""
    try:
        from qiskit_aer import AerSimulator
        from qiskit_aer.primitives import SamplerV2
    except ImportError:
        from qiskit.primitives import StatevectorSampler

        return StatevectorSampler(default_shots=shots, seed=seed), None, "statevector"
    from qiskit.transpiler import generate_preset_pass_manager

    # One thread: at <= 20 qubits OpenMP threads cost more than they save (20x slower on a busy 2-core box).
    sampler = SamplerV2(default_shots=shots, seed=seed, options={"backend_options": {"max_parallel_threads": 1}})
    return sampler, generate_preset_pass_manager(optimization_level=1, backend=AerSimulator()), "aer"


class QAOASampler(dimod.Sampler):
    """A dimod sampler that runs QAOA on a simulator and returns every measured bitstring.

    Each sample's `num_occurrences` is its count among the `shots` final measurements and the
    `probability` vector its measured frequency; `seed` fixes the initial angles and the shots.
    """

    @property
    def parameters(self) -> dict:
        return {"reps": [], "optimizer": ["optimizers"], "maxiter": [], "shots": [], "seed": []}

    @property
    def properties(self) -> dict:
        return {"optimizers": tuple(OPTIMIZERS)}

    def sample(self, bqm, reps=1, optimizer="COBYLA", maxiter=100, shots=1024, seed=None) -> dimod.SampleSet:
        _check_optimizer(optimizer)
        sampler, pass_manager, primitive = _primitive(shots, seed)
        initial_point = np.random.default_rng(seed).uniform(-2 * np.pi, 2 * np.pi, 2 * reps)  # qiskit's default range
        qaoa = QAOA(sampler, OPTIMIZERS[optimizer](maxiter=maxiter), reps=reps,
                    initial_point=initial_point, pass_manager=pass_manager)
        result = MinimumEigenOptimizer(qaoa).solve(quadratic_program(bqm))
        samples = np.array([s.x for s in result.samples], dtype=np.int8)
        probability = np.array([s.probability for s in result.samples])
        solver = result.min_eigen_solver_result
        info = {"primitive": primitive, "optimal_point": solver.optimal_point.tolist(),
                "cost_function_evals": int(solver.cost_function_evals), "eigenvalue": float(solver.eigenvalue)}
        sampleset = dimod.SampleSet.from_samples_bqm(
            (samples, bqm.variables), bqm.binary, info=info, probability=probability,
            num_occurrences=np.maximum(np.rint(probability * shots), 1).astype(np.int64),
        )
        return sampleset.change_vartype(bqm.vartype, inplace=False)


def _check_optimizer(optimizer) -> str:
    if optimizer not in OPTIMIZERS:
        raise InputError(f"unknown optimizer {optimizer!r}; choose one of {', '.join(OPTIMIZERS)}")
    return optimizer


def _at_most_max_qubits(name, qubo, sampler, options) -> None:
    if qubo.num_variables > options["max_qubits"]:
        raise InputError(
            f"the QUBO needs {qubo.num_variables} qubits, more than max_qubits={options['max_qubits']}; shrink it "
            f"({SHRINK}, or the form without η, eta=False) or raise max_qubits"
        )


# QAOA of depth `reps` on a simulator; the classical `optimizer` (COBYLA or NELDER_MEAD) tunes the
# angles for `maxiter` iterations, each estimating the energy from `shots` measurements.
QAOA_PRESET = Preset(QAOASampler, {"reps": 1, "optimizer": "COBYLA", "maxiter": 100, "shots": 1024, "seed": None,
                                   "max_qubits": QAOA_MAX_QUBITS},
                     checks={"optimizer": _check_optimizer,
                             "max_qubits": lambda value: check_integer(value, "max_qubits", 1, QAOA_QUBITS_CAP)},
                     guard=_at_most_max_qubits)

register_backend("qaoa", QAOA_PRESET, QAOA_PRESET.check)
