//! `milptree pareto --group-column`: the front of training errors against the gap between two
//! groups against the exhaustive oracle over every tree of depth 1 and 2 and every labelling of
//! its leaves. On random small data (fixed seeds), under parity and opportunity, with and
//! without whole-number row weights (some of them 0), forbidden features, the group column
//! allowed as a feature, a leaf minimum (counted in rows, whatever their weights) and missing
//! values, the command's points are the oracle's set of (errors, gap) that no other tree beats
//! on both; its ends are the unconstrained optimum and the best tree of gap 0;
//! each tree file, predicted here, has the errors and gap its point reports. What the front
//! does not take is refused by name with exit 2.

use std::collections::BTreeMap;
use std::path::Path;

use milptree::data::Dataset;
use milptree::tree::Tree;

use crate::common::{
    assert_usage_error, milptree, path_str, stderr, temp_file, to_csv, to_weighted_csv,
    with_random_weights,
};
use crate::oracle::{each_prediction, leaf_sizes, optimum_over_predictions, OracleTree};
use crate::side_constraints_fairness::{gap, grouped_dataset};

/// The group column's index among the features (`x2` in the CSV of [`to_csv`]).
const GROUP: usize = 2;

/// What a tree may be on the front: the features it may split on, a leaf minimum.
#[derive(Clone, Copy)]
struct Rules {
    opportunity: bool,
    allowed: fn(usize) -> bool,
    min_leaf: usize,
}

fn not_the_group(j: usize) -> bool {
    j != GROUP
}

impl Rules {
    fn keeps(&self, data: &Dataset, tree: &OracleTree) -> bool {
        tree.iter().all(|&(_, j, _)| (self.allowed)(j))
            && (self.min_leaf <= 1 || leaf_sizes(data, tree).values().all(|&n| n >= self.min_leaf))
    }
}

/// The gap rounded to 1e-9, so that equal rates computed two ways are one key.
fn key(gap: f64) -> i64 {
    (gap * 1e9).round() as i64
}

/// The oracle's front: every (errors, gap key) no tree of `rules` beats on both, by
/// increasing gap.
fn oracle_front(data: &Dataset, depth: usize, rules: Rules) -> Vec<(f64, i64)> {
    let mut best_at: BTreeMap<i64, f64> = BTreeMap::new();
    each_prediction(data, depth, &mut |tree, predicted, errors| {
        if rules.keeps(data, tree) {
            let at = best_at
                .entry(key(gap(data, predicted, rules.opportunity)))
                .or_insert(f64::INFINITY);
            *at = at.min(errors);
        }
    });
    let mut front: Vec<(f64, i64)> = Vec::new();
    for (gap, errors) in best_at {
        if front.last().is_none_or(|&(e, _)| errors < e) {
            front.push((errors, gap));
        }
    }
    front
}

/// Runs the command on `csv` with `extra` options into a directory; the report and the
/// directory.
fn run_front(csv: &str, depth: usize, extra: &[&str]) -> (serde_json::Value, tempfile::TempDir) {
    let (dir, path) = temp_file("grouped.csv", csv);
    let out = dir.path().join("front");
    let depth = depth.to_string();
    let mut args = vec![
        "pareto",
        path_str(&path),
        "--depth",
        &depth,
        "--group-column",
        "x2",
        "--out-dir",
        path_str(&out),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let output = milptree(&args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    let text = std::fs::read_to_string(out.join("front.json")).expect("front.json");
    (serde_json::from_str(&text).expect("JSON"), dir)
}

/// Checks the command's front on `data` (written with `weighted` weights) under `rules` and
/// `extra` options against the oracle at depths 1 and 2; the longest front's length.
fn check(data: &Dataset, weighted: bool, rules: Rules, extra: &[&str]) -> usize {
    let csv = if weighted {
        to_weighted_csv(data)
    } else {
        to_csv(data)
    };
    let mut options: Vec<&str> = extra.to_vec();
    if weighted {
        options.extend(["--weight-column", "w"]);
    }
    if rules.opportunity {
        options.extend(["--fairness", "opportunity"]);
    }
    let mut longest = 0;
    for depth in [1, 2] {
        let what = format!("{}, depth {depth}, {extra:?}", data.source());
        let (report, _dir) = run_front(&csv, depth, &options);
        let points = report["points"].as_array().expect("points");
        let got: Vec<(f64, i64)> = points
            .iter()
            .map(|p| {
                (
                    p["errors"].as_f64().expect("errors"),
                    key(p["gap"].as_f64().expect("gap")),
                )
            })
            .collect();
        let want = oracle_front(data, depth, rules);
        assert_eq!(got, want, "{what}");
        longest = longest.max(got.len());
        // The ends: the unconstrained optimum, and the best tree of gap 0.
        let kept = |tree: &OracleTree, predicted: &[usize], fair: bool| {
            rules.keeps(data, tree) && (!fair || gap(data, predicted, rules.opportunity) < 1e-9)
        };
        let free = optimum_over_predictions(data, depth, &|t, p| kept(t, p, false));
        let fair = optimum_over_predictions(data, depth, &|t, p| kept(t, p, true));
        assert_eq!(got.last().map(|p| p.0), free, "{what}");
        assert_eq!((got[0].1, Some(got[0].0)), (0, fair), "{what}");
        for point in points {
            check_tree_file(data, point, rules, depth, &what);
        }
    }
    longest
}

/// The tree file of `point`, predicted here, has its errors and gap, and keeps `rules`.
fn check_tree_file(
    data: &Dataset,
    point: &serde_json::Value,
    rules: Rules,
    depth: usize,
    what: &str,
) {
    let file = point["tree_file"].as_str().expect("a tree file");
    let tree = Tree::read(Path::new(file)).expect("a tree file");
    assert!(tree.actual_depth() <= depth, "{what}: {file}");
    let predicted = tree.predict(data.rows());
    let errors: f64 = (0..data.n_rows())
        .filter(|&i| predicted[i] != data.labels()[i])
        .map(|i| data.weight(i))
        .sum();
    assert_eq!(Some(errors), point["errors"].as_f64(), "{what}: {file}");
    let gap = gap(data, &predicted, rules.opportunity);
    let reported = point["gap"].as_f64().expect("gap");
    assert!(
        (gap - reported).abs() < 1e-9,
        "{what}: {file}: {gap} vs {reported}"
    );
    let features: Vec<usize> = tree
        .nodes()
        .filter_map(|(_, node)| match node.kind {
            milptree::tree::NodeKind::Split(milptree::tree::Split::Axis { feature, .. }) => {
                Some(feature)
            }
            _ => None,
        })
        .collect();
    assert!(
        features.iter().all(|&j| (rules.allowed)(j)),
        "{what}: {file} splits on {features:?}"
    );
}

const PARITY: Rules = Rules {
    opportunity: false,
    allowed: not_the_group,
    min_leaf: 1,
};

#[test]
fn the_parity_front_is_the_oracle_s() {
    let mut longest = 0;
    for seed in [1, 2, 21] {
        longest = longest.max(check(&grouped_dataset(seed, 11, 2), false, PARITY, &[]));
    }
    assert!(
        longest >= 3,
        "every front is short: {longest} points at most"
    );
    // The same front on two threads.
    check(
        &grouped_dataset(21, 11, 2),
        false,
        PARITY,
        &["--threads", "2"],
    );
}

/// Without `--out-dir` the CSV is on stdout, one line per point of the JSON report, and the
/// summary on stderr names the front's ends.
#[test]
fn without_a_directory_the_csv_is_on_stdout() {
    let (_dir, path) = temp_file("grouped.csv", &to_csv(&grouped_dataset(1, 11, 2)));
    let base = [
        "pareto",
        path_str(&path),
        "--depth",
        "2",
        "--group-column",
        "x2",
    ];
    let csv = milptree(&base);
    assert!(csv.status.success(), "{}", stderr(&csv));
    let json = milptree(&[&base[..], &["--json", "--quiet"]].concat());
    assert!(json.status.success(), "{}", stderr(&json));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("the JSON report");
    let points = report["points"].as_array().expect("points");
    let text = crate::common::stdout(&csv);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("errors,accuracy,gap,"), "{text}");
    assert_eq!(lines.len(), points.len() + 1, "{text}");
    for (line, point) in lines[1..].iter().zip(points) {
        let errors: f64 = line
            .split(',')
            .next()
            .expect("errors")
            .parse()
            .expect("a number");
        assert_eq!(Some(errors), point["errors"].as_f64(), "{line}");
    }
    let summary = stderr(&csv);
    assert!(
        summary.contains(&format!("{} points, complete", points.len())),
        "{summary}"
    );
    assert!(summary.contains("fewest errors: "), "{summary}");
}

#[test]
fn the_opportunity_front_is_the_oracle_s() {
    let rules = Rules {
        opportunity: true,
        ..PARITY
    };
    let mut longest = 0;
    for seed in [3, 4, 22] {
        longest = longest.max(check(&grouped_dataset(seed, 11, 2), false, rules, &[]));
    }
    assert!(longest >= 2, "every front is one point");
}

#[test]
fn whole_row_weights_weigh_errors_and_rates() {
    let mut longest = 0;
    for seed in [6, 7] {
        let data = with_random_weights(grouped_dataset(seed, 10, 2), seed, true);
        longest = longest.max(check(&data, true, PARITY, &[]));
    }
    assert!(longest >= 2, "every weighted front is one point");
}

#[test]
fn forbidden_features_the_group_as_a_feature_and_a_leaf_minimum_hold() {
    let only_x0 = Rules {
        allowed: |j| j == 0,
        min_leaf: 3,
        ..PARITY
    };
    let anything = Rules {
        allowed: |_| true,
        ..PARITY
    };
    for seed in [31, 32] {
        let data = grouped_dataset(seed, 12, 2);
        check(
            &data,
            false,
            only_x0,
            &["--forbid-feature", "x1", "--min-leaf-rows", "3"],
        );
        check(&data, false, anything, &["--allow-group-as-feature"]);
    }
}

/// A leaf minimum counts rows whatever their weights, as `min_leaf_rows` does everywhere (a row
/// of weight 0 among them): the front on weighted rows under a minimum is the oracle's, whose
/// leaves count rows.
#[test]
fn a_leaf_minimum_counts_rows_beside_row_weights_of_zero() {
    let mut zeros = 0;
    for seed in [6, 7, 8] {
        let data = with_random_weights(grouped_dataset(seed, 12, 2), seed, true);
        zeros += (0..data.n_rows())
            .filter(|&i| data.weight(i) == 0.0)
            .count();
        for min_leaf in [2, 3] {
            let rules = Rules { min_leaf, ..PARITY };
            let min = min_leaf.to_string();
            check(&data, true, rules, &["--min-leaf-rows", &min]);
        }
    }
    assert!(zeros > 0, "no row weighs 0");
    // The table where a leaf of two rows weighs 1.
    let csv = "x,grp,w,class\n0,g2,0,a\n1,g2,1,b\n3,g1,1,b\n3,g1,3,a\n";
    let (_dir, path) = temp_file("pf.csv", csv);
    let output = milptree(&[
        "pareto",
        path_str(&path),
        "--depth",
        "1",
        "--group-column",
        "grp",
        "--weight-column",
        "w",
        "--min-leaf-rows",
        "2",
        "--json",
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let points = report["points"].as_array().expect("points");
    // Splitting x at 2 gives two leaves of two rows and 1 error of weight; the single leaf 2.
    let errors: Vec<f64> = points.iter().filter_map(|p| p["errors"].as_f64()).collect();
    assert_eq!(errors.last(), Some(&1.0), "{report}");
}

/// Missing values: the front is over splits that send the rows missing a feature to a learned
/// side, as `solve` under fairness learns them (both sides tried by the oracle).
#[test]
fn the_front_on_missing_values_is_the_oracle_s() {
    use crate::fair_missing::with_missing_features;
    let mut longest = 0;
    for seed in [9, 10, 21] {
        let data = with_missing_features(&grouped_dataset(seed, 11, 2), seed);
        longest = longest.max(check(&data, false, PARITY, &[]));
        let weighted = with_random_weights(data, seed, true);
        check(&weighted, true, PARITY, &[]);
    }
    assert!(longest >= 2, "every front is one point");
    let csv = "x,grp,class\n1,g1,a\n2,g2,b\n,g1,a\n4,g2,b\n5,g1,b\n6,g2,a\n";
    let (_dir, path) = temp_file("pm.csv", csv);
    let output = milptree(&[
        "pareto",
        path_str(&path),
        "--depth",
        "1",
        "--group-column",
        "grp",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn what_the_front_does_not_take_is_refused_by_name() {
    let refused = |csv: &str, extra: &[&str], named: &str| {
        let (_dir, path) = temp_file("data.csv", csv);
        let mut args = vec!["pareto", path_str(&path), "--group-column", "x2"];
        args.extend_from_slice(extra);
        if !extra.contains(&"--depth") {
            args.extend(["--depth", "2"]);
        }
        assert_usage_error(&args, named);
    };
    let two = to_csv(&grouped_dataset(1, 10, 2));
    refused(&two, &["--depth", "4"], "depths 1 to 3");
    let fractional = with_random_weights(grouped_dataset(6, 10, 2), 6, false);
    refused(
        &to_weighted_csv(&fractional),
        &["--weight-column", "w"],
        "whole-number row weights",
    );
    let one_group = "x0,x1,x2,label\n0,1,0,c0\n1,0,0,c1\n2,1,0,c1\n";
    refused(one_group, &[], "1 distinct value");
    let regression = "x0,x1,x2,label\n0,1,0,0.5\n1,0,1,1.25\n2,1,0,2.75\n3,0,1,0.125\n";
    refused(regression, &[], "two classes");
    let three = "x0,x1,x2,label\n0,1,0,a\n1,0,1,b\n2,1,0,c\n3,0,1,a\n";
    refused(three, &[], "two classes");
    refused(&two, &["--html", "/tmp/never.html"], "--html");
    refused(&two, &["--solver", "highs"], "--solver");
    refused(&two, &["--max-splits", "2"], "--max-splits");
    // A group column the data does not have.
    let (_dir, path) = temp_file("data.csv", &two);
    assert_usage_error(
        &[
            "pareto",
            path_str(&path),
            "--depth",
            "2",
            "--group-column",
            "nope",
        ],
        "not a feature column",
    );
    // The options of the front of fairness without a group column.
    assert_usage_error(
        &[
            "pareto",
            path_str(&path),
            "--depth",
            "2",
            "--fairness",
            "opportunity",
        ],
        "--group-column",
    );
    assert_usage_error(
        &[
            "pareto",
            path_str(&path),
            "--depth",
            "2",
            "--forbid-feature",
            "x1",
        ],
        "--forbid-feature",
    );
}

#[test]
fn the_front_of_three_groups_is_the_oracle_s() {
    let mut longest = 0;
    for seed in [3, 8] {
        longest = longest.max(check(&grouped_dataset(seed, 12, 3), false, PARITY, &[]));
    }
    assert!(
        longest >= 3,
        "every front is short: {longest} points at most"
    );
}

#[test]
fn a_front_stopped_by_the_time_limit_says_so_with_the_points_found() {
    let csv = to_csv(&grouped_dataset(9, 300, 3));
    // Depth 3 on 300 rows takes far longer than nothing; depth 1 ends at once.
    for (depth, limit, complete) in [(3, "0", false), (1, "60", true)] {
        let (report, _dir) = run_front(&csv, depth, &["--time-limit", limit]);
        assert_eq!(report["complete"], complete, "depth {depth}");
        let termination = if complete { "optimal" } else { "time_limit" };
        assert_eq!(report["termination"], termination, "depth {depth}");
        let points = report["points"].as_array().expect("points");
        assert_eq!(points.is_empty(), !complete, "depth {depth}");
    }
    // The summary says it.
    let (dir, path) = temp_file("grouped.csv", &csv);
    let out = dir.path().join("front");
    let args = [
        "pareto",
        path_str(&path),
        "--depth",
        "3",
        "--group-column",
        "x2",
        "--time-limit",
        "0",
        "--out-dir",
        path_str(&out),
    ];
    let output = milptree(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("stopped by the time limit"), "{stdout}");
}
