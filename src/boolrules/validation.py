"""Parameter checks that name the argument and what was expected."""

from __future__ import annotations

import math
import numbers
import os
from pathlib import Path

import numpy as np

__all__ = ["check_bool", "check_integer", "check_number", "check_path"]


def check_bool(value, name: str) -> bool:
    """`value` as a bool (Python's or numpy's), or TypeError naming `name`: 1 or "yes" are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def check_integer(value, name: str, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int, or TypeError/ValueError naming `name` and the allowed range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}")
    return value


def check_number(value, name: str, low: float | None = None) -> float:
    """`value` as a finite float (>= `low` when given), or an error naming `name`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    return value


def check_path(value, name: str) -> Path:
    """`value` as a `Path`, or TypeError naming `name` unless it is a str or os.PathLike."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a str or os.PathLike, got {type(value).__name__}")
    return Path(value)
