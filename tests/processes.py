"""Child Python processes for the interrupt tests, killed with everything they started if they
overrun: a timed-out child must not leave its joblib workers running (orphans that load the machine
for hours and make the next interrupt tests time out too)."""

import os
import signal
import subprocess
import sys

import pytest


def run_python(args, timeout: float) -> subprocess.CompletedProcess:
    """`python *args` in a session of its own, its output captured as text; past `timeout` seconds
    its whole process group (its workers, a progress manager) is killed and the test fails."""
    process = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
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
