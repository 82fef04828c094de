"""benchmarks/bench_thresholds.py: one fit of one arm, and the paired differences of the summary."""

from argparse import Namespace

import numpy as np
import pandas as pd
import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_thresholds") as module:
        yield module


def test_one_fit_reports_features_and_scores(bench):
    args = Namespace(splits=5, seed=0, max_train=100, max_complexity=3, num_starts=1, num_iterations=30)
    rows = [bench.fit_one("parkinsons", 0, arm, args) for arm in ("quantile:10", "tree:4")]
    assert [row["arm"] for row in rows] == ["quantile:10", "tree:4"]
    assert all(0 <= row["test_ba"] <= 1 and row["complexity"] <= 3 for row in rows)
    assert rows[1]["features"] < rows[0]["features"]  # at most 3 cuts a column against 9 quantiles


def test_differences_are_paired_with_the_first_arm_on_the_same_split(bench):
    frame = pd.DataFrame([
        {"dataset": "d", "split": s, "arm": arm, "features": 10, "seconds": 1.0, "complexity": 3,
         "train_ba": train, "test_ba": test}
        for s, arm, train, test in [(0, "q", 0.8, 0.70), (0, "t", 0.9, 0.75), (1, "q", 0.6, 0.60), (1, "t", 0.6, 0.68),
                                    (2, "q", 0.7, 0.70), (2, "t", 0.8, 0.76)]])
    summary = bench.summary(frame)
    assert summary.loc[("d", "t"), "d_test"] == pytest.approx(0.0633, abs=1e-4)  # mean of 0.05, 0.08, 0.06
    assert summary.loc[("d", "t"), "se_d_test"] == pytest.approx(np.std([0.05, 0.08, 0.06], ddof=1) / np.sqrt(3),
                                                                 abs=1e-4)
    assert summary.loc[("d", "q"), "d_test"] == 0 and summary.loc[("d", "t"), "splits"] == 3
    assert "| d | t |" in bench.markdown(summary)


def test_pooled_runs_keep_their_splits_apart(bench, tmp_path):
    rows = [{"dataset": "d", "split": 0, "arm": arm, "features": 10, "seconds": 1.0, "complexity": 3,
             "train_ba": 0.8, "test_ba": test} for arm, test in (("q", 0.7), ("t", 0.8))]
    paths = [tmp_path / "a.csv", tmp_path / "b.csv"]
    pd.DataFrame(rows).to_csv(paths[0], index=False)
    pd.DataFrame(rows).assign(test_ba=[0.7, 0.6]).to_csv(paths[1], index=False)
    summary = bench.summary(bench.pool(paths))
    assert summary.loc[("d", "t"), "splits"] == 2 and summary.loc[("d", "t"), "d_test"] == pytest.approx(0.0)
