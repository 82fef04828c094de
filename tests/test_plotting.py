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


def test_trajectory_plot_marks_non_local_moves():
    X = np.random.default_rng(1).integers(0, 2, (80, 6))
    y = (X[:, 0] & X[:, 1]) | X[:, 2]
    clf = RuleClassifier(num_starts=1, num_iterations=90, patience=2, record_trajectory=True, random_state=0,
                         max_complexity=6, nonlocal_backend="highs").fit(X, y)
    moves = clf.starts_[0].trajectory.nonlocal_moves
    assert moves.size > 0
    ax = plot_trajectory(clf.starts_)
    marked = sum(len(c.get_offsets()) for c in ax.collections)
    assert marked == moves.size
