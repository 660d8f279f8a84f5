//! Fairness between groups of rows ([`Fairness`]): a group column of the data (each distinct
//! value a group, two or more), a positive class, and bounds on the gap between any two
//! groups' rates of positive predictions (statistical parity, `max_parity_gap`) or of positive
//! predictions among their rows of the positive class (equal opportunity,
//! `max_opportunity_gap`), over the training rows, row weights respected.
//!
//! The rates are linear in the rows' predictions with the groups' (weighted) sizes as
//! constants: each pair of groups gives two rows in a model
//! ([`crate::formulation::fairness_rows`]). [`Fairness::values`] recomputes them for a tree by
//! plain code.

use serde::Serialize;

use crate::data::{ColumnKind, Dataset, Schema};
use crate::error::{Error, Result};
use crate::tree::Tree;

use super::ConstraintSpec;

/// The tolerance on a gap: a tree whose gap exceeds the bound by more breaks it.
pub const GAP_TOLERANCE: f64 = 1e-6;

/// A kind of fairness constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FairnessKind {
    /// The rate of positive predictions over all of a group's rows.
    Parity,
    /// The rate of positive predictions over a group's rows of the positive class.
    Opportunity,
}

impl FairnessKind {
    /// The constraint's name (`max_parity_gap`, `max_opportunity_gap`).
    pub fn bound_name(self) -> &'static str {
        match self {
            FairnessKind::Parity => "max_parity_gap",
            FairnessKind::Opportunity => "max_opportunity_gap",
        }
    }

    /// The prefix of its rows' names in a model.
    pub fn row_name(self) -> &'static str {
        match self {
            FairnessKind::Parity => "parity_gap",
            FairnessKind::Opportunity => "opportunity_gap",
        }
    }
}

/// Fairness constraints checked against the training data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fairness {
    /// The group column.
    pub group_column: String,
    /// The features of the group column (one, or one per category).
    pub group_features: Vec<usize>,
    /// Whether the tree may split on the group column.
    pub allow_group_as_feature: bool,
    /// The group values, in sorted order.
    pub groups: Vec<String>,
    /// The group of each training row.
    #[serde(skip)]
    pub row_group: Vec<usize>,
    /// The positive class.
    pub positive: usize,
    /// Its label.
    pub positive_class: String,
    /// The bound on the statistical-parity gap.
    pub max_parity_gap: Option<f64>,
    /// The bound on the equal-opportunity gap.
    pub max_opportunity_gap: Option<f64>,
    /// The training rows' labels.
    #[serde(skip)]
    labels: Vec<usize>,
    /// The training rows' weights.
    #[serde(skip)]
    weights: Vec<f64>,
    /// The training rows' features (to predict them with a tree).
    #[serde(skip)]
    rows: Vec<Vec<f64>>,
}

/// One group's figures in a tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRate {
    pub group: String,
    /// The (weighted) rows of the group.
    pub rows: f64,
    /// The rate of positive predictions over them.
    pub positive_rate: f64,
    /// The (weighted) rows of the group of the positive class.
    pub positive_rows: f64,
    /// The rate of positive predictions over them (`None` without such rows).
    pub true_positive_rate: Option<f64>,
}

/// A tree's fairness figures on the training rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FairnessValues {
    pub groups: Vec<GroupRate>,
    /// The largest difference of two groups' positive rates.
    pub parity_gap: f64,
    /// The largest difference of two groups' true-positive rates (groups with positive rows).
    pub opportunity_gap: f64,
    /// Each bound the tree breaks, in words.
    pub broken: Vec<String>,
}

/// The group column `spec` names, its bounds checked (finite, non-negative, at least one);
/// `None` without a group column, when nothing else needs one.
fn checked_column(spec: &ConstraintSpec) -> Result<Option<String>> {
    let bounds = [
        ("max_parity_gap", spec.max_parity_gap),
        ("max_opportunity_gap", spec.max_opportunity_gap),
    ];
    let Some(column) = spec.group_column.clone() else {
        if let Some((name, _)) = bounds.iter().find(|(_, b)| b.is_some()) {
            return Err(Error::parameter(
                "--group-column",
                format!("{name} needs a group column (--group-column NAME)"),
            ));
        }
        if spec.allow_group_as_feature || spec.positive_class.is_some() {
            return Err(Error::parameter(
                "--group-column",
                "allow_group_as_feature and positive_class need a group column",
            ));
        }
        return Ok(None);
    };
    for (name, bound) in bounds {
        if let Some(delta) = bound {
            if !delta.is_finite() || delta < 0.0 {
                return Err(Error::parameter(
                    format!("--{}", name.replace('_', "-")),
                    format!("{delta} is not a finite number >= 0"),
                ));
            }
        }
    }
    if bounds.iter().all(|(_, b)| b.is_none()) {
        return Err(Error::parameter(
            "--group-column",
            format!(
                "`{column}` is given as the group column, but no bound on a gap \
                 (max_parity_gap, max_opportunity_gap)"
            ),
        ));
    }
    Ok(Some(column))
}

/// The model features of the group column `column` (of kind `kind`): itself when numeric,
/// one per category when categorical. Refused when it is the label or not a feature column.
fn group_features(schema: &Schema, column: &str, kind: Option<&ColumnKind>) -> Result<Vec<usize>> {
    let bad = |message: String| Error::parameter("--group-column", message);
    let features = &schema.features;
    let group_features: Vec<usize> = match kind {
        Some(ColumnKind::Numeric) => features
            .iter()
            .position(|f| *f == column)
            .into_iter()
            .collect(),
        Some(ColumnKind::Categorical { categories }) => categories
            .iter()
            .filter_map(|c| {
                let name = format!("{column}={c}");
                features.iter().position(|f| *f == name)
            })
            .collect(),
        Some(ColumnKind::Target) => {
            return Err(bad(format!(
                "`{column}` is the label column, not a group column"
            )))
        }
        _ => Vec::new(),
    };
    if group_features.is_empty() {
        let names: Vec<&str> = schema
            .columns
            .iter()
            .filter(|c| matches!(c.kind, ColumnKind::Numeric | ColumnKind::Categorical { .. }))
            .map(|c| c.name.as_str())
            .collect();
        return Err(bad(format!(
            "`{column}` is not a feature column of the data (columns: {})",
            names.join(", ")
        )));
    }
    Ok(group_features)
}

/// The index of the positive class: `spec`'s `positive_class`, else the second class.
fn positive_index(spec: &ConstraintSpec, data: &Dataset) -> Result<usize> {
    let Some(label) = &spec.positive_class else {
        return Ok(1);
    };
    data.classes()
        .iter()
        .position(|c| c == label)
        .ok_or_else(|| {
            Error::parameter(
                "positive_class",
                format!(
                    "`{label}` is not a class of the data (classes: {})",
                    data.classes().join(", ")
                ),
            )
        })
}

/// Each row's group (its value of the group column), refused when missing.
fn row_groups(
    data: &Dataset,
    column: &str,
    kind: Option<&ColumnKind>,
    group_features: &[usize],
) -> Result<Vec<String>> {
    let bad = |message: String| Error::parameter("--group-column", message);
    let features = &data.schema().features;
    let mut values = Vec::with_capacity(data.n_rows());
    for (i, row) in data.rows().iter().enumerate() {
        let cells: Vec<f64> = group_features.iter().map(|&j| row[j]).collect();
        if cells.iter().any(|x| x.is_nan()) {
            return Err(bad(format!(
                "the group column `{column}` has a missing value in row {i}; every row needs \
                 a group"
            )));
        }
        let value = match kind {
            Some(ColumnKind::Categorical { .. }) => {
                let on = cells.iter().position(|&x| x == 1.0).ok_or_else(|| {
                    bad(format!(
                        "the group column `{column}` has no category in row {i}"
                    ))
                })?;
                features[group_features[on]][column.len() + 1..].to_string()
            }
            _ => value_name(cells[0]),
        };
        values.push(value);
    }
    Ok(values)
}

/// The distinct value of `x` as a group name (integers without a fraction).
fn value_name(x: f64) -> String {
    format!("{x}")
}

impl Fairness {
    /// The fairness constraints of `spec` on `data`, if it names a group column: the column
    /// must be a feature column of the data without missing values, with two or more values,
    /// on two-class data; the bounds finite and non-negative, at least one given. Errors name
    /// `--group-column` (or the bound).
    pub fn resolve(spec: &ConstraintSpec, data: &Dataset) -> Result<Option<Fairness>> {
        let Some(column) = checked_column(spec)? else {
            return Ok(None);
        };
        let bad = |message: String| Error::parameter("--group-column", message);
        let schema = data.schema();
        let kind = schema
            .columns
            .iter()
            .find(|c| c.name == column)
            .map(|c| &c.kind);
        let group_features = group_features(schema, &column, kind)?;
        if data.n_classes() != 2 {
            return Err(bad(format!(
                "fairness rates need two classes (a positive one and the other), and the data \
                 has {}",
                data.n_classes()
            )));
        }
        let positive = positive_index(spec, data)?;
        let values = row_groups(data, &column, kind, &group_features)?;
        let mut groups = values.clone();
        groups.sort();
        groups.dedup();
        if groups.len() < 2 {
            return Err(bad(format!(
                "the group column `{column}` has {} distinct value{} on the training rows; \
                 fairness needs two groups or more",
                groups.len(),
                if groups.len() == 1 { "" } else { "s" }
            )));
        }
        let row_group: Vec<usize> = values
            .iter()
            .map(|v| groups.binary_search(v).unwrap_or(0))
            .collect();
        let fairness = Fairness {
            group_column: column,
            group_features,
            allow_group_as_feature: spec.allow_group_as_feature,
            groups,
            row_group,
            positive,
            positive_class: data.classes()[positive].clone(),
            max_parity_gap: spec.max_parity_gap,
            max_opportunity_gap: spec.max_opportunity_gap,
            labels: data.labels().to_vec(),
            weights: (0..data.n_rows()).map(|i| data.weight(i)).collect(),
            rows: data.rows().to_vec(),
        };
        fairness.refuse_empty_groups()?;
        Ok(Some(fairness))
    }

    /// Refuses a group without rows (of weight > 0) for a rate it bounds.
    fn refuse_empty_groups(&self) -> Result<()> {
        for kind in self.kinds() {
            let sizes = self.sizes(kind);
            if let Some(g) = sizes.iter().position(|&s| s <= 0.0) {
                return Err(Error::parameter(
                    "--group-column",
                    format!(
                        "group `{}` has no {} (of weight > 0), so its rate for {} is undefined",
                        self.groups[g],
                        match kind {
                            FairnessKind::Parity => "training rows".to_string(),
                            FairnessKind::Opportunity => format!(
                                "training rows of the positive class `{}`",
                                self.positive_class
                            ),
                        },
                        kind.bound_name()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The kinds bounded, with their bounds.
    pub fn bounds(&self) -> Vec<(FairnessKind, f64)> {
        [
            (FairnessKind::Parity, self.max_parity_gap),
            (FairnessKind::Opportunity, self.max_opportunity_gap),
        ]
        .into_iter()
        .filter_map(|(kind, bound)| Some((kind, bound?)))
        .collect()
    }

    /// The bounds, the groups and the positive class in words: `max_parity_gap 0.1 between
    /// the groups of `g` (a, b), positive class `p``.
    pub fn describe(&self) -> String {
        let bounds: Vec<String> = self
            .bounds()
            .iter()
            .map(|(kind, bound)| format!("{} {bound}", kind.bound_name()))
            .collect();
        format!(
            "{} between the groups of `{}` ({}), positive class `{}`",
            bounds.join(" and "),
            self.group_column,
            self.groups.join(", "),
            self.positive_class
        )
    }

    fn kinds(&self) -> Vec<FairnessKind> {
        self.bounds().into_iter().map(|(kind, _)| kind).collect()
    }

    /// Whether row `i` counts in the rates of `kind`.
    pub fn counts(&self, kind: FairnessKind, i: usize) -> bool {
        kind == FairnessKind::Parity || self.labels[i] == self.positive
    }

    /// The (weighted) rows of each group counting in the rates of `kind`.
    pub fn sizes(&self, kind: FairnessKind) -> Vec<f64> {
        let mut sizes = vec![0.0; self.groups.len()];
        for i in (0..self.row_group.len()).filter(|&i| self.counts(kind, i)) {
            sizes[self.row_group[i]] += self.weights[i];
        }
        sizes
    }

    /// The weight of row `i`.
    pub fn weight(&self, i: usize) -> f64 {
        self.weights[i]
    }

    /// `tree`'s figures on the training rows, by plain prediction.
    pub fn values(&self, tree: &Tree) -> FairnessValues {
        let predicted: Vec<bool> = self
            .rows
            .iter()
            .map(|row| tree.predict_row(row) == self.positive)
            .collect();
        self.values_of(&predicted)
    }

    /// The figures of the predictions `positive` (whether each training row is predicted
    /// positive).
    pub fn values_of(&self, positive: &[bool]) -> FairnessValues {
        let n = self.groups.len();
        let (mut rows, mut hits) = (vec![0.0; n], vec![0.0; n]);
        let (mut pos_rows, mut pos_hits) = (vec![0.0; n], vec![0.0; n]);
        for (i, &g) in self.row_group.iter().enumerate() {
            let w = self.weights[i];
            let hit = if positive[i] { w } else { 0.0 };
            rows[g] += w;
            hits[g] += hit;
            if self.labels[i] == self.positive {
                pos_rows[g] += w;
                pos_hits[g] += hit;
            }
        }
        let groups: Vec<GroupRate> = (0..n)
            .map(|g| GroupRate {
                group: self.groups[g].clone(),
                rows: rows[g],
                positive_rate: if rows[g] > 0.0 {
                    hits[g] / rows[g]
                } else {
                    0.0
                },
                positive_rows: pos_rows[g],
                true_positive_rate: (pos_rows[g] > 0.0).then(|| pos_hits[g] / pos_rows[g]),
            })
            .collect();
        let spread = |rates: Vec<f64>| {
            let high = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let low = rates.iter().copied().fold(f64::INFINITY, f64::min);
            if rates.is_empty() {
                0.0
            } else {
                high - low
            }
        };
        let parity_gap = spread(groups.iter().map(|g| g.positive_rate).collect());
        let opportunity_gap = spread(groups.iter().filter_map(|g| g.true_positive_rate).collect());
        let mut broken = Vec::new();
        for (kind, bound) in self.bounds() {
            let gap = match kind {
                FairnessKind::Parity => parity_gap,
                FairnessKind::Opportunity => opportunity_gap,
            };
            if gap > bound + GAP_TOLERANCE {
                broken.push(format!(
                    "the {} gap between the groups of `{}` is {gap}, more than {} = {bound}",
                    match kind {
                        FairnessKind::Parity => "statistical-parity",
                        FairnessKind::Opportunity => "equal-opportunity",
                    },
                    self.group_column,
                    kind.bound_name()
                ));
            }
        }
        FairnessValues {
            groups,
            parity_gap,
            opportunity_gap,
            broken,
        }
    }

    /// The constraints as reported.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four rows: `g` 0, 0, 1, 1; labels 0, 1, 1, 1.
    fn data() -> Dataset {
        Dataset::from_parts(
            "fair".to_string(),
            vec!["x".to_string(), "g".to_string()],
            vec!["n".to_string(), "p".to_string()],
            vec![
                vec![0.0, 0.0],
                vec![1.0, 0.0],
                vec![2.0, 1.0],
                vec![3.0, 1.0],
            ],
            vec![0, 1, 1, 1],
        )
        .expect("valid data")
    }

    fn spec(parity: Option<f64>, opportunity: Option<f64>) -> ConstraintSpec {
        ConstraintSpec {
            group_column: Some("g".to_string()),
            max_parity_gap: parity,
            max_opportunity_gap: opportunity,
            ..ConstraintSpec::default()
        }
    }

    #[test]
    fn rates_and_gaps_are_counted_per_group() {
        let fairness = Fairness::resolve(&spec(Some(0.4), Some(0.0)), &data())
            .expect("valid")
            .expect("fairness");
        assert_eq!(fairness.groups, ["0", "1"]);
        assert_eq!(fairness.positive_class, "p");
        // Predicted positive: rows 1 and 2. Group 0: 1/2 positive, TPR 1/1; group 1: 1/2, 1/2.
        let values = fairness.values_of(&[false, true, true, false]);
        assert_eq!(values.parity_gap, 0.0);
        assert_eq!(values.opportunity_gap, 0.5);
        assert_eq!(values.broken.len(), 1, "{:?}", values.broken);
        assert!(values.broken[0].contains("max_opportunity_gap"));
        // Only row 3: group 0 at 0, group 1 at 1/2.
        let values = fairness.values_of(&[false, false, false, true]);
        assert_eq!(values.parity_gap, 0.5);
        assert!(values.broken.iter().any(|b| b.contains("max_parity_gap")));
    }

    #[test]
    fn a_group_without_positive_rows_has_no_opportunity_rate() {
        let mut flipped = ConstraintSpec {
            positive_class: Some("n".to_string()),
            ..spec(None, Some(0.1))
        };
        let message = Fairness::resolve(&flipped, &data())
            .expect_err("group 1 has no `n` row")
            .to_string();
        assert!(message.contains("group `1`"), "{message}");
        flipped.max_opportunity_gap = None;
        flipped.max_parity_gap = Some(0.1);
        assert!(Fairness::resolve(&flipped, &data()).is_ok());
    }
}
