"""Child Python processes for the interrupt tests: Ctrl-C handled as in a terminal, whatever started
the suite, and killed with everything they started if they overrun (a timed-out child must not leave
its joblib workers running: orphans that load the machine for hours)."""

import os
import signal
import subprocess
import sys

import pytest


def loky_pool(test):
    """A test whose fits run on joblib's process workers (loky's reusable pool, n_jobs=2): in the slow
    tier (process-level, as the interrupt tests), and under `pytest -n 2 --dist loadgroup` all on one
    pytest worker, so one pool (each of its workers seconds of imports) serves them all."""
    return pytest.mark.slow(pytest.mark.xdist_group("loky-pool")(test))


def default_sigint() -> None:
    """In a child before it runs: SIGINT to its default, so Python turns it into KeyboardInterrupt.
    A suite started in the background by a shell without job control inherits SIGINT ignored,
    and a Python started so ignores it too."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_python(args, timeout: float) -> subprocess.CompletedProcess:
    """`python *args` in a session of its own, its output captured as text; past `timeout` seconds
    its whole process group (its workers, a progress manager) is killed and the test fails."""
    process = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=default_sigint)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"python {' '.join(args[:1])} ... ran past {timeout} s and was killed with its group\n{out}\n{err}")
    finally:
        try:  # whatever it left behind, once it has ended
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)
