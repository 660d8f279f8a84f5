"""``GridSearchCV`` over ``OptimalTreeClassifier`` spread by joblib over a Dask ``LocalCluster``
(two worker processes, one thread each, on the loopback interface) and over a local Ray
instance (two CPUs): the same ``cv_results_``, the same choice and the same refitted tree as
``n_jobs=1`` in this process; and no oversubscription: every fit is measured in its worker
(``cpu_probe.CpuProbeTree``: CPU seconds of the worker process over wall seconds of the fit)
and kept at most one core busy, ``n_jobs=None`` giving its search one thread and ``n_jobs=-1``
the worker's share, one core (``OMP_NUM_THREADS``, which both frameworks set in their
workers)."""

import os
import pathlib

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from cpu_probe import CpuProbeTree, cores_used, threads_used

TESTS = str(pathlib.Path(__file__).resolve().parent)
GRID = {"max_depth": [2, 3], "alpha": [0.0, 0.01], "n_jobs": [None, -1]}
SCORING = {"accuracy": "accuracy", "cores": cores_used, "threads": threads_used}
# A fit that keeps one core busy measures at most this (the worker's own threads, the clock).
ONE_CORE = 1.25


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    # Rounded features: fits of a second or less at depth 3, long enough to measure.
    return np.round(X, 1), y


def grid_search(X, y, n_jobs):
    search = GridSearchCV(
        CpuProbeTree(method="dp"),
        GRID,
        cv=StratifiedKFold(3),
        scoring=SCORING,
        refit="accuracy",
        n_jobs=n_jobs,
    )
    return search.fit(X, y)


@pytest.fixture(scope="module")
def sequential(data):
    return grid_search(*data, n_jobs=1)


def assert_same_search(distributed, sequential):
    for key in ("mean_test_accuracy", "rank_test_accuracy"):
        np.testing.assert_array_equal(distributed.cv_results_[key], sequential.cv_results_[key])
    for split in range(3):
        key = f"split{split}_test_accuracy"
        np.testing.assert_array_equal(distributed.cv_results_[key], sequential.cv_results_[key])
    assert distributed.cv_results_["params"] == sequential.cv_results_["params"]
    assert distributed.best_params_ == sequential.best_params_
    assert distributed.best_estimator_.export_text() == sequential.best_estimator_.export_text()


def assert_one_core_per_fit(search, framework):
    results = search.cv_results_
    cores = np.array([results[f"split{k}_test_cores"] for k in range(3)])
    threads = np.array([results[f"split{k}_test_threads"] for k in range(3)])
    print(f"\n{framework}: cores busy per fit, median {np.median(cores):.2f}, "
          f"largest {cores.max():.2f}, over {cores.size} fits")
    # n_jobs=None is one thread; n_jobs=-1 is the worker's share, one core.
    assert (threads == 1).all(), threads
    assert cores.max() <= ONE_CORE, cores


def test_the_sequential_search_is_measured(sequential):
    # This process has every core: n_jobs=-1 is given all of them, None one thread.
    threads = sequential.cv_results_["mean_test_threads"]
    jobs = [params["n_jobs"] for params in sequential.cv_results_["params"]]
    expected = [1 if n is None else len(os.sched_getaffinity(0)) for n in jobs]
    if os.environ.get("OMP_NUM_THREADS", "").isdigit():
        expected = [min(e, int(os.environ["OMP_NUM_THREADS"])) for e in expected]
    np.testing.assert_array_equal(threads, expected)
    assert sequential.best_estimator_.optimal_


def test_a_grid_search_on_a_dask_cluster_equals_the_sequential_one(data, sequential, monkeypatch):
    from distributed import Client, LocalCluster

    # The workers import cpu_probe by name.
    monkeypatch.setenv("PYTHONPATH", TESTS)
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, Client(cluster):
        with parallel_config(backend="dask"):
            search = grid_search(*data, n_jobs=-1)
    assert_same_search(search, sequential)
    assert_one_core_per_fit(search, "dask")


def test_a_grid_search_on_ray_equals_the_sequential_one(data, sequential):
    import ray
    from ray.util.joblib import register_ray

    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
        runtime_env={"env_vars": {"PYTHONPATH": TESTS}},
    )
    try:
        register_ray()
        with parallel_config(backend="ray"):
            search = grid_search(*data, n_jobs=-1)
    finally:
        ray.shutdown()
    assert_same_search(search, sequential)
    assert_one_core_per_fit(search, "ray")
