"""Pareto frontier (paper RQ1, Figures 13-14): balanced accuracy against rule complexity on eight datasets.

Protocol (Section 6.2): each dataset is split 80/20 (stratified) into in-sample and out-of-sample
data; the out-of-sample part is set aside and not used here. The in-sample data are split
`--splits` times (32 in the paper) into 70/30 stratified train/test sets. The quantile binarizer
(10 bins) is fitted on each training set and applied to its test set, so every classifier of a
split sees the same binary features. For every split, classifier and setting, one task fits the
classifier and records train and test balanced accuracy and the learned rule's complexity:

- native_local: `RuleClassifier`, one point per `max_complexity`;
- native_nonlocal: the same with ILP non-local moves (HiGHS, `max_samples` 100 per subproblem);
- ilp_or, ilp_atleast: `DepthOneClassifier` (HiGHS), one point per `max_num_literals`, on at most
  3000 training rows;
- single_feature: the best single literal;
- decision_tree: sklearn's tree (class_weight="balanced") on the binary features, one point per
  `max_depth`; decision_tree_nb the same on the raw columns (text columns one-hot encoded), the
  paper's "DT (NB)"; complexity = number of split nodes;
- boolxai: the published boolxai 1.0.0 (same starts/iterations as native_local, all operators,
  its redundant input check patched out), only with `--boolxai-python`, run through
  `boolxai_runner.py` in that environment.

Each task is `run_task(Task)`, a plain function of a picklable argument: tasks run through joblib
(`--n-jobs`), or on a Dask cluster with `--dask-scheduler ADDRESS`. Rows are appended to the CSV
as tasks finish; at the end the CSV is rewritten in order, and the markdown table (mean ± std over
the splits) and the plot (test balanced accuracy vs complexity, error bars = std) are written.

The paper's full protocol (`python` is the project's .venv/bin/python):
    python benchmarks/bench_pareto.py --num-starts 20 --num-iterations 2000 --ilp-time-limit 3600 \
        --complexities 3 4 5 6 7 8 9 10 11 12 13 14 15 --literals 1 2 3 4 5 6 7 8 9 10 \
        --boolxai-python /tmp/boolxai-venv/bin/python --dask-scheduler tcp://scheduler:8786
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import subprocess
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedShuffleSplit, train_test_split
from sklearn.tree import DecisionTreeClassifier

from boolrules import (
    DepthOneClassifier,
    QuantileBinarizer,
    RuleClassifier,
    load_dataset,
)
from boolrules.baselines import SingleLiteralClassifier, decision_tree_complexity
from boolrules.datasets import DATASETS

RUNNER = Path(__file__).with_name("boolxai_runner.py")
RESULTS = Path(__file__).with_name("results")

# classifier -> name of the varied parameter (None: a single point)
CLASSIFIERS = {
    "native_local": "max_complexity",
    "native_nonlocal": "max_complexity",
    "boolxai": "max_complexity",
    "ilp_or": "max_num_literals",
    "ilp_atleast": "max_num_literals",
    "single_feature": None,
    "decision_tree": "max_depth",
    "decision_tree_nb": "max_depth",
}
FIELDS = ["dataset", "split", "classifier", "parameter", "value", "train_ba", "test_ba", "complexity",
          "seconds", "status", "n_train", "n_test", "n_features", "rule"]


@dataclass(frozen=True)
class Settings:
    """Everything a task needs besides its own coordinates; shared by all tasks of a run."""

    splits: int = 32
    seed: int = 0
    num_starts: int = 10
    num_iterations: int = 500
    nonlocal_num_starts: int | None = None  # None: num_starts
    nonlocal_time_limit: float = 1.0
    nonlocal_max_samples: int = 100
    ilp_time_limit: float | None = 10.0
    ilp_max_samples: int = 3000
    num_bins: int = 10
    boolxai_python: str | None = None
    data_dir: str | None = None


@dataclass(frozen=True)
class Task:
    """One fit: `classifier` with parameter `value` on split `split` of `dataset`."""

    dataset: str
    split: int
    classifier: str
    value: int | None
    settings: Settings


@functools.cache
def _raw(name, data_dir):
    """Raw feature frame and labels of a dataset (cached per worker process)."""
    data = load_dataset(name, data_dir=data_dir, paper_layout=True)
    return data.raw, data.y


@functools.cache
def _numeric_raw(name, data_dir):
    """The raw frame with text and boolean columns one-hot encoded, for decision_tree_nb."""
    raw, _ = _raw(name, data_dir)
    return pd.get_dummies(raw, dtype=float).to_numpy(dtype=float)


def split_rows(y, splits, seed, split):
    """Row indices (train, test) of split number `split`: 80/20 in/out of sample, then 70/30.

    StratifiedShuffleSplit draws its splits one after another from one generator, so split k is
    the same whatever `splits` is: a reduced run uses the first splits of the full protocol.
    """
    in_sample, _ = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=seed)
    splitter = StratifiedShuffleSplit(n_splits=splits, test_size=0.3, random_state=seed)
    train, test = next(islice(splitter.split(in_sample, y[in_sample]), split, None))
    return in_sample[train], in_sample[test]


def _fit_boolxai(python, X_train, y_train, X_test, y_test, value, settings, seed):
    """Run boolxai_runner.py in the boolxai environment on this split; return (rule, complexity, train, test)."""
    with tempfile.TemporaryDirectory() as tmp:
        train_path, test_path = Path(tmp, "train.npz"), Path(tmp, "test.npz")
        np.savez(train_path, X=X_train, y=y_train)
        np.savez(test_path, X=X_test, y=y_test)
        cmd = [python, str(RUNNER), "--data", str(train_path), "--test-data", str(test_path),
               "--max-complexity", str(value), "--num-starts", str(settings.num_starts),
               "--num-iterations", str(settings.num_iterations), "--seed", str(seed), "--patched"]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return result["rule"], result["complexity"], result["train_balanced_accuracy"], result["test_balanced_accuracy"]


def _model(task, seed):
    """The unfitted estimator of a task (all but boolxai)."""
    s, value = task.settings, task.value
    if task.classifier in ("native_local", "native_nonlocal"):
        nonlocal_moves = task.classifier == "native_nonlocal"
        starts = s.nonlocal_num_starts if nonlocal_moves and s.nonlocal_num_starts else s.num_starts
        return RuleClassifier(
            max_complexity=value, num_starts=starts, num_iterations=s.num_iterations, random_state=seed,
            binarizer=None, nonlocal_backend="highs" if nonlocal_moves else None,
            nonlocal_time_limit=s.nonlocal_time_limit, max_samples=s.nonlocal_max_samples,
        )
    if task.classifier in ("ilp_or", "ilp_atleast"):
        return DepthOneClassifier(
            operator="Or" if task.classifier == "ilp_or" else "AtLeast", max_num_literals=value,
            time_limit=s.ilp_time_limit, max_samples=s.ilp_max_samples, random_state=seed, binarizer=None,
        )
    if task.classifier == "single_feature":
        return SingleLiteralClassifier(binarizer=None)
    if task.classifier in ("decision_tree", "decision_tree_nb"):
        return DecisionTreeClassifier(max_depth=value, class_weight="balanced", random_state=seed)
    raise ValueError(f"unknown classifier {task.classifier!r}; known: {', '.join(CLASSIFIERS)}")


def run_task(task):
    """Fit one classifier on one split; return a CSV row (a dict with the keys of FIELDS)."""
    s = task.settings
    raw, y = _raw(task.dataset, s.data_dir)
    train, test = split_rows(y, s.splits, s.seed, task.split)
    seed = s.seed + task.split
    start = time.perf_counter()
    status, rule = "", ""
    if task.classifier == "decision_tree_nb":
        X = _numeric_raw(task.dataset, s.data_dir)
        X_train, X_test = X[train], X[test]
    else:
        binarizer = QuantileBinarizer(num_bins=s.num_bins, paper_layout=True)
        X_train = binarizer.fit_transform(raw.iloc[train])
        X_test = binarizer.transform(raw.iloc[test])
    y_train, y_test = y[train], y[test]
    if task.classifier == "boolxai":
        if s.boolxai_python is None:
            raise ValueError("the boolxai classifier needs settings.boolxai_python")
        rule, complexity, train_ba, test_ba = _fit_boolxai(
            s.boolxai_python, X_train, y_train, X_test, y_test, task.value, s, seed)
    else:
        model = _model(task, seed).fit(X_train, y_train)
        train_ba = balanced_accuracy_score(y_train, model.predict(X_train))
        test_ba = balanced_accuracy_score(y_test, model.predict(X_test))
        if isinstance(model, DecisionTreeClassifier):
            complexity = decision_tree_complexity(model)
        else:
            complexity, rule = model.best_rule_.complexity, str(model.best_rule_)
        if isinstance(model, DepthOneClassifier):
            status = model.result_.status
    return {
        "dataset": task.dataset, "split": task.split, "classifier": task.classifier,
        "parameter": CLASSIFIERS[task.classifier] or "", "value": "" if task.value is None else task.value,
        "train_ba": float(train_ba), "test_ba": float(test_ba), "complexity": int(complexity),
        "seconds": round(time.perf_counter() - start, 3), "status": status, "n_train": len(train),
        "n_test": len(test), "n_features": X_train.shape[1], "rule": rule,
    }


def make_tasks(datasets, classifiers, settings, complexities, literals, depths, nonlocal_datasets):
    """All tasks of a run, the slow kinds first so that the last tasks to finish are short ones."""
    values = {"max_complexity": complexities, "max_num_literals": literals, "max_depth": depths, None: [None]}
    order = ["native_nonlocal", "boolxai", "ilp_atleast", "ilp_or", "native_local",
             "decision_tree", "decision_tree_nb", "single_feature"]
    tasks = []
    for classifier in sorted(classifiers, key=order.index):
        for dataset in datasets:
            if classifier == "native_nonlocal" and dataset not in nonlocal_datasets:
                continue
            for value in values[CLASSIFIERS[classifier]]:
                tasks.extend(Task(dataset, split, classifier, value, settings) for split in range(settings.splits))
    return tasks


def run_tasks(tasks, n_jobs=1, client=None):
    """Yield the rows of `tasks` as they finish: on a Dask `client` if given, else through joblib.

    Workers unpickle the tasks by importing this module as `bench_pareto`: joblib's workers find it
    on the parent's `sys.path`; Dask workers need it uploaded (`Client.upload_file`, as `main` does).
    """
    if client is not None:
        from distributed import as_completed

        yield from (future.result() for future in as_completed(client.map(run_task, tasks, pure=False)))
        return
    from joblib import Parallel, delayed

    yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(delayed(run_task)(t) for t in tasks)


def _sort_key(row):
    return (DATASETS.index(row["dataset"]), list(CLASSIFIERS).index(row["classifier"]),
            float(row["value"]) if row["value"] != "" else 0.0, int(row["split"]))


def write_csv(rows, path):
    """One row per task, in a fixed order (dataset, classifier, value, split)."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(sorted(rows, key=_sort_key))


def read_csv(path):
    """Rows of a CSV written by `write_csv` (numbers parsed)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in ("train_ba", "test_ba", "seconds"):
            row[key] = float(row[key])
        for key in ("split", "complexity", "n_train", "n_test", "n_features"):
            row[key] = int(row[key])
        row["value"] = int(row["value"]) if row["value"] != "" else ""
    return rows


def summarize(rows):
    """Per (dataset, classifier, value): splits, mean/std of test and train BA and complexity, mean seconds."""
    groups = defaultdict(list)
    for row in sorted(rows, key=_sort_key):
        groups[row["dataset"], row["classifier"], row["value"]].append(row)
    summary = []
    for (dataset, classifier, value), group in groups.items():
        col = {key: np.array([r[key] for r in group], dtype=float)
               for key in ("test_ba", "train_ba", "complexity", "seconds")}
        summary.append({
            "dataset": dataset, "classifier": classifier, "parameter": group[0]["parameter"], "value": value,
            "splits": len(group), "timed_out": sum(r["status"] == "time_limit" for r in group),
            **{f"{key}_mean": float(v.mean()) for key, v in col.items()},
            **{f"{key}_std": float(v.std()) for key, v in col.items()},
        })
    return summary


def write_markdown(rows, path, header=""):
    """The summary table (mean ± std over the splits actually run), after a free-text `header`."""
    summary = summarize(rows)
    splits = sorted({s["splits"] for s in summary})
    lines = [header.rstrip(), ""] if header else []
    lines += [
        (f"Splits actually used per point: {', '.join(map(str, splits)) or 'none'} ({len(rows)} tasks). "
         "Mean ± standard deviation over the splits; BA = balanced accuracy; complexity = rule complexity "
         "(trees: split nodes); seconds = mean wall time of a task on the machine as loaded; "
         "`ILP timeouts` = splits whose ILP hit its time limit (the incumbent rule is used)."),
        "",
        "| dataset | classifier | setting | splits | test BA | train BA | complexity | seconds | ILP timeouts |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summary:
        setting = f"{s['parameter']}={s['value']}" if s["parameter"] else "-"
        timeouts = str(s["timed_out"]) if s["classifier"].startswith("ilp") else ""
        lines.append(
            f"| {s['dataset']} | {s['classifier']} | {setting} | {s['splits']} | "
            f"{s['test_ba_mean']:.4f} ± {s['test_ba_std']:.4f} | {s['train_ba_mean']:.4f} ± {s['train_ba_std']:.4f} | "
            f"{s['complexity_mean']:.2f} ± {s['complexity_std']:.2f} | {s['seconds_mean']:.1f} | {timeouts} |")
    Path(path).write_text("\n".join(lines) + "\n")


def write_plot(rows, path):
    """Test balanced accuracy vs complexity per dataset: one line per classifier, error bars = std.

    Each setting is drawn at its mean complexity over the splits (the table has the spread).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from boolrules.plotting import plot_pareto

    summary = {(s["dataset"], s["classifier"], s["value"]): s["complexity_mean"] for s in summarize(rows)}
    datasets = [d for d in DATASETS if any(r["dataset"] == d for r in rows)]
    ncols = min(4, len(datasets))
    nrows = -(-len(datasets) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.6 * nrows), squeeze=False)
    palette = plt.get_cmap("tab10").colors
    for ax, dataset in zip(axes.flat, datasets):
        points = [{"method": r["classifier"], "complexity": summary[dataset, r["classifier"], r["value"]],
                   "score": r["test_ba"]}
                  for r in sorted(rows, key=_sort_key) if r["dataset"] == dataset]
        methods = list(dict.fromkeys(p["method"] for p in points))  # plot_pareto draws them in this order
        ax.set_prop_cycle(color=[palette[list(CLASSIFIERS).index(m)] for m in methods])  # same colour everywhere
        plot_pareto(points, ax=ax)
        ax.get_legend().remove()
        ax.set_title(dataset)
        ax.set_xlim(0, 16)  # as in the paper, deep trees fall off the right edge
        ax.set_ylabel("test balanced accuracy")
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(datasets):]:
        ax.axis("off")
    labels = {}
    for ax in axes.flat[:len(datasets)]:
        labels.update(zip(*ax.get_legend_handles_labels()[::-1]))
    fig.legend(labels.values(), labels.keys(), loc="lower center", ncol=len(labels), frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--classifiers", nargs="+", default=[c for c in CLASSIFIERS if c != "boolxai"],
                        choices=list(CLASSIFIERS), help="boolxai is added when --boolxai-python is given")
    parser.add_argument("--splits", type=int, default=32, help="train/test splits of the in-sample data")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--complexities", type=int, nargs="+", default=[3, 5, 8, 12])
    parser.add_argument("--literals", type=int, nargs="+", default=[1, 2, 4], help="ILP max_num_literals")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3, 4], help="decision tree max_depth")
    parser.add_argument("--num-starts", type=int, default=10)
    parser.add_argument("--num-iterations", type=int, default=500)
    parser.add_argument("--nonlocal-num-starts", type=int, default=None,
                        help="starts of native_nonlocal (default: --num-starts); its fits are the slowest")
    parser.add_argument("--nonlocal-time-limit", type=float, default=1.0)
    parser.add_argument("--nonlocal-datasets", nargs="+", default=list(DATASETS), choices=DATASETS,
                        help="datasets on which native_nonlocal runs")
    parser.add_argument("--ilp-time-limit", type=float, default=10.0, help="seconds per ILP (paper: 3600)")
    parser.add_argument("--boolxai-python", default=None, help="python of a venv with boolxai==1.0.0")
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers")
    parser.add_argument("--dask-scheduler", default=None, help="run the tasks on this Dask scheduler instead")
    parser.add_argument("--data-dir", default=None, help="folder of the dataset files (see load_dataset)")
    parser.add_argument("--out", default=str(RESULTS), help="folder for pareto_frontier.csv, .md and .png")
    parser.add_argument("--note", default="", help="text put at the top of the markdown (e.g. what was reduced)")
    parser.add_argument("--quick", action="store_true",
                        help="tiny run: 2 splits of parkinsons, complexities 3 5, 2 x 50 iterations, 1 literal")
    args = parser.parse_args(argv)
    if args.quick:
        args.datasets, args.nonlocal_datasets, args.splits = ["parkinsons"], ["parkinsons"], 2
        args.complexities, args.literals, args.depths = [3, 5], [1, 2], [1, 2]
        args.num_starts, args.num_iterations, args.nonlocal_time_limit, args.ilp_time_limit = 2, 50, 0.2, 5.0
    if args.boolxai_python is not None and "boolxai" not in args.classifiers:
        args.classifiers.append("boolxai")
    if args.boolxai_python is None and "boolxai" in args.classifiers:
        parser.error("the boolxai classifier needs --boolxai-python")
    return args


def describe(args, settings, seconds):
    """The markdown header: the command's settings, what did not run, and the wall time."""
    lines = ["# Pareto frontier: test balanced accuracy vs complexity (paper Figures 13-14)", ""]
    if args.note:
        lines += [args.note, ""]
    lines += [
        (f"- datasets: {', '.join(args.datasets)}; splits: {settings.splits} (paper: 32), seed {settings.seed}; "
         "80/20 in/out of sample, then 70/30 train/test of the in-sample data; binarizer fitted per training set"),
        f"- native_local / native_nonlocal: max_complexity {args.complexities}, {settings.num_starts} starts x "
        f"{settings.num_iterations} iterations (paper: 20 x 2000)"
        + (f", native_nonlocal {settings.nonlocal_num_starts} starts" if settings.nonlocal_num_starts else "")
        + "; non-local moves: HiGHS, "
        f"{settings.nonlocal_time_limit} s per subproblem, max_samples {settings.nonlocal_max_samples}, "
        f"on {', '.join(d for d in args.datasets if d in args.nonlocal_datasets)}",
        (f"- ilp_or / ilp_atleast: max_num_literals {args.literals}, HiGHS, time limit {settings.ilp_time_limit} s "
         f"(paper: Xpress, 3600 s), at most {settings.ilp_max_samples} training rows"),
        f"- decision_tree, decision_tree_nb: max_depth {args.depths}",
        f"- classifiers: {', '.join(args.classifiers)}",
        "- boolxai: " + (f"run with {args.boolxai_python} (boolxai 1.0.0, patched input check)"
                         if "boolxai" in args.classifiers else "not run (no --boolxai-python given)"),
        f"- wall time {seconds / 60:.1f} min; "
        + (f"Dask scheduler {args.dask_scheduler}" if args.dask_scheduler else f"joblib, n_jobs={args.n_jobs}"),
    ]
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    settings = Settings(
        splits=args.splits, seed=args.seed, num_starts=args.num_starts, num_iterations=args.num_iterations,
        nonlocal_num_starts=args.nonlocal_num_starts, nonlocal_time_limit=args.nonlocal_time_limit,
        ilp_time_limit=args.ilp_time_limit,
        boolxai_python=args.boolxai_python, data_dir=args.data_dir,
    )
    tasks = make_tasks(args.datasets, args.classifiers, settings, args.complexities, args.literals,
                       args.depths, args.nonlocal_datasets)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "pareto_frontier.csv"
    client = None
    if args.dask_scheduler:
        from distributed import Client

        client = Client(args.dask_scheduler)
        client.upload_file(__file__)  # workers import this module to unpickle the tasks
    print(f"{len(tasks)} tasks", flush=True)
    start = time.perf_counter()
    rows = []
    with open(csv_path, "w", newline="") as f:  # rows as they finish, so a cut-short run keeps them
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        for row in run_tasks(tasks, n_jobs=args.n_jobs, client=client):
            rows.append(row)
            writer.writerow(row)
            f.flush()
            print(f"[{len(rows)}/{len(tasks)} {time.perf_counter() - start:6.0f} s] {row['dataset']} "
                  f"{row['classifier']} {row['value']} split {row['split']}: test BA {row['test_ba']:.4f}, "
                  f"complexity {row['complexity']}, {row['seconds']:.1f} s", flush=True)
    if client is not None:
        client.close()
    write_csv(rows, csv_path)
    write_markdown(rows, out / "pareto_frontier.md", describe(args, settings, time.perf_counter() - start))
    write_plot(rows, out / "pareto_frontier.png")
    print((out / "pareto_frontier.md").read_text())


if __name__ == "__main__":
    import bench_pareto  # tasks then pickle by reference to a module that workers can import

    bench_pareto.main()
