//! The page of one solve: the tree with its provenance (method, termination, objective, bound,
//! gap, certificate, side constraints, data fingerprint), the plain evaluator's figures, the
//! warm start and the model's size, and the solver's incumbent and bound against time.

use crate::cli::output::summary_line;
use crate::export::html::{
    figure, provenance_facts, tree_caption, Chart, ChartPoint, Fact, Page, Rows, Series,
    SeriesStyle,
};
use crate::learn::SolveDocument;
use crate::solver::TrajectoryPoint;
use crate::tree::{Provenance, Tree};

use super::decimals;

/// The chart of the incumbent and the bound against time; `None` without a trajectory.
fn trajectory_chart(points: &[TrajectoryPoint]) -> Option<Chart> {
    let series = |name: &str, value: fn(&TrajectoryPoint) -> Option<f64>| Series {
        name: name.to_string(),
        style: SeriesStyle::Step,
        points: points
            .iter()
            .filter_map(|p| value(p).map(|v| ChartPoint::at(p.seconds, v)))
            .collect(),
    };
    let incumbent = series("incumbent", |p| p.incumbent);
    let bound = series("bound", |p| p.bound);
    if incumbent.points.is_empty() && bound.points.is_empty() {
        return None;
    }
    Some(Chart {
        id: "trajectory".to_string(),
        title: "Incumbent and bound against time".to_string(),
        x_label: "seconds".to_string(),
        y_label: "objective".to_string(),
        x_names: None,
        series: [incumbent, bound]
            .into_iter()
            .filter(|s| !s.points.is_empty())
            .collect(),
    })
}

/// What the report adds to the provenance: the evaluator's figures, the solver and its
/// search, the warm start, the model.
fn report_facts(document: &SolveDocument) -> Vec<Fact> {
    let report = &document.report;
    let mut facts = Vec::new();
    if let Some(train) = &document.train {
        facts.push(Fact::new(
            "train",
            "on training rows",
            summary_line("train", train),
        ));
    }
    if let Some(test) = &document.test {
        facts.push(Fact::new(
            "test",
            "on test rows",
            summary_line("test", test),
        ));
    }
    facts.push(Fact::new(
        "solver_version",
        "solver version",
        format!("{} {}", report.solver, report.solver_version),
    ));
    if let Some(nodes) = report.nodes {
        facts.push(Fact::new("nodes", "search nodes", nodes.to_string()));
    }
    if let Some(size) = &document.model_size {
        facts.push(Fact::new(
            "model",
            "model",
            format!(
                "{} variables ({} binary), {} constraints, {} non-zeros; built in {} s",
                size.variables,
                size.binaries,
                size.constraints,
                size.nonzeros,
                decimals(document.build_seconds, 2)
            ),
        ));
    }
    if let Some(warm) = &report.warm_start {
        facts.push(Fact::new(
            "warm_start",
            "warm start",
            format!(
                "objective {}, {}{}",
                figure(Some(warm.objective)),
                if warm.feasible {
                    "feasible"
                } else {
                    "infeasible"
                },
                document
                    .warm_start_source
                    .as_ref()
                    .map_or_else(String::new, |source| format!(", from {source}"))
            ),
        ));
    }
    if let Some(first) = report.time_to_first_incumbent {
        facts.push(Fact::new(
            "first_incumbent",
            "first incumbent",
            format!("{} after {first:.3} s", figure(report.first_incumbent)),
        ));
    }
    facts
}

/// The page of a solve whose report is `document` and whose tree is `tree` (none when the run
/// found none); `made` is the run's provenance (the tree's), `rows` the training rows.
pub fn solve_page(
    document: &SolveDocument,
    made: Option<&Provenance>,
    tree: Option<&Tree>,
    rows: Option<&Rows<'_>>,
) -> String {
    let title = format!(
        "{} depth {} on {} ({})",
        document.formulation.to_uppercase(),
        document.depth,
        document.data.path,
        document.report.solver
    );
    let mut page = Page::new("solve", title).with_rows(rows);
    page.facts = made.map(provenance_facts).unwrap_or_default();
    page.facts.extend(report_facts(document));
    page.notes = document.report.notes.clone();
    if let Some(mismatch) = &document.decode_mismatch {
        page.notes.push(mismatch.message.clone());
    }
    page.charts
        .extend(trajectory_chart(&document.report.trajectory));
    match tree {
        Some(tree) => page.add_tree(tree, tree_caption(tree), Vec::new(), rows),
        None => page.notes.push("the run found no tree".to_string()),
    }
    page.to_html(
        tree.map(|t| crate::export::TextView(t).to_string())
            .as_deref(),
    )
}
