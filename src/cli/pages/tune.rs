//! The page of a tuning run: the mean validation metric of every configuration with one
//! standard deviation either side and the mean training metric (against the depth when only
//! the depth varies, else against the mean leaves), the chosen configuration circled, the
//! table, and the tree refitted on all the training rows.

use crate::cli::tune::{depth_only, TuneDocument};
use crate::export::html::{
    provenance_facts, tree_caption, Chart, ChartPoint, Fact, Page, Rows, Series, SeriesStyle,
    Table, TableRow,
};
use crate::tree::Tree;
use crate::tune::ConfigRow;

use super::{decimals, training_facts};

/// The page of the run `document`, its refitted tree `refit` (none when no configuration could
/// be chosen), on the training `rows` whose fingerprint is `fingerprint`.
pub fn tune_page(
    document: &TuneDocument,
    refit: Option<&Tree>,
    rows: &Rows<'_>,
    fingerprint: &str,
) -> String {
    let metric = document.metric;
    let title = format!(
        "Cross-validated {metric} of {} on {}",
        document.method, document.data.path
    );
    let mut page = Page::new("tune", title).with_rows(Some(rows));
    page.facts = run_facts(document);
    page.facts.extend(training_facts(
        &document.data.path,
        document.data.train_rows,
        fingerprint,
    ));
    let by_depth = depth_only(&document.rows);
    let chosen = document.chosen.as_ref();
    let mut validation = Vec::new();
    let mut training = Vec::new();
    let mut table = Vec::new();
    for row in &document.rows {
        let is_chosen = chosen == Some(&row.label);
        let tree = (is_chosen && refit.is_some()).then_some(0);
        let x = if by_depth {
            row.config.depth.map(|d| d as f64)
        } else {
            row.leaves_mean
        };
        if let (Some(x), Some(mean)) = (x, row.mean) {
            validation.push(ChartPoint {
                err: row.sd,
                tree,
                label: Some(format!(
                    "{}: {metric} {mean:.4} +/- {}",
                    row.label,
                    decimals(row.sd, 4)
                )),
                chosen: is_chosen,
                ..ChartPoint::at(x, mean)
            });
            if let Some(train) = row.train_mean {
                training.push(ChartPoint::at(x, train));
            }
        }
        table.push(TableRow {
            cells: config_cells(row),
            tree,
            chosen: is_chosen,
        });
    }
    page.charts.push(Chart {
        id: "tune".to_string(),
        title: format!(
            "{metric} against {} (circled: chosen)",
            if by_depth { "depth" } else { "mean leaves" }
        ),
        x_label: if by_depth { "depth" } else { "mean leaves" }.to_string(),
        y_label: metric.to_string(),
        x_names: None,
        series: vec![
            Series {
                name: "validation (mean +/- 1 sd)".to_string(),
                style: SeriesStyle::Line,
                points: validation,
            },
            Series {
                name: "train (mean)".to_string(),
                style: SeriesStyle::Line,
                points: training,
            },
        ],
    });
    page.table = Some(Table {
        columns: [
            "config", "mean", "sd", "train", "leaves", "seconds", "optimal", "status",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect(),
        rows: table,
    });
    add_refit(&mut page, document, refit, rows);
    page.to_html(None)
}

/// The run's facts: method, metric, folds, the rule of choice, the choice and the fits.
fn run_facts(document: &TuneDocument) -> Vec<Fact> {
    vec![
        Fact::new("method", "method", &document.method),
        Fact::new("metric", "validation metric", document.metric.to_string()),
        Fact::new(
            "folds",
            "folds",
            format!(
                "{} folds x {} repeat(s), stratified",
                document.folds, document.repeats
            ),
        ),
        Fact::new(
            "rule",
            "choice",
            if document.one_se {
                "fewest mean leaves within one standard error of the best mean"
            } else {
                "the best mean"
            },
        ),
        Fact::new(
            "chosen",
            "chosen",
            document
                .chosen
                .clone()
                .unwrap_or_else(|| "none".to_string()),
        ),
        Fact::new(
            "best",
            "best mean",
            document.best.clone().unwrap_or_else(|| "none".to_string()),
        ),
        Fact::new(
            "fits",
            "fits",
            format!(
                "{} run, {} read back; {:.2} s{}",
                document.fits_run,
                document.fits_reused,
                document.seconds,
                if document.interrupted {
                    " (interrupted)"
                } else {
                    ""
                }
            ),
        ),
    ]
}

/// A configuration's row of the table.
fn config_cells(row: &ConfigRow) -> Vec<String> {
    vec![
        row.label.clone(),
        decimals(row.mean, 4),
        decimals(row.sd, 4),
        decimals(row.train_mean, 4),
        decimals(row.leaves_mean, 1),
        format!("{:.3}", row.seconds_mean),
        format!("{:.0}%", 100.0 * row.optimal_share),
        row.status.clone(),
    ]
}

/// The refitted tree with its facts, or a note that none was refitted.
fn add_refit(page: &mut Page, document: &TuneDocument, refit: Option<&Tree>, rows: &Rows<'_>) {
    let metric = document.metric;
    let (Some(tree), Some(fit)) = (refit, &document.refit) else {
        page.notes
            .push("no configuration was chosen: no tree was refitted".to_string());
        return;
    };
    let mut facts = tree
        .provenance
        .as_ref()
        .map(provenance_facts)
        .unwrap_or_default();
    facts.push(Fact::new(
        "refit",
        "refit",
        format!(
            "{}: {} leaves, train {metric} {}{}",
            fit.config,
            fit.leaves,
            decimals(metric.of(&fit.train), 4),
            fit.test.as_ref().map_or_else(String::new, |test| format!(
                ", test {metric} {}",
                decimals(metric.of(test), 4)
            ))
        ),
    ));
    page.add_tree(
        tree,
        format!(
            "The chosen configuration refitted on all training rows: {}",
            tree_caption(tree)
        ),
        facts,
        Some(rows),
    );
}
