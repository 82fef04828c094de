"""Plots of search results and QUBOs: the annealing trajectory of each start with non-local moves
marked (paper Figures 6 and 8), score against complexity per method, the validation curve of
`RuleClassifierCV`, a QUBO's matrix and its
coefficient magnitudes, and a rule highlighted by the explanation of one decision."""

from __future__ import annotations

import numpy as np

from .exceptions import InputError, InputTypeError
from .rules import Explanation

__all__ = ["plot_trajectory", "plot_pareto", "plot_validation_curve", "plot_qubo", "plot_coefficients", "plot_explanation"]

_PIXELS = 500  # most cells per side of the plot_qubo image


def plot_trajectory(starts, ax=None):
    """Objective of the current rule per iteration for every start, over the temperature.

    `starts` is `RuleClassifier.starts_` of a fit with `record_trajectory=True` (or a list of
    `StartResult`s); returns the matplotlib Axes of the objective (temperature on a twin axis).
    """
    import matplotlib.pyplot as plt

    trajectories = [s.trajectory for s in starts]
    if not trajectories or any(t is None for t in trajectories):
        raise InputError("no trajectory recorded: fit with record_trajectory=True")
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


def plot_pareto(results, ax=None):
    """Score against complexity, one line per method with mean ± standard deviation error bars over
    the repeats (no bar for a single repeat).

    `results` is a DataFrame or a list of dicts with columns `method`, `complexity` and `score`,
    several rows per (method, complexity) for the repeats (splits, seeds).
    """
    import matplotlib.pyplot as plt
    import pandas as pd

    frame = pd.DataFrame(results)
    missing = [c for c in ("method", "complexity", "score") if c not in frame.columns]
    if missing:
        raise InputError(f"results need the columns method, complexity and score; missing {missing}")
    if frame.empty:
        raise InputError("results hold no rows")
    for column in ("complexity", "score"):
        if not pd.api.types.is_numeric_dtype(frame[column]) or not np.isfinite(frame[column].to_numpy(float)).all():
            raise InputError(f"results column {column!r} must hold finite numbers")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    stats = frame.groupby(["method", "complexity"], sort=False)["score"].agg(["mean", "std"]).fillna(0.0)
    for method, group in stats.groupby(level="method", sort=False):
        group = group.droplevel("method").sort_index()
        ax.errorbar(group.index.to_numpy(float), group["mean"].to_numpy(float), yerr=group["std"].to_numpy(float),
                    marker="o", ms=4, capsize=3, label=str(method))
    ax.set_xlabel("complexity")
    ax.set_ylabel("score")
    ax.legend()
    return ax


def plot_validation_curve(search, ax=None):
    """Mean validation score against `max_complexity` (± one standard deviation over the folds),
    one line per `lam`, of a fitted `RuleClassifierCV`; the chosen candidate is marked and the
    one-standard-error band below the best mean is shaded. Returns the matplotlib Axes."""
    import matplotlib.pyplot as plt

    results = getattr(search, "cv_results_", None)
    if results is None:
        raise InputError("search must be a fitted two-class RuleClassifierCV (with cv_results_); with more than "
                         "two classes, plot one of its estimators_")
    complexity, lam = results["param_max_complexity"], results["param_lam"]
    mean, std = results["mean_test_score"], results["std_test_score"]
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    for value in np.unique(lam):
        chosen = lam == value
        ax.errorbar(complexity[chosen], mean[chosen], yerr=std[chosen], marker="o", ms=4, capsize=3,
                    label=f"lam={value:g}")
    folds = sum(key.startswith("split") for key in results)
    best = int(np.argmax(mean))
    scores = np.array([results[f"split{k}_test_score"][best] for k in range(folds)])
    error = scores.std(ddof=1) / np.sqrt(folds) if folds > 1 else 0.0
    ax.axhspan(mean[best] - error, mean[best], color="0.9", zorder=0, label="one standard error of the best")
    index = search.best_index_
    ax.scatter([complexity[index]], [mean[index]], s=120, facecolors="none", edgecolors="C3", lw=2, zorder=4,
               label=f"chosen: max_complexity={complexity[index]}")
    ax.set_xlabel("max_complexity")
    ax.set_ylabel(f"validation {search.metric}")
    ax.legend()
    return ax


def _blocks(qubo) -> np.ndarray:
    """The block of each QUBO variable (b, bt, eta, q, k), the slack bits of every row as one "slack"."""
    blocks = qubo.form.label_block
    return np.where(np.char.startswith(blocks, "slack"), "slack", blocks)


def plot_qubo(qubo, ax=None, max_variables=2000):
    """Heat map of the QUBO matrix (upper triangular: linear biases on the diagonal, quadratic
    ones above it) on a symmetric log colour scale, variables grouped by block with the block
    boundaries drawn; zero entries are left blank.

    Above `_PIXELS` variables a cell covers several variables and shows their largest-magnitude
    bias, so that sparse couplings stay visible. QUBOs of more than `max_variables` variables are
    refused (None: no limit).
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import SymLogNorm

    if not hasattr(qubo, "bqm") or not hasattr(qubo, "labels"):
        raise InputTypeError(f"qubo must be a QuboProblem (with .bqm and .labels), got {type(qubo).__name__}")
    n = len(qubo.labels)
    if n == 0:
        raise InputError("the QUBO has no variables")
    if max_variables is not None and n > max_variables:
        raise InputError(f"the QUBO has {n} variables, more than max_variables={max_variables}; pass a larger "
                         f"max_variables (or None) to draw it anyway")
    blocks = _blocks(qubo)
    _, first, codes = np.unique(blocks, return_index=True, return_inverse=True)
    rank = np.argsort(np.argsort(first))  # each block's rank by first appearance
    order = np.argsort(rank[codes], kind="stable")  # variables with each block contiguous
    position = np.empty(n, dtype=np.int64)
    position[order] = np.arange(n)
    linear, (row, col, quadratic), _ = qubo.bqm.binary.to_numpy_vectors(qubo.labels)
    row, col = position[row], position[col]
    rows = np.concatenate([position, np.minimum(row, col)])
    cols = np.concatenate([position, np.maximum(row, col)])
    values = np.concatenate([linear, quadratic])
    keep = values != 0
    rows, cols, values = rows[keep], cols[keep], values[keep]
    step = -(-n // _PIXELS)  # variables per cell
    size = -(-n // step)
    cell = rows // step * size + cols // step
    by_cell = np.lexsort((np.abs(values), cell))  # within a cell, the largest |bias| comes last
    last = by_cell[np.r_[cell[by_cell][1:] != cell[by_cell][:-1], True]] if cell.size else by_cell
    matrix = np.ma.masked_all((size, size))
    matrix.flat[cell[last]] = values[last]
    vmax = np.abs(values).max() if values.size else 1.0
    norm = SymLogNorm(linthresh=np.abs(values).min() if values.size else 1.0, vmin=-vmax, vmax=vmax)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 5.5))
    image = ax.imshow(matrix, cmap="RdBu_r", norm=norm, interpolation="nearest",
                      extent=(-0.5, size * step - 0.5, size * step - 0.5, -0.5))
    ax.set(xlim=(-0.5, n - 0.5), ylim=(n - 0.5, -0.5))
    ax.figure.colorbar(image, ax=ax, label="bias")
    sorted_blocks = blocks[order]
    starts = np.flatnonzero(np.r_[True, sorted_blocks[1:] != sorted_blocks[:-1]])
    for start in starts[1:]:
        ax.axhline(start - 0.5, color="0.3", lw=0.6)
        ax.axvline(start - 0.5, color="0.3", lw=0.6)
    middles = (starts + np.r_[starts[1:], n]) / 2 - 0.5
    ax.set_xticks(middles, sorted_blocks[starts], rotation=90)
    ax.set_yticks(middles, sorted_blocks[starts])
    ax.set_title(f"QUBO matrix, {n} variables")
    return ax


def plot_coefficients(qubo, ax=None):
    """Histogram of the nonzero |bias| values, linear and quadratic, on log-spaced bins and a log
    axis: its width is the dynamic range a sampler or QPU has to resolve."""
    import matplotlib.pyplot as plt

    if not hasattr(qubo, "bqm") or not hasattr(qubo, "labels"):
        raise InputTypeError(f"qubo must be a QuboProblem (with .bqm and .labels), got {type(qubo).__name__}")
    linear, (_, _, quadratic), _ = qubo.bqm.binary.to_numpy_vectors(qubo.labels)
    linear, quadratic = np.abs(linear[linear != 0]), np.abs(quadratic[quadratic != 0])
    both = np.concatenate([linear, quadratic])
    if not both.size:
        raise InputError("the QUBO has no nonzero bias")
    low, high = both.min(), both.max()
    bins = np.geomspace(low, high, 40) if high > low else np.array([low / 2, low * 2])
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist([linear, quadratic], bins=bins, label=["linear", "quadratic"])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("|bias|")
    ax.set_ylabel("count")
    ax.set_title(f"dynamic range {high / low:.3g}")
    ax.legend()
    return ax


def plot_explanation(explanation, ax=None):
    """The explained rule's tree, coloured by each node's truth on the sample, with the reason and
    the nodes it decides outlined (`Explanation.plot`); returns the matplotlib Axes."""
    if not isinstance(explanation, Explanation):
        raise InputTypeError(f"explanation must be an Explanation (from explain), got {type(explanation).__name__}")
    return explanation.plot(ax=ax)
