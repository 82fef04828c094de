"""How much does issue 25's verdict tell? The peers judged as `RuleClassifierCV` is, and the verdict
under FIGS's own randomness (issue 25, a calibration of its done-when).

`bench_peers.py` calls `RuleClassifierCV()` dominated on a dataset when some fixed setting of a tree or
FIGS (about 30 of them at or below its complexity) beats it by more than one standard error of the
paired difference over 5 splits. Three checks of that test. The evaluation, given two or more seeds'
runs (`--grid`), asks whether a setting that dominates on one seed's splits still leads on the other
seeds'. Two collections fit more, per split as `bench_peers.py` (same seeds, splits and row caps):

- `--collect tuned`: the peers chosen the way `RuleClassifierCV` chooses. Trees (`max_leaf_nodes`
  2..16: 1..15 split nodes) and FIGS (`max_rules` 1..15) with their size picked by 5-fold stratified
  cross-validation on the training rows (GridSearchCV, balanced accuracy, the best mean, ties to the
  smallest), on the shared binary features and on the raw ones (`tree_cv`, `tree_raw_cv`, `figs_cv`,
  `figs_raw_cv`; FIGS in the peers' environment, `peers_runner.py --tuned`: the rows `bench_peers.py
  --cv-peers` adds to a run, here apart for recorded runs). The evaluation judges each,
  and `RuleClassifierCV()`, by `bench_peers.paired_verdict` against the recorded grid's fixed tree and
  FIGS settings on the same splits (the done-when's rivals; RIPPER and rule lists left out): could any
  cross-validated learner pass?
- `--collect draws --draws K`: FIGS's stumps break ties between features at random (imodels 3.0.4
  ignores its `random_state`; `peers_runner.py` now seeds numpy for it), so the recorded FIGS rows are
  one draw of that chance. The FIGS grid is refitted with K tie-break seeds (the split's seed + 10007 k)
  and the verdict on `RuleClassifierCV()` is recomputed with each draw's FIGS rows in place of the
  recorded ones.

    python benchmarks/experiments/verdict_calibration.py --collect tuned --seed 0 \
        --peers-python /work/peers-venv/bin/python --out tuned_seed0.csv         # and --seed 1, 2
    python benchmarks/experiments/verdict_calibration.py --collect draws --draws 5 --datasets parkinsons \
        --seed 0 --peers-python /work/peers-venv/bin/python --out draws_seed0.csv
    python benchmarks/experiments/verdict_calibration.py --grid benchmarks/results/peers_paired.csv ... \
        --rule-cv-from benchmarks/results/cv_four_starts_seed0.csv:four_starts ... \
        --tuned tuned_seed0.csv ... --draws-from draws_seed0.csv ...      # one file per seed, in seed order
                                                # (--rule-cv-from -: that run's own rule_cv)
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_peers import (DATASETS, _peers, cv_peers, cv_peers_section, load_runs, paired_verdict,  # noqa: E402
                         split_data)

CANDIDATES = ("rule_cv", "tree_cv", "tree_raw_cv", "figs_cv", "figs_raw_cv")
RIVALS = ("tree", "tree_raw", "figs", "figs_raw")  # the done-when's "tree or FIGS setting, on raw or binarized features"
DRAW_STEP = 10007


def _split_fits(kind: str, d: dict, args) -> list[dict]:
    """One split's rows: the tuned peers, or FIGS's grid at each of `args.draws` tie-break seeds."""
    peers_data = tuple(d[k] for k in ("X_train", "y_train", "X_test", "y_test", "raw_train", "raw_test"))
    if kind == "draws":
        return [row | {"draw": k} for k in range(args.draws)
                for row in _peers(args.peers_python, peers_data, d["seed"] + DRAW_STEP * k)
                if row["method"] in ("figs", "figs_raw")]
    return cv_peers(peers_data, d["seed"], args.peers_python)


def collect(args) -> None:
    rows = []
    for name in args.datasets:
        for split in range(args.splits):
            d = split_data(name, split, args)
            rows += [{"dataset": name, "split": split, "n_train": len(d["y_train"]), **row}
                     for row in _split_fits(args.collect, d, args)]
            pd.DataFrame(rows).to_csv(args.out, index=False)
            print(name, split, flush=True)


def _dominated(verdict: pd.DataFrame) -> dict:
    """dataset -> the dominating setting of largest difference minus SE."""
    wins = verdict[verdict["dominates"]]
    return {name: g.loc[(g["diff"] - g["se"]).idxmax()] for name, g in wins.groupby("dataset", sort=False)}


def _cell(dominated: dict, datasets: int) -> str:
    return f"{len(dominated)}/{datasets}" + "".join(
        f"; {name} {r['diff']:+.3f} ± {r['se']:.3f} ({r['label']})" for name, r in dominated.items())


def judged(grid: pd.DataFrame, candidate: pd.DataFrame) -> pd.DataFrame:
    """bench_peers' verdict on `candidate`'s rows (one method) against the fixed tree and FIGS settings
    (RIVALS) of `grid`."""
    rows = pd.concat([grid[grid["method"].isin(RIVALS)], candidate], ignore_index=True)
    return paired_verdict(rows, method=candidate["method"].iloc[0], rivals=RIVALS)


def _scopes(count: int) -> list[tuple[str, list[int]]]:
    return [(f"seed {i}", [i]) for i in range(count)] + [("pooled", list(range(count)))]


def tuned_table(grids: list[pd.DataFrame], tuned: list[pd.DataFrame]) -> list[str]:
    """Per candidate and scope (each seed, then pooled): on how many datasets it is dominated, and by what."""
    scopes = _scopes(len(grids))
    lines = ["| candidate | " + " | ".join(s for s, _ in scopes) + " |", "|---|" + "---|" * len(scopes)]
    for candidate in CANDIDATES:
        cells = []
        for _, seeds in scopes:
            grid = pd.concat([grids[i] for i in seeds], ignore_index=True)
            rows = pd.concat([grids[i] for i in seeds] + [tuned[i] for i in seeds], ignore_index=True)
            rows = rows[rows["method"] == candidate]
            cells.append(_cell(_dominated(judged(grid, rows)), rows["dataset"].nunique()))
        lines.append(f"| {candidate} | " + " | ".join(cells) + " |")
    return lines


def replication(grids: list[pd.DataFrame]) -> list[str]:
    """Each setting that dominates rule_cv on one seed's splits, scored against rule_cv on the other seeds'
    splits (paired difference ± SE, both mean complexities there): does the domination hold on fresh splits?"""
    lines = ["| found on | dataset | setting | there | on the other seeds | complexity there, setting / rule_cv |",
             "|---|---|---|---:|---:|---|"]
    for i, grid in enumerate(grids):
        rest = pd.concat([g for j, g in enumerate(grids) if j != i], ignore_index=True)
        rest = rest.assign(label=rest["method"] + " " + rest["setting"].astype(str))
        verdict = judged(grid, grid[grid["method"] == "rule_cv"])
        for r in verdict[verdict["dominates"]].itertuples():
            there = rest[rest["dataset"] == r.dataset]
            ours = there[there["method"] == "rule_cv"].set_index("split")
            other = there[there["label"] == r.label].set_index("split")
            diff = (other["test_ba"] - ours["test_ba"]).dropna()
            lines.append(f"| seed {i} | {r.dataset} | {r.label} | {r.diff:+.3f} ± {r.se:.3f} | "
                         f"{diff.mean():+.3f} ± {diff.std(ddof=1) / len(diff) ** 0.5:.3f} | "
                         f"{other['complexity'].mean():.1f} / {ours['complexity'].mean():.1f} |")
    return lines


def draws_table(grids: list[pd.DataFrame], draws: list[pd.DataFrame]) -> list[str]:
    """Per FIGS tie-break draw and scope: the verdict on rule_cv with that draw's FIGS rows."""
    names = list(dict.fromkeys(pd.concat(draws)["dataset"]))
    scopes = _scopes(len(grids))
    lines = [f"datasets: {', '.join(names)}", "", "| FIGS draw | " + " | ".join(s for s, _ in scopes) + " |",
             "|---|" + "---|" * len(scopes)]
    for k in sorted(pd.concat(draws)["draw"].unique()):
        cells = []
        for _, seeds in scopes:
            grid = pd.concat([grids[i] for i in seeds], ignore_index=True)
            grid = grid[grid["dataset"].isin(names) & ~grid["method"].isin(["figs", "figs_raw"])]
            figs = pd.concat([draws[i][draws[i]["draw"] == k] for i in seeds], ignore_index=True)
            cells.append(_cell(_dominated(judged(pd.concat([grid, figs]), grid[grid["method"] == "rule_cv"])),
                               len(names)))
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", choices=("tuned", "draws"), help="fit on one seed's splits, write --out")
    parser.add_argument("--draws", type=int, default=5, help="FIGS tie-break seeds per split (--collect draws)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-splits", type=int, default=32)
    parser.add_argument("--max-train", type=int, default=3000)
    parser.add_argument("--max-test", type=int, default=5000)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--peers-python", default=None, help="Python of the peers' environment (FIGS)")
    parser.add_argument("--out", type=Path, default=Path("verdict_calibration.csv"))
    parser.add_argument("--grid", type=Path, nargs="+", help="bench_peers.py CSVs, one per seed")
    parser.add_argument("--rule-cv-from", nargs="+", metavar="CV.csv:CONFIG", help="as bench_peers.py's, one per seed")
    parser.add_argument("--tuned", type=Path, nargs="+", help="--collect tuned CSVs, one per --grid CSV")
    parser.add_argument("--draws-from", type=Path, nargs="+", help="--collect draws CSVs, one per --grid CSV")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    if args.collect:
        if args.collect == "draws" and not args.peers_python:
            parser.error("--collect draws needs --peers-python")
        collect(args)
        return
    if not args.grid or any(len(files or args.grid) != len(args.grid)
                            for files in (args.rule_cv_from, args.tuned, args.draws_from)):
        parser.error("give --collect, or --grid with one --rule-cv-from, --tuned and --draws-from file per --grid")
    grids = load_runs(args.grid, args.rule_cv_from, args.max_splits)
    if len(grids) > 1:
        print("\n".join(replication(grids)), "\n")
    if args.tuned:
        tuned = load_runs(args.tuned, None, args.max_splits)
        print("\n".join(tuned_table(grids, tuned) + cv_peers_section(pd.concat(grids + tuned, ignore_index=True))), "\n")
    if args.draws_from:
        print("\n".join(draws_table(grids, load_runs(args.draws_from, None, args.max_splits))))


if __name__ == "__main__":
    main()
