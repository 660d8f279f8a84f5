"""Tabular data for the benchmarks that feed 0/1 features to peers: a CSV's features and labels,
and the few-threshold binarisation (bench-rashomon, bench-dp-binary).

The binarisation keeps, per feature, one 0/1 column `x_j <= t` for each midpoint t of its
distinct values when there are at most `per_feature` of them, else for the midpoints nearest
`per_feature` evenly spaced quantiles; duplicate and constant columns are dropped.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd


def load(path: Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The features (float) and 0-based integer labels of a CSV whose last column is the label."""
    frame = pd.read_csv(path)
    labels = frame.iloc[:, -1].astype(str)
    classes = sorted(labels.unique(), key=lambda c: (float(c) if _is_number(c) else math.inf, c))
    codes = labels.map({c: i for i, c in enumerate(classes)}).to_numpy(dtype=np.int64)
    features = frame.iloc[:, :-1].apply(pd.to_numeric, errors="coerce")
    keep = features.notna().all(axis=1).to_numpy()
    return features.to_numpy(dtype=np.float64)[keep], codes[keep], list(frame.columns[:-1])


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def binarise(x: np.ndarray, per_feature: int) -> tuple[np.ndarray, list[str]]:
    """One 0/1 column `x_j <= t` per threshold t: the midpoints of each feature's distinct values
    when there are at most `per_feature` of them, else `per_feature` midpoints nearest to the
    evenly spaced quantiles (distinct 0/1 columns only)."""
    columns: list[np.ndarray] = []
    names: list[str] = []
    seen: set[bytes] = set()
    for j in range(x.shape[1]):
        values = np.unique(x[:, j])
        mids = (values[:-1] + values[1:]) / 2
        if len(mids) > per_feature:
            quantiles = np.quantile(x[:, j], np.linspace(0, 1, per_feature + 2)[1:-1])
            mids = np.unique(mids[np.searchsorted(mids, quantiles).clip(0, len(mids) - 1)])
        for t in mids:
            column = (x[:, j] <= t).astype(np.uint8)
            key = column.tobytes()
            if key in seen or column.min() == column.max():
                continue
            seen.add(key)
            columns.append(column)
            names.append(f"f{j}_le_{t:.6g}")
    return np.column_stack(columns), names
