"""The quantum user's trial (issue 24): export one problem in every format with `boolrules export`,
load each file in its own tool, solve it there, and decode the answer with `boolrules decode`,
against the optimum `boolrules solve --backend highs` proves with the same options.

Outside solvers: dwave-samplers' `SimulatedAnnealingSampler` (`--reads` reads, seed 0, its default
schedule) on every QUBO file as its tool reads it (dimod for bqm/json/ising/lp, the qbsolv text for
qubo, scipy for npz/mtx, OMMX's `as_qubo_format` for ommx); the CQM file (the ILP itself) through
`dimod.cqm_to_bqm` and the same annealer; the model files lp and mps by highspy, ommx through OMMX's
own `Instance.to_qubo` (its default uniform penalty) and the annealer, read back by `evaluate`; the qasm3 circuit by
qiskit on Aer (only on a problem small enough to simulate: `--qasm3-*`). The decoding is never
polished: raw is the lowest-energy sample as it stands, repaired its best repair.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dimod
import highspy
import scipy.io
import scipy.sparse as sp
from dwave.samplers import SimulatedAnnealingSampler
from ommx.artifact import Artifact

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).parent / "boolrules"
FORMATS = ("bqm", "json", "ising", "qubo", "qubo-lp", "npz", "mtx", "qubo-ommx", "cqm", "lp", "mps", "ommx", "qasm3")


def cli(*argv: str) -> dict:
    done = subprocess.run([str(SCRIPT), *argv, "--json"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1]}
    return json.loads(done.stdout)


def anneal(bqm: dimod.BinaryQuadraticModel, reads: int) -> dimod.SampleSet:
    return SimulatedAnnealingSampler().sample(bqm, num_reads=reads, seed=0)


def solve_elsewhere(path: Path, fmt: str, sidecar: dict, reads: int):
    """The file's answer from a tool that is not boolrules, in the form that tool gives it."""
    if fmt == "bqm":
        with open(path, "rb") as f:
            return anneal(dimod.BinaryQuadraticModel.from_file(f), reads).to_serializable()
    if fmt == "json":
        return anneal(dimod.BinaryQuadraticModel.from_serializable(json.loads(path.read_text())), reads).to_serializable()
    if fmt == "ising":
        obj = json.loads(path.read_text())
        return anneal(dimod.BinaryQuadraticModel.from_ising(obj["h"], {(u, v): b for u, v, b in obj["J"]}, obj["offset"]),
                      reads).to_serializable()
    if fmt == "qubo":  # qbsolv text: `p qubo` header, then `i j bias`; its samples as bit strings in file order
        rows = [line.split() for line in path.read_text().splitlines() if line and not line.startswith(("c", "p"))]
        bqm = dimod.BinaryQuadraticModel.from_qubo({(int(i), int(j)): float(b) for i, j, b in rows})
        n = len(sidecar["variables"])
        return ["".join(str(sample.get(i, 0)) for i in range(n)) for sample in anneal(bqm, reads).samples()]
    if fmt == "qubo-lp":
        objective = dimod.lp.load(str(path)).objective
        return anneal(dimod.BinaryQuadraticModel(objective.linear, objective.quadratic, objective.offset, "BINARY"),
                      reads).to_serializable()
    if fmt in ("npz", "mtx"):
        Q = sp.load_npz(path) if fmt == "npz" else sp.coo_matrix(scipy.io.mmread(path))
        answer = anneal(dimod.BinaryQuadraticModel.from_qubo(dict(zip(zip(*Q.nonzero()), Q.data))), reads)
        return ["".join(str(sample.get(i, 0)) for i in range(Q.shape[0])) for sample in answer.samples()]
    if fmt == "qubo-ommx":
        terms, offset = Artifact.load_archive(str(path)).instance.as_qubo_format()
        return anneal(dimod.BinaryQuadraticModel.from_qubo(terms, offset), reads).to_serializable()
    if fmt == "cqm":
        with open(path, "rb") as f:
            bqm, invert = dimod.cqm_to_bqm(dimod.ConstrainedQuadraticModel.from_file(f))
        answer = anneal(bqm, reads)
        return [{str(k): int(v) for k, v in invert(sample).items()} for sample in answer.samples()]
    if fmt == "ommx":  # the ILP: OMMX's own QUBO conversion (its default uniform penalty), read back by OMMX
        instance = Artifact.load_archive(str(path)).instance
        ids = [variable.id for variable in instance.decision_variables]
        answer = anneal(dimod.BinaryQuadraticModel.from_qubo(*instance.to_qubo()), reads)
        states = [instance.evaluate(dict(sample)).state.entries for sample in answer.samples()]
        return [{str(i): state[i] for i in ids} for state in states]
    if fmt in ("lp", "mps"):
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", False)
        highs.setOptionValue("time_limit", 60.0)
        highs.readModel(str(path))
        highs.run()
        return dict(zip(highs.getLp().col_names_, highs.getSolution().col_value))
    if fmt == "qasm3":
        from qiskit import qasm3, transpile
        from qiskit_aer import AerSimulator

        circuit = qasm3.loads(path.read_text())
        bound = circuit.assign_parameters({p: {"beta_0": 0.4, "gamma_0": 0.2}[p.name] for p in circuit.parameters})
        simulator = AerSimulator(seed_simulator=0)
        return simulator.run(transpile(bound, simulator, seed_transpiler=0), shots=1000).result().get_counts()
    raise ValueError(fmt)


def trial(fmt: str, problem_args: list[str], optimum: dict, reads: int, folder: Path) -> str:
    output = folder / f"problem.{fmt}"
    written = cli("export", *problem_args, "--format", fmt, "--output", str(output), "--no-progress")
    if "error" in written:
        return f"| {fmt} | export refused: {written['error']} | | | | | |"
    start = time.perf_counter()
    samples = solve_elsewhere(Path(written["path"]), fmt, json.loads(Path(written["sidecar"]).read_text()), reads)
    seconds = time.perf_counter() - start
    answer = folder / f"answer-{fmt}.json"
    answer.write_text(json.dumps(samples))
    decoded = cli("decode", written["sidecar"], str(answer))
    if "error" in decoded:
        return f"| {fmt} | {written['num_variables']} | {seconds:.1f} | decode refused: {decoded['error']} | | | |"
    raw, repaired = decoded["stages"]["raw"], decoded["stages"]["repaired"]
    best = optimum["objective"]

    def versus(stage):
        if not stage["feasible"]:
            return "infeasible"
        above = stage["objective"] - best
        if above < 1e-9:
            return f"{stage['objective']:.4g} (optimal)"
        return f"{stage['objective']:.4g} ({f'+{100 * above / best:.0f}%' if best > 0 else 'above 0'})"

    return (f"| {fmt} | {written['num_variables']} | {seconds:.1f} | {decoded['feasible_samples']}/{decoded['samples']} | "
            f"{versus(raw)} | {versus(repaired)} | {best:.4g} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="breast_cancer")
    parser.add_argument("--operator", default="AtLeast")
    parser.add_argument("--max-samples", default="100")
    parser.add_argument("--max-features", default="20")
    parser.add_argument("--qasm3-samples", default="4")
    parser.add_argument("--qasm3-features", default="2")
    parser.add_argument("--reads", type=int, default=100)
    parser.add_argument("--formats", nargs="+", default=list(FORMATS))
    args = parser.parse_args(argv)
    print("| format | variables | outside solve s | feasible samples | raw (vs optimum) | repaired | optimum |")
    print("|---|---|---|---|---|---|---|")
    optima = {}
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats:
            samples, features = ((args.qasm3_samples, args.qasm3_features) if fmt == "qasm3"
                                 else (args.max_samples, args.max_features))
            problem_args = ("--dataset", args.dataset, "--operator", args.operator, "--max-samples", samples,
                            "--max-features", features)
            if problem_args not in optima:
                optima[problem_args] = cli("solve", *problem_args, "--backend", "highs", "--no-progress")
            print(trial(fmt, list(problem_args), optima[problem_args], args.reads, Path(folder)), flush=True)


if __name__ == "__main__":
    main()
