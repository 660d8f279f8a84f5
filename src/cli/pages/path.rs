//! The page of a regularisation path: training and test loss against leaves for each leaf
//! penalty, the table, and each penalty's tree one click away (the smallest penalty's first).

use crate::cli::path::PathDocument;
use crate::export::html::{
    figure, provenance_facts, tree_caption, Chart, ChartPoint, Fact, Page, Rows, Series,
    SeriesStyle, Table, TableRow,
};
use crate::tree::Tree;

use super::{decimals, training_facts};

/// The page of the path `document` and its trees (one per row), on the training `rows` whose
/// fingerprint is `fingerprint`.
pub fn path_page(
    document: &PathDocument,
    trees: &[Tree],
    rows: &Rows<'_>,
    fingerprint: &str,
) -> String {
    let title = format!(
        "Regularisation path of the sparse search on {}",
        document.data.path
    );
    let mut page = Page::new("path", title).with_rows(Some(rows));
    page.facts = vec![
        Fact::new("method", "method", "sparse"),
        Fact::new("loss", "objective", &document.objective),
        Fact::new(
            "depth",
            "depth cap",
            document
                .depth
                .map_or_else(|| "none".to_string(), |d| d.to_string()),
        ),
        Fact::new(
            "penalties",
            "leaf penalties",
            format!("{} penalties", document.rows.len()),
        ),
    ];
    page.facts.extend(training_facts(
        &document.data.path,
        document.data.train_rows,
        fingerprint,
    ));
    let mut train = Vec::new();
    let mut test = Vec::new();
    let mut table = Vec::new();
    for (i, (row, tree)) in document.rows.iter().zip(trees).enumerate() {
        let leaves = row.leaves as f64;
        let label = format!(
            "lambda {}: {} leaves, train loss {:.4}",
            figure(Some(row.lambda)),
            row.leaves,
            row.train.loss
        );
        train.push(ChartPoint {
            tree: Some(i),
            label: Some(label.clone()),
            ..ChartPoint::at(leaves, row.train.loss)
        });
        if let Some(figures) = row.test {
            test.push(ChartPoint {
                tree: Some(i),
                label: Some(format!("{label}, test loss {:.4}", figures.loss)),
                ..ChartPoint::at(leaves, figures.loss)
            });
        }
        table.push(TableRow {
            cells: vec![
                figure(Some(row.lambda)),
                row.leaves.to_string(),
                row.depth.to_string(),
                format!("{:.6}", row.objective),
                format!("{:.6}", row.lower_bound),
                format!("{:.4}", row.train.metric),
                decimals(row.test.map(|t| t.metric), 4),
                row.termination.clone(),
                format!("{:.3}", row.seconds),
            ],
            tree: Some(i),
            chosen: false,
        });
        let mut facts = tree
            .provenance
            .as_ref()
            .map(provenance_facts)
            .unwrap_or_default();
        facts.insert(
            0,
            Fact::new("lambda", "leaf penalty", figure(Some(row.lambda))),
        );
        page.add_tree(
            tree,
            format!(
                "lambda {}: {}",
                figure(Some(row.lambda)),
                tree_caption(tree)
            ),
            facts,
            Some(rows),
        );
    }
    let mut series = vec![Series {
        name: "train".to_string(),
        style: SeriesStyle::Line,
        points: train,
    }];
    if !test.is_empty() {
        series.push(Series {
            name: "test".to_string(),
            style: SeriesStyle::Line,
            points: test,
        });
    }
    page.charts.push(Chart {
        id: "path".to_string(),
        title: format!("Loss (1 - {}) against leaves", document.objective),
        x_label: "leaves".to_string(),
        y_label: "loss".to_string(),
        x_names: None,
        series,
    });
    page.table = Some(Table {
        columns: [
            "lambda",
            "leaves",
            "depth",
            "objective",
            "bound",
            "train",
            "test",
            "status",
            "seconds",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect(),
        rows: table,
    });
    page.to_html(None)
}
