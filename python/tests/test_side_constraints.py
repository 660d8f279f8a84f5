"""Side constraints through the estimator: forbidden features (by index, or a DataFrame's column
name) give the optimum of an exhaustive search over the other columns, for the exact search and
a MILP; bounds on the rows per leaf give the optimum of an exhaustive search over the trees
that meet them; the exact search takes a feature count (``max_features_used``: the best single
column's optimum under a count of one; ``max_features``, its former name, with a
``FutureWarning``, scikit-learn's meanings of it refused by name) and refuses a maximum of rows
per leaf, naming it; a bound on the parity gap between the groups of a column gives, for the
exact search and FlowOCT, the optimum of an exhaustive search over the trees and leaf
labellings within it; dp and sparse take a budget of feature costs and the depths a column may
split at (the optimum of an exhaustive search over the column sets or the trees allowed), and
every kind they take holds on their tree."""

import json

import numpy as np
import pytest

from conftest import random_data
from milptree import OptimalTreeClassifier
from test_optimum import fewest_errors, training_errors


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("depth", [1, 2])
def test_dp_without_forbidden_columns_equals_exhaustive_search(seed, depth):
    X, y = random_data(300 + seed)
    model = OptimalTreeClassifier(method="dp", max_depth=depth, forbidden_features=[0, 2])
    model.fit(X, y)
    assert training_errors(model, X, y) == fewest_errors(X[:, [1]], y, depth)
    assert set(model.report_["side_constraints"]["features_used"]) <= {"x1"}
    assert model.forbidden_features == [0, 2]


def test_a_milp_takes_forbidden_columns_by_dataframe_name():
    pd = pytest.importorskip("pandas")
    X, y = random_data(310, n_rows=16)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    model = OptimalTreeClassifier(
        method="oct", max_depth=1, time_limit=60, forbidden_features=["b"], max_leaves=2
    ).fit(frame, y)
    assert model.optimal_
    assert training_errors(model, frame, y) == fewest_errors(X[:, [0, 2]], y, 1)
    assert "b" not in model.report_["side_constraints"]["features_used"]


def test_dp_takes_a_feature_count_and_sparse_a_row_maximum():
    X, y = random_data(320)
    model = OptimalTreeClassifier(method="dp", max_depth=2, max_features_used=1).fit(X, y)
    assert model.optimal_
    best = min(fewest_errors(X[:, [j]], y, 2) for j in range(X.shape[1]))
    assert training_errors(model, X, y) == best
    assert len(model.report_["side_constraints"]["features_used"]) <= 1
    # The former name keeps its meaning for now, with a FutureWarning that names the new one.
    with pytest.warns(FutureWarning, match="max_features_used"):
        former = OptimalTreeClassifier(method="dp", max_depth=2, max_features=1).fit(X, y)
    nodes = [json.loads(m.tree_.to_json())["nodes"] for m in (former, model)]
    assert nodes[0] == nodes[1]
    # scikit-learn's meanings (features tried per split) do not apply to an optimal tree.
    for value in ("sqrt", "log2", 0.5):
        with pytest.raises(ValueError, match="tries every feature at every split"):
            OptimalTreeClassifier(method="dp", max_depth=1, max_features=value).fit(X, y)
    with pytest.raises(ValueError, match="not both"):
        OptimalTreeClassifier(max_depth=1, max_features=1, max_features_used=1).fit(X, y)
    capped = OptimalTreeClassifier(method="sparse", max_depth=2, max_leaf_rows=120).fit(X, y)
    sizes = list(capped.report_["side_constraints"]["leaf_rows"].values())
    assert sum(sizes) == len(y) and max(sizes) <= 120
    with pytest.raises(ValueError, match="proves that there is no tree"):
        OptimalTreeClassifier(method="sparse", max_depth=2, max_leaf_rows=5).fit(X, y)
    with pytest.raises(ValueError, match="forbidden_features: 'z' is not a column"):
        OptimalTreeClassifier(forbidden_features=["z"]).fit(X, y)


def fewest_errors_within(X, y, most):
    """The fewest training errors of a tree of depth at most 1 whose leaves hold at most
    `most` rows each."""
    best = len(y) - np.bincount(y).max() if len(y) <= most else None
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= (low + high) / 2
            if left.sum() > most or (~left).sum() > most:
                continue
            errors = sum(len(part) - np.bincount(part).max() for part in (y[left], y[~left]))
            best = errors if best is None else min(best, errors)
    return best


@pytest.mark.parametrize("seed", range(2))
def test_a_milp_and_dp_under_a_maximum_of_rows_per_leaf_equal_exhaustive_search(seed):
    X, y = random_data(330 + seed, n_rows=16)
    model = OptimalTreeClassifier(method="flowoct", max_depth=1, time_limit=60, max_leaf_rows=9)
    model.fit(X, y)
    assert training_errors(model, X, y) == fewest_errors_within(X, y, 9)
    assert max(np.bincount(model.apply(X))) <= 9
    assert model.report_["side_constraints"]["constraints"] == {"max_leaf_rows": 9}
    search = OptimalTreeClassifier(method="dp", max_depth=1, max_leaf_rows=9).fit(X, y)
    assert search.optimal_
    assert training_errors(search, X, y) == fewest_errors_within(X, y, 9)
    assert max(np.bincount(search.apply(X))) <= 9


def parity_gap(predicted, groups, positive):
    """The gap between the two groups' rates of predicted `positive`."""
    rates = [np.mean(predicted[groups == g] == positive) for g in np.unique(groups)]
    return abs(rates[0] - rates[1])


def fewest_errors_within_parity(X, y, group, bound):
    """The fewest training errors of a tree of depth at most 1 splitting on no column but
    `group`'s others, whose leaves' labels give a parity gap (positive class 1) of at most
    `bound`: every split and every labelling of its leaves, and both single leaves."""
    groups = X[:, group]
    best = None
    for label in (0, 1):
        predicted = np.full(len(y), label)
        if parity_gap(predicted, groups, 1) <= bound + 1e-9:
            errors = int((predicted != y).sum())
            best = errors if best is None else min(best, errors)
    for j in (j for j in range(X.shape[1]) if j != group):
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= (low + high) / 2
            for labels in ((0, 0), (0, 1), (1, 0), (1, 1)):
                predicted = np.where(left, labels[0], labels[1])
                if parity_gap(predicted, groups, 1) <= bound + 1e-9:
                    errors = int((predicted != y).sum())
                    best = errors if best is None else min(best, errors)
    return best


def fair_data(seed):
    """Two-class data whose label leans on a 0/1 group column (column 0)."""
    rng = np.random.default_rng(seed)
    n = 40
    groups = rng.integers(0, 2, n)
    X = np.column_stack([groups, rng.integers(0, 6, n), rng.integers(0, 6, n)]).astype(float)
    y = ((X[:, 1] + 2 * groups + rng.integers(0, 3, n)) > 4).astype(int)
    return X, y


@pytest.mark.parametrize("seed", range(3))
def test_dp_under_a_parity_gap_equals_exhaustive_search_and_the_milp(seed):
    X, y = fair_data(340 + seed)
    bound = 0.05
    model = OptimalTreeClassifier(
        method="dp", max_depth=1, group_column=0, max_parity_gap=bound
    ).fit(X, y)
    assert model.optimal_
    expected = fewest_errors_within_parity(X, y, 0, bound)
    assert training_errors(model, X, y) == expected
    assert parity_gap(model.predict(X), X[:, 0], 1) <= bound + 1e-9
    assert "x0" not in model.report_["side_constraints"]["features_used"]
    milp = OptimalTreeClassifier(
        method="flowoct",
        max_depth=1,
        time_limit=60,
        group_column=0,
        max_parity_gap=bound,
    ).fit(X, y)
    assert milp.optimal_
    assert training_errors(milp, X, y) == expected
    # The bound changes the optimum on this data.
    assert fewest_errors_within_parity(X, y, 0, 1.0) < expected


def least_sparse_objective_within_parity(X, y, group, bound, penalty):
    """The least ``errors / n + penalty * leaves`` over the single leaves and the stumps (not
    on the group column) with any labelling whose parity gap is at most ``bound``."""
    groups = X[:, group]
    n = len(y)
    best = None

    def consider(predicted, leaves):
        nonlocal best
        if parity_gap(predicted, groups, 1) <= bound + 1e-9:
            value = int((predicted != y).sum()) / n + penalty * leaves
            best = value if best is None else min(best, value)

    for label in (0, 1):
        consider(np.full(n, label), 1)
    for j in (j for j in range(X.shape[1]) if j != group):
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= (low + high) / 2
            for labels in ((0, 0), (0, 1), (1, 0), (1, 1)):
                consider(np.where(left, labels[0], labels[1]), 2)
    return best


@pytest.mark.parametrize("seed", range(2))
def test_sparse_under_a_parity_gap_equals_exhaustive_search(seed):
    X, y = fair_data(340 + seed)
    bound, penalty = 0.05, 0.01
    model = OptimalTreeClassifier(
        method="sparse", max_depth=1, leaf_penalty=penalty, group_column=0,
        max_parity_gap=bound,
    ).fit(X, y)
    assert model.optimal_
    expected = least_sparse_objective_within_parity(X, y, 0, bound, penalty)
    counted = training_errors(model, X, y) / len(y) + penalty * model.get_n_leaves()
    assert counted == pytest.approx(expected, abs=1e-12)
    assert model.objective_ == pytest.approx(expected, abs=1e-12)
    assert parity_gap(model.predict(X), X[:, 0], 1) <= bound + 1e-9
    # The bound changes the optimum on this data.
    assert least_sparse_objective_within_parity(X, y, 0, 1.0, penalty) < expected
    # Without a depth cap the tree could be deeper than the search under fairness takes.
    with pytest.raises(ValueError, match="set a depth of at most 3"):
        OptimalTreeClassifier(
            method="sparse", max_depth=None, leaf_penalty=penalty, group_column=0,
            max_parity_gap=bound,
        ).fit(X, y)


def test_fairness_keywords_are_checked_and_named():
    X, y = fair_data(350)
    with pytest.raises(ValueError, match="group_column: 'z' is not a column"):
        OptimalTreeClassifier(method="dp", group_column="z", max_parity_gap=0.1).fit(X, y)
    with pytest.raises(ValueError, match="max_parity_gap needs a group column"):
        OptimalTreeClassifier(method="dp", max_depth=1, max_parity_gap=0.1).fit(X, y)
    with pytest.raises(ValueError, match="allow_group_as_feature must be True or False"):
        OptimalTreeClassifier(
            method="dp", max_depth=1, group_column=0, max_parity_gap=0.1,
            allow_group_as_feature="yes",
        ).fit(X, y)


def best_at_depths(X, y, depth, allowed, leaf_cost=0.0, level=0):
    """The least training errors plus `leaf_cost` per leaf of a tree of at most `depth` levels
    of splits `x_j <= t` over the midpoints, column j splitting only at the levels
    `allowed[j]` (the root 0; every level when not listed): exhaustive."""
    as_leaf = (len(y) - np.bincount(y).max() if len(y) else 0) + leaf_cost
    if level == depth:
        return as_leaf
    best = as_leaf
    for j in range(X.shape[1]):
        if j in allowed and level not in allowed[j]:
            continue
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= (low + high) / 2
            best = min(best, best_at_depths(X[left], y[left], depth, allowed, leaf_cost, level + 1)
                       + best_at_depths(X[~left], y[~left], depth, allowed, leaf_cost, level + 1))
    return best


COSTS = {0: 2.0, 1: 1.0, 2: 1.0}
"""Feature costs whose budget of 2 allows the column sets {0} and {1, 2}."""


@pytest.mark.parametrize("seed", [360, 362])
def test_dp_and_sparse_take_a_budget_of_feature_costs(seed):
    X, y = random_data(seed)
    dp = OptimalTreeClassifier(method="dp", max_depth=2, feature_costs=COSTS, budget=2)
    dp.fit(X, y)
    assert dp.optimal_
    assert training_errors(dp, X, y) == min(
        fewest_errors(X[:, [0]], y, 2), fewest_errors(X[:, [1, 2]], y, 2)
    )
    assert dp.report_["side_constraints"]["feature_cost"] <= 2
    # The budget changes the optimum on this data.
    assert fewest_errors(X, y, 2) < training_errors(dp, X, y)
    penalty = 0.02
    sparse = OptimalTreeClassifier(
        method="sparse", max_depth=2, leaf_penalty=penalty, feature_costs=COSTS, budget=2
    ).fit(X, y)
    cost = penalty * len(y)
    expected = min(
        best_at_depths(X[:, [0]], y, 2, {}, cost), best_at_depths(X[:, [1, 2]], y, 2, {}, cost)
    )
    assert sparse.objective_ * len(y) == pytest.approx(expected)
    assert sparse.report_["side_constraints"]["feature_cost"] <= 2


@pytest.mark.parametrize("seed", [370, 373])
def test_dp_and_sparse_take_the_depths_of_a_column(seed):
    X, y = random_data(seed)
    allowed = {0: [0], 2: [1]}
    dp = OptimalTreeClassifier(method="dp", max_depth=2, feature_depths=allowed).fit(X, y)
    assert dp.optimal_
    assert training_errors(dp, X, y) == best_at_depths(X, y, 2, allowed)
    if seed == 373:  # The depths change the optimum on this data.
        assert fewest_errors(X, y, 2) < training_errors(dp, X, y)
    penalty = 0.02
    sparse = OptimalTreeClassifier(
        method="sparse", max_depth=2, leaf_penalty=penalty, feature_depths=allowed
    ).fit(X, y)
    assert sparse.objective_ * len(y) == pytest.approx(
        best_at_depths(X, y, 2, allowed, penalty * len(y))
    )
    for model in (dp, sparse):
        depths = node_depths(model.tree_)
        for node, feature in enumerate(model.tree_.feature):
            if feature in allowed:
                assert depths[node] in allowed[feature]


def node_depths(tree):
    """The depth of each node of scikit-learn's arrays (the root 0)."""
    depths = np.zeros(tree.node_count, dtype=int)
    for node in range(tree.node_count):
        for child in (tree.children_left[node], tree.children_right[node]):
            if child >= 0:
                depths[child] = depths[node] + 1
    return depths


KINDS = {
    "max_leaves": ({"max_leaves": 3}, lambda m, X: m.get_n_leaves() <= 3),
    "min_leaf_rows": ({"min_leaf_rows": 5}, lambda m, X: np.bincount(m.apply(X))[
        np.unique(m.apply(X))].min() >= 5),
    "max_leaf_rows": ({"max_leaf_rows": 14}, lambda m, X: np.bincount(m.apply(X)).max() <= 14),
    "forbidden": ({"forbidden_features": [0]}, lambda m, X: 0 not in m.tree_.feature),
    "max_features_used": ({"max_features_used": 1}, lambda m, X: len(set(m.tree_.feature[
        m.tree_.feature >= 0])) <= 1),
    "budget": ({"feature_costs": COSTS, "budget": 2}, lambda m, X: sum(COSTS[j] for j in set(
        m.tree_.feature[m.tree_.feature >= 0])) <= 2),
    "depths": ({"feature_depths": {1: [0]}}, lambda m, X: all(
        d == 0 for d, f in zip(node_depths(m.tree_), m.tree_.feature) if f == 1)),
}


@pytest.mark.parametrize("method", ["dp", "sparse"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_the_searches_take_holds_on_the_tree(method, kind):
    X, y = random_data(380)
    parameters, holds = KINDS[kind]
    model = OptimalTreeClassifier(method=method, max_depth=2, **parameters)
    if method == "sparse":
        model.set_params(leaf_penalty=0.01)
    model.fit(X, y)
    assert model.optimal_
    assert holds(model, X)
    assert model.report_["side_constraints"]["constraints"]
    unconstrained = OptimalTreeClassifier(method=method, max_depth=2)
    if method == "sparse":
        unconstrained.set_params(leaf_penalty=0.01)
    assert unconstrained.fit(X, y).objective_ <= model.objective_ + 1e-9


def test_costs_and_depths_that_do_not_fit_are_refused():
    X, y = random_data(390)
    with pytest.raises(ValueError, match="feature_costs: 'z' is not a column"):
        OptimalTreeClassifier(feature_costs={"z": 1}, budget=1).fit(X, y)
    with pytest.raises(ValueError, match="feature_costs are given without a budget"):
        OptimalTreeClassifier(feature_costs={0: 1}).fit(X, y)
    with pytest.raises(ValueError, match=r"feature_depths\[0\]: -1 is not a depth"):
        OptimalTreeClassifier(feature_depths={0: [-1]}).fit(X, y)
    with pytest.raises(ValueError, match="feature_costs must be a dict"):
        OptimalTreeClassifier(feature_costs=[1, 2], budget=1).fit(X, y)
    with pytest.raises(ValueError, match="olct"):
        OptimalTreeClassifier(method="olct", max_depth=1, feature_costs={0: 1}, budget=1).fit(
            X, y
        )
