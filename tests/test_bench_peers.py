"""benchmarks/bench_peers.py and peers_runner.py: one split end to end without the peers' environment,
the raw features, the library-default RuleClassifierCV, and the paired domination verdict."""

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from boolrules import RuleClassifierCV

from .bench_scripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    with benchmark_module("bench_peers") as module:
        yield module


def _args(**changes):
    args = dict(data_dir=None, max_splits=32, seed=0, max_train=100, max_test=200, rule_cv="tuned", complexities=[3, 4],
                num_starts=1, num_iterations=50, time_budget=1.0, n_jobs=None, peers_python=None, load=None,
                cv_peers=False)
    return argparse.Namespace(**(args | changes))


def test_one_split_gives_boolrules_and_tree_rows_on_binary_and_raw_features(bench):
    rows = bench.run_split("credit_risk", 0, _args(cv_peers=True))
    methods = [r["method"] for r in rows]
    trees = len(bench.TREE_DEPTHS) + len(bench.TREE_SPLITS)
    assert methods == ["rule_cv", "rule_mc", "rule_mc"] + ["tree"] * trees + ["tree_raw"] * trees + [
        "tree_cv", "tree_raw_cv"]
    for tuned in rows[-2:]:  # the CV-sized tree is the grid's tree at the chosen size, refitted on the same rows
        grid = {r["setting"]: r for r in rows if r["method"] == tuned["method"].removesuffix("_cv")}
        same = grid.get(f"max_leaf_nodes={tuned['chosen']}", grid["max_depth=1"])
        assert (tuned["complexity"], tuned["test_ba"]) == (same["complexity"], same["test_ba"])
    assert all(0 <= r["test_ba"] <= 1 and r["n_train"] == 100 for r in rows)
    assert rows[0]["chosen"] in bench.TUNED_COMPLEXITIES and rows[0]["complexity"] <= rows[0]["chosen"]
    assert rows[0]["n_raw_features"] > 20  # credit_risk's 13 text columns are one-hot encoded
    leaves = [r for r in rows if r["method"] == "tree_raw" and r["setting"].startswith("max_leaf_nodes")]
    assert [r["complexity"] for r in leaves] == [k for k in bench.TREE_SPLITS]  # k split nodes each: even ones too


def test_rule_cv_is_the_library_default_unless_asked(bench):
    defaults = RuleClassifierCV().get_params()
    for choice, binarizer, on_raw in (("defaults", None, False), ("raw", "auto", True)):
        model, raw = bench._rule_cv(_args(rule_cv=choice, n_jobs=2), seed=7)
        assert raw is on_raw
        assert model.get_params() == defaults | {"binarizer": binarizer, "n_jobs": 2, "random_state": 7}
    tuned, raw = bench._rule_cv(_args(), seed=7)
    assert not raw and tuned.cv == 3 and tuple(tuned.complexities) == bench.TUNED_COMPLEXITIES


def test_raw_features_pass_numbers_and_one_hot_encode_text_by_the_training_categories(bench):
    train = pd.DataFrame({"age": [30, 40, 50], "member": [True, False, True], "city": ["a", "b", "a"]})
    test = pd.DataFrame({"age": [35.5, 60], "member": [False, True], "city": ["b", "unseen"]})
    before = train.copy()
    X_train, X_test = bench.raw_features(train, test)
    np.testing.assert_array_equal(X_train, [[30, 1, 1, 0], [40, 0, 0, 1], [50, 1, 1, 0]])
    np.testing.assert_array_equal(X_test, [[35.5, 0, 0, 1], [60, 1, 0, 0]])
    pd.testing.assert_frame_equal(train, before)


def _frame(fits):
    """Per-split rows of `fits`: (dataset, method, setting, complexity, test BAs per split)."""
    return pd.DataFrame([{"dataset": d, "split": k, "method": m, "setting": s, "complexity": c, "test_ba": ba,
                          "train_ba": ba, "seconds": 0.0, "status": "ok" if np.isfinite(ba) else "failed",
                          "chosen": c}
                         for d, m, s, c, bas in fits for k, ba in enumerate(bas)])


def test_domination_is_paired_per_split_beyond_one_standard_error(bench):
    ours = np.array([0.80, 0.82, 0.84])
    frame = _frame([
        ("d", "rule_cv", "defaults", 5, ours),
        ("d", "tree", "max_depth=2", 3, ours + [0.02, 0.03, 0.01]),  # +0.02 ± 0.006: dominates
        ("d", "tree_raw", "max_depth=2", 3, ours + [0.10, -0.05, 0.01]),  # +0.02 ± 0.044: means only would say so
        ("d", "figs", "max_rules=5", 5, ours),  # equal: no domination
        ("d", "figs_raw", "max_rules=7", 7, ours + 0.1),  # more complex
        ("d", "rule_mc", "max_complexity=3", 3, ours + 0.1),  # boolrules itself is no competitor
        ("d", "ripper", "max_rules=2", 4, ours + [0.05, 0.04, np.nan]),  # failed on split 2: paired on two
        ("e", "rule_cv", "defaults", 18, ours),
        ("e", "tree", "max_depth=4", 16, ours + 0.1),  # above complexity 15
    ])
    verdict = bench.paired_verdict(frame).set_index(["dataset", "label"])
    assert set(verdict.index) == {("d", "tree max_depth=2"), ("d", "tree_raw max_depth=2"), ("d", "figs max_rules=5"),
                                  ("d", "ripper max_rules=2")}
    assert verdict.index[verdict["dominates"]].tolist() == [("d", "tree max_depth=2"), ("d", "ripper max_rules=2")]
    assert verdict.loc[("d", "tree_raw max_depth=2"), ["diff", "se"]].tolist() == pytest.approx(
        [0.02, np.std([0.10, -0.05, 0.01], ddof=1) / np.sqrt(3)])
    assert verdict.loc[("d", "ripper max_rules=2"), "n"] == 2
    text = bench.markdown(frame, _args(splits=3, rule_cv="defaults"))
    assert ("| d | 5.0 | 0.820 | ripper max_rules=2 (4.0) | +0.045 ± 0.005 | tree max_depth=2, ripper max_rules=2 |"
            in text)
    assert "| e | 18.0 | 0.820 | - | - | no one |" in text


def test_cv_sized_peers_get_their_own_table_and_no_place_among_the_fixed_settings(bench):
    ours = np.array([0.80, 0.82, 0.84])
    frame = _frame([
        ("d", "rule_cv", "defaults", 5, ours),
        ("d", "tree", "max_depth=2", 3, ours),
        ("d", "tree_cv", "cv", 4, ours + [0.02, 0.03, 0.01]),  # dominates, cross-validated against cross-validated
        ("d", "figs_raw_cv", "cv", 7, ours + 0.1),  # ahead, but larger
    ])
    assert bench.paired_verdict(frame)["label"].tolist() == ["tree max_depth=2"]
    assert bench.paired_verdict(frame, rivals=["tree_cv"])["dominates"].tolist() == [True]
    text = bench.markdown(frame, _args(splits=3, rule_cv="defaults"))
    assert "| dataset | rule_cv test BA (complexity) | tree_cv | figs_raw_cv |" in text
    assert "| d | 0.820 (5.0) | +0.020 ± 0.006 (4.0)* | +0.100 ± 0.000 (7.0) |" in text
    assert "Against the peers sized" not in bench.markdown(frame[~frame["method"].isin(bench.CV_PEERS)],
                                                             _args(splits=3, rule_cv="defaults"))


def test_peers_runner_fits_figs_on_the_raw_features_too_and_tuned_by_cv_on_request(tmp_path, capsys):
    rng = np.random.default_rng(0)
    y = np.tile([0, 1], 10)
    raw = rng.normal(size=(20, 3)) + y[:, None]
    path = tmp_path / "split.npz"
    np.savez(path, X_train=(raw > 0.5).astype(np.uint8), y_train=y, X_test=(raw > 0.5).astype(np.uint8), y_test=y,
             X_train_raw=raw, X_test_raw=raw)
    with benchmark_module("peers_runner") as runner:
        runner.main(["--data", str(path)])
        rows = json.loads(capsys.readouterr().out)
        raw_rows = [r for r in rows if r["method"] == "figs_raw"]
        assert [r["setting"] for r in raw_rows] == [f"max_rules={k}" for k in runner.FIGS_RULES]
        assert all(r["status"] == "ok" or "imodels" in r["status"] for r in raw_rows)  # imodels may be absent here
        runner.main(["--data", str(path), "--tuned"])  # FIGS sized by cross-validation instead of the grid
        tuned = json.loads(capsys.readouterr().out)
        assert [(r["method"], r["setting"]) for r in tuned] == [("figs_cv", "cv"), ("figs_raw_cv", "cv")]
        assert all(r["status"] == "ok" or "imodels" in r["status"] for r in tuned)
        np.savez(path, X_train=np.zeros((4, 1)), y_train=[0, 1, 0, 1], X_test=np.zeros((2, 1)), y_test=[0, 1])
        runner.main(["--data", str(path)])
        assert "figs_raw" not in {r["method"] for r in json.loads(capsys.readouterr().out)}


def test_rule_cv_rows_from_bench_cv_replace_the_recorded_ones_on_the_splits_they_cover(bench):
    peers = pd.DataFrame([{"dataset": "d", "split": s, "n_train": 90, "method": m, "setting": "x", "complexity": 3,
                           "train_ba": 0.8, "test_ba": 0.7, "seconds": 1.0, "status": "ok"}
                          for s in (0, 1, 2) for m in ("rule_cv", "tree")])
    cv = pd.DataFrame([{"dataset": "d", "split": s, "config": c, "complexity": 4, "chosen": 4, "train_rows": 90,
                        "train_ba": 0.9, "test_ba": t, "seconds": 2.0}
                       for s in (0, 1) for c, t in (("new", 0.75), ("old", 0.6))])
    frame = bench.substitute_rule_cv(peers, cv, "new")
    assert sorted(frame["split"].unique()) == [0, 1]
    assert (frame.loc[frame["method"] == "rule_cv", "test_ba"] == 0.75).all()
    assert (frame.loc[frame["method"] == "tree", "test_ba"] == 0.7).all() and len(frame) == 4
    # the report's header says what the loaded rows hold, not the options of the command that loads them
    header = bench.header(frame, _args(load=[Path("peers.csv")], splits=5, rule_cv="tuned"))
    assert header == "# bench_peers, loaded from peers.csv: 2 splits, rule_cv raw (bench_cv new); train <= 90 rows"


def test_rule_cv_rows_joined_by_plus_take_the_later_files_rows(bench, tmp_path):
    def cv(name, splits, test_ba):
        path = tmp_path / f"{name}.csv"
        pd.DataFrame([{"dataset": "d", "split": s, "config": name, "complexity": 4, "chosen": 4, "train_rows": 90,
                       "train_ba": 0.9, "test_ba": test_ba, "seconds": 2.0} for s in splits]).to_csv(path, index=False)
        return f"{path}:{name}"

    rows, config = bench._rule_cv_rows(cv("whole", (0, 1, 2), 0.7) + "+" + cv("capped", (1,), 0.8))
    assert config == "whole" and (rows["config"] == "whole").all()
    assert rows.set_index("split")["test_ba"].to_dict() == {0: 0.7, 1: 0.8, 2: 0.7}


def test_loaded_runs_of_two_seeds_pool_their_splits(bench, tmp_path):
    def run(seed):  # two splits a seed; the tree beats rule_cv by 0.01 on each
        rows = [{"dataset": "d", "split": s, "n_train": 90, "method": m, "setting": "x", "complexity": 3,
                 "chosen": 3, "train_ba": 0.8, "test_ba": 0.7 + 0.01 * (m == "tree") + 0.001 * s + 0.002 * seed,
                 "seconds": 1.0, "status": "ok"} for s in (0, 1) for m in ("rule_cv", "tree")]
        path = tmp_path / f"seed{seed}.csv"
        pd.DataFrame(rows).to_csv(path, index=False)
        return str(path)

    out = tmp_path / "pooled"
    bench.main(["--load", run(0), run(1), "--out", str(out)])
    report = out.with_suffix(".md").read_text()
    assert report.startswith("# bench_peers, loaded from seed0.csv, seed1.csv: 4 splits")
    assert "| d | 3.0 | 0.702 | tree x (3.0) | +0.010 ± 0.000 | tree x |" in report
    assert out.with_suffix(".png").stat().st_size > 0  # the pooled runs' plot, as a run's own
    bench.main(["--load", run(0), run(1), "--rule-cv-from", "-", "-", "--out", str(out)])  # "-": the runs' own rule_cv
    assert out.with_suffix(".md").read_text() == report
    with pytest.raises(SystemExit):
        bench.main(["--load", run(0), run(1), "--rule-cv-from", "cv.csv:auto", "--out", str(out)])
