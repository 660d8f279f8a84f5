//! The page of a Rashomon set: its count and margin, the trees by objective, each feature's
//! share of the trees and its importance across them, and a browser of trees (the first in
//! objective order, then any samples), each a click away.

use num_bigint::BigUint;

use crate::export::html::{
    figure, tree_caption, Chart, ChartPoint, Fact, Page, Rows, Series, SeriesStyle, Table, TableRow,
};
use crate::rashomon::report::{share, Report};
use crate::rashomon::{approx, Ranked, RashomonSet};

use super::training_facts;

/// Counts spanning more than this ratio are drawn on a log scale.
const LOG_SPAN: f64 = 1e3;

/// The page of `set` and its `report`: `first` are its first trees in objective order,
/// `samples` trees drawn from it; `rows` are the training rows (from `path`, with
/// `fingerprint`).
pub fn rashomon_page(
    set: &RashomonSet,
    report: &Report,
    first: &[Ranked],
    samples: &[Ranked],
    rows: &Rows<'_>,
    path: &str,
    fingerprint: &str,
) -> String {
    let problem = set.problem();
    let title = format!(
        "Rashomon set of depth {} on {path}: {} trees",
        problem.depth, report.count
    );
    let mut page = Page::new("rashomon", title).with_rows(Some(rows));
    page.facts = facts(set, report);
    page.facts
        .extend(training_facts(path, set.data().n_rows(), fingerprint));
    if let Some(stop) = set.stop() {
        page.notes.push(format!(
            "the build stopped ({}): the set holds every tree of objective at most {}, not {} \
             as asked",
            stop.name().replace('_', " "),
            figure(Some(set.max_objective())),
            figure(Some(set.asked_max_objective()))
        ));
    }
    if report.count > BigUint::from(first.len()) {
        page.notes.push(format!(
            "the browser lists the first {} of the {} trees in objective order{}",
            first.len(),
            report.count,
            if samples.is_empty() {
                String::new()
            } else {
                format!(", then {} drawn uniformly", samples.len())
            }
        ));
    }
    page.charts.push(objective_chart(set));
    let used: Vec<usize> = (0..set.data().n_features())
        .filter(|&j| report.feature_trees[j] > BigUint::from(0u8))
        .collect();
    let names: Vec<String> = used
        .iter()
        .map(|&j| set.data().schema().features[j].clone())
        .collect();
    page.charts.push(feature_use_chart(report, &used, &names));
    if !report.importances.per_tree.is_empty() {
        page.charts.push(importance_chart(report, &used, &names));
    }
    let mut table = Vec::new();
    for (kind, ranked) in first
        .iter()
        .map(|r| ("", r))
        .chain(samples.iter().map(|r| (" (sample)", r)))
    {
        let index = page.trees.len();
        let features: Vec<&str> = set
            .features_of(&ranked.shape)
            .iter()
            .map(|&j| set.data().schema().features[j].as_str())
            .collect();
        table.push(TableRow {
            cells: vec![
                format!("{}{kind}", ranked.rank),
                figure(Some(ranked.objective)),
                ranked.shape.variants().to_string(),
                ranked.tree.n_splits().to_string(),
                ranked.tree.leaves().len().to_string(),
                features.join(", "),
            ],
            tree: Some(index),
            chosen: index == 0,
        });
        let facts = vec![
            Fact::new("rank", "rank", ranked.rank.to_string()),
            Fact::new("objective", "objective", figure(Some(ranked.objective))),
            Fact::new(
                "variants",
                "threshold variants",
                ranked.shape.variants().to_string(),
            ),
        ];
        page.add_tree(
            &ranked.tree,
            format!(
                "Rank {}{kind}, objective {}: {}",
                ranked.rank,
                figure(Some(ranked.objective)),
                tree_caption(&ranked.tree)
            ),
            facts,
            Some(rows),
        );
    }
    page.table = Some(Table {
        columns: [
            "rank",
            "objective",
            "variants",
            "splits",
            "leaves",
            "features",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect(),
        rows: table,
    });
    page.to_html(None)
}

/// The set's margin, counts, completeness, graph and time.
fn facts(set: &RashomonSet, report: &Report) -> Vec<Fact> {
    let problem = set.problem();
    let (nodes, bytes) = set.graph_size();
    let disputed = report.disputed();
    let mut facts = vec![
        Fact::new("depth", "depth", problem.depth.to_string()),
        Fact::new("optimum", "optimum", figure(Some(set.optimum()))),
        Fact::new(
            "max_objective",
            "largest objective",
            figure(Some(set.max_objective())),
        ),
        Fact::new("count", "trees", report.count.to_string()),
        Fact::new(
            "count_over_thresholds",
            "over every threshold",
            report.with_variants.to_string(),
        ),
        Fact::new(
            "complete",
            "complete",
            match set.stop() {
                None => "yes".to_string(),
                Some(stop) => format!("no ({})", stop.name().replace('_', " ")),
            },
        ),
        Fact::new("split_cost", "split cost", figure(Some(problem.split_cost))),
    ];
    if let Some(fairness) = set.fairness() {
        facts.push(Fact::new(
            "fairness",
            "fairness",
            format!("{}; a leaf takes either class", fairness.describe()),
        ));
        let gaps: Vec<String> = set
            .gaps_by_objective()
            .iter()
            .map(|(cost, low, high)| format!("{}: {low:.4} to {high:.4}", figure(Some(*cost))))
            .collect();
        facts.push(Fact::new(
            "gaps",
            "gap by objective (least to largest)",
            gaps.join("; "),
        ));
    }
    facts.extend([
        Fact::new(
            "leaf_rows",
            "leaf rows",
            format!(
                "at least {}{}",
                problem.min_leaf,
                problem
                    .max_leaf
                    .map_or_else(String::new, |m| format!(", at most {m}"))
            ),
        ),
        Fact::new(
            "disputed",
            "rows disputed",
            format!("{} of {}", disputed.len(), set.data().n_rows()),
        ),
        Fact::new(
            "graph",
            "graph",
            format!("{nodes} row sets, {} KiB", bytes / 1024),
        ),
        Fact::new("seconds", "seconds", format!("{:.3}", set.seconds())),
    ]);
    facts
}

/// Trees against objective, as bars (log10 when the counts span more than [`LOG_SPAN`]).
fn objective_chart(set: &RashomonSet) -> Chart {
    let by_objective = set.by_objective();
    let counts: Vec<f64> = by_objective.iter().map(|(_, n)| approx(n)).collect();
    let (low, high) = counts
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &c| (l.min(c), h.max(c)));
    let log = high > LOG_SPAN * low.max(1.0);
    let points = by_objective
        .iter()
        .zip(&counts)
        .map(|((objective, n), &count)| ChartPoint {
            label: Some(format!("objective {}: {n} trees", figure(Some(*objective)))),
            ..ChartPoint::at(*objective, if log { count.log10() } else { count })
        })
        .collect();
    Chart {
        id: "objectives".to_string(),
        title: "Trees by objective".to_string(),
        x_label: "objective".to_string(),
        y_label: if log { "trees (log10)" } else { "trees" }.to_string(),
        x_names: None,
        series: vec![Series {
            name: "trees".to_string(),
            style: SeriesStyle::Bar,
            points,
        }],
    }
}

/// The share of the set's trees splitting on each feature some tree uses.
fn feature_use_chart(report: &Report, used: &[usize], names: &[String]) -> Chart {
    let points = used
        .iter()
        .zip(names)
        .enumerate()
        .map(|(i, (&j, name))| {
            let n = &report.feature_trees[j];
            let part = share(n, &report.count);
            ChartPoint {
                label: Some(format!("{name}: {n} trees ({:.1}%)", 100.0 * part)),
                ..ChartPoint::at(i as f64, part)
            }
        })
        .collect();
    Chart {
        id: "features".to_string(),
        title: "Share of the trees splitting on each feature".to_string(),
        x_label: "feature".to_string(),
        y_label: "share of trees".to_string(),
        x_names: Some(names.to_vec()),
        series: vec![Series {
            name: "share".to_string(),
            style: SeriesStyle::Bar,
            points,
        }],
    }
}

/// Each used feature's importance across the trees: the mean as a bar, the median, the least
/// and the most as points (the quartiles in each point's label).
fn importance_chart(report: &Report, used: &[usize], names: &[String]) -> Chart {
    let importances = &report.importances;
    let over = importances.over();
    let mut mean = Vec::new();
    let mut median = Vec::new();
    let mut least = Vec::new();
    let mut most = Vec::new();
    for (i, (&j, name)) in used.iter().zip(names).enumerate() {
        let Some(s) = importances.spread(j) else {
            continue;
        };
        let x = i as f64;
        let label = format!(
            "{name}: mean {:.3}, min {:.3}, quartiles {:.3} {:.3} {:.3}, max {:.3}",
            s.mean, s.min, s.q25, s.median, s.q75, s.max
        );
        mean.push(ChartPoint {
            label: Some(label.clone()),
            ..ChartPoint::at(x, s.mean)
        });
        median.push(ChartPoint {
            label: Some(label.clone()),
            ..ChartPoint::at(x, s.median)
        });
        least.push(ChartPoint {
            label: Some(label.clone()),
            ..ChartPoint::at(x, s.min)
        });
        most.push(ChartPoint {
            label: Some(label),
            ..ChartPoint::at(x, s.max)
        });
    }
    let series = |name: &str, style, points| Series {
        name: name.to_string(),
        style,
        points,
    };
    Chart {
        id: "importance".to_string(),
        title: format!("Importance across the set, over {over}"),
        x_label: "feature".to_string(),
        y_label: "share of a tree's error decrease".to_string(),
        x_names: Some(names.to_vec()),
        series: vec![
            series("mean", SeriesStyle::Bar, mean),
            series("median", SeriesStyle::Points, median),
            series("min", SeriesStyle::Points, least),
            series("max", SeriesStyle::Points, most),
        ],
    }
}
