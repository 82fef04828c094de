"""benchmarks/bench_planted.py: its planted rules, their variants, and a tiny budgeted run."""

import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_planted") as module:
        yield module


def test_depth_two_rules_get_depth_two_moves_on_a_backend_that_takes_them(bench):
    assert bench.variants(bench.PLANTED["AtLeast3 of 5"])["+ non-local"]["nonlocal_backend"] == "native"
    for name in ("DNF", "CNF", "DNF3", "CNF3"):
        moves = bench.variants(bench.PLANTED[name])["+ non-local"]
        assert moves["nonlocal_backend"] == "native" and {"DNF", "CNF"} <= set(moves["nonlocal_operators"])
    assert bench.PLANTED["DNF3"].complexity == bench.PLANTED["CNF3"].complexity == 11


def test_a_tiny_run_reports_both_variants_within_its_budget(bench, capsys):
    bench.main(["--problems", "DNF", "--seeds", "0", "--budget", "0.5", "--num-starts", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| DNF |")]
    assert [row.split(" | ")[1] for row in rows] == ["local", "+ non-local"]
    assert all(row.split(" | ")[2] in ("0/1", "1/1") and float(row.split(" | ")[-1].strip(" |")) < 5 for row in rows)


def test_oracles_policies_and_quench_make_one_variant_each(bench):
    found = bench.variants(bench.PLANTED["DNF"], oracles=("native", "highs+shapes"), policies=("random", "sweep"),
                           no_quench=True)
    assert len(found) == 2 * (1 + 2 * 2)
    assert found["+ non-local native, sweep"] == {"nonlocal_backend": "native", "nonlocal_policy": "sweep"}
    assert found["+ non-local highs+shapes, random, no quench"]["quench"] is False
    assert found["local, no quench"] == {"quench": False}
