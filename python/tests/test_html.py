"""The estimator's HTML page (``to_html``) and its Jupyter view (``_repr_html_``): the page
carries the fitted tree, its counts and provenance and the rows given, and names no address to
fetch; Jupyter shows it in a frame of its own, and scikit-learn's view before ``fit``."""

import html
import json
import re

import numpy as np
import pytest

from milptree import OptimalTreeClassifier, load_tree


def page_data(page):
    """The JSON the page draws from."""
    found = re.search(r'<script type="application/json" id="milptree-data">(.*?)</script>',
                      page, re.S)
    assert found, "the page carries its data"
    return json.loads(found.group(1))


def facts(data):
    return {fact["key"]: fact["value"] for fact in data["facts"]}


def test_the_page_holds_the_tree_its_counts_and_provenance(tmp_path, iris):
    X, y = iris
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    model = OptimalTreeClassifier(method="dp", max_depth=2).fit(X, names)
    path = tmp_path / "tree.html"
    page = model.to_html(path, X, names)
    assert path.read_text(encoding="utf-8") == page
    data = page_data(page)
    assert data["kind"] == "solve"
    tree = data["trees"][0]["model"]
    assert len(tree["nodes"]) == 2 * model.get_n_leaves() - 1
    # Every node's counts are those of the rows `apply` routes through it (`apply` gives
    # indexes of `tree_`'s arrays; `tree_.node_id` maps them to the page's heap ids).
    leaves = model.tree_.node_id[model.apply(X)]
    for node in tree["nodes"]:
        through = np.zeros(len(X), dtype=bool)
        for i, leaf in enumerate(leaves):
            k = leaf
            while k >= 1 and k != node["id"]:
                k //= 2
            through[i] = k == node["id"]
        expected = [int(np.sum(names[through] == c)) for c in tree["classes"]]
        assert node["counts"] == expected, node["id"]
    shown = facts(data)
    assert shown["method"] == "dp"
    assert shown["termination"] == model.report_["termination"]
    assert float(shown["objective"]) == model.objective_
    assert shown["fingerprint"].startswith("sha256:")
    assert shown["training"] == f"{len(X)} of X"
    assert len(data["rows"]["values"]) == len(X)
    assert [data["rows"]["classes"][k] for k in data["rows"]["labels"]] == list(names)
    # A policy that forbids every request, and no address but SVG's namespace.
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert set(re.findall(r"https?://[^\s\"')]+", page)) == {"http://www.w3.org/2000/svg"}


def test_a_loaded_tree_file_has_a_tree_page(tmp_path, iris):
    X, y = iris
    OptimalTreeClassifier(method="dp", max_depth=1).fit(X, y).save_tree(tmp_path / "t.json")
    model = load_tree(tmp_path / "t.json")
    data = page_data(model.to_html())
    assert data["kind"] == "tree"
    assert len(data["trees"][0]["model"]["nodes"]) == 3
    assert data["rows"] is None


def test_labels_that_are_not_the_trees_are_refused(iris):
    X, y = iris
    model = OptimalTreeClassifier(method="dp", max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="not a class of the tree"):
        model.to_html(X=X, y=y + 5)


def test_jupyter_shows_the_page_in_a_frame_and_the_parameters_before_fit(iris):
    X, y = iris
    model = OptimalTreeClassifier(method="dp", max_depth=1)
    before = model._repr_mimebundle_()
    assert "OptimalTreeClassifier" in before["text/html"]
    model.fit(X, y)
    frame = model._repr_html_()
    assert frame.startswith("<iframe") and 'sandbox="allow-scripts"' in frame
    srcdoc = re.search(r'srcdoc="([^"]*)"', frame).group(1)
    assert html.unescape(srcdoc) == model.to_html()
    assert model._repr_mimebundle_()["text/html"] == frame
