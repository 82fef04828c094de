"""benchmarks/bench_export_trial.py: files exported by `boolrules export`, solved by outside tools and
decoded by `boolrules decode`, compared with HiGHS's optimum of the same options."""

import pytest

from .bench_scripts import benchmark_module

pytestmark = pytest.mark.slow  # `boolrules` processes for each format


def test_outside_solutions_decode_and_the_model_files_reach_the_optimum(capsys):
    with benchmark_module("bench_export_trial") as bench:
        bench.main(["--formats", "bqm", "mps", "--max-samples", "16", "--max-features", "3", "--reads", "20"])
    cells = [[cell.strip() for cell in line.strip().strip("|").split("|")]
             for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    rows = {row[0]: row for row in cells}
    assert set(rows) == {"format", "bqm", "mps"}
    for fmt in ("bqm", "mps"):
        assert "refused" not in " ".join(rows[fmt]), rows[fmt]
    assert rows["mps"][4] == rows["mps"][5] == f"{float(rows['mps'][6]):.4g} (optimal)"  # HiGHS's own optimum
    assert rows["bqm"][3] == "20/20"  # a tiny QUBO: every annealed sample is a valid rule
