"""What the commands print: progress on stderr, one JSON object or lines of text on stdout."""

from __future__ import annotations

import json
import math
import sys
from typing import TYPE_CHECKING

from ..rules.names import display_text

if TYPE_CHECKING:
    from ..datasets import Dataset

__all__ = ["Steps", "counts", "data_info", "data_lines", "held_out_score", "print_json", "rows_text",
           "schedule_text", "show_progress", "split_info"]


def show_progress(args) -> bool:
    """--progress, --no-progress, or by default whether stderr is a terminal."""
    return args.progress if args.progress is not None else sys.stderr.isatty()


class Steps:
    """A progress bar over a command's steps, on stderr; shown with --progress, or on a terminal
    unless --no-progress."""

    def __init__(self, args, total: int):
        from tqdm import tqdm

        self._bar = tqdm(total=total, file=sys.stderr, disable=not show_progress(args), leave=False,
                         bar_format="{desc} ({n_fmt}/{total_fmt}) [{elapsed}]")
        self._started = False

    def __call__(self, description: str) -> None:
        """Start the next step."""
        if self._started:
            self._bar.update()
        self._started = True
        self._bar.set_description_str(description)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._bar.close()


def _jsonable(value):
    """`value` with numpy scalars and arrays as Python values and non-finite floats as null."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # a numpy array or scalar (numpy is not imported for `boolrules datasets`)
        return _jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(result: dict) -> None:
    """`result` as one line of JSON."""
    print(json.dumps(_jsonable(result)))


def counts(counts: dict) -> str:
    """Named counts in one line: `name count, ...`."""
    return ", ".join(f"{name} {count}" for name, count in counts.items())


def data_info(data: Dataset, args) -> dict:
    """The data's name and size for a JSON result, with the label a CSV file's rows were split by."""
    info = {"dataset": data.name, "rows": len(data.y), "binary_features": int(data.X.shape[1])}
    if args.csv is not None:
        info["label"] = {"column": args.label, "positive": data.positive, "default": args.positive is None}
        info["dropped_rows"] = data.dropped_rows
    return info


def data_lines(data: Dataset, args, detail: str, width: int = 12) -> list[str]:
    """The data's name and size (with `detail`) as text, with a CSV file's label and dropped rows;
    names and values from the file are escaped (`display_text`), one line each."""
    lines = [f"{'dataset:':<{width}}{display_text(str(data.name))} ({len(data.y)} rows, {detail})"]
    if args.csv is not None:
        how = (" (the second of its 2 values in sorted order; --positive VALUE picks another)"
               if args.positive is None else "")
        label, positive = display_text(str(args.label)), display_text(str(data.positive))
        lines.append(f"{'label:':<{width}}{label} == {positive} is positive{how}")
        if data.dropped_rows:
            lines.append(f"{'dropped:':<{width}}{data.dropped_rows} rows with missing values "
                         "(--missing indicator keeps them)")
    return lines


def split_info(args, train_rows: int, test_rows: int, problem_rows: int | None = None) -> dict:
    """Which rows a command used, for a JSON result: the split's training and test rows (--test-size,
    drawn with --seed) and, for a problem, how many of the training rows it takes."""
    info = {"test_size": args.test_size, "seed": args.seed, "train_rows": train_rows, "test_rows": test_rows}
    return info if problem_rows is None else {**info, "problem_rows": problem_rows}


def rows_text(info: dict) -> str:
    """`split_info` of a problem in words: how many of the training rows it takes, drawn how, from
    which split."""
    train, used = info["train_rows"], info["problem_rows"]
    if info["test_rows"]:
        taken = f"all {train} training rows" if used == train else f"{used} of the {train} training rows"
        where = f"split: {info['test_rows']} test rows held out, test size {info['test_size']:g}, seed {info['seed']}"
    else:
        taken = f"all {train} rows" if used == train else f"{used} of all {train} rows"
        where = "test size 0: every row trains, none is held out"
    drawn = f", drawn stratified with seed {info['seed']}" if used < train else ""
    return f"{taken}{drawn} ({where})"


def held_out_score(score: float | None) -> str:
    """A test score to 4 places, or why there is none."""
    return "none (--test-size 0 holds no rows out)" if score is None else f"{score:.4f}"


def schedule_text(schedule: dict) -> str:
    """A sampler schedule (`QuboProblem.schedule`) in one line."""
    hot, cold = schedule["beta_range"]
    return (f"{schedule['sampler']}, {schedule['num_reads']} reads x {schedule['num_sweeps']} sweeps, "
            f"{schedule['beta_schedule_type']} beta {hot:.4g} -> {cold:.4g}")
