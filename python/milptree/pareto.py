"""``pareto_front``: the front of false positives and false negatives over the trees of a depth
(``milptree pareto``), as a DataFrame with one row per point, every metric of it, and its tree
as an estimator that predicts."""

import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.utils.validation import check_X_y

from milptree.estimator import load_tree


def _write_csv(path, X, y, features):
    with open(path, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([*features, "class"])
        for row, label in zip(X, y):
            writer.writerow([repr(float(v)) for v in row] + [str(label)])


def pareto_front(X, y, max_depth=2, *, positive_class=None, method="dp", solver=None,
                 max_splits=None, thresholds=None, time_limit=None, memory_limit=None,
                 threads=None):
    """The Pareto front of (false positives, false negatives) over the trees of a depth.

    Learned by the bi-objective search (``method="dp"``) or by the epsilon-constraint method
    on a MILP formulation (``method="oct"`` or ``"binoct"``) with ``solver``; the command
    line's ``milptree pareto``.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        The training rows; a DataFrame's column names become the feature names.
    y : array-like of shape (n_samples,)
        The labels.
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
        Seconds; past it the front is partial (``proven`` False where not proven).
    memory_limit : int, optional
        Cap on the search's cache in MiB.
    threads : int, optional
        Threads of the search (default 1; the same front with any number), or of the MILP
        solver.

    Returns
    -------
    front : pandas.DataFrame
        One row per point by increasing false positives: ``fp``, ``fn``, ``splits``,
        ``proven`` (the point is proven on the front), every metric of the point
        (``accuracy``, ``f1``, ``mcc``, ...), and ``tree``, an ``OptimalTreeClassifier``
        holding the point's tree (its labels are text; with more than two classes, the others
        are ``not LABEL``).

    Raises
    ------
    ValueError
        On bad input, with the command line's message.
    """
    import pandas as pd

    names = list(X.columns) if hasattr(X, "columns") else None
    X, y = check_X_y(X, y, dtype=np.float64)
    features = [str(n) for n in names] if names else [f"x{j}" for j in range(X.shape[1])]
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
        _write_csv(data, X, y, features)
        command = [sys.executable, "-m", "milptree._cli", "pareto", data, "--quiet",
                   "--out", os.path.join(work, "out"), "--trees", os.path.join(work, "trees")]
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
            row["tree"] = load_tree(tree_file) if tree_file else None
            rows.append(row)
    return pd.DataFrame(rows)
