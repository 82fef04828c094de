"""Every example config runs from the command line as the README shows: `boolrules solve
--dataset credit_risk --config examples/configs/FILE.toml`, its [problem] table sizing the problem;
exact.toml on every bundled dataset, the real QPU's config through the mock QPU, and each other one
on a bundled dataset with a useful answer (HiGHS's proven optimum, a sampler's raw sample a valid
rule). benchmarks/bench_example_configs.py runs every config on every dataset."""

import json
import tomllib
from pathlib import Path

import pytest

from boolrules.backends.config import problem_caps
from boolrules.backends.hardware import QAOA_MAX_QUBITS
from boolrules.cli import main
from boolrules.datasets import DATASETS

CONFIGS = Path(__file__).resolve().parents[1] / "examples" / "configs"
# Arguments a config's run adds to the README's: qaoa.toml simulates one qubit per QUBO variable, and
# its default AtLeast problem (18 qubits) takes about 10 s; the Or problem on the same [problem] caps
# (4 rows, 2 features) runs the same config, backend and decoding on a few qubits in well under a second.
EXTRA = {"qaoa": ["--operator", "Or"]}


def solve(capsys, config: Path, dataset: str, *extra: str) -> dict:
    argv = ["solve", "--dataset", dataset, "--config", str(config), *extra, "--json"]
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def check(result: dict, config: Path) -> None:
    caps = problem_caps(config)
    assert result["rule"] and result["status"] in ("optimal", "feasible", "time_limit")
    assert result["problem_rows"] == caps["max_samples"]
    assert result["max_features"] == caps["max_features"]
    assert 0 <= result["test_balanced_accuracy"] <= 1


@pytest.mark.parametrize("config", sorted(CONFIGS.glob("*.toml")), ids=lambda path: path.stem)
def test_every_example_config_sizes_its_problem(config):
    """So that each runs as it is on every bundled dataset, the largest included."""
    assert set(problem_caps(config)) == {"max_samples", "max_features"}


# Each config's run: exact.toml is run on every bundled dataset (credit_risk among them) and
# dwave-qpu-mock.toml, which is dwave-qpu.toml plus `mock`, as that file with `mock` added (the same
# settings once parsed); every other config here, once on breast_cancer (HiGHS's quickest proof).
RUN_ELSEWHERE = {"dwave-qpu", "dwave-qpu-mock", "exact"}
PARAMS = [path for path in sorted(CONFIGS.glob("*.toml")) if path.stem not in RUN_ELSEWHERE]


@pytest.mark.parametrize("config", PARAMS, ids=lambda path: path.stem)
def test_every_example_config_solves_a_bundled_dataset_usefully(capsys, no_dwave_credentials, config):
    result = solve(capsys, config, "breast_cancer", *EXTRA.get(config.stem, []))
    check(result, config)
    if result["backend"] == "highs":
        assert result["status"] == "optimal"
    else:  # a sampler's lowest-energy sample is a valid rule as it stands
        assert result["stages"]["raw"]["feasible"], result["message"]


def test_the_real_qpu_config_runs_through_the_mock(capsys, no_dwave_credentials, tmp_path):
    """dwave-qpu.toml is dwave-qpu-mock.toml but for `mock`: with it added, it runs offline (this
    run is also dwave-qpu-mock.toml's: the two parse to the same settings)."""
    real, mock = (tomllib.loads((CONFIGS / name).read_text()) for name in ("dwave-qpu.toml", "dwave-qpu-mock.toml"))
    assert mock["backend"].pop("mock") == "pegasus" and mock == real
    text = (CONFIGS / "dwave-qpu.toml").read_text().replace('name = "dwave-qpu"\n',
                                                             'name = "dwave-qpu"\nmock = "pegasus"\n')
    path = tmp_path / "dwave-qpu.toml"
    path.write_text(text)
    result = solve(capsys, path, "credit_risk")
    check(result, path)
    assert result["backend"] == "dwave-qpu" and result["backend_options"]["seed"] == 0  # --seed reached the mock


@pytest.mark.parametrize("dataset", DATASETS)
def test_exact_runs_on_every_bundled_dataset(capsys, dataset):
    config = CONFIGS / "exact.toml"
    check(solve(capsys, config, dataset), config)


def test_qaoa_fits_every_bundled_dataset(capsys):
    """qaoa.toml's [problem] caps give every dataset a QUBO within max_qubits (it runs on one above)."""
    caps = problem_caps(CONFIGS / "qaoa.toml")
    qubo = tomllib.loads((CONFIGS / "qaoa.toml").read_text())["qubo"]
    assert qubo["eta"] is False
    for dataset in DATASETS:
        argv = ["inspect", "--dataset", dataset, "--max-samples", str(caps["max_samples"]), "--max-features",
                str(caps["max_features"]), "--no-eta", "--penalty", qubo["penalty"], "--json"]
        assert main(argv) == 0, capsys.readouterr().err
        hardware = json.loads(capsys.readouterr().out)["hardware"]
        assert hardware["variables"] <= QAOA_MAX_QUBITS, dataset
