"""Seeds drawn from a random_state: one bound, one draw, the same seeds as before it had a module."""

import random
import re
from pathlib import Path

import numpy as np
import pytest

import boolrules
from boolrules.seeding import MAX_SEED, draw_seed

from .errors import assert_raises_clearly


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_draws_are_those_of_the_bound_below_2_to_the_31(seed):
    """numpy's RandomState.randint and random.Random.randrange below 2**31 - 1, as every caller drew
    them before: the same seeds from the same random_state."""
    assert MAX_SEED == 2**31 - 1
    assert draw_seed(np.random.RandomState(seed)) == np.random.RandomState(seed).randint(2**31 - 1)
    np.testing.assert_array_equal(draw_seed(np.random.RandomState(seed), size=(3, 4)),
                                  np.random.RandomState(seed).randint(2**31 - 1, size=(3, 4)))
    assert draw_seed(random.Random(seed)) == random.Random(seed).randrange(2**31 - 1)


def test_a_python_generator_draws_one_seed_at_a_time():
    assert_raises_clearly(TypeError, lambda: draw_seed(random.Random(0), size=3), "size", "RandomState")


def test_the_bound_is_written_once():
    """Only seeding.py holds the bound (and cli/choices.py's copy, which its own test checks equal)."""
    source = Path(boolrules.__file__).parent
    spelled = re.compile(r"2\s*\*\*\s*31|2147483647")
    holders = sorted(str(path.relative_to(source)) for path in source.rglob("*.py") if spelled.search(path.read_text()))
    assert holders == ["cli/choices.py", "seeding.py"]
