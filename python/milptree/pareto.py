"""``pareto_front``: the front of false positives and false negatives over the trees of a depth
(``milptree pareto``), as a DataFrame with one row per point, every metric of it, and its tree
as an estimator that predicts.

``X``, ``y`` and ``sample_weight`` are read as ``OptimalTreeClassifier.fit`` reads them
(missing values, categorical columns with their labels, sparse input, rows without a label
dropped) and handed to ``milptree pareto`` as a CSV file it reads back exactly: numbers as
Python writes them (``repr``), a missing cell empty, a category as its text (named by
``--categorical``), the label and the weights in columns of their own. The points' trees
predict on ``X`` as given and return ``y``'s labels.
"""

import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.utils.validation import _check_sample_weight

from milptree import _columns
from milptree.estimator import OptimalTreeClassifier, estimator_of_tree

# Cell texts `milptree pareto` reads as missing (its defaults).
_MISSING_TEXTS = ("", "NA", "NaN", "?")


def _free_name(wanted, taken):
    """``wanted``, or ``wanted_2``, ``wanted_3``, ... : the first not in ``taken``."""
    name, k = wanted, 1
    while name in taken:
        k += 1
        name = f"{wanted}_{k}"
    return name


def _write_csv(path, coded, y, weights, features, categories):
    """The data as ``milptree pareto`` reads it; returns the label and weight columns' indexes
    and the categorical columns' indexes."""
    texts = {j: _columns.category_texts(known) for j, known in categories.items()}
    for j, column_texts in texts.items():
        for text in column_texts:
            if text.strip() in _MISSING_TEXTS:
                raise ValueError(
                    f"column {features[j]!r}: the category {text!r} reads as a missing value "
                    "in the command line's CSV; give it another label"
                )
    label = _free_name("class", set(features))
    header = [*features, label]
    if weights is not None:
        header.append(_free_name("weight", set(header)))

    def cell(j, value):
        if np.isnan(value):
            return ""
        if j in texts:
            return texts[j][int(value)]
        return repr(float(value))

    with open(path, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        for i, (row, target) in enumerate(zip(coded, y)):
            record = [cell(j, v) for j, v in enumerate(row)] + [str(target)]
            if weights is not None:
                record.append(repr(float(weights[i])))
            writer.writerow(record)
    return len(features), (len(features) + 1 if weights is not None else None)


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
        On bad input, with the command line's message.
    """
    import pandas as pd

    reader = OptimalTreeClassifier(categorical_features=categorical_features)
    coded, y, sample_weight, categories, _ = reader._training_data(X, y, sample_weight)
    weights = None
    if sample_weight is not None:
        weights = _check_sample_weight(sample_weight, coded, dtype=np.float64)
    features = reader._feature_names(coded.shape[1])
    classes = np.unique(y)
    options = {"--depth": max_depth, "--positive-class": positive_class,
               "--max-splits": max_splits, "--thresholds": thresholds,
               "--time-limit": time_limit, "--memory-limit": memory_limit,
               "--threads": threads}
    if method != "dp":
        options["--formulation"] = method
        options["--solver"] = solver or "highs"
    elif solver is not None:
        raise ValueError("solver applies to method='oct' or 'binoct', not to method='dp'")
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "data.csv")
        target, weight_column = _write_csv(data, coded, y, weights, features, categories)
        command = [sys.executable, "-m", "milptree._cli", "pareto", data, "--quiet",
                   "--out-dir", os.path.join(work, "out"), "--trees",
                   os.path.join(work, "trees"), "--target", str(target)]
        if weight_column is not None:
            command += ["--weight-column", str(weight_column)]
        if categories:
            command += ["--categorical", ",".join(str(j) for j in sorted(categories))]
        for option, value in options.items():
            if value is not None:
                command += [option, str(value)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            message = run.stderr.strip().removeprefix("error: ")
            raise ValueError(message or f"milptree pareto ended with exit code {run.returncode}")
        with open(os.path.join(work, "out", "front.json")) as file:
            document = json.load(file)
        rows = []
        for point in document["points"]:
            tree_file = point.get("tree_file")
            if tree_file and not os.path.isabs(tree_file):
                tree_file = os.path.join(work, "trees", os.path.basename(tree_file))
            row = {k: v for k, v in point.items() if k not in ("test", "tree_file")}
            row["tree"] = _point_tree(tree_file, classes, categories) if tree_file else None
            rows.append(row)
    return pd.DataFrame(rows)


def _point_tree(path, classes, categories):
    """The estimator of a point's tree file: ``y``'s labels when the tree's classes are their
    texts (two classes), the tree's otherwise."""
    from milptree import _core

    tree = _core.read_tree(path)
    by_text = {str(c): c for c in classes}
    if set(tree.classes) <= set(by_text) and len(tree.classes) == len(classes):
        return estimator_of_tree(tree, classes=classes, categories=categories)
    return estimator_of_tree(tree, categories=categories)
