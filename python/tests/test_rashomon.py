"""The Rashomon set from Python: on small random data (fixed seeds) its count, its count by
objective, its trees (their objectives and predictions) and its votes equal an independent
enumeration of every tree; its optimum is the estimator's; it reports what `milptree
rashomon --json` reports on the same data; bad settings are refused by name."""

import json
import subprocess
from collections import Counter

import numpy as np
import pytest

from conftest import random_data
from milptree import OptimalTreeClassifier, RashomonSet


def leaf(rows, y, n_classes):
    """The leaf of `rows`: its errors and class (the first on a tie)."""
    counts = np.bincount(y[list(rows)], minlength=n_classes)
    best = int(np.argmax(counts))
    return len(rows) - counts[best], best


def enumerate_trees(X, y, rows, depth, n_classes, split_cost=0.0, min_leaf=1):
    """Every tree of `rows` of depth at most `depth`, as (objective, identity, class of each
    row of `rows`): a split per feature and partition of the rows its values allow (every
    midpoint between two values of the rows), any node a leaf."""
    trees = []
    if len(rows) >= min_leaf:
        errors, label = leaf(rows, y, n_classes)
        trees.append((float(errors), ("leaf", label), {i: label for i in rows}))
    if depth == 0:
        return trees
    for feature in range(X.shape[1]):
        values = sorted({X[i, feature] for i in rows})
        for low, high in zip(values, values[1:]):
            threshold = (low + high) / 2
            left = tuple(i for i in rows if X[i, feature] <= threshold)
            right = tuple(i for i in rows if X[i, feature] > threshold)
            lefts = enumerate_trees(X, y, left, depth - 1, n_classes, split_cost, min_leaf)
            rights = enumerate_trees(X, y, right, depth - 1, n_classes, split_cost, min_leaf)
            for cl, il, pl in lefts:
                for cr, ir, pr in rights:
                    trees.append((cl + cr + split_cost, (feature, left, il, ir), {**pl, **pr}))
    return trees


def within(trees, bound):
    return [t for t in trees if t[0] <= bound + 1e-9]


@pytest.mark.parametrize("seed", range(4))
def test_the_set_is_the_enumerations(seed):
    X, y = random_data(700 + seed, n_rows=14, n_features=3, n_values=3,
                       n_classes=2 + seed % 2)
    depth = 1 + seed % 2
    n_classes = len(np.unique(y))
    every = enumerate_trees(X, y, tuple(range(len(y))), depth, n_classes)
    optimum = min(t[0] for t in every)
    bound = optimum + 2
    wanted = within(every, bound)
    rs = RashomonSet(max_depth=depth, max_errors=bound).fit(X, y)
    assert rs.optimum_ == pytest.approx(optimum)
    assert rs.count_ == len(wanted) == len(rs)
    assert dict(rs.by_objective_) == dict(Counter(t[0] for t in wanted))
    # The trees, by their objective and their predictions on the training rows.
    got = Counter((rs.objective(r), tuple(tree.predict(X))) for r, tree in enumerate(rs))
    want = Counter((t[0], tuple(t[2][i] for i in range(len(y)))) for t in wanted)
    assert got == want
    votes = rs.votes(X)
    for i in range(len(y)):
        expected = Counter(t[2][i] for t in wanted)
        assert list(votes[i]) == [expected.get(k, 0) for k in range(n_classes)]
    assert np.allclose(rs.predict_proba(X).sum(axis=1), 1.0)
    assert list(rs.predict(X)) == list(np.argmax(votes, axis=1))
    # Each feature's share: the trees that split on it.
    for feature in range(X.shape[1]):
        using = sum(1 for t in wanted if uses(t[1], feature))
        assert rs.feature_use_[feature] == pytest.approx(using / len(wanted))
    # Importances over every tree (the set is small), each as the estimator reads its tree.
    assert rs.report_["importance_over"] == "every tree"
    assert rs.importance_distribution_.shape == (len(wanted), X.shape[1])
    for rank, row in enumerate(rs.importance_distribution_):
        np.testing.assert_allclose(row, rs[rank].feature_importances_, atol=1e-12)
    np.testing.assert_allclose(rs.feature_importance_, rs.importance_distribution_.mean(axis=0))
    drawn = rs.sample(20, random_state=3)
    assert len(drawn) == 20
    assert all(tuple(t.predict(X)) in {k[1] for k in want} for t in drawn)


def uses(identity, feature):
    if identity[0] == "leaf":
        return False
    return identity[0] == feature or uses(identity[2], feature) or uses(identity[3], feature)


def test_alpha_leaf_rows_and_weights_are_the_enumerations():
    X, y = random_data(801, n_rows=16, n_features=2, n_values=4)
    alpha = 0.25
    baseline = min(np.bincount(y))
    every = enumerate_trees(X, y, tuple(range(len(y))), 2, 2, split_cost=alpha * baseline,
                            min_leaf=2)
    optimum = min(t[0] for t in every)
    rs = RashomonSet(max_depth=2, epsilon=0.5, alpha=alpha, min_samples_leaf=2).fit(X, y)
    assert rs.optimum_ == pytest.approx(optimum)
    assert rs.count_ == len(within(every, optimum * 1.5))
    # Whole weights count as repeated rows.
    weights = np.where(np.arange(len(y)) % 3 == 0, 2.0, 1.0)
    repeated = np.repeat(np.arange(len(y)), weights.astype(int))
    heavy = RashomonSet(max_depth=2, max_errors=optimum + 1).fit(X, y, sample_weight=weights)
    plain = enumerate_trees(X[repeated], y[repeated], tuple(range(len(repeated))), 2, 2)
    # Repeated rows make the same partitions of the distinct rows.
    assert heavy.count_ == len(within(plain, optimum + 1))


def test_the_optimum_is_the_estimators_and_the_report_the_command_lines(tmp_path):
    X, y = random_data(905, n_rows=40, n_features=3, n_values=5)
    rs = RashomonSet(max_depth=2, epsilon=0.2).fit(X, y)
    model = OptimalTreeClassifier(method="dp", max_depth=2).fit(X, y)
    assert rs.optimum_ == pytest.approx((model.predict(X) != y).sum())
    assert rs.report_["optimum"] == pytest.approx(rs.optimum_)
    path = tmp_path / "data.csv"
    rows = ["x0,x1,x2,class"] + [
        ",".join(f"{v:g}" for v in row) + f",{label}" for row, label in zip(X, y)
    ]
    path.write_text("\n".join(rows) + "\n")
    shown = subprocess.run(
        ["milptree", "rashomon", str(path), "--depth", "2", "--epsilon", "0.2", "--json"],
        capture_output=True, text=True, check=True,
    )
    document = json.loads(shown.stdout)
    for key in ("count", "count_over_thresholds", "optimum", "max_objective", "by_objective",
                "features", "disputed_rows", "ambiguity"):
        assert document[key] == rs.report_[key], key


def test_bad_settings_are_refused_by_name():
    X, y = random_data(3)
    with pytest.raises(ValueError, match="epsilon"):
        RashomonSet(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="epsilon or max_errors"):
        RashomonSet(max_depth=2, epsilon=0.1, max_errors=3).fit(X, y)
    with pytest.raises(ValueError, match="max.leaf.rows"):
        RashomonSet(max_depth=2, epsilon=0.1, max_leaf_rows=0).fit(X, y)
    with pytest.raises(ValueError, match="class_weight"):
        RashomonSet(max_depth=2, epsilon=0.1, class_weight="even").fit(X, y)
    # A missing value where no training row misses one: no split learned a side for it.
    rs = RashomonSet(max_depth=2, epsilon=0.1).fit(X, y)
    X = X.astype(float)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="missing value"):
        rs.votes(X)
    with pytest.raises(ValueError, match="not fitted"):
        len(RashomonSet(max_depth=2, epsilon=0.1))


def test_a_stopped_build_keeps_its_last_complete_pass():
    from sklearn.datasets import load_breast_cancer
    from sklearn.exceptions import ConvergenceWarning

    X, y = load_breast_cancer(return_X_y=True)
    optimal = RashomonSet(max_depth=3, epsilon=0.0, importance_trees=0).fit(X, y)
    # The optimal trees' graph fits in 1 MiB; the set within one more error does not.
    with pytest.warns(ConvergenceWarning, match="memory limit"):
        stopped = RashomonSet(max_depth=3, max_errors=optimal.optimum_ + 1, time_limit=600,
                              memory_limit=1, importance_trees=50).fit(X, y)
    assert not stopped.complete_ and optimal.complete_
    assert stopped.report_["stopped"] == "memory_limit"
    assert stopped.max_objective_ == optimal.optimum_
    assert stopped.report_["asked_max_objective"] == optimal.optimum_ + 1
    assert stopped.count_ == optimal.count_
    assert [stopped.objective(r) for r in (0, stopped.count_ - 1)] == [optimal.optimum_] * 2
    assert stopped.importance_distribution_.shape == (50, X.shape[1])
    with pytest.raises(ValueError, match="memory limit"):
        RashomonSet(max_depth=3, max_errors=optimal.optimum_ + 1, memory_limit=1).fit(X, y)


def test_missing_values_give_the_command_lines_set_and_the_estimators_optimum(tmp_path):
    X, y = random_data(917, n_rows=30, n_features=3, n_values=4)
    X = X.astype(float)
    X[np.random.default_rng(3).random(X.shape) < 0.2] = np.nan
    rs = RashomonSet(max_depth=2, max_errors=None, epsilon=0.3).fit(X, y)
    model = OptimalTreeClassifier(method="dp", max_depth=2).fit(X, y)
    assert rs.optimum_ == pytest.approx((model.predict(X) != y).sum())
    path = tmp_path / "missing.csv"
    cells = [["" if np.isnan(v) else f"{v:g}" for v in row] for row in X]
    path.write_text("x0,x1,x2,class\n" + "".join(
        ",".join(row) + f",{label}\n" for row, label in zip(cells, y)))
    shown = subprocess.run(
        ["milptree", "rashomon", str(path), "--depth", "2", "--epsilon", "0.3", "--json"],
        capture_output=True, text=True, check=True)
    document = json.loads(shown.stdout)
    for key in ("count", "by_objective", "features", "disputed_rows"):
        assert document[key] == rs.report_[key], key
    # Each tree predicts the training rows as the set's votes count them.
    votes = rs.votes(X)
    counted = np.zeros_like(votes)
    for tree in rs:
        counted[np.arange(len(y)), np.searchsorted(rs.classes_, tree.predict(X))] += 1
    np.testing.assert_array_equal(votes, counted)


def test_forbidden_features_and_depths_keep_the_trees_off_them():
    X, y = random_data(733, n_rows=14, n_features=3, n_values=3)
    every = enumerate_trees(X, y, tuple(range(len(y))), 2, 2)
    optimum = min(t[0] for t in every)

    def splits(identity, depth=0):
        if identity[0] == "leaf":
            return []
        return ([(identity[0], depth)] + splits(identity[2], depth + 1)
                + splits(identity[3], depth + 1))

    def keeps(tree):
        return all(f != 1 and (f != 0 or d == 0) for f, d in splits(tree[1]))

    allowed = [t for t in every if keeps(t)]
    best = min(t[0] for t in allowed)
    rs = RashomonSet(max_depth=2, max_errors=best + 1, forbidden_features=[1],
                     feature_depths={0: [0]}).fit(X, y)
    assert rs.optimum_ == pytest.approx(best) and best >= optimum
    assert rs.count_ == len(within(allowed, best + 1))
    assert rs.feature_use_[1] == 0
    assert rs.report_["forbidden"] == ["x1"] and rs.report_["depths"] == {"x0": [0]}
    with pytest.raises(ValueError, match="forbidden_features"):
        RashomonSet(max_depth=2, epsilon=0.1, forbidden_features=["nope"]).fit(X, y)


def test_the_page_lists_the_trees_and_charts_the_set(tmp_path):
    X, y = random_data(905, n_rows=40, n_features=3, n_values=5)
    rs = RashomonSet(max_depth=2, epsilon=0.2).fit(X, y)
    page = rs.to_html(tmp_path / "set.html", trees=7, samples=2)
    assert (tmp_path / "set.html").read_text(encoding="utf-8") == page
    start = page.index('id="milptree-data">') + len('id="milptree-data">')
    data = json.loads(page[start:page.index("</script>", start)])
    assert data["kind"] == "rashomon"
    assert len(data["trees"]) == min(7, rs.count_) + 2
    assert [c["id"] for c in data["charts"]] == ["objectives", "features", "importance"]
    bars = data["charts"][0]["series"][0]["points"]
    assert [p["x"] for p in bars] == [objective for objective, _ in rs.by_objective_]
    facts = {f["key"]: f["value"] for f in data["facts"]}
    assert facts["count"] == str(rs.count_)


def every_labelling(X, rows, depth, classes, skip):
    """Every tree of `rows` of depth at most `depth` whose leaves take any class of
    `classes`, without splits on feature `skip`, as (identity, class of each row of `rows`)."""
    trees = [(("leaf", k), {i: k for i in rows}) for k in classes] if rows else []
    if depth == 0:
        return trees
    for feature in range(X.shape[1]):
        if feature == skip:
            continue
        values = sorted({X[i, feature] for i in rows})
        for low, high in zip(values, values[1:]):
            threshold = (low + high) / 2
            left = tuple(i for i in rows if X[i, feature] <= threshold)
            right = tuple(i for i in rows if X[i, feature] > threshold)
            for il, pl in every_labelling(X, left, depth - 1, classes, skip):
                for ir, pr in every_labelling(X, right, depth - 1, classes, skip):
                    trees.append(((feature, left, il, ir), {**pl, **pr}))
    return trees


@pytest.mark.parametrize("seed", range(3))
def test_under_a_parity_bound_the_set_is_every_fair_labelling(seed):
    X, y = random_data(1200 + seed, n_rows=12, n_features=3, n_values=3)
    depth, gap = 1 + seed % 2, [0.1, 0.25, 0.2][seed]
    groups = X[:, 0]
    fair = []
    for identity, labels in every_labelling(X, tuple(range(len(y))), depth, (0, 1), skip=0):
        predicted = np.array([labels[i] for i in range(len(y))])
        rates = [np.mean(predicted[groups == g] == 1) for g in np.unique(groups)]
        if max(rates) - min(rates) <= gap + 1e-12:
            fair.append((float((predicted != y).sum()), max(rates) - min(rates), predicted))
    optimum = min(t[0] for t in fair)
    wanted = [t for t in fair if t[0] <= optimum + 1 + 1e-9]
    rs = RashomonSet(max_depth=depth, max_errors=optimum + 1, group_column=0,
                     max_parity_gap=gap).fit(X, y)
    assert rs.optimum_ == pytest.approx(optimum)
    assert rs.count_ == len(wanted)
    got = Counter((rs.objective(r), tuple(tree.predict(X))) for r, tree in enumerate(rs))
    assert got == Counter((t[0], tuple(t[2])) for t in wanted)
    # The gaps by objective: the least and largest of the trees of each objective.
    for objective, least, largest in rs.gaps_by_objective_:
        gaps = [t[1] for t in wanted if t[0] == objective]
        assert least == pytest.approx(min(gaps)) and largest == pytest.approx(max(gaps))
    # Without the bound the optimum is no worse, and no gaps are reported.
    free = RashomonSet(max_depth=depth, max_errors=optimum + 1).fit(X, y)
    assert free.optimum_ <= rs.optimum_
    assert free.gaps_by_objective_ == []


@pytest.mark.parametrize("params, flags", [
    ({"alpha": 0.1, "min_samples_leaf": 2}, ["--alpha", "0.1", "--min-leaf-rows", "2"]),
    ({"class_weight": "balanced"}, ["--objective", "balanced"]),
    ({"class_weight": {1: 2.5}, "max_leaf_rows": 30}, ["--class-weight", "1=2.5",
                                                       "--max-leaf-rows", "30"]),
    ({"group_column": 0, "max_opportunity_gap": 0.3, "positive_class": 0},
     ["--group-column", "x0", "--max-opportunity-gap", "0.3", "--positive-class", "0"]),
])
def test_the_estimators_settings_give_the_command_lines_set(tmp_path, params, flags):
    X, y = random_data(911, n_rows=40, n_features=3, n_values=5)
    X[:, 0] = X[:, 0] % 2
    rs = RashomonSet(max_depth=2, epsilon=0.3, **params).fit(X, y)
    path = tmp_path / "data.csv"
    rows = ["x0,x1,x2,class"] + [
        ",".join(f"{v:g}" for v in row) + f",{label}" for row, label in zip(X, y)
    ]
    path.write_text("\n".join(rows) + "\n")
    shown = subprocess.run(
        ["milptree", "rashomon", str(path), "--depth", "2", "--epsilon", "0.3", *flags,
         "--json"], capture_output=True, text=True, check=True,
    )
    document = json.loads(shown.stdout)
    for key in ("count", "count_over_thresholds", "optimum", "max_objective", "by_objective",
                "features", "disputed_rows", "ambiguity", "fairness", "gaps_by_objective"):
        assert document[key] == rs.report_[key], key
