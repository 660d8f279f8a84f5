//! Rows from the exact search that bound a MILP's objective from below (`--dp-bounds`), after
//! Keegan, Forbes, Corry and Abolghasemi's DP-bounded cuts (arXiv 2511.18791).
//!
//! Two families, each valid whatever side constraints the model has (they bound the problem
//! without them, whose trees include every constrained one):
//! - `objective`: the objective at least the search's proven lower bound of the problem (under
//!   forbidden features alone, of the problem without them);
//! - `splits`: the objective at least `sum_s bound_s * x_s + bound_leaf * leaf`, over the
//!   model's root choices ([`RootSplits`], exactly one of them 1 in every integer solution):
//!   `bound_s` is the search's lower bound of the best tree whose root takes split `s` (the
//!   two subtrees of one level less solved by the search on the rows each side receives,
//!   over every midpoint and without a leaf minimum: a relaxation, never above the model's
//!   own subtrees; one search bounds every split of the root, [`dp::root_split_bounds`]),
//!   and `bound_leaf` the cost of the single leaf. A split on a feature at any
//!   threshold (OCT's, BinOCT's) takes the least bound over the feature's midpoints and the
//!   one-sided split. No big M: the row is a convex combination of the bounds in the LP.
//!
//! Bounds are in the search's units and written in the formulation's by its counterpart
//! ([`Counterpart::to_model`]: OCT's `1 / L^` and split cost included). The search's time
//! counts against the run's time limit: a split whose subtrees were not solved in time is
//! bounded by the problem's lower bound, which bounds every split.
//!
//! Rows over the paths below the root, too many to add up front, are added between LP solves
//! ([`super::search_paths`], [`super::separation`]: `--separation-rounds`) and checked here
//! with the others (`SearchRows::extend`).
//!
//! The rows are checked, not trusted: every tree the run evaluates by plain code (the warm
//! start, the decoded solution) must be worth at least what the rows claim for its root; a
//! tree worth less proves a row wrong, and the run stops with an error instead of a bound
//! resting on it ([`SearchRows::check`]).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::dp::DpProblem;
use crate::error::{Error, Result};
use crate::formulation::RootSplits;
use crate::learn::counterpart::Counterpart;
use crate::learn::objectives_agree;
use crate::learn::search_paths::{PathSeparator, SeparationRound};
use crate::learn::subtree_bounds::SubtreeBounds;
use crate::mip::{Assignment, Expression, MipModel, RowSense};
use good_lp::IntoAffineExpression;

/// Which rows of the exact search a MILP gets.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum DpBounds {
    None,
    /// The objective at least the search's lower bound.
    Objective,
    /// The objective at least each root split's bound, when the root takes it.
    Splits,
    /// Both.
    #[default]
    All,
}

impl DpBounds {
    pub const ALL: [DpBounds; 4] = [
        DpBounds::None,
        DpBounds::Objective,
        DpBounds::Splits,
        DpBounds::All,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DpBounds::None => "none",
            DpBounds::Objective => "objective",
            DpBounds::Splits => "splits",
            DpBounds::All => "all",
        }
    }

    pub fn objective(self) -> bool {
        matches!(self, DpBounds::Objective | DpBounds::All)
    }

    pub fn splits(self) -> bool {
        matches!(self, DpBounds::Splits | DpBounds::All)
    }
}

impl fmt::Display for DpBounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DpBounds {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        DpBounds::ALL
            .into_iter()
            .find(|b| b.name() == text)
            .ok_or_else(|| {
                Error::parameter(
                    "--dp-bounds",
                    format!("`{text}` is not one of: none, objective, splits, all"),
                )
            })
    }
}

/// What the rows were made from: the search's problem, its data and its proven lower bound.
#[derive(Debug, Clone)]
pub struct SearchRowSource {
    pub families: DpBounds,
    pub counterpart: Counterpart,
    /// The search's problem on `data` (class costs times each class's unit).
    pub problem: DpProblem,
    /// The data the search runs on (rows repeated by their multiples of their class's unit).
    pub data: Dataset,
    /// The search's proven lower bound of the problem, in its units.
    pub lower_bound: f64,
    /// The objective of the search's best tree, in its units: an upper bound of the problem
    /// without side constraints, at which every split's bound is capped (a bound past it
    /// means the split cannot beat that tree; the cap keeps the coefficients in range).
    pub upper_bound: f64,
    /// Seconds the search for `lower_bound` took (0 when the warm start's search gave it).
    pub search_seconds: f64,
    /// When the subtrees of the root splits stop being searched.
    pub deadline: Option<Instant>,
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Test-only: added to every bound (in the search's units: errors), which makes the rows
    /// wrong; the checks must catch it.
    pub raised_for_tests: f64,
    /// Test-only: added to the bounds of the paths below the root alone (in errors).
    pub raised_paths_for_tests: f64,
}

/// What a run's report says of the rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchRowsReport {
    pub families: DpBounds,
    /// Rows `objective >= lower bound` added (0 or 1).
    pub objective_rows: usize,
    /// Rows over the root's splits added (0 or 1).
    pub split_rows: usize,
    /// The root's candidate splits the split row bounds.
    pub root_splits: usize,
    /// Of those, the ones bounded by the problem's lower bound only (their subtrees not
    /// searched within the time).
    pub splits_at_problem_bound: usize,
    /// The search's lower bound of the problem, in the formulation's units.
    pub lower_bound: f64,
    /// The least bound of a root choice (the leaf included), in the formulation's units.
    pub least_split_bound: Option<f64>,
    /// Seconds spent searching for the rows (the problem's bound and the root's splits).
    pub seconds: f64,
    /// Why no row was added although some were asked for, if so.
    #[serde(default)]
    pub left_out: Option<String>,
    /// Rows over paths below the root added between solves (`--separation-rounds`).
    #[serde(default)]
    pub path_rows: usize,
    /// The rounds of the loop that added them: each round's LP bound and rows.
    #[serde(default)]
    pub rounds: Vec<SeparationRound>,
}

/// The largest coefficient a row may have: HiGHS refuses a model with a matrix value past it
/// (its `large_matrix_value`).
const LARGEST_COEFFICIENT: f64 = 1e15;

/// One row: the objective at least `bound` (constant and terms over the model's variables).
#[derive(Debug, Clone)]
pub(crate) struct SearchRow {
    pub(crate) name: String,
    pub(crate) bound: Expression,
}

/// The root's row as the paths below it need it: each root choice's bound in the model's
/// units (the test raise included), in the order of [`RootSplits::splits`], and the row's
/// right-hand side.
#[derive(Debug, Clone)]
pub(crate) struct RootRow {
    pub(crate) values: Vec<f64>,
    pub(crate) bound: Expression,
}

/// The rows made for one model.
#[derive(Debug, Clone)]
pub struct SearchRows {
    rows: Vec<SearchRow>,
    pub report: SearchRowsReport,
}

impl SearchRows {
    /// The rows for the model `mip`, whose root's choices are `root` (no split row without
    /// them). None when the objective has a coefficient past what a solver takes in a row.
    pub fn make(
        source: &SearchRowSource,
        mip: &MipModel,
        root: Option<RootSplits>,
    ) -> Result<SearchRows> {
        Ok(SearchRows::make_separable(source, mip, root, None)?.0)
    }

    /// [`SearchRows::make`], and with `children` (the choices of the root's two children,
    /// [`crate::formulation::BuiltModel::node_choices`]) the separator of the rows over the
    /// paths below the root, when the split rows are asked for.
    pub(crate) fn make_separable(
        source: &SearchRowSource,
        mip: &MipModel,
        root: Option<RootSplits>,
        children: Option<[Option<RootSplits>; 2]>,
    ) -> Result<(SearchRows, Option<PathSeparator>)> {
        let started = Instant::now();
        let c = &source.counterpart;
        let raise = source.raised_for_tests;
        let lower_bound = c.to_model(source.lower_bound + raise);
        let mut rows = Vec::new();
        if source.families.objective() {
            rows.push(SearchRow {
                name: "dp_bound".to_string(),
                bound: Expression::from(lower_bound),
            });
        }
        let mut report = SearchRowsReport {
            families: source.families,
            objective_rows: rows.len(),
            split_rows: 0,
            root_splits: 0,
            splits_at_problem_bound: 0,
            lower_bound,
            least_split_bound: None,
            seconds: source.search_seconds,
            left_out: None,
            path_rows: 0,
            rounds: Vec::new(),
        };
        let largest = mip
            .objective_terms()
            .iter()
            .map(|&(_, c)| c.abs())
            .fold(0.0, f64::max);
        if largest > LARGEST_COEFFICIENT {
            report.objective_rows = 0;
            report.left_out = Some(format!(
                "the objective has a coefficient of {largest}, past what a solver takes in a row \
                 ({LARGEST_COEFFICIENT})"
            ));
            let rows = SearchRows {
                rows: Vec::new(),
                report,
            };
            return Ok((rows, None));
        }
        let mut separator = None;
        if let (true, Some(root)) = (source.families.splits(), root) {
            let bounds = SubtreeBounds::new(source)?;
            let mut bound = Expression::default();
            let mut least = f64::INFINITY;
            let mut values = Vec::with_capacity(root.splits.len());
            for (split, chosen) in &root.splits {
                let value = match bounds.of(split)? {
                    Some(value) => value,
                    None => {
                        report.splits_at_problem_bound += 1;
                        source.lower_bound
                    }
                };
                let value = c.to_model(value.min(source.upper_bound) + raise);
                least = least.min(value);
                values.push(value);
                bound += value * chosen.clone();
            }
            if let Some(leaf) = &root.leaf {
                let cost = bounds
                    .leaf_cost(&bounds.all.clone())
                    .min(source.upper_bound);
                let value = c.to_model(cost + raise);
                least = least.min(value);
                bound += value * leaf.clone();
            }
            report.root_splits = root.splits.len();
            report.least_split_bound = least.is_finite().then_some(least);
            report.split_rows = 1;
            rows.push(SearchRow {
                name: "dp_root_splits".to_string(),
                bound: bound.clone(),
            });
            if let Some(children) = children {
                let root_row = RootRow { values, bound };
                separator = PathSeparator::new(bounds, root, root_row, children);
            }
        }
        report.seconds += started.elapsed().as_secs_f64();
        Ok((SearchRows { rows, report }, separator))
    }

    /// Adds rows found between solves (already in the model solved) to those checked.
    pub(crate) fn extend(&mut self, rows: Vec<SearchRow>) {
        self.report.path_rows += rows.len();
        self.rows.extend(rows);
    }

    /// `mip` with the rows added.
    pub fn added_to(&self, mip: &MipModel) -> MipModel {
        let mut with = mip.clone();
        let objective = mip.objective_expression();
        for row in &self.rows {
            with.add_row(
                &row.name,
                objective.clone(),
                RowSense::Ge,
                row.bound.clone(),
            );
        }
        with
    }

    /// Checks the rows against a tree the run evaluated by plain code (`evaluated`, in the
    /// formulation's units) and its values of the model's variables (`assignment`, an integer
    /// solution or an encoded tree): a row that bounds the objective above the tree's worth is
    /// wrong, an error (`tolerance` as for the solver's objective).
    pub fn check(
        &self,
        mip: &MipModel,
        assignment: &Assignment,
        evaluated: f64,
        tolerance: f64,
        what: &str,
    ) -> Result<()> {
        let values = mip.values_of(assignment)?;
        for row in &self.rows {
            let mut bound = row.bound.constant();
            for (variable, coefficient) in (&row.bound).linear_coefficients() {
                if let Some(column) = mip.try_col(variable) {
                    bound += coefficient * values[column];
                }
            }
            if bound > evaluated && !objectives_agree(bound, evaluated, tolerance) {
                return Err(Error::Internal(format!(
                    "the exact search's row `{}` bounds the objective of {what} by {bound}, but \
                     the tree is worth {evaluated} by plain evaluation: the row is wrong, and \
                     no result rests on it (run with --dp-bounds none)",
                    row.name
                )));
            }
        }
        Ok(())
    }
}
