"""The estimator's own behaviour: probabilities, leaves and paths, feature names and labels,
bad input, tree files shared with the command line, and row weights (Ctrl-C:
test_interrupt.py)."""

import subprocess

import numpy as np
import pytest

from conftest import random_data
from milptree import OptimalTreeClassifier, load_tree


def test_probabilities_are_the_leaf_frequencies_of_the_training_rows(iris):
    X, y = iris
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    proba = model.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1.0)
    leaves = model.apply(X)
    for leaf in np.unique(leaves):
        counts = np.bincount(y[leaves == leaf], minlength=3)
        assert np.allclose(proba[leaves == leaf], counts / counts.sum())
    # The prediction is the class of the largest probability here (no ties in iris's leaves).
    assert np.array_equal(model.classes_[proba.argmax(axis=1)], model.predict(X))


def test_leaves_paths_depth_and_renderings(iris):
    X, y = iris
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    tree = model.tree_
    leaves = model.apply(X)
    paths = model.decision_path(X).toarray()
    parent = {int(c): k for k in range(tree.node_count)
              for c in (tree.children_left[k], tree.children_right[k]) if c >= 0}
    for row, leaf in zip(paths, leaves):
        assert tree.children_left[leaf] == -1
        expected, node = {int(leaf)}, int(leaf)
        while node in parent:
            node = parent[node]
            expected.add(node)
        assert set(np.flatnonzero(row)) == expected
        # The engine's ids: the children of k are 2k and 2k + 1.
        ids = sorted(int(tree.node_id[k]) for k in expected)
        assert ids == sorted(int(tree.node_id[leaf]) >> s for s in range(len(expected)))
    assert model.get_depth() == 2
    assert model.get_n_leaves() == len(np.unique(leaves)) == 3
    assert model.export_text().startswith("|--- x")
    assert model.export_graphviz().startswith("digraph")


def test_dataframe_columns_and_string_labels():
    pd = pytest.importorskip("pandas")
    X, y = random_data(7, n_rows=40)
    frame = pd.DataFrame(X, columns=["height", "width", "depth"])
    labels = np.array(["no", "yes"])[y]
    model = OptimalTreeClassifier(max_depth=2).fit(frame, labels)
    assert list(model.feature_names_in_) == ["height", "width", "depth"]
    assert list(model.classes_) == ["no", "yes"]
    assert set(model.predict(frame)) <= {"no", "yes"}
    assert any(name in model.export_text() for name in ["height", "width", "depth"])


def test_the_positive_class_may_reorder_the_classes():
    X, y = random_data(8, n_rows=40)
    labels = np.array(["a", "b"])[y]
    plain = OptimalTreeClassifier(max_depth=2, objective="f1").fit(X, labels)
    flipped = OptimalTreeClassifier(max_depth=2, objective="f1", positive_class="a").fit(X, labels)
    for model in (plain, flipped):
        proba = model.predict_proba(X)
        leaves = model.apply(X)
        for leaf in np.unique(leaves):
            share_b = np.mean(labels[leaves == leaf] == "b")
            assert np.allclose(proba[leaves == leaf, 1], share_b)


@pytest.mark.parametrize("X, y, message", [
    ([[0.0, np.inf], [1.0, 2.0]], [0, 1], "infinity"),
    ([[0.0], [1.0], [2.0]], [0, 1], "inconsistent numbers of samples"),
    ([[0.0], [1.0], [2.0]], [1, 1, 1], "one class"),
    ([0.0, 1.0, 2.0], [0, 1, 0], "2D array"),
])
def test_bad_data_raises_value_error(X, y, message):
    with pytest.raises(ValueError, match=message):
        OptimalTreeClassifier(max_depth=1).fit(np.array(X), np.array(y))


@pytest.mark.parametrize("params, message", [
    ({"method": "cart"}, "method must be one of"),
    ({"max_depth": -1}, "max_depth"),
    ({"max_depth": 2.5}, "max_depth must be an integer"),
    ({"method": "sparse", "alpha": 0.1}, "alpha: does not apply to method='sparse'"),
    ({"objective": "nope"}, "objective"),
    ({"method": "dp", "solver": "cbc"}, "solver applies to the MILP methods"),
    ({"time_limit": -1}, "time_limit"),
    ({"class_weight": "even"}, "class_weight must be"),
    ({"method": "oct", "objective": "f1"},
     "invalid objective: f1 does not apply to method='oct' .*it applies to "
     "method='dp' and method='sparse'$"),
    ({"method": "sparse", "objective": "mcc"},
     "invalid objective: mcc does not apply to method='sparse'; it applies to "
     "method='dp'$"),
])
def test_bad_parameters_raise_value_error_naming_them(params, message):
    X, y = random_data(1)
    with pytest.raises(ValueError, match=message):
        OptimalTreeClassifier(**{"max_depth": 1, **params}).fit(X, y)


def test_predict_checks_the_number_of_features(iris):
    X, y = iris
    model = OptimalTreeClassifier(max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :3])


def milptree_command(*args, **kwargs):
    """Runs the `milptree` command line this package installs."""
    return subprocess.run(["milptree", *args], capture_output=True, text=True, check=True,
                          **kwargs)


def test_a_python_tree_predicts_like_the_command_line(tmp_path):
    pd = pytest.importorskip("pandas")
    X, y = random_data(11, n_rows=40, n_classes=3)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    labels = np.array(["red", "green", "blue"])[y]
    model = OptimalTreeClassifier(max_depth=2).fit(frame, labels)
    model.save_tree(tmp_path / "tree.json")
    # The label column of a tree learned from arrays is `class`.
    frame.assign(**{"class": labels}).to_csv(tmp_path / "data.csv", index=False)
    out = milptree_command("predict", "--tree", str(tmp_path / "tree.json"),
                           str(tmp_path / "data.csv"))
    predicted = pd.read_csv(pd.io.common.StringIO(out.stdout))["predicted"]
    assert list(predicted) == list(model.predict(frame))
    loaded = load_tree(tmp_path / "tree.json")
    assert list(loaded.predict(frame)) == list(model.predict(frame))


def test_a_command_line_tree_loads_into_an_estimator(tmp_path):
    pd = pytest.importorskip("pandas")
    X, y = random_data(12, n_rows=40)
    frame = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=np.array(["n", "p"])[y])
    frame.to_csv(tmp_path / "data.csv", index=False)
    milptree_command("solve", str(tmp_path / "data.csv"), "--solver", "dp", "--depth", "2",
                     "--quiet", "-o", str(tmp_path / "tree.json"))
    out = milptree_command("predict", "--tree", str(tmp_path / "tree.json"),
                           str(tmp_path / "data.csv"))
    expected = list(pd.read_csv(pd.io.common.StringIO(out.stdout))["predicted"])
    model = load_tree(tmp_path / "tree.json")
    assert list(model.predict(frame[["a", "b", "c"]])) == expected
    assert list(model.classes_) == ["n", "p"]


@pytest.mark.parametrize("method", ["dp", "oct"])
@pytest.mark.parametrize("seed", range(3))
def test_integer_weights_equal_repeated_rows(method, seed):
    X, y = random_data(300 + seed, n_rows=14)
    weights = np.random.default_rng(seed).integers(1, 4, size=len(y))
    depth = 2 if method == "dp" else 1
    weighted = OptimalTreeClassifier(method=method, max_depth=depth, time_limit=60)
    weighted.fit(X, y, sample_weight=weights)
    repeated = OptimalTreeClassifier(method=method, max_depth=depth, time_limit=60)
    repeated.fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
    # The same optimum: the weighted errors of each tree on the weighted rows.
    errors = lambda model: float(weights @ (model.predict(X) != y))  # noqa: E731
    assert errors(weighted) == errors(repeated)
    assert weighted.objective_ == pytest.approx(repeated.objective_)


@pytest.mark.parametrize("seed", range(3))
def test_weight_zero_equals_dropping_the_row(seed):
    X, y = random_data(400 + seed, n_rows=20)
    weights = np.ones(len(y))
    weights[:5] = 0
    weighted = OptimalTreeClassifier(max_depth=2).fit(X, y, sample_weight=weights)
    dropped = OptimalTreeClassifier(max_depth=2).fit(X[5:], y[5:])
    assert (weighted.predict(X[5:]) != y[5:]).sum() == (dropped.predict(X[5:]) != y[5:]).sum()


def test_negative_weights_name_the_row():
    X, y = random_data(5)
    weights = np.ones(len(y))
    weights[3] = -1
    with pytest.raises(ValueError, match="row 3"):
        OptimalTreeClassifier(max_depth=1).fit(X, y, sample_weight=weights)


def test_nan_is_a_missing_value_with_a_learned_side():
    # x0 decides the class; a missing x0 marks class 1, which only a learned side can use.
    X = np.array([[0.0], [1.0], [2.0], [3.0], [np.nan], [np.nan], [4.0], [5.0]])
    y = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    model = OptimalTreeClassifier(max_depth=1).fit(X, y)
    assert (model.predict(X) == y).all()
    assert "(missing: right)" in model.export_text()
    assert model.predict(np.array([[np.nan], [0.5]])).tolist() == [1, 0]
    for method in ("sparse", "oct"):
        other = OptimalTreeClassifier(method, max_depth=1).fit(X, y)
        assert (other.predict(X) == y).all()
    with pytest.raises(ValueError, match="olct"):
        OptimalTreeClassifier("olct", max_depth=1).fit(X, y)
