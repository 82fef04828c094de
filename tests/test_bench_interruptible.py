"""benchmarks/bench_interruptible.py on a few problems: both ways of running HiGHS agree."""

from boolrules.formulations import solve

from .bench_scripts import benchmark_module


def test_both_highs_runs_are_timed_and_agree(tmp_path):
    interruptible = solve._run_interruptibly
    with benchmark_module("bench_interruptible") as bench:
        output = tmp_path / "out.md"
        text = bench.main(["--problems-per-operator", "1", "--repeats", "1", "--output", str(output)])
    assert solve._run_interruptibly is interruptible  # the benchmark puts it back
    assert "| blocking run() |" in text and "| interruptible |" in text
    assert "same objectives: True" in text
    assert output.read_text() == text
