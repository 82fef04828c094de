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
    sent = []
    threading.Timer(2, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT))).start()
    try:
        backend.solve(problem)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - sent[0])
    end = time.perf_counter() + 20
    while any(t.name.startswith("sampling") for t in threading.enumerate()) and time.perf_counter() < end:
        time.sleep(0.1)
    print("sampling", sum(t.name.startswith("sampling") for t in threading.enumerate()))
""")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sa", "tabu"])
def test_ctrl_c_stops_a_sampler_at_once(backend):
    """SIGINT 2 s into a solve of hours (sa: 20,000 reads of 10,000 sweeps; tabu: 4 reads of 10 minutes): the solve
    raises KeyboardInterrupt within seconds of the signal; sa (which takes an interrupt function) stops
    sampling after its current read (within 20 s), tabu's reads end in the background (the CLI exits meanwhile)."""
    out = run_python(["-c", INTERRUPTED_SAMPLING, backend], timeout=120)
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert "interrupted" in lines, out.stdout + out.stderr
    assert float(lines["interrupted"]) < 10
    if backend == "sa":
        assert lines["sampling"] == "0"


@pytest.mark.slow
def test_ctrl_c_stops_boolrules_solve_with_sa():
    """`boolrules solve --backend sa` (about a minute on Breast Cancer) exits with 130 within seconds of SIGINT."""
    import signal
    import time

    process = subprocess.Popen([sys.executable, "-m", "boolrules.cli", "solve", "--dataset", "breast_cancer",
                                "--backend", "sa"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=default_sigint)
    time.sleep(12)  # past the imports and the compilation: sampling
    assert process.poll() is None, process.communicate()
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert time.perf_counter() - sent < 10, err
    assert process.returncode == 130, err


TABU_AFTER_CTRL_C = textwrap.dedent("""
    import os, signal, threading, time
    import numpy as np
    from boolrules.backends import get_backend
    from boolrules.formulations import depth_one

    X = np.random.default_rng(0).integers(0, 2, (400, 30), dtype=np.uint8)
    problem = depth_one(X, (X[:, 0] | X[:, 1]).astype(np.uint8), "AtLeast", max_num_literals=8)
    backend = get_backend("tabu", num_reads=100, timeout=300)  # 30 s of reads
    threading.Timer(3, os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        backend.solve(problem)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted")
    time.sleep(1)
    cpu = time.process_time()
    time.sleep(2)
    print("cpu", time.process_time() - cpu)
""")


@pytest.mark.slow
def test_tabu_stops_computing_soon_after_ctrl_c():
    """Tabu's reads run in C, deaf to Ctrl-C: they go in batches of at most `BATCH_SECONDS`, so one
    second after the interrupt the process computes nothing (before, its thread sampled on for the
    remaining 27 s of its 100 reads of 0.3 s, a whole core busy)."""
    out = run_python(["-c", TABU_AFTER_CTRL_C], timeout=120)
    lines = dict(line.split(" ", 1) if " " in line else (line, "") for line in out.stdout.splitlines())
    assert "interrupted" in lines, out.stdout + out.stderr
    assert float(lines["cpu"]) < 0.3, lines
