"""benchmarks/bench_oracle_stages.py: replayed oracle calls are the recorded ones, and a tiny run
reports every config."""

import pytest

from boolrules.backends import get_backend

from .bench_scripts import benchmark_module


@pytest.mark.slow  # a benchmark script's own run
def test_a_replayed_call_asks_the_same_question_and_a_tiny_run_reports_every_config(capsys):
    with benchmark_module("bench_oracle_stages") as bench:
        calls = bench.record("breast_cancer", 200, 0, 3, max_samples=20)  # rows drawn by the oracle's generator
        assert len(calls) == 3
        native = bench.Keeping(get_backend("native"))
        for call in calls:  # the same rows, the same backend: the search's own answer
            assert bench.replay(call, native)["move"] == call["answer"]
        rows = bench.main(["--datasets", "breast_cancer", "--iterations", "60", "--calls", "1", "--reads", "2"])
    assert set(rows) == set(bench.CONFIGS) and all(len(found) == 1 for found in rows.values())
    assert not rows["minimal:noeta:calibrated+polish"][0]["raw"] or rows["minimal:noeta:calibrated+polish"][0][
        "raw_feasible"]
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "|---" not in line]
    assert [line.split(" | ")[0].strip("| ") for line in table[1:]] == list(bench.CONFIGS)
