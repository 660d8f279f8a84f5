"""``plot_tree``: a fitted tree drawn with matplotlib, with scikit-learn's ``plot_tree``
arguments. One box per node: a split's condition (the side it holds on is the left child,
``True`` on the root's left edge, as scikit-learn draws it), where its missing values go when
it learned that, and the node's training rows, class counts and class. Leaves are spread evenly
and parents sit above the middle of their children; each edge runs from box to box. The font
is made as large as fits without two boxes overlapping; with no ``ax`` given, the current
figure is first widened so that each leaf has about 1.4 inches, which keeps a depth-5 tree
readable (about 8-point text).
"""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from milptree.export import class_counts, conditions, missing_side, missing_test, number_text
from milptree.tree_structure import TREE_LEAF

# Inches per leaf and per level of a figure plot_tree widens.
_INCHES_PER_LEAF = 1.4
_INCHES_PER_LEVEL = 1.2
# Font sizes tried, largest first, when none is given.
_LARGEST_FONT, _SMALLEST_FONT = 12.0, 4.0


def _box_text(model, node, names, classes, label, impurity, node_ids, proportion,
              precision):
    """The lines of node ``node``'s box."""
    structure = model.tree_
    show = label == "all" or (label == "root" and node == 0)
    lines = []
    if node_ids:
        lines.append(f"node #{node}")
    if structure.children_left[node] != TREE_LEAF:
        left, _ = conditions(structure, node, names, decimals=None)
        if structure.feature[node] >= 0 and not structure.is_categorical[node]:
            threshold = round(float(structure.threshold[node]), precision)
            left = left.rsplit(" <= ", 1)[0] + f" <= {number_text(threshold)}"
        lines.append(left)
        side = None if missing_test(structure, node) else missing_side(structure, node)
        if side is not None:
            lines.append(f"missing: {side}")
    if impurity:
        lines.append(("gini = " if show else "") + f"{structure.impurity[node]:.{precision}f}")
    if proportion:
        share = structure.weighted_n_node_samples[node] / structure.weighted_n_node_samples[0]
        lines.append(("samples = " if show else "") + f"{100 * share:.1f}%")
        values = structure.value[node, 0]
        lines.append(("value = " if show else "")
                     + "[" + ", ".join(f"{v:.{precision}f}" for v in values) + "]")
    else:
        lines.append(("samples = " if show else "") + str(int(structure.n_node_samples[node])))
        counts = class_counts(structure, node)
        whole = np.allclose(counts, np.round(counts))
        lines.append(("value = " if show else "") + "["
                     + ", ".join(str(int(round(c))) if whole else f"{c:.{precision}f}"
                                 for c in counts) + "]")
    if structure.children_left[node] == TREE_LEAF:
        lines.append(("class = " if show else "") + str(classes[structure.leaf_class[node]]))
    return "\n".join(lines)


def _layout(structure, max_depth):
    """Each node drawn (depth at most ``max_depth``): its column (leaves and cut branches take
    the next free column, a split the middle of its children's) and level."""
    position, level = {}, {}
    next_column = [0]

    def place(node, depth):
        level[node] = depth
        shown_leaf = structure.children_left[node] == TREE_LEAF or (
            max_depth is not None and depth >= max_depth
        )
        if shown_leaf:
            position[node] = next_column[0]
            next_column[0] += 1
            return
        left, right = structure.children_left[node], structure.children_right[node]
        place(left, depth + 1)
        place(right, depth + 1)
        position[node] = (position[left] + position[right]) / 2

    place(0, 0)
    return position, level, next_column[0]


def plot_tree(model, ax=None, *, max_depth=None, feature_names=None, class_names=None,
              label="all", filled=False, impurity=False, node_ids=False, proportion=False,
              rounded=True, precision=3, fontsize=None):
    """Draws a fitted tree with matplotlib, with scikit-learn's ``plot_tree`` arguments.

    One box per node: a split's condition (the side it holds on is the left child, ``True``
    on the root's left edge), where its missing values go when it learned that (``missing:
    left`` or ``missing: right``), and the node's training rows, class counts and class. A
    categorical split reads ``colour != red`` (left: the condition holds).

    Parameters
    ----------
    model : OptimalTreeClassifier
        A fitted estimator.
    ax : matplotlib.axes.Axes, optional
        The axes to draw on (the current axes by default, whose figure is first widened so
        that each leaf has about 1.4 inches).
    max_depth : int, optional
        Levels drawn; a deeper branch is a box ``(...)``.
    feature_names : list of str, optional
        A name per column of ``X`` (default: the model's).
    class_names : list of str, optional
        A name per class, in ``classes_`` order (default: the model's).
    label : {"all", "root", "none"}, default="all"
        Where ``samples =``, ``value =`` and ``class =`` are written.
    filled : bool, default=False
        Each box coloured by its majority class, lighter when mixed.
    impurity : bool, default=False
        Show the Gini impurity (off by default, as milptree's trees do not minimise it).
    node_ids : bool, default=False
        Show ``tree_``'s index of each node.
    proportion : bool, default=False
        Shares rather than counts.
    rounded : bool, default=True
        Boxes with rounded corners.
    precision : int, default=3
        Digits of thresholds and shares.
    fontsize : float, optional
        The size of the boxes' text (default: the largest at which no two boxes overlap).

    Returns
    -------
    annotations : list of matplotlib.text.Annotation
        One per node drawn.

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    try:
        import matplotlib.pyplot as plt
        from matplotlib.patches import FancyArrowPatch
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("plot_tree needs matplotlib: pip install matplotlib") from error
    check_is_fitted(model)
    if label not in ("all", "root", "none"):
        raise ValueError(f"label must be 'all', 'root' or 'none', not {label!r}")
    structure = model.tree_
    names = list(feature_names) if feature_names is not None else model._feature_names(
        model.n_features_in_)
    classes = list(class_names) if class_names is not None else [str(c) for c in model.classes_]
    position, level, columns = _layout(structure, max_depth)
    depth = max(level.values())
    if ax is None:
        ax = plt.gca()
        figure = ax.figure
        width, height = figure.get_size_inches()
        figure.set_size_inches(max(width, _INCHES_PER_LEAF * columns),
                               max(height, _INCHES_PER_LEVEL * (depth + 1)))
    ax.set_axis_off()
    colours = plt.get_cmap("tab10")

    def xy(node):
        x = (position[node] + 0.5) / columns
        return x, 1 - (level[node] + 0.5) / (depth + 1)

    annotations = []
    for node in sorted(position):
        cut = max_depth is not None and level[node] >= max_depth and (
            structure.children_left[node] != TREE_LEAF)
        text = "(...)" if cut else _box_text(model, node, names, classes, label, impurity,
                                             node_ids, proportion, precision)
        box = dict(boxstyle="round" if rounded else "square", facecolor="white",
                   edgecolor="black")
        if filled and not cut:
            shares = structure.value[node, 0]
            top = int(np.argmax(shares))
            strength = 0.0 if len(shares) < 2 else (shares[top] - np.sort(shares)[-2])
            red, green, blue, _ = colours(top % 10)
            box["facecolor"] = (1 - strength * (1 - red), 1 - strength * (1 - green),
                                1 - strength * (1 - blue))
        annotations.append(ax.annotate(text, xy(node), xycoords="axes fraction", ha="center",
                                       va="center", bbox=box, zorder=3,
                                       fontsize=fontsize or _LARGEST_FONT))
    nodes = sorted(position)
    for node in nodes:
        parent = _parent(structure, node)
        if parent == 0:
            # The root's edges say which side the condition holds on, as scikit-learn's.
            (x0, y0), (x1, y1) = xy(parent), xy(node)
            left = node == structure.children_left[0]
            ax.annotate("True" if left else "False", ((x0 + x1) / 2, (y0 + y1) / 2),
                        xycoords="axes fraction", ha="center", va="center", zorder=3,
                        fontsize=fontsize or _LARGEST_FONT)
    if fontsize is None:
        _fit_font(ax, annotations, [(position[n], level[n]) for n in nodes], columns, depth)
    renderer = ax.figure.canvas.get_renderer()
    for annotation in annotations:
        annotation.update_bbox_position_size(renderer)
    box_of = dict(zip(nodes, annotations))
    for node in nodes:
        parent = _parent(structure, node)
        if parent is not None:
            # Each edge runs from the parent's box to the child's, under both.
            ax.add_patch(FancyArrowPatch(
                xy(parent), xy(node), transform=ax.transAxes, arrowstyle="->",
                mutation_scale=10, patchA=box_of[parent].get_bbox_patch(),
                patchB=box_of[node].get_bbox_patch(), zorder=1))
    return annotations


def _parent(structure, node):
    if node == 0:
        return None
    for side in (structure.children_left, structure.children_right):
        found = np.flatnonzero(side == node)
        if len(found):
            return int(found[0])
    return None


def _fit_font(ax, annotations, places, columns, depth):
    """Sets the largest font size (at most ``_LARGEST_FONT``) at which no two boxes overlap:
    boxes of one level leave a gap between them (``places``: each box's column and level), and
    no box is taller than 90% of a level, so that boxes of two levels never meet."""
    figure = ax.figure
    renderer = figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    column_width = frame.width / columns
    level_height = frame.height / (depth + 1)
    size = _LARGEST_FONT
    for _ in range(4):
        for annotation in annotations:
            annotation.set_fontsize(size)
            annotation.update_bbox_position_size(renderer)
        extents = [a.get_bbox_patch().get_window_extent(renderer) for a in annotations]
        scale = 0.9 * level_height / max(extent.height for extent in extents)
        by_level = {}
        for (column, level), extent in zip(places, extents):
            by_level.setdefault(level, []).append((column, extent.width))
        for boxes in by_level.values():
            boxes.sort()
            for (left, left_width), (right, right_width) in zip(boxes, boxes[1:]):
                room = (right - left) * column_width
                scale = min(scale, 0.95 * room / ((left_width + right_width) / 2))
        if 0.98 <= scale <= 1.0 or (scale > 1 and size >= _LARGEST_FONT):
            break
        size = min(max(size * scale, _SMALLEST_FONT), _LARGEST_FONT)
    for text in ax.texts:
        text.set_fontsize(size)
