"""``fit(..., callback=)``: the run's points of progress handed to the caller as they come (the
same incumbents and bounds as the report's trajectory, on one clock), a callback that returns a
true value stops the run and keeps its best tree, one that raises stops it and its exception
comes out of ``fit``."""

import time

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from conftest import random_data
from milptree import OptimalTreeClassifier


def long_problem():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 12))
    y = (X[:, 0] + rng.normal(size=3000) > 0).astype(int)
    return X, y


def test_a_search_hands_on_its_trajectory_in_order():
    X, y = random_data(7, n_rows=80, n_features=4, n_values=6)
    seen = []
    model = OptimalTreeClassifier(max_depth=3).fit(X, y, callback=seen.append)
    assert seen, "the callback saw no point"
    assert all(set(p) == {"seconds", "source", "incumbent", "bound"} for p in seen)
    assert {p["source"] for p in seen} == {"dp"}
    seconds = [p["seconds"] for p in seen]
    assert seconds == sorted(seconds) and seconds[0] >= 0
    incumbents = [p["incumbent"] for p in seen]
    assert incumbents == sorted(incumbents, reverse=True)
    # The points are the report's trajectory, and the last one is the tree returned, whose
    # errors are counted here by plain code.
    trajectory = [(p["incumbent"], p["bound"]) for p in model.report_["trajectory"]]
    assert [(p["incumbent"], p["bound"]) for p in seen] == trajectory
    errors = int((model.predict(X) != y).sum())
    assert seen[-1]["incumbent"] == errors == model.objective_
    assert seen[-1]["bound"] == model.bound_ == errors
    assert all(p["bound"] <= errors for p in seen)


def test_a_milp_solve_hands_on_the_solver_points():
    X, y = random_data(8, n_rows=30, n_features=3)
    seen = []
    model = OptimalTreeClassifier(method="flowoct", max_depth=1, time_limit=30)
    model.fit(X, y, callback=seen.append)
    solver = model.report_["solver"]
    points = [p for p in seen if p["source"] == solver]
    assert points, f"no point from {solver}: {seen}"
    trajectory = [(p["incumbent"], p["bound"]) for p in model.report_["trajectory"]]
    assert [(p["incumbent"], p["bound"]) for p in points] == trajectory[-len(points) :]


def test_a_callback_that_returns_true_stops_the_run_with_its_best_tree():
    X, y = long_problem()
    seen = []

    def stop_at_the_second_tree(point):
        seen.append(point)
        return len(seen) >= 2

    model = OptimalTreeClassifier(max_depth=5, time_limit=60)
    started = time.monotonic()
    with pytest.warns(ConvergenceWarning, match="stopped by the callback"):
        model.fit(X, y, callback=stop_at_the_second_tree)
    assert time.monotonic() - started < 15
    # Not called again once it asked to stop.
    assert len(seen) == 2
    assert model.report_["termination"] == "interrupted" and model.optimal_ is False
    errors = int((model.predict(X) != y).sum())
    assert errors == model.objective_ <= seen[-1]["incumbent"]
    assert model.bound_ <= model.objective_


def test_a_callback_that_raises_stops_the_run_and_its_error_comes_out():
    X, y = long_problem()
    calls = []

    def fail(point):
        calls.append(point)
        raise RuntimeError("seen enough")

    model = OptimalTreeClassifier(max_depth=5, time_limit=60)
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="seen enough"):
        model.fit(X, y, callback=fail)
    assert time.monotonic() - started < 15
    assert len(calls) == 1
    with pytest.raises(NotFittedError):
        model.predict(X)


def test_the_callback_does_not_change_the_tree():
    X, y = random_data(9, n_rows=60, n_features=4, n_values=5, n_classes=3)
    plain = OptimalTreeClassifier(max_depth=2).fit(X, y)
    watched = OptimalTreeClassifier(max_depth=2).fit(X, y, callback=lambda point: None)
    assert watched.export_text() == plain.export_text()
    assert watched.objective_ == plain.objective_


def test_a_callback_that_is_not_callable_is_refused():
    X, y = random_data(3)
    with pytest.raises(TypeError, match="callback must be callable"):
        OptimalTreeClassifier(max_depth=1).fit(X, y, callback=3)
