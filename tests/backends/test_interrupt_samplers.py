"""Ctrl-C stops a sampler backend at once (issue 15, item 6): sa and tabu sample in C without
checking for it, so `boolrules solve --backend sa` used to run on for its whole run after Ctrl-C."""

import subprocess
import sys
import textwrap

import pytest

from ..processes import default_sigint, run_python

INTERRUPTED_SAMPLING = textwrap.dedent("""
    import os, signal, sys, threading, time
    import numpy as np
    from boolrules.backends import get_backend
    from boolrules.formulations import depth_one

    X = np.random.default_rng(0).integers(0, 2, (400, 30), dtype=np.uint8)
    problem = depth_one(X, (X[:, 0] | X[:, 1]).astype(np.uint8), "AtLeast", max_num_literals=8)
    options = {"sa": {"num_reads": 20_000, "num_sweeps": 10_000}, "tabu": {"num_reads": 4, "timeout": 600_000}}
    backend = get_backend(sys.argv[1], seed=1, **options[sys.argv[1]])
    threading.Timer(2, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        backend.solve(problem)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")
    if sys.argv[1] == "sa":  # told to stop: its sampling thread ends after its current read (else in hours)
        while any(t.name.startswith("sampling") for t in threading.enumerate()):
            time.sleep(0.1)
    print("sampling", sum(t.name.startswith("sampling") for t in threading.enumerate()))
""")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sa", "tabu"])
def test_ctrl_c_stops_a_sampler_at_once(backend):
    """SIGINT 2 s into a solve of hours (sa: 20,000 reads of 10,000 sweeps; tabu: 4 reads of 10 minutes): the solve
    raises KeyboardInterrupt, not after its sampling (the child ends at all within its safety timeout);
    sa (which takes an interrupt function) stops sampling after its current read (the child waits for
    its sampling thread to end), tabu's reads end in the background (the CLI exits meanwhile)."""
    out = run_python(["-c", INTERRUPTED_SAMPLING, backend], timeout=120)  # a safety net: hours if not stopped
    lines = dict(line.split(" ", 1) if " " in line else (line, "") for line in out.stdout.splitlines())
    assert "interrupted" in lines, out.stdout + out.stderr
    if backend == "sa":
        assert lines["sampling"] == "0"


SA_FOR_HOURS = """[backend]
name = "sa"
num_reads = 1000000  # hours of reads: only the interrupt can end the solve within the safety timeout
num_sweeps = 1000

[problem]
max_samples = 100
"""


@pytest.mark.slow
def test_ctrl_c_stops_boolrules_solve_with_sa(tmp_path):
    """`boolrules solve --backend sa` (hours of reads here) exits with 130 on SIGINT: it ends at all
    (within the safety timeout), and through KeyboardInterrupt, so the interrupt stopped its sampling."""
    import signal
    import time

    import psutil

    config = tmp_path / "sa.toml"
    config.write_text(SA_FOR_HOURS)
    process = subprocess.Popen([sys.executable, "-m", "boolrules.cli", "solve", "--dataset", "breast_cancer",
                                "--backend", str(config)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=default_sigint)
    try:
        child = psutil.Process(process.pid)
        while sum(child.cpu_times()[:2]) < 6:  # past the imports and the compilation (about 5 s of CPU): sampling
            assert process.poll() is None, process.communicate()
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)  # a safety net against a solve that goes on
    finally:
        process.kill()
    assert process.returncode == 130, err


TABU_AFTER_CTRL_C = textwrap.dedent("""
    import os, signal, threading, time
    import numpy as np
    from boolrules.backends import get_backend
    from boolrules.formulations import depth_one

    X = np.random.default_rng(0).integers(0, 2, (400, 30), dtype=np.uint8)
    problem = depth_one(X, (X[:, 0] | X[:, 1]).astype(np.uint8), "AtLeast", max_num_literals=8)
    backend = get_backend("tabu", num_reads=100_000, timeout=300)  # 8 hours of reads of 0.3 s
    threading.Timer(3, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        backend.solve(problem)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")
    while any(t.name.startswith("sampling") for t in threading.enumerate()):  # the batch under way
        time.sleep(0.1)
    print("sampling", sum(t.name.startswith("sampling") for t in threading.enumerate()))
""")


@pytest.mark.slow
def test_tabu_stops_computing_soon_after_ctrl_c():
    """Tabu's reads run in C, deaf to Ctrl-C: they go in batches of at most `BATCH_SECONDS`, so after
    the interrupt no further batch starts and the sampling ends with the batch under way: the child
    waits for its sampling threads to end, and does so within its safety timeout although its reads
    would take hours (before, its thread sampled on for all the remaining reads, a whole core busy)."""
    out = run_python(["-c", TABU_AFTER_CTRL_C], timeout=120)  # a safety net: hours if the sampling went on
    lines = dict(line.split(" ", 1) if " " in line else (line, "") for line in out.stdout.splitlines())
    assert "interrupted" in lines, out.stdout + out.stderr
    assert lines["sampling"] == "0", lines
