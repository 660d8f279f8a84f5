"""The Pareto front helper: each point's tree makes the point's errors, the points do not
dominate each other, and the fewest errors on the front equal an exhaustive search's."""

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
    assert list(front["fp"]) == sorted(front["fp"]) and list(front["fn"]) == sorted(front["fn"], reverse=True)
    for point in front.itertuples():
        predicted = point.tree.predict(X)
        assert ((predicted == "1") & (y == 0)).sum() == point.fp
        assert ((predicted == "0") & (y == 1)).sum() == point.fn
        assert point.accuracy == pytest.approx(1 - (point.fp + point.fn) / len(y))
    assert (front["fp"] + front["fn"]).min() == fewest_errors(X, y, 2)


def test_bad_positive_class_raises_value_error():
    X, y = random_data(1)
    with pytest.raises(ValueError, match="positive-class"):
        pareto_front(X, y, max_depth=1, positive_class="nope")
