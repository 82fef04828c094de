"""What a clear error is, checked the same way by every bad-input test.

A clear error names what was wrong (each of `names` appears in its message) and is raised by
boolrules itself, as one of its `boolrules.Error` family (or an OSError the file system reported),
or by scikit-learn's own input validation (whose messages sklearn users know and
`check_estimator` demands), never from deep inside numpy, scipy, Pyomo, dimod or Qiskit.
"""

from __future__ import annotations

import os
import traceback

import pytest

import boolrules

PACKAGE_DIR = os.path.dirname(os.path.abspath(boolrules.__file__))
SKLEARN_VALIDATION = tuple(
    os.path.join("sklearn", "utils", name) for name in ("validation.py", "multiclass.py", "_param_validation.py")
)


def raised_in(exc: BaseException) -> str:
    """The file of the innermost frame of `exc`'s traceback (where it was raised)."""
    return os.path.abspath(traceback.extract_tb(exc.__traceback__)[-1].filename)


def assert_clear_error(exc: BaseException, *names: str) -> None:
    """`exc` mentions every one of `names` and was raised by boolrules as a `boolrules.Error` (or an
    OSError), or by sklearn's validation."""
    message = str(exc)
    for name in names:
        assert name.lower() in message.lower(), f"{type(exc).__name__}: {message!r} does not name {name!r}"
    where = raised_in(exc)
    assert where.startswith(PACKAGE_DIR) or where.endswith(SKLEARN_VALIDATION), (
        f"{type(exc).__name__}: {message!r} was raised deep inside a dependency, in {where}"
    )
    assert not where.startswith(PACKAGE_DIR) or isinstance(exc, (boolrules.Error, OSError)), (
        f"{type(exc).__name__}: {message!r} was raised by boolrules outside its boolrules.Error family, in {where}"
    )


def assert_raises_clearly(error, call, *names: str) -> None:
    """`call()` raises `error`, and clearly (`assert_clear_error`)."""
    with pytest.raises(error) as info:
        call()
    assert_clear_error(info.value, *names)
