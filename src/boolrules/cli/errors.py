"""The command line's two kinds of failure, told apart by their exit status."""

from __future__ import annotations

__all__ = ["SolverFailure", "UsageError"]


class UsageError(Exception):
    """Bad usage or bad input: exit status 2."""


class SolverFailure(Exception):
    """A solver or backend failed at run time: exit status 1."""
