"""The format tests' problem and QUBO: `atleast_problem` (it has the integer k) and its QUBO."""

import pytest


@pytest.fixture(scope="module")
def problem(atleast_problem):
    return atleast_problem


@pytest.fixture(scope="module")
def qubo(atleast_qubo):
    return atleast_qubo
