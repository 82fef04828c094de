"""The benchmark scripts, imported by the tests that check them."""

import importlib.util
import sys
from contextlib import contextmanager
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@contextmanager
def benchmark_module(name: str):
    """benchmarks/<name>.py imported as the module `name`, importable by that name while in use
    (joblib and Dask workers unpickle its tasks by it), and forgotten afterwards."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop(name, None)
