"""benchmarks/bench_nonlocal.py: the per-second mode's variants and per-seed lines in a tiny run."""

import pytest

from .bench_scripts import benchmark_module


@pytest.mark.slow  # a benchmark script's own run
def test_a_tiny_per_second_run_reports_each_variant_with_and_without_the_quench(capsys):
    with benchmark_module("bench_nonlocal") as bench:
        bench.main(["--datasets", "breast_cancer", "--complexities", "5", "--budgets", "0.4", "--seeds", "0", "1",
                    "--num-starts", "1", "--backends", "native", "--no-quench-too"])
    out = capsys.readouterr().out.splitlines()
    rows = [line.split(" | ") for line in out if line.startswith("| breast_cancer |")]
    assert [row[3] for row in rows] == ["local", "local, no quench", "+ non-local (native)",
                                        "+ non-local (native), no quench"]
    assert all(0.5 < float(row[4]) <= 1 and float(row[-1].strip(" |")) < 5 for row in rows)
    assert sum(line.startswith("  breast_cancer seed ") for line in out) == 2 * len(rows)
