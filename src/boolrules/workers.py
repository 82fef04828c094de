"""Worker processes that end with the process that started them, and leave nothing behind.

joblib's loky workers (and a `multiprocessing.Manager`'s server) are not told when their parent is
SIGKILLed: they would compute on as orphans until their task ends, hours later for a long fit. A
daemon thread in the worker notices the parent's death (the worker is reparented) and ends the
worker, so the hot loops pay nothing for it.

A worker killed by joblib on Ctrl-C cannot release the named semaphore that importing Pyomo makes
(under loky's start method it is registered with the resource tracker until the process exits), and
the tracker then prints "leaked semaphore objects" warnings; a task replaces that lock first.

Starting process workers takes seconds (each imports numpy, scikit-learn and boolrules): a fit with a
time budget asks `WORKER_STARTUP` how long they are expected to take before it counts on them.

Under joblib's dask backend a task runs on a Dask cluster's worker, a child of a nanny, maybe on
another machine: it watches its parent only when that is the fitting process (a `LocalCluster`'s
nannies run there), and a manager of the fitting process does not serve it (`local_workers`).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import defaultdict
from contextlib import contextmanager

from joblib._parallel_backends import LokyBackend, MultiprocessingBackend

__all__ = ["PARENT_POLL", "WORKER_STARTUP", "WorkerStartup", "local_workers", "release_import_lock", "watch_parent",
           "worker_task"]

# Seconds between two looks at the parent: an orphaned worker ends within this.
PARENT_POLL = 0.2
# Seconds that starting cold process workers is taken to take until a parallel fit in this process has
# measured it: two workers took 8-11 s on this project's 2-core machine with one core busy beside them
# (benchmarks/README.md, "Budgets that hold"); a faster machine pays once for the caution, in its first fit.
COLD_START_SECONDS = 10.0
# joblib's process workers wait this long for work before they end (loky's idle_worker_timeout): a
# start-up measured less long ago is what the next parallel fit can expect of the same workers.
IDLE_WORKER_SECONDS = 300.0


def watch_parent(parent: int) -> threading.Event | None:
    """In a child of the process `parent` (a pid), a daemon thread that ends this process
    (`os._exit`) once `parent` is gone; setting the returned Event stops the watch. None (no
    watch) in `parent` itself, or where `parent` is not this process's parent (a thread pool, a
    remote worker), since only a child knows its parent died without racing pid reuse; but a loky
    worker (joblib's processes, children of the process that asked for them) whose parent is
    already gone as its task begins ends at once."""
    if os.getppid() != parent:
        if parent != os.getpid() and multiprocessing.current_process().name.startswith("LokyProcess"):
            os._exit(1)  # reparented before the task began: the parent died, nobody will read our results
        return None
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(PARENT_POLL):
            if os.getppid() != parent:  # reparented: the parent died, nobody will read our results
                os._exit(1)

    threading.Thread(target=watch, name="boolrules-parent-watch", daemon=True).start()
    return stop


def release_import_lock() -> None:
    """Replace the multiprocessing Lock that importing Pyomo makes (`capture_output_lock`, used only
    by Pyomo's own test helpers) by a thread lock; the old one is released now (its semaphore
    unlinked, the tracker told), so a kill cannot leak it. `boolrules.formulations` does it as it
    first imports Pyomo, a worker's task (`worker_task`) again for Pyomo imported another way."""
    from pyomo.common import dependencies

    lock = getattr(dependencies, "capture_output_lock", None)  # None: a Pyomo without it, nothing to leak
    if lock is not None and not isinstance(lock, type(threading.Lock())):
        dependencies.capture_output_lock = threading.Lock()


@contextmanager
def worker_task(parent: int | None):
    """Within the block (a joblib task of a fit), this process ends when `parent` (a pid; None:
    not in a worker) dies (`watch_parent`), and holds no semaphore of Pyomo's to leak (`release_import_lock`)."""
    stop = None
    if parent is not None:
        release_import_lock()
        stop = watch_parent(parent)
    try:
        yield
    finally:
        if stop is not None:
            stop.set()


class WorkerStartup:
    """What starting a parallel fit's joblib workers has taken in this process: seconds from handing the
    tasks to joblib until the last one could begin its starts (interpreter, imports, the backend)."""

    def __init__(self, cold: float = COLD_START_SECONDS):
        self.cold = cold  # cold workers: `COLD_START_SECONDS` until measured on this machine
        self.last: tuple[float, float, int] | None = None  # (seconds, time.monotonic() after the fit, workers)

    def warm(self, workers: int) -> bool:
        """Whether the last parallel fit ran at least `workers` workers recently enough that they are still up."""
        return (self.last is not None and workers <= self.last[2]
                and time.monotonic() - self.last[1] < IDLE_WORKER_SECONDS)

    def expected(self, workers: int, threads: bool) -> float:
        """Seconds until `workers` workers are up: none on threads; what the last parallel fit measured
        when they are warm (`warm`); else the cold estimate."""
        if threads:
            return 0.0
        return self.last[0] if self.warm(workers) else self.cold

    def measured(self, seconds: float, workers: int, cold: bool) -> None:
        """Record a parallel fit on `workers` process workers whose start-up took `seconds`; `cold`:
        the fit expected cold workers, so this is the machine's own cold start-up."""
        self.last = (seconds, time.monotonic(), workers)
        if cold:
            self.cold = seconds


WORKER_STARTUP: defaultdict[type, WorkerStartup] = defaultdict(WorkerStartup)
"""The start-up of each kind of joblib backend (its class: loky's pool, a Dask cluster's workers) apart:
workers of one kind being up, or how long they took, says nothing of another kind's."""


def local_workers(backend) -> bool:
    """Whether joblib's `backend` runs its tasks on threads or child processes of this process (threading,
    loky, multiprocessing), which a `multiprocessing.Manager` started here serves. A Dask cluster's
    workers (children of their nannies, maybe on other machines) are not: the manager refuses them (another
    process tree's authkey, or another machine), and a fit that sent them its queue failed or hung."""
    return bool(getattr(backend, "uses_threads", False)) or isinstance(backend, (LokyBackend, MultiprocessingBackend))
