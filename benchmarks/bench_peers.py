"""Peer benchmark (issue 14): test balanced accuracy against complexity, boolrules against
scikit-learn trees and published rule learners, on the paper's eight datasets.

Protocol: each dataset is split 80/20 into in-sample and out-of-sample data as in
`bench_pareto.py` (the out-of-sample part is not used), and the in-sample data `--splits` times
(default 3) into stratified 70/30 train/test sets. The training set is subsampled (stratified) to
at most `--max-train` rows (default 3000) and the test set to at most `--max-test` rows, the same
rows for every method. `QuantileBinarizer` (this branch's defaults) is fitted on the training
set and applied to the test set, so every method sees the same binary features. Per split:

- rule_cv: `RuleClassifierCV` (complexities 3, 5, ..., 15, 3 folds, one-standard-error rule);
- rule_mc{c}: `RuleClassifier(max_complexity=c)` for c in `--complexities` (3 5 7 10 15);
  every boolrules fit (each fold's and each refit) gets `--num-starts` 4 starts of at most
  `--num-iterations` 1000 iterations and a `--time-budget` of 2 s;
- tree: sklearn's `DecisionTreeClassifier(max_depth=d, class_weight="balanced")`, d = 1..4;
- the peers, run by `peers_runner.py` in their own environment (`--peers-python`): RIPPER
  (wittgenstein), FIGS, GreedyRuleList and OneR (imodels); see that file for their settings.

Complexity as in the paper: operators + literals of the rule (`rule_`, the canonical form); split
nodes for trees and FIGS; conditions + rules for rule sets and lists. `seconds` is the wall time of
one fit (for rule_cv, the whole cross-validation and refit).

The peers' environment (their pins conflict with the project's; they are not its dependencies),
CORELS (corels 1.1.29 does not build with numpy 2) and aix360's BRCG are not in it:

    python3 -m venv /work/peers-venv
    /work/peers-venv/bin/pip install imodels wittgenstein six pandas scikit-learn

Run (about 20 minutes on two busy cores; `python` is the project's .venv/bin/python):

    python benchmarks/bench_peers.py --peers-python /work/peers-venv/bin/python

It writes `results/peers.csv` (one row per fit), `results/peers.md` (mean ± std over
the splits per method and setting, and per dataset whether rule_cv is dominated and by what) and
`results/peers.png` (one Pareto panel per dataset); `--out` changes the path and stem.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_pareto import split_rows
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from boolrules import QuantileBinarizer, RuleClassifier, RuleClassifierCV, load_dataset
from boolrules.baselines import decision_tree_complexity
from boolrules.datasets import DATASETS

RUNNER = Path(__file__).with_name("peers_runner.py")
RESULTS = Path(__file__).with_name("results")
CV_COMPLEXITIES = (3, 5, 7, 9, 11, 13, 15)


def _cap(rows, y, most, seed):
    """At most `most` of `rows`, stratified by `y`."""
    if len(rows) <= most:
        return rows
    kept, _ = train_test_split(rows, train_size=most, stratify=y[rows], random_state=seed)
    return np.sort(kept)


def _row(method, setting, model_complexity, y_train, train_pred, y_test, test_pred, seconds):
    return {"method": method, "setting": setting, "complexity": model_complexity,
            "train_ba": balanced_accuracy_score(y_train, train_pred), "test_ba": balanced_accuracy_score(y_test, test_pred),
            "seconds": seconds, "status": "ok"}


def _boolrules(X_train, y_train, X_test, y_test, args, seed):
    common = {"num_starts": args.num_starts, "num_iterations": args.num_iterations, "time_budget": args.time_budget,
              "binarizer": None}
    fits = [("rule_cv", "one_se", RuleClassifierCV(complexities=CV_COMPLEXITIES, cv=3, n_jobs=args.n_jobs,
                                                    random_state=seed, **common))]
    fits += [(f"rule_mc{c}", f"max_complexity={c}", RuleClassifier(max_complexity=c, random_state=seed, **common))
             for c in args.complexities]
    rows = []
    for method, setting, model in fits:
        start = time.perf_counter()
        model.fit(X_train, y_train)
        seconds = time.perf_counter() - start
        chosen = model.max_complexity_ if method == "rule_cv" else None
        rows.append(_row(method, setting, model.rule_.complexity, y_train, model.predict(X_train), y_test,
                         model.predict(X_test), seconds) | {"rule": model.rule_text_, "chosen": chosen})
    return rows


def _trees(X_train, y_train, X_test, y_test, seed):
    rows = []
    for depth in (1, 2, 3, 4):
        tree = DecisionTreeClassifier(max_depth=depth, class_weight="balanced", random_state=seed)
        start = time.perf_counter()
        tree.fit(X_train, y_train)
        rows.append(_row(f"tree_d{depth}", f"max_depth={depth}", decision_tree_complexity(tree), y_train,
                         tree.predict(X_train), y_test, tree.predict(X_test), time.perf_counter() - start))
    return rows


def _peers(python, X_train, y_train, X_test, y_test, seed):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "split.npz")
        np.savez(path, X_train=X_train, y_train=y_train, X_test=X_test, y_test=y_test)
        out = subprocess.run([python, str(RUNNER), "--data", str(path), "--seed", str(seed)],
                             capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_split(name, split, args):
    data = load_dataset(name, data_dir=args.data_dir)
    train, test = split_rows(data.y, args.max_splits, args.seed, split)
    train, test = _cap(train, data.y, args.max_train, args.seed), _cap(test, data.y, args.max_test, args.seed)
    binarizer = QuantileBinarizer().fit(data.raw.iloc[train])
    X_train, X_test = binarizer.transform(data.raw.iloc[train]), binarizer.transform(data.raw.iloc[test])
    y_train, y_test = data.y[train], data.y[test]
    seed = args.seed * 1000 + split
    rows = _boolrules(X_train, y_train, X_test, y_test, args, seed) + _trees(X_train, y_train, X_test, y_test, seed)
    if args.peers_python:
        rows += _peers(args.peers_python, X_train, y_train, X_test, y_test, seed)
    return [{"dataset": name, "split": split, "n_train": len(train), "n_features": X_train.shape[1], **row}
            for row in rows]


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over the splits per dataset, method and setting (`method` becomes "method setting"
    for the peers, whose settings vary under one name)."""
    ok = frame[frame["status"] == "ok"].copy()
    peer = ~ok["method"].str.startswith(("rule_", "tree_"))
    ok.loc[peer, "method"] = ok.loc[peer, "method"] + " " + ok.loc[peer, "setting"]
    return (ok.groupby(["dataset", "method"], sort=False)
            .agg(complexity=("complexity", "mean"), complexity_std=("complexity", "std"),
                 test_ba=("test_ba", "mean"), test_ba_std=("test_ba", "std"), train_ba=("train_ba", "mean"),
                 seconds=("seconds", "mean"), splits=("split", "nunique"))
            .reset_index())


def dominated_by(table: pd.DataFrame, method: str, max_complexity: float = 15) -> dict:
    """Per dataset, the methods (mean over splits, complexity <= `max_complexity`) whose mean test
    balanced accuracy is at least `method`'s at no more complexity, one of the two strictly."""
    verdicts = {}
    for name, group in table.groupby("dataset", sort=False):
        ours = group[group["method"] == method]
        if ours.empty:
            continue
        c, s = ours["complexity"].iloc[0], ours["test_ba"].iloc[0]
        others = group[(group["method"] != method) & ~group["method"].str.startswith("rule_")
                       & (group["complexity"] <= max_complexity)]
        better = others[(others["complexity"] <= c) & (others["test_ba"] >= s)
                        & ((others["complexity"] < c) | (others["test_ba"] > s))]
        verdicts[name] = [(m, cc, ss) for m, cc, ss in better[["method", "complexity", "test_ba"]].itertuples(index=False)]
    return verdicts


def markdown(frame: pd.DataFrame, args) -> str:
    table = summary(frame)
    lines = [f"# bench_peers: {args.splits} splits, boolrules fits {args.num_starts} starts x <= {args.num_iterations} "
             f"iterations, time_budget {args.time_budget} s; train <= {args.max_train} rows", ""]
    verdicts = dominated_by(table, "rule_cv")
    lines += ["## Is RuleClassifierCV dominated (mean over splits, peers at complexity <= 15)?", "",
              "| dataset | rule_cv complexity | rule_cv test BA | dominated by |", "|---|---|---|---|"]
    for name, better in verdicts.items():
        ours = table[(table["dataset"] == name) & (table["method"] == "rule_cv")].iloc[0]
        text = ", ".join(f"{m} ({c:.1f}, {s:.3f})" for m, c, s in better) or "no one"
        lines.append(f"| {name} | {ours['complexity']:.1f} | {ours['test_ba']:.3f} | {text} |")
    lines += ["", "## All methods (mean ± std over splits)", "",
              "| dataset | method | complexity | test BA | train BA | fit s |", "|---|---|---|---|---|---|"]
    for row in table.itertuples(index=False):
        lines.append(f"| {row.dataset} | {row.method} | {row.complexity:.1f} ± {np.nan_to_num(row.complexity_std):.1f} "
                     f"| {row.test_ba:.3f} ± {np.nan_to_num(row.test_ba_std):.3f} | {row.train_ba:.3f} "
                     f"| {row.seconds:.2f} |")
    failed = frame[frame["status"] != "ok"]
    if len(failed):
        lines += ["", "## Failed fits", ""] + [f"- {r.dataset} split {r.split} {r.method} {r.setting}: {r.status}"
                                              for r in failed.itertuples(index=False)]
    chosen = frame[frame["method"] == "rule_cv"].groupby("dataset", sort=False)["chosen"]
    lines += ["", "## RuleClassifierCV's choices of max_complexity per split", ""]
    lines += [f"- {name}: {', '.join(str(int(c)) for c in values)}" for name, values in chosen]
    return "\n".join(lines) + "\n"


def plot(frame: pd.DataFrame, path: Path) -> None:
    """One panel per dataset: mean test balanced accuracy against mean complexity per method and setting."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = summary(frame)
    names = list(dict.fromkeys(table["dataset"]))
    fig, axes = plt.subplots(2, 4, figsize=(20, 9), squeeze=False)
    families = {"rule_cv": ("C3", "*", 14), "rule_mc": ("C0", "o", 6), "tree": ("C1", "s", 6), "ripper": ("C2", "^", 6),
                "figs": ("C4", "v", 6), "greedy_rule_list": ("C5", "D", 5), "one_r": ("C7", "x", 6)}
    for ax, name in zip(axes.flat, names):
        group = table[(table["dataset"] == name) & (table["complexity"] <= 30)]
        for family, (color, marker, size) in families.items():
            part = group[group["method"].str.startswith(family + ("" if family.startswith(("rule_", "tree")) else " "))]
            part = part.sort_values("complexity")
            if part.empty:
                continue
            ax.errorbar(part["complexity"], part["test_ba"], yerr=part["test_ba_std"].fillna(0), color=color,
                        marker=marker, ms=size, capsize=2, lw=0.8 if family != "rule_cv" else 0, label=family)
        ax.set_title(name)
        ax.set_xlabel("complexity")
        ax.set_ylabel("test balanced accuracy")
    axes.flat[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument("--max-splits", type=int, default=32, help="the protocol's number of splits (split k is the same)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--complexities", type=int, nargs="+", default=[3, 5, 7, 10, 15])
    parser.add_argument("--num-starts", type=int, default=4)
    parser.add_argument("--num-iterations", type=int, default=1000)
    parser.add_argument("--time-budget", type=float, default=2.0)
    parser.add_argument("--max-train", type=int, default=3000)
    parser.add_argument("--max-test", type=int, default=5000)
    parser.add_argument("--n-jobs", type=int, default=None, help="joblib workers of RuleClassifierCV's folds")
    parser.add_argument("--peers-python", default=None, help="Python of the peers' virtual environment")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--out", type=Path, default=RESULTS / "peers")
    args = parser.parse_args(argv)
    rows = []
    csv = args.out.with_suffix(".csv")
    for name in args.datasets:
        for split in range(args.splits):
            start = time.perf_counter()
            rows += run_split(name, split, args)
            pd.DataFrame(rows).to_csv(csv, index=False)
            print(f"{name} split {split}: {time.perf_counter() - start:.1f} s", flush=True)
    frame = pd.DataFrame(rows)
    args.out.with_suffix(".md").write_text(markdown(frame, args))
    plot(frame, args.out.with_suffix(".png"))
    print(args.out.with_suffix(".md").read_text())


if __name__ == "__main__":
    main()
