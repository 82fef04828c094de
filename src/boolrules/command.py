"""The `boolrules` console script: loads the command line (the `cli` package) and runs it, so a
Ctrl-C while it loads ends with "interrupted" and status 130 like one while it runs."""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    """`boolrules.cli.main(argv)`, imported here."""
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        print("boolrules: interrupted", file=sys.stderr)
        return 130
    return run(argv)
