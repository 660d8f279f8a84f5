"""The package's smaller surface: completion sees the lazily imported names, a
``sample_weight`` with no common unit per class is refused by the searches in the estimator's
terms and taken by a MILP (whose optimum then equals an exhaustive weighted search),
scikit-learn's balanced sample weights (alone, times whole numbers, under
``class_weight="balanced"``) fit the searches at the exhaustive weighted optimum, ``objective_`` is what the class
documentation says for each method, ``proba_smoothing`` smooths as the command line does, and
``certify`` takes ``True`` and ``False`` beside seconds and ``"off"``."""

import numpy as np
import pytest

import milptree
from conftest import random_data
from milptree import OptimalTreeClassifier
from sklearn.utils.class_weight import compute_sample_weight


def test_dir_lists_the_names_imported_on_first_use():
    names = dir(milptree)
    for name in ("OptimalTreeClassifier", "pareto_front", "plot_tree", "load_tree",
                 "export_text", "__version__"):
        assert name in names
    assert callable(milptree.export_text)


def weighted_fewest_errors_depth_one(X, y, weights):
    """The least weighted training errors of a tree of depth at most 1 (every midpoint)."""

    def leaf(mask):
        totals = np.bincount(y[mask], weights=weights[mask], minlength=2)
        return totals.sum() - totals.max()

    best = leaf(np.ones(len(y), dtype=bool))
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= (low + high) / 2
            best = min(best, leaf(left) + leaf(~left))
    return best


@pytest.mark.parametrize("method", ["dp", "sparse"])
def test_weights_without_a_unit_per_class_are_refused_by_the_searches_in_the_estimators_terms(
    method,
):
    X, y = random_data(20)
    weights = np.random.default_rng(0).uniform(0.1, 2.0, size=len(y))
    with pytest.raises(ValueError) as raised:
        OptimalTreeClassifier(method, max_depth=1).fit(X, y, sample_weight=weights)
    message = str(raised.value)
    assert f"sample_weight: method='{method}'" in message
    assert "whole multiples of one unit per class" in message and "--" not in message


@pytest.mark.parametrize("method", ["dp", "sparse"])
@pytest.mark.parametrize("seed", range(3))
def test_balanced_sample_weights_fit_the_searches_at_the_weighted_optimum(method, seed):
    X, y = random_data(60 + seed, n_rows=14)
    balanced = compute_sample_weight("balanced", y)
    assert np.any(np.mod(balanced, 1) != 0)
    whole = np.random.default_rng(seed).integers(1, 4, size=len(y))
    # The sparse search at no leaf penalty: its loss is the weighted errors over their total.
    penalty = {"leaf_penalty": 0.0} if method == "sparse" else {}
    for weights in (balanced, balanced * whole):
        model = OptimalTreeClassifier(method, max_depth=1, **penalty)
        model.fit(X, y, sample_weight=weights)
        assert model.optimal_
        errors = float(weights @ (model.predict(X) != y))
        assert errors == pytest.approx(weighted_fewest_errors_depth_one(X, y, weights))
        if method == "dp":
            assert model.objective_ == pytest.approx(errors)
    # class_weight="balanced" on top: an error costs its row's weight over its class's total.
    weights = balanced * whole
    model = OptimalTreeClassifier(method, max_depth=1, class_weight="balanced", **penalty)
    model.fit(X, y, sample_weight=weights)
    costs = weights / np.bincount(y, weights=weights)[y]
    errors = float(costs @ (model.predict(X) != y))
    assert errors == pytest.approx(weighted_fewest_errors_depth_one(X, y, costs))


@pytest.mark.parametrize("seed", range(2))
def test_a_milp_takes_fractional_weights_and_finds_the_weighted_optimum(seed):
    X, y = random_data(40 + seed, n_rows=14)
    weights = np.random.default_rng(seed).uniform(0.1, 2.0, size=len(y))
    model = OptimalTreeClassifier("oct", max_depth=1, time_limit=60)
    model.fit(X, y, sample_weight=weights)
    assert model.optimal_
    errors = float(weights @ (model.predict(X) != y))
    assert errors == pytest.approx(weighted_fewest_errors_depth_one(X, y, weights))


def test_objective_is_in_each_methods_documented_units():
    X, y = random_data(50, n_rows=30)
    n = len(y)

    def errors(model):
        return int((model.predict(X) != y).sum())

    dp = OptimalTreeClassifier("dp", max_depth=2).fit(X, y)
    assert dp.objective_ == errors(dp) == dp.report_["errors"]
    sparse = OptimalTreeClassifier("sparse", max_depth=2, leaf_penalty=0.02).fit(X, y)
    expected = errors(sparse) / n + 0.02 * sparse.get_n_leaves()
    assert sparse.objective_ == pytest.approx(expected)
    oct_ = OptimalTreeClassifier("oct", max_depth=1, time_limit=60).fit(X, y)
    baseline = n - np.bincount(y).max()  # the errors of the best single leaf
    assert oct_.optimal_ and oct_.objective_ == pytest.approx(errors(oct_) / baseline)
    binoct = OptimalTreeClassifier("binoct", max_depth=1, time_limit=60).fit(X, y)
    assert binoct.objective_ == pytest.approx(errors(binoct))
    f1 = OptimalTreeClassifier("dp", max_depth=2, objective="f1").fit(X, y)
    predicted = f1.predict(X)
    tp = int(((predicted == 1) & (y == 1)).sum())
    score = 2 * tp / (2 * tp + int((predicted != y).sum()))
    assert f1.objective_ == pytest.approx(1 - score)
    counts = np.bincount(y)
    balanced = OptimalTreeClassifier("dp", max_depth=2, objective="balanced").fit(X, y)
    wrong = balanced.predict(X) != y
    cost = sum(wrong[y == k].sum() * n / (2 * counts[k]) for k in (0, 1))
    assert balanced.objective_ == pytest.approx(cost)


def test_proba_smoothing_smooths_the_leaf_frequencies_as_the_command_line_does(iris):
    X, y = iris
    plain = OptimalTreeClassifier(max_depth=2).fit(X, y)
    smooth = OptimalTreeClassifier(max_depth=2, proba_smoothing=1.0).fit(X, y)
    leaves = plain.apply(X)
    counts = plain.tree_.value[leaves, 0] * plain.tree_.weighted_n_node_samples[leaves, None]
    expected = (counts + 1.0) / (counts.sum(axis=1, keepdims=True) + 3.0)
    assert np.allclose(smooth.predict_proba(X), expected)
    assert np.allclose(plain.predict_proba(X), counts / counts.sum(axis=1, keepdims=True))
    with pytest.raises(ValueError, match="proba_smoothing must be a finite number"):
        OptimalTreeClassifier(max_depth=1, proba_smoothing=-1).fit(X, y)
    binary = (y == 1).astype(int)
    logistic = OptimalTreeClassifier("olct", max_depth=1, time_limit=30, proba_smoothing=1.0)
    logistic.fit(X[:, :2], binary)
    with pytest.raises(ValueError, match="proba_smoothing: applies to leaf frequencies"):
        logistic.predict_proba(X[:, :2])


def test_certify_takes_booleans_beside_seconds_and_off():
    X, y = random_data(60, n_rows=20)
    on = OptimalTreeClassifier("oct", max_depth=1, certify=True).fit(X, y)
    assert on.report_["certificate"]["verdict"] in ("agrees", "incumbent_optimal")
    seconds = OptimalTreeClassifier("oct", max_depth=1, certify=5).fit(X, y)
    assert seconds.report_["certificate"]["verdict"] == on.report_["certificate"]["verdict"]
    for off in (False, "off", np.bool_(False)):
        model = OptimalTreeClassifier("oct", max_depth=1, certify=off).fit(X, y)
        assert model.report_["certificate"] is None
    # The searches certify nothing: False is nothing to do, True a setting that does not apply.
    OptimalTreeClassifier("dp", max_depth=1, certify=False).fit(X, y)
    with pytest.raises(ValueError, match="certify"):
        OptimalTreeClassifier("dp", max_depth=1, certify=True).fit(X, y)
