//! The side-constraint options of `solve` and `export-lp` ([`ConstraintArgs`]): a TOML file of
//! constraints and the flags for the common ones, merged into one
//! [`ConstraintSpec`] (the flags add to the file); those `pareto`'s front of fairness takes
//! too ([`FairSearchArgs`]: the group column, forbidden features, the leaf minimum); and the
//! line `solve` prints of their values ([`text_line`]).

use std::path::PathBuf;

use clap::Args;

use crate::constraints::ConstraintSpec;
use crate::error::Result;
use crate::learn::capability::MethodKind;
use crate::learn::settings::Settings;

/// The clap group id of the side-constraint options.
pub const CONSTRAINT_OPTIONS: &str = "constraint-options";

/// The ids of [`ConstraintArgs`]' options, its flattened [`FairSearchArgs`] included (clap
/// leaves the group of a struct that flattens another empty, so they are listed here; a unit
/// test checks the list).
const CONSTRAINT_OPTION_IDS: [&str; 10] = [
    "constraints",
    "max_features",
    "max_leaves",
    "max_parity_gap",
    "max_opportunity_gap",
    "max_leaf_rows",
    "group_column",
    "allow_group_as_feature",
    "forbid_feature",
    "min_leaf_rows",
];

/// The group column of the fairness bounds, forbidden features and the leaf minimum: side
/// constraints of `solve` and `export-lp`, and what `pareto`'s front of fairness takes.
#[derive(Debug, Clone, Default, Args)]
#[group(id = "fair-search-options", multiple = true)]
pub struct FairSearchArgs {
    /// The column whose values are the groups of the fairness bounds (two or more); not a
    /// feature unless --allow-group-as-feature.
    #[arg(long, value_name = "NAME")]
    pub group_column: Option<String>,
    /// Let the tree split on the group column.
    #[arg(long)]
    pub allow_group_as_feature: bool,
    /// A feature no node may split on (repeatable).
    #[arg(long, value_name = "NAME")]
    pub forbid_feature: Vec<String>,
    /// Every leaf some training row reaches has at least N training rows (counted unweighted;
    /// a leaf no row reaches is not bounded).
    #[arg(long, value_name = "N")]
    pub min_leaf_rows: Option<usize>,
}

impl FairSearchArgs {
    /// Adds the options given to `spec`.
    pub fn add_to(&self, spec: &mut ConstraintSpec) {
        if self.min_leaf_rows.is_some() {
            spec.min_leaf_rows = self.min_leaf_rows;
        }
        spec.forbidden.extend(self.forbid_feature.iter().cloned());
        spec.forbidden_by_setting
            .extend(self.forbid_feature.iter().cloned());
        if self.group_column.is_some() {
            spec.group_column.clone_from(&self.group_column);
        }
        spec.allow_group_as_feature |= self.allow_group_as_feature;
    }

    /// Whether any option was given.
    pub fn given(&self) -> bool {
        self.group_column.is_some()
            || self.allow_group_as_feature
            || !self.forbid_feature.is_empty()
            || self.min_leaf_rows.is_some()
    }
}

/// Side constraints on the tree (the MILP formulations oct, binoct, flowoct take every kind;
/// dp and sparse the kinds of the user guide's table, docs/side-constraints.md).
#[derive(Debug, Clone, Default, Args)]
#[group(id = "constraint-options", multiple = true, args = CONSTRAINT_OPTION_IDS)]
pub struct ConstraintArgs {
    /// [oct, binoct, flowoct; dp, sparse: see the user guide] A TOML file of side constraints:
    /// max_features, forbidden, feature_costs with budget, depths (features allowed only at the
    /// listed depths, root 0), max_leaves, min_leaf_rows, max_leaf_rows and rows (linear rows
    /// over the model's variables, named as export-lp lists them; MILPs only).
    #[arg(long, value_name = "FILE")]
    pub constraints: Option<PathBuf>,
    /// [oct, binoct, flowoct, dp, sparse] At most K distinct features in the tree.
    #[arg(long, value_name = "K")]
    pub max_features: Option<usize>,
    /// [oct, binoct, flowoct, dp, sparse] At most L leaves in the tree (one more than its splits; a leaf
    /// no training row reaches counts).
    #[arg(long, value_name = "L")]
    pub max_leaves: Option<usize>,
    /// [oct, binoct, flowoct, dp, sparse] Statistical parity: any two groups' rates of positive
    /// predictions differ by at most DELTA on the training rows (two classes; the positive one
    /// is the second, or positive_class in the constraints file).
    #[arg(long, value_name = "DELTA")]
    pub max_parity_gap: Option<f64>,
    /// [oct, binoct, flowoct, dp, sparse] Equal opportunity: any two groups' rates of positive predictions
    /// on their rows of the positive class differ by at most DELTA.
    #[arg(long, value_name = "DELTA")]
    pub max_opportunity_gap: Option<f64>,
    /// [oct, binoct, flowoct, dp, sparse] Every leaf has at most N training rows (counted unweighted).
    #[arg(long, value_name = "N")]
    pub max_leaf_rows: Option<usize>,
    #[command(flatten)]
    pub fair: FairSearchArgs,
}

impl ConstraintArgs {
    /// Adds the constraints given to `settings` (the file read).
    pub fn add_to(&self, settings: &mut Settings) -> Result<()> {
        if let Some(path) = &self.constraints {
            settings.constraints = Some(ConstraintSpec::from_file(path)?);
        }
        settings.max_features = self.max_features;
        settings.max_leaves = self.max_leaves;
        settings.max_leaf_rows = self.max_leaf_rows;
        settings.max_parity_gap = self.max_parity_gap;
        settings.max_opportunity_gap = self.max_opportunity_gap;
        let fair = &self.fair;
        settings.min_leaf_rows = fair.min_leaf_rows;
        settings.forbidden_features.clone_from(&fair.forbid_feature);
        settings.group_column.clone_from(&fair.group_column);
        settings.allow_group_as_feature = fair.allow_group_as_feature;
        Ok(())
    }

    /// The constraints given, or `None` when there are none.
    pub fn spec(&self) -> Result<Option<ConstraintSpec>> {
        let mut settings = Settings::new(MethodKind::Oct);
        self.add_to(&mut settings)?;
        Ok(settings.constraint_spec())
    }
}

/// The text line of a run's side constraints (the report's `side_constraints`), if it has any:
/// the features used (and their cost), the leaves, the rows per leaf under bounds on them and
/// each user row's value.
pub fn text_line(report: &serde_json::Value) -> Option<String> {
    let fields = report.as_object()?;
    let used: Vec<&str> = fields
        .get("features_used")?
        .as_array()?
        .iter()
        .filter_map(|f| f.as_str())
        .collect();
    let mut parts = vec![format!(
        "features used {} ({})",
        used.len(),
        used.join(", ")
    )];
    if let (Some(cost), Some(budget)) = (
        fields.get("feature_cost"),
        report["constraints"].get("budget"),
    ) {
        parts.push(format!("feature cost {cost} of budget {budget}"));
    }
    if let Some(leaves) = fields.get("leaves") {
        parts.push(format!("leaves {leaves}"));
    }
    if let Some(fairness) = fields.get("fairness") {
        parts.push(super::fairness_line::text(fairness));
    }
    if let Some(sizes) = fields.get("leaf_rows").and_then(|s| s.as_object()) {
        // By leaf id (the report's keys are text, `10` before `8`).
        let mut sizes: Vec<(usize, String)> = sizes
            .iter()
            .map(|(leaf, rows)| {
                (
                    leaf.parse().unwrap_or(usize::MAX),
                    format!("{leaf}: {rows}"),
                )
            })
            .collect();
        sizes.sort();
        let sizes: Vec<String> = sizes.into_iter().map(|(_, text)| text).collect();
        parts.push(format!("rows per leaf {{{}}}", sizes.join(", ")));
    }
    for row in fields
        .get("rows")
        .and_then(|r| r.as_array())
        .into_iter()
        .flatten()
    {
        parts.push(format!(
            "`{}` at {} ({})",
            row["row"].as_str().unwrap_or_default(),
            row["activity"],
            if row["holds"] == true {
                "holds"
            } else {
                "BROKEN"
            }
        ));
    }
    Some(format!("side constraints: {}", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use clap::{Args, Command};

    use super::*;

    /// The group of the constraint options lists every option of [`ConstraintArgs`], those of
    /// the flattened [`FairSearchArgs`] included.
    #[test]
    fn the_group_lists_every_constraint_option() {
        let command = ConstraintArgs::augment_args(Command::new("solve"));
        let mut ids: Vec<String> = command
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .collect();
        ids.sort();
        let group = command
            .get_groups()
            .find(|g| g.get_id() == CONSTRAINT_OPTIONS)
            .expect("the group");
        let mut listed: Vec<String> = group.get_args().map(|a| a.to_string()).collect();
        listed.sort();
        assert_eq!(listed, ids);
    }
}
