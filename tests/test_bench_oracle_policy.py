"""benchmarks/bench_oracle_policy.py: arms interleaved per seed and their means in a tiny run."""

import pytest

from .bench_scripts import benchmark_module


def test_an_arm_is_local_or_a_backend_with_parameters():
    with benchmark_module("bench_oracle_policy") as bench:
        assert bench.parse_arm("local") == ("local", {})
        assert bench.parse_arm("native:nonlocal_time_share=auto,patience=5") == (
            "native:nonlocal_time_share=auto,patience=5",
            {"nonlocal_backend": "native", "nonlocal_time_share": "auto", "patience": 5})
        assert bench.parse_arm("native:nonlocal_operators=['Or','DNF3'],patience=5")[1] == {
            "nonlocal_backend": "native", "nonlocal_operators": ["Or", bench.SHAPES3["DNF3"]], "patience": 5}
        assert bench.SHAPES3["CNF3"].max_terms == 3


@pytest.mark.slow  # a benchmark script's own run
def test_a_tiny_run_interleaves_the_arms_per_seed(capsys):
    with benchmark_module("bench_oracle_policy") as bench:
        bench.main(["--datasets", "parkinsons", "--budget", "0.4", "--seeds", "0", "1", "--num-starts", "1",
                    "--arms", "local", "native:nonlocal_time_share=auto", "--record"])
    out = capsys.readouterr().out.splitlines()
    fits = [line.split(":")[0].strip() for line in out if line.startswith("  parkinsons seed ")]
    assert fits == ["parkinsons seed 0 local", "parkinsons seed 0 native", "parkinsons seed 1 local",
                    "parkinsons seed 1 native"]
    rows = [line.split(" | ") for line in out if line.startswith("| parkinsons |")]
    assert [row[1] for row in rows] == ["local", "native:nonlocal_time_share=auto"]
    assert all(0.5 < float(row[2]) <= 1 for row in rows)
    assert float(rows[0][5]) == 0 < float(rows[1][5])  # oracle calls: none local-only
