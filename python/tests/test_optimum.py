"""The trees the estimator learns are optimal: their training errors equal an exhaustive
search's minimum over every tree of the depth (every midpoint threshold), written here
independently of the engine."""

import numpy as np
import pytest

from conftest import random_data
from milptree import OptimalTreeClassifier


def fewest_errors(X, y, depth):
    """The fewest training errors of any tree of at most `depth` levels of splits
    `x_j <= t` over the midpoints of the data, by exhaustive recursion."""
    errors_as_leaf = len(y) - np.bincount(y).max() if len(y) else 0
    if depth == 0 or errors_as_leaf == 0:
        return errors_as_leaf
    best = errors_as_leaf
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for low, high in zip(values[:-1], values[1:]):
            left = X[:, j] <= (low + high) / 2
            best = min(best, fewest_errors(X[left], y[left], depth - 1)
                       + fewest_errors(X[~left], y[~left], depth - 1))
    return best


def training_errors(model, X, y):
    return int((model.predict(X) != y).sum())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("depth", [1, 2])
def test_dp_optimum_equals_exhaustive_search(seed, depth):
    X, y = random_data(seed, n_classes=2 + seed % 2)
    model = OptimalTreeClassifier(method="dp", max_depth=depth).fit(X, y)
    expected = fewest_errors(X, y, depth)
    assert training_errors(model, X, y) == expected
    assert model.optimal_
    assert model.objective_ == pytest.approx(expected)
    assert model.bound_ == pytest.approx(expected)
    assert model.gap_ == pytest.approx(0.0)


@pytest.mark.parametrize("seed", range(3))
def test_dp_with_a_time_limit_reaches_the_same_optimum(seed):
    X, y = random_data(100 + seed, n_rows=30)
    model = OptimalTreeClassifier(max_depth=3, time_limit=30).fit(X, y)
    assert training_errors(model, X, y) == fewest_errors(X, y, 3)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("method", ["oct", "binoct"])
def test_milp_optimum_equals_exhaustive_search(seed, method):
    X, y = random_data(200 + seed, n_rows=16)
    extra = {"thresholds": "all"} if method == "binoct" else {}
    model = OptimalTreeClassifier(method=method, max_depth=1, time_limit=60, **extra).fit(X, y)
    assert model.optimal_
    assert training_errors(model, X, y) == fewest_errors(X, y, 1)
