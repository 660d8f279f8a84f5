"""What Ctrl-C and time limits leave: a fit interrupted by a signal sent from a thread keeps the
best tree found (``optimal_`` False, bound, gap, a warning) or, with ``on_interrupt="raise"``,
re-raises and leaves the estimator as it was; a fit stopped by its time limit warns; a failed
fit never leaves a half-fitted estimator."""

import os
import signal
import threading
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


@pytest.fixture(autouse=True)
def python_handles_sigint():
    """Python's own SIGINT handler (KeyboardInterrupt) for each test: a process started in the
    background by a shell without job control inherits SIGINT ignored, and Python then leaves
    it ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def interrupt_after(seconds):
    """Sends SIGINT to this process from another thread after ``seconds``; returns the timer
    and a list that receives the time it was sent."""
    sent = []

    def send():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, send)
    timer.start()
    return timer, sent


def test_an_interrupted_fit_keeps_the_best_tree_found():
    X, y = long_problem()
    model = OptimalTreeClassifier(max_depth=5, time_limit=60)
    timer, sent = interrupt_after(1.0)
    with pytest.warns(ConvergenceWarning, match="fit interrupted"):
        model.fit(X, y)
    stopped = time.monotonic()
    timer.join()
    assert sent and stopped - sent[0] < 2.0
    assert model.optimal_ is False
    assert model.report_["termination"] == "interrupted"
    assert model.bound_ <= model.objective_ and model.gap_ > 0
    # The tree kept is usable, and its reported errors are its errors.
    errors = int((model.predict(X) != y).sum())
    assert errors == model.report_["errors"] == model.objective_
    assert model.tree_.node_count >= 3


def test_on_interrupt_raise_reraises_and_leaves_the_estimator_unfitted():
    X, y = long_problem()
    model = OptimalTreeClassifier(max_depth=5, time_limit=60, on_interrupt="raise")
    timer, sent = interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):
        model.fit(X, y)
    stopped = time.monotonic()
    timer.join()
    assert sent and stopped - sent[0] < 2.0
    assert not hasattr(model, "tree_") and not hasattr(model, "n_features_in_")
    with pytest.raises(NotFittedError):
        model.predict(X)


def test_a_refit_that_raises_leaves_the_previous_fit():
    X, y = random_data(1, n_rows=30)
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    before = model.export_text()
    model.set_params(max_depth=-1)
    with pytest.raises(ValueError):
        model.fit(X[:, :2], y)
    assert model.n_features_in_ == 3 and model.export_text() == before
    assert model.max_depth == -1 and len(model.predict(X)) == len(y)


def test_a_failed_first_fit_leaves_no_fitted_attribute():
    X, y = random_data(2, n_rows=20)
    model = OptimalTreeClassifier(max_depth=1, objective="nope")
    with pytest.raises(ValueError):
        model.fit(X, y)
    assert [name for name in vars(model) if name.endswith("_")] == []
    with pytest.raises(NotFittedError):
        model.predict(X)


def test_a_fit_stopped_by_its_time_limit_warns_and_keeps_its_tree():
    X, y = long_problem()
    model = OptimalTreeClassifier(max_depth=5, time_limit=0.5)
    with pytest.warns(ConvergenceWarning, match=r"fit stopped \(time_limit\)"):
        model.fit(X, y)
    assert model.optimal_ is False and model.bound_ <= model.objective_
    assert int((model.predict(X) != y).sum()) == model.objective_


def test_bad_on_interrupt_is_refused():
    X, y = random_data(3)
    with pytest.raises(ValueError, match="on_interrupt must be 'keep' or 'raise'"):
        OptimalTreeClassifier(max_depth=1, on_interrupt="ignore").fit(X, y)
