//! The exact search ([`crate::dp`]) as a method: its parameters as given ([`DpParams`]),
//! checked into a [`DpSearch`], and its run into an [`Outcome`] with the same report fields as
//! a MILP solve (solver `dp`; figures a search does not have, such as branch-and-bound nodes or
//! a model size, are `null`) and the search's statistics.
//!
//! The objective is the one OCT and BinOCT minimise, in units of weighted training errors:
//! the class-weighted misclassified rows plus `alpha * L^` per split, `L^` the weighted errors
//! of the majority-class baseline (so `alpha` means what it means for OCT, whose objective is
//! this one divided by `L^`). Or it is a metric of binary classification that is not a sum
//! over leaves (F1, Matthews correlation, Fowlkes-Mallows; [`DpObjective`]): the search then
//! computes the Pareto front of (false positives, false negatives) ([`crate::pareto`]) and
//! returns its best tree for the metric, reported as a loss (`1 - metric`).

use serde::{Deserialize, Serialize};

use crate::data::{Dataset, Factored, ThresholdMode, FACTORED_WEIGHTS};
use crate::dp::{self, DpOptions, DpProblem, DpProgress, DEFAULT_MEMORY_LIMIT_MB};
use crate::error::{Error, Result};
use crate::greedy::{cart, CartParams};
use crate::learn::capability::MethodKind;
use crate::learn::search_constraints::SearchConstraints;
use crate::learn::search_line::SearchLine;
use crate::learn::search_report;
use crate::learn::{DecodeMismatch, LearnOptions, Outcome, WarmStartMode};
use crate::pareto::{self, Confusion, Metric, ParetoOptions, ParetoProblem, ParetoStats};
use crate::score::{class_weight_vector, whole_as_integer, ClassWeight, Objective};
use crate::setting::Named;
use crate::tree::{Tree, MAX_DEPTH};

/// What the exact search optimises: class-weighted errors (`accuracy`, `balanced`), or a
/// metric of binary classification maximised over the front of false positives and false
/// negatives (`f1`, `mcc`, `fowlkes-mallows`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DpObjective {
    #[default]
    Accuracy,
    Balanced,
    F1,
    Mcc,
    FowlkesMallows,
}

impl DpObjective {
    /// The class weights of a weighted-error objective.
    pub fn weights(self) -> Option<Objective> {
        match self {
            DpObjective::Accuracy => Some(Objective::Accuracy),
            DpObjective::Balanced => Some(Objective::Balanced),
            DpObjective::F1 | DpObjective::Mcc | DpObjective::FowlkesMallows => None,
        }
    }

    /// The metric of a front objective.
    pub fn metric(self) -> Option<Metric> {
        match self {
            DpObjective::F1 => Some(Metric::F1),
            DpObjective::Mcc => Some(Metric::Mcc),
            DpObjective::FowlkesMallows => Some(Metric::FowlkesMallows),
            DpObjective::Accuracy | DpObjective::Balanced => None,
        }
    }
}

impl From<Objective> for DpObjective {
    fn from(objective: Objective) -> DpObjective {
        match objective {
            Objective::Accuracy => DpObjective::Accuracy,
            Objective::Balanced => DpObjective::Balanced,
        }
    }
}

/// What a metric objective's run adds to the report: the front and its best point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontSummary {
    /// The metric maximised (`f1`, `mcc`, `fowlkes-mallows`).
    pub metric: Metric,
    /// Its value on the training rows for the returned tree.
    pub value: f64,
    /// The most any tree can reach (from the lower-bound front; the value when complete).
    pub bound: f64,
    /// The class the metric takes as positive.
    pub positive_class: String,
    /// The returned tree's false positives and false negatives, in weight.
    #[serde(serialize_with = "whole_as_integer")]
    pub fp: f64,
    #[serde(rename = "fn", serialize_with = "whole_as_integer")]
    pub fn_: f64,
    /// Points on the front (found so far, when stopped).
    pub front_size: usize,
    /// Whether the front is complete (the tree proven optimal for the metric).
    pub complete: bool,
    /// The bi-objective search's counters.
    pub search: ParetoStats,
}

/// The exact search's parameters besides the depth; missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DpParams {
    /// What an error costs, or the metric maximised.
    pub objective: DpObjective,
    /// Cost of each split, in units of the baseline's (weighted) errors, as OCT's `alpha`.
    pub alpha: f64,
    /// A leaf that receives rows receives at least this many.
    pub min_leaf: usize,
    /// Which midpoints are candidate thresholds.
    pub thresholds: ThresholdMode,
    /// At most this many split nodes (`None`: only the depth limits them).
    pub max_splits: Option<usize>,
    /// Cap on the search's cache, in MiB (past it, entries are evicted).
    pub memory_limit: usize,
    /// The positive class of a metric objective (default: the second class); with more than
    /// two classes, the others are learned together as `not <class>`.
    pub positive_class: Option<String>,
    /// The user's cost of an error per class, a factor on the objective's (classes not
    /// listed: 1). Accuracy and balanced only.
    pub class_weights: Vec<ClassWeight>,
}

impl Default for DpParams {
    fn default() -> Self {
        DpParams {
            objective: DpObjective::Accuracy,
            alpha: 0.0,
            min_leaf: 1,
            thresholds: ThresholdMode::All,
            max_splits: None,
            memory_limit: DEFAULT_MEMORY_LIMIT_MB,
            positive_class: None,
            class_weights: Vec::new(),
        }
    }
}

impl DpParams {
    /// The search at `depth`, once every parameter is checked (the leaf minimum against the
    /// data is checked when the search starts).
    pub fn check(&self, depth: usize) -> Result<DpSearch> {
        if depth == 0 || depth > MAX_DEPTH {
            return Err(Error::parameter(
                "--depth",
                format!("{depth} is not a tree depth between 1 and {MAX_DEPTH}"),
            ));
        }
        if !(self.alpha.is_finite() && self.alpha >= 0.0) {
            return Err(Error::parameter(
                "--alpha",
                format!("{} is not a finite non-negative number", self.alpha),
            ));
        }
        if self.min_leaf == 0 {
            return Err(Error::parameter(
                "--min-leaf",
                "0 is not a number of rows: use 1 (no restriction) or more",
            ));
        }
        if let Some(metric) = self.objective.metric() {
            for (given, name) in [
                (self.alpha != 0.0, "--alpha"),
                (self.min_leaf != 1, "--min-leaf"),
                (!self.class_weights.is_empty(), "--class-weight"),
            ] {
                if given {
                    return Err(Error::parameter(
                        name,
                        format!(
                            "does not apply to --objective {metric}: its search weighs every \
                             tree of the depth, with no split cost, leaf minimum or class weight"
                        ),
                    ));
                }
            }
        }
        Ok(DpSearch {
            depth,
            params: self.clone(),
        })
    }
}

/// The exact search at a depth, with its checked parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct DpSearch {
    pub depth: usize,
    pub params: DpParams,
}

/// The weighted errors of the majority-class baseline under the class costs `weights` (and
/// the row weights of `data`).
pub fn baseline_errors(data: &Dataset, weights: &[f64]) -> f64 {
    let weighted: Vec<f64> = data
        .class_weight_totals()
        .iter()
        .zip(weights)
        .map(|(&total, w)| total * w)
        .collect();
    weighted.iter().sum::<f64>() - weighted.iter().copied().fold(0.0, f64::max)
}

impl DpSearch {
    /// The parameters as reported (depth included).
    pub fn parameters(&self) -> serde_json::Value {
        crate::formulation::parameters_json(self.depth, &self.params)
    }

    /// The data the search learns from: two classes, the positive one second, for a metric
    /// objective or a named positive class (see [`pareto::binary_data`]); as given otherwise.
    pub fn prepare(&self, data: Dataset) -> Result<Dataset> {
        if self.params.objective.metric().is_some() || self.params.positive_class.is_some() {
            pareto::binary_data(&data, self.params.positive_class.as_deref())
        } else {
            Ok(data)
        }
    }

    /// The problem the search solves on the training data `train` (for a metric objective,
    /// the accuracy problem of the same depth and limits).
    pub fn problem(&self, train: &Dataset) -> DpProblem {
        let factors: Vec<f64> = (0..train.n_classes())
            .map(|k| {
                self.params
                    .class_weights
                    .iter()
                    .rev()
                    .find(|given| given.label == train.classes()[k])
                    .map_or(1.0, |given| given.weight)
            })
            .collect();
        let class_weights: Vec<f64> = self
            .params
            .objective
            .weights()
            .unwrap_or(Objective::Accuracy)
            .class_weights(train)
            .iter()
            .zip(&factors)
            .map(|(cost, factor)| cost * factor)
            .collect();
        let split_cost = self.params.alpha * baseline_errors(train, &class_weights);
        DpProblem {
            depth: self.depth,
            max_splits: self.params.max_splits,
            thresholds: self.params.thresholds,
            class_weights,
            split_cost,
            min_leaf: self.params.min_leaf,
            max_leaf: None,
        }
    }

    /// CART of the same depth, leaf minimum and thresholds ([`cart`], on the weighted rows).
    pub fn greedy_tree(&self, train: &Dataset) -> Result<Tree> {
        cart(
            train,
            &CartParams {
                depth: self.depth,
                min_leaf: self.params.min_leaf,
                thresholds: self.params.thresholds,
            },
        )
    }

    /// Runs the search on `train` within the time limit and interrupt of `options`. Row
    /// weights must be whole multiples of one unit per class: the search holds each row once,
    /// counting it its multiple, with each class cost times its unit (see
    /// [`Dataset::multiplied_by_class`]; under fairness the rows repeated by their multiples,
    /// [`Dataset::factored_by_class`]), and the tree is re-evaluated on the weighted rows.
    pub fn run(&self, train: &Dataset, options: &LearnOptions) -> Result<Outcome> {
        self.run_under(train, options, None)
    }

    /// [`DpSearch::run`] under the side constraints `limits` (an objective that counts
    /// errors): the search's problem takes their split budget and leaf minimum, and the search
    /// their rule on features ([`dp::solve_under`]); under fairness the search is
    /// [`crate::fair`]'s ([`SearchConstraints::solve_fair`]).
    ///
    /// A search stopped before it found any tree that meets a cap on the rows of a leaf (with
    /// the rule on features) returns an outcome without a tree
    /// ([`search_report::stopped_without_tree`]).
    pub fn run_under(
        &self,
        train: &Dataset,
        options: &LearnOptions,
        limits: Option<&SearchConstraints>,
    ) -> Result<Outcome> {
        let started = std::time::Instant::now();
        let found = self.search_under(train, options, limits);
        let seconds = started.elapsed().as_secs_f64();
        let what = ("dp", self.parameters(), self.depth);
        search_report::stopped_without_tree(found, what, &options.budget, seconds)
    }

    /// [`DpSearch::run_under`], an error when it stopped without a tree.
    fn search_under(
        &self,
        train: &Dataset,
        options: &LearnOptions,
        limits: Option<&SearchConstraints>,
    ) -> Result<Outcome> {
        class_weight_vector(&self.params.class_weights, train, "--class-weight")?;
        let mut limited = self.clone();
        if let Some(limits) = limits {
            let mut problem = self.problem(train);
            limits.limit(&mut problem);
            limited.params.max_splits = problem.max_splits;
            limited.params.min_leaf = problem.min_leaf;
        }
        if !train.copies_count_leaf_rows(limited.params.min_leaf) {
            return Err(Error::parameter(
                "--min-leaf",
                "--min-leaf and min_leaf_rows count rows, whatever their weights; the exact \
                 search counts a row of weight w as w rows (w/u with a unit u per class) and \
                 bounds its subtrees by that count: with row weights it takes a leaf minimum of \
                 1 only, unless each class's rows weigh one value (OCT and CART take both)",
            ));
        }
        if limits.is_some_and(|l| l.max_leaf_rows.is_some()) && !train.copies_count_rows() {
            return Err(Error::parameter(
                "--max-leaf-rows",
                "max_leaf_rows counts rows, whatever their weights; the exact search counts a \
                 row of weight w as w rows (w/u with a unit u per class) and bounds its \
                 subtrees by that count: with row weights other than one value per class it \
                 takes no cap on the rows of a leaf (the MILP formulations do)",
            ));
        }
        if let Some(metric) = self.params.objective.metric() {
            // The front counts false positives and false negatives in units of each class's
            // row weights (see `pareto::solve`).
            if let Some(refusal) = train.refuses_factoring(&Named {
                command_line: format!("--objective {metric}"),
                python: format!("objective='{metric}'"),
            }) {
                return Err(refusal);
            }
            return self.run_front(metric, train, options);
        }
        // The search counts each row its multiple of its class's unit; the fair search counts
        // rows in each group's rates, and runs on the rows repeated by their multiples.
        let fairness = limits.is_some_and(|l| l.constraints.fairness.is_some());
        let factored = if fairness {
            train.factored_by_class(&MethodKind::Dp.chosen())?
        } else {
            train.multiplied_by_class(&MethodKind::Dp.chosen())?
        };
        refuse_units(&factored, limits, "--solver dp")?;
        let searched = &factored.rows;
        // The problem on the weighted rows (its class costs and baseline are the weights'),
        // and on the searched rows, where each class cost is times its unit.
        let mut weighted = limited.problem(train);
        if let Some(limits) = limits {
            limits.limit(&mut weighted);
        }
        let problem = DpProblem {
            class_weights: factored.scaled(&weighted.class_weights),
            ..weighted.clone()
        };
        let line = SearchLine::start("dp", options.budget.limit_seconds(), &options.progress);
        let dp_options = DpOptions {
            budget: options.budget.clone(),
            memory_limit_mb: self.params.memory_limit,
            progress: line.sink(),
            threads: options.threads.unwrap_or(1),
            ..DpOptions::default()
        };
        let fair = match limits {
            Some(limits) => limits.solve_fair(searched, &problem, &dp_options)?,
            None => None,
        };
        let fair_search = fair.is_some();
        let (found, feature_sets) = match fair {
            Some(found) => (found, 0),
            None => {
                let ruled = dp::solve_under(
                    searched,
                    &problem,
                    &limits.map(|l| l.rule.clone()).unwrap_or_default(),
                    &dp_options,
                )?;
                (ruled.outcome, ruled.feature_sets)
            }
        };
        drop(line);
        let passes_note = passes_note(&found, self.depth);
        let mut tree = found.tree;
        tree.learned_by = Some(serde_json::json!({
            "method": "dp",
            "parameters": self.parameters(),
        }));
        let evaluated = dp::objective_of(&tree, train, &weighted);
        let decode_mismatch = search_report::objective_mismatch(found.objective, evaluated);
        let mut report = search_report::search_report(
            "dp",
            found.termination,
            (found.objective, found.lower_bound),
            found.seconds,
            &found.trajectory,
            options.budget.limit_seconds(),
        );
        report.threads = Some(options.threads.unwrap_or(1));
        let mut notes = feature_sets_note(feature_sets);
        notes.extend(passes_note);
        Ok(Outcome {
            name: "dp",
            parameters: self.parameters(),
            depth: self.depth,
            report,
            model: None,
            // The fair search keeps no cache and counts no subproblems.
            search: (!fair_search).then_some(found.stats),
            sparse: None,
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
        })
    }

    /// A metric objective: the front of false positives and false negatives, and its best tree
    /// for `metric`, reported as the loss `1 - metric`.
    fn run_front(
        &self,
        metric: Metric,
        train: &Dataset,
        options: &LearnOptions,
    ) -> Result<Outcome> {
        let problem = ParetoProblem {
            depth: self.depth,
            max_splits: self.params.max_splits,
            thresholds: self.params.thresholds,
        };
        let line = SearchLine::start(
            "dp (front)",
            options.budget.limit_seconds(),
            &options.progress,
        );
        line.say("searching the front");
        let found = pareto::solve(
            train,
            &problem,
            &ParetoOptions {
                budget: options.budget.clone(),
                memory_limit_mb: self.params.memory_limit,
                threads: options.threads.unwrap_or(1),
                ..ParetoOptions::default()
            },
        )?;
        drop(line);
        let best = found
            .best(metric)
            .ok_or_else(|| Error::Internal("the front has no point".into()))?;
        let value = found.value(metric, best.point);
        let bound = found.bound(metric);
        let mut tree = best.tree.clone();
        tree.learned_by = Some(serde_json::json!({
            "method": "dp",
            "parameters": self.parameters(),
        }));
        let predicted = tree.predict(train.rows());
        let evaluated = 1.0
            - metric.value(Confusion::weighted(
                &predicted,
                train.labels(),
                train.weights(),
                1,
            ));
        let objective = 1.0 - value;
        let decode_mismatch = ((evaluated - objective).abs() > 1e-9).then(|| DecodeMismatch {
            solver_objective: objective,
            evaluated_objective: evaluated,
            message: format!(
                "the front's best point has {metric} {value}, but its tree scores {}",
                1.0 - evaluated
            ),
        });
        let best_bound = (1.0 - bound).min(objective);
        let mut report = search_report::search_report(
            "dp",
            found.termination,
            (objective, best_bound),
            found.seconds,
            &[DpProgress {
                seconds: found.seconds,
                incumbent: objective,
                bound: best_bound,
            }],
            options.budget.limit_seconds(),
        );
        report.threads = Some(options.threads.unwrap_or(1));
        // The front search records no incumbents along the way.
        report.time_to_first_incumbent = None;
        report.first_incumbent = None;
        let front = FrontSummary {
            metric,
            value,
            bound,
            positive_class: train.classes()[1].clone(),
            fp: found.errors(best.point).fp,
            fn_: found.errors(best.point).fn_,
            front_size: found.front.len(),
            complete: found.is_complete(),
            search: found.stats.clone(),
        };
        Ok(Outcome {
            name: "dp",
            parameters: self.parameters(),
            depth: self.depth,
            report,
            model: None,
            search: None,
            warm_start_mode: WarmStartMode::None,
            solver_options: Vec::new(),
            warm_start_source: None,
            certificate: None,
            warm_start_tree: None,
            warm_start_objective: None,
            evaluated_objective: Some(evaluated),
            decode_mismatch,
            notes: Vec::new(),
            post_process: serde_json::Value::Null,
            tree: Some(tree),
            sparse: None,
            front: Some(front),
            replaced: None,
            side_constraints: serde_json::Value::Null,
        })
    }
}

/// Refuses what counts rows on the copies of `factored` when a unit is not 1 (the copies then
/// count units, not weight): fairness, whose rates are over the rows' weights. `method` names
/// the search.
pub fn refuse_units(
    factored: &Factored,
    limits: Option<&SearchConstraints>,
    method: &str,
) -> Result<()> {
    if factored.units_are_one() || limits.is_none_or(|l| l.constraints.fairness.is_none()) {
        return Ok(());
    }
    Err(Error::parameter(
        "--weight-column",
        format!(
            "{method} under fairness takes whole-number row weights only (a row of weight w \
             counts as w rows in each group's rates); without fairness it takes \
             {FACTORED_WEIGHTS}"
        ),
    ))
}

/// The note of a search under a count or a budget of features: how many feature sets it
/// searched one by one (none when the search over every allowed feature settled it).
/// What the limited-discrepancy passes proved, when the search stopped before it proved its
/// tree optimal and a pass ran to its end ([`dp::discrepancy_claim`]).
fn passes_note(found: &dp::DpOutcome, depth: usize) -> Option<String> {
    let allowance = found.stats.discrepancy_proven?;
    (found.termination != dp::DpTermination::Optimal).then(|| {
        format!(
            "stopped before the optimum was proven; what the search proved: {}",
            dp::discrepancy_claim(depth, allowance)
        )
    })
}

pub fn feature_sets_note(feature_sets: usize) -> Vec<String> {
    if feature_sets == 0 {
        return Vec::new();
    }
    vec![format!(
        "under max_features or budget: the best of the searches over {feature_sets} feature \
         sets (each largest set allowed, bounded by the search over every allowed feature)"
    )]
}
