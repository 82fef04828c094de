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
# The qaoa backend's default max_qubits: a simulator holds 2^20 amplitudes in a few seconds per run.
QAOA_MAX_QUBITS = 20
# Seconds the dwave-qpu backend lets minorminer search for an embedding, by default.
QPU_EMBEDDING_TIMEOUT = 60
# QPU topologies: (the shape of Ocean's graph, the working qubits of that graph, the system with it).
QPU_TOPOLOGIES = {
    "pegasus": ([16], 5640, "Advantage, Pegasus P16"),
    "zephyr": ([12, 4], 4800, "Advantage2, Zephyr Z12"),
}


def hardware_report(bqm: dimod.BinaryQuadraticModel) -> dict:
    """The QUBO's variables, interactions and density (interactions over all pairs), and for each
    size limit whether the QUBO is within it (a QPU's qubits bound its size; embedding needs more)."""
    n, k = bqm.num_variables, bqm.num_interactions
    limits = [
        {"backend": "exact", "limit": "max_variables", "value": EXACT_MAX_VARIABLES},
        {"backend": "qaoa", "limit": "max_qubits", "value": QAOA_MAX_QUBITS},
        *({"backend": "dwave-qpu", "limit": "qubits", "value": qubits, "system": system}
          for _, qubits, system in QPU_TOPOLOGIES.values()),
    ]
    for limit in limits:
        limit["fits"] = n <= limit["value"]
    return {"variables": n, "interactions": k, "density": k / (n * (n - 1) / 2) if n > 1 else 0.0, "limits": limits}


def embedding_report(bqm: dimod.BinaryQuadraticModel, topology: str, seed: int = 0,
                     timeout: float = QPU_EMBEDDING_TIMEOUT) -> dict:
    """Whether minorminer, seeded with `seed` and searching at most `timeout` seconds, embeds the
    QUBO's graph into the QPU graph of `topology` (the graph the mock QPU of that topology has),
    with the physical qubits and the longest chain of the embedding found."""
    if topology not in QPU_TOPOLOGIES:
        raise ValueError(f"topology must be one of {', '.join(QPU_TOPOLOGIES)}, got {topology!r}")
    seed = check_integer(seed, "seed", 0)
    timeout = check_number(timeout, "timeout", 0)
    import minorminer

    from .dwave import MockQpu

    target = MockQpu(topology).edgelist
    source = [*bqm.quadratic, *((v, v) for v in bqm.linear)]  # self-loops keep isolated variables
    start = time.perf_counter()
    embedding = minorminer.find_embedding(source, target, random_seed=seed, timeout=timeout)
    seconds = time.perf_counter() - start
    found = bool(embedding) or bqm.num_variables == 0
    chains = [len(chain) for chain in embedding.values()]
    return {"topology": topology, "system": QPU_TOPOLOGIES[topology][2], "found": found,
            "qubits": sum(chains) if found else None, "max_chain": max(chains, default=0) if found else None,
            "seconds": seconds, "timeout": timeout, "seed": seed}
