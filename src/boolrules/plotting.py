"""Plots of search results: the annealing trajectory of each start, with non-local moves marked
(paper Figures 6 and 8)."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_trajectory"]


def plot_trajectory(starts, ax=None):
    """Objective of the current rule per iteration for every start, over the temperature.

    `starts` is `RuleClassifier.starts_` of a fit with `record_trajectory=True` (or a list of
    `StartResult`s); returns the matplotlib Axes of the objective (temperature on a twin axis).
    """
    import matplotlib.pyplot as plt

    trajectories = [s.trajectory for s in starts]
    if not trajectories or any(t is None for t in trajectories):
        raise ValueError("no trajectory recorded: fit with record_trajectory=True")
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    offset = 0
    marked = {True: False, False: False}
    for i, traj in enumerate(trajectories):
        steps = np.arange(offset, offset + len(traj.objective))
        ax.plot(steps, traj.objective, lw=0.8, color="C0", label="current" if i == 0 else None)
        ax.plot(steps, traj.best_objective, lw=1.2, color="C1", label="best of start" if i == 0 else None)
        moves = traj.nonlocal_moves
        for accepted in (True, False):
            chosen = moves[traj.accepted[moves] == accepted]
            if chosen.size:
                label = None if marked[accepted] else f"non-local move, {'accepted' if accepted else 'rejected'}"
                marked[accepted] = True
                ax.scatter(steps[chosen], traj.objective[chosen], s=14, zorder=3, label=label,
                           color="C2" if accepted else "C3", marker="^" if accepted else "x")
        if i:
            ax.axvline(offset, color="0.85", lw=0.8)
        offset += len(traj.objective)
    ax.set_xlabel("iteration (starts one after another)")
    ax.set_ylabel("objective")
    twin = ax.twinx()
    twin.plot(np.arange(offset), np.concatenate([t.temperature for t in trajectories]), color="0.6", lw=0.8)
    twin.set_yscale("log")
    twin.set_ylabel("temperature")
    ax.legend(loc="lower right")
    return ax
