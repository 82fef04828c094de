"""What a QUBO asks of the hardware: its size and density against the limit of each size-limited
backend (exact enumeration, QAOA qubits, the qubits of a D-Wave QPU), and, when asked, whether
minorminer finds a minor embedding into a QPU's graph (`boolrules inspect --embed pegasus`)."""

from __future__ import annotations

import time

import dimod

from ..validation import check_integer, check_number

__all__ = ["EXACT_MAX_VARIABLES", "QAOA_MAX_QUBITS", "QPU_EMBEDDING_TIMEOUT", "QPU_TOPOLOGIES", "SHRINK",
           "embedding_report", "hardware_report"]

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
# QPU topologies: (the shape of Ocean's graph, its qubits and couplers, the system with it).
QPU_TOPOLOGIES = {
    "pegasus": ([16], 5640, 40484, "Advantage, Pegasus P16"),
    "zephyr": ([12, 4], 4800, 45864, "Advantage2, Zephyr Z12"),
}


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


def embedding_report(bqm: dimod.BinaryQuadraticModel, topology: str, seed: int = 0,
                     timeout: float = QPU_EMBEDDING_TIMEOUT) -> dict:
    """Whether minorminer, seeded with `seed` and searching about `timeout` seconds, embeds the
    QUBO's graph into the QPU graph of `topology` (the graph the mock QPU of that topology has),
    with the physical qubits and the longest chain of the embedding found, or why none was.

    A QUBO with more variables than the graph has qubits, or more interactions than it has
    couplers (each needs its own), cannot embed: that is said without a search, which for large
    dense graphs can run far past its timeout."""
    if topology not in QPU_TOPOLOGIES:
        raise ValueError(f"topology must be one of {', '.join(QPU_TOPOLOGIES)}, got {topology!r}")
    seed = check_integer(seed, "seed", 0)
    timeout = check_number(timeout, "timeout", 0)
    from .dwave import MockQpu

    qpu = MockQpu(topology)
    report = {"topology": topology, "system": QPU_TOPOLOGIES[topology][3], "found": False, "qubits": None,
              "max_chain": None, "seconds": 0.0, "timeout": timeout, "seed": seed}
    if bqm.num_variables > len(qpu.nodelist):
        return {**report, "reason": f"more variables than the {len(qpu.nodelist)} qubits"}
    if bqm.num_interactions > len(qpu.edgelist):
        return {**report, "reason": f"more interactions than the {len(qpu.edgelist)} couplers"}
    import minorminer

    source = [*bqm.quadratic, *((v, v) for v in bqm.linear)]  # self-loops keep isolated variables
    start = time.perf_counter()
    embedding = minorminer.find_embedding(source, qpu.edgelist, random_seed=seed, timeout=timeout)
    report["seconds"] = time.perf_counter() - start
    if not embedding and bqm.num_variables:
        return {**report, "reason": f"minorminer found none within {timeout:g} s"}
    chains = [len(chain) for chain in embedding.values()]
    return {**report, "found": True, "qubits": sum(chains), "max_chain": max(chains, default=0), "reason": None}
