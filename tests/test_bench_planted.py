"""benchmarks/bench_planted.py: its planted rules, their variants, and a tiny budgeted run."""

import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_planted") as module:
        yield module


def test_depth_two_rules_get_depth_two_moves_on_a_backend_that_takes_them(bench):
    assert bench.variants(bench.PLANTED["AtLeast3 of 5"])["+ non-local"]["nonlocal_backend"] == "native"
    for name in ("DNF", "CNF"):
        moves = bench.variants(bench.PLANTED[name])["+ non-local"]
        assert moves["nonlocal_backend"] == "highs" and name in moves["nonlocal_operators"]


def test_a_tiny_run_reports_both_variants_within_its_budget(bench, capsys):
    bench.main(["--problems", "DNF", "--seeds", "0", "--budget", "0.5", "--num-starts", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| DNF |")]
    assert [row.split(" | ")[1] for row in rows] == ["local", "+ non-local"]
    assert all(row.split(" | ")[2] in ("0/1", "1/1") and float(row.split(" | ")[-1].strip(" |")) < 5 for row in rows)
