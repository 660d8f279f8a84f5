//! Fairness between groups on the MILPs against an exhaustive oracle over every tree and every
//! labelling of its leaves: on random small data with a group column, for OCT, BinOCT and
//! FlowOCT on HiGHS and CBC, the optimum under a bound on the statistical-parity or
//! equal-opportunity gap equals the best of every tree (not splitting on the group column)
//! whose training predictions meet it, the rates computed here by plain counting; each kind
//! changes the optimum somewhere; three groups work; row weights weigh the rates. Also the
//! command line: an infeasible set exits 1, a bad group column and the sparse search without a
//! depth cap exit 2, the certificate is the exact search's under one bound or both, and
//! `export-lp` writes the rows. (The exact and sparse searches under fairness are tested in
//! `fair_search`, `fair_groups` and `fair_missing`.)

use milptree::constraints::ConstraintSpec;
use milptree::data::{Dataset, ThresholdMode};
use milptree::formulation::{AnyFormulation, FormulationName};
use milptree::solver::SolverKind;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{
    assert_usage_error, milptree, path_str, stderr, temp_file, with_random_weights,
};
use crate::oracle::{optimum_over_predictions, OracleTree};
use crate::side_constraints::solve_under;

const SOLVERS: [SolverKind; 2] = [SolverKind::Highs, SolverKind::Cbc];
const FORMULATIONS: [FormulationName; 3] = [
    FormulationName::Oct,
    FormulationName::BinOct,
    FormulationName::FlowOct,
];
/// The group column's index among the features.
const GROUP: usize = 2;

/// Random data: features `x0`, `x1` (four levels) and the group column `g` (`groups` levels),
/// two classes `c0`, `c1` (`c1` positive), the label leaning on `g` so that the unconstrained
/// optimum favours a group.
pub(crate) fn grouped_dataset(seed: u64, n: usize, groups: u32) -> Dataset {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rows = Vec::with_capacity(n);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let g = (i as u32) % groups;
        let x0 = f64::from(rng.random_range(0..4u32));
        let x1 = f64::from(rng.random_range(0..4u32));
        let lean = if g == 0 { 0.75 } else { 0.3 };
        let positive = rng.random_bool(lean) ^ (x0 >= 2.0 && rng.random_bool(0.5));
        rows.push(vec![x0, x1, f64::from(g)]);
        labels.push(usize::from(positive));
    }
    labels[0] = 0;
    labels[1] = 1;
    Dataset::from_parts(
        format!("grouped(seed={seed})"),
        vec!["x0".into(), "x1".into(), "g".into()],
        vec!["c0".into(), "c1".into()],
        rows,
        labels,
    )
    .expect("a valid grouped dataset")
}

/// The largest difference between two groups' (weighted) rates of positive predictions, over
/// every row (`opportunity` false) or the rows of class 1 (true).
pub(crate) fn gap(data: &Dataset, predicted: &[usize], opportunity: bool) -> f64 {
    let mut totals: std::collections::BTreeMap<u64, (f64, f64)> = Default::default();
    for (i, row) in data.rows().iter().enumerate() {
        if opportunity && data.labels()[i] != 1 {
            continue;
        }
        let entry = totals.entry(row[GROUP] as u64).or_default();
        entry.0 += data.weight(i);
        if predicted[i] == 1 {
            entry.1 += data.weight(i);
        }
    }
    let rates: Vec<f64> = totals.values().map(|&(n, p)| p / n).collect();
    let high = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let low = rates.iter().copied().fold(f64::INFINITY, f64::min);
    high - low
}

pub(crate) fn spec(parity: Option<f64>, opportunity: Option<f64>) -> ConstraintSpec {
    ConstraintSpec {
        group_column: Some("g".into()),
        max_parity_gap: parity,
        max_opportunity_gap: opportunity,
        ..ConstraintSpec::default()
    }
}

/// The weighted training errors of the tree the MILP returns under `spec`, after checking that
/// it is optimal, agrees with its plain evaluation, does not split on the group column, and
/// meets the bounds by the rates computed here.
fn fair_errors(
    name: FormulationName,
    solver: SolverKind,
    data: &Dataset,
    depth: usize,
    spec: &ConstraintSpec,
) -> f64 {
    let mut formulation = AnyFormulation::from_name(name, depth).expect("a formulation");
    // BinOCT over every midpoint: class-boundary thresholds can miss the optimum.
    if let AnyFormulation::BinOct(binoct) = &mut formulation {
        binoct.thresholds = ThresholdMode::All;
    }
    let (outcome, tree, what) = solve_under(&formulation, solver, data, spec);
    assert!(
        tree.nodes().all(|(_, node)| !matches!(
            node.kind,
            milptree::tree::NodeKind::Split(milptree::tree::Split::Axis { feature: GROUP, .. })
        )),
        "{what}: a split on the group column"
    );
    let predicted = tree.predict(data.rows());
    for (bound, opportunity, key) in [
        (spec.max_parity_gap, false, "parity_gap"),
        (spec.max_opportunity_gap, true, "opportunity_gap"),
    ] {
        let gap = gap(data, &predicted, opportunity);
        if let Some(bound) = bound {
            assert!(gap <= bound + 1e-9, "{what}: {key} {gap} > {bound}");
        }
        let reported = outcome.side_constraints["fairness"][key]
            .as_f64()
            .expect("the reported gap");
        assert!(
            (reported - gap).abs() < 1e-9,
            "{what}: {key} reported {reported}, is {gap}"
        );
    }
    (0..data.n_rows())
        .filter(|&i| predicted[i] != data.labels()[i])
        .map(|i| data.weight(i))
        .sum()
}

/// The oracle's optimum under `spec`: no split on the group column, gaps within the bounds.
pub(crate) fn expected(data: &Dataset, depth: usize, spec: &ConstraintSpec) -> Option<f64> {
    let keep = |tree: &OracleTree, predicted: &[usize]| {
        tree.iter().all(|&(_, j, _)| j != GROUP)
            && spec
                .max_parity_gap
                .is_none_or(|b| gap(data, predicted, false) <= b + 1e-9)
            && spec
                .max_opportunity_gap
                .is_none_or(|b| gap(data, predicted, true) <= b + 1e-9)
    };
    optimum_over_predictions(data, depth, &keep)
}

/// For each instance and depth, every MILP's optimum under `spec` is the oracle's; with
/// `must_bind`, the bound changes the optimum on at least one instance.
fn check(spec: &ConstraintSpec, instances: &[Dataset], depths: &[usize], must_bind: bool) {
    let mut binds = false;
    for data in instances {
        for &depth in depths {
            let want = expected(data, depth, spec).expect("a constant tree meets every bound");
            let free = expected(data, depth, &spec_without_bounds()).expect("a leaf");
            binds |= free < want - 1e-9;
            for name in FORMULATIONS {
                for solver in SOLVERS {
                    let got = fair_errors(name, solver, data, depth, spec);
                    assert!(
                        (got - want).abs() < 1e-9,
                        "{name} on {solver:?}, {}, depth {depth}: {got} errors, the oracle {want}",
                        data.source()
                    );
                }
            }
        }
    }
    assert!(
        binds || !must_bind,
        "the bound never changes the optimum: {spec:?}"
    );
}

fn spec_without_bounds() -> ConstraintSpec {
    spec(None, None)
}

#[test]
fn a_parity_bound_reaches_the_oracle_optimum_at_depth_1() {
    let instances = [grouped_dataset(1, 14, 2), grouped_dataset(2, 14, 2)];
    check(&spec(Some(0.1), None), &instances, &[1], true);
}

#[test]
fn a_parity_bound_reaches_the_oracle_optimum_at_depth_2() {
    // (The bound's effect is checked at depth 1; here the optimum alone, on fewer rows.)
    check(
        &spec(Some(0.1), None),
        &[grouped_dataset(1, 10, 2)],
        &[2],
        false,
    );
}

#[test]
fn an_opportunity_bound_reaches_the_oracle_optimum_at_depth_1() {
    let instances = [grouped_dataset(3, 14, 2), grouped_dataset(4, 14, 2)];
    check(&spec(None, Some(0.1)), &instances, &[1], true);
}

#[test]
fn an_opportunity_bound_reaches_the_oracle_optimum_at_depth_2() {
    check(
        &spec(None, Some(0.1)),
        &[grouped_dataset(3, 10, 2)],
        &[2],
        false,
    );
}

#[test]
fn three_groups_and_both_bounds_reach_the_oracle_optimum() {
    let instances = [grouped_dataset(5, 15, 3), grouped_dataset(8, 15, 3)];
    check(&spec(Some(0.25), Some(0.25)), &instances, &[1], true);
}

#[test]
fn row_weights_weigh_the_rates() {
    let instances = [
        with_random_weights(grouped_dataset(6, 14, 2), 6, false),
        with_random_weights(grouped_dataset(7, 14, 2), 7, true),
    ];
    check(&spec(Some(0.1), None), &instances, &[1], true);
}

/// Six rows whose only other feature `x` copies the group `g`.
const COPIED_GROUP: &str = "x,g,y\n0,0,a\n0,0,b\n0,0,a\n1,1,b\n1,1,a\n1,1,b\n";

#[test]
fn an_infeasible_set_exits_1_and_the_warm_start_is_dropped() {
    // The root must split (the row) and FlowOCT's two leaves then differ, but the only split,
    // on `x`, separates the groups: no tree has a parity gap of 0.
    let (dir, data) = temp_file("copied.csv", COPIED_GROUP);
    let constraints = dir.path().join("c.toml");
    std::fs::write(
        &constraints,
        "group_column = \"g\"\nmax_parity_gap = 0\nrows = [\"p[n=1] <= 0\"]\n",
    )
    .expect("the constraints file");
    let output = milptree(&[
        "solve",
        path_str(&data),
        "--formulation",
        "flowoct",
        "--depth",
        "1",
        "--constraints",
        path_str(&constraints),
        "--json",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    assert_eq!(report["termination"], "infeasible", "{report}");
    assert!(
        report["notes"].as_array().expect("notes").iter().any(|n| n
            .as_str()
            .is_some_and(|n| n.contains("warm start was dropped") && n.contains("parity"))),
        "{report}"
    );
}

#[test]
fn a_milp_under_fairness_is_certified_under_one_bound_or_both_and_reports_the_rates() {
    let (_dir, data) = temp_file("copied.csv", COPIED_GROUP);
    let solve = |bounds: &[&str]| {
        let mut args = vec![
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--group-column",
            "g",
            "--certify",
            "5",
            "--json",
            "--quiet",
        ];
        args.extend(bounds);
        crate::common::milptree_json(&args)
    };
    // Both bounds: the exact search keeps them together, and certifies the MILP.
    let both = solve(&["--max-parity-gap", "0.1", "--max-opportunity-gap", "0.5"]);
    assert!(
        ["agrees", "incumbent_optimal"]
            .contains(&both["certificate"]["verdict"].as_str().expect("a verdict")),
        "{both}"
    );
    let report = solve(&["--max-parity-gap", "0.1"]);
    assert!(
        ["agrees", "incumbent_optimal"].contains(
            &report["certificate"]["verdict"]
                .as_str()
                .unwrap_or_default()
        ),
        "{report}"
    );
    // Splitting on `x` (the group) would give a gap of 1: the tree predicts one class.
    let fairness = &report["side_constraints"]["fairness"];
    assert_eq!(fairness["parity_gap"], 0.0, "{report}");
    assert_eq!(
        fairness["groups"].as_array().map(Vec::len),
        Some(2),
        "{report}"
    );
}

#[test]
fn bad_fairness_settings_and_the_sparse_search_exit_2() {
    let (_dir, data) = temp_file("copied.csv", COPIED_GROUP);
    let (_t, three) = temp_file("three.csv", "x,g,y\n0,0,a\n1,0,b\n2,1,c\n3,1,a\n");
    let (_o, one) = temp_file("one.csv", "x,g,y\n0,0,a\n1,0,b\n2,0,a\n");
    for (file, extra, named) in [
        (
            &data,
            vec!["--group-column", "nope", "--max-parity-gap", "0.1"],
            "`nope` is not a feature column",
        ),
        (
            &data,
            vec!["--group-column", "y", "--max-parity-gap", "0.1"],
            "`y` is the label column",
        ),
        (&data, vec!["--group-column", "g"], "no bound on a gap"),
        (
            &data,
            vec!["--max-parity-gap", "0.1"],
            "needs a group column",
        ),
        (
            &data,
            vec!["--group-column", "g", "--max-parity-gap", "-1"],
            "--max-parity-gap",
        ),
        (
            &three,
            vec!["--group-column", "g", "--max-parity-gap", "0.1"],
            "need two classes",
        ),
        (
            &one,
            vec!["--group-column", "g", "--max-parity-gap", "0.1"],
            "fairness needs two groups",
        ),
    ] {
        let mut args = vec![
            "solve",
            path_str(file),
            "--formulation",
            "binoct",
            "--depth",
            "1",
        ];
        args.extend(extra);
        args.push("--quiet");
        assert_usage_error(&args, named);
    }
    assert_usage_error(
        &[
            "solve",
            path_str(&data),
            "--solver",
            "sparse",
            "--depth",
            "none",
            "--group-column",
            "g",
            "--max-opportunity-gap",
            "0.1",
            "--quiet",
        ],
        "set a depth of at most 3",
    );
}

#[test]
fn export_lp_writes_the_fairness_rows() {
    let (dir, data) = temp_file("copied.csv", COPIED_GROUP);
    for formulation in ["oct", "binoct", "flowoct"] {
        let output = dir.path().join(format!("{formulation}.lp"));
        let result = milptree(&[
            "export-lp",
            path_str(&data),
            "--formulation",
            formulation,
            "--depth",
            "1",
            "--group-column",
            "g",
            "--max-opportunity-gap",
            "0.2",
            "--output",
            path_str(&output),
        ]);
        assert!(result.status.success(), "{}", stderr(&result));
        let lp = std::fs::read_to_string(&output).expect("the LP file");
        assert!(
            lp.contains("opportunity_gap(g0,h1)"),
            "{formulation}: no gap row"
        );
        assert!(
            lp.contains("opportunity_gap(g1,h0)"),
            "{formulation}: no gap row"
        );
    }
}

#[test]
fn a_text_group_column_is_split_on_only_when_allowed() {
    let (_dir, data) = temp_file(
        "text.csv",
        "x,g,y\n0,m,a\n1,m,b\n2,f,a\n3,f,b\n0,m,b\n1,f,a\n2,m,b\n3,f,a\n",
    );
    let used = |allow: bool| {
        let mut args = vec![
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--group-column",
            "g",
            "--max-parity-gap",
            "1",
            "--json",
            "--quiet",
        ];
        if allow {
            args.push("--allow-group-as-feature");
        }
        let report = crate::common::milptree_json(&args);
        let groups: Vec<String> = report["side_constraints"]["fairness"]["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .map(|g| g["group"].as_str().expect("a name").to_string())
            .collect();
        assert_eq!(groups, ["f", "m"], "{report}");
        report["side_constraints"]["features_used"].clone()
    };
    // `g` alone classifies 6 of 8 rows; `x` at best 4 at depth 1, as a single leaf does, so
    // without `g` the tree splits on `x` or not at all.
    assert_eq!(used(true), serde_json::json!(["g=f"]));
    let without = used(false);
    assert!(
        without == serde_json::json!(["x"]) || without == serde_json::json!([]),
        "{without}"
    );
}

#[test]
fn a_start_that_breaks_a_bound_gives_way_to_a_single_leaf() {
    // Greedy's depth-1 tree on these penguins has a parity gap of 0.30 between the islands; a
    // single leaf has none, so it starts the solve instead, and the solver improves on it.
    // (The default start, the better of greedy and the exact search, is the search's tree.)
    let data = crate::common::dataset("penguins");
    let report = crate::common::milptree_json(&[
        "solve",
        path_str(&data),
        "--target",
        "sex",
        "--formulation",
        "binoct",
        "--thresholds",
        "all",
        "--depth",
        "1",
        "--group-column",
        "island",
        "--max-parity-gap",
        "0.05",
        "--test-fraction",
        "0.75",
        "--certify",
        "off",
        "--warm-start",
        "greedy",
        "--json",
        "--quiet",
    ]);
    assert_eq!(
        report["warm_start_source"], "a single leaf (the given start breaks the side constraints)",
        "{report}"
    );
    let notes = report["notes"].to_string();
    assert!(notes.contains("a single leaf predicting"), "{notes}");
    // The single leaf predicts the larger class of the 83 training rows, so it errs on at
    // most half of them; the solve's tree is no worse and meets the bound.
    let rows = report["train"]["rows"].as_f64().expect("rows");
    let start = report["warm_start"]["objective"].as_f64().expect("start");
    assert!(start <= rows / 2.0, "{report}");
    let wrong = report["train"]["misclassified"].as_f64().expect("errors");
    assert!(wrong <= start, "{wrong} > {start}");
    let parity = report["side_constraints"]["fairness"]["parity_gap"]
        .as_f64()
        .expect("parity gap");
    assert!(parity <= 0.05 + 1e-9, "{parity}");
    assert_eq!(report["side_constraints"]["broken"], serde_json::json!([]));
}
