"""The parser's value types: each refuses a bad value naming the option, never by the library or
dependency it is passed to."""

from __future__ import annotations

import argparse
import math

__all__ = ["MAX_JOBS", "MAX_STARTS", "bins_or_auto", "bounded", "call_limit", "count_or_auto", "count_or_none",
           "integer_or_auto", "iterations", "n_jobs", "positive_int", "rows_or_auto"]

MAX_JOBS = 1024  # workers: joblib starts as many processes (past a C int it fails inside a semaphore)
MAX_STARTS = 10**6  # starts: each holds a seed and a result (10**12 is 7 TiB of seeds alone)


def iterations(text: str) -> int | None:
    """A number of iterations >= 1, or "none" (no cap: the time budget ends the search)."""
    if text.lower() == "none":
        return None
    return positive_int(text)


def integer_or_auto(low: int, why: str = ""):
    """An argparse type: an integer >= `low` (`why` says why, in the error) or "auto"."""
    def parse(text: str) -> int | str:
        if text.lower() == "auto":
            return "auto"
        try:
            return bounded(int, low)(text)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"must be an integer >= {low}{why} or auto, got {text!r}") from None

    return parse


count_or_auto = integer_or_auto(1)  # a cap (rows, features)
rows_or_auto = integer_or_auto(2, " (a row of each class)")  # a problem's rows: stratified, a row of each class
bins_or_auto = integer_or_auto(2)  # quantiles per numeric column (QuantileBinarizer's num_bins)


def call_limit(text: str) -> float | str | None:
    """Seconds >= 0 per non-local solve, "auto" or "none" (the backend's own)."""
    if text.lower() in ("auto", "none"):
        return None if text.lower() == "none" else "auto"
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be seconds >= 0 (finite), auto or none, got {text!r}")
    return value


def share_or_auto(text: str) -> float | str:
    """The non-local time share: a number > 0 and <= 1, or "auto" (the share the calls earn)."""
    if text.lower() == "auto":
        return "auto"
    try:
        return bounded(float, 0, 1, open_low=True)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be a number > 0 and <= 1, or auto, got {text!r}") from None


def n_jobs(text: str) -> int:
    """Parallel workers: an integer from 1 to `MAX_JOBS`, or from -1 to -`MAX_JOBS` (joblib's count
    back from the machine's cores: -1 is all of them); 0 is no count of workers."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value == 0 or abs(value) > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be an integer from 1 to {MAX_JOBS}, or from -1 to -{MAX_JOBS} "
                                         f"(all cores but |N| - 1), got {text!r}")
    return value


def bounded(kind: type, low, high=None, *, open_low: bool = False, open_high: bool = False):
    """An argparse type: a finite `kind` (int or float) between `low` and `high`, so a bad value is
    refused naming the option, never by the library or dependency it is passed to."""
    what = ("an integer" if kind is int else "a number") + (" > " if open_low else " >= ") + f"{low}"
    if high is not None:
        what += (" and < " if open_high else " and <= ") + f"{high}"

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and (value > low if open_low else value >= low)
                and (high is None or (value < high if open_high else value <= high))):
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
        return value

    return parse


def positive_int(text: str) -> int:
    """An integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def count_or_none(text: str) -> int | None:
    """A limit: an integer >= 1, or "none" (no limit)."""
    if text.lower() == "none":
        return None
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1 or none, got {text!r}") from None
