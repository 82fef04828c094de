"""A fixed-complexity `RuleClassifier` against one recorded peer setting and `RuleClassifierCV()`, on the
splits of recorded `bench_peers.py` runs (issue 25: is a dataset's remaining domination the features, the
search, or the CV's choice of complexity?).

Per seed and split (as `bench_peers.py`: same rows), `RuleClassifier(max_complexity=C)` with its defaults
(the estimators' "auto" binarizer on the raw columns, 10 x 2000) is fitted on the training rows and scored
on the test rows, beside the recorded rows of the peer setting and of rule_cv on the same split.

    PYTHONPATH=src python benchmarks/experiments/fixed_against_peer.py --dataset online_shoppers --seeds 2 4 \
        --complexity 5 --peer figs_raw:max_rules=4 --out fixed_against_peer.csv
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd
from sklearn.metrics import balanced_accuracy_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_peers import RESULTS, split_data  # noqa: E402

from boolrules import RuleClassifier  # noqa: E402


def recorded(seed: int) -> pd.DataFrame:
    """The recorded run of `seed` (seed 0's is peers_paired.csv)."""
    return pd.read_csv(RESULTS / ("peers_paired.csv" if seed == 0 else f"peers_seed{seed}.csv"))


def compare(args) -> pd.DataFrame:
    method, setting = args.peer.split(":", 1)
    rows = []
    for seed in args.seeds:
        runs = recorded(seed)
        runs = runs[runs["dataset"] == args.dataset]
        split_args = argparse.Namespace(data_dir=None, max_splits=32, seed=seed, max_train=3000, max_test=5000)
        for split in sorted(runs["split"].unique()):
            d = split_data(args.dataset, split, split_args)
            clf = RuleClassifier(max_complexity=args.complexity, random_state=d["seed"])
            clf.fit(d["frame_train"], d["y_train"])
            here = runs[runs["split"] == split]
            peer = here[(here["method"] == method) & (here["setting"] == setting)].iloc[0]
            ours = here[here["method"] == "rule_cv"].iloc[0]
            rows.append({"seed": seed, "split": split, "fixed_complexity": clf.rule_.complexity,
                         "fixed_train": balanced_accuracy_score(d["y_train"], clf.predict(d["frame_train"])),
                         "fixed_test": balanced_accuracy_score(d["y_test"], clf.predict(d["frame_test"])),
                         "peer_train": peer["train_ba"], "peer_test": peer["test_ba"],
                         "rule_cv_complexity": ours["complexity"], "rule_cv_test": ours["test_ba"],
                         "rule": clf.rule_text_})
            print(seed, split, clf.rule_text_, flush=True)
    return pd.DataFrame(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--seeds", type=int, nargs="+", required=True)
    parser.add_argument("--complexity", type=int, required=True)
    parser.add_argument("--peer", required=True, help="METHOD:SETTING of the recorded runs, e.g. figs_raw:max_rules=4")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    frame = compare(args)
    if args.out:
        frame.to_csv(args.out, index=False)
    print(frame.drop(columns="rule").round(4).to_string(index=False))
    print(frame.drop(columns=["rule", "seed", "split"]).mean().round(4).to_string())


if __name__ == "__main__":
    main()
