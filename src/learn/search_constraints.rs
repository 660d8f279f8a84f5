//! Side constraints in the exact and sparse searches and in a MILP's `dp` warm start and
//! certificate: what the searches take ([`ConstraintTaker::Dp`] in the table of
//! [`crate::constraints::kinds`]) becomes limits of the search's problem
//! ([`SearchConstraints`]): forbidden features, a count and a budget a [`FeatureRule`] (see
//! [`crate::dp::solve_under`]), `depths` the levels at which each feature may split (in the
//! same rule), `max_leaves` a split budget of `max_leaves - 1`,
//! `min_leaf_rows` the leaf minimum (the larger of it and `--min-leaf`), `max_leaf_rows` a cap
//! on the rows of a leaf, fairness the search
//! of [`crate::fair`] beside every other kind ([`super::search_fair`]; depths 1 to 3). Any
//! other kind is refused by name. The user's rows, which only the MILPs take, are refused by
//! the searches themselves; for a MILP's start and certificate ([`UserRows::OverFeaturesUsed`]),
//! rows over the model's `used[j=..]` indicators alone whose weights are not negative bound
//! the features a tree uses as a budget does, and join the [`FeatureRule`].

use crate::constraints::kinds::{self, ConstraintKind, ConstraintTaker};
use crate::constraints::user_row::used_feature;
use crate::constraints::{ConstraintSpec, SideConstraints};
use crate::data::Dataset;
use crate::dp::{DpProblem, FeatureRow, FeatureRule};
use crate::error::{Error, Result};
use crate::mip::FEASIBILITY_TOLERANCE;
use crate::tree::Tree;

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
    /// Every leaf holds at most this many rows.
    pub max_leaf_rows: Option<usize>,
    /// The kinds present.
    pub kinds: Vec<ConstraintKind>,
    /// The constraints as given (fairness is resolved again on the rows the search sees).
    pub spec: ConstraintSpec,
}

/// What the user's rows are to a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserRows {
    /// Refused, as every kind the searches do not take (`--solver dp`, `--solver sparse`).
    Refused,
    /// For a MILP's start and certificate: taken when each row bounds the features used
    /// ([`UserRow::over_features_used`](crate::constraints::UserRow::over_features_used)) and
    /// the model has the `used[j=..]` indicators (a count or a budget), refused otherwise.
    OverFeaturesUsed,
}

impl SearchConstraints {
    /// What `spec` is to a search on `train`: `Ok(limits)` when the searches take every kind
    /// it holds (the user's rows as `rows` says), `Err(kinds)` with the kinds they do not take
    /// otherwise. Constraints that do not fit the data are an error.
    pub fn of(
        spec: &ConstraintSpec,
        train: &Dataset,
        rows: UserRows,
    ) -> Result<std::result::Result<SearchConstraints, Vec<ConstraintKind>>> {
        let constraints = spec.resolve(train)?;
        let kinds = kinds::present(&constraints);
        let feature_rows = match rows {
            UserRows::Refused => None,
            UserRows::OverFeaturesUsed => rows_over_features_used(&constraints),
        };
        let refused: Vec<ConstraintKind> = ConstraintTaker::Dp
            .refused(&kinds)
            .into_iter()
            .filter(|&k| !(k == ConstraintKind::Rows && feature_rows.is_some()))
            .collect();
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
            depths,
            max_leaves,
            // Taken above as `feature_rows` or refused.
            rows: _,
            fairness: _,
            min_leaf_rows,
            max_leaf_rows,
        } = &constraints;
        let rule = FeatureRule {
            forbidden: forbidden.clone(),
            max_features: *max_features,
            costs: costs.clone(),
            budget: *budget,
            rows: feature_rows.unwrap_or_default(),
            depths: depths.clone(),
            origin: Vec::new(),
        };
        Ok(Ok(SearchConstraints {
            rule,
            max_splits: max_leaves.map(|l| l.saturating_sub(1)),
            min_leaf_rows: *min_leaf_rows,
            max_leaf_rows: *max_leaf_rows,
            kinds,
            constraints,
            spec: spec.clone(),
        }))
    }

    /// Whether `tree` meets the constraints: those plain code evaluates, and the user's rows
    /// the search takes (over the features used).
    pub fn meets(&self, tree: &Tree) -> bool {
        self.report(tree).1
    }

    /// The side constraints' report of `tree` (see [`crate::constraints::report`]), with each
    /// user row the search takes at its value on the features the tree uses, and whether the
    /// tree meets them all.
    pub fn report(&self, tree: &Tree) -> (serde_json::Value, bool) {
        let (mut report, mut ok) = crate::constraints::report(&self.constraints, tree);
        if self.rule.rows.is_empty() {
            return (report, ok);
        }
        let used = crate::constraints::evaluate(&self.constraints, tree).feature_indices;
        let value = |name: &str| used_feature(name).map(|j| f64::from(u8::from(used.contains(&j))));
        let rows: Vec<serde_json::Value> = self
            .constraints
            .rows
            .iter()
            .map(|row| {
                let activity = row.activity(value).unwrap_or(f64::NAN);
                let holds = row.holds(activity, FEASIBILITY_TOLERANCE);
                ok &= holds;
                serde_json::json!({ "row": row.text, "activity": activity, "holds": holds })
            })
            .collect();
        report["rows"] = rows.into();
        (report, ok)
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

    /// The limits for a search over the copies of data with missing values whose features
    /// come from the data's features `origins` ([`crate::tree::missing_copies`]): the rule on
    /// features stays over the data's features (both copies of a feature are that feature);
    /// the limits on rows are the same rows'.
    pub fn over_copies(&self, origins: Vec<usize>) -> SearchConstraints {
        let mut limits = self.clone();
        limits.rule.origin = origins;
        limits
    }

    /// `problem` under the split budget, the leaf minimum and the cap on the rows of a leaf
    /// (the tighter of each).
    pub fn limit(&self, problem: &mut DpProblem) {
        if let Some(rows) = self.max_leaf_rows {
            problem.max_leaf = Some(problem.max_leaf.map_or(rows, |m| m.min(rows)));
        }
        if let Some(splits) = self.max_splits {
            problem.max_splits = Some(problem.max_splits.map_or(splits, |m| m.min(splits)));
        }
        if let Some(rows) = self.min_leaf_rows {
            problem.min_leaf = problem.min_leaf.max(rows);
        }
    }
}

/// The user's rows of `constraints` as rows over the features used, when every row is one and
/// the model has the `used[j=..]` indicators they name (a count or a budget) and some tree
/// meets them; `None` otherwise (and without rows).
fn rows_over_features_used(constraints: &SideConstraints) -> Option<Vec<FeatureRow>> {
    let indicators = constraints.max_features.is_some() || constraints.budget.is_some();
    if constraints.rows.is_empty() || !indicators {
        return None;
    }
    let n = constraints.feature_names.len();
    let rows = constraints
        .rows
        .iter()
        .map(|row| {
            row.over_features_used(n, FEASIBILITY_TOLERANCE)
                .map(|(weights, limit)| FeatureRow { weights, limit })
        })
        .collect::<Option<Vec<FeatureRow>>>()?;
    let rule = FeatureRule {
        rows: rows.clone(),
        ..FeatureRule::default()
    };
    rule.satisfiable().then_some(rows)
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
            kinds::names(&ConstraintTaker::Dp.taken())
        ),
    )
}
