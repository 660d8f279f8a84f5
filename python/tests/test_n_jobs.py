"""``n_jobs``: threads of the exact searches with scikit-learn's meaning (None one thread, -1
every core). The optimum equals an exhaustive search's and the tree is the same for any
``n_jobs``, for accuracy and for F1; bad values are refused with a clear message."""

import numpy as np
import pytest
from sklearn.base import clone

from conftest import random_data
from milptree import OptimalTreeClassifier
from test_optimum import fewest_errors, training_errors


@pytest.mark.parametrize("seed", range(3))
def test_every_n_jobs_gives_the_exhaustive_optimum_and_the_same_tree(seed):
    X, y = random_data(seed, n_rows=20)
    expected = fewest_errors(X, y, 3)
    texts = []
    for n_jobs in (None, 1, 2, -1):
        model = OptimalTreeClassifier(method="dp", max_depth=3, n_jobs=n_jobs).fit(X, y)
        assert model.optimal_
        assert training_errors(model, X, y) == expected
        texts.append(model.export_text())
    assert all(text == texts[0] for text in texts)


@pytest.mark.parametrize("seed", range(3))
def test_an_f1_tree_is_the_same_for_any_n_jobs(seed):
    X, y = random_data(10 + seed, n_rows=24)
    models = [
        OptimalTreeClassifier(method="dp", max_depth=3, objective="f1", n_jobs=n_jobs).fit(X, y)
        for n_jobs in (None, 2, -1)
    ]
    assert all(m.optimal_ for m in models)
    predictions = [m.predict(X) for m in models]
    assert all(np.array_equal(p, predictions[0]) for p in predictions)
    assert all(m.export_text() == models[0].export_text() for m in models)


def test_n_jobs_is_a_parameter_that_clones():
    model = OptimalTreeClassifier(n_jobs=2)
    assert model.get_params()["n_jobs"] == 2
    assert clone(model).n_jobs == 2


@pytest.mark.parametrize(
    "params, message",
    [
        ({"n_jobs": 0}, "n_jobs must not be 0"),
        ({"n_jobs": "2"}, "n_jobs must be an integer"),
        ({"n_jobs": 2, "threads": 2}, "threads or n_jobs"),
    ],
)
def test_bad_n_jobs_are_refused(params, message):
    X, y = random_data(0)
    with pytest.raises(ValueError, match=message):
        OptimalTreeClassifier(method="dp", max_depth=2, **params).fit(X, y)


def test_the_sparse_search_gives_the_same_tree_with_n_jobs():
    X, y = random_data(3)
    one = OptimalTreeClassifier(method="sparse", max_depth=3, leaf_penalty=0.05).fit(X, y)
    two = OptimalTreeClassifier(
        method="sparse", max_depth=3, leaf_penalty=0.05, n_jobs=2
    ).fit(X, y)
    assert two.optimal_ and one.optimal_
    assert two.export_text() == one.export_text()
