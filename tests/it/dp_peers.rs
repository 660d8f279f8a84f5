//! The DP search against the peers' proven optima (`../shared/peers/ground_truth.csv`: minimum
//! training misclassifications proven by ConTree, STreeD or brute force, on every midpoint of
//! the full data of `../shared/datasets`). Only rows the search proves quickly are run; the
//! test is skipped, with a note, when `../shared` is absent.

use std::collections::BTreeMap;
use std::path::PathBuf;

use milptree::data::{read_dataset, TargetColumn};
use milptree::dp::{solve, DpOptions, DpProblem};

use crate::common::root;

/// (dataset, depth) pairs proven by the peers that the search solves in well under a second in
/// the test profile: depths 1 and 2 everywhere, and depths 3 and 4 on the small datasets.
fn selected(depth: usize, contree_seconds: f64) -> bool {
    depth <= 2
        || (depth == 3 && contree_seconds <= 0.03)
        || (depth == 4 && contree_seconds <= 0.012)
}

#[test]
fn dp_matches_the_peers_proven_optima() {
    let shared = root().join("..").join("shared");
    let truth = shared.join("peers").join("ground_truth.csv");
    let Ok(text) = std::fs::read_to_string(&truth) else {
        eprintln!(
            "note: {} is absent; skipping the peers' optima",
            truth.display()
        );
        return;
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("column {name}"))
    };
    let (c_dataset, c_depth, c_optimal, c_status, c_contree) = (
        column("dataset"),
        column("depth"),
        column("optimal_misclassifications"),
        column("status"),
        column("contree_seconds"),
    );
    let mut by_dataset: BTreeMap<String, Vec<(usize, f64)>> = BTreeMap::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells[c_status] != "optimal" {
            continue;
        }
        let depth: usize = cells[c_depth].parse().expect("a depth");
        let optimal: f64 = cells[c_optimal].parse().expect("an optimum");
        let contree: f64 = cells[c_contree].parse().unwrap_or(f64::INFINITY);
        if selected(depth, contree) {
            by_dataset
                .entry(cells[c_dataset].to_string())
                .or_default()
                .push((depth, optimal));
        }
    }
    assert!(!by_dataset.is_empty());
    let mut checked = 0;
    for (name, rows) in by_dataset {
        let path: PathBuf = shared.join("datasets").join(format!("{name}.csv"));
        let data = read_dataset(&path, &TargetColumn::Last).expect("a peers dataset");
        for (depth, optimal) in rows {
            let outcome = solve(
                &data,
                &DpProblem::accuracy(&data, depth),
                &DpOptions::default(),
            )
            .expect("solves");
            assert!(outcome.is_optimal(), "{name} depth {depth}");
            assert_eq!(outcome.objective, optimal, "{name} depth {depth}");
            checked += 1;
        }
    }
    eprintln!("checked {checked} proven optima");
}
