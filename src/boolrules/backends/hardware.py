"""What a QUBO asks of the hardware: its size and density against the limit of each size-limited
backend (exact enumeration, QAOA qubits, the qubits of a D-Wave QPU), what a QPU's h/J scaling
leaves to its objective, which compile mode fits better, and, when asked, whether minorminer finds
a minor embedding into a QPU's graph (`boolrules inspect --embed pegasus`), in a search whose time-out
is a hard bound (`find_embedding_within`, which the dwave-qpu backend embeds with too)."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time

import dimod
import numpy as np

from ..exceptions import InputError, SolverError
from ..validation import check_integer, check_number

__all__ = ["COMPARED_MODES", "EMBEDDING_GRACE", "EXACT_MAX_VARIABLES", "MEMORY_SHARE", "TABU_DENSE_COPIES",
           "physical_memory", "QAOA_MAX_QUBITS", "QPU_EMBEDDING_TIMEOUT", "QPU_EMBEDDING_TIMEOUT_CAP", "QPU_TOPOLOGIES",
           "QPU_H_RANGE", "QPU_J_RANGE", "SHRINK", "SOFT_SHARE_FLOOR", "best_mode", "check_embedding_timeout",
           "embedding_report", "find_embedding_within", "hardware_report", "mode_report", "precision_report",
           "qpu_graph"]

# How to make a problem smaller, for the errors of the size-limited backends.
SHRINK = ("fewer samples and fewer features: max_samples and max_features (DepthOneClassifier, depth_one; "
          "--max-samples and --max-features on the command line, or a [problem] table in a .toml backend), "
          "a smaller max_num_literals")

# The exact backend's default max_variables: 2^25 states are enumerated at most.
EXACT_MAX_VARIABLES = 25
# The largest max_variables the exact backend accepts: 2^30 states of 30 variables take tens of GB.
EXACT_VARIABLES_CAP = 30
# The qaoa backend's default max_qubits: a simulator holds 2^20 amplitudes in a few seconds per run.
QAOA_MAX_QUBITS = 20
# The largest max_qubits the qaoa backend accepts: a state vector of 2^34 amplitudes takes 256 GiB.
QAOA_QUBITS_CAP = 34
# Seconds the dwave-qpu backend lets minorminer search for an embedding, by default.
QPU_EMBEDDING_TIMEOUT = 60
# The longest embedding search accepted, in seconds: one day.
QPU_EMBEDDING_TIMEOUT_CAP = 86_400
# Seconds an embedding search may run past its time-out before it is stopped: minorminer checks its
# time-out only between the phases of its heuristic, and one phase on a large dense QUBO takes minutes.
EMBEDDING_GRACE = 1.0
# Linux's prctl option that has the kernel signal a child when the thread that started it ends.
_PR_SET_PDEATHSIG = 1
# QPU topologies: (the shape of Ocean's graph, its qubits and couplers, the system with it).
QPU_TOPOLOGIES = {
    "pegasus": ([16], 5640, 40484, "Advantage, Pegasus P16"),
    "zephyr": ([12, 4], 4800, 45864, "Advantage2, Zephyr Z12"),
}
# The largest |h| and |J| a QPU takes (its properties' h_range and j_range, those of Ocean's mock QPU
# of either topology): its auto-scaling divides the Ising problem until both fit.
QPU_H_RANGE = 4.0
QPU_J_RANGE = 1.0
# dwave-samplers' tabu search holds the QUBO as dense n x n float64 matrices: the upper triangle, its
# symmetric sum and the C++ solver's vectors of rows; its peak is 5.0 such copies at n = 2000..4000
# (tests/backends/test_samplers.py measures it again), one more for the solve's own arrays.
TABU_DENSE_COPIES = 6
# The share of the machine's memory a sampler's own copies of the QUBO may take.
MEMORY_SHARE = 0.5
# The compile modes `mode_report` compares: (eta, slack), with the QUBO's own penalty mode.
COMPARED_MODES = ((True, "paired"), (False, "paired"), (True, "minimal"), (False, "minimal"))
# The least share of a QPU's coefficient range that `best_mode` wants the objective to keep after
# auto-scaling: below a tenth, one sample's cost nears the few-percent analog precision of a QPU.
SOFT_SHARE_FLOOR = 0.1


def hardware_report(bqm: dimod.BinaryQuadraticModel) -> dict:
    """The QUBO's variables, interactions and density (interactions over all pairs), and for each
    size limit whether the QUBO is within it (a QPU needs a qubit per variable and a coupler per
    interaction at least; whether it embeds, `embedding_report` finds out)."""
    n, k = bqm.num_variables, bqm.num_interactions
    limits = [
        {"backend": "exact", "limit": "max_variables", "value": EXACT_MAX_VARIABLES},
        {"backend": "qaoa", "limit": "max_qubits", "value": QAOA_MAX_QUBITS},
        *({"backend": "dwave-qpu", "limit": "qubits", "value": qubits, "couplers": couplers, "system": system}
          for _, qubits, couplers, system in QPU_TOPOLOGIES.values()),
    ]
    for limit in limits:
        limit["fits"] = n <= limit["value"] and k <= limit.get("couplers", k)
    return {"variables": n, "interactions": k, "density": k / (n * (n - 1) / 2) if n > 1 else 0.0, "limits": limits}


def precision_report(qubo) -> dict:
    """What a QPU's auto-scaling leaves to the objective: the Ising form of the QUBO is divided by
    `scale`, the factor that fits its h into ±`QPU_H_RANGE` and its J into ±`QPU_J_RANGE`; then its
    soft part (objective and sample rows, `QuboProblem.soft_bqm`) reaches `soft_share` of the range
    at most. The rest belongs to the hard rows: a small share leaves the rules' differences to the
    QPU's analog precision."""
    def shares(bqm):
        # the Ising form of the BINARY model (x = (1 + s) / 2): J = Q / 4, h = q / 2 + Q's row and column sums / 4
        q, (row, col, Q), _ = bqm.to_numpy_vectors()
        h = q / 2 + (np.bincount(row, Q, len(q)) + np.bincount(col, Q, len(q))) / 4
        return np.concatenate([np.abs(h) / QPU_H_RANGE, np.abs(Q / 4) / QPU_J_RANGE])

    scale = float(shares(qubo.bqm).max(initial=0.0))
    soft = float(shares(qubo.soft_bqm()).max(initial=0.0))
    return {"scale": scale, "soft_share": soft / scale if scale else 0.0}


def mode_report(problem, penalty) -> list[dict]:
    """Each of `COMPARED_MODES` compiled for `problem` with `penalty`: its size, dynamic range, QPU
    fit (`hardware_report`) and soft share after the QPU's scaling (`precision_report`), so that
    `inspect` can say which mode suits a QPU best (`best_mode`)."""
    rows = []
    for eta, slack in COMPARED_MODES:
        qubo = problem.to_qubo(eta=eta, penalty=penalty, slack=slack)
        limits = hardware_report(qubo.bqm)["limits"]
        rows.append({"eta": eta, "slack": slack, "variables": qubo.num_variables,
                     "interactions": qubo.bqm.num_interactions, "dynamic_range": qubo.summary()["dynamic_range"],
                     "fits_qpu": any(limit["fits"] for limit in limits if limit["backend"] == "dwave-qpu"),
                     **precision_report(qubo)})
    return rows


def best_mode(rows: list[dict]) -> dict:
    """The mode of `mode_report` a QPU suits best: within a QPU's qubits and couplers if any is,
    then with a soft share of at least `SOFT_SHARE_FLOOR`, then the fewest variables (the smallest
    embedding), then the largest soft share."""
    return max(rows, key=lambda row: (row["fits_qpu"], row["soft_share"] >= SOFT_SHARE_FLOOR, -row["variables"],
                                      row["soft_share"]))


def qpu_graph(topology: str) -> tuple[list, list]:
    """The qubits and couplers of the QPU graph of `topology`: those of Ocean's mock QPU of that
    topology, which the dwave-qpu backend samples on with `mock=` (`dwave.MockQpu`)."""
    from dwave.system.testing import MockDWaveSampler

    qpu = MockDWaveSampler(topology_type=topology, topology_shape=QPU_TOPOLOGIES[topology][0],
                           parameter_warnings=False)
    return qpu.nodelist, qpu.edgelist


def embedding_report(bqm: dimod.BinaryQuadraticModel, topology: str, seed: int = 0,
                     timeout: float = QPU_EMBEDDING_TIMEOUT) -> dict:
    """Whether minorminer, seeded with `seed` and searching at most `timeout` seconds (a hard bound,
    `find_embedding_within`), embeds the QUBO's graph into the QPU graph of `topology` (the graph
    the mock QPU of that topology has), with the physical qubits and the longest chain of the
    embedding found, or why none was.

    A QUBO with more variables than the graph has qubits, or more interactions than it has
    couplers (each needs its own), cannot embed: that is said without a search."""
    if topology not in QPU_TOPOLOGIES:
        raise InputError(f"topology must be one of {', '.join(QPU_TOPOLOGIES)}, got {topology!r}")
    seed = check_integer(seed, "seed", 0)
    timeout = check_embedding_timeout(timeout, "timeout")
    qubits, couplers = qpu_graph(topology)
    report = {"topology": topology, "system": QPU_TOPOLOGIES[topology][3], "found": False, "qubits": None,
              "max_chain": None, "seconds": 0.0, "timeout": timeout, "seed": seed}
    if bqm.num_variables > len(qubits):
        return {**report, "reason": f"more variables than the {len(qubits)} qubits"}
    if bqm.num_interactions > len(couplers):
        return {**report, "reason": f"more interactions than the {len(couplers)} couplers"}
    source = [*bqm.quadratic, *((v, v) for v in bqm.linear)]  # self-loops keep isolated variables
    start = time.perf_counter()
    embedding = find_embedding_within(source, couplers, timeout, random_seed=seed)
    report["seconds"] = time.perf_counter() - start
    if embedding is None:
        return {**report, "reason": f"the search hit its {timeout:g} s limit and was stopped"}
    if not embedding and bqm.num_variables:
        return {**report, "reason": f"minorminer found none within {timeout:g} s"}
    chains = [len(chain) for chain in embedding.values()]
    return {**report, "found": True, "qubits": sum(chains), "max_chain": max(chains, default=0), "reason": None}


def check_embedding_timeout(timeout, name: str) -> float:
    """An embedding search's time-out `timeout` checked: seconds from 0 to `QPU_EMBEDDING_TIMEOUT_CAP`."""
    timeout = check_number(timeout, name, 0)
    if timeout > QPU_EMBEDDING_TIMEOUT_CAP:
        raise InputError(f"{name} must be <= {QPU_EMBEDDING_TIMEOUT_CAP} s (one day), got {timeout:g}")
    return timeout


def find_embedding_within(source, target, timeout: float, **params) -> dict | None:
    """minorminer's embedding of the graph `source` (edges) into `target`, searched with `params`
    and `timeout` (seconds) in a child process that is killed `EMBEDDING_GRACE` s after `timeout`:
    None when it was. In this process one search could run minutes past its time-out (minorminer
    checks it only between phases, holding the GIL, so not even Ctrl-C stops it)."""
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    received, sent = context.Pipe(duplex=False)
    child = context.Process(target=_search, args=(sent, os.getpid(), source, target, {**params, "timeout": timeout}),
                            name="boolrules minor embedding", daemon=True)
    child.start()
    sent.close()  # the child holds the only sending end: its end, answered or not, ends the wait
    try:
        if not received.poll(timeout + EMBEDDING_GRACE):
            return None
        try:
            outcome, value = received.recv()
        except EOFError:
            child.join()
            raise SolverError(f"the minor-embedding search ended without an answer (exit code {child.exitcode})") \
                from None
    finally:
        child.kill()  # SIGKILL: nothing in the child can delay it
        child.join()
        received.close()
    if outcome == "error":
        raise value
    return value


def _search(sent, parent: int, source, target, params: dict) -> None:
    """In the child of `find_embedding_within`: minorminer's embedding, or the exception it raised,
    sent to the parent; on Linux the child is killed with the thread that started it, so a parent
    killed outright (SIGKILL, SIGTERM) leaves no search running."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(1)
    import minorminer  # only here: inspect without --embed never loads it

    try:
        answer = ("embedding", minorminer.find_embedding(source, target, **params))
    except BaseException as exc:  # the parent raises it (a KeyboardInterrupt, a test's failure too)
        answer = ("error", exc)
    try:
        sent.send(answer)
    except Exception:  # an exception that does not pickle
        sent.send(("error", SolverError(f"the minor-embedding search failed: {answer[1]!r}")))


def physical_memory() -> int | None:
    """The machine's memory in bytes, or None where the system does not say (`os.sysconf`)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None
