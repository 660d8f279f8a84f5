//! The side constraints as given ([`ConstraintSpec`]): a TOML file (`--constraints FILE`) and
//! the flags, merged, then checked against the training data's features into
//! [`SideConstraints`].

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::setting::Setting;

use super::user_row::UserRow;
use super::SideConstraints;

/// Side constraints as given, with features by name. Every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConstraintSpec {
    /// At most this many distinct features in the tree.
    pub max_features: Option<usize>,
    /// Features no node may split on.
    pub forbidden: Vec<String>,
    /// The cost of each listed feature (others: 0); needs `budget`.
    pub feature_costs: BTreeMap<String, f64>,
    /// The summed cost of the distinct features used is at most this.
    pub budget: Option<f64>,
    /// Features allowed only at the listed depths (the root is depth 0).
    pub depths: BTreeMap<String, Vec<usize>>,
    /// At most this many leaves in the tree (one more than its splits; a leaf no training row
    /// reaches counts).
    pub max_leaves: Option<usize>,
    /// Linear rows over the model's variables, as `"a[f=0,n=1] + a[f=1,n=1] <= 1"`.
    pub rows: Vec<String>,
    /// The column whose values are the groups of the fairness constraints.
    pub group_column: Option<String>,
    /// Whether the tree may split on the group column (by default it may not).
    pub allow_group_as_feature: bool,
    /// The positive class of the fairness rates (default: the second class).
    pub positive_class: Option<String>,
    /// The largest gap between two groups' rates of positive predictions.
    pub max_parity_gap: Option<f64>,
    /// The largest gap between two groups' rates of positive predictions on their rows of the
    /// positive class.
    pub max_opportunity_gap: Option<f64>,
    /// Every leaf some training row reaches has at least this many training rows (rows
    /// counted unweighted; a leaf no row reaches is not bounded).
    pub min_leaf_rows: Option<usize>,
    /// Every leaf has at most this many training rows (rows counted unweighted).
    pub max_leaf_rows: Option<usize>,
    /// The names of `forbidden` given beside the file (`--forbid-feature`,
    /// `forbidden_features`), which an error about them names instead of the file.
    #[serde(skip)]
    pub forbidden_by_setting: Vec<String>,
}

impl ConstraintSpec {
    /// The constraints of the TOML file at `path`.
    pub fn from_file(path: &Path) -> Result<ConstraintSpec> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Error::Input {
            path: shown.clone(),
            message: format!("cannot read the constraints file: {e}"),
        })?;
        toml::from_str(&text).map_err(|e| Error::Format {
            path: shown,
            message: format!("not a valid constraints file: {e}"),
        })
    }

    /// These constraints with the fairness settings given beside them (a group column, bounds)
    /// in place of the file's; the group column may split when either allows it.
    pub fn overlay_fairness(
        &mut self,
        group_column: &Option<String>,
        allow_group_as_feature: bool,
        max_parity_gap: Option<f64>,
        max_opportunity_gap: Option<f64>,
    ) {
        if group_column.is_some() {
            self.group_column.clone_from(group_column);
        }
        self.allow_group_as_feature |= allow_group_as_feature;
        if max_parity_gap.is_some() {
            self.max_parity_gap = max_parity_gap;
        }
        if max_opportunity_gap.is_some() {
            self.max_opportunity_gap = max_opportunity_gap;
        }
    }

    /// Whether no constraint is given.
    pub fn is_empty(&self) -> bool {
        *self == ConstraintSpec::default()
    }

    /// The same set written one way: forbidden features sorted once each, zero costs left
    /// out, each feature's depths sorted once each.
    pub fn canonical(&self) -> ConstraintSpec {
        let mut canonical = self.clone();
        canonical.forbidden.sort();
        canonical.forbidden.dedup();
        canonical.feature_costs.retain(|_, cost| *cost != 0.0);
        for depths in canonical.depths.values_mut() {
            depths.sort_unstable();
            depths.dedup();
        }
        canonical
    }

    /// The constraints checked against `data`'s features: unknown feature names, negative or
    /// non-finite costs and budgets, costs without a budget and rows that do not parse are
    /// errors naming `--constraints`.
    pub fn resolve(&self, data: &Dataset) -> Result<SideConstraints> {
        let names = data.schema().features.clone();
        let bad = |message: String| Error::parameter("--constraints", message);
        let index = |name: &str, what: &str| {
            names.iter().position(|n| n == name).ok_or_else(|| {
                bad(format!(
                    "{what}: `{name}` is not a feature of the data (features: {})",
                    names.join(", ")
                ))
            })
        };
        let mut forbidden = vec![false; names.len()];
        for name in &self.forbidden {
            let j = if self.forbidden_by_setting.contains(name) {
                names.iter().position(|n| n == name).ok_or_else(|| {
                    Error::parameter(
                        Setting::ForbiddenFeatures.flag(),
                        format!(
                            "`{name}` is not a feature of the data (features: {})",
                            names.join(", ")
                        ),
                    )
                })?
            } else {
                index(name, "forbidden")?
            };
            forbidden[j] = true;
        }
        let mut costs = vec![0.0; names.len()];
        for (name, &cost) in &self.feature_costs {
            if !cost.is_finite() || cost < 0.0 {
                return Err(bad(format!(
                    "feature_costs: the cost of `{name}` is {cost}; costs are finite and >= 0"
                )));
            }
            costs[index(name, "feature_costs")?] = cost;
        }
        if let Some(budget) = self.budget {
            if !budget.is_finite() || budget < 0.0 {
                return Err(bad(format!(
                    "budget is {budget}; a budget is finite and >= 0"
                )));
            }
        } else if !self.feature_costs.is_empty() {
            return Err(bad("feature_costs are given without a budget".to_string()));
        }
        if self.max_leaves == Some(0) {
            return Err(bad(
                "max_leaves is 0; a tree has at least one leaf".to_string()
            ));
        }
        check_leaf_rows(self.min_leaf_rows, self.max_leaf_rows).map_err(bad)?;
        if let Some(min) = self.min_leaf_rows.filter(|&min| min > data.n_rows()) {
            return Err(bad(format!(
                "min_leaf_rows = {min} is more than the {} training rows: no tree can meet it",
                data.n_rows()
            )));
        }
        let mut depths = vec![None; names.len()];
        for (name, listed) in &self.depths {
            let mut listed = listed.clone();
            listed.sort_unstable();
            listed.dedup();
            depths[index(name, "depths")?] = Some(listed);
        }
        let rows = self
            .rows
            .iter()
            .map(|text| UserRow::parse(text).map_err(bad))
            .collect::<Result<Vec<_>>>()?;
        let fairness = super::fairness::Fairness::resolve(self, data)?;
        for fairness in fairness.iter().filter(|f| !f.allow_group_as_feature) {
            for &j in &fairness.group_features {
                forbidden[j] = true;
            }
        }
        Ok(SideConstraints {
            feature_names: names,
            max_features: self.max_features,
            costs,
            budget: self.budget,
            forbidden,
            depths,
            max_leaves: self.max_leaves,
            rows,
            fairness,
            min_leaf_rows: self.min_leaf_rows,
            max_leaf_rows: self.max_leaf_rows,
        })
    }
}

/// The bounds on the rows per leaf: each at least 1, the minimum at most the maximum.
fn check_leaf_rows(min: Option<usize>, max: Option<usize>) -> std::result::Result<(), String> {
    if min == Some(0) || max == Some(0) {
        return Err("min_leaf_rows and max_leaf_rows are at least 1".to_string());
    }
    match (min, max) {
        (Some(min), Some(max)) if min > max => Err(format!(
            "min_leaf_rows = {min} is above max_leaf_rows = {max}"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Dataset {
        Dataset::from_parts(
            "spec".to_string(),
            vec!["x".to_string(), "y".to_string()],
            vec!["a".to_string(), "b".to_string()],
            vec![vec![0.0, 1.0], vec![1.0, 0.0]],
            vec![0, 1],
        )
        .expect("valid data")
    }

    #[test]
    fn a_file_reads_into_checked_constraints() {
        let spec: ConstraintSpec = toml::from_str(
            "max_features = 1\nforbidden = [\"y\"]\nbudget = 2.5\nrows = [\"d[n=1] <= 0\"]\n\
             [feature_costs]\nx = 2\n[depths]\nx = [1, 0, 1]\n",
        )
        .expect("parses");
        let checked = spec.resolve(&data()).expect("valid");
        assert_eq!(checked.max_features, Some(1));
        assert_eq!(checked.forbidden, vec![false, true]);
        assert_eq!(checked.costs, vec![2.0, 0.0]);
        assert_eq!(checked.depths[0], Some(vec![0, 1]));
        assert!(checked.permits(0, 1) && !checked.permits(0, 2) && !checked.permits(1, 0));
        assert_eq!(checked.rows.len(), 1);
    }

    #[test]
    fn bad_sets_are_errors_naming_what_is_wrong() {
        let unknown = ConstraintSpec {
            forbidden: vec!["z".to_string()],
            ..ConstraintSpec::default()
        };
        let message = unknown.resolve(&data()).expect_err("unknown").to_string();
        assert!(message.contains("`z` is not a feature"), "{message}");
        let costs_only = ConstraintSpec {
            feature_costs: [("x".to_string(), 1.0)].into_iter().collect(),
            ..ConstraintSpec::default()
        };
        assert!(costs_only.resolve(&data()).is_err());
        let negative = ConstraintSpec {
            budget: Some(-1.0),
            ..ConstraintSpec::default()
        };
        assert!(negative.resolve(&data()).is_err());
        let no_leaf = ConstraintSpec {
            max_leaves: Some(0),
            ..ConstraintSpec::default()
        };
        assert!(no_leaf.resolve(&data()).is_err());
        let crossed = ConstraintSpec {
            min_leaf_rows: Some(3),
            max_leaf_rows: Some(2),
            ..ConstraintSpec::default()
        };
        let message = crossed.resolve(&data()).expect_err("crossed").to_string();
        assert!(message.contains("above max_leaf_rows"), "{message}");
        let empty = ConstraintSpec {
            max_leaf_rows: Some(0),
            ..ConstraintSpec::default()
        };
        assert!(empty.resolve(&data()).is_err());
        assert!(toml::from_str::<ConstraintSpec>("max_feature = 1").is_err());
    }
}
