//! The front of `milptree pareto --group-column` ([`learn_fair_front`]): every tree of depth 1
//! to 3 that no other beats on both training errors and the gap between the groups of the
//! group column (statistical parity or equal opportunity, the largest difference of two
//! groups' rates), by the exact search of [`crate::fair::front`], under forbidden features and
//! a leaf minimum (counted in rows, whatever their weights), on data with missing values over
//! the copies of the features that have them, until a time limit or an interrupt (the points
//! found then). Each tree on it is
//! evaluated again by plain prediction ([`FairScore::of`]); the figures reported are that
//! evaluation, which must equal what the search counted. The report is [`FairFrontDocument`]
//! (JSON, and CSV by [`FairFrontDocument::to_csv`]).

use std::time::Instant;

use serde::Serialize;

use crate::constraints::fairness::{Fairness, FairnessKind, GroupRate};
use crate::constraints::{evaluate, ConstraintSpec, SideConstraints};
use crate::data::{Dataset, Sets, ThresholdMode};
use crate::error::{Error, Result};
use crate::fair::{self, FairProblem, FairStop};
use crate::learn::DataBlock;
use crate::search_core::Termination;
use crate::tree::missing_copies::MissingCopies;
use crate::tree::Tree;

/// The front asked for.
#[derive(Debug, Clone)]
pub struct FairFrontRequest {
    /// The group column (and whether the tree may split on it), forbidden features, the leaf
    /// minimum and the positive class; no bound on a gap (the front spans them all).
    pub spec: ConstraintSpec,
    /// The gap of the front.
    pub kind: FairnessKind,
    /// 1 to [`crate::fair::MAX_FAIR_DEPTH`].
    pub depth: usize,
    pub thresholds: ThresholdMode,
    pub threads: usize,
    /// When to stop.
    pub stop: FairStop,
}

/// A tree's figures on a set of rows, by plain prediction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FairScore {
    /// The (weighted) rows it misclassifies.
    pub errors: f64,
    pub accuracy: f64,
    /// The gap of the front (`parity_gap` or `opportunity_gap`).
    pub gap: f64,
    pub parity_gap: f64,
    pub opportunity_gap: f64,
    /// Each group's rates.
    pub groups: Vec<GroupRate>,
}

impl FairScore {
    /// `tree` on the rows `fairness` was resolved on (`data`), the gap of `kind`.
    pub fn of(tree: &Tree, data: &Dataset, fairness: &Fairness, kind: FairnessKind) -> FairScore {
        let predicted = tree.predict(data.rows());
        let total: f64 = (0..data.n_rows()).map(|i| data.weight(i)).sum();
        // A fold from 0: a sum over no row would be -0.0.
        let errors: f64 = (0..data.n_rows())
            .filter(|&i| predicted[i] != data.labels()[i])
            .fold(0.0, |sum, i| sum + data.weight(i));
        let values = fairness.values(tree);
        FairScore {
            errors,
            accuracy: if total > 0.0 {
                1.0 - errors / total
            } else {
                0.0
            },
            gap: match kind {
                FairnessKind::Parity => values.parity_gap,
                FairnessKind::Opportunity => values.opportunity_gap,
            },
            parity_gap: values.parity_gap,
            opportunity_gap: values.opportunity_gap,
            groups: values.groups,
        }
    }
}

/// One tree of the front.
#[derive(Debug, Clone)]
pub struct FairFrontTree {
    pub tree: Tree,
    /// Its figures on the training rows.
    pub train: FairScore,
    /// The features it splits on.
    pub features_used: Vec<String>,
}

/// The front found.
#[derive(Debug, Clone)]
pub struct FairFront {
    /// By increasing gap (and decreasing errors): the best tree of gap 0 first, the tree of
    /// fewest errors last.
    pub trees: Vec<FairFrontTree>,
    /// The constraints as checked on the training rows (fairness under a bound of 1).
    pub constraints: SideConstraints,
    pub seconds: f64,
    /// `Optimal` when the front is complete; otherwise what stopped it (the trees are the
    /// points found, each the fewest errors at a gap at most its own).
    pub termination: Termination,
}

impl FairFront {
    /// The features no tree of the front splits on, by name (the group column's among them
    /// unless allowed).
    pub fn forbidden_names(&self) -> Vec<String> {
        let names = &self.constraints.feature_names;
        (0..names.len())
            .filter(|&j| self.constraints.forbidden[j])
            .map(|j| names[j].clone())
            .collect()
    }
}

/// `request.spec` with the one bound the search needs (1, which every tree meets).
fn spec_with_bound(request: &FairFrontRequest) -> ConstraintSpec {
    let mut spec = request.spec.clone();
    match request.kind {
        FairnessKind::Parity => spec.max_parity_gap = Some(1.0),
        FairnessKind::Opportunity => spec.max_opportunity_gap = Some(1.0),
    }
    spec
}

/// The exact front of `request` on `train`, each tree checked by plain evaluation. Refused by
/// name: other than two classes, a group column missing from the data or of one value, depths
/// other than 1 to 3, row weights that are not whole numbers. On data with missing values the
/// search runs over the copies of the features that have them, so that each split learns where
/// the rows missing its feature go (as `solve` learns it), and each tree is mapped back.
pub fn learn_fair_front(train: &Dataset, request: &FairFrontRequest) -> Result<FairFront> {
    let started = Instant::now();
    if train.n_classes() != 2 {
        return Err(Error::parameter(
            "--group-column",
            format!(
                "the front of errors against the gap between groups takes two classes (a \
                 positive one and the other), and the labels have {} distinct values",
                train.n_classes()
            ),
        ));
    }
    let spec = spec_with_bound(request);
    let constraints = spec.resolve(train)?;
    let fairness = constraints
        .fairness
        .clone()
        .ok_or_else(|| Error::Internal("a front of fairness without a group column".into()))?;
    let copies = MissingCopies::of(train)?;
    let (searched, origins) = match &copies {
        Some(copies) => (copies.data(), copies.origins()),
        None => (train, (0..train.n_features()).collect()),
    };
    let searched_fairness = match &copies {
        Some(_) => Fairness::resolve(&spec, searched)?
            .ok_or_else(|| Error::Internal("a front of fairness without a group column".into()))?,
        None => fairness.clone(),
    };
    let problem = FairProblem {
        depth: request.depth,
        thresholds: request.thresholds,
        class_weights: vec![1.0; 2],
        split_cost: 0.0,
        min_leaf: spec.min_leaf_rows.unwrap_or(1),
        max_leaf: None,
        max_splits: None,
        forbidden: origins.iter().map(|&j| constraints.forbidden[j]).collect(),
        depths: Vec::new(),
        bounds: true,
    };
    let found = fair::front(
        searched,
        &searched_fairness,
        &problem,
        request.threads,
        &request.stop,
    )?;
    let mut trees: Vec<FairFrontTree> = Vec::with_capacity(found.points.len());
    for point in found.points {
        let tree = match &copies {
            Some(copies) => copies.original_tree(&point.tree, train)?,
            None => point.tree,
        };
        let score = FairScore::of(&tree, train, &fairness, request.kind);
        // The leaf minimum counts rows whatever their weights (as the search counts them):
        // the constraints are checked on the tree's rows counted once each.
        let mut rows_counted = tree.clone();
        rows_counted.recount(train.rows(), train.labels())?;
        let values = evaluate(&constraints, &rows_counted);
        let tol = 1e-9 * point.objective.abs().max(1.0);
        let problem_with = |what: String| {
            Err(Error::Internal(format!(
                "a tree of the front of fairness (errors {}, gap {}): {what}",
                point.objective, point.gap
            )))
        };
        if (score.errors - point.objective).abs() > tol {
            return problem_with(format!("it misclassifies {} rows", score.errors));
        }
        if (score.gap - point.gap).abs() > 1e-9 {
            return problem_with(format!("its gap is {}", score.gap));
        }
        if let Some(broken) = values.broken.first() {
            return problem_with(broken.clone());
        }
        if tree.actual_depth() > request.depth {
            return problem_with(format!("it is deeper than {}", request.depth));
        }
        if trees
            .last()
            .is_some_and(|last| last.train.errors <= score.errors || last.train.gap >= score.gap)
        {
            return problem_with("the one before it does as well on both".to_string());
        }
        trees.push(FairFrontTree {
            tree,
            train: score,
            features_used: values.features_used,
        });
    }
    Ok(FairFront {
        trees,
        constraints,
        seconds: started.elapsed().as_secs_f64(),
        termination: found.termination,
    })
}

/// One point of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FairFrontRow {
    /// On the training rows.
    #[serde(flatten)]
    pub train: FairScore,
    pub splits: usize,
    pub features_used: Vec<String>,
    /// The same tree on the test rows, with a test set (when both groups are in it).
    pub test: Option<FairScore>,
    /// The tree's file, with `--out-dir`.
    pub tree_file: Option<String>,
}

/// The report of `milptree pareto --group-column`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FairFrontDocument {
    /// `pareto`.
    pub command: String,
    /// `fairness`: errors against the gap between groups.
    pub front: String,
    /// `dp`, the exact search.
    pub method: String,
    /// The gap: `parity` or `opportunity`.
    pub fairness: FairnessKind,
    pub group_column: String,
    pub groups: Vec<String>,
    pub allow_group_as_feature: bool,
    pub positive_class: String,
    pub depth: usize,
    pub thresholds: ThresholdMode,
    pub forbidden: Vec<String>,
    pub min_leaf_rows: Option<usize>,
    pub data: DataBlock,
    /// The (weighted) training rows.
    pub rows: f64,
    /// Whether the front is complete (false: a time limit or an interrupt stopped it, and
    /// the points are those found).
    pub complete: bool,
    /// `optimal`, `time_limit` or `interrupted`.
    pub termination: Termination,
    pub seconds: f64,
    /// By increasing gap: the best tree of gap 0 first, the tree of fewest errors last.
    pub points: Vec<FairFrontRow>,
}

impl FairFrontDocument {
    /// The report of `front`, learned for `request` on `sets.train`, with the file of each
    /// point's tree.
    pub fn new(
        front: &FairFront,
        request: &FairFrontRequest,
        sets: &Sets,
        data: DataBlock,
        tree_files: &[Option<String>],
    ) -> Result<FairFrontDocument> {
        let fairness =
            front.constraints.fairness.as_ref().ok_or_else(|| {
                Error::Internal("a front of fairness without a group column".into())
            })?;
        // The test rows' groups, when they hold both (a rate of an empty group is undefined).
        let test = sets.test.as_ref().and_then(|set| {
            Fairness::resolve(&spec_with_bound(request), set)
                .ok()
                .flatten()
                .map(|f| (set, f))
        });
        let points = front
            .trees
            .iter()
            .enumerate()
            .map(|(i, t)| FairFrontRow {
                train: t.train.clone(),
                splits: t.tree.n_splits(),
                features_used: t.features_used.clone(),
                test: test
                    .as_ref()
                    .map(|(set, f)| FairScore::of(&t.tree, set, f, request.kind)),
                tree_file: tree_files.get(i).cloned().flatten(),
            })
            .collect();
        Ok(FairFrontDocument {
            command: "pareto".to_string(),
            front: "fairness".to_string(),
            method: "dp".to_string(),
            fairness: request.kind,
            group_column: fairness.group_column.clone(),
            groups: fairness.groups.clone(),
            allow_group_as_feature: fairness.allow_group_as_feature,
            positive_class: fairness.positive_class.clone(),
            depth: request.depth,
            thresholds: request.thresholds,
            forbidden: front.forbidden_names(),
            min_leaf_rows: request.spec.min_leaf_rows,
            data,
            rows: (0..sets.train.n_rows()).map(|i| sets.train.weight(i)).sum(),
            complete: front.termination == Termination::Optimal,
            termination: front.termination,
            seconds: front.seconds,
            points,
        })
    }

    /// The points as CSV: errors, accuracy, the gap, both gaps, each group's positive rate,
    /// splits, the test figures with a test set, and the tree file.
    pub fn to_csv(&self) -> String {
        let with_test = self.points.iter().any(|p| p.test.is_some());
        let mut header = vec![
            "errors".to_string(),
            "accuracy".to_string(),
            "gap".to_string(),
            "parity_gap".to_string(),
            "opportunity_gap".to_string(),
        ];
        header.extend(self.groups.iter().map(|g| format!("positive_rate_{g}")));
        header.push("splits".to_string());
        if with_test {
            header.extend(["test_accuracy".to_string(), "test_gap".to_string()]);
        }
        header.push("tree_file".to_string());
        let mut text = header.join(",") + "\n";
        for point in &self.points {
            let mut cells = vec![
                point.train.errors.to_string(),
                point.train.accuracy.to_string(),
                point.train.gap.to_string(),
                point.train.parity_gap.to_string(),
                point.train.opportunity_gap.to_string(),
            ];
            cells.extend(
                point
                    .train
                    .groups
                    .iter()
                    .map(|g| g.positive_rate.to_string()),
            );
            cells.push(point.splits.to_string());
            if with_test {
                let test = point.test.as_ref();
                cells.push(test.map_or_else(String::new, |t| t.accuracy.to_string()));
                cells.push(test.map_or_else(String::new, |t| t.gap.to_string()));
            }
            cells.push(point.tree_file.clone().unwrap_or_default());
            text += &(cells.join(",") + "\n");
        }
        text
    }
}
