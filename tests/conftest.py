"""Fixtures shared across test modules."""

import numpy as np
import pytest

from boolrules.formulations import depth_one
from boolrules.rules import Literal, Or

from .planted import planted


@pytest.fixture(scope="session")
def or_problem():
    """A depth-one Or problem (30 samples, 6 features, at most 2 literals) planted as x0 | x3."""
    return depth_one(*planted(Or(Literal(0), Literal(3)), 30, 6), "Or", max_num_literals=2)


@pytest.fixture(scope="session")
def atleast_problem():
    """12 random rows x 4 features, AtLeast (so the model has the integer k), λ = 0.05."""
    X = np.random.default_rng(0).integers(0, 2, (12, 4), dtype=np.uint8)
    return depth_one(X, np.array([0, 1] * 6, np.uint8), "AtLeast", max_num_literals=2, lam=0.05)


@pytest.fixture(scope="session")
def atleast_qubo(atleast_problem):
    """`atleast_problem`'s QUBO without η, calibrated penalties."""
    return atleast_problem.to_qubo(eta=False, penalty="calibrated")



@pytest.fixture
def no_dwave_credentials(tmp_path, monkeypatch):
    """An empty dwave config file and no token in the environment: nothing can reach the cloud.
    Returns the config file's path."""
    config = tmp_path / "dwave.conf"
    config.write_text("")
    monkeypatch.setenv("DWAVE_CONFIG_FILE", str(config))
    for name in ("DWAVE_API_TOKEN", "DWAVE_PROFILE", "DWAVE_API_ENDPOINT", "DWAVE_API_REGION"):
        monkeypatch.delenv(name, raising=False)
    return config
