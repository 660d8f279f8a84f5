//! Model size and build time per dataset, depth and formulation (medians over the runs, whose
//! training sets differ with the split seed).

use crate::experiment::row::Row;
use crate::experiment::summary::groups::group_by;
use crate::experiment::summary::stats::{median, number, seconds};
use crate::experiment::summary::table::Table;

/// The Markdown section.
pub fn sizes_section(rows: &[Row]) -> String {
    let mut table = Table::new(&[
        "dataset",
        ">depth",
        "formulation",
        ">train rows",
        ">features",
        ">variables",
        ">binaries",
        ">constraints",
        ">non-zeros",
        ">build seconds",
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
            number(med(|r| Some(r.train_rows as f64))),
            number(med(|r| Some(r.features as f64))),
            number(med(|r| r.variables.map(|v| v as f64))),
            number(med(|r| r.binaries.map(|v| v as f64))),
            number(med(|r| r.constraints.map(|v| v as f64))),
            number(med(|r| r.nonzeros.map(|v| v as f64))),
            seconds(med(|r| r.build_seconds)),
        ]);
    }
    format!(
        "## Model size and build time\n\nMedians over the runs of each dataset, depth and \
         formulation.\n\n{}",
        table.render()
    )
}
