"""File formats: QUBOs and depth-one models written for other tools, and read back checked.

QUBO formats: "bqm" (dimod's binary file), "json" (dimod's serializable dict), "cqm" (the
depth-one problem as a dimod CQM file), "ising" (JSON {"h": {label: h}, "J": [[u, v, J_uv], ...],
"offset": c} of `bqm.to_ising()`), "qubo" (qbsolv text, variable i = `labels[i]`), "lp" (CPLEX LP
of the QUBO, written by docplex; names are labels with [] -> ()), "qasm3" (OpenQASM 3 of the
reps=1 QAOA ansatz with β and γ left as `input` parameters; there is no loader for it).
Depth-one model formats: "lp" and "mps", written by Pyomo with the model's own names.

`files.py` dispatches by format name and writes atomically, `writers.py` and `readers.py` hold one
function per format, `dimod_files.py` checks dimod's binary files, and `qiskit.py` states the QUBO
as Qiskit objects (imported only where used: Qiskit is an extra). The CQM itself is compiled by
`formulations.cqm`.
"""

from .files import LOAD_FORMATS, PROBLEM_FORMATS, QUBO_FORMATS, export_problem, export_qubo, load_qubo_file
from .writers import lp_name

__all__ = [
    "LOAD_FORMATS",
    "PROBLEM_FORMATS",
    "QUBO_FORMATS",
    "export_problem",
    "export_qubo",
    "load_qubo_file",
    "lp_name",
]
