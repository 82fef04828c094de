"""benchmarks/bench_peers.py: one split end to end without peers, and its domination verdict."""

import pandas as pd
import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_peers") as module:
        yield module


def test_one_split_gives_boolrules_and_tree_rows(bench, tmp_path):
    args = bench.main.__globals__["argparse"].Namespace(
        data_dir=None, max_splits=32, seed=0, max_train=100, max_test=200, complexities=[3], num_starts=1,
        num_iterations=50, time_budget=1.0, n_jobs=None, peers_python=None)
    rows = bench.run_split("parkinsons", 0, args)
    assert [r["method"] for r in rows] == ["rule_cv", "rule_mc3", "tree_d1", "tree_d2", "tree_d3", "tree_d4"]
    assert all(0 <= r["test_ba"] <= 1 and r["n_train"] == 100 for r in rows)
    assert rows[0]["chosen"] in bench.CV_COMPLEXITIES and rows[0]["complexity"] <= rows[0]["chosen"]


def test_domination_needs_no_more_complexity_and_no_less_accuracy(bench):
    rows = [("rule_cv", 5, 0.90), ("tree_d1", 1, 0.85), ("tree_d2", 3, 0.90), ("tree_d3", 7, 0.95),
            ("figs max_rules=5", 5, 0.90), ("rule_mc3", 3, 0.99), ("ripper max_rules=9", 20, 0.99)]
    frame = pd.DataFrame([{"dataset": "d", "split": 0, "method": m, "setting": "", "complexity": c, "test_ba": s,
                           "train_ba": s, "seconds": 0.0, "status": "ok"} for m, c, s in rows])
    frame.loc[frame["method"].str.contains(" "), "method"] = frame["method"].str.split(" ").str[0]
    frame.loc[frame["method"] == "figs", "setting"] = "max_rules=5"
    frame.loc[frame["method"] == "ripper", "setting"] = "max_rules=9"
    verdict = bench.dominated_by(bench.summary(frame), "rule_cv")
    assert [m for m, _, _ in verdict["d"]] == ["tree_d2"]  # equal FIGS is no domination; rule_mc* and >15 ignored
