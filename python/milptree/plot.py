"""``plot_tree``: a fitted tree drawn with matplotlib, one box per node (its condition or
class, rows and class counts), leaves spread evenly, ``True`` (the condition holds) to the
left."""

import json

from sklearn.utils.validation import check_is_fitted


def _label(node, features):
    counts = node["counts"]
    rows = f"rows = {sum(counts)}\ncounts = {counts}"
    if node["kind"] == "split":
        return f"{features[node['feature']]} <= {node['threshold']:.4g}\n{rows}"
    if node["kind"] == "oblique":
        return f"w . z + {node['bias']:.3g} <= 0\n{rows}"
    return f"class = {node['label']}\n{rows}"


def plot_tree(model, ax=None, fontsize=9):
    """Draws a fitted tree with matplotlib, one box per node, ``True`` to the left.

    Parameters
    ----------
    model : OptimalTreeClassifier
        A fitted estimator.
    ax : matplotlib.axes.Axes, optional
        The axes to draw on (the current axes by default).
    fontsize : float, default=9
        The size of the boxes' text.

    Returns
    -------
    annotations : list of matplotlib.text.Annotation
        One per node: its condition or class, rows and class counts.

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("plot_tree needs matplotlib: pip install matplotlib") from error
    check_is_fitted(model)
    tree = json.loads(model.tree_.to_json())
    nodes = {node["id"]: node for node in tree["nodes"]}
    features = tree["features"]
    depth = max(node_id.bit_length() - 1 for node_id in nodes)
    # Leaves take the next free column from left to right; a split sits above its children.
    position, next_column = {}, [0]

    def place(node_id):
        if nodes[node_id]["kind"] == "leaf":
            position[node_id] = next_column[0]
            next_column[0] += 1
        else:
            place(2 * node_id)
            place(2 * node_id + 1)
            position[node_id] = (position[2 * node_id] + position[2 * node_id + 1]) / 2

    place(1)
    width = max(next_column[0] - 1, 1)
    ax = ax if ax is not None else plt.gca()
    ax.set_axis_off()

    def xy(node_id):
        level = node_id.bit_length() - 1
        return (position[node_id] / width if next_column[0] > 1 else 0.5,
                1 - level / max(depth, 1))

    annotations = []
    for node_id in sorted(nodes):
        box = dict(boxstyle="round" if nodes[node_id]["kind"] == "leaf" else "square",
                   facecolor="white", edgecolor="black")
        if node_id == 1:
            annotation = ax.annotate(_label(nodes[node_id], features), xy(node_id),
                                     xycoords="axes fraction", ha="center", va="center",
                                     fontsize=fontsize, bbox=box)
        else:
            annotation = ax.annotate(_label(nodes[node_id], features), xy(node_id // 2),
                                     xytext=xy(node_id), xycoords="axes fraction",
                                     textcoords="axes fraction", ha="center", va="center",
                                     fontsize=fontsize, bbox=box,
                                     arrowprops=dict(arrowstyle="<-"))
        annotations.append(annotation)
    return annotations
