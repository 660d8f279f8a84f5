"""The groups of the fairness bounds as ``fit`` takes them beside ``X`` (``sensitive_features``,
fairlearn's name): one value per row, or a row of values per row (each distinct combination a
group, named by its values joined with ``,``, as fairlearn names them), read as text."""

from typing import Any, Optional

import numpy as np

from milptree import _columns


def _columns_of(sensitive_features: Any) -> list:
    """The columns of ``sensitive_features``: one for a 1-D array-like or a Series, one per
    column of a 2-D array-like or a DataFrame."""
    if _columns.is_frame(sensitive_features):
        return [sensitive_features.iloc[:, k].to_numpy(dtype=object)
                for k in range(sensitive_features.shape[1])]
    if hasattr(sensitive_features, "to_numpy"):  # a Series
        return [sensitive_features.to_numpy(dtype=object)]
    if isinstance(sensitive_features, (str, bytes)) or np.isscalar(sensitive_features):
        raise ValueError(
            "sensitive_features must hold one value per row of X (an array-like, a Series or "
            f"a DataFrame), not {sensitive_features!r}"
        )
    values = np.asarray(sensitive_features, dtype=object)
    if values.ndim == 1:
        return [values]
    if values.ndim == 2:
        return [values[:, k] for k in range(values.shape[1])]
    raise ValueError(
        f"sensitive_features must be 1-D or 2-D, not of shape {values.shape}"
    )


def group_texts(sensitive_features: Any, n_rows: int) -> np.ndarray:
    """Each row's group as text: the value of ``sensitive_features``, or its values joined with
    ``,`` when it has several columns. Refused, naming ``sensitive_features``: a number of rows
    other than ``n_rows``, no column, a missing value (NaN, None, ``pd.NA``), two values with
    the same text."""
    columns = _columns_of(sensitive_features)
    if not columns:
        raise ValueError("sensitive_features has no column")
    texts: Optional[np.ndarray] = None
    for k, column in enumerate(columns):
        if len(column) != n_rows:
            raise ValueError(
                f"sensitive_features has {len(column)} rows, but X has {n_rows}; give one "
                "group per row of X"
            )
        missing = np.flatnonzero(_columns.is_missing(column))
        if len(missing):
            raise ValueError(
                f"sensitive_features has a missing value in row {int(missing[0])}; every row "
                "needs a group"
            )
        column_texts = np.array([str(v) for v in column], dtype=object)
        by_text: dict = {}
        for value, text in zip(column, column_texts):
            seen = by_text.setdefault(text, value)
            if seen is not value and not _same_value(seen, value):
                raise ValueError(
                    f"sensitive_features: the values {seen!r} and {value!r} have the same "
                    "text; give groups that differ as text"
                )
        if k == 0:
            texts = column_texts
        else:
            texts = np.array([f"{a},{b}" for a, b in zip(texts, column_texts)], dtype=object)
    return texts


def _same_value(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same group (equal values)."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def check_groups(texts: np.ndarray) -> None:
    """Refuses fewer than two groups on the training rows."""
    distinct = np.unique(texts)
    if len(distinct) < 2:
        raise ValueError(
            f"sensitive_features has {len(distinct)} group{'' if len(distinct) == 1 else 's'} "
            f"({', '.join(map(repr, distinct.tolist()))}) on the training rows; the fairness "
            "bounds need two groups or more"
        )
