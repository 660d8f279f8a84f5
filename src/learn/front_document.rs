//! The report of `milptree pareto` ([`FrontDocument`], made from a [`FrontResult`]): the front with every metric of each
//! point (training and, with a test set, test), the lower-bound front, the best point of each
//! metric, and reference trees (CART, the accuracy-optimal tree) placed in the same plane. It
//! is written as JSON, and its points as CSV ([`FrontDocument::to_csv`]).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::data::{Dataset, Sets, ThresholdMode};
use crate::dp::DpTermination;
use crate::learn::front::FrontResult;
use crate::learn::DataBlock;
use crate::pareto::{weighted_errors_of, Confusion, Metric, ParetoProblem, ParetoStats};
use crate::score::{whole_as_integer, Errors};
use crate::tree::Tree;

/// Every metric of one point, by its key (`accuracy`, `balanced_accuracy`, `f1`, `mcc`,
/// `fowlkes_mallows`).
pub type Metrics = BTreeMap<String, f64>;

/// Every metric of a classifier making the weighted errors `errors` on data whose positive
/// and negative rows weigh `positives` and `negatives` (their numbers without weights).
pub fn metrics_of(errors: Errors, positives: f64, negatives: f64) -> Metrics {
    let confusion = Confusion {
        tp: (positives - errors.fn_).max(0.0),
        fp: errors.fp,
        fn_: errors.fn_,
        tn: (negatives - errors.fp).max(0.0),
    };
    Metric::ALL
        .iter()
        .map(|m| (m.key().to_string(), m.value(confusion)))
        .collect()
}

/// The errors and metrics of a tree on one data set, in weight (rows without weights).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    #[serde(serialize_with = "whole_as_integer")]
    pub fp: f64,
    #[serde(rename = "fn", serialize_with = "whole_as_integer")]
    pub fn_: f64,
    #[serde(flatten)]
    pub metrics: Metrics,
}

impl Scored {
    /// `tree` on the two-class `data` (class 1 positive), each row counting its weight.
    pub fn of(tree: &Tree, data: &Dataset) -> Scored {
        Scored::at(weighted_errors_of(tree, data), data)
    }

    /// The weighted errors `errors` on the two-class `data`.
    pub fn at(errors: Errors, data: &Dataset) -> Scored {
        let totals = data.class_weight_totals();
        Scored {
            fp: errors.fp,
            fn_: errors.fn_,
            metrics: metrics_of(errors, totals[1], totals[0]),
        }
    }

    /// The weighted errors.
    pub fn errors(&self) -> Errors {
        Errors {
            fp: self.fp,
            fn_: self.fn_,
        }
    }
}

/// One point of the front.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontRow {
    /// Errors and metrics on the training rows.
    #[serde(flatten)]
    pub train: Scored,
    /// Split nodes of the point's tree.
    pub splits: usize,
    /// Whether the point is proven to be on the front (the whole front is, when the search
    /// finished; with the MILPs, each point whose solve was proven optimal).
    pub proven: bool,
    /// The same tree on the test rows, with a test set.
    pub test: Option<Scored>,
    /// The tree's file, with `--trees`.
    pub tree_file: Option<String>,
}

/// The best point of one metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Best {
    #[serde(serialize_with = "whole_as_integer")]
    pub fp: f64,
    #[serde(rename = "fn", serialize_with = "whole_as_integer")]
    pub fn_: f64,
    pub value: f64,
    /// The most any tree can reach (from the lower-bound front): the value when the front is
    /// complete.
    pub bound: f64,
}

/// A tree learned otherwise, placed in the plane of the front.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// `cart` or `accuracy_optimal`.
    pub name: String,
    #[serde(flatten)]
    pub train: Scored,
    pub splits: usize,
    /// How it was found (`greedy`; the exact search's termination).
    pub status: String,
    pub test: Option<Scored>,
}

/// One solve of the epsilon-constraint method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpsilonSolve {
    /// The largest number of false positives allowed.
    pub max_fp: u32,
    /// `optimal`, `time_limit`, ...
    pub termination: String,
    pub seconds: f64,
    /// The point of the tree found, if any.
    pub fp: Option<u32>,
    #[serde(rename = "fn")]
    pub fn_: Option<u32>,
    /// Whether the solve started from the previous point's tree (repaired to the new bound).
    pub warm_started: bool,
}

/// The report of `milptree pareto`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontDocument {
    /// `pareto`.
    pub command: String,
    /// `dp` (the bi-objective search), or the formulation of the epsilon-constraint method.
    pub method: String,
    /// `dp`, `highs` or `cbc`.
    pub solver: String,
    pub depth: usize,
    pub max_splits: Option<usize>,
    pub thresholds: ThresholdMode,
    pub data: DataBlock,
    pub positive_class: String,
    pub negative_class: String,
    /// Positive and negative training rows, in weight.
    #[serde(serialize_with = "whole_as_integer")]
    pub positives: f64,
    #[serde(serialize_with = "whole_as_integer")]
    pub negatives: f64,
    /// `optimal` (the front is complete), `time_limit` or `interrupted`.
    pub termination: DpTermination,
    pub complete: bool,
    pub seconds: f64,
    /// The front, by increasing false positives.
    pub points: Vec<FrontRow>,
    /// Every tree's point is weakly dominated by one of these; equal to the front's points
    /// when it is complete.
    pub lower_bound: Vec<Errors>,
    /// The best point of each metric.
    pub best: BTreeMap<String, Best>,
    pub references: Vec<Reference>,
    /// The bi-objective search's counters (method `dp`).
    pub search: Option<ParetoStats>,
    /// The solves of the epsilon-constraint method.
    pub solves: Option<Vec<EpsilonSolve>>,
}

/// What the document says about how the front was computed.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontRunInfo {
    pub method: String,
    pub solver: String,
    pub problem: ParetoProblem,
    pub data: DataBlock,
}

impl FrontDocument {
    /// The report of `result`, learned on `sets.train` (two classes, class 1 positive), with
    /// the file each point's tree was written to (`tree_files[i]`, with `--trees`).
    pub fn new(
        result: &FrontResult,
        sets: &Sets,
        info: FrontRunInfo,
        tree_files: &[Option<String>],
    ) -> FrontDocument {
        let train = &sets.train;
        let test = sets.test.as_ref();
        let outcome = &result.outcome;
        let points: Vec<FrontRow> = outcome
            .front
            .iter()
            .enumerate()
            .map(|(i, t)| FrontRow {
                train: Scored::at(outcome.errors(t.point), train),
                splits: t.splits,
                proven: t.proven,
                test: test.map(|set| Scored::of(&t.tree, set)),
                tree_file: tree_files.get(i).cloned().flatten(),
            })
            .collect();
        let lower_bound: Vec<Errors> = outcome
            .lower_bound
            .iter()
            .map(|&p| outcome.errors(p))
            .collect();
        let best = Metric::ALL
            .iter()
            .filter_map(|&m| {
                FrontDocument::best_of(&points, &lower_bound, m, train)
                    .map(|b| (m.key().to_string(), b))
            })
            .collect();
        let references = result
            .references
            .iter()
            .map(|r| Reference {
                name: r.name.clone(),
                train: Scored::of(&r.tree, train),
                splits: r.tree.n_splits(),
                status: r.status.clone(),
                test: test.map(|set| Scored::of(&r.tree, set)),
            })
            .collect();
        FrontDocument {
            command: "pareto".into(),
            method: info.method,
            solver: info.solver,
            depth: info.problem.depth,
            max_splits: info.problem.max_splits,
            thresholds: info.problem.thresholds,
            data: info.data,
            positive_class: train.classes()[1].clone(),
            negative_class: train.classes()[0].clone(),
            positives: train.class_weight_totals()[1],
            negatives: train.class_weight_totals()[0],
            termination: outcome.termination,
            complete: outcome.is_complete(),
            seconds: outcome.seconds,
            points,
            lower_bound,
            best,
            references,
            search: result.solves.is_none().then(|| outcome.stats.clone()),
            solves: result.solves.clone(),
        }
    }

    /// The best point of `metric` (ties: fewest errors, then fewest false positives), with the
    /// bound from the lower-bound front.
    pub fn best_of(
        points: &[FrontRow],
        lower_bound: &[Errors],
        metric: Metric,
        data: &Dataset,
    ) -> Option<Best> {
        let best = points.iter().min_by(|a, b| {
            let (va, vb) = (a.train.metrics[metric.key()], b.train.metrics[metric.key()]);
            let (ea, eb) = (a.train.errors().total(), b.train.errors().total());
            vb.total_cmp(&va)
                .then(ea.total_cmp(&eb))
                .then(a.train.fp.total_cmp(&b.train.fp))
        })?;
        let bound = lower_bound
            .iter()
            .map(|&p| Scored::at(p, data).metrics[metric.key()])
            .fold(f64::NEG_INFINITY, f64::max);
        Some(Best {
            fp: best.train.fp,
            fn_: best.train.fn_,
            value: best.train.metrics[metric.key()],
            bound,
        })
    }

    /// The points as CSV: `fp,fn,splits,proven`, each metric, the same on the test rows with
    /// a test set (`test_` columns), and the tree file with `--trees`.
    pub fn to_csv(&self) -> String {
        let keys: Vec<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
        let with_test = self.points.iter().any(|p| p.test.is_some());
        let with_trees = self.points.iter().any(|p| p.tree_file.is_some());
        let mut header: Vec<String> = ["fp", "fn", "splits", "proven"]
            .iter()
            .chain(&keys)
            .map(|s| s.to_string())
            .collect();
        if with_test {
            header.extend(["test_fp".to_string(), "test_fn".to_string()]);
            header.extend(keys.iter().map(|k| format!("test_{k}")));
        }
        if with_trees {
            header.push("tree_file".into());
        }
        let mut writer = csv::Writer::from_writer(Vec::new());
        let mut rows = vec![header];
        for point in &self.points {
            let mut row = vec![
                point.train.fp.to_string(),
                point.train.fn_.to_string(),
                point.splits.to_string(),
                point.proven.to_string(),
            ];
            row.extend(keys.iter().map(|k| point.train.metrics[*k].to_string()));
            if with_test {
                match &point.test {
                    Some(test) => {
                        row.extend([test.fp.to_string(), test.fn_.to_string()]);
                        row.extend(keys.iter().map(|k| test.metrics[*k].to_string()));
                    }
                    None => row.extend(std::iter::repeat_n(String::new(), 2 + keys.len())),
                }
            }
            if with_trees {
                row.push(point.tree_file.clone().unwrap_or_default());
            }
            rows.push(row);
        }
        for row in rows {
            // Writing to memory cannot fail.
            let _ = writer.write_record(&row);
        }
        writer
            .into_inner()
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default()
    }
}
