//! The page of a Pareto front: false negatives against false positives (the front, the
//! lower-bound front while it is incomplete, the reference trees), a table of every point's
//! metrics, and each point's tree one click away (the best F1 first).

use crate::export::html::{
    tree_caption, Chart, ChartPoint, Fact, Page, Rows, Series, SeriesStyle, Table, TableRow,
};
use crate::learn::front::FrontResult;
use crate::learn::front_document::{FrontDocument, FrontRow, Scored};
use crate::pareto::Metric;

use super::training_facts;

/// The metrics the table and the captions show.
const SHOWN: [Metric; 4] = [
    Metric::Accuracy,
    Metric::BalancedAccuracy,
    Metric::F1,
    Metric::Mcc,
];

fn metric_facts(scored: &Scored, prefix: &str) -> Vec<Fact> {
    SHOWN
        .iter()
        .map(|m| {
            Fact::new(
                &format!("{prefix}{}", m.key()),
                &format!("{prefix}{}", m.name()).replace('_', " "),
                format!("{:.4}", scored.metrics[m.key()]),
            )
        })
        .collect()
}

/// The page of the front `document` found by `result` on `rows` (the two-class training
/// rows); `fingerprint` is the training rows' as read.
pub fn front_page(
    document: &FrontDocument,
    result: &FrontResult,
    rows: &Rows<'_>,
    fingerprint: &str,
) -> String {
    let title = format!(
        "Pareto front of false positives and false negatives, depth {} on {}",
        document.depth, document.data.path
    );
    let mut page = Page::new("front", title).with_rows(Some(rows));
    page.facts = front_facts(document, fingerprint);
    let (front, table) = add_points(&mut page, document, result, rows);
    let mut series = vec![Series {
        name: "front".to_string(),
        style: SeriesStyle::Points,
        points: front,
    }];
    if !document.complete {
        series.push(Series {
            name: "lower bound".to_string(),
            style: SeriesStyle::Step,
            points: document
                .lower_bound
                .iter()
                .map(|p| ChartPoint::at(p.fp, p.fn_))
                .collect(),
        });
    }
    series.extend(add_references(&mut page, document, result, rows));
    page.charts.push(Chart {
        id: "front".to_string(),
        title: format!(
            "False negatives against false positives (positive class {})",
            document.positive_class
        ),
        x_label: "false positives".to_string(),
        y_label: "false negatives".to_string(),
        x_names: None,
        series,
    });
    page.table = Some(Table {
        columns: table_columns(document),
        rows: table,
    });
    page.to_html(None)
}

/// The page's facts: the method, the classes, how the search ended, the front's size, the
/// best F1 and MCC with their bounds, and the training rows.
fn front_facts(document: &FrontDocument, fingerprint: &str) -> Vec<Fact> {
    let mut facts = vec![
        Fact::new("method", "method", &document.method),
        Fact::new("solver", "solver", &document.solver),
        Fact::new(
            "classes",
            "positive class",
            format!(
                "{} ({} rows) against {} ({} rows)",
                document.positive_class,
                document.positives,
                document.negative_class,
                document.negatives
            ),
        ),
        Fact::new(
            "termination",
            "termination",
            serde_json::to_value(document.termination)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        ),
        Fact::new(
            "complete",
            "front",
            if document.complete {
                format!("complete: {} points, all proven", document.points.len())
            } else {
                format!(
                    "{} points found; a lower-bound front of {} points bounds the rest",
                    document.points.len(),
                    document.lower_bound.len()
                )
            },
        ),
        Fact::new("seconds", "seconds", format!("{:.3}", document.seconds)),
    ];
    for metric in [Metric::F1, Metric::Mcc] {
        if let Some(best) = document.best.get(metric.key()) {
            facts.push(Fact::new(
                &format!("best_{}", metric.key()),
                &format!("best {}", metric.name()),
                format!(
                    "{:.4} at FP {}, FN {} (at most {:.4} for any tree)",
                    best.value, best.fp, best.fn_, best.bound
                ),
            ));
        }
    }
    facts.extend(training_facts(
        &document.data.path,
        document.data.train_rows,
        fingerprint,
    ));
    facts
}

/// Adds each point's tree to `page` (the best F1's selected) and returns the points of the
/// chart and the rows of the table.
fn add_points(
    page: &mut Page,
    document: &FrontDocument,
    result: &FrontResult,
    rows: &Rows<'_>,
) -> (Vec<ChartPoint>, Vec<TableRow>) {
    let best = document.best.get(Metric::F1.key());
    let mut front = Vec::new();
    let mut table = Vec::new();
    let points = document.points.iter().zip(&result.outcome.front);
    for (i, (point, tree)) in points.enumerate() {
        let chosen = best.is_some_and(|b| b.fp == point.train.fp && b.fn_ == point.train.fn_);
        if chosen {
            page.selected = i;
        }
        let caption = format!(
            "FP {}, FN {}: F1 {:.4}, MCC {:.4}",
            point.train.fp,
            point.train.fn_,
            point.train.metrics[Metric::F1.key()],
            point.train.metrics[Metric::Mcc.key()]
        );
        front.push(ChartPoint {
            tree: Some(i),
            label: Some(caption.clone()),
            chosen,
            ..ChartPoint::at(point.train.fp, point.train.fn_)
        });
        table.push(TableRow {
            cells: point_cells(point),
            tree: Some(i),
            chosen,
        });
        page.add_tree(
            &tree.tree,
            format!("{caption} ({})", tree_caption(&tree.tree)),
            point_facts(point),
            Some(rows),
        );
    }
    (front, table)
}

/// A point's row of the table: its counts, size, proof and metrics (and test F1).
fn point_cells(point: &FrontRow) -> Vec<String> {
    let mut cells = vec![
        point.train.fp.to_string(),
        point.train.fn_.to_string(),
        point.splits.to_string(),
        if point.proven { "yes" } else { "no" }.to_string(),
    ];
    cells.extend(
        SHOWN
            .iter()
            .map(|m| format!("{:.4}", point.train.metrics[m.key()])),
    );
    if let Some(test) = &point.test {
        cells.push(format!("{:.4}", test.metrics[Metric::F1.key()]));
    }
    cells
}

/// The facts shown beside a point's tree.
fn point_facts(point: &FrontRow) -> Vec<Fact> {
    let mut facts = vec![
        Fact::new("fp", "false positives", point.train.fp.to_string()),
        Fact::new("fn", "false negatives", point.train.fn_.to_string()),
        Fact::new(
            "proven",
            "on the front",
            if point.proven { "proven" } else { "not proven" },
        ),
    ];
    facts.extend(metric_facts(&point.train, ""));
    if let Some(test) = &point.test {
        facts.extend(metric_facts(test, "test "));
    }
    if let Some(file) = &point.tree_file {
        facts.push(Fact::new("tree_file", "tree file", file));
    }
    facts
}

/// Adds each reference tree to `page` and returns its series of the chart.
fn add_references(
    page: &mut Page,
    document: &FrontDocument,
    result: &FrontResult,
    rows: &Rows<'_>,
) -> Vec<Series> {
    let mut series = Vec::new();
    for (reference, tree) in document.references.iter().zip(&result.references) {
        let index = page.trees.len();
        let name = reference.name.replace('_', "-");
        let caption = format!(
            "{name} ({}): FP {}, FN {}",
            reference.status, reference.train.fp, reference.train.fn_
        );
        series.push(Series {
            name: name.clone(),
            style: SeriesStyle::Points,
            points: vec![ChartPoint {
                tree: Some(index),
                label: Some(caption.clone()),
                ..ChartPoint::at(reference.train.fp, reference.train.fn_)
            }],
        });
        page.add_tree(
            &tree.tree,
            format!("{caption} ({})", tree_caption(&tree.tree)),
            metric_facts(&reference.train, ""),
            Some(rows),
        );
    }
    series
}

/// The table's columns (a test F1 when some point has test metrics).
fn table_columns(document: &FrontDocument) -> Vec<String> {
    let mut columns: Vec<String> = ["FP", "FN", "splits", "proven"]
        .iter()
        .map(|c| c.to_string())
        .collect();
    columns.extend(SHOWN.iter().map(|m| m.name().to_string()));
    if document.points.iter().any(|p| p.test.is_some()) {
        columns.push("test f1".to_string());
    }
    columns
}
