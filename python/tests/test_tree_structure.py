"""``tree_`` has scikit-learn's arrays and meanings: on data whose optimal depth-2 tree is the
tree scikit-learn's CART grows, both trees' arrays are equal, and ``SelectFromModel``,
``permutation_importance``, ``apply``, ``decision_path`` and functions written against
``DecisionTreeClassifier.tree_`` give the same answers on both. ``feature_importances_`` equals
the decrease of training errors counted here by walking the arrays; a walker that also reads
``is_categorical``, ``category`` and ``missing_go_to_left`` predicts as the estimator does."""

import numpy as np
import pytest
from sklearn.feature_selection import SelectFromModel
from sklearn.inspection import permutation_importance
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree._tree import TREE_LEAF, TREE_UNDEFINED

from conftest import random_data
from milptree import OptimalTreeClassifier
from milptree import tree_structure


def staircase(seed=0, n_rows=200):
    """Four columns on a grid of quarters (exact in float32, as CART reads them): class 0 where
    x0 <= 1.6, else class 1 where x2 <= 2.6, else class 2. Both learners find that tree."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 20, size=(n_rows, 4)) / 4
    y = np.where(X[:, 0] <= 1.6, 0, np.where(X[:, 2] <= 2.6, 1, 2))
    return X, y


def walk(tree, row):
    """The leaf a row reaches, read from scikit-learn's arrays only."""
    node = 0
    while tree.children_left[node] != TREE_LEAF:
        goes_left = row[tree.feature[node]] <= tree.threshold[node]
        node = tree.children_left[node] if goes_left else tree.children_right[node]
    return node


def rules(tree, names):
    """Every leaf's path as text and its majority class, from scikit-learn's arrays."""
    found = []

    def visit(node, path):
        if tree.children_left[node] == TREE_LEAF:
            found.append((" and ".join(path), int(np.argmax(tree.value[node, 0]))))
            return
        name, threshold = names[tree.feature[node]], tree.threshold[node]
        visit(tree.children_left[node], path + [f"{name} <= {threshold:.3f}"])
        visit(tree.children_right[node], path + [f"{name} > {threshold:.3f}"])

    visit(0, [])
    return found


@pytest.fixture(scope="module")
def twins():
    X, y = staircase()
    ours = OptimalTreeClassifier(max_depth=2, alpha=0.01).fit(X, y)
    theirs = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    return X, y, ours, theirs


def test_the_arrays_equal_those_of_scikit_learns_tree_of_the_same_shape(twins):
    X, y, ours, theirs = twins
    a, b = ours.tree_, theirs.tree_
    assert (a.node_count, a.n_leaves, a.max_depth) == (b.node_count, b.n_leaves, b.max_depth)
    for name in ("children_left", "children_right", "feature", "n_node_samples",
                 "missing_go_to_left"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for name in ("threshold", "value", "weighted_n_node_samples", "impurity"):
        assert np.allclose(getattr(a, name), getattr(b, name)), name
    assert a.value.shape == b.value.shape
    assert (a.n_features, a.n_outputs, list(a.n_classes)) == (b.n_features, b.n_outputs,
                                                              list(b.n_classes))
    assert (tree_structure.TREE_LEAF, tree_structure.TREE_UNDEFINED) == (TREE_LEAF,
                                                                        TREE_UNDEFINED)
    assert np.array_equal(a.compute_node_depths(), b.compute_node_depths())
    assert ours.n_classes_ == theirs.n_classes_ == 3


def test_scikit_learns_tools_and_tree_walkers_agree_on_both(twins):
    X, y, ours, theirs = twins
    names = [f"x{j}" for j in range(4)]
    for model in (ours, theirs):
        assert np.array_equal(model.predict(X), y)
    assert rules(ours.tree_, names) == rules(theirs.tree_, names)
    assert [walk(ours.tree_, row) for row in X] == [walk(theirs.tree_, row) for row in X]
    assert np.array_equal(ours.apply(X), theirs.apply(X))
    assert np.array_equal(ours.decision_path(X).toarray(), theirs.decision_path(X).toarray())
    ours_selected = SelectFromModel(ours, prefit=True).get_support()
    theirs_selected = SelectFromModel(theirs, prefit=True).get_support()
    assert list(ours_selected) == list(theirs_selected) == [True, False, True, False]
    assert np.allclose(SelectFromModel(ours).fit(X, y).transform(X), X[:, [0, 2]])
    noisy = X.copy()
    noisy[::7, 0] = 5.0 - noisy[::7, 0]  # permutation importances that are not all 0 or 1
    a = permutation_importance(ours, noisy, y, n_repeats=5, random_state=0)
    b = permutation_importance(theirs, noisy, y, n_repeats=5, random_state=0)
    assert np.allclose(a.importances, b.importances)
    assert a.importances_mean[0] > 0 and a.importances_mean[1] == 0


def leaf_errors(y, weights):
    """Errors of a leaf predicting its best class."""
    if len(y) == 0:
        return 0.0
    totals = np.bincount(y, weights=weights)
    return totals.sum() - totals.max()


@pytest.mark.parametrize("seed", range(4))
def test_feature_importances_are_the_decrease_of_errors_counted_by_walking(seed):
    X, y = random_data(600 + seed, n_rows=40, n_features=4, n_classes=3)
    weights = np.random.default_rng(seed).integers(1, 4, size=len(y)).astype(float)
    model = OptimalTreeClassifier(max_depth=3).fit(X, y, sample_weight=weights)
    tree = model.tree_
    reached = [[] for _ in range(tree.node_count)]
    for i, row in enumerate(X):
        node = 0
        while True:
            reached[node].append(i)
            if tree.children_left[node] == TREE_LEAF:
                break
            goes_left = row[tree.feature[node]] <= tree.threshold[node]
            node = tree.children_left[node] if goes_left else tree.children_right[node]
    decrease = np.zeros(X.shape[1])
    for node in range(tree.node_count):
        left, right = tree.children_left[node], tree.children_right[node]
        if left == TREE_LEAF:
            continue
        errors = [leaf_errors(y[reached[k]], weights[reached[k]]) for k in (node, left, right)]
        decrease[tree.feature[node]] += errors[0] - errors[1] - errors[2]
    expected = decrease / decrease.sum() if decrease.sum() > 0 else decrease
    assert np.allclose(model.feature_importances_, expected)
    assert model.feature_importances_.shape == (4,)
    # Unnormalised, they add up to the drop from one leaf to the tree's best-class leaves.
    leaves = [k for k in range(tree.node_count) if tree.children_left[k] == TREE_LEAF]
    drop = leaf_errors(y, weights) - sum(leaf_errors(y[reached[k]], weights[reached[k]])
                                         for k in leaves)
    assert tree.compute_feature_importances(normalize=False).sum() == pytest.approx(drop)
    assert np.array_equal(tree.n_node_samples, [len(r) for r in reached])
    assert np.allclose(tree.weighted_n_node_samples, [weights[r].sum() for r in reached])


def full_walk(model, frame):
    """The class a row reaches, read from the arrays only, categorical and missing sides
    included."""
    tree = model.tree_
    out = []
    for row in frame.itertuples(index=False):
        node = 0
        while tree.children_left[node] != TREE_LEAF:
            value = row[tree.feature[node]]
            if value is None or (isinstance(value, float) and np.isnan(value)):
                goes_left = bool(tree.missing_go_to_left[node])
            elif tree.is_categorical[node]:
                goes_left = value != tree.category[node]
            else:
                goes_left = value <= tree.threshold[node]
            node = tree.children_left[node] if goes_left else tree.children_right[node]
        out.append(model.classes_[tree.leaf_class[node]])
    return np.array(out, dtype=object)


def test_a_walker_with_categories_and_missing_values_predicts_as_the_estimator():
    pd = pytest.importorskip("pandas")
    from test_dataframes import penguins

    X, y = penguins()
    model = OptimalTreeClassifier(max_depth=3).fit(X, y)
    assert model.tree_.is_categorical.any() and model.tree_.missing_learned.any()
    assert list(full_walk(model, X)) == list(model.predict(X))
    # Missing cells where training had none: the walker follows missing_go_to_left too.
    gaps = X.copy()
    gaps.loc[::3, "island"] = np.nan
    gaps.loc[1::3, "year"] = np.nan
    assert list(full_walk(model, gaps)) == list(model.predict(gaps))
    assert isinstance(pd.DataFrame, type)


def test_the_engines_tree_stays_reachable(iris):
    X, y = iris
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    assert model.tree_.to_text() == model.tree_.core.to_text()
    assert model.tree_.to_dot().startswith("digraph")
    assert '"nodes"' in model.tree_.to_json()
    assert list(model.tree_.node_id) == [1, 2, 3, 6, 7]
    assert model.tree_.classes == model.tree_.core.classes == ["0", "1", "2"]
    assert model.tree_.depth == 2 and model.tree_.n_splits == 2
    assert model.get_depth() == 2 and model.get_n_leaves() == 3
