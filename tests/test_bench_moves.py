"""benchmarks/bench_moves.py: its planted problems and a tiny run of the equal-time comparison."""

import numpy as np
import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_moves") as module:
        yield module


def test_planted_problems_flip_a_few_training_labels_and_keep_test_labels_clean(bench):
    rule = bench.PLANTED["planted DNF"]
    X_train, y_train, X_test, y_test = bench.planted_problem(rule, seed=3)
    assert X_train.shape == X_test.shape == (3000, 30)
    flipped = np.mean(y_train != rule.evaluate(X_train))
    assert 0.015 < flipped < 0.035
    assert np.array_equal(y_test, rule.evaluate(X_test))
    again = bench.planted_problem(rule, seed=3)
    assert np.array_equal(again[0], X_train) and not np.array_equal(bench.planted_problem(rule, seed=4)[0], X_train)


def test_a_tiny_run_reports_every_variant(bench, capsys):
    bench.main(["--problems", "planted AtLeast3", "--variants", "local", "scan 0.1", "--seeds", "0",
                "--seconds", "0.2", "--num-starts", "1"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| planted AtLeast3 |")]
    assert [row.split(" | ")[1] for row in rows] == ["local", "scan 0.1"]
    assert all(row.split(" | ")[4] in ("0/1", "1/1") for row in rows)
