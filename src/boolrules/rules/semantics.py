"""What an operator outputs given how many of its sub-rules are true: the one definition that
evaluation (`bitset.py`), repair and decoding (`formulations/`) share."""

from __future__ import annotations

import numpy as np

from ..exceptions import InputError

__all__ = ["operator_output"]


def operator_output(operator, counts, size, k=None) -> np.ndarray:
    """Truth of the un-negated `operator` (class or name) when `counts` of its `size` sub-rules are
    true, with parameter `k` for AtLeast, AtMost and Choose; numpy broadcasting over all three."""
    name = operator if isinstance(operator, str) else operator.__name__
    counts = np.asarray(counts)
    if name == "Or":
        return counts >= 1
    if name == "And":
        return counts == size
    if name == "AtLeast":
        return counts >= k
    if name == "AtMost":
        return counts <= k
    if name == "Choose":
        return counts == k
    raise InputError(f"unknown operator {operator!r}")
