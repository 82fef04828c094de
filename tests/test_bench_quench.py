"""benchmarks/bench_quench.py: a tiny run reports every variant."""

from .bench_scripts import benchmark_module


def test_a_tiny_run_reports_the_three_variants(capsys):
    with benchmark_module("bench_quench") as bench:
        bench.main(["--datasets", "breast_cancer", "--seeds", "0", "--num-starts", "2", "--iterations", "40"])
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines() if line.startswith("| breast_cancer |")]
    assert [row[1] for row in rows] == ["quench, 40 it", "no quench, 40 it", "no quench, 60 it"]
    assert all(0.5 < float(row[2]) <= 1 for row in rows)
