"""The parser's value types: each refuses a bad value naming the option, never by the library or
dependency it is passed to."""

from __future__ import annotations

import argparse
import math

__all__ = ["bounded", "call_limit", "count_or_auto", "count_or_none", "iterations", "positive_int"]


def iterations(text: str) -> int | None:
    """A number of iterations >= 1, or "none" (no cap: the time budget ends the search)."""
    if text.lower() == "none":
        return None
    return positive_int(text)


def count_or_auto(text: str) -> int | str:
    """A cap (rows, features): an integer >= 1 or "auto"."""
    if text.lower() == "auto":
        return "auto"
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1 or auto, got {text!r}") from None


def call_limit(text: str) -> float | str | None:
    """Seconds >= 0 per non-local solve, "auto" or "none" (the backend's own)."""
    if text.lower() in ("auto", "none"):
        return None if text.lower() == "none" else "auto"
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be seconds >= 0, auto or none, got {text!r}")
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
