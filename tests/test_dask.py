"""Fits on a Dask cluster through joblib's dask backend: `RuleClassifier`'s starts and
`RuleClassifierCV`'s (fold, candidate) fits run on the cluster's workers and learn what loky's
workers learn from the same seeds; budgeted and verbose fits work there too."""

import multiprocessing
import os
import threading
from collections import defaultdict

import joblib
import numpy as np
import pytest

from boolrules import RuleClassifier, RuleClassifierCV, workers
from boolrules.localsearch import classifier
from boolrules.rules import AtLeast, Literal

from .planted import planted
from .processes import loky_pool

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow  # a cluster of two worker processes takes ~10 s to start here

NO_CAP = 200_000  # iterations a start under a 1 s budget never reaches (~30 s of them if it ignored the budget)


def another_authkey() -> None:
    """In a worker: the authkey of another process tree, as a cluster started apart (or on other
    machines) has, so no manager of the test's process serves it."""
    multiprocessing.current_process().authkey = os.urandom(32)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        client.run(another_authkey)
        yield client


@pytest.fixture(scope="module")
def data():
    return planted(AtLeast(2, Literal(0), ~Literal(3), Literal(5)), 300, 10)


def on_dask(client, fit):
    """`fit()` under joblib's dask backend, and the function and the worker of each task it ran."""
    with distributed.get_task_stream(client) as stream, joblib.parallel_config(backend="dask"):
        fitted = fit()
    keys = [task["key"] if isinstance(task["key"], str) else task["key"][0] for task in stream.data]
    return fitted, [(key.rsplit("-", 1)[0], task["worker"]) for key, task in zip(keys, stream.data)]


def on_the_workers(client, ran, function: str) -> int:
    """How many tasks ran `function` (joblib batches them: "batch_of_{function}_{calls}_calls"), all on
    the cluster's workers and no other task beside them."""
    cluster = set(client.scheduler_info()["workers"])
    assert ran and all(name.startswith(f"batch_of_{function}_") and worker in cluster for name, worker in ran), ran
    return len(ran)


@loky_pool
def test_starts_run_on_the_workers_and_learn_what_loky_and_one_process_learn(client, data):
    X, y = data
    params = dict(num_starts=4, num_iterations=200, n_jobs=2, random_state=0)
    clf, ran = on_dask(client, lambda: RuleClassifier(**params).fit(X, y))
    assert on_the_workers(client, ran, "_run_starts") == 2  # a chunk of 2 starts each
    for other in (RuleClassifier(**params).fit(X, y), RuleClassifier(**{**params, "n_jobs": None}).fit(X, y)):
        assert clf.rule_ == other.rule_ and clf.best_score_ == other.best_score_
        assert [(s.seed, s.rule, s.objective) for s in clf.starts_] == [(s.seed, s.rule, s.objective)
                                                                         for s in other.starts_]


@loky_pool
def test_cv_fits_run_on_the_workers_and_score_as_on_loky(client, data):
    X, y = data
    params = dict(complexities=[3, 4], cv=2, num_starts=2, num_iterations=100, n_jobs=2, random_state=0)
    search, ran = on_dask(client, lambda: RuleClassifierCV(**params).fit(X, y))
    on_the_workers(client, ran, "_fit_candidate")
    loky = RuleClassifierCV(**params).fit(X, y)
    assert search.rule_ == loky.rule_ and search.best_params_ == loky.best_params_
    for key in ("split0_test_score", "split1_test_score", "mean_rule_complexity"):
        np.testing.assert_array_equal(search.cv_results_[key], loky.cv_results_[key])


def test_a_budgeted_fit_on_the_workers_keeps_to_its_deadline(client, data, monkeypatch):
    """The deadline reaches the workers: their starts end by it, far short of the iteration cap (a start
    that begins late, as a task queued behind another on one worker, gets the time left: one iteration
    at least). Dask workers' start-up is measured apart from loky's."""
    X, y = data
    monkeypatch.setattr(classifier, "WORKER_STARTUP", defaultdict(lambda: workers.WorkerStartup(cold=0.0)))
    clf, ran = on_dask(client, lambda: RuleClassifier(num_starts=4, num_iterations=NO_CAP, time_budget=1.0, n_jobs=2,
                                                      random_state=0).fit(X, y))
    assert on_the_workers(client, ran, "_run_starts") == 2
    assert ((1 <= clf.n_iter_) & (clf.n_iter_ < NO_CAP)).all()
    assert [kind.__name__ for kind in classifier.WORKER_STARTUP] == ["DaskDistributedBackend"]


def test_a_verbose_fit_counts_the_starts_that_the_workers_return(client, data, capsys):
    """Workers that a manager of this process does not serve get no progress queue (a fit that sent
    them one failed or hung): its bar counts their starts as they return."""
    X, y = data
    outcome = []

    def fit():  # on a thread of its own, so that a fit that hangs fails the test
        try:
            with joblib.parallel_config(backend="dask"):
                outcome.append(RuleClassifier(num_starts=4, num_iterations=200, n_jobs=2, random_state=0,
                                              verbose=True).fit(X, y))
        except Exception as error:
            outcome.append(error)

    thread = threading.Thread(target=fit, daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert outcome, "the verbose fit on the cluster did not return within 120 s"
    assert isinstance(outcome[0], RuleClassifier), outcome[0]
    err = capsys.readouterr().err
    assert "4/4" in err and "counted as their tasks return" in err
