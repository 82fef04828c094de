"""Every example config on every bundled dataset, as a user runs it (issue 24's trial): `boolrules solve
--dataset D --config examples/configs/C.toml --json`, each in its own process under a wall-time cap.

Prints one row per run: the wall seconds of the whole command (start-up and data loading included), the
solve's own seconds, the problem's rows and features, the status and gap, how many samples were
feasible as they stood (samplers: "k/n" from the result's message), the objective of the raw
(lowest-energy) sample as it stands, the objective of the rule returned and the stage it comes from
(repaired, polished), and the train and test balanced accuracy.
A run that outlasts `--timeout` is shown as such. `--json-lines PATH` keeps every run's JSON.
"""

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from boolrules.cli.choices import DATASETS  # the names only: no library import

ROOT = Path(__file__).resolve().parents[1]

CONFIGS = sorted((ROOT / "examples" / "configs").glob("*.toml"))
# The real QPU's config needs a token; dwave-qpu-mock.toml is the same file with `mock` added.
OFFLINE = [path for path in CONFIGS if path.stem != "dwave-qpu"]
SCRIPT = Path(sys.executable).parent / "boolrules"


def _config(stem: str) -> Path:
    """An example config by its stem, or any .toml file by its path."""
    return Path(stem) if stem.endswith(".toml") else ROOT / "examples" / "configs" / f"{stem}.toml"


def run(config: Path, dataset: str, timeout: float, extra: list[str]) -> dict:
    """One `boolrules solve` run: its JSON and wall seconds, or the failure."""
    argv = [str(SCRIPT), "solve", "--dataset", dataset, "--config", str(config), "--json", "--no-progress", *extra]
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"config": config.stem, "dataset": dataset, "wall": time.perf_counter() - start, "error": f"> {timeout:g} s"}
    wall = time.perf_counter() - start
    if done.returncode != 0:
        return {"config": config.stem, "dataset": dataset, "wall": wall, "error": done.stderr.strip().splitlines()[-1]}
    return {"config": config.stem, "dataset": dataset, "wall": wall, **json.loads(done.stdout)}


def row(r: dict) -> str:
    if "error" in r:
        return f"| {r['config']} | {r['dataset']} | {r['wall']:.1f} | | | error: {r['error']} | | | | | |"
    samples = re.search(r"(\d+) samples; (\d+) feasible", r.get("message") or "")
    feasible = f"{samples[2]}/{samples[1]}" if samples else ""
    raw = (r["stages"] or {}).get("raw")
    raw = "" if raw is None else (f"{raw['objective']:.4g}" if raw["feasible"] else "infeasible")
    gap = "" if r["gap"] is None else f" {100 * r['gap']:.1f}%"
    return (f"| {r['config']} | {r['dataset']} | {r['wall']:.1f} | {r['seconds']:.1f} | "
            f"{r['problem_rows']}x{r['max_features'] or 'all'} | {r['status']}{gap} | {feasible} | {raw} | "
            f"{r['objective']:.4g} ({r['stage']}) | {r['train_balanced_accuracy']:.3f} | {r['test_balanced_accuracy']:.3f} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", nargs="+", default=[path.stem for path in OFFLINE],
                        help="example config stems, or paths of .toml files (default: every offline example)")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--timeout", type=float, default=180.0, help="wall seconds per run")
    parser.add_argument("--json-lines", type=Path, help="append every run's JSON here")
    args, extra = parser.parse_known_args(argv)  # the rest goes to `boolrules solve`
    print("| config | dataset | wall s | solve s | rows x features | status | feasible samples | raw objective | "
          "objective (stage) | train BA | test BA |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for stem in args.configs:
        for dataset in args.datasets:
            result = run(_config(stem), dataset, args.timeout, extra)
            print(row(result), flush=True)
            if args.json_lines is not None:
                with args.json_lines.open("a") as out:
                    out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
