//! Side constraints in the exact and sparse searches and in a MILP's `dp` warm start and
//! certificate: what the searches take ([`ConstraintTaker::Search`] in the table of
//! [`crate::constraints::kinds`]) becomes limits of the search's problem
//! ([`SearchConstraints`]): forbidden features, a count and a budget a [`FeatureRule`] (see
//! [`crate::dp::solve_under`]), `max_leaves` a split budget of `max_leaves - 1`,
//! `min_leaf_rows` the leaf minimum (the larger of it and `--min-leaf`). Any other kind is
//! refused by name.

use crate::constraints::kinds::{self, ConstraintKind, ConstraintTaker};
use crate::constraints::{ConstraintSpec, SideConstraints};
use crate::data::Dataset;
use crate::dp::{DpProblem, FeatureRule};
use crate::error::{Error, Result};

/// A set of side constraints the searches take, checked against the training data, as limits
/// of the search.
#[derive(Debug, Clone)]
pub struct SearchConstraints {
    /// The constraints as checked (what the returned tree is reported against).
    pub constraints: SideConstraints,
    /// Forbidden features, the count and the budget.
    pub rule: FeatureRule,
    /// At most this many splits (`max_leaves - 1`).
    pub max_splits: Option<usize>,
    /// Every leaf some row reaches holds at least this many rows.
    pub min_leaf_rows: Option<usize>,
    /// The kinds present.
    pub kinds: Vec<ConstraintKind>,
}

impl SearchConstraints {
    /// What `spec` is to a search on `train`: `Ok(limits)` when the searches take every kind
    /// it holds, `Err(kinds)` with the kinds they do not take otherwise. Constraints that do
    /// not fit the data are an error.
    pub fn of(
        spec: &ConstraintSpec,
        train: &Dataset,
    ) -> Result<std::result::Result<SearchConstraints, Vec<ConstraintKind>>> {
        let constraints = spec.resolve(train)?;
        let kinds = kinds::present(&constraints);
        let refused = ConstraintTaker::Search.refused(&kinds);
        if !refused.is_empty() {
            return Ok(Err(refused));
        }
        // Every field, so that a new kind is a decision here too.
        let SideConstraints {
            feature_names: _,
            max_features,
            costs,
            budget,
            forbidden,
            depths: _,
            max_leaves,
            rows: _,
            fairness: _,
            min_leaf_rows,
            max_leaf_rows: _,
        } = &constraints;
        let rule = FeatureRule {
            forbidden: forbidden.clone(),
            max_features: *max_features,
            costs: costs.clone(),
            budget: *budget,
        };
        Ok(Ok(SearchConstraints {
            rule,
            max_splits: max_leaves.map(|l| l.saturating_sub(1)),
            min_leaf_rows: *min_leaf_rows,
            kinds,
            constraints,
        }))
    }

    /// Whether the set holds forbidden features alone (all a search over the front of a
    /// metric, or of a loss of the whole leaf set, takes).
    pub fn only_forbidden(&self) -> bool {
        self.kinds.iter().all(|&k| k == ConstraintKind::Forbidden)
    }

    /// The kinds beyond forbidden features, by name.
    pub fn beyond_forbidden(&self) -> String {
        let beyond: Vec<ConstraintKind> = self
            .kinds
            .iter()
            .copied()
            .filter(|&k| k != ConstraintKind::Forbidden)
            .collect();
        kinds::names(&beyond)
    }

    /// `problem` under the split budget and the leaf minimum (the tighter of each).
    pub fn limit(&self, problem: &mut DpProblem) {
        if let Some(splits) = self.max_splits {
            problem.max_splits = Some(problem.max_splits.map_or(splits, |m| m.min(splits)));
        }
        if let Some(rows) = self.min_leaf_rows {
            problem.min_leaf = problem.min_leaf.max(rows);
        }
    }
}

/// The refusal of the kinds `refused` by the exact and sparse searches, naming them and what
/// the searches take.
pub fn refusal(refused: &[ConstraintKind]) -> Error {
    Error::parameter(
        "--constraints",
        format!(
            "the exact and sparse searches do not take {}: only the MILP formulations (oct, \
             binoct, flowoct) do (the searches take {})",
            kinds::names(refused),
            kinds::names(&ConstraintTaker::Search.taken())
        ),
    )
}
