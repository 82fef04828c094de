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
