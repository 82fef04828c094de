"""Rules as networkx trees and matplotlib drawings (one node per literal occurrence, no crossings);
drawings label nodes in plain language (`describe.py`). Nodes are told apart by their `kind`, so
graphs need no node class and the nodes' `to_graph` and `plot` call them; networkx and matplotlib
are imported when a graph is drawn, not with the rules."""

from __future__ import annotations

from .describe import node_text

__all__ = ["to_graph", "plot"]


def _label(node, feature_names) -> str:
    if node.kind == "operator":
        return node.name
    return node.to_str(feature_names)


def to_graph(rule, feature_names=None):
    """Directed tree from the root to the leaves; nodes are paths (tuples of child positions)
    with attributes `label` (`AtLeast2`, `age >= 50`), `text` (`at least 2 of`, `age >= 50`) and
    `kind` ("operator", "literal" or "constant")."""
    import networkx as nx

    graph = nx.DiGraph()
    for path, node in rule.walk():
        graph.add_node(path, label=_label(node, feature_names), text=node_text(node, feature_names, short=True),
                       kind=node.kind)
        if path:
            graph.add_edge(path[:-1], path)
    return graph


def _layout(rule, graph) -> dict:
    """Leaves left to right, each as wide as its label (in characters); operators centred over
    their children."""
    positions: dict = {}
    right_edge = 0.0
    nodes = rule.walk()
    for path, node in nodes:  # leaves in order, left to right
        if node.kind != "operator":
            width = len(graph.nodes[path]["text"]) + 4
            positions[path] = (right_edge + width / 2, -len(path))
            right_edge += width
    for path, node in reversed(nodes):  # operators after their children, without recursion
        if node.kind == "operator":
            first, last = positions[(*path, 0)][0], positions[(*path, len(node.subrules) - 1)][0]
            positions[path] = ((first + last) / 2, -len(path))
    return positions


def plot(rule, feature_names=None, ax=None, styles=None):
    """Draw the rule tree, nodes labelled in plain language; returns the matplotlib Axes.
    `styles` maps a node's path to matplotlib box properties that override the defaults (the
    highlighting of `Explanation.plot`)."""
    import matplotlib.pyplot as plt

    graph = to_graph(rule, feature_names)
    positions = _layout(rule, graph)
    span = max(x for x, _ in positions.values()) + 4
    if ax is None:
        _, ax = plt.subplots(figsize=(max(4.0, 0.085 * span), 1.5 + 1.2 * rule.depth))
    for parent, child in graph.edges:
        (x0, y0), (x1, y1) = positions[parent], positions[child]
        ax.plot([x0, x1], [y0, y1], color="0.5", zorder=1)
    colours = {"operator": "#cfe2f3", "literal": "#fff2cc", "constant": "#eeeeee"}
    styles = styles or {}
    for path, data in graph.nodes(data=True):
        x, y = positions[path]
        box = {"boxstyle": "round,pad=0.4", "facecolor": colours[data["kind"]], "edgecolor": "0.4",
               **styles.get(path, {})}
        ax.text(x, y, data["text"], ha="center", va="center", fontsize=9, zorder=2, bbox=box)
    ax.set_xlim(0, span)
    ax.set_ylim(-rule.depth - 0.5, 0.5)
    ax.set_axis_off()
    return ax
