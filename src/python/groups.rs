//! What [`super::fit`] takes beside the settings: groups given beside the rows rather than as a
//! column of them (the estimator's `sensitive_features`, [`Groups`]): the search sees them as a last categorical
//! column that the fairness bounds read and no split may use, and the tree it returns is
//! mapped back to the rows without them, so that it predicts from those alone.

use crate::constraints::ConstraintSpec;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::tree::{derived, NodeKind, Split, Tree};

/// The name the group column takes when no column of the data has it.
const GROUP_COLUMN: &str = "sensitive_features";

/// Groups given beside the rows: the data without them, to map the tree back to.
pub(crate) struct Groups {
    /// The data as the method prepares it, without the group column.
    base: Dataset,
}

impl Groups {
    /// `data` with `groups` (one per row) as a last categorical column of a free name, which
    /// `spec` gets as its group column (a spec that names one already is an error), and what
    /// maps the tree back; `prepare` is the method's preparation of its data.
    pub(crate) fn add(
        data: Dataset,
        groups: &[String],
        spec: &mut Option<ConstraintSpec>,
        prepare: impl Fn(Dataset) -> Result<Dataset>,
    ) -> Result<(Dataset, Groups)> {
        let spec = spec.get_or_insert_with(ConstraintSpec::default);
        if spec.group_column.is_some() {
            return Err(Error::parameter(
                "--group-column",
                "the groups are given beside the rows; give no group column too",
            ));
        }
        if spec.allow_group_as_feature {
            return Err(Error::parameter(
                "--allow-group-as-feature",
                "the groups are given beside the rows, so no split can use them",
            ));
        }
        let name = data.free_column_name(GROUP_COLUMN);
        let grouped = data.with_group_column(&name, groups)?;
        spec.group_column = Some(name);
        Ok((
            grouped,
            Groups {
                base: prepare(data)?,
            },
        ))
    }

    /// `tree`, learned on `grouped` (the prepared data with the group column), over the data
    /// without it, counted on its rows; its provenance's side constraints as
    /// [`Groups::side_constraints_without`] leaves them. A split on the groups is an internal
    /// error (no bound lets the search use them).
    pub(crate) fn tree_without(&self, tree: &Tree, grouped: &Dataset) -> Result<Tree> {
        let n_features = self.base.n_features();
        let on_groups = tree.nodes().any(|(_, node)| match &node.kind {
            NodeKind::Split(Split::Axis { feature, .. }) => *feature >= n_features,
            NodeKind::Split(Split::Oblique { .. }) => true,
            NodeKind::Leaf { .. } => false,
        });
        if on_groups {
            return Err(Error::Internal(
                "the tree splits on the groups given beside the rows".into(),
            ));
        }
        let mut mapped = derived::map_back(
            tree,
            grouped,
            &self.base,
            &|id, feature, _| (feature, tree.missing_side(id)),
            "the data with the groups",
        )?;
        if let Some(side) = mapped
            .provenance
            .as_mut()
            .and_then(|p| p.side_constraints.as_mut())
        {
            self.side_constraints_without(side, grouped);
        }
        Ok(mapped)
    }

    /// The JSON text of the report `text` (of a run on `grouped`) over the rows without the
    /// groups: its tree `tree` (the tree mapped back, [`Groups::tree_without`]), the number of
    /// features of the rows, and its side constraints as [`Groups::side_constraints_without`]
    /// leaves them.
    pub(crate) fn report_without(
        &self,
        text: &str,
        grouped: &Dataset,
        tree: &Tree,
    ) -> Result<String> {
        let json = |text: &str| {
            serde_json::from_str::<serde_json::Value>(text)
                .map_err(|e| Error::Internal(format!("a report that is not JSON: {e}")))
        };
        let mut report = json(text)?;
        if let Some(side) = report.get_mut("side_constraints") {
            self.side_constraints_without(side, grouped);
        }
        if let Some(reported) = report.get_mut("tree").filter(|t| !t.is_null()) {
            *reported = json(&tree.to_json_string())?;
        }
        if let Some(features) = report.pointer_mut("/data/features") {
            *features = self.base.n_features().into();
        }
        Ok(report.to_string())
    }

    /// A report's side constraints (`side`, of a run on `grouped`) without the features of the
    /// group column, which the tree over the rows alone does not have: the fairness
    /// constraint's `group_features` are left out (it says `groups_beside_rows`), and so are
    /// the group's features among the forbidden ones (the list too when nothing else is
    /// forbidden). The groups, their rates and the gaps stay.
    fn side_constraints_without(&self, side: &mut serde_json::Value, grouped: &Dataset) {
        let group_features = &grouped.schema().features[self.base.n_features()..];
        let Some(constraints) = side
            .get_mut("constraints")
            .and_then(serde_json::Value::as_object_mut)
        else {
            return;
        };
        if let Some(fairness) = constraints
            .get_mut("fairness")
            .and_then(serde_json::Value::as_object_mut)
        {
            fairness.remove("group_features");
            fairness.insert("groups_beside_rows".into(), true.into());
        }
        if let Some(forbidden) = constraints
            .get_mut("forbidden")
            .and_then(serde_json::Value::as_array_mut)
        {
            forbidden.retain(|f| !group_features.iter().any(|g| f == g.as_str()));
            if forbidden.is_empty() {
                constraints.remove("forbidden");
            }
        }
    }
}
