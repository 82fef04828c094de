"""benchmarks/bench_qubo_quality.py: a tiny run measures every mode from the exported file."""

import math

import pytest

from .bench_scripts import benchmark_module


@pytest.mark.slow  # a benchmark script's own run
def test_a_tiny_run_reports_gaps_and_sizes_per_mode(capsys, tmp_path):
    out = tmp_path / "q.md"
    with benchmark_module("bench_qubo_quality") as bench:
        records = bench.main(["--datasets", "parkinsons", "--operators", "Or", "AtLeast", "--samples", "30",
                              "--reads", "2", "--samplers", "steepest", "--modes", "eta-sufficient",
                              "paired:eta:sufficient", "paired:noeta:1.0/suff", "--out", str(out)])
        assert bench.gap(3.0, 2.0) == 0.5 and bench.gap(0.0, 0.0) == 0 and math.isinf(bench.gap(1.0, 0.0))
        assert math.isinf(bench.gap(None, 1.0))
    assert {(r["operator"], r["mode"]) for r in records} == {
        (op, mode) for op in ("Or", "AtLeast") for mode in ("eta-sufficient", "paired:eta:sufficient", "paired:noeta:1.0/suff")}
    for r in records:
        assert r["repaired"] >= r["optimum"] - 1e-9 and r["repaired_gap"] >= 0
        assert r["raw"] is None or r["raw"] >= r["optimum"] - 1e-9
        assert r["variables"] > 0 and r["interactions"] > 0 and r["dynamic_range"] >= 1
    paired = {r["operator"]: r for r in records if r["mode"] == "paired:eta:sufficient"}
    minimal = {r["operator"]: r for r in records if r["mode"] == "eta-sufficient"}
    for op in ("Or", "AtLeast"):  # the exact paired mode is never larger than the minimal one
        assert paired[op]["variables"] <= minimal[op]["variables"]
        assert paired[op]["interactions"] <= minimal[op]["interactions"]
    text = out.read_text()
    assert "## By mode and sampler" in text and "| paired:eta:sufficient | steepest | 2 |" in text


def test_qpu_mock_samples_a_tiny_bqm_through_its_embedding_and_refuses_a_hopeless_one():
    """The mocked QPU's functions on hand-made BQMs (Pegasus P2: 40 qubits of degree <= 13): both embeddings give
    samples over the BQM's own variables with their energies; too many qubits needed is refused at
    once with the sizes."""
    import itertools

    import dimod

    with benchmark_module("bench_qubo_quality") as bench:
        variables = [("x", i) for i in range(6)] + ["lonely"]  # labels like the QUBOs', one without interactions
        bqm = dimod.BinaryQuadraticModel({v: (-1.0) ** i for i, v in enumerate(variables)},
                                         {(u, v): 0.5 for u, v in itertools.combinations(variables[:6], 2)},
                                         0.0, dimod.BINARY)
        for method, substitute, own in (("clique", "steepest", "SteepestDescentSolver"),
                                        ("minorminer", "sa", "SimulatedAnnealingSampler")):
            samples, qpu = bench.run_qpu_mock(bqm, reads=4, seed=1, shape=2, timeout=10, method=method,
                                              substitute=substitute)
            assert set(samples.variables) == set(bqm.variables) and qpu["embedding_method"] == method
            assert qpu["mock_sampler"] == own
            assert samples.record.energy == pytest.approx(bqm.energies(samples))
            assert qpu["qubits"] >= bqm.num_variables and qpu["longest_chain"] >= 1
            assert qpu["chain_strength"] > 0 and qpu["chain_strength_used"] == pytest.approx(qpu["chain_strength"])
            assert 0 <= qpu["broken_chains_lowest"] <= 1
        clique = dimod.BinaryQuadraticModel({i: 1.0 for i in range(40)},
                                            {(i, j): 1.0 for i, j in itertools.combinations(range(40), 2)},
                                            0.0, dimod.BINARY)
        with pytest.raises(bench.DoesNotEmbed) as refusal:  # 40 chains of >= (39 - 2)/11 -> 4 qubits > 40 qubits
            bench.find_qpu_embedding(clique, shape=2, timeout=600, seed=0)
    assert refusal.value.reason.startswith("needs at least 160 qubits")
    assert "40 variables, 780 interactions" in refusal.value.reason and "pegasus P2 (40 qubits" in refusal.value.reason


@pytest.mark.slow  # a benchmark script's own run
def test_qpu_mock_embeds_a_small_qubo_and_reports_a_large_one_as_not_embedding(tmp_path):
    out = tmp_path / "q.md"
    with benchmark_module("bench_qubo_quality") as bench:
        records = bench.main(["--datasets", "customer_churn", "breast_cancer", "--operators", "Or", "--samples", "20",
                              "--max-literals", "2", "--modes", "paired:eta:sufficient", "--samplers", "qpu-mock",
                              "qpu-mock-sa", "--qpu-reads", "5", "--out", str(out)])
    assert [(r["dataset"], r["sampler"]) for r in records] == [
        (dataset, sampler) for dataset in ("customer_churn", "breast_cancer") for sampler in ("qpu-mock", "qpu-mock-sa")]
    small, small_sa, large, large_sa = records
    for r in (small, small_sa):  # customer_churn's 114 literals fit in the largest clique embedding
        assert r["embedded"] and r["embedding_method"] == "clique"
        assert r["variables"] <= r["largest_clique"] < r["qubits"] <= r["graph_qubits"]
        assert r["longest_chain"] >= 2 and r["chain_strength"] > 0 and 0 <= r["broken_chains_lowest"] <= 1
        assert r["repaired"] >= r["optimum"] - 1e-9 and r["repaired_gap"] >= 0
        assert r["raw"] is None or r["raw"] >= r["optimum"] - 1e-9
    assert (small["mock_sampler"], small_sa["mock_sampler"]) == ("SteepestDescentSolver", "SimulatedAnnealingSampler")
    assert small_sa["qubits"] == small["qubits"] and small_sa["embed_seconds"] == small["embed_seconds"]  # found once
    # breast_cancer's 538 literals make a nearly complete graph: refused at once, with its sizes, unsolved
    for r in (large, large_sa):
        assert r["embedded"] is False and "optimum" not in r and r["embed_seconds"] < 10
        assert r["embed_reason"].startswith("needs at least") and "pegasus P16 (5640 qubits" in r["embed_reason"]
        assert f"{r['variables']} variables, {r['interactions']} interactions" in r["embed_reason"]
    text = out.read_text()
    assert "2 of 4 mocked-QPU runs did not embed" in text
    assert (f"| breast_cancer | 0 | Or | paired:eta:sufficient | qpu-mock | {large['variables']} | "
            f"{large['interactions']} | **no** |") in text
    assert (f"| customer_churn | 0 | Or | paired:eta:sufficient | qpu-mock | {small['variables']} | "
            f"{small['interactions']} | yes | clique | {small['qubits']} | {small['longest_chain']} |") in text
