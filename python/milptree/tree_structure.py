"""``TreeStructure``: a fitted tree as the arrays of scikit-learn's
``DecisionTreeClassifier.tree_``, so that code and tools written for them
(``SelectFromModel``, ``permutation_importance``, functions that walk ``children_left`` and
``children_right``) work on a milptree tree.

Nodes are numbered depth-first, the root 0 and a split's left child right after it, as
scikit-learn numbers them (``node_id`` gives each node's number in the engine's files and in
``milptree predict``: root 1, the children of ``k`` are ``2k`` and ``2k + 1``). A split sends a
row left when its condition holds:

- ``X[:, feature[i]] <= threshold[i]`` on a numeric column;
- ``X[:, feature[i]] != category[i]`` on a categorical column (``is_categorical[i]``;
  ``threshold[i]`` is NaN there, as no threshold on the column's values says it);
- a row missing the value goes left when ``missing_go_to_left[i]`` is 1: the side the split
  learned, or, for a feature with no missing value in training, the child more training rows
  reached (right on a tie);
- a split of the rows missing a categorical column from the rest (``t is missing`` / ``t is
  present`` in ``export_text``) has ``is_categorical[i]``, ``category[i]`` None and
  ``missing_go_to_left[i]`` 0: every present value differs from None and goes left, the
  missing ones go right, as scikit-learn's own trees order such a split (the non-missing rows
  left), whichever side the engine's tree has them on (its children are then in the other
  order here than in ``node_id``'s numbering: ``children_left[i]`` is the present rows' child);
- an oblique split (``feature[i]`` is ``TREE_UNDEFINED``, OLCT only) tests ``w . z + b <= 0``
  over the standardised features, its ``(w, b)`` in ``oblique[i]``.

A leaf has ``children_left[i] == children_right[i] == TREE_LEAF`` and ``feature[i] ==
TREE_UNDEFINED``, ``threshold[i] == TREE_UNDEFINED`` (as in scikit-learn).
"""

import json

import numpy as np

TREE_LEAF = -1
"""``children_left`` and ``children_right`` of a leaf (scikit-learn's value)."""
TREE_UNDEFINED = -2
"""``feature`` and ``threshold`` of a leaf, ``feature`` of an oblique split (scikit-learn's
value)."""


class TreeStructure:
    """The arrays of a fitted tree, with scikit-learn's names and meanings.

    Made by the estimator (``tree_``), not by hand.

    Parameters
    ----------
    core : milptree._core.Tree
        The engine's tree.
    arrays : dict
        The attributes below, by name.

    Attributes
    ----------
    node_count, n_leaves, max_depth : int
        Nodes, leaves, and the depth of the deepest leaf.
    n_features, n_outputs, n_classes, max_n_classes :
        Columns of ``X``, 1, ``array([n_classes])`` and ``n_classes``.
    children_left, children_right, feature : ndarray of int64
        A node's children (``TREE_LEAF`` at a leaf) and the column of ``X`` its split reads
        (``TREE_UNDEFINED`` at a leaf and at an oblique split).
    threshold : ndarray of float64
        The split's threshold (NaN at a categorical or oblique split, ``TREE_UNDEFINED`` at a
        leaf).
    value : ndarray of shape (node_count, 1, n_classes)
        The weighted share of each class (``classes_`` order) among the training rows that
        reach the node, as scikit-learn >= 1.4 stores it (0 where no row reaches it).
    n_node_samples, weighted_n_node_samples : ndarray
        Training rows reaching the node, counted, and weighted by ``sample_weight``.
    impurity : ndarray of float64
        The Gini impurity of ``value`` (scikit-learn's default criterion; milptree's trees
        minimise their objective, not impurity).
    missing_go_to_left : ndarray of uint8
        1 where a row missing the split's value goes left.
    missing_learned : ndarray of bool
        Whether the split learned that side (its feature had missing values in training).
    leaf_class : ndarray of int64
        The position in ``classes_`` of the class a leaf predicts (``TREE_UNDEFINED`` at a
        split): the engine's choice, which a metric objective or a class weight can make other
        than the largest share of ``value``.
    is_categorical : ndarray of bool, category : ndarray of object
        Whether the split tests a categorical column, and the category it tests (as
        ``categories_`` holds it; rows equal to it go right), or None for a split of the rows
        missing the column from the rest (the present rows go left, the missing right).
    oblique : dict
        ``{node: (weights, bias)}`` of the oblique splits (over the engine's standardised
        features).
    node_id : ndarray of int64
        Each node's id in the engine's numbering (root 1, children of ``k``: ``2k``, ``2k + 1``).
    leaf_objective : ndarray of float64
        The training objective the node would have as a leaf predicting its best class: its
        errors, each weighing its row's ``sample_weight`` times its class's cost
        (``class_weight``; ``1 / class weight`` for the balanced objective; 1 otherwise).
    core : milptree._core.Tree
        The engine's tree: ``to_text()``, ``to_dot()``, ``to_json()``, ``save(path)``; these,
        and any other name of the engine's tree that scikit-learn's arrays do not use
        (``classes``, ``features``, ``depth``, ...), are reachable here directly.
    """

    def __init__(self, core, arrays):
        self.core = core
        for name, values in arrays.items():
            setattr(self, name, values)

    # -- the engine's tree, as ``tree_`` gave it before these arrays ------------------------

    def to_text(self):
        """The tree as indented text, as ``milptree show`` prints it.

        Returns
        -------
        text : str
            One line per node.
        """
        return self.core.to_text()

    def to_dot(self):
        """The tree as a Graphviz DOT digraph.

        Returns
        -------
        dot : str
            The DOT source.
        """
        return self.core.to_dot()

    def to_json(self):
        """The tree file's JSON text.

        Returns
        -------
        text : str
            The document ``milptree solve -o`` writes.
        """
        return self.core.to_json()

    def save(self, path):
        """Writes the tree file that ``milptree predict --tree`` reads.

        Parameters
        ----------
        path : str or path-like
            The file to write.
        """
        self.core.save(str(path))

    def __getattr__(self, name):
        # ``tree_`` was the engine's tree before it had these arrays: a name this class does
        # not define reaches it (``tree_.classes``, ``tree_.features``, ``tree_.depth``, ...).
        # The arrays' names keep scikit-learn's meanings (``node_count``, ``max_depth``,
        # ``n_leaves``); the engine's are on ``core``.
        core = self.__dict__.get("core")
        if core is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(core, name)

    def __repr__(self):
        return (
            f"<milptree TreeStructure: {self.node_count} nodes, {self.n_leaves} leaves, "
            f"depth {self.max_depth}>"
        )

    # -- scikit-learn's derived quantities --------------------------------------------------

    def compute_node_depths(self):
        """The depth of each node, the root 1, as scikit-learn's ``Tree`` counts.

        Returns
        -------
        depths : ndarray of int64 of shape (node_count,)
            Each node's depth.
        """
        depths = np.zeros(self.node_count, dtype=np.int64)
        depths[0] = 1
        for i in range(self.node_count):
            for child in (self.children_left[i], self.children_right[i]):
                if child != TREE_LEAF:
                    depths[child] = depths[i] + 1
        return depths

    def compute_feature_importances(self, normalize=True):
        """Each column's share of the decrease of the training objective the tree's splits bring.

        At every split, ``leaf_objective`` of the node less that of its two children, credited
        to the split's column (an oblique split shares it among its columns in proportion to
        the magnitudes of their weights).

        Parameters
        ----------
        normalize : bool, default=True
            Divide by the total, so that the importances add up to 1 (all 0 when no split
            lowers the objective).

        Returns
        -------
        importances : ndarray of float64 of shape (n_features,)
            Unnormalised, the decreases add up to the objective of a single leaf less that of
            the tree's leaves (each predicting its best class).
        """
        importances = np.zeros(self.n_features, dtype=np.float64)
        for i in range(self.node_count):
            left, right = self.children_left[i], self.children_right[i]
            if left == TREE_LEAF:
                continue
            objective = self.leaf_objective
            decrease = max(objective[i] - objective[left] - objective[right], 0.0)
            if self.feature[i] >= 0:
                importances[self.feature[i]] += decrease
            elif i in self.oblique:
                weights = np.abs(np.asarray(self.oblique[i][0], dtype=np.float64))
                shares = np.zeros(self.n_features)
                np.add.at(shares, self._encoded_columns, weights)
                if shares.sum() > 0:
                    importances += decrease * shares / shares.sum()
        total = importances.sum()
        if normalize and total > 0:
            importances /= total
        return importances


def _preorder(nodes, present_first=None):
    """The engine's node ids, depth-first (a split, its left subtree, its right subtree; the
    present rows' subtree first at a split of the missing rows from the rest,
    ``present_first``: ``{split id: present child id}``)."""
    present_first = present_first or {}
    order, stack = [], [1]
    while stack:
        node_id = stack.pop()
        order.append(node_id)
        if nodes[node_id]["kind"] != "leaf":
            first = present_first.get(node_id, 2 * node_id)
            stack += [4 * node_id + 1 - first, first]
    return order


def missing_tests(document, nodes=None):
    """The splits of the rows missing a categorical column from the rest, as the engine's
    renderings read them (``t is missing`` / ``t is present``): a split on one category's 0/1
    feature whose threshold is below 0 with the missing rows sent left, or at 1 or above with
    them sent right.

    Parameters
    ----------
    document : dict
        The tree file's JSON, parsed.
    nodes : dict, optional
        Its nodes by id (default: read from ``document``).

    Returns
    -------
    present : dict
        ``{split id: the id of the child the present rows reach}``.
    """
    nodes = nodes or {node["id"]: node for node in document["nodes"]}
    categorical = []
    for column in document["columns"]:
        if column["kind"] == "numeric":
            categorical.append(False)
        elif column["kind"] == "categorical":
            categorical += [True] * len(column["categories"])
    present = {}
    for node_id, node in nodes.items():
        if node["kind"] != "split" or "category" in node:
            continue
        if not categorical[node["feature"]]:
            continue
        side, threshold = node.get("missing"), float(node["threshold"])
        if side == "left" and threshold < 0:
            present[node_id] = 2 * node_id + 1
        elif side == "right" and threshold >= 1:
            present[node_id] = 2 * node_id
    return present


def encoded_columns(document):
    """For each feature of the engine's tree, the column of ``X`` it comes from.

    Parameters
    ----------
    document : dict
        The tree file's JSON, parsed.

    Returns
    -------
    columns : ndarray of int64
        A column of ``X`` per feature (a categorical column gives one feature per category).
    """
    columns = []
    position = 0
    for column in document["columns"]:
        if column["kind"] == "numeric":
            columns.append(position)
        elif column["kind"] == "categorical":
            columns += [position] * len(column["categories"])
        else:
            continue
        position += 1
    return np.array(columns, dtype=np.int64)


def node_totals(core, rows, n_rows, labels, weights, n_classes):
    """The training rows reaching each node of the engine's tree, from the routes they take.

    Parameters
    ----------
    core : milptree._core.Tree
        The engine's tree.
    rows : bytes
        The bytes of the engine's matrix of the training rows.
    n_rows : int
        The number of rows.
    labels : ndarray of int
        Each row's class position.
    weights : ndarray of float
        Each row's weight.
    n_classes : int
        The number of classes.

    Returns
    -------
    counts : ndarray of int64
        The rows reaching each node, by the engine's node id.
    weighted : ndarray of shape (max node id + 1, n_classes)
        Their weight per class, by node id.
    """
    ids, offsets = core.decision_paths(rows, n_rows)
    ids = np.frombuffer(ids, dtype=np.int64)
    offsets = np.frombuffer(offsets, dtype=np.int64)
    row_of = np.repeat(np.arange(n_rows), np.diff(offsets))
    size = int(ids.max()) + 1 if len(ids) else 2
    counts = np.bincount(ids, minlength=size)
    weighted = np.zeros((size, n_classes))
    np.add.at(weighted, (ids, labels[row_of]), weights[row_of])
    return counts, weighted


def build(core, class_positions, categories, n_features, totals=None, class_costs=None,
          document=None):
    """The ``TreeStructure`` of the engine's tree.

    Parameters
    ----------
    core : milptree._core.Tree
        The engine's tree.
    class_positions : ndarray of int
        For each class of ``core`` (its order), its position in the estimator's
        ``classes_``.
    categories : dict
        ``{column: categories}`` of the categorical columns.
    n_features : int
        The columns of ``X``.
    totals : tuple, optional
        ``(counts, weighted)`` of ``node_totals`` (default: the counts the tree file holds,
        unweighted).
    class_costs : array-like, optional
        Each class's cost in ``leaf_objective`` (default 1).
    document : dict, optional
        The tree file's JSON, parsed (default: read from ``core``).

    Returns
    -------
    structure : TreeStructure
        The tree's arrays.
    """
    document = json.loads(core.to_json()) if document is None else document
    nodes = {node["id"]: node for node in document["nodes"]}
    present = missing_tests(document, nodes)
    order = _preorder(nodes, present)
    index = {node_id: i for i, node_id in enumerate(order)}
    count = len(order)
    n_classes = len(class_positions)
    columns = encoded_columns(document)
    if totals is None:
        counts = {i: np.asarray(nodes[i]["counts"], dtype=np.float64) for i in order}
        per_class = np.zeros((count, n_classes))
        for node_id in order:
            per_class[index[node_id], class_positions] = counts[node_id]
        n_samples = per_class.sum(axis=1).round().astype(np.int64)
    else:
        rows_per_id, weighted = totals
        ids = np.array(order)
        inside = ids < len(rows_per_id)  # ids past the last reached have no row
        n_samples = np.zeros(count, dtype=np.int64)
        n_samples[inside] = rows_per_id[ids[inside]]
        per_class = np.zeros((count, n_classes))
        per_class[inside] = weighted[ids[inside]]
    weighted_n = per_class.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(weighted_n[:, None] > 0, per_class / weighted_n[:, None], 0.0)
    costs = np.ones(n_classes) if class_costs is None else np.asarray(class_costs, dtype=np.float64)
    cost_per_class = per_class * costs[None, :]
    leaf_objective = cost_per_class.sum(axis=1) - cost_per_class.max(axis=1, initial=0.0)

    left = np.full(count, TREE_LEAF, dtype=np.int64)
    right = np.full(count, TREE_LEAF, dtype=np.int64)
    feature = np.full(count, TREE_UNDEFINED, dtype=np.int64)
    threshold = np.full(count, float(TREE_UNDEFINED))
    missing_left = np.zeros(count, dtype=np.uint8)
    missing_learned = np.zeros(count, dtype=bool)
    leaf_class = np.full(count, TREE_UNDEFINED, dtype=np.int64)
    is_categorical = np.zeros(count, dtype=bool)
    category = np.full(count, None, dtype=object)
    oblique = {}
    for i, node_id in enumerate(order):
        node = nodes[node_id]
        if node["kind"] == "leaf":
            leaf_class[i] = class_positions[node["class"]]
            continue
        left[i], right[i] = index[2 * node_id], index[2 * node_id + 1]
        if node_id in present:
            # Every present value left (it is not None), the missing ones right.
            first = present[node_id]
            left[i], right[i] = index[first], index[4 * node_id + 1 - first]
            feature[i] = int(columns[node["feature"]])
            is_categorical[i] = True
            threshold[i] = np.nan
            missing_learned[i] = True
            missing_left[i] = 0
            continue
        if node["kind"] == "oblique":
            threshold[i] = np.nan
            oblique[i] = (list(node["weights"]), float(node["bias"]))
        else:
            column = int(columns[node["feature"]])
            feature[i] = column
            if "category" in node:
                is_categorical[i] = True
                threshold[i] = np.nan
                category[i] = _category_value(categories.get(column), node["category"])
            else:
                threshold[i] = float(node["threshold"])
        side = node.get("missing")
        missing_learned[i] = side is not None
        if side is None:
            # The engine's rule for a split with no learned side: the child more training rows
            # reached, right on a tie.
            side = "left" if n_samples[left[i]] > n_samples[right[i]] else "right"
        missing_left[i] = side == "left"
    leaves = left == TREE_LEAF
    depth_of = {node_id: node_id.bit_length() - 1 for node_id in order}
    structure = TreeStructure(core, {
        "node_count": count,
        "n_leaves": int(leaves.sum()),
        "max_depth": max(depth_of.values()),
        "n_features": int(n_features),
        "n_outputs": 1,
        "n_classes": np.array([n_classes], dtype=np.int64),
        "max_n_classes": n_classes,
        "capacity": count,
        "children_left": left,
        "children_right": right,
        "feature": feature,
        "threshold": threshold,
        "value": value[:, None, :],
        "n_node_samples": n_samples.astype(np.int64),
        "weighted_n_node_samples": weighted_n,
        "impurity": np.where(weighted_n > 0, 1.0 - (value**2).sum(axis=1), 0.0),
        "missing_go_to_left": missing_left,
        "missing_learned": missing_learned,
        "leaf_class": leaf_class,
        "is_categorical": is_categorical,
        "category": category,
        "oblique": oblique,
        "node_id": np.array(order, dtype=np.int64),
        "leaf_objective": leaf_objective,
    })
    structure._encoded_columns = columns
    return structure


def _category_value(categories, text):
    """The category whose text is ``text``, as ``categories_`` holds it (the text itself when
    the column's categories are not known)."""
    if categories is None:
        return text
    from milptree._columns import category_texts

    texts = category_texts(categories)
    return categories[texts.index(text)] if text in texts else text
