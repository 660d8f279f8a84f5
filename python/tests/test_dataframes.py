"""DataFrames as read: the penguins as pandas reads them (text columns, missing cells) fit with
no option and give the command line's tree, split on `island != Dream`; category columns,
missing labels, unseen categories, a boolean mask, sparse input and trees loaded from files
that take the columns as read."""

import pathlib
import subprocess
import warnings

import numpy as np
import pytest

from conftest import random_data
from milptree import OptimalTreeClassifier, load_tree

pd = pytest.importorskip("pandas")
PENGUINS = pathlib.Path(__file__).resolve().parents[2] / "datasets" / "penguins.csv"


def penguins():
    frame = pd.read_csv(PENGUINS)
    return frame.drop(columns="species"), frame["species"]


def milptree(*args, **kwargs):
    return subprocess.run(["milptree", *args], capture_output=True, text=True, check=True,
                          **kwargs)


def test_the_penguins_as_read_fit_and_split_on_island_labels(tmp_path):
    X, y = penguins()
    assert X["island"].isna().sum() == 0 and X["sex"].isna().sum() > 0
    assert X["bill_length_mm"].isna().sum() > 0
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    text = model.export_text()
    assert "island != Dream" in text and "island = Dream" in text
    assert list(model.categories_[0]) == ["Biscoe", "Dream", "Torgersen"]
    assert list(model.categories_[5]) == ["female", "male"]
    # The command line, reading the same file, learns and prints the same tree.
    milptree("solve", str(PENGUINS), "--solver", "dp", "--depth", "2", "--quiet",
             "-o", str(tmp_path / "tree.json"))
    shown = milptree("show", str(tmp_path / "tree.json")).stdout
    assert [line for line in shown.splitlines() if line.startswith("|")] == text.splitlines()
    assert model.score(X, y) == pytest.approx(1 - 6 / 344)


def test_category_columns_and_their_missing_cells_are_categorical():
    X, y = penguins()
    as_category = X.astype({"island": "category", "sex": "category"})
    plain = OptimalTreeClassifier(max_depth=2).fit(X, y)
    model = OptimalTreeClassifier(max_depth=2).fit(as_category, y)
    assert model.export_text() == plain.export_text()
    assert list(model.categories_[0]) == ["Biscoe", "Dream", "Torgersen"]
    assert np.array_equal(model.predict(as_category), plain.predict(X))


def test_a_category_never_seen_warns_and_goes_the_unequal_way():
    X, y = penguins()
    model = OptimalTreeClassifier(max_depth=2).fit(X, y)
    rows = X.iloc[[0, 1]].copy()
    rows["island"] = ["Atlantis", "Dream"]
    with pytest.warns(UserWarning, match="column `island`: value `Atlantis` \\(1 row\\)"):
        predicted = model.predict(rows)
    # Atlantis goes the `island != Dream` way, as Torgersen (the row's own island) does.
    original = model.predict(X.iloc[[0]])
    assert predicted[0] == original[0]


def test_categorical_features_none_names_the_text_column():
    X, y = penguins()
    with pytest.raises(ValueError, match="column 'island' holds text"):
        OptimalTreeClassifier(max_depth=1, categorical_features=None).fit(X, y)


def test_a_boolean_mask_names_numeric_columns_categorical():
    X, y = random_data(3, n_values=5)
    by_index = OptimalTreeClassifier(max_depth=2, categorical_features=[1]).fit(X, y)
    by_mask = OptimalTreeClassifier(max_depth=2, categorical_features=[False, True, False])
    by_mask.fit(X, y)
    assert by_mask.export_text() == by_index.export_text()
    assert list(by_mask.categories_) == [1]


def test_a_missing_label_drops_the_row_with_a_warning():
    X, y = random_data(4, n_rows=30)
    labels = np.array(["a", "b"], dtype=object)[y]
    labels[[3, 7]] = None
    with pytest.warns(UserWarning, match="y: 2 rows with a missing label dropped"):
        model = OptimalTreeClassifier(max_depth=2).fit(X, labels)
    keep = np.ones(len(y), dtype=bool)
    keep[[3, 7]] = False
    expected = OptimalTreeClassifier(max_depth=2).fit(X[keep], labels[keep])
    assert model.export_text() == expected.export_text()
    assert list(model.classes_) == ["a", "b"]
    numeric = y.astype(float)
    numeric[5] = np.nan
    with pytest.warns(UserWarning, match="1 row with a missing label"):
        OptimalTreeClassifier(max_depth=1).fit(X, numeric, sample_weight=np.ones(len(y)))
    with pytest.raises(ValueError, match="every label is missing"):
        OptimalTreeClassifier(max_depth=1).fit(X, np.full(len(y), np.nan))


def test_sparse_input_is_made_dense_with_zeros_as_zeros():
    sparse = pytest.importorskip("scipy.sparse")
    X, y = random_data(6, n_rows=30)
    X[X == 2] = 0  # zeros the sparse matrix leaves implicit
    dense = OptimalTreeClassifier(max_depth=2).fit(X, y)
    for matrix in (sparse.csr_matrix(X), sparse.csc_array(X)):
        model = OptimalTreeClassifier(max_depth=2).fit(matrix, y)
        assert model.export_text() == dense.export_text()
        assert np.array_equal(model.predict(matrix), dense.predict(X))


def test_a_tree_file_of_the_command_line_predicts_on_the_frame_as_read(tmp_path):
    X, y = penguins()
    milptree("solve", str(PENGUINS), "--solver", "dp", "--depth", "2", "--quiet",
             "-o", str(tmp_path / "tree.json"))
    predicted = milptree("predict", "--tree", str(tmp_path / "tree.json"), str(PENGUINS)).stdout
    expected = pd.read_csv(pd.io.common.StringIO(predicted))["predicted"]
    model = load_tree(tmp_path / "tree.json")
    assert list(model.feature_names_in_) == list(X.columns)
    assert list(model.categories_[0]) == ["Biscoe", "Dream", "Torgersen"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no category is unseen
        assert list(model.predict(X)) == list(expected)
