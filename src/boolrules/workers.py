"""Worker processes that end with the process that started them.

joblib's loky workers (and a `multiprocessing.Manager`'s server) are not told when their parent is
SIGKILLed: they would compute on as orphans until their task ends, hours later for a long fit. A
daemon thread in the worker notices the parent's death (the worker is reparented) and ends the
worker, so the hot loops pay nothing for it.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager

__all__ = ["PARENT_POLL", "exits_with_parent", "watch_parent"]

# Seconds between two looks at the parent: an orphaned worker ends within this.
PARENT_POLL = 0.2


def watch_parent(parent: int) -> threading.Event | None:
    """In a child of the process `parent` (a pid), a daemon thread that ends this process
    (`os._exit`) once `parent` is gone; setting the returned Event stops the watch. None (no
    watch) in `parent` itself, or where `parent` is not this process's parent (a thread pool, a
    remote worker), since only a child knows its parent died without racing pid reuse."""
    if os.getppid() != parent:
        return None
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(PARENT_POLL):
            if os.getppid() != parent:  # reparented: the parent died, nobody will read our results
                os._exit(1)

    threading.Thread(target=watch, name="boolrules-parent-watch", daemon=True).start()
    return stop


@contextmanager
def exits_with_parent(parent: int | None):
    """Within the block, this process ends when `parent` (a pid; None: no watch) dies (`watch_parent`)."""
    stop = None if parent is None else watch_parent(parent)
    try:
        yield
    finally:
        if stop is not None:
            stop.set()
