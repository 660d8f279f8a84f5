//! Accuracy of the optimal trees against the greedy trees on the same splits.

use crate::experiment::row::Row;
use crate::experiment::summary::groups::group_by;
use crate::experiment::summary::stats::{median, percent};
use crate::experiment::summary::table::Table;

/// The Markdown section.
pub fn accuracy_section(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "dataset",
        ">depth",
        "formulation",
        ">runs with a tree",
        ">train",
        ">test",
        ">greedy train",
        ">greedy test",
        ">balanced test",
        ">greedy balanced test",
    ]);
    let groups = group_by(rows, |r| {
        (r.dataset.clone(), r.depth, r.formulation.clone())
    });
    for ((dataset, depth, formulation), runs) in groups {
        let med = |f: fn(&Row) -> Option<f64>| median(runs.iter().filter_map(|r| f(r)).collect());
        table.push(vec![
            dataset,
            depth.to_string(),
            formulation,
            runs.iter()
                .filter(|r| r.train_accuracy.is_some())
                .count()
                .to_string(),
            percent(med(|r| r.train_accuracy)),
            percent(med(|r| r.test_accuracy)),
            percent(med(|r| r.greedy_train_accuracy)),
            percent(med(|r| r.greedy_test_accuracy)),
            percent(med(|r| r.test_balanced_accuracy)),
            percent(med(|r| r.greedy_test_balanced_accuracy)),
        ]);
    }
    format!(
        "## Accuracy\n\nMedians over seeds, solvers and warm starts of the returned trees, next \
         to the formulation's greedy tree on the same splits.\n\n{}",
        table.render()
    )
}
