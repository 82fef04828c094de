"""benchmarks/bench_cv.py: one fit of one split, and the time ratio of the summary."""

import pandas as pd
import pytest

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_cv") as module:
        yield module


def test_one_fit_reports_time_choice_and_scores(bench):
    job = {"dataset": "parkinsons", "split": 0, "splits": 3, "seed": 0, "max_train": 100, "max_test": 0, "n_jobs": None,
           "setting": {"complexities": [3, 4, 5], "cv": 2, "num_starts": 1, "num_iterations": 50}}
    row = bench.fit_one(job)
    assert row["train_rows"] == 100 and row["chosen"] in (3, 4, 5) and 1 <= row["tried"] <= 3
    assert row["complexity"] <= row["chosen"] and row["seconds"] > 0 and 0 <= row["test_ba"] <= 1
    assert row["cpu_seconds"] > 0 and row["folds"] == 2
    repeated = bench.fit_one({**job, "setting": {**job["setting"], "cv_repeats": 2, "cv_folds": 3}})
    assert repeated["folds"] == 6 and repeated["chosen"] in (3, 4, 5)
    assert 0 <= row["cv_score"] <= 1
    capped = bench.fit_one({**job, "max_test": 20})  # the test rows capped as bench_peers caps them
    assert capped["test_rows"] == 20 < row["test_rows"] and capped["chosen"] == row["chosen"]
    coarse = bench.fit_one({**job, "setting": {**job["setting"], "num_bins": 4}})
    assert coarse["features"] < row["features"]  # 4 quantiles a column instead of the default 10 (100 rows)
    tree = bench.fit_one({**job, "setting": {**job["setting"], "thresholds": "tree"}})
    assert tree["chosen"] in (3, 4, 5) and tree["cv_score"] != row["cv_score"]  # other features, other folds' scores
    coarse_tree = bench.fit_one({**job, "setting": {**job["setting"], "thresholds": "tree", "num_bins": 4}})
    assert coarse_tree["cv_score"] != tree["cv_score"]  # trees of at most 4 leaves a column, not 10


def test_time_ratios_are_to_the_first_configuration_on_the_same_split(bench):
    frame = pd.DataFrame([
        {"dataset": "d", "split": s, "config": c, "seconds": t, "cpu_seconds": t, "chosen": 3, "tried": 3, "complexity": 3,
         "train_ba": 0.9, "test_ba": 0.8}
        for s, c, t in [(0, "before", 10.0), (0, "after", 2.0), (1, "before", 40.0), (1, "after", 4.0)]])
    summary = bench.summary(frame)
    assert summary.loc[("d", "after"), "time_ratio"] == pytest.approx(0.15)  # mean of 0.2 and 0.1
    assert summary.loc[("d", "before"), "time_ratio"] == 1.0
    assert "| d | after |" in bench.markdown(summary)
