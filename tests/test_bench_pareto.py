"""benchmarks/bench_pareto.py: its tasks give the same rows through joblib and Dask; its writers."""

import csv

import numpy as np
import pytest

from .bench_scripts import benchmark_module
from .processes import loky_pool


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_pareto") as module:
        yield module


def tiny_tasks(bench):
    # 3 bins: 66 binary features instead of 218, so the exact ILP takes ~0.3 s a split instead of ~3 s
    settings = bench.Settings(splits=2, num_starts=2, num_iterations=30, ilp_time_limit=None, num_bins=3)
    return bench.make_tasks(["parkinsons"], ["native_local", "ilp_or", "single_feature", "decision_tree",
                                            "decision_tree_nb"], settings, complexities=[3], literals=[1],
                            depths=[2], nonlocal_datasets=[])


def without_time(rows):
    """Rows in a fixed order with the wall time (the only field allowed to differ) removed."""
    rows = sorted(rows, key=lambda r: (r["classifier"], r["split"]))
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


@loky_pool
def test_joblib_and_dask_give_identical_rows(bench):
    from distributed import Client, LocalCluster
    from joblib.externals.loky import get_reusable_executor

    tasks = tiny_tasks(bench)
    assert len(tasks) == 10
    # workers started earlier in the session lack benchmarks/ on their path: start fresh ones
    get_reusable_executor().shutdown(wait=True)
    by_joblib = list(bench.run_tasks(tasks, n_jobs=2))
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        by_dask = list(bench.run_tasks(tasks, client=client))
    assert without_time(by_joblib) == without_time(by_dask)
    for row in by_joblib:
        assert set(row) == set(bench.FIELDS)
        assert 0 <= row["test_ba"] <= 1 and row["complexity"] >= 1
        assert row["n_train"] + row["n_test"] == 156  # 80% of Parkinson's 195 rows
    single = [r for r in by_joblib if r["classifier"] == "single_feature"]
    ilp = [r for r in by_joblib if r["classifier"] == "ilp_or"]
    # an Or of at most one literal, solved to optimality, is the best single literal
    assert sorted(r["train_ba"] for r in single) == pytest.approx(sorted(r["train_ba"] for r in ilp))


def test_split_rows_are_stratified_disjoint_and_prefixes_of_longer_runs(bench):
    y = np.array([0] * 60 + [1] * 40)
    for split in range(3):
        train, test = bench.split_rows(y, 3, 0, split)
        assert len(train) == 56 and len(test) == 24 and not set(train) & set(test)
        assert y[train].mean() == pytest.approx(0.4, abs=0.02)
        longer = bench.split_rows(y, 32, 0, split)
        assert np.array_equal(train, longer[0]) and np.array_equal(test, longer[1])


def fake_rows():
    rows = []
    for split, (test, complexity) in enumerate([(0.70, 3), (0.80, 5)]):
        rows.append({"dataset": "credit_risk", "split": split, "classifier": "native_local",
                     "parameter": "max_complexity", "value": 5, "train_ba": 0.9, "test_ba": test,
                     "complexity": complexity, "seconds": 1.5, "status": "", "n_train": 560, "n_test": 240,
                     "n_features": 60, "rule": "And(x0, x1)"})
    rows.append({"dataset": "breast_cancer", "split": 0, "classifier": "ilp_or", "parameter": "max_num_literals",
                 "value": 2, "train_ba": 0.9, "test_ba": 0.85, "complexity": 3, "seconds": 10.0,
                 "status": "time_limit", "n_train": 318, "n_test": 137, "n_features": 300, "rule": "Or(x0, x1)"})
    rows.append({"dataset": "breast_cancer", "split": 0, "classifier": "single_feature", "parameter": "",
                 "value": "", "train_ba": 0.88, "test_ba": 0.86, "complexity": 1, "seconds": 0.1, "status": "",
                 "n_train": 318, "n_test": 137, "n_features": 300, "rule": "x3"})
    return rows


def test_csv_round_trip_in_fixed_order(bench, tmp_path):
    rows = fake_rows()
    bench.write_csv(rows[::-1], tmp_path / "r.csv")
    with open(tmp_path / "r.csv", newline="") as f:
        assert next(csv.reader(f)) == bench.FIELDS
    back = bench.read_csv(tmp_path / "r.csv")
    # datasets in load_dataset's order, then classifiers in the script's order, then splits
    assert [(r["dataset"], r["classifier"], r["split"]) for r in back] == [
        ("breast_cancer", "ilp_or", 0), ("breast_cancer", "single_feature", 0),
        ("credit_risk", "native_local", 0), ("credit_risk", "native_local", 1)]
    assert back[2] == rows[0]


def markdown_table(text):
    """The rows of the markdown table in `text`, as dicts keyed by its column headers."""
    lines = [line.strip("|").split("|") for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0]]
    return [dict(zip(header, (cell.strip() for cell in line))) for line in lines[2:]]


def mean_and_std(cell):
    mean, std = cell.split("±")
    return float(mean), float(std)


def test_markdown_reports_mean_and_std_over_the_splits(bench, tmp_path):
    """One table row per (dataset, classifier, setting) with the mean and standard deviation of
    the fake rows of its splits, recomputed here (each fake classifier has one setting)."""
    rows = fake_rows()
    bench.write_markdown(rows, tmp_path / "r.md", header="# Title\n\nboolxai: not run")
    text = (tmp_path / "r.md").read_text()
    assert text.startswith("# Title\n\nboolxai: not run")
    table = markdown_table(text)
    assert len(table) == len({(r["dataset"], r["classifier"]) for r in rows})
    for line in table:
        group = [r for r in rows if (r["dataset"], r["classifier"]) == (line["dataset"], line["classifier"])]
        assert int(line["splits"]) == len(group)
        for column, field in (("test BA", "test_ba"), ("train BA", "train_ba"), ("complexity", "complexity")):
            values = [r[field] for r in group]
            assert mean_and_std(line[column]) == pytest.approx((np.mean(values), np.std(values)), abs=1e-4)
        assert float(line["seconds"]) == pytest.approx(np.mean([r["seconds"] for r in group]), abs=0.05)
        if line["classifier"].startswith("ilp"):
            assert int(line["ILP timeouts"]) == sum(r["status"] == "time_limit" for r in group)
    bench.write_plot(rows, tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
