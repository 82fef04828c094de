"""workers.watch_parent: which processes watch their parent, and a loky worker orphaned before its task."""

import multiprocessing
import os

import pytest

from boolrules import workers


class Exited(Exception):
    pass


@pytest.fixture
def exits(monkeypatch):
    """os._exit in workers raises Exited (with its code) instead of ending the test process."""
    def fake_exit(code):
        raise Exited(code)

    monkeypatch.setattr(workers.os, "_exit", fake_exit)


def as_process(monkeypatch, name: str, parent: int) -> None:
    monkeypatch.setattr(multiprocessing.current_process(), "name", name)
    monkeypatch.setattr(workers.os, "getppid", lambda: parent)


def test_a_child_watches_its_parent(monkeypatch, exits):
    as_process(monkeypatch, "LokyProcess-1", 4242)
    stop = workers.watch_parent(4242)
    assert stop is not None
    stop.set()


def test_a_loky_worker_whose_parent_died_before_its_task_ends_at_once(monkeypatch, exits):
    as_process(monkeypatch, "LokyProcess-1", 1)  # reparented: the fitting process 4242 is gone
    with pytest.raises(Exited) as exited:
        workers.watch_parent(4242)
    assert exited.value.args == (1,)


@pytest.mark.parametrize("name, parent", [("MainProcess", "self"), ("LokyProcess-1", "self"),
                                          ("Dask-Worker", 4242)])
def test_no_watch_in_the_parent_itself_nor_in_a_remote_worker(monkeypatch, exits, name, parent):
    """The fit's own process (a thread backend) and a worker of another kind (dask's, whose parent
    is not the fitting process) neither watch nor end."""
    as_process(monkeypatch, name, 1)
    assert workers.watch_parent(os.getpid() if parent == "self" else parent) is None
