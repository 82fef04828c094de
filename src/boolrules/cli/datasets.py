"""`boolrules datasets`: the datasets `--dataset` accepts."""

from __future__ import annotations

import sys

from .choices import DATASETS

__all__ = ["run"]


def run(args) -> int:
    """`boolrules datasets`: the names, or with --json each dataset's size."""
    if not args.json:
        for name in DATASETS:
            print(name)
        return 0
    from tqdm import tqdm

    from ..datasets import load_dataset  # the names need no library: imported for --json only
    from .report import print_json, show_progress

    rows = []
    for name in tqdm(DATASETS, desc="loading datasets", file=sys.stderr, disable=not show_progress(args),
                     leave=False):
        try:
            data = load_dataset(name)
        except (FileNotFoundError, ValueError) as err:  # missing or corrupt file
            rows.append({"name": name, "error": str(err)})
            continue
        rows.append({"name": name, "rows": len(data.y), "columns": int(data.raw.shape[1]),
                     "binary_features": int(data.X.shape[1]), "positive_rate": float(data.y.mean())})
    print_json({"datasets": rows})
    return 0
