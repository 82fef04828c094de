"""Stress run: the largest dataset (Direct Marketing, 41,188 rows) through RuleClassifier.fit.

The raw Direct Marketing columns (complete rows) are split 70/30 (stratified, fixed seed) and
fitted twice by `RuleClassifier` with its default `binarizer="auto"` (QuantileBinarizer inside
fit): local moves only, then with non-local moves (HiGHS, a short time limit per solve). For each
fit it records wall time, CPU time (this process plus its joblib workers), peak memory (this
process's peak RSS during the fit, reset before it through /proc/self/clear_refs where Linux
allows, and the largest and summed peak RSS of the worker processes, sampled through psutil and
/proc), the data's size in memory, train/test balanced accuracy, the rule and its complexity and
the oracle counts. Fresh joblib workers are started for each fit and shut down after it, so
their CPU time is reaped into RUSAGE_CHILDREN and worker start-up is part of the measured fit.

Run (the full stress run; `--max-rows` takes a stratified random slice, for tests):
    nohup .venv/bin/python benchmarks/bench_stress.py --output benchmarks/results/stress_direct_marketing.md &
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

from boolrules import RuleClassifier, load_dataset
from boolrules.data import QuantileBinarizer
from boolrules.rules import BitMatrix

try:
    import psutil
except ImportError:  # optional: without it worker memory comes from RUSAGE_CHILDREN only
    psutil = None

MB = 1024 * 1024
COLUMNS = ["moves", "wall s", "CPU s (self + workers)", "CPU / wall", "peak RSS main MB",
           "peak RSS per worker MB (workers)", "peak RSS children sum MB", "tracemalloc peak MB", "train BA", "test BA",
           "complexity", "oracle calls", "proposed", "nothing", "failed"]


def _status_kb(pid, field):
    """A `VmHWM`/`VmRSS`-style field of /proc/<pid>/status in bytes, or None (not Linux, gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def reset_peak_rss() -> bool:
    """Reset this process's peak RSS (VmHWM) to its current RSS (Linux >= 4.0); True if done."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class WorkerMonitor(threading.Thread):
    """Samples the RSS of this process's descendants (joblib workers) until stopped.

    Per worker it keeps the larger of its sampled RSS and its kernel peak (VmHWM), so short
    spikes between samples are not lost while the worker lives; `peak_sum` is the largest sum of
    the workers' RSS seen at one sample. Without psutil it records nothing."""

    def __init__(self, interval=0.25):
        super().__init__(daemon=True)
        self.interval = interval
        self.per_worker = {}
        self.helpers = set()  # resource trackers: counted in peak_sum, not as workers
        self.peak_sum = 0
        self._children, self._listed = [], -float("inf")
        self._stop_event = threading.Event()

    def run(self):
        if psutil is None:
            return
        me = psutil.Process()
        while not self._stop_event.is_set():
            self.sample(me)
            self._stop_event.wait(self.interval)

    def sample(self, me, refresh=False):
        """One sample; the list of descendants (a scan of every process) is refreshed every 2 s."""
        now = time.monotonic()
        if refresh or now - self._listed >= 2.0:
            try:
                self._children = me.children(recursive=True)
            except psutil.Error:
                return
            self._listed = now
        total = 0
        for child in self._children:
            try:
                rss = child.memory_info().rss
                if child.pid not in self.per_worker and "resource_tracker" in " ".join(child.cmdline()):
                    self.helpers.add(child.pid)
            except psutil.Error:
                continue
            hwm = _status_kb(child.pid, "VmHWM") or 0
            self.per_worker[child.pid] = max(self.per_worker.get(child.pid, 0), rss, hwm)
            total += rss
        self.peak_sum = max(self.peak_sum, total)

    def stop(self):
        self._stop_event.set()
        self.join()


def shutdown_workers():
    """Stop joblib's reusable loky workers (and wait for them), so they are reaped."""
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)


def cpu_seconds(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measured_fit(clf, X_train, y_train, use_tracemalloc):
    """Fit `clf` and return its wall, CPU and memory figures."""
    shutdown_workers()
    reset = reset_peak_rss()
    monitor = WorkerMonitor()
    monitor.start()
    if use_tracemalloc:
        tracemalloc.start()
    self0, children0 = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    clf.fit(X_train, y_train)
    wall = time.perf_counter() - start
    traced = tracemalloc.get_traced_memory()[1] if use_tracemalloc else None
    if use_tracemalloc:
        tracemalloc.stop()
    monitor.stop()
    if psutil is not None:  # a last sample while the workers still live
        monitor.sample(psutil.Process(), refresh=True)
    self_cpu = cpu_seconds(resource.RUSAGE_SELF) - self0
    shutdown_workers()  # workers exit and are reaped: their CPU time lands in RUSAGE_CHILDREN
    workers_cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - children0
    main_peak = _status_kb("self", "VmHWM") if reset else None
    if main_peak is None:  # no reset possible: the process's lifetime peak (an upper bound)
        scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
        main_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    workers = [peak for pid, peak in monitor.per_worker.items() if pid not in monitor.helpers]
    per_worker = max(workers, default=0)
    if psutil is None and workers_cpu > 0:  # only the cumulative maximum over reaped children
        per_worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return {
        "wall": wall, "self_cpu": self_cpu, "workers_cpu": workers_cpu, "cpu": self_cpu + workers_cpu,
        "main_peak": main_peak, "main_peak_is_lifetime": not reset, "worker_peak": per_worker,
        "workers_sum_peak": monitor.peak_sum, "num_workers": len(workers),
        "num_helpers": len(monitor.helpers), "traced_peak": traced,
    }


def format_row(row):
    stats = row["stats"]
    traced = "-" if row["traced_peak"] is None else f"{row['traced_peak'] / MB:.1f}"
    workers = "-" if not row["num_workers"] else f"{row['worker_peak'] / MB:.0f} ({row['num_workers']})"
    workers_sum = "-" if not row["workers_sum_peak"] else f"{row['workers_sum_peak'] / MB:.0f}"
    failed = "-" if stats is None else str(stats.failed) + (
        f" ({', '.join(f'{k}: {v}' for k, v in stats.failures.items())})" if stats.failures else "")
    cells = [row["moves"], f"{row['wall']:.1f}", f"{row['cpu']:.1f} ({row['self_cpu']:.1f} + {row['workers_cpu']:.1f})",
             f"{row['cpu'] / row['wall']:.2f}", f"{row['main_peak'] / MB:.0f}", workers, workers_sum, traced,
             f"{row['train']:.4f}", f"{row['test']:.4f}", str(row["complexity"]),
             "-" if stats is None else str(stats.calls), "-" if stats is None else str(stats.proposed),
             "-" if stats is None else str(stats.nothing), failed]
    return "| " + " | ".join(cells) + " |"


def load_average():
    try:
        return "{:.2f}, {:.2f}, {:.2f}".format(*os.getloadavg())
    except OSError:
        return "n/a"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="direct_marketing")
    parser.add_argument("--max-rows", type=int, default=None,
                        help="use a stratified random slice of this many rows (default: all)")
    parser.add_argument("--max-complexity", type=int, default=10)
    parser.add_argument("--num-starts", type=int, default=20)
    parser.add_argument("--num-iterations", type=int, default=2000)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--backend", default="highs", help="the non-local backend")
    parser.add_argument("--time-limit", type=float, default=0.5, help="seconds per non-local solve")
    parser.add_argument("--max-samples", type=int, default=100, help="most rows in a non-local subproblem")
    parser.add_argument("--seed", type=int, default=0, help="the split's and the classifier's random_state")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="also trace Python allocations in this process (slows the fit down)")
    parser.add_argument("--modes", nargs="+", default=["local", "nonlocal"], choices=["local", "nonlocal"])
    parser.add_argument("--output", type=Path, default=None, help="also write the report here (markdown)")
    args = parser.parse_args(argv)

    lines = []

    def emit(text=""):
        print(text, flush=True)
        lines.append(text)
        if args.output is not None:
            args.output.parent.mkdir(parents=True, exist_ok=True)
            args.output.write_text("\n".join(lines) + "\n")

    command = shlex.join([".venv/bin/python", "benchmarks/bench_stress.py",
                          *(sys.argv[1:] if argv is None else argv)])
    emit(f"# Stress run: {args.dataset}\n")
    emit(f"    {command}\n")
    emit(f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
         f"psutil {'yes' if psutil is not None else 'no'}; load average (1, 5, 15 min) at start: {load_average()}")

    t0 = time.perf_counter()
    data = load_dataset(args.dataset, paper_layout=True)
    load_seconds = time.perf_counter() - t0
    X, y = data.raw, data.y
    if args.max_rows is not None and args.max_rows < len(y):
        keep, _ = train_test_split(np.arange(len(y)), train_size=args.max_rows, stratify=y, random_state=args.seed)
        keep = np.sort(keep)
        X, y = X.iloc[keep].reset_index(drop=True), y[keep]
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=args.seed)
    t0 = time.perf_counter()
    Xb = QuantileBinarizer().fit_transform(X_train)  # what fit's binarizer="auto" does
    binarize_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    bits = BitMatrix(Xb)
    pack_seconds = time.perf_counter() - t0
    bits_nbytes = bits.literal_words.nbytes + bits.ones.nbytes + bits.zeros.nbytes
    emit(f"\nData: {len(y)} rows ({len(y_train)} train / {len(y_test)} test, {y.mean():.1%} positive), "
         f"{X.shape[1]} raw columns ({X.memory_usage(deep=True).sum() / MB:.1f} MB as a DataFrame, loaded in "
         f"{load_seconds:.1f} s); binarized training matrix {Xb.shape[0]} x {Xb.shape[1]} {Xb.dtype} = "
         f"{Xb.nbytes / MB:.2f} MB (binarized in {binarize_seconds:.2f} s), its BitMatrix "
         f"{bits_nbytes / MB:.2f} MB (packed in {pack_seconds * 1e3:.0f} ms).")
    del Xb, bits
    emit(f"\nSearch: max_complexity {args.max_complexity}, {args.num_starts} starts x {args.num_iterations} "
         f"iterations, n_jobs {args.n_jobs}, random_state {args.seed}; non-local: {args.backend}, "
         f"{args.time_limit} s per solve, at most {args.max_samples} samples per subproblem.\n")
    emit("| " + " | ".join(COLUMNS) + " |")
    emit("|---|" + "---:|" * (len(COLUMNS) - 1))

    rows, loads = [], []
    for mode in args.modes:
        clf = RuleClassifier(
            max_complexity=args.max_complexity, num_starts=args.num_starts, num_iterations=args.num_iterations,
            n_jobs=args.n_jobs, random_state=args.seed,
            nonlocal_backend=args.backend if mode == "nonlocal" else None,
            nonlocal_time_limit=args.time_limit, max_samples=args.max_samples,
        )
        row = measured_fit(clf, X_train, y_train, args.tracemalloc)
        loads.append(load_average())
        row.update(moves="local" if mode == "local" else f"+ non-local ({args.backend})",
                   train=clf.best_score_, test=clf.score(X_test, y_test), complexity=clf.best_rule_.complexity,
                   rule=clf.rule_text_, stats=clf.nonlocal_stats_)
        rows.append(row)
        emit(format_row(row))

    emit(f"\nLoad average (1, 5, 15 min) after each fit: {'; '.join(loads)}.")
    if any(r["num_helpers"] for r in rows):
        emit("Children sum: the largest total RSS of this process's descendants at one sample (every 0.25 s): "
             "the joblib workers plus joblib's and multiprocessing's resource trackers.")
    if any(r["main_peak_is_lifetime"] for r in rows):
        emit("Peak RSS main: the process's lifetime peak (could not reset it before the fit).")
    local = [r for r in rows if r["stats"] is None]
    for row in rows:
        if row["stats"] is not None and row["stats"].calls and local:
            extra = row["cpu"] - local[0]["cpu"]
            emit(f"Non-local CPU beyond local-only: {extra:.1f} s over {row['stats'].calls} oracle calls = "
                 f"{extra / row['stats'].calls * 1e3:.0f} ms per call.")
    emit("\n| moves | complexity | rule |")
    emit("|---|---:|---|")
    for row in rows:
        emit(f"| {row['moves']} | {row['complexity']} | `{row['rule']}` |")
    return rows


if __name__ == "__main__":
    main()
