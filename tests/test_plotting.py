import matplotlib
import numpy as np
import pytest

from boolrules import RuleClassifier
from boolrules.formulations import depth_one
from boolrules.plotting import plot_coefficients, plot_pareto, plot_qubo, plot_trajectory

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
                         max_complexity=6, nonlocal_backend="native").fit(X, y)
    moves = clf.starts_[0].trajectory.nonlocal_moves
    assert moves.size > 0
    ax = plot_trajectory(clf.starts_)
    marked = sum(len(c.get_offsets()) for c in ax.collections)
    assert marked == moves.size


@pytest.fixture(autouse=True)
def close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def pareto_rows():
    """Two methods, three complexities, three seeds; scores known in closed form."""
    return [
        {"method": method, "complexity": complexity, "score": 0.5 + 0.01 * complexity + shift + 0.02 * seed}
        for method, shift in (("native", 0.1), ("tree", 0.0))
        for complexity in (3, 1, 2)
        for seed in range(3)
    ]


def test_pareto_plot_draws_mean_and_std_per_method():
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.container import ErrorbarContainer

    for results in (pareto_rows(), pd.DataFrame(pareto_rows())):
        ax = plot_pareto(results)
        assert isinstance(ax, Axes)
        assert [type(c) for c in ax.containers] == [ErrorbarContainer] * 2
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["native", "tree"]
        for container, shift in zip(ax.containers, (0.1, 0.0)):
            line, _, (bars,) = container.lines
            np.testing.assert_array_equal(line.get_xdata(), [1, 2, 3])
            np.testing.assert_allclose(line.get_ydata(), 0.52 + 0.01 * np.arange(1, 4) + shift)
            lengths = np.array([np.ptp(segment[:, 1]) for segment in bars.get_segments()])
            np.testing.assert_allclose(lengths, 2 * np.std([0, 0.02, 0.04], ddof=1))


def test_pareto_plot_single_repeat_has_zero_error_and_uses_the_given_axes():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    assert plot_pareto([{"method": "a", "complexity": 1, "score": 0.7}], ax=ax) is ax
    (_, _, (bars,)), = [c.lines for c in ax.containers]
    assert np.ptp(bars.get_segments()[0][:, 1]) == 0


@pytest.mark.parametrize("results, match", [
    ([{"method": "a", "score": 0.5}], r"missing \['complexity'\]"),
    ([], "missing"),
    ({"method": [], "complexity": [], "score": []}, "no rows"),
    ([{"method": "a", "complexity": 1, "score": "high"}], "'score' must hold finite numbers"),
    ([{"method": "a", "complexity": np.nan, "score": 0.5}], "'complexity' must hold finite numbers"),
])
def test_pareto_plot_refuses_bad_results(results, match):
    with pytest.raises(ValueError, match=match):
        plot_pareto(results)


@pytest.fixture(scope="module")
def qubo():
    X = np.random.default_rng(2).integers(0, 2, (20, 4))
    return depth_one(X, X[:, 0] | X[:, 1], "AtLeast", max_num_literals=3).to_qubo(eta=True)


def block_of(label):
    return "slack" if label.startswith("s[") else label.split("[")[0].split("#")[0]


def test_qubo_plot_is_the_upper_triangular_matrix_grouped_by_block(qubo):
    from matplotlib.axes import Axes
    from matplotlib.colors import SymLogNorm

    ax = plot_qubo(qubo)
    assert isinstance(ax, Axes)
    (image,) = ax.images
    assert isinstance(image.norm, SymLogNorm) and image.norm.vmin == -image.norm.vmax
    Q = image.get_array().filled(0.0)
    assert Q.shape == (qubo.num_variables,) * 2 and not np.tril(Q, -1).any()
    blocks = list(dict.fromkeys(block_of(v) for v in qubo.labels))
    assert blocks == ["b", "bt", "eta", "k", "slack"]
    ordered = sorted(qubo.labels, key=lambda v: blocks.index(block_of(v)))
    x = np.random.default_rng(0).integers(0, 2, (30, qubo.num_variables))
    energies = np.einsum("ni,ij,nj->n", x, Q, x) + qubo.bqm.offset
    np.testing.assert_allclose(energies, qubo.bqm.energies((x, ordered)))
    assert len(ax.lines) == 2 * (len(blocks) - 1)  # one horizontal and one vertical line per boundary
    assert [t.get_text() for t in ax.get_xticklabels()] == blocks


def test_qubo_plot_refuses_large_or_foreign_input(qubo):
    with pytest.raises(ValueError, match=rf"{qubo.num_variables} variables, more than max_variables=10"):
        plot_qubo(qubo, max_variables=10)
    assert plot_qubo(qubo, max_variables=None).images
    with pytest.raises(TypeError, match="QuboProblem"):
        plot_qubo(qubo.bqm)


def test_coefficient_histogram_counts_every_nonzero_bias(qubo):
    ax = plot_coefficients(qubo)
    assert ax.get_xscale() == "log"
    linear, (_, _, quadratic), _ = qubo.bqm.to_numpy_vectors(qubo.labels)
    heights = np.array([p.get_height() for p in ax.patches]).reshape(2, -1)  # linear bars, then quadratic ones
    assert heights[0].sum() == np.count_nonzero(linear)
    assert heights[1].sum() == np.count_nonzero(quadratic)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["linear", "quadratic"]


def test_coefficient_histogram_refuses_empty_or_foreign_input():
    from types import SimpleNamespace

    import dimod

    empty = SimpleNamespace(bqm=dimod.BinaryQuadraticModel({"a": 0.0}, {}, 1.0, "BINARY"), labels=["a"])
    with pytest.raises(ValueError, match="no nonzero bias"):
        plot_coefficients(empty)
    with pytest.raises(TypeError, match="QuboProblem"):
        plot_coefficients("qubo")


def test_qubo_plot_of_many_variables_keeps_the_largest_bias_of_each_cell():
    from types import SimpleNamespace

    import dimod

    rng = np.random.default_rng(3)
    n = 1200  # 3 variables per cell, 400 cells per side
    Q = np.triu(rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.002))
    labels = [f"b[{i}]" for i in range(n)]
    bqm = dimod.BinaryQuadraticModel(Q, "BINARY").relabel_variables(dict(enumerate(labels)), inplace=False)
    qubo = SimpleNamespace(bqm=bqm, labels=labels, form=SimpleNamespace(label_block=np.full(n, "b")))
    (image,) = plot_qubo(qubo).images
    cells = Q.reshape(400, 3, 400, 3).transpose(0, 2, 1, 3).reshape(400, 400, 9)
    expected = np.take_along_axis(cells, np.abs(cells).argmax(axis=2)[..., None], axis=2)[..., 0]
    shown = image.get_array()
    np.testing.assert_array_equal(shown.mask, expected == 0)
    np.testing.assert_allclose(shown.filled(0.0), expected)
