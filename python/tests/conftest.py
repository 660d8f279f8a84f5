"""Shared helpers of the Python tests: small random data with fixed seeds."""

import numpy as np
import pytest


def random_data(seed, n_rows=24, n_features=3, n_values=4, n_classes=2):
    """Integer features in 0..n_values and random labels: many ties, so many optima."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n_values, size=(n_rows, n_features)).astype(float)
    y = rng.integers(0, n_classes, size=n_rows)
    # Every class present.
    y[:n_classes] = np.arange(n_classes)
    return X, y


@pytest.fixture
def iris():
    from sklearn.datasets import load_iris

    return load_iris(return_X_y=True)
