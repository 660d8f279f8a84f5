"""Fairness bounds with the groups beside ``X`` (``fit``'s ``sensitive_features``): the fitted
tree is the optimum of an exhaustive enumeration of the trees and leaf labellings within the
bounds (two and three groups, either bound and both, depths 1 and 2), for the exact search and
the MILPs, and the command line's optimum on the same data with the groups as a column; its
gaps, measured here with numpy, keep the bounds, which change the optimum on this data; it
predicts from ``X`` alone and its tree file does not name the groups; methods that do not take
the bounds, and groups that cannot be, are refused by name."""

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from milptree import OptimalTreeClassifier, load_tree

TOLERANCE = 1e-9


def gaps(predicted, y, groups, positive=1):
    """The parity gap and the opportunity gap of `predicted` between `groups`: the largest
    difference of two groups' rates of predicted `positive`, over all their rows and over
    their rows of class `positive`."""
    rates, true_rates = [], []
    for g in np.unique(groups):
        mine = groups == g
        rates.append(np.mean(predicted[mine] == positive))
        true_rates.append(np.mean(predicted[mine & (y == positive)] == positive))
    return max(rates) - min(rates), max(true_rates) - min(true_rates)


def leaf_partitions(X, rows, depth):
    """Every partition of `rows` (a boolean mask) into the leaves of a tree of at most `depth`
    levels of splits `x_j <= t` over the midpoints of the values its rows hold."""
    yield [rows]
    if depth == 0:
        return
    for j in range(X.shape[1]):
        values = np.unique(X[rows, j])
        for low, high in zip(values[:-1], values[1:]):
            left = rows & (X[:, j] <= (low + high) / 2)
            right = rows & ~left
            for a in leaf_partitions(X, left, depth - 1):
                for b in leaf_partitions(X, right, depth - 1):
                    yield a + b


def fewest_fair_errors(X, y, groups, depth, parity=None, opportunity=None, positive=1):
    """The fewest training errors of a tree of at most `depth` levels over `X`, its leaves
    labelled either way, whose gaps between `groups` keep the bounds given: exhaustive."""
    classes = np.unique(y)
    best = None
    for leaves in leaf_partitions(X, np.ones(len(y), dtype=bool), depth):
        for labels in itertools.product(classes, repeat=len(leaves)):
            predicted = np.empty_like(y)
            for leaf, label in zip(leaves, labels):
                predicted[leaf] = label
            parity_gap, opportunity_gap = gaps(predicted, y, groups, positive)
            if parity is not None and parity_gap > parity + TOLERANCE:
                continue
            if opportunity is not None and opportunity_gap > opportunity + TOLERANCE:
                continue
            errors = int((predicted != y).sum())
            best = errors if best is None else min(best, errors)
    return best


def fair_data(seed, n_rows=30, n_groups=2):
    """Two-class data whose label leans on a group (not a column of `X`): every group has rows
    of both classes."""
    rng = np.random.default_rng(seed)
    groups = np.resize(np.arange(n_groups), n_rows)
    rng.shuffle(groups)
    X = rng.integers(0, 4, size=(n_rows, 2)).astype(float)
    lean = np.array([0, 3, 1])[groups]
    y = ((X[:, 0] + lean + rng.integers(0, 3, n_rows)) > 3).astype(int)
    for g in range(n_groups):
        rows = np.flatnonzero(groups == g)
        y[rows[0]], y[rows[1]] = 0, 1
    names = np.array(["north", "south", "east"])[groups]
    return X, y, names


def errors(model, X, y):
    return int((model.predict(X) != y).sum())


@pytest.mark.parametrize("seed", [700, 702, 704])
def test_dp_with_groups_beside_x_equals_exhaustive_search(seed):
    X, y, groups = fair_data(seed)
    bound = 0.0512
    model = OptimalTreeClassifier(method="dp", max_depth=1, max_parity_gap=bound)
    model.fit(X, y, sensitive_features=groups)
    expected = fewest_fair_errors(X, y, groups, 1, parity=bound)
    assert model.optimal_
    assert errors(model, X, y) == expected
    assert model.objective_ == pytest.approx(expected)
    assert gaps(model.predict(X), y, groups)[0] <= bound + TOLERANCE
    assert model.n_features_in_ == X.shape[1]
    # The bound changes the optimum on this data.
    assert fewest_fair_errors(X, y, groups, 1) < expected
    assert model.get_params()["max_parity_gap"] == bound
    fairness = model.report_["side_constraints"]["fairness"]
    assert [g["group"] for g in fairness["groups"]] == ["north", "south"]


@pytest.mark.parametrize("seed", range(2))
def test_three_groups_both_bounds_depth_two(seed):
    X, y, groups = fair_data(710 + seed, n_rows=24, n_groups=3)
    parity, opportunity = 0.2345, 0.3456
    model = OptimalTreeClassifier(
        method="dp", max_depth=2, max_parity_gap=parity, max_opportunity_gap=opportunity
    ).fit(X, y, sensitive_features=groups)
    expected = fewest_fair_errors(X, y, groups, 2, parity=parity, opportunity=opportunity)
    assert model.optimal_
    assert errors(model, X, y) == expected
    parity_gap, opportunity_gap = gaps(model.predict(X), y, groups)
    assert parity_gap <= parity + TOLERANCE and opportunity_gap <= opportunity + TOLERANCE
    assert fewest_fair_errors(X, y, groups, 2) < expected


@pytest.mark.parametrize("method", ["oct", "binoct", "flowoct"])
def test_the_milps_take_groups_beside_x(method):
    X, y, groups = fair_data(720, n_rows=20)
    bound = 0.0512
    model = OptimalTreeClassifier(
        method=method, max_depth=1, time_limit=60, thresholds="all" if method != "oct" else None,
        max_parity_gap=bound,
    ).fit(X, y, sensitive_features=groups)
    assert model.optimal_
    assert errors(model, X, y) == fewest_fair_errors(X, y, groups, 1, parity=bound)
    assert gaps(model.predict(X), y, groups)[0] <= bound + TOLERANCE


def test_a_milp_and_dp_take_the_positive_class_of_the_rates():
    X, y, groups = fair_data(730, n_rows=20)
    bound = 0.0512
    expected = fewest_fair_errors(X, y, groups, 1, opportunity=bound, positive=0)
    for method in ("dp", "flowoct"):
        model = OptimalTreeClassifier(
            method=method, max_depth=1, time_limit=60, positive_class=0,
            max_opportunity_gap=bound,
        ).fit(X, y, sensitive_features=groups)
        assert errors(model, X, y) == expected, method
        assert gaps(model.predict(X), y, groups, positive=0)[1] <= bound + TOLERANCE


def run_command_line(args):
    """The JSON report of `milptree` run with `args`."""
    program = Path(sys.executable).parent / "milptree"
    done = subprocess.run([str(program), *args], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def test_the_command_line_finds_the_same_optimum_with_the_groups_as_a_column(tmp_path):
    X, y, groups = fair_data(740, n_rows=40, n_groups=3)
    path = tmp_path / "fair.csv"
    with open(path, "w", encoding="utf-8") as file:
        file.write("a,b,g,class\n")
        for row, group, label in zip(X, groups, y):
            file.write(f"{row[0]},{row[1]},{group},{label}\n")
    bound = 0.1234
    report = run_command_line(
        ["solve", str(path), "--solver", "dp", "--depth", "2", "--group-column", "g",
         "--max-parity-gap", str(bound), "--json", "--quiet"]
    )
    model = OptimalTreeClassifier(method="dp", max_depth=2, max_parity_gap=bound)
    model.fit(X, y, sensitive_features=groups)
    assert model.objective_ == report["objective"]
    assert errors(model, X, y) == report["train"]["misclassified"]
    assert gaps(model.predict(X), y, groups)[0] <= bound + TOLERANCE


def test_the_tree_predicts_from_x_alone_and_its_file_does_not_name_the_groups(tmp_path):
    pd = pytest.importorskip("pandas")
    X, y, groups = fair_data(704)
    frame = pd.DataFrame(X, columns=["income", "age"])
    model = OptimalTreeClassifier(method="dp", max_depth=2, max_parity_gap=0.0512)
    model.fit(frame, y, sensitive_features=pd.Series(groups, name="region"))
    assert list(model.feature_names_in_) == ["income", "age"]
    assert model.tree_.core.features == ["income", "age"]
    path = tmp_path / "tree.json"
    model.save_tree(path)
    document = json.loads(path.read_text())
    assert [c["name"] for c in document["columns"]] == ["income", "age", "class"]
    # The provenance keeps the groups' names and rates, not the features they were searched as.
    constraints = document["provenance"]["side_constraints"]["constraints"]
    assert constraints["fairness"]["groups_beside_rows"] is True
    assert "group_features" not in constraints["fairness"] and "forbidden" not in constraints
    assert model.report_["side_constraints"]["constraints"] == constraints
    assert model.report_["tree"] == document
    assert model.report_["data"]["features"] == 2
    assert model.get_n_leaves() > 1
    assert np.array_equal(load_tree(path).predict(frame).astype(int), model.predict(frame))
    # Leaf frequencies from X alone (a fair leaf may predict its minority class).
    assert np.allclose(model.predict_proba(frame).sum(axis=1), 1.0)
    assert model.predict_proba(frame).shape == (len(y), 2)
    # Counted on X's rows: every training row reaches a leaf.
    assert model.tree_.n_node_samples[0] == len(y)


def test_several_columns_of_groups_are_their_combinations():
    pd = pytest.importorskip("pandas")
    X, y, groups = fair_data(760, n_rows=24)
    rng = np.random.default_rng(761)
    second = rng.integers(0, 2, len(y))
    frame = pd.DataFrame({"region": groups, "band": second})
    combined = np.array([f"{a},{b}" for a, b in zip(groups, second)])
    bound = 0.2345
    by_frame = OptimalTreeClassifier(max_depth=1, max_parity_gap=bound)
    by_frame.fit(X, y, sensitive_features=frame)
    assert errors(by_frame, X, y) == fewest_fair_errors(X, y, combined, 1, parity=bound)
    named = [g["group"] for g in by_frame.report_["side_constraints"]["fairness"]["groups"]]
    assert named == sorted(set(combined))


def test_rows_without_a_label_leave_with_their_groups():
    X, y, groups = fair_data(770)
    labels = y.astype(float)
    labels[[3, 9]] = np.nan
    keep = ~np.isnan(labels)
    with pytest.warns(UserWarning, match="2 rows with a missing label dropped"):
        model = OptimalTreeClassifier(max_depth=1, max_parity_gap=0.0512).fit(
            X, labels, sensitive_features=groups
        )
    expected = fewest_fair_errors(X[keep], y[keep], groups[keep], 1, parity=0.0512)
    assert errors(model, X[keep], y[keep]) == expected


def test_groups_work_with_cross_validation():
    from sklearn.model_selection import cross_val_score

    X, y, groups = fair_data(780, n_rows=40)
    model = OptimalTreeClassifier(max_depth=1, max_parity_gap=0.2)
    scores = cross_val_score(model, X, y, cv=2, params={"sensitive_features": groups})
    assert len(scores) == 2 and np.all((0 <= scores) & (scores <= 1))


def test_olct_refuses_fairness_by_name():
    X, y, groups = fair_data(790)
    with pytest.raises(ValueError, match="method='olct' does not take the fairness .*"
                                         "method='dp'.*method='sparse'.*'flowoct'"):
        OptimalTreeClassifier(method="olct", max_depth=1, max_parity_gap=0.1).fit(
            X, y, sensitive_features=groups
        )


@pytest.mark.parametrize("seed", [791, 792])
def test_sparse_with_groups_beside_x_equals_the_groups_as_a_column(seed):
    """The sparse search under a parity gap with the groups beside X learns what it learns
    with them as a column of X that no split may use (that path is checked against an
    exhaustive search in test_side_constraints.py)."""
    X, y, groups = fair_data(seed)
    codes = (groups == "south").astype(float)
    settings = dict(method="sparse", max_depth=2, leaf_penalty=0.02, max_parity_gap=0.05)
    beside = OptimalTreeClassifier(**settings).fit(X, y, sensitive_features=groups)
    as_column = OptimalTreeClassifier(**settings, group_column=2).fit(
        np.column_stack([X, codes]), y
    )
    assert beside.optimal_ and as_column.optimal_
    assert beside.objective_ == pytest.approx(as_column.objective_, abs=1e-12)
    assert np.array_equal(
        beside.predict(X), as_column.predict(np.column_stack([X, codes]))
    )
    assert beside.n_features_in_ == 2


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda g: g[:-1], "sensitive_features has 29 rows, but X has 30"),
        (lambda g: np.full(len(g), "north"), r"sensitive_features has 1 group \('north'\)"),
        (lambda g: np.where(np.arange(len(g)) == 4, None, g),
         "sensitive_features has a missing value in row 4"),
        (lambda g: np.where(np.arange(len(g)) == 2, np.nan, (g == "north").astype(float)),
         "sensitive_features has a missing value in row 2"),
        (lambda g: np.array([1 if v == "north" else "1" for v in g], dtype=object),
         "the values ('1' and 1|1 and '1') have the same text"),
        (lambda g: "north", "sensitive_features must hold one value per row"),
        (lambda g: np.zeros((len(g), 2, 2)), "sensitive_features must be 1-D or 2-D"),
    ],
)
def test_groups_that_cannot_be_are_refused(change, message):
    X, y, groups = fair_data(800)
    model = OptimalTreeClassifier(max_depth=1, max_parity_gap=0.1)
    with pytest.raises(ValueError, match=message):
        model.fit(X, y, sensitive_features=change(groups))
    assert not hasattr(model, "tree_")


def test_fairness_parameters_that_do_not_fit_are_refused():
    X, y, groups = fair_data(810)
    with pytest.raises(ValueError, match="give max_parity_gap or max_opportunity_gap too"):
        OptimalTreeClassifier(max_depth=1).fit(X, y, sensitive_features=groups)
    with pytest.raises(ValueError, match="max_parity_gap needs a group column: fit's "
                                         "sensitive_features"):
        OptimalTreeClassifier(max_depth=1, max_parity_gap=0.1).fit(X, y)
    with pytest.raises(ValueError, match="not both"):
        OptimalTreeClassifier(max_depth=1, max_parity_gap=0.1, group_column=0).fit(
            X, y, sensitive_features=groups
        )
    with pytest.raises(ValueError, match="allow_group_as_feature applies to group_column"):
        OptimalTreeClassifier(
            max_depth=1, max_parity_gap=0.1, allow_group_as_feature=True
        ).fit(X, y, sensitive_features=groups)
    three = np.where(np.arange(len(y)) % 3 == 0, 2, y)
    with pytest.raises(ValueError, match="fairness rates need two classes"):
        OptimalTreeClassifier(max_depth=1, max_parity_gap=0.1).fit(
            X, three, sensitive_features=groups
        )
    with pytest.raises(ValueError, match="max_parity_gap"):
        OptimalTreeClassifier(max_depth=1, max_parity_gap=-0.1).fit(
            X, y, sensitive_features=groups
        )
    with pytest.raises(ValueError, match="depth"):
        OptimalTreeClassifier(max_depth=4, max_parity_gap=0.1).fit(
            X, y, sensitive_features=groups
        )
    # The engine's refusals name the groups as the estimator takes them.
    only_negatives = np.where(y == 1, "north", groups)
    with pytest.raises(ValueError, match="invalid sensitive_features: group `south` has no "
                                         "training rows of the positive class"):
        OptimalTreeClassifier(max_depth=1, max_opportunity_gap=0.1).fit(
            X, y, sensitive_features=only_negatives
        )
    with pytest.raises(ValueError, match="positive_class: `7` is not a class"):
        OptimalTreeClassifier(method="flowoct", max_depth=1, max_parity_gap=0.1,
                              positive_class=7).fit(X, y, sensitive_features=groups)
