"""The training data as the engine's functions beside ``fit`` take it (``pareto_front``,
``RashomonSet``): ``X``, ``y`` and ``sample_weight`` read as ``OptimalTreeClassifier.fit``
reads them (missing values, categorical columns with their labels, sparse input, rows without a
label dropped), then the matrix's bytes, the names and the labels' indices."""

from typing import NamedTuple, Optional

import numpy as np
from sklearn.utils.validation import _check_sample_weight

from milptree import _columns
from milptree.estimator import OptimalTreeClassifier


class EngineData(NamedTuple):
    """The arguments the engine's functions take, in their order, and what reads them back."""

    matrix: bytes
    n_rows: int
    features: list
    names: list
    labels: list
    weights: Optional[list]
    texts: Optional[list]
    classes: np.ndarray
    categories: dict


def engine_data(X, y, sample_weight, categorical_features) -> EngineData:
    """The engine's arguments for ``X``, ``y`` and ``sample_weight``."""
    reader = OptimalTreeClassifier(categorical_features=categorical_features)
    coded, y, sample_weight, categories, _ = reader._training_data(X, y, sample_weight)
    weights = None
    if sample_weight is not None:
        weights = _check_sample_weight(sample_weight, coded, dtype=np.float64).tolist()
    classes, labels = np.unique(y, return_inverse=True)
    names = [str(c) for c in classes]
    if len(set(names)) < len(names):
        raise ValueError("two classes of y have the same text; give y labels that differ as text")
    texts = None
    if categories:
        texts = [_columns.category_texts(categories[j]) if j in categories else None
                 for j in range(coded.shape[1])]
    matrix = np.ascontiguousarray(_columns.one_hot(coded, categories), dtype=np.float64)
    return EngineData(matrix.tobytes(), matrix.shape[0], reader._feature_names(coded.shape[1]),
                      names, labels.astype(np.int64).tolist(), weights, texts, classes,
                      categories)
