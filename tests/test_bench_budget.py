"""benchmarks/bench_budget.py: a tiny run reports a fit's wall time against its budget."""

import pytest

from .bench_scripts import benchmark_module


@pytest.mark.slow  # each fit in a fresh Python process
def test_a_tiny_run_reports_wall_time_against_the_budget(capsys):
    with benchmark_module("bench_budget") as bench:
        bench.main(["--budgets", "0.5", "--n-jobs", "1", "--backends", "none", "--num-starts", "2"])
    out = capsys.readouterr().out.splitlines()
    rows = [line.split(" | ") for line in out if line.startswith("| 0.5 |")]
    assert len(rows) == 1 and rows[0][2] == "none"
    wall, fit_seconds, ratio = (float(cell) for cell in rows[0][3:6])
    # the wall printed to 2 decimals (within 0.005 s: 0.01 of the ratio), the ratio to 3 (within 0.0005)
    assert fit_seconds <= wall and ratio == pytest.approx(wall / 0.5, abs=0.0105 + 1e-9)
    assert any(line.startswith("worst wall / budget:") for line in out)
