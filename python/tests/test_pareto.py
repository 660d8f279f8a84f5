"""The Pareto front helper: each point's tree makes the point's errors (in y's labels), the
points do not dominate each other, and the fewest errors on the front equal an exhaustive
search's; it takes what the estimator takes (missing values, text categories, weights) and
finds the command line's front on the same data; its time limit reaches the search."""

import numpy as np
import pytest

from conftest import random_data
from milptree import pareto_front
from test_optimum import fewest_errors

pytest.importorskip("pandas")


@pytest.mark.parametrize("seed", range(3))
def test_front_points_trees_and_fewest_errors(seed):
    X, y = random_data(500 + seed, n_rows=30)
    front = pareto_front(X, y, max_depth=2)
    assert len(front) >= 1 and front["proven"].all()
    assert list(front["fp"]) == sorted(front["fp"])
    assert list(front["fn"]) == sorted(front["fn"], reverse=True)
    for point in front.itertuples():
        predicted = point.tree.predict(X)
        assert ((predicted == 1) & (y == 0)).sum() == point.fp
        assert ((predicted == 0) & (y == 1)).sum() == point.fn
        assert point.accuracy == pytest.approx(1 - (point.fp + point.fn) / len(y))
    assert (front["fp"] + front["fn"]).min() == fewest_errors(X, y, 2)


def test_bad_positive_class_raises_value_error():
    X, y = random_data(1)
    with pytest.raises(ValueError, match="^invalid positive_class: `nope` is not a class"):
        pareto_front(X, y, max_depth=1, positive_class="nope")


def command_line_front(frame, tmp_path, *args):
    """The (fp, fn) points `milptree pareto` finds on `frame` written as a CSV (NaN: an empty
    cell), the label in its last column."""
    import json
    import subprocess

    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    run = subprocess.run(["milptree", "pareto", str(path), "--quiet", "--json", *args],
                         capture_output=True, text=True, check=True)
    return [(p["fp"], p["fn"]) for p in json.loads(run.stdout)["points"]]


@pytest.mark.parametrize("seed", range(2))
def test_a_front_with_missing_values_equals_the_command_lines(seed, tmp_path):
    import pandas as pd

    X, y = random_data(520 + seed, n_rows=40)
    X[np.random.default_rng(seed).random(X.shape) < 0.15] = np.nan
    frame = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y)
    expected = command_line_front(frame, tmp_path, "--depth", "2")
    front = pareto_front(frame[["a", "b", "c"]], frame["label"], max_depth=2)
    assert list(zip(front["fp"], front["fn"])) == expected
    for point in front.itertuples():
        # y's labels and dtype: the trees predict integers and score on y.
        predicted = point.tree.predict(frame[["a", "b", "c"]])
        assert predicted.dtype.kind == "i"
        assert ((predicted == 1) & (y == 0)).sum() == point.fp
        assert point.tree.score(frame[["a", "b", "c"]], y) == pytest.approx(point.accuracy)


def test_a_front_over_text_categories_keeps_the_labels(tmp_path):
    from test_dataframes import penguins

    X, y = penguins()
    two = y.isin(["Adelie", "Chinstrap"]).to_numpy()
    X, y = X[two].reset_index(drop=True), y[two].reset_index(drop=True)
    expected = command_line_front(X.assign(species=y), tmp_path, "--depth", "2")
    front = pareto_front(X, y, max_depth=2)
    assert list(zip(front["fp"], front["fn"])) == expected
    for point in front.itertuples():
        assert list(point.tree.classes_) == ["Adelie", "Chinstrap"]
        assert list(point.tree.categories_[0]) == ["Biscoe", "Dream", "Torgersen"]
        predicted = point.tree.predict(X)
        assert ((predicted == "Chinstrap") & (y == "Adelie")).sum() == point.fp
        assert ((predicted == "Adelie") & (y == "Chinstrap")).sum() == point.fn


@pytest.mark.parametrize("kwargs, message", [
    ({"method": "oct", "max_splits": 2},
     "invalid max_splits: does not apply to method='oct' (it applies to dp)"),
    ({"method": "binoct", "memory_limit": 64},
     "invalid memory_limit: does not apply to method='binoct' (it applies to dp)"),
    ({"solver": "highs"},
     "invalid solver: does not apply to method='dp' (it applies to oct, binoct)"),
    ({"method": "oct", "thresholds": "class-boundary"},
     "invalid thresholds: OCT splits at every midpoint; class-boundary applies to binoct"),
    ({"method": "sparse"}, "invalid method: sparse has no front"),
    ({"method": "flowoct"}, "invalid method: flowoct cannot count each class's errors"),
    ({"threads": 0}, "invalid threads: must be at least 1"),
    ({"max_depth": -1}, "invalid max_depth: -1 is not a whole number"),
    ({"time_limit": -1}, "invalid time_limit: -1 is not a number of seconds"),
])
def test_what_the_method_does_not_take_is_refused_in_python_names(kwargs, message):
    X, y = random_data(3, n_rows=20)
    with pytest.raises(ValueError) as raised:
        pareto_front(X, y, **{"max_depth": 1, **kwargs})
    assert str(raised.value).startswith(message), str(raised.value)
    assert "--" not in str(raised.value)


@pytest.mark.parametrize("args, kwargs", [
    (["--depth", "2", "--positive-class", "versicolor"],
     {"max_depth": 2, "positive_class": "versicolor"}),
    (["--depth", "1", "--positive-class", "virginica", "--solver", "highs",
      "--formulation", "binoct", "--thresholds", "class-boundary"],
     {"max_depth": 1, "positive_class": "virginica", "method": "binoct",
      "thresholds": "class-boundary"}),
])
def test_the_front_on_iris_equals_the_command_lines(args, kwargs):
    import json
    import pathlib
    import subprocess

    import pandas as pd

    path = pathlib.Path(__file__).resolve().parents[2] / "datasets" / "iris.csv"
    run = subprocess.run(["milptree", "pareto", str(path), "--quiet", "--json", *args],
                         capture_output=True, text=True, check=True)
    expected = json.loads(run.stdout)
    frame = pd.read_csv(path)
    X, y = frame.drop(columns="class"), frame["class"]
    front = pareto_front(X, y, **kwargs)
    assert list(zip(front["fp"], front["fn"])) == [(p["fp"], p["fn"]) for p in expected["points"]]
    assert list(front["proven"]) == [p["proven"] for p in expected["points"]]
    assert list(front["f1"]) == pytest.approx([p["f1"] for p in expected["points"]])
    positive = kwargs["positive_class"]
    for point in front.itertuples():
        predicted = point.tree.predict(X) == positive
        assert (predicted & (y != positive)).sum() == point.fp
        assert (~predicted & (y == positive)).sum() == point.fn


def test_whole_weights_equal_repeated_rows():
    X, y = random_data(530, n_rows=24)
    weights = np.random.default_rng(1).integers(1, 4, size=len(y))
    weighted = pareto_front(X, y, max_depth=2, sample_weight=weights)
    repeated = pareto_front(np.repeat(X, weights, axis=0), np.repeat(y, weights), max_depth=2)
    assert list(zip(weighted["fp"], weighted["fn"])) == list(zip(repeated["fp"], repeated["fn"]))


def test_the_time_limit_reaches_the_search():
    import time

    rng = np.random.default_rng(7)
    X = rng.normal(size=(3000, 10))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=3000) > 0).astype(int)
    started = time.monotonic()
    front = pareto_front(X, y, max_depth=3, time_limit=1)
    elapsed = time.monotonic() - started
    assert len(front) >= 1 and not front["proven"].all()
    assert elapsed < 10
