"""QUBOs as Qiskit objects: a `QuadraticProgram`, a Pauli-Z operator, the QAOA ansatz.

Used by the QAOA backend and by the lp and qasm3 exports; Qiskit is the `qiskit` extra, so this
module is imported only where one of those is used.
"""

from __future__ import annotations

import dimod
import numpy as np
import scipy.sparse as sp
from qiskit import ClassicalRegister, QuantumCircuit
from qiskit.circuit import Parameter
from qiskit.circuit.library import qaoa_ansatz
from qiskit.quantum_info import PauliList, SparsePauliOp
from qiskit_optimization import QuadraticProgram

from ..validation import check_integer

__all__ = ["ising_operator", "measured_qaoa_circuit", "qaoa_circuit", "quadratic_program"]


def quadratic_program(bqm: dimod.BinaryQuadraticModel, names=None) -> QuadraticProgram:
    """The BINARY form of `bqm` as a Qiskit `QuadraticProgram`, variable i = `bqm.variables[i]`.

    Biases go in as one array and one sparse matrix (no per-term Python loop); `names` are the
    program's variable names (default x0, x1, ...).
    """
    binary = bqm.binary
    n = binary.num_variables
    linear, (row, col, quadratic), offset = binary.to_numpy_vectors(binary.variables)
    program = QuadraticProgram("qubo")
    for name in names if names is not None else (f"x{i}" for i in range(n)):
        program.binary_var(name)
    program.minimize(constant=float(offset), linear=linear,
                     quadratic=sp.coo_matrix((quadratic, (row, col)), shape=(n, n)))
    return program


def ising_operator(bqm: dimod.BinaryQuadraticModel, labels) -> tuple[SparsePauliOp, float]:
    """`bqm` as a diagonal Pauli-Z operator plus offset, qubit i = `labels[i]`, built from arrays.

    Qubit state |1> is x = 1, i.e. spin s = +1 and Z = -1, so Σ h s + Σ J s s' = -Σ h Z + Σ J Z Z'.
    """
    h, (row, col, J), offset = bqm.spin.to_numpy_vectors(labels)
    n, terms = len(labels), np.arange(len(J))
    z = np.zeros((n + len(J), n), dtype=bool)
    z[np.arange(n), np.arange(n)] = True
    z[n + terms, row] = z[n + terms, col] = True
    coeffs = np.concatenate([-h, J])
    keep = coeffs != 0
    return SparsePauliOp(PauliList.from_symplectic(z[keep], np.zeros_like(z[keep])), coeffs[keep]), float(offset)


def qaoa_circuit(qubo, reps: int = 1) -> QuantumCircuit:
    """The parameterised QAOA ansatz (β, γ free) of the QUBO's Ising operator; qubit i = `qubo.labels[i]`."""
    operator, _ = ising_operator(qubo.bqm, qubo.labels)
    return qaoa_ansatz(operator, reps=check_integer(reps, "reps", 1))


def measured_qaoa_circuit(qubo, reps: int = 1) -> QuantumCircuit:
    """`qaoa_circuit` with parameters named `beta_0`, `gamma_0`, ... (OpenQASM identifiers, where
    β[0] would be written `_β_0_`) and every qubit measured into bit register `c` (c[i] = qubit i,
    so a Qiskit counts key reads variable 0 at its right end)."""
    circuit = qaoa_circuit(qubo, reps)
    names = {"β": "beta", "γ": "gamma"}
    circuit = circuit.assign_parameters(
        {p: Parameter(f"{names[p.vector.name]}_{p.index}") for p in circuit.parameters})
    circuit.add_register(ClassicalRegister(circuit.num_qubits, "c"))
    circuit.measure(range(circuit.num_qubits), range(circuit.num_qubits))
    return circuit
