"""The package stands on its own: a wheel built from the sources and installed elsewhere loads every
dataset it ships, with no repository or data folder around it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

LOAD_EVERY_DATASET = """
import sys
sys.path.insert(0, sys.argv[1])
import boolrules
from boolrules import datasets
assert boolrules.__file__.startswith(sys.argv[1]), boolrules.__file__
for name, (filename, read) in datasets._READERS.items():
    frame, label = read(datasets._find_file(filename, None))
    print(name, len(frame), int(label.sum()))
print("parkinsons binarized", datasets.load_dataset("parkinsons").X.shape[0])
"""


def pip(*args, cwd):
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", *args], cwd=cwd,
                   check=True, capture_output=True, text=True)


@pytest.mark.slow
def test_an_installed_wheel_loads_every_shipped_dataset(tmp_path):
    source = tmp_path / "source"  # a copy, so that building leaves nothing in the repository
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    pip("wheel", "--no-deps", "--wheel-dir", str(tmp_path / "dist"), str(source), cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("boolrules-*.whl")
    pip("install", "--no-deps", "--target", str(tmp_path / "site"), str(wheel), cwd=tmp_path)
    shutil.rmtree(source)
    env = {key: value for key, value in os.environ.items() if key not in ("BOOLRULES_DATA", "PYTHONPATH")}
    out = subprocess.run([sys.executable, "-c", LOAD_EVERY_DATASET, str(tmp_path / "site")], cwd=tmp_path, env=env,
                         check=True, capture_output=True, text=True).stdout.splitlines()
    # rows and positives of each raw file, as SOURCES.md counts them
    assert out == ["credit_risk 1000 300", "customer_churn 7043 1869", "parkinsons 195 147", "home_equity 5960 1189",
                   "online_shoppers 12330 1908", "direct_marketing 41188 4640", "credit_card_default 30000 6636",
                   "parkinsons binarized 195"]
