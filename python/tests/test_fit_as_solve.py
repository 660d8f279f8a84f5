"""``fit`` returns what ``milptree solve --json`` returns for the same settings: the same tree,
``tree_source`` and MILP tree (``milp_tree``, where the certificate's exact search found a
better tree than the solver, or the solver none), ``objective_`` the returned tree's objective
(the report's ``evaluated_objective``), and the same ``dp_objective``. The runs whose solver
stops early are made repeatable by HiGHS's own limits (``mip_max_improving_sols``, its
``time_limit``), so that both runs stop at the same incumbent."""

import json
import subprocess
from pathlib import Path

import pytest
from sklearn.exceptions import ConvergenceWarning

from conftest import random_data
from milptree import OptimalTreeClassifier

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets"


def solve_json(csv, *args):
    """The report of ``milptree solve csv args --json``."""
    done = subprocess.run(["milptree", "solve", str(csv), *args, "--json", "--quiet"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def nodes(tree_json):
    """A tree file's nodes, without what depends on how the run was made."""
    return json.loads(tree_json)["nodes"] if isinstance(tree_json, str) else tree_json["nodes"]


def check_same(model, report):
    """The estimator's fitted tree and figures are those of the command line's report."""
    assert nodes(model.tree_.to_json()) == nodes(report["tree"])
    keys = ("tree_source", "errors", "dp_objective", "evaluated_objective", "milp_tree_objective")
    for key in keys:
        assert model.report_[key] == report[key], key
    milp = model.report_["milp_tree"]
    assert (milp is None) == (report["milp_tree"] is None)
    if milp is not None:
        assert nodes(milp) == nodes(report["milp_tree"])
    assert model.objective_ == report["evaluated_objective"]


def table(seed, n_rows=60):
    """Random data as a DataFrame with a label column last, and its CSV file's text."""
    pd = pytest.importorskip("pandas")
    X, y = random_data(seed, n_rows=n_rows, n_features=4, n_values=6)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    return frame, y, frame.assign(label=y).to_csv(index=False)


def test_the_exact_search_reports_its_dp_objective():
    pd = pytest.importorskip("pandas")
    model = OptimalTreeClassifier(method="dp", max_depth=1).fit(
        pd.DataFrame({"x": [1, 2, 3, 4, 5, 6.0]}), list("ababbb"))
    assert model.report_["dp_objective"] == 1.0


@pytest.mark.parametrize("method", ["oct", "binoct", "flowoct"])
def test_a_milp_stopped_at_its_first_incumbent_returns_the_certificates_better_tree(
    method, tmp_path
):
    frame, y, csv = table(7)
    (tmp_path / "data.csv").write_text(csv)
    options = {"mip_max_improving_sols": "1"}
    model = OptimalTreeClassifier(
        method=method, max_depth=2, warm_start="none", certify=60, solver_options=options,
    )
    with pytest.warns(ConvergenceWarning, match="solver_limit"):
        model.fit(frame, y)
    report = solve_json(tmp_path / "data.csv", "--formulation", method, "--depth", "2",
                        "--warm-start", "none", "--certify", "60",
                        "--solver-option", "mip_max_improving_sols=1")
    check_same(model, report)
    assert report["tree_source"] == "certificate", report["notes"]
    assert model.objective_ < model.report_["milp_tree_objective"]
    errors = float((model.predict(frame) != y).sum())
    assert model.report_["errors"] == errors


def test_a_milp_without_an_incumbent_returns_the_certificates_tree(tmp_path):
    frame, y, csv = table(8)
    (tmp_path / "data.csv").write_text(csv)
    model = OptimalTreeClassifier(
        method="flowoct", max_depth=2, warm_start="none", certify=60,
        solver_options={"time_limit": "0"},
    )
    with pytest.warns(ConvergenceWarning):  # stopped by the solver's own limit
        model.fit(frame, y)
    report = solve_json(tmp_path / "data.csv", "--formulation", "flowoct", "--depth", "2",
                        "--warm-start", "none", "--certify", "60",
                        "--solver-option", "time_limit=0")
    check_same(model, report)
    assert report["tree_source"] == "certificate"
    assert report["milp_tree"] is None


@pytest.mark.parametrize("name, method, option", [
    ("heart", "oct", "mip_max_improving_sols=1"),
    ("pima", "oct", "mip_max_improving_sols=1"),
    # HiGHS stopped at once: no incumbent, the certificate's tree is the answer.
    ("pima", "flowoct", "time_limit=0"),
])
def test_the_benchmark_runs_stopped_early_agree_with_the_command_line(name, method, option):
    pd = pytest.importorskip("pandas")
    path = SHARED / f"{name}.csv"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    data = pd.read_csv(path)
    X, y = data.iloc[:, :-1], data.iloc[:, -1].astype(str)
    # The solver stopped early by its own limit (as a short time limit stops it, but at the
    # same point in both runs), the certificate's exact search has the time to prove the
    # depth-2 optimum, and both runs return its tree.
    key, value = option.split("=")
    model = OptimalTreeClassifier(method=method, max_depth=2, warm_start="none", time_limit=20,
                                  solver_options={key: value})
    with pytest.warns(ConvergenceWarning):
        model.fit(X, y)
    report = solve_json(path, "--formulation", method, "--depth", "2", "--warm-start", "none",
                        "--time-limit", "20", "--solver-option", option)
    assert report["certificate"]["dp"]["termination"] == "optimal"
    assert model.report_["tree_source"] == report["tree_source"] == "certificate"
    assert model.report_["milp_tree_objective"] == report["milp_tree_objective"]
    assert model.report_["errors"] == report["errors"]
    assert model.objective_ == report["evaluated_objective"]
    assert model.report_["dp_objective"] == report["dp_objective"]
    assert nodes(model.tree_.to_json()) == nodes(report["tree"])
