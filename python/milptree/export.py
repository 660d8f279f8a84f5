"""``export_text``: a fitted tree as indented text, with scikit-learn's ``export_text``
arguments, written from the arrays of ``tree_`` (``milptree.tree_structure``). With its
defaults it prints what ``milptree show`` prints::

    |--- island != Dream
    |   |--- flipper_length_mm <= 202.5 (missing: left)
    |   |   |--- class: Adelie  [94, 0, 1]
    |   |--- flipper_length_mm >  202.5
    ...

A split on a categorical column reads ``column != value`` (left) and ``column = value``
(right); a split of the rows missing it from the rest, ``column is missing`` and ``column is
present`` (in the engine's order of its children, as ``milptree show`` prints them); any
other split that learned where missing values go says so on that side; a branch no
training row takes is marked ``(no training rows)``. The condition texts are shared with
``milptree.plot_tree``.
"""

import json

import numpy as np
from sklearn.utils.validation import check_is_fitted

from milptree._columns import category_text
from milptree.tree_structure import TREE_LEAF


def number_text(value, decimals=None):
    """A number as text, as the command line writes numbers (``2.45``, ``3``).

    Parameters
    ----------
    value : float
        The number.
    decimals : int, optional
        Decimals to write (default: the shortest exact positional form).

    Returns
    -------
    text : str
        The number's text.
    """
    if decimals is not None:
        return f"{value:.{decimals}f}"
    return np.format_float_positional(float(value), trim="-")


def _significant(value, digits):
    """``value`` with about ``digits`` significant digits, without trailing zeros (the command
    line's rule for oblique weights)."""
    if value == 0 or not np.isfinite(value):
        return number_text(value)
    magnitude = int(np.floor(np.log10(abs(value))))
    text = f"{value:.{max(digits - 1 - magnitude, 0)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


class _Oblique:
    """Oblique splits written in original units, as the command line writes them: weights
    over standardised features become ``w_j / scale_j`` and the bias moves to the right."""

    def __init__(self, structure):
        document = json.loads(structure.to_json())
        self.features = document["features"]
        self.scaling = document.get("standardisation")

    def condition(self, weights, bias):
        lhs, rhs = "", -bias
        for j, w in enumerate(weights):
            if w == 0:
                continue
            original = w / self.scaling["scale"][j]
            rhs += original * self.scaling["mean"][j]
            magnitude = _significant(abs(original), 4)
            if not lhs:
                lhs = f"{'-' if original < 0 else ''}{magnitude}*{self.features[j]}"
            else:
                lhs += f" {'-' if original < 0 else '+'} {magnitude}*{self.features[j]}"
        return lhs or "0", _significant(rhs, 6)


def conditions(structure, node, names, decimals=None, oblique=None):
    """The texts of a split's two sides.

    Parameters
    ----------
    structure : TreeStructure
        The tree's arrays (``tree_``).
    node : int
        The split's index in them.
    names : list of str
        A name per column of ``X``.
    decimals : int, optional
        Decimals of the threshold (default: as the command line writes it).
    oblique : object, optional
        The writer of the tree's oblique splits in original units (made when needed).

    Returns
    -------
    left, right : str
        ``name <= t`` and ``name >  t``, ``name != v`` and ``name = v``, ``name is present``
        and ``name is missing``, or an oblique split's ``lhs <= rhs`` and ``lhs >  rhs``.
    """
    if structure.feature[node] < 0:
        weights, bias = structure.oblique[node]
        lhs, rhs = (oblique or _Oblique(structure)).condition(weights, bias)
        return f"{lhs} <= {rhs}", f"{lhs} >  {rhs}"
    name = names[structure.feature[node]]
    if missing_test(structure, node):
        return f"{name} is present", f"{name} is missing"
    if structure.is_categorical[node]:
        text = category_text(structure.category[node])
        return f"{name} != {text}", f"{name} = {text}"
    threshold = number_text(structure.threshold[node], decimals)
    return f"{name} <= {threshold}", f"{name} >  {threshold}"


def constant_side(structure, node):
    """The side every row goes to at an oblique split with every weight zero.

    Parameters
    ----------
    structure : TreeStructure
        The tree's arrays (``tree_``).
    node : int
        The split's index in them.

    Returns
    -------
    side : {"left", "right"} or None
        None for any other split.
    """
    if structure.feature[node] >= 0 or node not in structure.oblique:
        return None
    weights, bias = structure.oblique[node]
    if any(w != 0 for w in weights):
        return None
    return "left" if bias <= 0 else "right"


def missing_test(structure, node):
    """Whether a split sends the rows missing a categorical column one way and every other row
    the other (``category`` None: the present rows left, the missing right).

    Parameters
    ----------
    structure : TreeStructure
        The tree's arrays (``tree_``).
    node : int
        The split's index in them.

    Returns
    -------
    test : bool
        True for such a split, whose conditions say where missing values go.
    """
    return bool(structure.is_categorical[node]) and structure.category[node] is None


def missing_side(structure, node):
    """Where a split learned that missing values go.

    Parameters
    ----------
    structure : TreeStructure
        The tree's arrays (``tree_``).
    node : int
        The split's index in them.

    Returns
    -------
    side : {"left", "right"} or None
        None when it learned nothing (its feature had no missing value in training).
    """
    if not structure.missing_learned[node]:
        return None
    return "left" if structure.missing_go_to_left[node] else "right"


def class_counts(structure, node):
    """The training rows of each class at a node, weighted by ``sample_weight``.

    Parameters
    ----------
    structure : TreeStructure
        The tree's arrays (``tree_``).
    node : int
        The node's index in them.

    Returns
    -------
    counts : ndarray of shape (n_classes,)
        In ``classes_`` order.
    """
    return structure.value[node, 0] * structure.weighted_n_node_samples[node]


def _counts_text(counts, decimals):
    if decimals is None and np.allclose(counts, np.round(counts)):
        return "[" + ", ".join(str(int(round(c))) for c in counts) + "]"
    digits = 2 if decimals is None else decimals
    return "[" + ", ".join(number_text(c, digits) for c in counts) + "]"


def export_text(model, *, feature_names=None, class_names=None, max_depth=10, spacing=3,
                decimals=None, show_weights=False, show_counts=True):
    """A fitted tree as indented text, with scikit-learn's ``export_text`` arguments.

    With its defaults, what ``milptree show`` prints.

    Parameters
    ----------
    model : OptimalTreeClassifier
        A fitted estimator.
    feature_names : list of str, optional
        A name per column of ``X`` (default: ``feature_names_in_``, or ``x0``, ``x1``, ...).
    class_names : list of str or "auto", optional
        A name per class, in ``classes_`` order (default: the classes).
    max_depth : int, default=10
        Levels shown; a deeper branch reads ``truncated branch of depth N``.
    spacing : int, default=3
        Width of each level's indentation.
    decimals : int, optional
        Decimals of thresholds and weights (default: thresholds as the command line writes
        them, weights with 2).
    show_weights : bool, default=False
        As scikit-learn: each leaf shows ``weights: [...]``, the weighted training rows of each
        class, before its class.
    show_counts : bool, default=True
        Each leaf shows its training rows per class after its class, as ``milptree show`` does,
        weighted by ``sample_weight`` (the searches' tree files hold the same weighted counts;
        the MILP methods' hold unweighted ones, which ``milptree show`` prints).

    Returns
    -------
    text : str
        One line per node, ending with a newline.

    Raises
    ------
    ValueError
        When ``feature_names`` or ``class_names`` has the wrong length, or ``spacing`` or
        ``max_depth`` is out of range.
    """
    check_is_fitted(model)
    structure = model.tree_
    if feature_names is None:
        feature_names = model._feature_names(model.n_features_in_)
    elif len(feature_names) != model.n_features_in_:
        raise ValueError(
            f"feature_names has {len(feature_names)} names, but the tree reads "
            f"{model.n_features_in_} columns"
        )
    if class_names is None or (isinstance(class_names, str) and class_names == "auto"):
        class_names = [str(c) for c in model.classes_]
    elif len(class_names) != len(model.classes_):
        raise ValueError(
            f"class_names has {len(class_names)} names, but the tree has "
            f"{len(model.classes_)} classes"
        )
    if not isinstance(spacing, int) or spacing <= 0:
        raise ValueError(f"spacing must be a positive integer, not {spacing!r}")
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be at least 0, not {max_depth!r}")
    branch = "|" + "-" * spacing + " "
    indent = "|" + " " * spacing
    oblique = _Oblique(structure) if structure.oblique else None
    lines = []

    def leaf(node, depth):
        counts = class_counts(structure, node)
        text = f"{indent * depth}{branch}"
        if show_weights:
            text += f"weights: {_counts_text(counts, 2 if decimals is None else decimals)} "
        text += f"class: {class_names[structure.leaf_class[node]]}"
        if show_counts:
            text += f"  {_counts_text(counts, None)}"
        lines.append(text)

    def walk(node, depth):
        if structure.children_left[node] == TREE_LEAF:
            leaf(node, depth)
            return
        if max_depth is not None and depth > max_depth:
            subtree = _subtree_depth(structure, node)
            lines.append(f"{indent * depth}{branch}truncated branch of depth {subtree}")
            return
        sides = conditions(structure, node, feature_names, decimals, oblique)
        constant = constant_side(structure, node)
        missing = None if missing_test(structure, node) else missing_side(structure, node)
        branches = list(zip(
            (structure.children_left[node], structure.children_right[node]),
            ("left", "right"),
            sides,
        ))
        # In the engine's order of the children (a split of the missing rows has its present
        # rows' child first in the arrays).
        branches.sort(key=lambda branch: structure.node_id[branch[0]])
        for child, side, condition in branches:
            note = f" (missing: {side})" if missing == side else ""
            if constant == side:
                note += f"  (no feature weighted: every row goes {side})"
            elif structure.n_node_samples[child] == 0 and structure.n_node_samples[node] > 0:
                note += "  (no training rows)"
            lines.append(f"{indent * depth}{branch}{condition}{note}")
            walk(child, depth + 1)

    walk(0, 0)
    return "\n".join(lines) + "\n"


def _subtree_depth(structure, node):
    """The depth of the subtree under ``node``."""
    if structure.children_left[node] == TREE_LEAF:
        return 0
    return 1 + max(_subtree_depth(structure, structure.children_left[node]),
                   _subtree_depth(structure, structure.children_right[node]))
