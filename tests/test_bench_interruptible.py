"""benchmarks/bench_interruptible.py on a few problems HiGHS solves well within its time limit:
both ways of running it agree."""

from boolrules.formulations import solve

from .bench_scripts import benchmark_module


def test_both_highs_runs_are_timed_and_agree(tmp_path):
    interruptible = solve._run_interruptibly
    with benchmark_module("bench_interruptible") as bench:
        output = tmp_path / "out.md"
        text = bench.main(["--operators", "Or", "And", "--problems-per-operator", "2", "--repeats", "1",
                           "--time-limit", "60", "--output", str(output)])
    assert solve._run_interruptibly is interruptible  # the benchmark puts it back
    assert "| blocking run() |" in text and "| interruptible |" in text
    assert "same objective on 4 of 4 problems" in text  # solved to optimality both ways
    assert output.read_text() == text
