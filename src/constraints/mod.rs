//! Side constraints on the trees a MILP may return: which features the tree may use (forbidden
//! features, features allowed only at given depths, at most K distinct features, a cost per
//! feature within a budget), at most L leaves, the training rows per leaf between a minimum and
//! a maximum, linear rows of the user's own over the model's variables, and fairness between the
//! groups of a column ([`fairness`]).
//!
//! [`ConstraintSpec`] is the set as given (feature names; from `--constraints FILE` and the
//! flags), [`SideConstraints`] the set checked against the training data (feature indices), and
//! [`evaluate`] the plain-code evaluation of a tree against it. The rows each constraint adds to
//! a model are built in [`crate::formulation::side_constraints`]; which method takes which
//! kind is [`kinds`].

mod evaluate;
pub mod fairness;
pub mod kinds;
mod spec;
pub mod user_row;

pub use evaluate::{evaluate, report, ConstraintValues};
pub use kinds::{ConstraintKind, ConstraintTaker};
pub use spec::ConstraintSpec;
pub use user_row::UserRow;

use serde::Serialize;

/// Whether a node at `depth` may split on `feature`, under `forbidden` features and the
/// `depths` at which each feature may split (`None`, or a feature beyond the lists: allowed).
pub fn permits(
    forbidden: &[bool],
    depths: &[Option<Vec<usize>>],
    feature: usize,
    depth: usize,
) -> bool {
    !forbidden.get(feature).copied().unwrap_or(false)
        && depths
            .get(feature)
            .and_then(Option::as_ref)
            .is_none_or(|depths| depths.contains(&depth))
}

/// A checked set of side constraints on the features a tree uses, for one dataset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideConstraints {
    /// The data's feature names (the indices below are into it).
    pub feature_names: Vec<String>,
    /// At most this many distinct features.
    pub max_features: Option<usize>,
    /// The cost of each feature (0 when not listed).
    pub costs: Vec<f64>,
    /// The summed cost of the distinct features used is at most this.
    pub budget: Option<f64>,
    /// Whether each feature is forbidden everywhere.
    pub forbidden: Vec<bool>,
    /// The depths (root 0) at which each feature may split; `None`: every depth.
    pub depths: Vec<Option<Vec<usize>>>,
    /// At most this many leaves (one more than the splits).
    pub max_leaves: Option<usize>,
    /// The user's rows over the model's variables.
    pub rows: Vec<UserRow>,
    /// Fairness between the groups of a column.
    pub fairness: Option<fairness::Fairness>,
    /// Every leaf some training row reaches has at least this many (unweighted) rows.
    pub min_leaf_rows: Option<usize>,
    /// Every leaf has at most this many (unweighted) rows.
    pub max_leaf_rows: Option<usize>,
}

impl SideConstraints {
    /// Whether a node at `depth` may split on `feature`.
    pub fn permits(&self, feature: usize, depth: usize) -> bool {
        permits(&self.forbidden, &self.depths, feature, depth)
    }

    /// Whether the constraints count distinct features (a count or a budget), so a model may not
    /// replace a feature by another that routes the training rows alike.
    pub fn counts_features(&self) -> bool {
        self.max_features.is_some() || self.budget.is_some()
    }

    /// Whether the constraints bound the rows per leaf.
    pub fn bounds_leaf_rows(&self) -> bool {
        self.min_leaf_rows.is_some() || self.max_leaf_rows.is_some()
    }

    /// Whether any constraint restricts where a feature may split.
    pub fn restricts_features(&self) -> bool {
        self.forbidden.iter().any(|&f| f) || self.depths.iter().any(Option::is_some)
    }

    /// The constraints as reported.
    pub fn to_json(&self) -> serde_json::Value {
        let name = |j: usize| self.feature_names[j].clone();
        let mut fields = serde_json::Map::new();
        if let Some(k) = self.max_features {
            fields.insert("max_features".into(), k.into());
        }
        if let Some(budget) = self.budget {
            let costs: serde_json::Map<String, serde_json::Value> = (0..self.costs.len())
                .filter(|&j| self.costs[j] != 0.0)
                .map(|j| (name(j), self.costs[j].into()))
                .collect();
            fields.insert("budget".into(), budget.into());
            fields.insert("feature_costs".into(), costs.into());
        }
        let forbidden: Vec<String> = (0..self.forbidden.len())
            .filter(|&j| self.forbidden[j])
            .map(name)
            .collect();
        if !forbidden.is_empty() {
            fields.insert("forbidden".into(), forbidden.into());
        }
        let depths: serde_json::Map<String, serde_json::Value> = (0..self.depths.len())
            .filter_map(|j| Some((name(j), self.depths[j].clone()?.into())))
            .collect();
        if !depths.is_empty() {
            fields.insert("depths".into(), depths.into());
        }
        if let Some(l) = self.max_leaves {
            fields.insert("max_leaves".into(), l.into());
        }
        if let Some(min) = self.min_leaf_rows {
            fields.insert("min_leaf_rows".into(), min.into());
        }
        if let Some(max) = self.max_leaf_rows {
            fields.insert("max_leaf_rows".into(), max.into());
        }
        if !self.rows.is_empty() {
            let rows: Vec<String> = self.rows.iter().map(|r| r.text.clone()).collect();
            fields.insert("rows".into(), rows.into());
        }
        if let Some(fairness) = &self.fairness {
            fields.insert("fairness".into(), fairness.to_json());
        }
        serde_json::Value::Object(fields)
    }
}
