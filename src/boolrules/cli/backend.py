"""The backend a command solves with, and what a failure while it runs exits with."""

from __future__ import annotations

from contextlib import contextmanager

from ..backends import Backend, backend_names
from ..backends.base import unseeded
from ..backends.config import backend_from_spec, load_backend, spec_kind
from .errors import SolverFailure, UsageError

__all__ = ["configured_backend", "running"]


def configured_backend(spec, config, seed: int, time_limit: float | None = None, option: str = "--backend",
                       polish: bool = True) -> Backend:
    """The backend a name or .toml path (`spec`, given as `option`) or a config file names; seeded
    with `seed` when it takes a seed that is not set, given `time_limit` when one is asked for, and
    polish=False with `--no-polish` (`polish` False)."""
    if config is None and spec_kind(spec) is None:
        raise UsageError(f"unknown backend {spec!r}; give a .toml config or one of: {', '.join(backend_names())}")
    chosen = load_backend(config) if config is not None else backend_from_spec(spec, option)
    overrides = {"seed": seed} if unseeded(chosen) else {}
    if not polish:
        if "polish" not in chosen.capabilities:
            raise UsageError(f"--no-polish: backend {chosen.name!r} does not polish (only QUBO sampler backends "
                             f"do: sa, tabu, exact, qaoa, dwave-qpu, ...)")
        overrides["polish"] = False
    if time_limit is not None:
        if "time_limit" not in chosen.capabilities:
            raise UsageError(f"--time-limit: backend {chosen.name!r} takes no time limit; its options: "
                             f"{', '.join(chosen.options())}")
        overrides["time_limit"] = time_limit
    return chosen.with_options(**overrides)


@contextmanager
def running(what: str):
    """Report an unexpected failure of `what` (a solver, a backend) as SolverFailure; input that it
    refuses (ValueError, TypeError) stays bad input, and a RuntimeError already says what failed."""
    try:
        yield
    except (UsageError, SolverFailure, ValueError, TypeError, RuntimeError):
        raise
    except Exception as err:
        raise SolverFailure(f"{what} failed: {err or type(err).__name__}") from err
