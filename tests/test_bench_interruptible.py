"""benchmarks/bench_interruptible.py on a few problems HiGHS solves well within its time limit:
both ways of running it agree."""

import pytest

from boolrules.backends import highs

from .bench_scripts import benchmark_module


@pytest.mark.slow  # a benchmark script's own run
def test_both_highs_runs_are_timed_and_agree(tmp_path, monkeypatch):
    runs = []
    interruptibly = highs.run_interruptibly
    monkeypatch.setattr(highs, "run_interruptibly", lambda solver: runs.append(solver) or interruptibly(solver))
    with benchmark_module("bench_interruptible") as bench:
        output = tmp_path / "out.md"
        text = bench.main(["--operators", "Or", "And", "--problems-per-operator", "1", "--repeats", "1",
                           "--time-limit", "60", "--output", str(output)])
    assert len(runs) == 2  # the interruptible way ran each problem through it, the blocking way did not
    assert "| blocking run() |" in text and "| interruptible |" in text
    assert "same objective on 2 of 2 problems" in text  # solved to optimality both ways
    assert output.read_text() == text
