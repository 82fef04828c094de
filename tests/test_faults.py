"""Fault injection: samplers that fail or return nothing usable, and Ctrl-C during `fit`.

A sampler that misbehaves gives an error `Result` that names the backend and says what was wrong
(as a crashing ILP solver does, tests/backends/test_ilp.py); an interrupted fit raises
KeyboardInterrupt, even in the middle of an ILP solve, leaves the estimator as it was and leaves
no worker process running.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import dimod
import numpy as np
import psutil
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from boolrules import RuleClassifier
from boolrules.backends import get_backend
from boolrules.localsearch import classifier as classifier_module
from boolrules.rules import Literal, Or

from .fakes import EmptyCqmSampler, Returning
from .planted import planted
from .processes import default_sigint, run_python


def backend_returning(make):
    """A sampler backend compiling as sa does, whose sampler returns `make(bqm)`."""
    return get_backend(Returning(make), eta=False, penalty="calibrated")


def empty(bqm):
    return dimod.SampleSet.from_samples(([], list(bqm.variables)), dimod.BINARY, energy=[])


def other_variables(bqm):
    return dimod.SampleSet.from_samples_bqm({("x", i): 0 for i in range(3)}, dimod.BQM("BINARY"))


def missing_one(bqm):
    return dimod.SampleSet.from_samples((np.zeros((1, bqm.num_variables - 1)), list(bqm.variables)[1:]),
                                        dimod.BINARY, energy=[0.0])


def not_binary(bqm):
    return dimod.SampleSet.from_samples((np.full((1, bqm.num_variables), 2), list(bqm.variables)),
                                        dimod.BINARY, energy=[0.0])


@pytest.mark.parametrize("make, message", [
    (empty, "no samples"),
    (other_variables, "lacks"),
    (missing_one, "lacks 1 of the QUBO's variables"),
    (not_binary, "0 or 1"),
], ids=["empty", "other-variables", "missing-one", "not-binary"])
def test_unusable_samples_are_an_error_result(or_problem, make, message):
    result = backend_returning(make).solve(or_problem)
    assert result.status == "error" and result.rule is None
    assert result.message.startswith("backend 'Returning': unusable samples") and message in result.message
    assert isinstance(result.raw, dimod.SampleSet) and isinstance(result.error, ValueError)


def test_spin_samples_are_decoded_as_binary(or_problem):
    """A sampler answering in ±1 spins (as Ising solvers do) gives the same rule as in 0/1."""
    reference = get_backend("sa", num_reads=5, seed=0).solve(or_problem)
    spins = reference.raw.change_vartype(dimod.SPIN, inplace=False)
    result = backend_returning(lambda bqm: spins).solve(or_problem)
    assert result.status == "feasible"
    assert result.rule == reference.rule and result.objective == reference.objective


def test_a_sampler_that_raises_is_an_error_result_keeping_the_exception(or_problem):
    error = ConnectionError("solver went away")

    def crash(bqm):
        raise error

    result = backend_returning(crash).solve(or_problem)
    assert result.status == "error" and result.rule is None
    assert result.message == "backend 'Returning': sampling failed (ConnectionError: solver went away)"
    assert result.error is error


def test_an_interrupted_sampler_is_not_an_error_result(or_problem):
    def interrupted(bqm):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        backend_returning(interrupted).solve(or_problem)


@pytest.mark.parametrize("keep, message", [(0, "returned none"), (3, "lack")])
def test_leap_cqm_with_unusable_samples_is_an_error_result(or_problem, keep, message):
    result = get_backend("leap-cqm", sampler=EmptyCqmSampler(keep)).solve(or_problem)
    assert result.status == "error" and result.rule is None
    assert result.message.startswith("backend 'leap-cqm': unusable samples") and message in result.message


# Ctrl-C during fit


def interrupt_after(monkeypatch, calls):
    """Make the annealer raise KeyboardInterrupt on its `calls`-th start, as Ctrl-C would."""
    anneal, count = classifier_module.anneal, [0]

    def interrupted(*args, **kwargs):
        count[0] += 1
        if count[0] >= calls:
            raise KeyboardInterrupt
        return anneal(*args, **kwargs)

    monkeypatch.setattr(classifier_module, "anneal", interrupted)


def test_interrupted_fit_leaves_an_unfitted_estimator_unfitted(monkeypatch):
    X, y = planted(Or(Literal(0), Literal(1)), 400, 12)
    clf = RuleClassifier(num_starts=3, num_iterations=50, random_state=0)
    interrupt_after(monkeypatch, 2)
    with pytest.raises(KeyboardInterrupt):
        clf.fit(X, y)
    with pytest.raises(NotFittedError):
        check_is_fitted(clf)
    assert not [k for k in vars(clf) if k.endswith("_")]


def test_interrupted_refit_keeps_the_previous_model(monkeypatch):
    X, y = planted(Or(Literal(0), Literal(1)), 400, 12)
    clf = RuleClassifier(num_starts=2, num_iterations=50, random_state=0).fit(X, y)
    before = dict(vars(clf))
    interrupt_after(monkeypatch, 1)
    with pytest.raises(KeyboardInterrupt):
        clf.set_params(num_starts=3).fit(X[:200], y[:200])
    assert clf.best_rule_ is before["best_rule_"] and clf.starts_ is before["starts_"]
    assert clf.num_starts == 3  # parameters are the user's, not fit state
    assert np.array_equal(clf.predict(X), before["best_rule_"].evaluate(X))


def test_a_failed_fit_leaves_no_partial_state():
    X, y = planted(Or(Literal(0), Literal(1)), 400, 12)
    clf = RuleClassifier(num_starts=1, num_iterations=20, random_state=0).fit(X, y)
    with pytest.raises(ValueError):
        clf.fit(X[:, :1], y)  # fewer than 2 features: fails after classes_ and the binarizer were set
    assert clf.n_features_in_ == X.shape[1]
    assert np.array_equal(clf.predict(X), clf.best_rule_.evaluate(X))


INTERRUPTED_FIT = textwrap.dedent("""
    import os, signal, threading, time
    import numpy as np, psutil
    from boolrules import RuleClassifier

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (3000, 40), dtype=np.uint8)
    y = (X[:, 0] | X[:, 1]).astype(np.uint8)
    clf = RuleClassifier(num_starts=8, num_iterations=10**7, n_jobs=2, random_state=0, verbose={verbose})
    threading.Timer(3, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        clf.fit(X, y)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")

    def workers():
        return [p for p in psutil.Process().children(recursive=True) if "resource_tracker" not in " ".join(p.cmdline())]

    while workers():  # they end (their hours of work would outlast the safety timeout), or this waits on
        time.sleep(0.1)
    print("workers", len(workers()))
    print("fitted", hasattr(clf, "best_rule_"))
""")


@pytest.mark.slow
@pytest.mark.parametrize("verbose", [False, True])
def test_ctrl_c_stops_parallel_starts_and_their_workers(verbose):
    """SIGINT 3 s into a fit of 8 starts on 2 joblib workers (hours of work, so it cannot end
    first): the fit raises KeyboardInterrupt and its worker processes end (the child waits for them,
    within its safety timeout: their work would take hours) (loky's resource trackers exit with the
    interpreter and are not counted), and so, when verbose, does the process that carries the
    workers' progress."""
    out = run_python(["-c", INTERRUPTED_FIT.replace("{verbose}", str(verbose))], timeout=120)  # a safety net
    lines = dict(line.split(" ", 1) if " " in line else (line, "") for line in out.stdout.splitlines())
    assert "interrupted" in lines, out.stdout + out.stderr
    assert lines["workers"] == "0"
    assert lines["fitted"] == "False"


INTERRUPTED_SOLVE = textwrap.dedent("""
    import os, signal, sys, threading
    import highspy
    from boolrules import DepthOneClassifier, load_dataset

    solvers = []

    class Recorded(highspy.Highs):  # every HiGHS instance, to read where it stopped
        def __init__(self):
            super().__init__()
            if not solvers:  # SIGINT 2 s into the solve, however long loading and building took
                threading.Timer(2, os.kill, (os.getpid(), signal.SIGINT)).start()
            solvers.append(self)

    highspy.Highs = Recorded
    data = load_dataset("breast_cancer", paper_layout=True)
    clf = DepthOneClassifier(operator="Choose", max_num_literals=6, max_samples=300, random_state=0,
                             backend=sys.argv[1])
    try:
        clf.fit(data.X, data.y)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")
    print("stopped", solvers[-1].getModelStatus().name)
    print("fitted", hasattr(clf, "result_"))
""")


@pytest.mark.slow
@pytest.mark.parametrize("backend, stopped", [("highs", "kInterrupt"), ("highs-pyomo", "kSolveError")])
def test_ctrl_c_stops_an_ilp_solve_without_time_limit(backend, stopped):
    """HiGHS on a Choose problem it cannot prove optimal in minutes, with no time limit: SIGINT
    2 s after the first HiGHS instance is made cancels the solve and the fit raises KeyboardInterrupt (HiGHS's blocking `run` would go
    on until the solve ended; Pyomo's HiGHS interface turned the interrupt into an error status).
    Where HiGHS stopped says the interrupt stopped it: our user interrupt leaves kInterrupt,
    highspy's keyboard-interrupt handling (which Pyomo's interface turns on) kSolveError."""
    out = run_python(["-c", INTERRUPTED_SOLVE, backend], timeout=120)
    lines = dict(line.split(" ", 1) if " " in line else (line, "") for line in out.stdout.splitlines())
    assert "interrupted" in lines, out.stdout + out.stderr
    assert lines["stopped"] == stopped
    assert lines["fitted"] == "False"


ORPHANED_FIT = textwrap.dedent("""
    import sys, time
    import numpy as np
    from boolrules import RuleClassifier, RuleClassifierCV

    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (3000, 40), dtype=np.uint8)
    y = (X[:, 0] | X[:, 1]).astype(np.uint8)
    print("fitting", time.process_time(), flush=True)  # what the imports cost, as they will in each worker
    if sys.argv[1] == "cv":
        RuleClassifierCV(complexities=[5], cv=2, num_starts=1, num_iterations=10**7, fold_iterations=None,
                         n_jobs=2).fit(X, y)
    else:
        RuleClassifier(num_starts=4, num_iterations=10**7, n_jobs=2, verbose=sys.argv[1] == "verbose").fit(X, y)
""")


def session_processes(session: int) -> list:
    """The live processes of `session` (zombies, which only wait to be reaped, are not counted)."""
    found = []
    for process in psutil.process_iter():
        try:
            if os.getsid(process.pid) == session and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except (psutil.Error, OSError):  # ended meanwhile
            pass
    return found


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["plain", "verbose", "cv"])
def test_workers_end_when_their_parent_is_killed(kind):
    """A parallel fit (RuleClassifier, with the progress manager when verbose, RuleClassifierCV)
    whose process is SIGKILLed while its joblib workers compute hours of iterations: nothing it
    started runs any more, waited for with a safety timeout (60 s) far below those hours (before,
    the workers ran on as orphans until their task ended). The workers are waited for until busy
    with the search, past their imports."""
    child = subprocess.Popen([sys.executable, "-c", ORPHANED_FIT, kind], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, start_new_session=True, preexec_fn=default_sigint)
    try:
        word, imports = child.stdout.readline().split()
        assert word == "fitting"
        busy = 1.25 * float(imports) + 0.5  # CPU seconds that put a worker past its imports (the same as the child's), into its task
        started = time.monotonic()
        while True:  # both workers that far into their task
            workers = [p for p in psutil.Process(child.pid).children() if "LokyProcess" in " ".join(p.cmdline())]
            if len(workers) == 2 and all(sum(p.cpu_times()[:2]) > busy for p in workers):
                break
            assert time.monotonic() - started < 300, "the workers did not start"  # a safety net, no bound
            time.sleep(0.2)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        killed = time.monotonic()
        while (left := session_processes(child.pid)) and time.monotonic() - killed < 60:  # a safety net, no bound
            time.sleep(0.1)
        assert left == [], [p.cmdline() for p in left]
    finally:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.slow
def test_ctrl_c_on_a_parallel_cli_fit_leaks_no_semaphore():
    """SIGINT to `boolrules fit --n-jobs 2` alone (as a terminal's Ctrl-C reaches a process that ran
    it from a script) while its workers search: exit 130 and no resource-tracker "leaked semaphore"
    warning on stderr (before, each worker killed by joblib left the semaphore Pyomo's import makes)."""
    child = subprocess.Popen([sys.executable, "-m", "boolrules", "fit", "--n-jobs", "2", "--num-starts", "4",
                              "--num-iterations", "1000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True, preexec_fn=default_sigint)
    try:
        started = time.monotonic()
        while True:  # both workers 2 s of CPU into their task
            workers = [p for p in psutil.Process(child.pid).children() if "LokyProcess" in " ".join(p.cmdline())]
            if len(workers) == 2 and all(sum(p.cpu_times()[:2]) > 2 for p in workers):
                break
            assert time.monotonic() - started < 300 and child.poll() is None, "the workers did not start"  # a safety net
            time.sleep(0.2)
        os.kill(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=60)  # to the end of stderr: the resource tracker's exit too
    finally:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert child.returncode == 130, err
    assert "leaked" not in err, err
