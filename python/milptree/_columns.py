"""The columns of ``X`` as the estimator reads them: which are categorical, their categories
(kept as the labels ``X`` holds, so that a split reads ``island != Dream``), and the numeric
matrix the engine takes.

- A DataFrame's object, string and category columns are categorical from their dtype
  (scikit-learn's ``categorical_features="from_dtype"``); ``categorical_features`` may name
  more columns (indexes, names, or a boolean mask), numeric codes read as categories.
- A categorical column's categories are its values seen in ``fit`` (missing cells left out):
  numbers sorted as numbers, anything else sorted as text. Each category has a text, the name
  the engine and every rendering give it: a whole number without its ``.0``, any other number
  as Python writes it, anything else ``str(value)``.
- The engine's matrix has, in place of each categorical column, one 0/1 column per category;
  a value among none of them (unseen in ``fit``) is all zeros, so it goes the ``!=`` way at
  every split on its column; a missing value (NaN, None, ``pd.NA``) is NaN in each.
- A scipy sparse ``X`` is made dense first: its implicit zeros are zeros, not missing values
  (a stored NaN is missing). It must fit in memory as ``float64``.
"""

import numbers
import warnings

import numpy as np

FROM_DTYPE = "from_dtype"


def dense(X):
    """``X`` with a scipy sparse matrix or array made dense (implicit zeros are zeros)."""
    try:
        from scipy import sparse
    except ImportError:  # pragma: no cover - scipy comes with scikit-learn
        return X
    return X.toarray() if sparse.issparse(X) else X


def is_frame(X):
    """Whether ``X`` is a pandas DataFrame (or looks like one)."""
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc")


def _typed_categorical(dtype):
    """Whether a DataFrame column of ``dtype`` is categorical by its dtype: object, string or
    category."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - a DataFrame comes with pandas
        return False
    return (
        isinstance(dtype, pd.CategoricalDtype)
        or pd.api.types.is_object_dtype(dtype)
        or pd.api.types.is_string_dtype(dtype)
    )


def categorical_positions(spec, X):
    """The positions of the categorical columns of ``X`` for the parameter value ``spec``:
    ``"from_dtype"`` (the DataFrame's object, string and category columns), ``None`` (none),
    or a list of columns (indexes, names of a DataFrame's columns, or a boolean mask) besides
    those the dtype makes categorical."""
    shape = getattr(X, "shape", None)
    if shape is None:
        try:
            shape = np.asarray(X).shape
        except (TypeError, ValueError):  # ragged rows: the validation says so
            shape = ()
    n_columns = shape[1] if len(shape) == 2 else 0
    typed = set()
    if is_frame(X):
        typed = {j for j, dtype in enumerate(X.dtypes) if _typed_categorical(dtype)}
    if spec is None:
        return []
    if isinstance(spec, str) and spec == FROM_DTYPE:
        return sorted(typed)
    if isinstance(spec, (str, bytes)) or not hasattr(spec, "__iter__"):
        raise ValueError(
            f"categorical_features must be 'from_dtype', None or a list of columns, not {spec!r}"
        )
    items = list(spec)
    names = [str(c) for c in X.columns] if is_frame(X) else []
    positions = set(typed)
    if items and all(isinstance(item, (bool, np.bool_)) for item in items):
        if len(items) != n_columns:
            raise ValueError(
                f"categorical_features: a mask of {len(items)} values for {n_columns} columns"
            )
        return sorted(positions | {j for j, chosen in enumerate(items) if chosen})
    for item in items:
        if isinstance(item, (numbers.Integral, np.integer)) and not isinstance(item, bool):
            if not 0 <= item < n_columns:
                raise ValueError(
                    f"categorical_features: column {item} is out of range (X has {n_columns} "
                    "columns)"
                )
            positions.add(int(item))
        elif isinstance(item, str) and item in names:
            positions.add(names.index(item))
        else:
            raise ValueError(
                f"categorical_features: {item!r} is not a column of X (give column indexes, "
                "or names of a DataFrame's columns)"
            )
    return sorted(positions)


def column(X, j):
    """Column ``j`` of ``X`` (a DataFrame or an array) as a 1-D numpy array."""
    if is_frame(X):
        return X.iloc[:, j].to_numpy()
    return np.asarray(X)[:, j]


def is_missing(values):
    """Which cells of a 1-D array are missing: NaN, None, ``pd.NA``, ``NaT``."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind != "O":
        return np.zeros(len(values), dtype=bool)
    try:
        import pandas as pd

        return np.asarray(pd.isna(values), dtype=bool)
    except ImportError:  # pragma: no cover - without pandas
        return np.array([v is None or (isinstance(v, float) and v != v) for v in values])


def _is_number(value):
    return isinstance(value, (numbers.Real, np.number)) and not isinstance(value, (bool, np.bool_))


def category_text(value):
    """A category's text: a whole number without its ``.0``, any other number as Python
    writes it, anything else ``str(value)``."""
    if _is_number(value):
        value = float(value)
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def learn_categories(values):
    """The categories of a column: its values less the missing ones, numbers sorted as numbers
    (a float array), anything else as text (an object array of their texts, or of the values
    themselves when they are all strings). Refuses two categories with the same text."""
    values = np.asarray(values)
    present = values[~is_missing(values)]
    if values.dtype.kind in "iuf":
        return np.unique(present.astype(np.float64))
    if len(present) and all(_is_number(v) for v in present):
        return np.unique(present.astype(np.float64))
    if all(isinstance(v, str) for v in present):
        return np.array(sorted(set(present)), dtype=object)
    texts = sorted({category_text(v) for v in present})
    return np.array(texts, dtype=object)


def category_texts(categories):
    """The texts of ``categories`` (see ``category_text``), checked to differ."""
    texts = [category_text(v) for v in categories]
    if len(set(texts)) < len(texts):
        seen = set()
        twice = next(t for t in texts if t in seen or seen.add(t))
        raise ValueError(f"two categories of a column have the same text {twice!r}")
    return texts


def category_codes(values, categories):
    """Each cell's position among ``categories`` as a float: ``-1`` for a value among none of
    them, NaN for a missing one. Returns the codes and the unseen values as ``{text: rows}``."""
    values = np.asarray(values)
    missing = is_missing(values)
    codes = np.full(len(values), np.nan)
    present = values[~missing]
    if categories.dtype.kind == "f" and values.dtype.kind in "iuf" and len(categories):
        numbers_ = present.astype(np.float64)
        order = np.argsort(categories, kind="stable")
        ordered = categories[order]
        where = np.clip(np.searchsorted(ordered, numbers_), 0, len(ordered) - 1)
        found = ordered[where] == numbers_
        positions = np.where(found, order[where], -1).astype(np.float64)
        unseen_texts = [category_text(v) for v in numbers_[~found]]
    else:
        index = {text: i for i, text in enumerate(category_texts(categories))}
        texts = [category_text(v) for v in present]
        positions = np.array([index.get(t, -1) for t in texts], dtype=np.float64)
        unseen_texts = [t for t, p in zip(texts, positions) if p < 0]
    codes[~missing] = positions
    unseen = {}
    for text in unseen_texts:
        unseen[text] = unseen.get(text, 0) + 1
    return codes, unseen


def with_codes(X, categories):
    """``X`` with each categorical column ``j`` of ``categories`` (``{j: categories}``)
    replaced by its codes (``category_codes``): a DataFrame stays a DataFrame with its column
    names, anything else becomes an array. Returns it and the unseen values, ``{j: {text:
    rows}}``."""
    unseen = {}
    if not categories:
        return X, unseen
    if is_frame(X):
        coded = X.copy(deep=False)
        for j, known in categories.items():
            if j >= X.shape[1]:
                continue  # the validation says the columns do not match
            codes, unseen[j] = category_codes(column(X, j), known)
            if hasattr(coded, "isetitem"):
                coded.isetitem(j, codes)
            else:  # pragma: no cover - pandas < 1.5
                coded.iloc[:, j] = codes
        return coded, unseen
    array = np.asarray(X)
    if array.ndim != 2:
        return X, unseen  # the validation says what is wrong with its shape
    coded = array.astype(np.float64) if array.dtype.kind in "iub" else array.copy()
    for j, known in categories.items():
        if j < coded.shape[1]:
            codes, unseen[j] = category_codes(array[:, j], known)
            coded[:, j] = codes
    return coded, unseen


def warn_unseen(unseen, names):
    """One warning per value a categorical column holds that ``fit`` did not see, as
    ``milptree predict`` warns."""
    for j, values in sorted(unseen.items()):
        for text, rows in values.items():
            warnings.warn(
                f"column `{names[j]}`: value `{text}` ({rows} row{'' if rows == 1 else 's'}) "
                "does not occur in the training data; those rows go the `!=` way at every "
                "split on that column",
                UserWarning,
                stacklevel=3,
            )


def one_hot(codes, categories):
    """The engine's matrix: the validated float matrix ``codes`` with each categorical column
    ``j`` of ``categories`` replaced by one 0/1 column per category (a code ``-1``: all
    zeros; NaN: NaN in each)."""
    if not categories:
        return codes
    parts = []
    for j in range(codes.shape[1]):
        known = categories.get(j)
        if known is None:
            parts.append(codes[:, j : j + 1])
            continue
        column_codes = codes[:, j]
        encoded = (column_codes[:, None] == np.arange(len(known))[None, :]).astype(np.float64)
        encoded[np.isnan(column_codes), :] = np.nan
        parts.append(encoded)
    return np.hstack(parts)
