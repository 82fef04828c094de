import matplotlib
import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.plotting import plot_trajectory

matplotlib.use("Agg")


def test_trajectory_plot_draws_every_start(tmp_path):
    X = np.random.default_rng(0).integers(0, 2, (100, 6))
    y = X[:, 0] | X[:, 1]
    clf = RuleClassifier(num_starts=3, num_iterations=100, record_trajectory=True, random_state=0).fit(X, y)
    ax = plot_trajectory(clf.starts_)
    assert len(ax.lines) == 2 * 3 + 2  # current and best per start, plus two start separators
    ax.figure.savefig(tmp_path / "trajectory.png")
    assert (tmp_path / "trajectory.png").stat().st_size > 0


def test_trajectory_plot_needs_a_record():
    X = np.random.default_rng(0).integers(0, 2, (50, 4))
    clf = RuleClassifier(num_starts=1, num_iterations=10, random_state=0).fit(X, X[:, 0])
    with pytest.raises(ValueError, match="record_trajectory=True"):
        plot_trajectory(clf.starts_)
