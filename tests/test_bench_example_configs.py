"""benchmarks/bench_example_configs.py: a run of a config on a dataset reports its row, and a run that
outlasts the time-out is reported as such, not dropped."""

import pytest

from .bench_scripts import benchmark_module

pytestmark = pytest.mark.slow  # each run is a `boolrules solve` process


def rows(out: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in out.splitlines()
            if line.startswith("| exact |")]


def test_a_run_reports_the_solve_and_its_raw_sample(capsys):
    with benchmark_module("bench_example_configs") as bench:
        bench.main(["--configs", "exact", "--datasets", "credit_risk"])
    (row,) = rows(capsys.readouterr().out)
    assert row[1] == "credit_risk" and row[4] == "4x2" and row[6] == "1/1"
    assert float(row[7]) >= float(row[8].split()[0])  # the rule is no worse than the raw sample
    assert 0 <= float(row[9]) <= 1 and 0 <= float(row[10]) <= 1


def test_a_run_past_the_time_out_is_reported(capsys):
    with benchmark_module("bench_example_configs") as bench:
        bench.main(["--configs", "exact", "--datasets", "credit_risk", "--timeout", "0.01"])
    (row,) = rows(capsys.readouterr().out)
    assert row[5] == "error: > 0.01 s"
