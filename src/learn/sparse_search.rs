//! The sparse search ([`crate::sparse`]) as a method: its parameters as given
//! ([`SparseParams`]), checked into a [`SparseSearch`], and its run into an [`Outcome`] with
//! the same report fields as a MILP solve (solver `sparse`; figures a search does not have are
//! `null`) and the search's statistics.
//!
//! The objective is the seed's `R = loss + lambda * leaves`, in the loss's units (for
//! accuracy, the fraction of training rows misclassified), `lambda` the leaf penalty.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Factored, ThresholdMode, FACTORED_WEIGHTS};
use crate::dp::{
    self, DpOptions, DpOutcome, DpProblem, DpProgress, DpTermination, DEFAULT_MEMORY_LIMIT_MB,
};
use crate::error::{Error, Result};
use crate::fair::MAX_FAIR_DEPTH;
use crate::greedy::{cart, CartParams};
use crate::learn::capability::MethodKind;
use crate::learn::dp_search::refuse_units;
use crate::learn::search_constraints::SearchConstraints;
use crate::learn::search_line::SearchLine;
use crate::learn::search_report;
use crate::learn::{LearnOptions, Outcome, WarmStartMode};
pub use crate::score::ClassWeight;
use crate::score::{class_index, class_weight_vector};
use crate::search_core::ProgressSink;
use crate::sparse::{self, Loss, SparseOptions, SparseOutcome, SparseProblem, SparseStats};
use crate::tree::{Tree, MAX_DEPTH};

/// The loss, as `--objective` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SparseObjective {
    #[default]
    Accuracy,
    Balanced,
    Weighted,
    F1,
    Auc,
    Pauc,
}

impl SparseObjective {
    pub fn name(self) -> &'static str {
        match self {
            SparseObjective::Accuracy => "accuracy",
            SparseObjective::Balanced => "balanced",
            SparseObjective::Weighted => "weighted",
            SparseObjective::F1 => "f1",
            SparseObjective::Auc => "auc",
            SparseObjective::Pauc => "pauc",
        }
    }
}

impl fmt::Display for SparseObjective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SparseObjective {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        [
            SparseObjective::Accuracy,
            SparseObjective::Balanced,
            SparseObjective::Weighted,
            SparseObjective::F1,
            SparseObjective::Auc,
            SparseObjective::Pauc,
        ]
        .into_iter()
        .find(|o| o.name() == text)
        .ok_or_else(|| {
            Error::parameter(
                "--objective",
                format!("`{text}` is not one of: accuracy, balanced, weighted, f1, auc, pauc"),
            )
        })
    }
}

/// The sparse search's parameters besides the depth; missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SparseParams {
    /// The loss.
    pub objective: SparseObjective,
    /// The penalty per leaf, in the loss's units (the seed's lambda).
    pub leaf_penalty: f64,
    /// `weighted`: the cost of an error on each listed class (others cost 1).
    pub class_weights: Vec<ClassWeight>,
    /// `pauc`: the largest false positive rate of the partial AUC.
    pub pauc_theta: f64,
    /// F1 and the AUCs: the positive class (default: the second class).
    pub positive_class: Option<String>,
    /// Which midpoints are candidate thresholds.
    pub thresholds: ThresholdMode,
    /// Cap on the search's cache, in MiB.
    pub memory_limit: usize,
}

/// The default leaf penalty: one percent of the loss per leaf.
pub const DEFAULT_LEAF_PENALTY: f64 = 0.01;

impl Default for SparseParams {
    fn default() -> Self {
        SparseParams {
            objective: SparseObjective::Accuracy,
            leaf_penalty: DEFAULT_LEAF_PENALTY,
            class_weights: Vec::new(),
            pauc_theta: 0.1,
            positive_class: None,
            thresholds: ThresholdMode::All,
            memory_limit: DEFAULT_MEMORY_LIMIT_MB,
        }
    }
}

impl SparseParams {
    /// The search with at most `depth` levels (`None`: no cap), once the parameters that do not
    /// depend on the data are checked.
    pub fn check(&self, depth: Option<usize>) -> Result<SparseSearch> {
        if let Some(depth) = depth {
            if depth == 0 || depth > MAX_DEPTH {
                return Err(Error::parameter(
                    "--depth",
                    format!("{depth} is not a tree depth between 1 and {MAX_DEPTH} (or `none`)"),
                ));
            }
        }
        if !(self.leaf_penalty.is_finite() && self.leaf_penalty >= 0.0) {
            return Err(Error::parameter(
                "--leaf-penalty",
                format!("{} is not a finite non-negative number", self.leaf_penalty),
            ));
        }
        if depth.is_none() && self.leaf_penalty <= 0.0 {
            return Err(Error::parameter(
                "--leaf-penalty",
                "must be positive without a depth cap (give --depth D to allow 0)",
            ));
        }
        if !self.class_weights.is_empty()
            && !matches!(
                self.objective,
                SparseObjective::Weighted | SparseObjective::Accuracy
            )
        {
            return Err(Error::parameter(
                "--class-weight",
                "applies to --objective accuracy and weighted only (with --solver sparse)",
            ));
        }
        if self.objective == SparseObjective::Pauc
            && !(self.pauc_theta.is_finite() && self.pauc_theta > 0.0 && self.pauc_theta <= 1.0)
        {
            return Err(Error::parameter(
                "--pauc-theta",
                format!("{} is not a false positive rate in (0, 1]", self.pauc_theta),
            ));
        }
        if self.positive_class.is_some()
            && !matches!(
                self.objective,
                SparseObjective::F1 | SparseObjective::Auc | SparseObjective::Pauc
            )
        {
            return Err(Error::parameter(
                "--positive-class",
                "applies to --objective f1, auc and pauc only",
            ));
        }
        Ok(SparseSearch {
            depth,
            params: self.clone(),
        })
    }
}

/// The sparse search with its checked parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseSearch {
    /// At most this many levels; `None`: no cap.
    pub depth: Option<usize>,
    pub params: SparseParams,
}

impl SparseSearch {
    /// The parameters as reported (`depth` is `null` without a cap).
    pub fn parameters(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(&self.params).unwrap_or_default();
        if let serde_json::Value::Object(fields) = &mut value {
            fields.insert("depth".to_string(), serde_json::json!(self.depth));
        }
        value
    }

    /// The loss on `train`: its classes named, the positive class found.
    pub fn loss(&self, train: &Dataset) -> Result<Loss> {
        let positive = || -> Result<usize> {
            match &self.params.positive_class {
                Some(label) => class_index(train, label, "--positive-class"),
                None => Ok(1),
            }
        };
        Ok(match self.params.objective {
            SparseObjective::Accuracy if self.params.class_weights.is_empty() => Loss::Accuracy,
            SparseObjective::Balanced => Loss::Balanced,
            SparseObjective::Weighted | SparseObjective::Accuracy => Loss::Weighted {
                weights: class_weight_vector(&self.params.class_weights, train, "--class-weight")?,
            },
            SparseObjective::F1 => Loss::F1 {
                positive: positive()?,
            },
            SparseObjective::Auc => Loss::Auc {
                positive: positive()?,
            },
            SparseObjective::Pauc => Loss::PartialAuc {
                positive: positive()?,
                theta: self.params.pauc_theta,
            },
        })
    }

    /// The problem the search solves on `train`.
    pub fn problem(&self, train: &Dataset) -> Result<SparseProblem> {
        let problem = SparseProblem {
            loss: self.loss(train)?,
            leaf_penalty: self.params.leaf_penalty,
            depth: self.depth,
            thresholds: self.params.thresholds,
        };
        problem.check(train)?;
        Ok(problem)
    }

    /// CART of the cap's depth (or the deepest tree milptree holds), over the same thresholds
    /// ([`cart`], on the weighted rows).
    pub fn greedy_tree(&self, train: &Dataset) -> Result<Tree> {
        cart(
            train,
            &CartParams {
                depth: self.depth.unwrap_or(MAX_DEPTH),
                min_leaf: 1,
                thresholds: self.params.thresholds,
            },
        )
    }

    /// The search's options from `options` (time limit, interrupt, threads).
    pub fn options(&self, options: &LearnOptions) -> SparseOptions {
        SparseOptions {
            budget: options.budget.clone(),
            memory_limit_mb: self.params.memory_limit,
            threads: options.threads.unwrap_or(1),
            ..SparseOptions::default()
        }
    }

    /// Runs the search on `train` within the time limit and interrupt of `options`. Row
    /// weights must be whole multiples of one unit per class (whole numbers for the losses of
    /// whole leaf sets): the search runs on the rows repeated by their multiples, each class
    /// cost times its unit (see [`SparseSearch::on_copies`]), and the tree is re-evaluated on
    /// the weighted rows.
    pub fn run(&self, train: &Dataset, options: &LearnOptions) -> Result<Outcome> {
        let (factored, weighted, problem) = self.on_copies(train, None)?;
        let copies = &factored.rows;
        let line = SearchLine::start("sparse", options.budget.limit_seconds(), &options.progress);
        line.say("searching");
        let sparse_options = SparseOptions {
            progress: line.sink(),
            ..self.options(options)
        };
        let found = sparse::solve(copies, &problem, &sparse_options)?;
        drop(line);
        let mut outcome = self.outcome(found, train, &weighted, options.budget.limit_seconds());
        outcome.report.threads = Some(sparse_options.threads);
        Ok(outcome)
    }

    /// The rows the search runs on ([`Dataset::factored_by_class`]), the problem on the
    /// weighted rows `train` (the yardstick of its tree) and the problem on the copies: the same
    /// when every unit is 1; otherwise the additive loss as a weighted one whose class costs
    /// are the weighted rows' times the units, the same fraction of the same total. The losses
    /// of whole leaf sets (F1, the AUCs) count rows, and take whole-number weights only;
    /// fairness too (`limits`).
    fn on_copies<'a>(
        &self,
        train: &'a Dataset,
        limits: Option<&SearchConstraints>,
    ) -> Result<(Factored<'a>, SparseProblem, SparseProblem)> {
        let factored = train.factored_by_class(&MethodKind::Sparse.chosen())?;
        refuse_units(&factored, limits, "--solver sparse")?;
        let (weighted, on_copies) = self.problems_on(train, &factored)?;
        Ok((factored, weighted, on_copies))
    }

    /// The problem on the weighted rows `train` and on their copies `factored` (see
    /// [`SparseSearch::on_copies`]).
    pub fn problems_on(
        &self,
        train: &Dataset,
        factored: &Factored,
    ) -> Result<(SparseProblem, SparseProblem)> {
        let weighted = self.problem(train)?;
        if factored.units_are_one() {
            return Ok((weighted.clone(), weighted));
        }
        let Some(costs) = weighted.loss.class_weights(train) else {
            return Err(Error::parameter(
                "--weight-column",
                format!(
                    "--objective {} counts rows, so it takes whole-number row weights only (a \
                     row of weight w counts as w rows); the additive losses (accuracy, \
                     balanced, weighted) take {FACTORED_WEIGHTS}",
                    weighted.loss.name()
                ),
            ));
        };
        let on_copies = SparseProblem {
            loss: Loss::Weighted {
                weights: factored.scaled(&costs),
            },
            ..weighted.clone()
        };
        on_copies.check(&factored.rows)?;
        Ok((weighted, on_copies))
    }

    /// Whether the search takes every kind of side constraint the searches take: an additive
    /// loss (accuracy, balanced, weighted) does; F1 and the AUCs take forbidden features only.
    pub fn takes_limits(&self) -> bool {
        matches!(
            self.params.objective,
            SparseObjective::Accuracy | SparseObjective::Balanced | SparseObjective::Weighted
        )
    }

    /// [`SparseSearch::run`] under the side constraints `limits`, for an additive loss: with
    /// a depth cap (or the depth `max_leaves - 1`), `loss + lambda * leaves` is the exact
    /// search's weighted errors plus `lambda * W` per split, plus `lambda * W` once, over the
    /// total weight `W` (see [`crate::learn::counterpart`]), so the exact search solves it
    /// under the split budget, the leaf minimum and the rule on features; under fairness, the
    /// search of [`crate::fair`] solves it with the same cost per split, at the depth cap or
    /// the split budget when either is at most [`MAX_FAIR_DEPTH`] (refused by name otherwise).
    ///
    /// A search stopped before it found any tree that meets a cap on the rows of a leaf (with
    /// the rule on features) returns an outcome without a tree
    /// ([`search_report::stopped_without_tree`]).
    pub fn run_under(
        &self,
        train: &Dataset,
        options: &LearnOptions,
        limits: &SearchConstraints,
    ) -> Result<Outcome> {
        let started = std::time::Instant::now();
        let found = self.search_under(train, options, limits);
        let seconds = started.elapsed().as_secs_f64();
        let what = ("sparse", self.parameters(), self.depth.unwrap_or(0));
        search_report::stopped_without_tree(found, what, &options.budget, seconds)
    }

    /// [`SparseSearch::run_under`], an error when it stopped without a tree.
    fn search_under(
        &self,
        train: &Dataset,
        options: &LearnOptions,
        limits: &SearchConstraints,
    ) -> Result<Outcome> {
        if limits.max_leaf_rows.is_some() && !train.copies_count_rows() {
            return Err(Error::parameter(
                "--max-leaf-rows",
                "max_leaf_rows counts rows, whatever their weights; the sparse search holds a \
                 row of weight w as w copies and cannot count rows: with row weights other than \
                 1 it takes no cap on the rows of a leaf (the MILP formulations do)",
            ));
        }
        let (factored, weighted, problem) = self.on_copies(train, Some(limits))?;
        let copies = &factored.rows;
        let weights = problem.loss.class_weights(copies).ok_or_else(|| {
            Error::Internal("a loss of the whole leaf set under side constraints".into())
        })?;
        let min_leaf = limits.min_leaf_rows.unwrap_or(1);
        if !train.copies_count_leaf_rows(min_leaf) {
            return Err(Error::parameter(
                "--min-leaf-rows",
                "counts rows, whatever their weights; the sparse search holds a row of weight w \
                 as w copies and cannot count rows: with row weights it takes no leaf minimum",
            ));
        }
        let depth = self.depth_under(limits)?;
        let total_weight: f64 = copies.labels().iter().map(|&label| weights[label]).sum();
        let penalty = problem.leaf_penalty * total_weight;
        let dp_problem = DpProblem {
            depth,
            max_splits: limits.max_splits,
            thresholds: problem.thresholds,
            class_weights: weights,
            split_cost: penalty,
            min_leaf,
            max_leaf: limits.max_leaf_rows,
        };
        let line = SearchLine::start("sparse", options.budget.limit_seconds(), &options.progress);
        line.say("searching under side constraints");
        let to_objective = move |cost: f64| (cost + penalty) / total_weight;
        let sink = line.sink();
        let search_options = self.options(options);
        let dp_options = DpOptions {
            budget: search_options.budget.clone(),
            memory_limit_mb: search_options.memory_limit_mb,
            progress: ProgressSink::new(move |incumbent, bound| {
                sink.publish(to_objective(incumbent), to_objective(bound))
            }),
            threads: search_options.threads,
            ..DpOptions::default()
        };
        // Under fairness, the search of `crate::fair` with the same cost per split (its tree
        // checked by plain code against `dp_problem` and the bounds).
        let (found, feature_sets) = match limits.solve_fair(copies, &dp_problem, &dp_options)? {
            Some(found) => (found, 0),
            None => {
                let ruled = dp::solve_under(copies, &dp_problem, &limits.rule, &dp_options)?;
                (ruled.outcome, ruled.feature_sets)
            }
        };
        drop(line);
        let fair_search = limits.constraints.fairness.is_some();
        let mut sparse_found = from_exact(found, penalty, total_weight);
        if fair_search {
            sparse_found.stats.search = "fair_search".to_string();
        }
        let weighted = SparseProblem {
            depth: Some(depth),
            ..weighted
        };
        let mut outcome = self.outcome(
            sparse_found,
            train,
            &weighted,
            options.budget.limit_seconds(),
        );
        outcome.report.threads = Some(search_options.threads);
        outcome
            .notes
            .extend(crate::learn::dp_search::feature_sets_note(feature_sets));
        outcome.notes.push(format!(
            "under side constraints the exact search{} solves the sparse problem at depth \
             {depth}, the leaf penalty a cost per split",
            if fair_search { " under fairness" } else { "" }
        ));
        Ok(outcome)
    }

    /// The depth at which the exact search solves the sparse problem under `limits`: the cap,
    /// or without one the split budget of `max_leaves` (a tree of `s` splits is at most `s`
    /// deep). Under fairness, the smaller of the two, which must be one the search under
    /// fairness takes (1 to [`MAX_FAIR_DEPTH`]): a larger one is refused by name, never
    /// reduced.
    fn depth_under(&self, limits: &SearchConstraints) -> Result<usize> {
        if limits.constraints.fairness.is_some() {
            let bounded = match (self.depth, limits.max_splits) {
                (Some(depth), Some(splits)) => Some(depth.min(splits.max(1))),
                (Some(depth), None) => Some(depth),
                (None, Some(splits)) => Some(splits.max(1)),
                (None, None) => None,
            };
            return match bounded {
                Some(depth) if depth <= MAX_FAIR_DEPTH => Ok(depth),
                _ => Err(Error::parameter(
                    "--depth",
                    format!(
                        "the sparse search under fairness (max_parity_gap, \
                         max_opportunity_gap) is solved by the exact search under fairness, \
                         which takes depths 1 to {MAX_FAIR_DEPTH}, and this one has {}: set a \
                         depth of at most {MAX_FAIR_DEPTH} (--depth D) or max_leaves of at most \
                         {} (the MILP formulations take deeper trees)",
                        bounded.map_or("no depth cap".to_string(), |d| format!("depth {d}")),
                        MAX_FAIR_DEPTH + 1
                    ),
                )),
            };
        }
        match (self.depth, limits.max_splits) {
            (Some(depth), _) => Ok(depth),
            (None, Some(splits)) => Ok(splits.clamp(1, MAX_DEPTH)),
            (None, None) => Err(Error::parameter(
                "--depth",
                format!(
                    "the sparse search under {} needs a depth cap (--depth D) or max_leaves",
                    limits.beyond_forbidden()
                ),
            )),
        }
    }

    /// The outcome of a search that found `found` on `train`.
    pub fn outcome(
        &self,
        found: SparseOutcome,
        train: &Dataset,
        problem: &SparseProblem,
        time_limit: Option<f64>,
    ) -> Outcome {
        let mut tree = found.tree;
        tree.learned_by = Some(serde_json::json!({
            "method": "sparse",
            "parameters": self.parameters(),
        }));
        let evaluated = sparse::objective_of(&tree, train, problem);
        let decode_mismatch = search_report::objective_mismatch(found.objective, evaluated);
        let report = search_report::search_report(
            "sparse",
            found.termination,
            (found.objective, found.lower_bound),
            found.seconds,
            &found.trajectory,
            time_limit,
        );
        let mut notes = vec![format!(
            "{} leaves, loss {} ({}), leaf penalty {}",
            found.leaves,
            found.loss,
            problem.loss.name(),
            problem.leaf_penalty
        )];
        if found.stats.search == "whole_tree" && found.termination != DpTermination::Optimal {
            notes.push(
                "the whole-tree search's bound at a limit is the root's hierarchical bound"
                    .to_string(),
            );
        }
        Outcome {
            name: "sparse",
            parameters: self.parameters(),
            depth: self.depth.unwrap_or_else(|| tree.actual_depth()),
            report,
            model: None,
            search: None,
            sparse: Some(found.stats),
            warm_start_mode: WarmStartMode::None,
            solver_options: Vec::new(),
            warm_start_source: None,
            certificate: None,
            warm_start_tree: None,
            warm_start_objective: None,
            evaluated_objective: evaluated,
            decode_mismatch,
            notes,
            post_process: serde_json::Value::Null,
            tree: Some(tree),
            front: None,
            replaced: None,
            side_constraints: serde_json::Value::Null,
        }
    }
}

/// The exact search's outcome `found` of the sparse problem with the penalty `penalty` per
/// split, in the sparse search's terms: `(cost + penalty) / total_weight`, the loss without the
/// splits' penalties.
fn from_exact(found: DpOutcome, penalty: f64, total_weight: f64) -> SparseOutcome {
    let to_objective = |cost: f64| (cost + penalty) / total_weight;
    let splits = found.tree.n_splits() as f64;
    SparseOutcome {
        objective: to_objective(found.objective),
        loss: (found.objective - penalty * splits) / total_weight,
        leaves: found.tree.leaves().len(),
        lower_bound: to_objective(found.lower_bound),
        termination: found.termination,
        seconds: found.seconds,
        stats: SparseStats {
            search: "exact_search".to_string(),
            subproblems: found.stats.subproblems,
            cache_hits: found.stats.cache_hits,
            cache_entries: found.stats.cache_entries,
            cache_evictions: found.stats.cache_evictions,
            peak_memory_bytes: found.stats.peak_memory_bytes,
            bound_pruned: found.stats.bound_pruned,
            initial_objective: to_objective(found.stats.initial_objective),
            greedy_seconds: found.stats.greedy_seconds,
            ..SparseStats::default()
        },
        trajectory: found
            .trajectory
            .iter()
            .map(|point| DpProgress {
                seconds: point.seconds,
                incumbent: to_objective(point.incumbent),
                bound: to_objective(point.bound),
            })
            .collect(),
        tree: found.tree,
    }
}
