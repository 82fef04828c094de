"""File formats: QUBOs and depth-one models written for other tools, read back checked, and
samples solved elsewhere decoded back to rules.

QUBO formats: "bqm" (dimod's binary file), "json" (dimod's serializable dict), "cqm" (the
depth-one problem as a dimod CQM file), "ising" (JSON {"h": {label: h}, "J": [[u, v, J_uv], ...],
"offset": c} of `bqm.to_ising()`), "qubo" (qbsolv text, variable i = `labels[i]`; the offset in a
comment and the sidecar), "lp" (CPLEX LP of the QUBO, written by docplex; names are `lp_name`s),
"qasm3" (OpenQASM 3 of the reps=1 QAOA ansatz, inputs `beta_0` and `gamma_0`, qubit i measured
into c[i]), "npz" and "mtx" (the upper-triangular Q as SciPy sparse `.npz` and Matrix Market; the
offset in the sidecar) and "ommx" (an OMMX artifact archive). Depth-one model formats: "lp" and
"mps", written by Pyomo with the model's own names, and "ommx".

Every export writes a sidecar beside its file (`sidecar.py`, `sidecar_path`) that makes it
self-contained; `load_problem(sidecar)` rebuilds the problem and decodes samples (`decode.py`).
`files.py` dispatches by format name and writes atomically, `writers.py` and `readers.py` hold one
function per format, `dimod_files.py` checks dimod's binary files, and `qiskit.py` and `ommx.py`
state the QUBO as Qiskit and OMMX objects (imported only where used: they are extras). The CQM
itself is compiled by `formulations.cqm`.
"""

from .decode import DecodedSamples, LoadedProblem, load_problem
from .files import LOAD_FORMATS, PROBLEM_FORMATS, QUBO_FORMATS, export_problem, export_qubo, load_qubo_file
from .sidecar import SIDECAR_SUFFIX, sidecar_path
from .writers import lp_name

__all__ = [
    "DecodedSamples",
    "LOAD_FORMATS",
    "LoadedProblem",
    "PROBLEM_FORMATS",
    "QUBO_FORMATS",
    "SIDECAR_SUFFIX",
    "export_problem",
    "export_qubo",
    "load_problem",
    "load_qubo_file",
    "lp_name",
    "sidecar_path",
]
