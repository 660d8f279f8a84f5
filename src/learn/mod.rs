//! Learning a tree: the method layer above the formulations and solvers.
//!
//! A [`Method`] is one way to learn a tree: a MILP formulation on a solver, or the exact
//! dynamic-programming search ([`dp_search`]), or the sparse search ([`sparse_search`]). A new method plugs in as a variant here, with
//! its parameters type and its run returning an [`Outcome`]. [`learn`] is the one entry point: it takes the training
//! data (already prepared for the method with [`Method::prepare`]) and [`LearnOptions`], chooses
//! the warm start ([`WarmStartMode`]), runs the method, and returns an [`Outcome`] whose tree
//! has been re-evaluated by plain code. [`SolveDocument`] is the one typed report made from an
//! outcome: `milptree solve --json` prints it, experiments store it and read it back.
//!
//! - [`warm_start`]: the warm-start modes;
//! - [`milp`]: running a MILP formulation (build, encode, solve, decode, check);
//! - [`milp_method`]: a formulation as a method: warm start, run, certificate;
//! - [`counterpart`], [`certificate`]: the exact search's version of a formulation's problem,
//!   and the certificate of a MILP result against it;
//! - [`dp_search`]: running the exact search;
//! - [`sparse_search`]: running the sparse search (a penalty per leaf, GOSDT's losses);
//! - [`outcome`]: what a run produced; [`document`]: the report; [`provenance`]: what a tree
//!   file records of the run;
//! - [`missing`]: learning on data with missing values, for every method;
//! - [`search_constraints`]: side constraints in the exact and sparse searches and the
//!   certificate;
//! - [`front`]: the front of false positives and false negatives, by the bi-objective search
//!   or by a formulation's [`epsilon`]-constraint solves, its settings ([`front_settings`]),
//!   its run's pieces shared by its callers ([`front_run`]) and its report ([`front_document`]).

pub mod capability;
pub mod certificate;
pub mod counterpart;
pub mod document;
pub mod dp_search;
pub mod epsilon;
pub mod fair_front;
pub mod front;
pub mod front_document;
pub mod front_run;
pub mod front_settings;
pub mod milp;
pub mod milp_method;
pub mod missing;
pub mod objective;
pub mod outcome;
pub mod provenance;
pub mod rashomon_problem;
pub mod search_constraints;
mod search_fair;
pub mod search_line;
pub mod search_paths;
mod search_report;
pub mod search_rows;
pub mod separation;
pub mod settings;
pub mod sparse_search;
pub mod spec;
mod subtree_bounds;
pub mod warm_start;

pub use document::{DataBlock, OneSidedSplit, SolveDocument};
pub use dp_search::{DpObjective, DpParams, DpSearch, FrontSummary};
pub use outcome::{
    objectives_agree, DecodeMismatch, ModelFacts, Outcome, ReplacedTree, TreeSource,
};
pub use sparse_search::{SparseParams, SparseSearch};
pub use spec::MethodSpec;
pub use warm_start::WarmStartMode;

use std::time::Duration;

use crate::budget::Budget;
use crate::data::Dataset;
use crate::error::Result;
use crate::formulation::AnyFormulation;
use crate::solver::{Progress, SolverKind};
use crate::tree::Tree;

/// A way to learn a tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Method {
    /// A MILP formulation solved by a MIP solver.
    Milp {
        formulation: AnyFormulation,
        solver: SolverKind,
    },
    /// The exact dynamic-programming search.
    Dp(DpSearch),
    /// The sparse search: a penalty per leaf instead of a depth.
    Sparse(SparseSearch),
}

impl Method {
    /// The formulation's name (`oct`, ...), or `dp`.
    pub fn name(&self) -> &'static str {
        match self {
            Method::Milp { formulation, .. } => formulation.name(),
            Method::Dp(_) => "dp",
            Method::Sparse(_) => "sparse",
        }
    }

    /// The depth of the trees the method learns.
    pub fn depth(&self) -> usize {
        match self {
            Method::Milp { formulation, .. } => formulation.depth(),
            Method::Dp(search) => search.depth,
            Method::Sparse(search) => search.depth.unwrap_or(crate::tree::MAX_DEPTH),
        }
    }

    /// The parameters as reported.
    pub fn parameters(&self) -> serde_json::Value {
        match self {
            Method::Milp { formulation, .. } => formulation.parameters(),
            Method::Dp(search) => search.parameters(),
            Method::Sparse(search) => search.parameters(),
        }
    }

    /// The solver that runs the method (`highs`, `cbc`, `dp`).
    pub fn solver_name(&self) -> &'static str {
        match self {
            Method::Milp { solver, .. } => solver.name(),
            Method::Dp(_) => "dp",
            Method::Sparse(_) => "sparse",
        }
    }

    /// The data the method learns from (e.g. OLCT relabels multiclass data), for training and
    /// test data alike.
    pub fn prepare(&self, data: Dataset) -> Result<Dataset> {
        match self {
            Method::Milp { formulation, .. } => formulation.prepare(data),
            Method::Dp(search) => search.prepare(data),
            Method::Sparse(_) => Ok(data),
        }
    }

    /// The method's greedy tree (CART; the greedy logistic tree for OLCT): the `greedy` warm
    /// start, and the baseline experiments compare with.
    /// On data with missing values, learned as the method is (see [`missing`]).
    pub fn greedy_tree(&self, train: &Dataset) -> Result<Tree> {
        self.refuse_missing(train)?;
        missing::with_copies(
            train,
            |data| match self {
                Method::Milp { formulation, .. } => formulation.greedy_tree(data),
                Method::Dp(search) => search.greedy_tree(data),
                Method::Sparse(search) => search.greedy_tree(data),
            },
            |tree, map| map(&tree),
        )
    }

    /// Refuses missing values for the one method whose splits cannot learn a missing side
    /// (OLCT's oblique splits).
    pub fn refuse_missing(&self, data: &Dataset) -> Result<()> {
        match self {
            Method::Milp {
                formulation: AnyFormulation::Olct(_),
                ..
            } => data.refuse_missing("olct (oblique splits)"),
            _ => Ok(()),
        }
    }
}

/// How to run a method.
#[derive(Debug, Clone)]
pub struct LearnOptions {
    /// The run's time limit and the flag (Ctrl-C) that stops it with its best tree.
    pub budget: Budget,
    /// Relative MIP gap at which a solver may stop (0: optimal means optimal).
    pub mip_rel_gap: f64,
    /// Solver threads; `None`: the solver's default.
    pub threads: Option<usize>,
    /// The backend's own parameters, `(name, value)`, set last (see
    /// [`crate::solver::SolveOptions::solver_options`]).
    pub solver_options: Vec<(String, String)>,
    /// Stream the solver's log to stderr.
    pub log: bool,
    /// Where progress goes.
    pub progress: Progress,
    pub warm_start: WarmStartMode,
    /// The exact search's budget for the certificate of a MILP result; `None`: no
    /// certificate.
    pub certify: Option<Duration>,
    /// Test-only: bound the MILP's objective below by its warm start's, so that a solver
    /// claims optimality for a tree the exact search can beat (exercises the certificate's
    /// contradiction).
    pub break_model_for_tests: bool,
    /// The exact search's rows that bound a MILP's objective (OCT, BinOCT, FlowOCT; see
    /// [`search_rows`]).
    pub dp_bounds: search_rows::DpBounds,
    /// Test-only: added to every bound of those rows (in errors), which makes them wrong
    /// (exercises their checks).
    pub raise_dp_bounds_for_tests: f64,
    /// Rounds of the loop that adds the exact search's rows over paths below the root
    /// between LP solves (`--separation-rounds`, [`separation`]); 0: none.
    pub separation_rounds: usize,
    /// Test-only: added to the bounds of the rows over paths below the root alone.
    pub raise_path_bounds_for_tests: f64,
    /// Side constraints (`--constraints` and its flags): every kind for the MILP formulations
    /// (OLCT aside), the kinds of [`crate::constraints::ConstraintTaker::Dp`] and
    /// [`crate::constraints::ConstraintTaker::Sparse`] for the exact and sparse searches.
    pub constraints: Option<crate::constraints::ConstraintSpec>,
}

impl Default for LearnOptions {
    fn default() -> Self {
        LearnOptions {
            budget: Budget::unlimited(),
            mip_rel_gap: 0.0,
            threads: None,
            solver_options: Vec::new(),
            log: false,
            progress: Progress::Hidden,
            warm_start: WarmStartMode::Greedy,
            certify: None,
            break_model_for_tests: false,
            dp_bounds: search_rows::DpBounds::default(),
            raise_dp_bounds_for_tests: 0.0,
            separation_rounds: separation::DEFAULT_ROUNDS,
            raise_path_bounds_for_tests: 0.0,
            constraints: None,
        }
    }
}

/// Learns a tree with `method` on the training data `train` (prepared with
/// [`Method::prepare`]).
///
/// On data with missing values, the method learns over the data's copies and the outcome's
/// trees are mapped back, each split with its learned missing side (see [`missing`]). Every
/// tree of the outcome has its counts by the one rule of [`Tree::recount_on`], whatever the
/// method and the options that led to it.
pub fn learn(method: &Method, train: &Dataset, options: LearnOptions) -> Result<Outcome> {
    let outcome = learn_any(method, train, options)?;
    missing::map_outcome(outcome, &|tree| {
        let mut counted = tree.clone();
        counted.recount_on(train)?;
        Ok(counted)
    })
}

/// [`learn`], with each tree's counts as its method left them.
fn learn_any(method: &Method, train: &Dataset, options: LearnOptions) -> Result<Outcome> {
    method.refuse_missing(train)?;
    if let (Some(spec), Method::Dp(_) | Method::Sparse(_)) = (&options.constraints, method) {
        let limits = search_constraints::SearchConstraints::of(
            spec,
            train,
            search_constraints::UserRows::Refused,
        )?
        .map_err(|refused| search_constraints::refusal(&refused))?;
        // On data with missing values, the search runs over the copies under the same
        // constraints over the data's features; the report is the mapped tree's.
        let mut outcome = missing::with_origins(
            train,
            |data, origins| match origins {
                None => search_under(method, data, &limits, options),
                Some(origins) => search_under(method, data, &limits.over_copies(origins), options),
            },
            missing::map_outcome,
        )?;
        if let Some(tree) = &outcome.tree {
            let mut counted = tree.clone();
            counted.recount_on(train)?;
            outcome.side_constraints = crate::constraints::report(&limits.constraints, &counted).0;
        }
        return Ok(outcome);
    }
    if let (Some(_), Method::Milp { formulation, .. }) = (&options.constraints, method) {
        // The MILPs' rows name and count the data's features; the copies of a feature with
        // missing values would count as two.
        train.refuse_missing(&milp_under_constraints(formulation.name()))?;
    }
    missing::with_copies(
        train,
        |data| match method {
            Method::Milp {
                formulation,
                solver,
            } => milp_method::run(formulation, *solver, data, options),
            Method::Dp(search) => search.run(data, &options),
            Method::Sparse(search) => search.run(data, &options),
        },
        missing::map_outcome,
    )
}

/// How a refusal of missing values names a MILP formulation under side constraints, beside
/// the methods that take both.
pub(crate) fn milp_under_constraints(formulation: &str) -> String {
    format!(
        "--formulation {formulation} with side constraints (unlike --solver dp and --solver \
         sparse)"
    )
}

/// The exact or sparse search on `train` (data without missing values: the copies of data with
/// them) under the side constraints `limits`. A search of a metric's front, or of a loss of
/// the whole leaf set, takes forbidden features alone: it runs on the data without them and
/// its trees are mapped back to every feature.
fn search_under(
    method: &Method,
    train: &Dataset,
    limits: &search_constraints::SearchConstraints,
    options: LearnOptions,
) -> Result<Outcome> {
    let options = LearnOptions {
        constraints: None,
        ..options
    };
    let (additive, objective) = match method {
        Method::Dp(search) => (
            search.params.objective.metric().is_none(),
            serde_json::to_value(search.params.objective)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        ),
        Method::Sparse(search) => (
            search.takes_limits(),
            search.params.objective.name().to_string(),
        ),
        Method::Milp { .. } => {
            return Err(crate::error::Error::Internal(
                "a MILP formulation takes its side constraints in its model".into(),
            ))
        }
    };
    let outcome = if additive {
        match method {
            Method::Dp(search) => search.run_under(train, &options, Some(limits))?,
            Method::Sparse(search) => search.run_under(train, &options, limits)?,
            Method::Milp { .. } => unreachable!("refused above"),
        }
    } else if limits.only_forbidden() {
        let forbidden = limits.rule.forbidden_over(train.n_features());
        let kept = crate::tree::kept_features::KeptFeatures::of(train, &forbidden)?;
        let outcome = match method {
            Method::Dp(search) => search.run(kept.data(), &options)?,
            Method::Sparse(search) => search.run(kept.data(), &options)?,
            Method::Milp { .. } => unreachable!("refused above"),
        };
        missing::map_outcome(outcome, &|tree| kept.original_tree(tree, train))?
    } else {
        let chosen = match method {
            Method::Dp(_) => capability::MethodKind::Dp,
            _ => capability::MethodKind::Sparse,
        }
        .chosen();
        return Err(crate::setting::SettingError {
            setting: crate::setting::Setting::Constraints,
            reason: crate::setting::Reason::OfMethod {
                method: crate::setting::Named {
                    command_line: format!("{} with --objective {objective}", chosen.command_line),
                    python: format!("{} with objective='{objective}'", chosen.python),
                },
                message: format!(
                    "takes forbidden features only, not {} (the objectives that count errors \
                     take them)",
                    limits.beyond_forbidden()
                ),
            },
        }
        .into());
    };
    Ok(outcome)
}
