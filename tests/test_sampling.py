import random

import numpy as np
import pytest

from boolrules.sampling import subsample_rows


@pytest.mark.parametrize("max_samples", [None, 50, 80])
def test_all_rows_when_there_are_not_more_than_max_samples(max_samples):
    assert np.array_equal(subsample_rows(50, max_samples, 0), np.arange(50))


@pytest.mark.parametrize("random_state", [np.random.RandomState(3), random.Random(3), 3])
def test_max_samples_distinct_sorted_rows(random_state):
    rows = subsample_rows(200, 30, random_state)
    assert len(rows) == 30 and len(np.unique(rows)) == 30
    assert np.all(np.diff(rows) > 0) and 0 <= rows[0] and rows[-1] < 200


def test_each_callers_random_stream_is_kept():
    """The native search draws with `random.Random.sample`, the estimators and the CLI with a
    RandomState's `choice`: the rows are the ones those calls give, so seeds give what they gave."""
    assert subsample_rows(200, 30, random.Random(5)).tolist() == sorted(random.Random(5).sample(range(200), 30))
    expected = np.sort(np.random.RandomState(5).choice(200, 30, replace=False))
    assert np.array_equal(subsample_rows(200, 30, np.random.RandomState(5)), expected)
    assert np.array_equal(subsample_rows(200, 30, 5), expected)
    assert not np.array_equal(subsample_rows(200, 30, 6), expected)
