"""Input checks that name the argument and what was expected: parameters, binary data, labels,
sample weights, and the scikit-learn parameter constraints of the estimators."""

from __future__ import annotations

import math
import numbers
import os
from pathlib import Path

import numpy as np
from sklearn.utils import _param_validation

from .exceptions import InputError, InputTypeError

__all__ = [
    "Interval",
    "check_binary_labels",
    "check_binary_matrix",
    "check_bool",
    "check_integer",
    "check_number",
    "check_path",
    "check_sample_weight",
]


def check_bool(value, name: str) -> bool:
    """`value` as a bool (Python's or numpy's), or TypeError naming `name`: 1 or "yes" are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputTypeError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def check_integer(value, name: str, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int, or TypeError/ValueError naming `name` and the allowed range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if low is not None and value < low:
        raise InputError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise InputError(f"{name} must be <= {high}, got {value}")
    return value


def check_number(value, name: str, low: float | None = None) -> float:
    """`value` as a finite float (>= `low` when given), or an error naming `name`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise InputError(f"{name} must be finite, got {value}")
    if low is not None and value < low:
        raise InputError(f"{name} must be >= {low}, got {value}")
    return value


def check_binary_matrix(X, name: str = "X") -> np.ndarray:
    """Validate a 2-D 0/1 (or bool) matrix and return it as uint8 without copying the caller's data."""
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    X = np.asarray(X)
    if X.ndim != 2:
        raise InputError(f"{name} must be a 2-D matrix of 0/1 values, got an array of shape {X.shape}")
    if X.dtype == bool:
        return X.view(np.uint8)
    if X.dtype.kind not in "biuf":
        raise InputTypeError(f"{name} must hold numbers 0/1 or bools, got dtype {X.dtype}")
    if X.dtype.kind == "f" and np.isnan(X).any():
        raise InputError(f"{name} contains NaN; rules need 0/1 features")
    if X.size and not np.isin(X, (0, 1)).all():
        bad = X[~np.isin(X, (0, 1))].flat[0]
        raise InputError(
            f"{name} must be binary (0/1), found the value {bad!r}; binarize it first "
            "(boolrules.QuantileBinarizer)"
        )
    return X.astype(np.uint8, copy=False)


def check_binary_labels(y, name: str = "y", n: int | None = None) -> np.ndarray:
    """A uint8 copy of the 1-D 0/1 (or bool) labels `y`, `n` of them when given; errors name `name`."""
    y = np.asarray(y)
    if y.ndim != 1 or (n is not None and len(y) != n):
        count = "" if n is None else f"{n} "
        raise InputError(f"{name} must be a 1-D array of {count}labels, one per row, got shape {y.shape}")
    if y.dtype.kind not in "biuf":
        raise InputTypeError(f"{name} must hold 0/1 labels (binary numbers or bools), got dtype {y.dtype}")
    bad = ~np.isin(y, (0, 1))
    if bad.any():
        raise InputError(f"{name} must hold 0/1 labels (binary numbers or bools), found the value {y[bad][0].item()!r}")
    return y.astype(np.uint8)


def check_sample_weight(sample_weight, n: int, name: str = "sample_weight") -> np.ndarray:
    """A float copy of `n` finite weights >= 0 with a finite sum, or an error naming `name`."""
    try:
        w = np.array(sample_weight, dtype=float)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an array of numbers, got {sample_weight!r:.80}") from None
    if w.shape != (n,):
        raise InputError(f"{name} has shape {w.shape}, expected one weight per sample ({n},)")
    if not np.isfinite(w).all() or (w < 0).any():
        raise InputError(f"{name} must be finite and >= 0")
    with np.errstate(over="ignore"):
        total = w.sum()
    if not np.isfinite(total):  # every objective and QUBO coefficient is a sum of weights
        raise InputError(f"{name} is too large: its sum overflows to {total}; scale the weights down")
    return w


def check_path(value, name: str) -> Path:
    """`value` as a `Path`, or TypeError naming `name` unless it is a str or os.PathLike."""
    if not isinstance(value, (str, os.PathLike)):
        raise InputTypeError(f"{name} must be a str or os.PathLike, got {type(value).__name__}")
    return Path(value)


# scikit-learn parameter constraints (`_parameter_constraints`) that say what the checks above say


class Interval(_param_validation.Interval):
    """scikit-learn's `Interval` refusing bools, as `check_integer` and `check_number` do (True is
    no count); an interval open at infinity already refuses infinity."""

    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)
