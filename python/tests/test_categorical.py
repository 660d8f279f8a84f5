"""Categorical columns (``categorical_features``): the optimum over trees whose splits on those
columns are equality tests ``x_j = v`` (and thresholds on the others) equals an exhaustive
search written here; the tree reads ``colour = 2``; an unseen value goes the ``!=`` way; a split
of the rows missing a text column from the rest reads ``t is missing`` / ``t is present``, and
``tree_``'s arrays route it by their documented rules (every present value left)."""

import json

import numpy as np
import pytest

from conftest import random_data
from milptree import OptimalTreeClassifier


def fewest_errors(X, y, depth, categorical):
    """The fewest training errors of any tree of at most `depth` levels whose splits are
    `x_j = v` for a column j in `categorical` and `x_j <= t` (midpoints) for the others."""
    errors_as_leaf = len(y) - np.bincount(y).max() if len(y) else 0
    if depth == 0 or errors_as_leaf == 0:
        return errors_as_leaf
    best = errors_as_leaf
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        if j in categorical:
            sides = [X[:, j] != v for v in values]
        else:
            sides = [X[:, j] <= (low + high) / 2 for low, high in zip(values[:-1], values[1:])]
        for left in sides:
            best = min(best, fewest_errors(X[left], y[left], depth - 1, categorical)
                       + fewest_errors(X[~left], y[~left], depth - 1, categorical))
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("depth", [1, 2])
def test_dp_optimum_over_equality_splits_equals_exhaustive_search(seed, depth):
    X, y = random_data(seed, n_values=5)
    model = OptimalTreeClassifier(method="dp", max_depth=depth, categorical_features=[0, 2])
    model.fit(X, y)
    expected = fewest_errors(X, y, depth, {0, 2})
    assert int((model.predict(X) != y).sum()) == expected
    assert model.objective_ == pytest.approx(expected)


def test_equality_splits_read_as_such_and_unseen_values_go_the_unequal_way():
    X = np.array([[0, 1], [1, 2], [2, 3], [3, 1], [2, 2], [1, 3], [0, 2], [3, 3]], dtype=float)
    y = np.array(["no", "no", "yes", "no", "yes", "no", "no", "no"])
    numeric = OptimalTreeClassifier(method="dp", max_depth=1).fit(X, y)
    assert (numeric.predict(X) != y).sum() > 0  # no threshold isolates colour 2
    import pandas as pd

    frame = pd.DataFrame(X, columns=["colour", "size"])
    model = OptimalTreeClassifier(method="dp", max_depth=1, categorical_features=["colour"])
    model.fit(frame, y)
    assert (model.predict(frame) != y).sum() == 0
    assert list(model.categories_) == [0]
    text = model.export_text()
    assert "colour != 2" in text and "colour = 2" in text
    unseen = pd.DataFrame([[7.0, 1.0], [2.0, 1.0]], columns=["colour", "size"])
    with pytest.warns(UserWarning, match="value `7` \\(1 row\\) does not occur"):
        assert list(model.predict(unseen)) == ["no", "yes"]
    with pytest.warns(UserWarning, match="column `colour`"):
        assert model.predict_proba(unseen).shape == (2, 2)


def test_categorical_features_must_name_columns():
    X, y = random_data(0)
    for bad in [[5], ["nope"], "colour", 3]:
        with pytest.raises(ValueError, match="categorical_features"):
            OptimalTreeClassifier(method="dp", max_depth=1, categorical_features=bad).fit(X, y)


def fewest_errors_with_gaps(X, y, depth, categorical):
    """As `fewest_errors`, on data with NaN cells: every split sends the rows missing its
    column one way or the other (both tried), and the split that separates exactly the rows
    missing a column is a candidate too."""
    errors_as_leaf = len(y) - np.bincount(y).max() if len(y) else 0
    if depth == 0 or errors_as_leaf == 0:
        return errors_as_leaf
    best = errors_as_leaf
    for j in range(X.shape[1]):
        gap = np.isnan(X[:, j])
        values = np.unique(X[~gap, j])
        if j in categorical:
            observed = [(X[:, j] != v) & ~gap for v in values]
        else:
            observed = [X[:, j] <= (low + high) / 2 for low, high in zip(values[:-1], values[1:])]
        sides = [gap] + [side | gap for side in observed] + observed
        for left in sides:
            best = min(best, fewest_errors_with_gaps(X[left], y[left], depth - 1, categorical)
                       + fewest_errors_with_gaps(X[~left], y[~left], depth - 1, categorical))
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("depth", [1, 2])
def test_categorical_columns_with_missing_values_match_the_exhaustive_search(seed, depth):
    X, y = random_data(seed, n_values=4)
    rng = np.random.default_rng(100 + seed)
    X[rng.random(X.shape) < 0.2] = np.nan
    categorical = [0, 2]
    clf = OptimalTreeClassifier(
        method="dp", max_depth=depth, categorical_features=categorical
    ).fit(X, y)
    errors = int(round((1 - clf.score(X, y)) * len(y)))
    assert errors == fewest_errors_with_gaps(X, y, depth, set(categorical))


def route(tree, row):
    """The leaf a row reaches, read from ``tree_``'s arrays by their documented rules alone."""
    node = 0
    while tree.children_left[node] != -1:
        value = row[tree.feature[node]]
        if value is None or (isinstance(value, float) and np.isnan(value)):
            left = bool(tree.missing_go_to_left[node])
        elif tree.is_categorical[node]:
            left = value != tree.category[node]
        else:
            left = value <= tree.threshold[node]
        node = tree.children_left[node] if left else tree.children_right[node]
    return node


def test_a_split_of_the_missing_text_cells_reads_as_missing_and_present(tmp_path):
    pd = pytest.importorskip("pandas")
    from milptree import export_text, load_tree

    frame = pd.DataFrame({"t": ["red", "blue", None, "red", None, "blue"]})
    y = np.array(list("bbabab"))
    model = OptimalTreeClassifier(method="dp", max_depth=1).fit(frame, y)
    text = model.export_text()
    assert text == model.tree_.to_text()
    assert text == ("|--- t is missing\n|   |--- class: a  [2, 0]\n"
                    "|--- t is present\n|   |--- class: b  [0, 4]\n")
    assert export_text(model) == text
    tree = model.tree_
    # Every present value goes left (it is not the category None), the missing ones right.
    assert tree.is_categorical[0] and tree.category[0] is None and np.isnan(tree.threshold[0])
    assert tree.missing_go_to_left[0] == 0 and tree.missing_learned[0]
    leaves = [route(tree, row) for row in frame.itertuples(index=False)]
    assert list(tree.leaf_class[leaves]) == list(np.searchsorted(model.classes_, y))
    assert list(model.apply(frame)) == leaves
    # The same split with the missing rows on the engine's right reads the same way round.
    document = json.loads(tree.to_json())
    first, left, right = document["nodes"]
    first.update(threshold=1.5, missing="right")
    left["id"], right["id"] = 3, 2
    document["nodes"] = [first, right, left]
    (tmp_path / "flipped.json").write_text(json.dumps(document))
    flipped = load_tree(tmp_path / "flipped.json")
    assert flipped.export_text() == flipped.tree_.to_text() == (
        "|--- t is present\n|   |--- class: b  [0, 4]\n"
        "|--- t is missing\n|   |--- class: a  [2, 0]\n")
    leaves = [route(flipped.tree_, row) for row in frame.itertuples(index=False)]
    assert list(flipped.tree_.leaf_class[leaves]) == list(np.searchsorted(flipped.classes_, y))
    assert list(flipped.predict(frame)) == list(y)
