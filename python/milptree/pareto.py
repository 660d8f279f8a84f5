"""``pareto_front``: the front of false positives and false negatives over the trees of a depth
(``milptree pareto``), as a DataFrame with one row per point, every metric of it, and its tree
as an estimator that predicts.

``X``, ``y`` and ``sample_weight`` are read as ``OptimalTreeClassifier.fit`` reads them
(missing values, categorical columns with their labels, sparse input, rows without a label
dropped) and handed to the engine as ``fit`` hands them; the engine learns the front as
``milptree pareto`` does and names the parameters in its messages as this function does.
The points' trees predict on ``X`` as given and return ``y``'s labels.
"""

import json

from milptree import _core
from milptree._engine_data import engine_data
from milptree.estimator import _value, estimator_of_tree


def pareto_front(X, y, max_depth=2, *, positive_class=None, method="dp", solver=None,
                 max_splits=None, thresholds=None, time_limit=None, memory_limit=None,
                 threads=None, sample_weight=None, categorical_features="from_dtype"):
    """The Pareto front of (false positives, false negatives) over the trees of a depth.

    Learned by the bi-objective search (``method="dp"``) or by the epsilon-constraint method
    on a MILP formulation (``method="oct"`` or ``"binoct"``) with ``solver``; the command
    line's ``milptree pareto``.

    Parameters
    ----------
    X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
        The training rows, taken as ``OptimalTreeClassifier.fit`` takes them: NaN is a
        missing value, a DataFrame's column names become the feature names and its text and
        category columns are categorical.
    y : array-like of shape (n_samples,)
        The labels; a row whose label is missing is dropped with a warning.
    max_depth : int, default=2
        Levels of splits.
    positive_class : label, optional
        The positive label (default: the second class). With more than two classes, the
        others are learned together as ``not LABEL``.
    method : {"dp", "oct", "binoct"}, default="dp"
        The bi-objective exact search, or a MILP formulation.
    solver : {"highs", "cbc"}, optional
        The MIP solver of a MILP method (default highs); refused with ``method="dp"``.
        ``cbc`` needs a milptree built with CBC (from source); the wheels refuse it.
    max_splits : int, optional
        At most this many split nodes.
    thresholds : {"all", "class-boundary"}, optional
        Candidate thresholds.
    time_limit : float, optional
        Seconds; the points found by then are returned (``proven`` False where not proven).
    memory_limit : int, optional
        Cap on the search's cache in MiB.
    threads : int, optional
        Threads of the search (default 1; the same front with any number), or of the MILP
        solver.
    sample_weight : array-like of shape (n_samples,), optional
        Each row's weight: with ``method="dp"``, whole multiples of one unit per class, such
        as ``compute_sample_weight("balanced", y)``, alone or times whole numbers (``fp``
        and ``fn`` are then weights); whole numbers with a MILP method.
    categorical_features : "from_dtype", list or None, default="from_dtype"
        Which columns of ``X`` are categorical, as ``OptimalTreeClassifier`` takes it.

    Returns
    -------
    front : pandas.DataFrame
        One row per point by increasing false positives: ``fp``, ``fn``, ``splits``,
        ``proven`` (the point is proven on the front), every metric of the point
        (``accuracy``, ``f1``, ``mcc``, ...), and ``tree``, an ``OptimalTreeClassifier``
        holding the point's tree, which predicts on ``X`` as given. With two classes its
        ``classes_`` are ``y``'s (labels and dtype); with more, the tree's are the positive
        label and ``not LABEL`` (text).

    Raises
    ------
    ValueError
        On bad input or a parameter the method does not take, naming the parameter as this
        function does (``max_splits``, ``method='oct'``).
    KeyboardInterrupt
        On Ctrl-C, once the search has stopped.
    """
    import pandas as pd

    data = engine_data(X, y, sample_weight, categorical_features)
    settings = {"method": method, "solver": solver, "max_depth": max_depth,
                "max_splits": max_splits, "thresholds": thresholds, "time_limit": time_limit,
                "memory_limit": memory_limit, "threads": threads}
    settings = {name: _value(value) for name, value in settings.items()}
    if positive_class is not None:
        settings["positive_class"] = str(positive_class)
    report, trees, interruption = _core.pareto_front(
        data.matrix, data.n_rows, data.features, data.names, data.labels, data.weights,
        json.dumps(settings), data.texts,
    )
    if interruption is not None:
        raise interruption
    document = json.loads(report)
    rows = []
    for point, tree in zip(document["points"], trees):
        row = {k: v for k, v in point.items() if k not in ("test", "tree_file")}
        row["tree"] = _point_tree(tree, data.classes, data.categories)
        rows.append(row)
    return pd.DataFrame(rows)


def _point_tree(tree, classes, categories):
    """The estimator of a point's tree: ``y``'s labels when the tree's classes are their texts
    (two classes), the tree's otherwise."""
    by_text = {str(c): c for c in classes}
    if set(tree.classes) <= set(by_text) and len(tree.classes) == len(classes):
        return estimator_of_tree(tree, classes=classes, categories=categories)
    return estimator_of_tree(tree, categories=categories)
