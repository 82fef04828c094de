"""`boolrules.cli.main`: parse the command line, run its command and turn what it raises into an
exit status and a one-line message."""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from importlib import import_module

from .errors import SolverFailure, UsageError
from .parser import build_parser

__all__ = ["main"]


def main(argv=None) -> int:
    """Run the command line `argv` (default: `sys.argv[1:]`) and return its exit status."""
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help (0) or a usage error (2), already printed by argparse
            return exc.code if isinstance(exc.code, int) else 2
        status = _command(args.command)(args)
        sys.stdout.flush()  # a reader gone while the output sat in the buffer surfaces here, not at exit
        return status
    except KeyboardInterrupt:
        print("boolrules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `boolrules fit | head`: the reader is gone; end quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes
        return 128 + signal.SIGPIPE
    except (SolverFailure, RuntimeError, ImportError) as exc:  # RuntimeError: e.g. no rule, no D-Wave token
        print(f"boolrules: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except (UsageError, ValueError, TypeError, OSError) as exc:  # OSError: missing or unreadable files
        print(f"boolrules: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _command(name: str):
    """The `run` of the command `name`, its module imported once the command line is parsed and no
    other: the commands load the library (numpy, scikit-learn, Pyomo and dimod take seconds)."""
    with _interrupts_held():
        return import_module(f".{name}", __package__).run


@contextmanager
def _interrupts_held():
    """A Ctrl-C within the block reaches the handler as it ends: raised inside an import, it would
    surface as the importing library's error (numpy: "PyCapsule_Import could not import module") or
    be lost in a library's bare `except`. Held only where a Python handler is set, in the main thread."""
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous) or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            previous(signal.SIGINT, held[0])


def _one_line(exc: BaseException) -> str:
    """The message of `exc` on one line (a message from a library may span several)."""
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip()) or type(exc).__name__
