"""benchmarks/bench_stress.py on a small slice of Direct Marketing: both fits measured and reported."""

import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_stress") as module:
        yield module


SMALL = ["--max-rows", "2000", "--num-starts", "2", "--num-iterations", "40", "--time-limit", "0.2"]


@pytest.mark.slow  # a benchmark script's own run
def test_small_slice_reports_both_fits_with_sensible_numbers(bench, tmp_path, capsys):
    output = tmp_path / "stress.md"
    rows = bench.main([*SMALL, "--n-jobs", "1", "--tracemalloc", "--output", str(output)])
    assert [r["moves"] for r in rows] == ["local", "+ non-local (highs)"]
    for row in rows:
        assert row["wall"] > 0 and row["cpu"] > 0 and row["self_cpu"] > 0
        assert row["main_peak"] > 10 * bench.MB and row["traced_peak"] > 0
        assert row["num_workers"] == 0  # one process: no workers
        assert 0 <= row["test"] <= 1 and 0 <= row["train"] <= 1
        assert 1 <= row["complexity"] <= 10 and row["rule"]
    assert rows[0]["stats"] is None
    stats = rows[1]["stats"]
    assert stats.calls > 0 and stats.proposed + stats.nothing + stats.failed == stats.calls

    text = output.read_text()
    assert text == capsys.readouterr().out  # the file is exactly what was printed
    assert "bench_stress.py --max-rows 2000" in text and "load average" in text
    assert "2000 rows (1400 train / 600 test" in text
    table = [line for line in text.splitlines() if line.startswith(("| local |", "| + non-local"))]
    assert len(table) == 4  # the measurements table and the rules table, one row per fit each
    header = next(line for line in text.splitlines() if line.startswith("| moves | wall s"))
    assert len(table[0].split("|")) == len(header.split("|"))
    wall, cpu_ratio = float(table[1].split("|")[2]), float(table[1].split("|")[4])
    assert wall > 0 and cpu_ratio > 0


@pytest.mark.slow  # starts a fresh pool of worker processes and reaps it
def test_joblib_workers_cpu_and_memory_are_counted(bench):
    (row,) = bench.main([*SMALL, "--n-jobs", "2", "--modes", "local"])
    assert row["workers_cpu"] > 0  # the workers were reaped, so RUSAGE_CHILDREN holds their CPU time
    assert row["cpu"] == pytest.approx(row["self_cpu"] + row["workers_cpu"])
    if bench.psutil is not None:
        assert row["num_workers"] == 2 and row["worker_peak"] > 10 * bench.MB
        assert row["workers_sum_peak"] >= row["worker_peak"]
    assert 0 <= row["test"] <= 1
