"""Rules as networkx trees and matplotlib drawings (one node per literal occurrence, no crossings)."""

from __future__ import annotations

import networkx as nx

from .nodes import Literal, Operator, Rule

__all__ = ["to_graph", "plot"]


def _label(node: Rule, feature_names) -> str:
    if isinstance(node, Operator):
        return node.name
    return node.to_str(feature_names)


def to_graph(rule: Rule, feature_names=None) -> nx.DiGraph:
    """Directed tree from the root to the leaves; nodes are paths (tuples of child positions)
    with attributes `label` and `kind` ("operator", "literal" or "constant")."""
    graph = nx.DiGraph()
    for path, node in rule.walk():
        kind = "operator" if isinstance(node, Operator) else "literal" if isinstance(node, Literal) else "constant"
        graph.add_node(path, label=_label(node, feature_names), kind=kind)
        if path:
            graph.add_edge(path[:-1], path)
    return graph


def _layout(rule: Rule) -> dict:
    """Leaves evenly spaced left to right, each operator centred over its children."""
    positions: dict = {}
    next_leaf = [0.0]

    def place(node: Rule, path: tuple, depth: int) -> float:
        if isinstance(node, Operator):
            xs = [place(sub, (*path, i), depth + 1) for i, sub in enumerate(node.subrules)]
            x = (xs[0] + xs[-1]) / 2
        else:
            x = next_leaf[0]
            next_leaf[0] += 1.0
        positions[path] = (x, -depth)
        return x

    place(rule, (), 0)
    return positions


def plot(rule: Rule, feature_names=None, ax=None):
    """Draw the rule tree; returns the matplotlib Axes."""
    import matplotlib.pyplot as plt

    graph = to_graph(rule, feature_names)
    positions = _layout(rule)
    if ax is None:
        width = max(4.0, 1.6 * sum(1 for _ in rule.literals()))
        _, ax = plt.subplots(figsize=(width, 1.5 + 1.2 * rule.depth))
    for parent, child in graph.edges:
        (x0, y0), (x1, y1) = positions[parent], positions[child]
        ax.plot([x0, x1], [y0, y1], color="0.5", zorder=1)
    colours = {"operator": "#cfe2f3", "literal": "#fff2cc", "constant": "#eeeeee"}
    for path, data in graph.nodes(data=True):
        x, y = positions[path]
        ax.text(
            x, y, data["label"], ha="center", va="center", fontsize=9, zorder=2,
            bbox={"boxstyle": "round,pad=0.4", "facecolor": colours[data["kind"]], "edgecolor": "0.4"},
        )
    xs = [x for x, _ in positions.values()]
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    ax.set_ylim(-rule.depth - 0.5, 0.5)
    ax.set_axis_off()
    return ax
