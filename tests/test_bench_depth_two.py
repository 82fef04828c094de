"""benchmarks/bench_depth_two.py --oracle-calls: a search's depth-two calls recorded and solved by both."""

import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_depth_two") as module:
        yield module


def test_oracle_calls_are_recorded_and_solved_by_native_and_highs(bench, capsys):
    bench.main(["--rows", "200", "--features", "6", "--noise", "0.02", "--oracle-calls", "200", "--terms", "2",
                "--seeds", "0", "--time-limit", "2", "--calls", "2"])
    out = capsys.readouterr().out
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| 0 | ")]
    assert len(rows) == 2 and all(row[2] in ("DNF", "CNF", "~DNF", "~CNF") for row in rows)
    assert "2 calls: native's objective" in out and "above on 0" in out  # 6 features: native proves each optimum
