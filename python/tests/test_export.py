"""Renderings: ``export_text`` with no argument prints what ``milptree show`` prints (numeric,
categorical and missing-value splits), takes scikit-learn's arguments with their meanings, and
``plot_tree`` draws a depth-5 tree whose boxes do not overlap at a readable size, with the
categorical conditions and missing-value sides written in them."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from conftest import random_data
from milptree import OptimalTreeClassifier, export_text


def test_export_text_prints_what_the_command_line_shows(iris):
    X, y = iris
    cases = [OptimalTreeClassifier(max_depth=3).fit(X, y)]
    X2, y2 = random_data(9, n_rows=40, n_values=5)
    X2[::5, 1] = np.nan
    cases.append(OptimalTreeClassifier(max_depth=2, categorical_features=[0]).fit(X2, y2))
    cases.append(OptimalTreeClassifier("sparse", max_depth=3, leaf_penalty=0.01).fit(X2, y2))
    from test_dataframes import penguins

    cases.append(OptimalTreeClassifier(max_depth=3).fit(*penguins()))
    for model in cases:
        assert model.export_text() == model.tree_.to_text()
    assert "(missing: " in cases[1].export_text() and " = " in cases[1].export_text()


def test_export_text_takes_scikit_learns_arguments(iris):
    X, y = iris
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    names = ["sepal length", "sepal width", "petal length", "petal width"]
    text = model.export_text(feature_names=names, class_names=["setosa", "versicolor",
                                                               "virginica"], decimals=2)
    lines = text.splitlines()
    assert lines[0].startswith("|--- petal ") and lines[0].endswith(("2.45", "0.80"))
    assert "|   |--- class: setosa  [50, 0, 0]" in lines
    weights = model.export_text(show_weights=True, show_counts=False)
    assert "|   |--- weights: [50.00, 0.00, 0.00] class: 0" in weights.splitlines()
    wide = model.export_text(spacing=5)
    assert wide.splitlines()[1].startswith("|     |----- ")
    cut = model.export_text(max_depth=0)
    assert "truncated branch of depth 1" in cut
    assert export_text(model, decimals=1) == model.export_text(decimals=1)
    with pytest.raises(ValueError, match="feature_names has 2 names"):
        model.export_text(feature_names=["a", "b"])


def boxes_overlap(extents):
    for i, a in enumerate(extents):
        for b in extents[i + 1:]:
            if a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1:
                return True
    return False


def test_plot_tree_at_depth_five_is_readable_and_shows_categories_and_missing_sides():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from milptree import plot_tree

    rng = np.random.default_rng(5)
    X = rng.integers(0, 8, size=(400, 5)).astype(float)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = ((X[:, 0] + X[:, 1] + rng.normal(size=400)) > 7).astype(int)
    model = OptimalTreeClassifier(max_depth=5, categorical_features=[4], time_limit=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # the time limit may stop it
        model.fit(X, y)
    assert model.get_depth() == 5 and model.get_n_leaves() > 16
    plt.figure()
    annotations = plot_tree(model, filled=True)
    figure = plt.gcf()
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    extents = [a.get_bbox_patch().get_window_extent(renderer) for a in annotations]
    assert not boxes_overlap(extents)
    assert min(a.get_fontsize() for a in annotations) >= 6
    texts = [a.get_text() for a in annotations]
    assert len(texts) == model.tree_.node_count
    assert any("missing: " in t for t in texts)
    if model.tree_.is_categorical.any():
        assert any(" != " in t for t in texts)
    plt.close("all")
