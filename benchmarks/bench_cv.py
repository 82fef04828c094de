"""How long `RuleClassifierCV` takes with its defaults, and what it gives up for it (issue 25 item 3).

Protocol: each dataset is split as in `bench_peers.py` (80/20 in/out of sample, then the in-sample
rows `--splits` times 70/30 stratified, `bench_pareto.split_rows`); the training set is subsampled
(stratified) to at most `--max-train` rows and the test set to at most `--max-test` rows (as in
`bench_peers.py`, whose `--rule-cv-from` then pairs these rows with the peers' row for row; 0: the whole
test split, as the runs recorded before stop 44 scored Direct Marketing and Credit Card Default).
`QuantileBinarizer` is fitted on the training rows.
Every (source, setting) pair fits `RuleClassifierCV(n_jobs=--n-jobs, random_state=split seed,
**setting)` on the same split, each in a fresh process (so each pays for starting its joblib
workers, as a user's first fit does), one after another within a split so that they see the same
load on a shared machine. A source is a `src` directory to import boolrules from (e.g. an export of
an older commit); a setting is a name and JSON keyword arguments (`"cv_repeats": R`, with `"cv_folds"`
(default 5), stands for `cv=RepeatedStratifiedKFold(...)` seeded by the split; `"thresholds": T` fits on the
raw columns with `binarizer=QuantileBinarizer(thresholds=T)` (at `"num_bins": N`, default 10, or "auto"),
which the CV fits per fold when it learns from the labels). Otherwise the training rows are binarized as
`RuleClassifierCV`'s default binarizer does (`QuantileBinarizer(num_bins="auto")`), or with `"num_bins": N` at
N quantiles (`"rice"`: max(10, ceil(2 n^(1/3))) for n training rows, the Rice rule of histogram bins).

    git archive <before-commit> src | tar -x -C /tmp/before
    python benchmarks/bench_cv.py --source before=/tmp/before/src --setting before:default={} \\
        --setting after:default={}

Prints one markdown table per fit and then per (dataset, source:setting) the means over the
splits: wall seconds of the fit (cross-validation and refit), its CPU seconds (the process and its
joblib workers, their start included: on a shared machine, half of it is about what two quiet cores
would take), chosen complexity, candidates tried,
training and test balanced accuracy; and each setting's time as a ratio of the first one's
measured on the same splits. `--out FILE.csv` keeps the rows.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

SRC = Path(__file__).resolve().parents[1] / "src"
DATASETS = ("parkinsons", "breast_cancer", "credit_risk", "customer_churn")


def _cpu_seconds() -> float:
    """CPU seconds of this process and its ended children (the fit's joblib workers)."""
    usages = map(resource.getrusage, (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return sum(usage.ru_utime + usage.ru_stime for usage in usages)


def fit_one(job: dict) -> dict:
    """Fit `RuleClassifierCV(**job["setting"])` on one split; the row of its measurements."""
    from bench_peers import capped_split
    from joblib.externals.loky import get_reusable_executor
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.model_selection import RepeatedStratifiedKFold

    from boolrules import QuantileBinarizer, RuleClassifierCV, load_dataset

    data = load_dataset(job["dataset"])
    train, test = capped_split(data.y, job["splits"], job["seed"], job["split"], job["max_train"], job["max_test"])
    y_train, y_test = data.y[train], data.y[test]
    seed = job["seed"] * 1000 + job["split"]
    setting = dict(job["setting"])
    if "thresholds" in setting:  # the binarizer inside the CV (a supervised one is fitted per fold)
        X_train, X_test = data.raw.iloc[train], data.raw.iloc[test]
        setting["binarizer"] = QuantileBinarizer(num_bins=setting.pop("num_bins", 10),
                                                 thresholds=setting.pop("thresholds"))
    else:  # unsupervised: fitted once on the training rows, as RuleClassifierCV's binarizer is
        num_bins = setting.pop("num_bins", "auto")
        num_bins = max(10, math.ceil(2 * len(train) ** (1 / 3))) if num_bins == "rice" else num_bins
        binarizer = QuantileBinarizer(num_bins=num_bins).fit(data.raw.iloc[train])
        X_train, X_test = binarizer.transform(data.raw.iloc[train]), binarizer.transform(data.raw.iloc[test])
    if "cv_repeats" in setting:  # repeated stratified folds, each repeat shuffled anew (JSON cannot carry a splitter)
        setting["cv"] = RepeatedStratifiedKFold(n_splits=setting.pop("cv_folds", 5), n_repeats=setting.pop("cv_repeats"),
                                                random_state=seed)
    model = RuleClassifierCV(**{"n_jobs": job["n_jobs"], "random_state": seed, "binarizer": None, **setting})
    start, cpu = time.perf_counter(), _cpu_seconds()
    model.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    get_reusable_executor().shutdown(wait=True)  # the workers' CPU counts once they have ended
    return {"seconds": seconds, "cpu_seconds": _cpu_seconds() - cpu, "chosen": int(model.max_complexity_),
            "tried": len(model.cv_results_["params"]), "folds": sum(key.startswith("split") for key in model.cv_results_),
            "complexity": model.rule_.complexity, "train_rows": len(train), "test_rows": len(test),
            "features": model.n_features_in_,
            "cv_score": float(model.cv_score_),
            "train_ba": balanced_accuracy_score(y_train, model.predict(X_train)),
            "test_ba": balanced_accuracy_score(y_test, model.predict(X_test))}


def run(job: dict, src: str) -> dict:
    """`fit_one(job)` in a fresh process importing boolrules from `src`."""
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps(job)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def markdown(frame: pd.DataFrame) -> str:
    """`frame` (index included) as a markdown table, numbers to 4 places."""
    frame = frame.reset_index() if frame.index.names[0] is not None else frame
    cells = [[f"{v:.4f}" if isinstance(v, float) else str(v) for v in row] for row in frame.itertuples(index=False)]
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells])


def keep(rows: list[dict], row: dict, out: str | None) -> None:
    """Append a measured `row`, print it, and rewrite `out` (CSV) with every row so far: a run cut
    short keeps what it measured."""
    rows.append(row)
    print(markdown(pd.DataFrame(rows[-1:])), flush=True)
    if out:
        pd.DataFrame(rows).to_csv(out, index=False)


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Means per dataset and configuration, with the time ratio to the first configuration on the same splits."""
    first = frame["config"].iloc[0]
    base = frame[frame["config"] == first].set_index(["dataset", "split"])["seconds"]
    frame = frame.assign(time_ratio=frame["seconds"].to_numpy()
                         / base.loc[list(zip(frame["dataset"], frame["split"]))].to_numpy())
    columns = ["seconds", "cpu_seconds", "time_ratio", "chosen", "tried", "complexity", "train_ba", "test_ba"]
    return frame.groupby(["dataset", "config"], sort=False)[columns].mean().round(4)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument("--first-split", type=int, default=0, help="skip the splits before this one")
    parser.add_argument("--max-train", type=int, default=3000)
    parser.add_argument("--max-test", type=int, default=5000, help="0: the whole test split")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--source", action="append", default=[], metavar="NAME=SRC",
                        help="a src directory to import boolrules from (default: this checkout's, named 'after')")
    parser.add_argument("--setting", action="append", default=[], metavar="SOURCE:NAME=JSON",
                        help="keyword arguments of RuleClassifierCV, fitted with boolrules from SOURCE")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(fit_one(json.loads(args.worker))))
        return
    sources = {"after": str(SRC), **dict(s.split("=", 1) for s in args.source)}
    settings = []
    for text in args.setting or ["after:default={}"]:
        config, setting = text.split("=", 1)
        settings.append((config, sources[config.split(":")[0]], json.loads(setting)))
    rows = []
    for split in range(args.first_split, args.splits):  # splits outside: a cut-short run has every dataset
        for dataset in args.datasets:
            for config, src, setting in settings:
                job = {"dataset": dataset, "split": split, "splits": args.splits, "seed": args.seed,
                       "max_train": args.max_train, "max_test": args.max_test, "n_jobs": args.n_jobs, "setting": setting}
                keep(rows, {"dataset": dataset, "split": split, "config": config, **run(job, src)}, args.out)
    print(markdown(summary(pd.DataFrame(rows))))


if __name__ == "__main__":
    main()
