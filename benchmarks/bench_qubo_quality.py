"""Raw QUBO quality: exported QUBOs solved by samplers outside boolrules, decoded without polish,
against the exact optimum (issue 23).

For each dataset, subproblem seed, operator (and negated root with `--negated`) and compile mode:

1. A stratified subproblem of `--samples` of all rows (`sampling.subsample_rows` with labels, as
   `DepthOneClassifier` draws it; all binarized features), m' = `--max-literals`, balanced weights, λ = 0,
   min_num_literals = 0: what `boolrules export --dataset D --operator OP --max-num-literals K
   --max-samples N --seed S --test-size 0 --format bqm` writes.
2. The exact optimum from HiGHS (`get_backend("highs", threads=1, time_limit=60).solve(problem)`), or,
   when HiGHS does not prove it within `--highs-time-limit` (Choose), from the exact `native`
   branch and bound (`optimum_source` in the JSON lines says which).
3. The QUBO of each mode (`problem.to_qubo(**mode)`), exported as a dimod `.bqm` file with its
   sidecar (`QuboProblem.export`) and read back from the file (`boolrules.formats.load_qubo_file`)
   and the sidecar (`load_problem`): the samplers see the file's BQM, the decoding is the rebuilt
   problem's, exactly as a user outside boolrules would have them.
4. Samplers from outside boolrules at fixed budgets (`--samplers`):
   - `sa`: `dwave.samplers.SimulatedAnnealingSampler` with its own default schedule (num_sweeps 1000,
     geometric beta range from the biases), `--reads` reads;
   - `sa-tuned`: the same sampler with a schedule set from the objective's scale instead of the
     BQM's largest bias (`tuned_beta_range`: hot end accepts a move that costs the mean sample
     weight with probability 1/2, cold end rejects one that costs the smallest weight with
     probability 1 - e^-8), `--reads` x 1000 sweeps;
   - `tabu`: `dwave.samplers.TabuSampler`, `--reads` reads (its default timeout per read);
   - `steepest`: `dwave.samplers.SteepestDescentSolver` from `--reads` random starts;
   - `qpu-mock`: a mocked Pegasus QPU: dwave-system's `MockDWaveSampler(topology_type="pegasus",
     topology_shape=[--pegasus-shape])` (P16 by default, the Advantage fabric: 5640 qubits, 40484
     couplers, qubit degree 15) under `FixedEmbeddingComposite`, `--qpu-reads` reads (default 20).
     The embedding: a clique embedding (`minorminer.busclique.find_clique_embedding`) when the BQM has
     no more variables than the largest clique the graph holds (K180 on P16; our QUBOs are nearly
     complete graphs over the literals, for which the clique embedding is the standard choice), else
     `minorminer.find_embedding` under `--embed-timeout` seconds (`--embedding` forces either). The
     chain strength is `dwave.embedding.chain_strength.uniform_torque_compensation` of the file's BQM
     (what `EmbeddingComposite` would use); chains are unembedded by majority vote, so the samples
     decoded are over the file's BQM variables, exactly as for the other samplers. A QUBO that cannot
     embed is recorded as "does not embed" with the reason and its sizes (not as a crash, not dropped):
     refused at once when a necessary condition fails (more variables than working qubits, or more
     qubits needed than there are: a variable of degree d needs a chain of at least (d - 2)/13
     qubits, since a chain of L qubits of degree 15 has at most 13 L + 2 couplers leaving it), else
     when no embedding is found in time. Recorded per run: qubits used, longest chain, chain
     strength, the share of broken chains in the lowest-energy sample, embedding seconds.
     What the mock is NOT: it samples the embedded problem classically (steepest descent from random
     starts, dwave-samplers' `SteepestDescentSampler`, as `MockDWaveSampler` does by default; the
     first sample is replaced by an exact ground state only for embedded problems of at most 16
     qubits), with no annealing dynamics, no noise, and none of the real QPU's h and J ranges,
     auto-scaling or limited precision (integrated control errors): a large dynamic range or a strong
     chain strength costs it nothing that it would cost a QPU. It measures what embedding (chains,
     chain strength, majority vote) does to a local search, and which problems fit at all.
   - `qpu-mock-sa`: the same mock, embedding and chain strength, with `SimulatedAnnealingSampler` (its
     default schedule on the embedded BQM, 1000 sweeps) as the mock's substitute sampler in place of
     steepest descent: a classical stand-in closer to annealing, and a check on how much of the
     chains' breaking is the steepest descent's (a QUBO embeds for both or for neither; one run with
     both finds the embedding once).
5. Decoding without polish (`QuboProblem.decode_stages(samples, polish=False)` of the rebuilt
   problem): *raw*, the lowest-energy sample as it stands (its rule only if it is feasible: literal
   bounds, exclusive literals and k <= L hold at its bits), and *repaired*, the best sample repaired
   to a valid rule with its best k.

Gap = (objective - optimum) / optimum. An optimum of 0 (a perfect rule exists) has no ratio: the gap
is then 0 if the objective is 0 and "inf" otherwise, and the excess over the optimum in units of the
total sample weight (`excess`, percentage points of balanced error) is reported for every case. An
infeasible raw sample counts as gap "inf". Sizes per mode: variables, interactions, and the dynamic
range max |bias| / smallest nonzero |bias| of the file's BQM.

Modes are `SLACK:ETA:PENALTY` (`MODE_ALIASES` has short names): SLACK one of the compiler's slack
modes, ETA `eta`, `noeta` or `auto` (η for Or and And only, the default), PENALTY `sufficient`, `calibrated`, `SOFT/HARD` (explicit weights),
`SOFT/suff` (this soft weight, the hard weight that "sufficient" sets) or `sufficient*S` (the
sufficient weights with the hard one times S).

Quick run (a minute):

    PYTHONPATH=src .venv/bin/python benchmarks/bench_qubo_quality.py --datasets breast_cancer \
        --operators Or --samples 40 --reads 2 --samplers sa steepest --out /tmp/q.md

Recorded runs: see benchmarks/studies/qubo-quality.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import tempfile
import time
from pathlib import Path

import dimod
import numpy as np

from boolrules import load_dataset
from boolrules.backends import get_backend
from boolrules.formats import export_qubo, load_problem, load_qubo_file, sidecar_path
from boolrules.formulations import depth_one
from boolrules.sampling import subsample_rows

OPERATORS = ["Or", "And", "AtLeast", "AtMost", "Choose"]
DATASETS = ["breast_cancer", "credit_risk", "customer_churn", "parkinsons"]
SAMPLERS = ["sa", "sa-tuned", "tabu", "steepest", "qpu-mock", "qpu-mock-sa"]
DEFAULT_SAMPLERS = ["sa", "sa-tuned", "tabu", "steepest"]  # the mocked QPU on request (--samplers qpu-mock)
QPU_SAMPLERS = {"qpu-mock": "steepest", "qpu-mock-sa": "sa"}  # mocked QPU -> its substitute sampler
# The compiler's default and the modes measured before issue 23: minimal-bound binary slack with and
# without eta, the two named penalties.
MODE_ALIASES = {
    "default": "paired:auto:sufficient",  # the default of export and to_qubo: η for Or and And only
    "eta-sufficient": "minimal:eta:sufficient",  # the default until issue 23
    "eta-calibrated": "minimal:eta:calibrated",
    "noeta-sufficient": "minimal:noeta:sufficient",
    "noeta-calibrated": "minimal:noeta:calibrated",  # the sampler backends' default
}
DEFAULT_MODES = list(MODE_ALIASES)


def parse_mode(spec: str) -> dict:
    """`SLACK:ETA:PENALTY` (or an alias) -> keyword arguments of `to_qubo`."""
    full = MODE_ALIASES.get(spec, spec)
    try:
        slack, eta, penalty = full.split(":")
    except ValueError:
        raise SystemExit(f"--modes: {spec!r} is not SLACK:ETA:PENALTY nor one of {', '.join(MODE_ALIASES)}") from None
    if eta not in ("eta", "noeta", "auto"):
        raise SystemExit(f"--modes: {spec!r}: the middle part must be eta, noeta or auto")
    soft_only, hard_scale = None, None
    if penalty.startswith("sufficient*"):  # the sufficient weights with the hard one scaled
        penalty, hard_scale = "sufficient", float(penalty.split("*")[1])
    if "/" in penalty:
        soft, hard = penalty.split("/")
        if hard == "suff":  # soft as given, hard as the sufficient weights set it
            soft_only, penalty = float(soft), "sufficient"
        else:
            penalty = {"soft": float(soft), "hard": float(hard)}
    return {"slack": slack, "eta": "auto" if eta == "auto" else eta == "eta", "penalty": penalty, "soft": soft_only,
            "hard_scale": hard_scale}


def compile_mode(problem, mode: dict):
    """`problem.to_qubo` for a parsed mode; a soft weight with the sufficient hard one, or a scale of
    the sufficient hard weight, re-weights it."""
    qubo = problem.to_qubo(eta=mode["eta"], penalty=mode["penalty"], slack=mode["slack"])
    if mode["soft"] is not None:
        qubo = qubo.with_penalties({"soft": mode["soft"], "hard": qubo.penalties.hard})
    if mode["hard_scale"] is not None:
        qubo = qubo.with_penalties({"soft": qubo.penalties.soft, "hard": mode["hard_scale"] * qubo.penalties.hard})
    return qubo


def gap(objective, optimum: float) -> float:
    """(objective - optimum) / optimum; an optimum of 0 gives 0 when matched, inf otherwise; an
    infeasible stage (None) is inf."""
    if objective is None:
        return math.inf
    if optimum <= 1e-9:
        return 0.0 if objective <= 1e-9 else math.inf
    return max(objective - optimum, 0.0) / optimum


def tuned_beta_range(weights: np.ndarray) -> tuple[float, float]:
    """The recommended SA schedule's beta range, from the objective's scale rather than the BQM's
    largest bias: at the hot end a move costing the mean sample weight is accepted with
    probability 1/2; at the cold end one costing the smallest weight is accepted with e^-8."""
    w = np.asarray(weights, dtype=float)
    w = w[w > 0]
    return (math.log(2) / float(w.mean()), 8.0 / float(w.min()))


def run_sampler(name: str, bqm: dimod.BinaryQuadraticModel, reads: int, seed: int, weights) -> dimod.SampleSet:
    from dwave.samplers import SimulatedAnnealingSampler, SteepestDescentSolver, TabuSampler

    if name == "sa":
        return SimulatedAnnealingSampler().sample(bqm, num_reads=reads, seed=seed)
    if name == "sa-tuned":
        return SimulatedAnnealingSampler().sample(bqm, num_reads=reads, num_sweeps=1000, seed=seed,
                                                  beta_range=tuned_beta_range(weights))
    if name == "tabu":
        return TabuSampler().sample(bqm, num_reads=reads, seed=seed)
    if name == "steepest":
        return SteepestDescentSolver().sample(bqm, num_reads=reads, seed=seed, initial_states_generator="random")
    raise SystemExit(f"unknown sampler {name!r}; samplers: {', '.join(SAMPLERS)}")


class DoesNotEmbed(Exception):
    """The QUBO does not embed in the mocked QPU's graph: `reason` in words, `info` the sizes."""

    def __init__(self, reason: str, info: dict):
        super().__init__(reason)
        self.reason, self.info = reason, info


_QPU_GRAPHS: dict = {}


def qpu_graph(shape: int = 16):
    """The mocked QPU's working graph (a networkx Pegasus graph P`shape`, as MockDWaveSampler
    builds it) with its largest clique size, cached per shape."""
    if shape not in _QPU_GRAPHS:
        from dwave.system.testing import MockDWaveSampler
        from minorminer import busclique

        graph = MockDWaveSampler(topology_type="pegasus", topology_shape=[shape]).to_networkx_graph()
        cache = busclique.busgraph_cache(graph)
        _QPU_GRAPHS[shape] = (graph, len(cache.largest_clique()))
    return _QPU_GRAPHS[shape]


def find_qpu_embedding(bqm: dimod.BinaryQuadraticModel, shape: int, timeout: float, seed: int,
                       method: str = "auto") -> tuple[dict, dict]:
    """An embedding of `bqm`'s graph in the Pegasus P`shape` graph: (embedding, info), or
    `DoesNotEmbed` with the reason and sizes. `method`: "clique" (busclique clique embedding,
    needs variables <= the largest clique), "minorminer" (`minorminer.find_embedding` under
    `timeout` s), "auto" (clique when it fits, else minorminer). Hopeless cases are refused before
    any search (see the module docstring's necessary condition)."""
    import minorminer
    from minorminer import busclique

    graph, clique = qpu_graph(shape)
    qubits = graph.number_of_nodes()
    qubit_degree = max(d for _, d in graph.degree())
    degrees = np.array([bqm.degree(v) for v in bqm.variables])
    need = int(np.maximum(1, np.ceil((degrees - 2) / (qubit_degree - 2))).sum()) if degrees.size else 0
    info = {"variables": bqm.num_variables, "interactions": bqm.num_interactions,
            "max_degree": int(degrees.max()) if degrees.size else 0, "qubits_needed_at_least": need,
            "graph": f"pegasus P{shape}", "graph_qubits": qubits, "graph_couplers": graph.number_of_edges(),
            "largest_clique": clique}
    sizes_text = (f"{bqm.num_variables} variables, {bqm.num_interactions} interactions (max degree "
                  f"{info['max_degree']}) on pegasus P{shape} ({qubits} qubits, largest clique K{clique})")
    if bqm.num_variables > qubits:
        raise DoesNotEmbed(f"more variables than qubits: {sizes_text}", info)
    if need > qubits:
        raise DoesNotEmbed(f"needs at least {need} qubits (chains of >= (degree-2)/{qubit_degree - 2} qubits), "
                           f"more than the {qubits} there are: {sizes_text}", info)
    if method == "clique" or (method == "auto" and bqm.num_variables <= clique):
        if bqm.num_variables > clique:
            raise DoesNotEmbed(f"more variables than the largest clique embedding: {sizes_text}", info)
        chains = busclique.find_clique_embedding(bqm.num_variables, graph)  # chains of 0..n-1
        if len(chains) != bqm.num_variables:
            raise DoesNotEmbed(f"no clique embedding found: {sizes_text}", info)
        return ({v: list(chains[i]) for i, v in enumerate(bqm.variables)},
                {**info, "embedding_method": "clique"})
    edges = [(u, v) for u, v, _ in bqm.iter_quadratic()]
    start = time.perf_counter()
    found = minorminer.find_embedding(edges, list(graph.edges), timeout=timeout, random_seed=seed, threads=1)
    if not found or len(found) < len(set(u for e in edges for u in e)):
        raise DoesNotEmbed(f"minorminer.find_embedding found no embedding (time-out {timeout:g} s, stopped after "
                           f"{time.perf_counter() - start:.0f} s): {sizes_text}", info)
    embedding = {v: list(found[v]) for v in found}
    free = [v for v in bqm.variables if v not in embedding]  # variables without interactions: any free qubit
    used = {q for chain in embedding.values() for q in chain}
    spare = (q for q in graph.nodes if q not in used)
    for v in free:
        embedding[v] = [next(spare)]
    return embedding, {**info, "embedding_method": "minorminer"}


def run_qpu_mock(bqm: dimod.BinaryQuadraticModel, reads: int, seed: int, shape: int = 16,
                 timeout: float = 60.0, method: str = "auto", substitute: str = "steepest",
                 found: tuple | None = None) -> tuple[dimod.SampleSet, dict]:
    """`bqm` on the mocked Pegasus QPU (module docstring): (the unembedded SampleSet over `bqm`'s
    variables, the embedding's record: qubits, longest chain, chain strength, broken-chain share of
    the lowest-energy sample, seconds). `substitute`: the mock's own sampler, "steepest" (its
    default) or "sa". `found`: an (embedding, info) of `find_qpu_embedding` already found for
    `bqm`. Raises `DoesNotEmbed`."""
    from dwave.embedding.chain_strength import uniform_torque_compensation
    from dwave.samplers import SimulatedAnnealingSampler
    from dwave.system import FixedEmbeddingComposite
    from dwave.system.testing import MockDWaveSampler

    start = time.perf_counter()
    embedding, info = found if found is not None else find_qpu_embedding(bqm, shape, timeout, seed, method)
    embed_s = info.get("embed_seconds", time.perf_counter() - start)
    strength = float(uniform_torque_compensation(bqm))
    graph, _ = qpu_graph(shape)
    own = {} if substitute == "steepest" else {"substitute_sampler": SimulatedAnnealingSampler()}
    mock = MockDWaveSampler(topology_type="pegasus", topology_shape=[shape], substitute_kwargs={"seed": seed}, **own)
    assert len(mock.nodelist) == graph.number_of_nodes()
    sampler = FixedEmbeddingComposite(mock, embedding=embedding)
    samples = sampler.sample(bqm, num_reads=reads, chain_strength=strength, chain_break_fraction=True,
                             return_embedding=True)
    lowest = samples.first
    chains = [len(chain) for chain in embedding.values()]
    record = {**info, "qubits": int(sum(chains)), "longest_chain": int(max(chains)), "chain_strength": strength,
              "chain_strength_used": float(samples.info["embedding_context"]["chain_strength"]),
              "broken_chains_lowest": float(lowest.chain_break_fraction),
              "broken_chains_mean": float(np.mean(samples.record.chain_break_fraction)),
              "embed_seconds": embed_s, "mock_sampler": type(mock.substitute_sampler).__name__}
    return samples, record


def sizes(bqm: dimod.BinaryQuadraticModel) -> dict:
    linear, (_, _, quad), _ = bqm.to_numpy_vectors()
    biases = np.abs(np.concatenate([linear, quad]))
    nonzero = biases[biases > 1e-12]
    return {"variables": bqm.num_variables, "interactions": bqm.num_interactions,
            "dynamic_range": float(nonzero.max() / nonzero.min()) if nonzero.size else 0.0}


def exported(qubo, folder: Path, name: str):
    """The QUBO written as a .bqm file with its sidecar, and read back: (the file's BQM relabelled
    to the QUBO's labels, the rebuilt QuboProblem)."""
    path = export_qubo(qubo, folder / f"{name}.bqm", "bqm")
    loaded = load_problem(sidecar_path(path))
    bqm = load_qubo_file(path, "bqm")
    names = loaded.variables  # variable i of the file is labels[i]
    mapping = {v: loaded.qubo.labels[names.index(str(v))] for v in bqm.variables}
    return bqm.relabel_variables(mapping, inplace=False), loaded.qubo


def instances(args):
    for dataset in args.datasets:
        data = load_dataset(dataset)
        for seed in args.seeds:
            rows = subsample_rows(len(data.y), args.samples, seed, labels=data.y)
            for operator in args.operators:
                for negated in ([False, True] if args.negated else [False]):
                    problem = depth_one(data.X[rows], data.y[rows], operator,
                                        max_num_literals=min(args.max_literals, 2 * data.X.shape[1]), negated=negated)
                    yield dataset, seed, problem


def exact_optimum(problem, time_limit: float) -> tuple[float, str]:
    """The optimum from HiGHS (one thread, `time_limit` s); when HiGHS does not prove it in time
    (Choose ILPs can be slow), from the exact `native` branch and bound. Returns (objective, source)."""
    result = get_backend("highs", time_limit=time_limit, threads=1).solve(problem)
    if result.status == "optimal":
        return result.objective, "highs"
    exact = get_backend("native").solve(problem)
    if exact.status != "optimal":
        raise RuntimeError(f"no proven optimum for {problem!r}")
    return exact.objective, "native"


def done_keys(path) -> tuple[list[dict], set]:
    """Records already in the JSON-lines file `path` (for --resume) and their keys."""
    if not path or not Path(path).exists():
        return [], set()
    records = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    return records, {key(r) for r in records}


def key(r: dict) -> tuple:
    return r["dataset"], r["seed"], r["operator"], r["mode"], r["sampler"], r["rows"], r["max_literals"]


def measure(args) -> list[dict]:
    records, done = done_keys(args.jsonl) if args.resume else ([], set())
    records = [r for r in records if r["mode"] in args.modes and r["sampler"] in args.samplers]
    folder = Path(tempfile.mkdtemp(prefix="bench_qubo_quality_"))
    jsonl = open(args.jsonl, "a") if args.jsonl else None
    for dataset, seed, problem in instances(args):
        todo = [(spec, sampler) for spec in args.modes for sampler in args.samplers
                if (dataset, seed, problem.label, spec, sampler, problem.num_samples, problem.max_num_literals) not in done]
        if not todo:
            continue
        exact = {}

        def optimum_of(problem=problem) -> tuple[float, str, float]:
            """The exact optimum, computed once and only when a run needs it (a QUBO that does
            not embed needs none)."""
            if not exact:
                start = time.perf_counter()
                exact["value"] = (*exact_optimum(problem, args.highs_time_limit), time.perf_counter() - start)
            return exact["value"]

        total = float(problem.weights.sum())
        for spec in dict.fromkeys(spec for spec, _ in todo):
            mode = parse_mode(spec)
            try:
                qubo = compile_mode(problem, mode)
            except ValueError as err:
                print(f"# {dataset} {problem.label} {spec}: {err}", flush=True)
                continue
            bqm, rebuilt = exported(qubo, folder, f"{dataset}_{seed}_{problem.label}_{spec}".replace(":", "_").replace("/", "_"))
            size = sizes(bqm)
            embedded = None  # the QUBO's embedding, or its refusal, found once for the qpu samplers
            for sampler in [sampler for other, sampler in todo if other == spec]:
                base = {"dataset": dataset, "seed": seed, "operator": problem.label, "mode": spec, "sampler": sampler,
                        "rows": problem.num_samples, "max_literals": problem.max_num_literals}
                start = time.perf_counter()
                qpu = {}
                if sampler in QPU_SAMPLERS:
                    try:
                        if embedded is None:
                            try:
                                embedding, info = find_qpu_embedding(bqm, args.pegasus_shape, args.embed_timeout, seed,
                                                                     args.embedding)
                                embedded = (embedding, {**info, "embed_seconds": time.perf_counter() - start})
                            except DoesNotEmbed as refusal:
                                refusal.info["embed_seconds"] = time.perf_counter() - start
                                embedded = refusal
                        if isinstance(embedded, DoesNotEmbed):
                            raise embedded
                        start = time.perf_counter()
                        samples, qpu = run_qpu_mock(bqm, args.qpu_reads, seed, args.pegasus_shape,
                                                    substitute=QPU_SAMPLERS[sampler], found=embedded)
                    except DoesNotEmbed as refusal:
                        record = {**base, "embedded": False, "embed_reason": refusal.reason, **refusal.info, **size}
                        records.append(record)
                        if jsonl:
                            jsonl.write(json.dumps(record) + "\n")
                            jsonl.flush()
                        print(f"# {dataset} s{seed} {problem.label:9s} {spec:28s} {sampler:9s} does not embed: "
                              f"{refusal.reason} ({record['embed_seconds']:.1f}s)", flush=True)
                        continue
                    qpu = {"embedded": True, **qpu}
                else:
                    samples = run_sampler(sampler, bqm, args.reads, seed, problem.weights)
                sample_s = time.perf_counter() - start  # qpu samplers: without the embedding's search
                optimum, source, highs_s = optimum_of()
                decoding = rebuilt.decode_stages(samples, polish=False)
                raw, repaired = decoding.stages["raw"], decoding.stages["repaired"]
                record = {
                    **base, "optimum": optimum,
                    "raw": raw.objective, "repaired": repaired.objective,
                    "raw_gap": gap(raw.objective, optimum), "repaired_gap": gap(repaired.objective, optimum),
                    "raw_excess": None if raw.objective is None else (raw.objective - optimum) / total,
                    "repaired_excess": (repaired.objective - optimum) / total,
                    "feasible_share": decoding.feasible / decoding.num_samples, **size,
                    "sampler_seconds": sample_s, "optimum_seconds": highs_s, "optimum_source": source, **qpu,
                }
                records.append(record)
                if jsonl:
                    jsonl.write(json.dumps(record) + "\n")
                    jsonl.flush()
                chains = (f" qubits {qpu['qubits']} chain<={qpu['longest_chain']} cs {qpu['chain_strength']:.3g} "
                          f"broken {qpu['broken_chains_lowest']:.2f}" if qpu else "")
                print(f"# {dataset} s{seed} {problem.label:9s} {spec:28s} {sampler:9s} opt {optimum:.4g} "
                      f"raw {fmt_obj(raw.objective)} rep {repaired.objective:.4g} gap {fmt_gap(record['raw_gap'])} "
                      f"vars {size['variables']} int {size['interactions']} dr {size['dynamic_range']:.3g}{chains} "
                      f"{sample_s:.1f}s", flush=True)
    if jsonl:
        jsonl.close()
    return records


def fmt_obj(value) -> str:
    return "-" if value is None else f"{value:.4g}"


def fmt_gap(value: float) -> str:
    return "inf" if math.isinf(value) else f"{100 * value:+.0f}%"


def fmt_excess(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def summary(records: list[dict], keys: tuple[str, ...]) -> list[str]:
    """Markdown rows: per group of `keys`, median and worst raw and repaired gap, median raw excess,
    how often the raw stage hit the optimum and was feasible, and median sizes."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        groups.setdefault(tuple(r[k] for k in keys), []).append(r)
    lines = ["| " + " | ".join(keys) + " | n | raw gap median | raw gap worst | repaired gap median | repaired gap "
             "worst | raw excess median (pts) | raw excess worst (pts) | raw optimal | raw feasible | variables | "
             "interactions | dynamic range |",
             "|" + "---|" * len(keys) + "---:|" * 12]
    for key, group in groups.items():
        raw = np.array([r["raw_gap"] for r in group])
        rep = np.array([r["repaired_gap"] for r in group])
        excess = [r["raw_excess"] if r["raw_excess"] is not None else math.inf for r in group]
        lines.append(
            "| " + " | ".join(map(str, key)) + f" | {len(group)} | {fmt_gap(float(np.median(raw)))} | "
            f"{fmt_gap(float(raw.max()))} | {fmt_gap(float(np.median(rep)))} | {fmt_gap(float(rep.max()))} | "
            f"{fmt_excess(float(np.median(excess)))} | {fmt_excess(float(np.max(excess)))} | "
            f"{sum(g == 0 for g in raw)}/{len(group)} | {sum(r['raw'] is not None for r in group)}/{len(group)} | "
            f"{int(np.median([r['variables'] for r in group]))} | {int(np.median([r['interactions'] for r in group]))} | "
            f"{float(np.median([r['dynamic_range'] for r in group])):.3g} |")
    return lines


def qpu_table(records: list[dict]) -> list[str]:
    """Markdown rows: every run of a mocked QPU, embedded or not, with its embedding and its gaps."""
    lines = ["| dataset | seed | operator | mode | sampler | variables | interactions | embeds | embedding | qubits | "
             "longest chain | chain strength | broken chains (lowest) | raw gap | repaired gap | embed s | "
             "sampler s | why not |",
             "|---|---:|---|---|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in records:
        if r.get("embedded", True):
            lines.append(f"| {r['dataset']} | {r['seed']} | {r['operator']} | {r['mode']} | {r['sampler']} | {r['variables']} | "
                         f"{r['interactions']} | yes | {r['embedding_method']} | {r['qubits']} | {r['longest_chain']} | "
                         f"{r['chain_strength']:.3g} | {r['broken_chains_lowest']:.2f} | {fmt_gap(r['raw_gap'])} | "
                         f"{fmt_gap(r['repaired_gap'])} | {r['embed_seconds']:.1f} | {r['sampler_seconds']:.1f} |  |")
        else:
            lines.append(f"| {r['dataset']} | {r['seed']} | {r['operator']} | {r['mode']} | {r['sampler']} | {r['variables']} | "
                         f"{r['interactions']} | **no** | - | - | - | - | - | - | - | {r['embed_seconds']:.1f} | - | "
                         f"{r['embed_reason']} |")
    return lines


def report(records: list[dict], args) -> str:
    sampled = [r for r in records if r.get("embedded", True)]
    qpu = [r for r in records if r["sampler"] in QPU_SAMPLERS]
    out = ["# Raw QUBO quality against the exact optimum (`bench_qubo_quality.py`)", "",
           f"Command: `{args.command}`", "",
           f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}. "
           f"Subproblems: {args.samples} stratified rows, m' = {args.max_literals}, seeds {args.seeds}, balanced "
           f"weights, λ = 0. Samplers at {args.reads} reads (the mocked QPU at {args.qpu_reads}); sa/sa-tuned 1000 sweeps. "
           "Decoded without polish.", "",
           "Gap = (objective − optimum)/optimum (`inf`: infeasible raw sample, or optimum 0 missed); excess in "
           "points of total weight (balanced error). Sizes are medians over the group.", ""]
    if qpu:
        out += [f"qpu-mock: dwave-system's MockDWaveSampler on pegasus P{args.pegasus_shape}, {args.qpu_reads} reads, "
                f"embedding `{args.embedding}` (minorminer time-out {args.embed_timeout:g} s), chain strength "
                "uniform_torque_compensation, majority vote. The mock samples the embedded problem classically "
                "(qpu-mock: steepest descent from random starts, the mock's default; qpu-mock-sa: simulated "
                "annealing): no quantum annealing, noise, h/J ranges or precision of a real QPU. "
                f"{sum(not r.get('embedded', True) for r in qpu)} of {len(qpu)} mocked-QPU runs did not embed; the "
                "summaries below count only the runs that were sampled.", ""]
    out += ["## By mode and sampler", "", *summary(sampled, ("mode", "sampler")), "",
            "## By mode and operator (sampler `sa`, its default schedule)", "",
            *summary([r for r in sampled if r["sampler"] == "sa"], ("mode", "operator")), ""]
    if qpu:
        out += ["## Mocked QPU: embeddings, chains and gaps (every run)", "", *qpu_table(qpu), ""]
    out += ["## Every run", "",
            "| dataset | seed | operator | mode | sampler | optimum | raw | repaired | raw gap | repaired gap | "
            "feasible share | variables | interactions | dynamic range | sampler s |",
            "|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sampled:
        out.append(f"| {r['dataset']} | {r['seed']} | {r['operator']} | {r['mode']} | {r['sampler']} | "
                   f"{r['optimum']:.4g} | {fmt_obj(r['raw'])} | {r['repaired']:.4g} | {fmt_gap(r['raw_gap'])} | "
                   f"{fmt_gap(r['repaired_gap'])} | {r['feasible_share']:.2f} | {r['variables']} | "
                   f"{r['interactions']} | {r['dynamic_range']:.3g} | {r['sampler_seconds']:.1f} |")
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--operators", nargs="+", default=OPERATORS, choices=OPERATORS)
    parser.add_argument("--negated", action="store_true", help="also the negated roots (~Or, ...)")
    parser.add_argument("--samples", type=int, default=80, help="rows per subproblem (default: %(default)s)")
    parser.add_argument("--max-literals", type=int, default=3, help="m' (default: %(default)s)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="subproblem (and sampler) seeds")
    parser.add_argument("--modes", nargs="+", default=DEFAULT_MODES,
                        help=f"SLACK:ETA:PENALTY or an alias ({', '.join(MODE_ALIASES)}); default: the four aliases")
    parser.add_argument("--samplers", nargs="+", default=DEFAULT_SAMPLERS, choices=SAMPLERS,
                        help="default: %(default)s (qpu-mock on request)")
    parser.add_argument("--reads", type=int, default=100, help="reads per sampler but qpu-mock (default: %(default)s)")
    parser.add_argument("--qpu-reads", type=int, default=20, help="reads of qpu-mock and qpu-mock-sa (default: %(default)s)")
    parser.add_argument("--pegasus-shape", type=int, default=16,
                        help="qpu-mock's Pegasus graph P<shape> (default: %(default)s, the Advantage fabric)")
    parser.add_argument("--embed-timeout", type=float, default=60.0,
                        help="seconds for minorminer.find_embedding per QUBO (default: %(default)s)")
    parser.add_argument("--embedding", choices=("auto", "clique", "minorminer"), default="auto",
                        help="qpu-mock's embedding: clique embedding when it fits, else minorminer (auto, the "
                             "default), or either alone")
    parser.add_argument("--out", help="write the markdown report to this file (e.g. benchmarks/results/...md)")
    parser.add_argument("--jsonl", help="append every run as a JSON line to this file as it finishes")
    parser.add_argument("--resume", action="store_true", help="skip the runs already in --jsonl (and report them)")
    parser.add_argument("--highs-time-limit", type=float, default=60.0,
                        help="seconds for HiGHS; past them the exact native solver gives the optimum (default: %(default)s)")
    args = parser.parse_args(argv)
    args.command = "bench_qubo_quality.py " + " ".join(argv if argv is not None else __import__("sys").argv[1:])
    records = measure(args)
    text = report(records, args)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return records


if __name__ == "__main__":
    main()
