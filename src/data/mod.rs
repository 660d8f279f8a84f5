//! Labelled tabular data: the [`Dataset`] type, its [`Schema`] (how the file's columns map to
//! model features), and the modules that read, split and summarise it.
//!
//! Features are `f64`. A categorical column (a column whose cells are all non-numeric text, or
//! one declared categorical) gives one `column=value` feature (0 or 1) per category, so that a
//! split on such a feature reads `column = value`. The label column holds any text; labels are
//! kept as written.

mod column_options;
mod csv_reader;
mod feature_source;
mod fingerprint;
mod group_column;
mod line_index;
mod missing;
mod repeat;
mod split;
mod thresholds;

use serde::{Deserialize, Serialize};

pub use column_options::{parse_delimiter, ColumnOptions, DEFAULT_MAX_CATEGORIES};
pub use csv_reader::{
    read_dataset, read_for_schema, read_table, read_weighted_dataset, same_label, TargetColumn,
};
pub use feature_source::FeatureSource;
pub use missing::{MissingValues, DEFAULT_NA_VALUES};
pub use repeat::{Factored, FACTORED_WEIGHTS, MAX_MULTIPLIED_WEIGHT, MAX_REPEATED_ROWS};
pub use split::{stratified_split, Sets, TrainTest};
pub use thresholds::{candidate_thresholds, feature_thresholds, midpoint, ThresholdMode};

/// How one column of the input file is used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ColumnKind {
    /// A numeric feature column, used as it is.
    Numeric,
    /// A categorical column (text, or numeric codes declared categorical), one-hot encoded
    /// into one `column=value` feature per category.
    Categorical { categories: Vec<String> },
    /// The label column.
    Target,
    /// The row-weight column (`--weight-column`): not a feature; each cell is the weight of its
    /// row, a finite non-negative number.
    Weight,
}

/// One column of the input file, in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    #[serde(flatten)]
    pub kind: ColumnKind,
}

/// The widest range (largest minus smallest value) a feature may span. Beyond it, the squared
/// deviations that standardisation and scaling compute overflow `f64` (at about `1.3e154`), and
/// a formulation could report a wrong optimum; such data is refused when it is read.
pub const MAX_FEATURE_RANGE: f64 = 1e150;

/// The mapping from the file's columns to the model's features, kept in every tree so that
/// later data can be checked and encoded the same way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// Every column of the file that the tree reads, in the file's order, the label column
    /// included (columns left out with `--ignore` are not listed).
    pub columns: Vec<Column>,
    /// The name of the label column.
    pub target: String,
    /// The model's feature names, in feature order (`column` or `column=value`).
    pub features: Vec<String>,
}

impl Schema {
    /// Number of model features.
    pub fn n_features(&self) -> usize {
        self.features.len()
    }

    /// Checks that the schema can describe a file: column names given once, exactly one
    /// label column (kind `target`) named [`Schema::target`], every categorical column with
    /// categories given once, and feature names given once. Says what is wrong otherwise.
    pub fn check(&self) -> Result<(), String> {
        let mut names = std::collections::HashSet::new();
        for column in &self.columns {
            if !names.insert(column.name.as_str()) {
                return Err(format!("column `{}` is given twice", column.name));
            }
            if let ColumnKind::Categorical { categories } = &column.kind {
                if categories.is_empty() {
                    return Err(format!("column `{}` has no categories", column.name));
                }
                let mut seen = std::collections::HashSet::new();
                if let Some(twice) = categories.iter().find(|c| !seen.insert(c.as_str())) {
                    return Err(format!(
                        "column `{}` lists the category `{twice}` twice",
                        column.name
                    ));
                }
            }
        }
        let targets: Vec<&str> = self
            .columns
            .iter()
            .filter(|c| c.kind == ColumnKind::Target)
            .map(|c| c.name.as_str())
            .collect();
        match targets.as_slice() {
            [] => return Err("no column of kind `target` (the label column)".into()),
            [target] if *target == self.target => {}
            [_] => {
                return Err(format!(
                    "the label column `{}` is not a column of kind `target`",
                    self.target
                ))
            }
            [first, second, ..] => {
                return Err(format!(
                    "columns `{first}` and `{second}` are both of kind `target`"
                ))
            }
        }
        let mut features = std::collections::HashSet::new();
        if let Some(twice) = self.features.iter().find(|f| !features.insert(f.as_str())) {
            return Err(format!("feature `{twice}` is given twice"));
        }
        Ok(())
    }

    /// Builds the feature names from the columns: numeric columns keep their name, categorical
    /// columns give one `column=value` feature per category; the target gives none. The names
    /// are distinct by construction: a `column=value` name that is already taken (a column
    /// named `c=x` beside the category `x` of a column `c`) becomes `column=value#2` (or `#3`,
    /// ..., the first one free). Column names are distinct (the reader refuses duplicates), so
    /// a numeric column always keeps its name.
    pub fn features_of(columns: &[Column]) -> Vec<String> {
        let mut taken: std::collections::HashSet<String> = columns
            .iter()
            .filter(|c| c.kind == ColumnKind::Numeric)
            .map(|c| c.name.clone())
            .collect();
        let mut features = Vec::new();
        for source in feature_source::sources_of(columns) {
            match source {
                FeatureSource::Numeric { column } => features.push(column.to_string()),
                FeatureSource::Category { column, category } => {
                    let wanted = format!("{column}={category}");
                    let name = if taken.contains(&wanted) {
                        // Finitely many names are taken, so a free one comes.
                        (2..)
                            .map(|k| format!("{wanted}#{k}"))
                            .find(|candidate| !taken.contains(candidate))
                            .unwrap_or(wanted)
                    } else {
                        wanted
                    };
                    taken.insert(name.clone());
                    features.push(name);
                }
            }
        }
        features
    }
}

/// A labelled dataset: one row of feature values and one class index per observation.
///
/// The fields are private so that every dataset keeps its invariants: one label per row, one
/// value per feature in every row (finite, or `NaN` for a missing value), and every label a
/// valid class index. Build one by
/// reading a file ([`read_dataset`]) or with [`Dataset::from_parts`].
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    /// Where the data came from (a file path), used in messages.
    source: String,
    schema: Schema,
    /// The class labels as written in the file; a class index points into this list.
    classes: Vec<String>,
    /// Feature values, one `Vec` of `schema.n_features()` values per row.
    rows: Vec<Vec<f64>>,
    /// Class index of each row.
    labels: Vec<usize>,
    /// The weight of each row (finite, non-negative, not all 0); `None`: every row weighs 1.
    weights: Option<Vec<f64>>,
}

impl Dataset {
    /// A dataset from values in memory: numeric features named `features`, class labels
    /// `classes`, one row of feature values and one class index per observation. The schema
    /// gets the features as numeric columns followed by a label column `class`.
    pub fn from_parts(
        source: impl Into<String>,
        features: Vec<String>,
        classes: Vec<String>,
        rows: Vec<Vec<f64>>,
        labels: Vec<usize>,
    ) -> crate::Result<Dataset> {
        let mut columns: Vec<Column> = features
            .iter()
            .map(|name| Column {
                name: name.clone(),
                kind: ColumnKind::Numeric,
            })
            .collect();
        columns.push(Column {
            name: "class".into(),
            kind: ColumnKind::Target,
        });
        let schema = Schema {
            columns,
            target: "class".into(),
            features,
        };
        Dataset::with_schema(source, schema, classes, rows, labels)
    }

    /// A dataset over a given schema, checked: one label per row, one value per feature in every
    /// row (finite, or `NaN`: missing), no feature spanning more than [`MAX_FEATURE_RANGE`], every label a class
    /// index.
    pub fn with_schema(
        source: impl Into<String>,
        schema: Schema,
        classes: Vec<String>,
        rows: Vec<Vec<f64>>,
        labels: Vec<usize>,
    ) -> crate::Result<Dataset> {
        let source = source.into();
        let bad = |message: String| crate::Error::input(&source, message);
        let n_features = schema.n_features();
        if rows.len() != labels.len() {
            return Err(bad(format!(
                "{} rows but {} labels",
                rows.len(),
                labels.len()
            )));
        }
        if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != n_features) {
            return Err(bad(format!(
                "row {i} has {} values for {n_features} features",
                row.len(),
            )));
        }
        if rows.iter().flatten().any(|v| v.is_infinite()) {
            return Err(bad("a feature value is infinite".into()));
        }
        for (j, name) in schema.features.iter().enumerate() {
            // `min` and `max` skip NaN (a missing value).
            let (low, high) = rows
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), row| {
                    (l.min(row[j]), h.max(row[j]))
                });
            if high - low > MAX_FEATURE_RANGE {
                return Err(bad(format!(
                    "column `{name}`: its values span from {low:e} to {high:e}, a range wider \
                     than {MAX_FEATURE_RANGE:e}, which milptree does not accept (the squares of \
                     such differences overflow); rescale the column (e.g. divide it by a power \
                     of ten) or take its logarithm"
                )));
            }
        }
        if let Some(&label) = labels.iter().find(|&&l| l >= classes.len()) {
            return Err(bad(format!(
                "label {label} is not one of {} classes",
                classes.len()
            )));
        }
        Ok(Dataset {
            source,
            schema,
            classes,
            rows,
            labels,
            weights: None,
        })
    }

    /// The same rows with a weight each: `weights[i]` is the weight of row `i` (a row of weight
    /// `w` counts as `w` rows would). Every weight must be finite and non-negative and not all
    /// may be 0; the error names the first row (0-based, in this dataset's order) that is not.
    pub fn with_weights(mut self, weights: Vec<f64>) -> crate::Result<Dataset> {
        check_weights(&self.source, &weights, self.n_rows(), |i| {
            format!("row {i}")
        })?;
        self.weights = Some(weights);
        Ok(self)
    }

    /// The same rows with every weight 1.
    pub fn without_weights(mut self) -> Dataset {
        self.weights = None;
        self
    }

    /// The same rows (labels, classes, weights) over other features: `features` names them and
    /// `rows[i]` gives row `i`'s values (e.g. the data without some features, or with a feature
    /// in copies). The file's columns are kept, so a tree learned on it can be mapped back.
    pub fn with_features(
        &self,
        features: Vec<String>,
        rows: Vec<Vec<f64>>,
    ) -> crate::Result<Dataset> {
        let schema = Schema {
            columns: self.schema.columns.clone(),
            target: self.schema.target.clone(),
            features,
        };
        self.derived(schema, rows)
    }

    /// A dataset of this one's source, classes, labels and weights, with `schema` and `rows`
    /// (one per row of this one).
    pub(crate) fn derived(&self, schema: Schema, rows: Vec<Vec<f64>>) -> crate::Result<Dataset> {
        let mut derived = Dataset::with_schema(
            self.source.clone(),
            schema,
            self.classes.clone(),
            rows,
            self.labels.clone(),
        )?;
        derived.weights = self.weights.clone();
        Ok(derived)
    }

    /// The same rows with other labels: `classes` and one class index per row (e.g. a
    /// multiclass dataset relabelled as one class against the rest). The weights are kept.
    pub fn relabelled(&self, classes: Vec<String>, labels: Vec<usize>) -> crate::Result<Dataset> {
        let mut relabelled = Dataset::with_schema(
            self.source.clone(),
            self.schema.clone(),
            classes,
            self.rows.clone(),
            labels,
        )?;
        relabelled.weights = self.weights.clone();
        Ok(relabelled)
    }

    /// Where the data came from (a file path), used in messages.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// How the file's columns map to the features.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The class labels as written in the file; a class index points into this list.
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// The feature values, one slice of `n_features()` values per row.
    pub fn rows(&self) -> &[Vec<f64>] {
        &self.rows
    }

    /// The class index of each row.
    pub fn labels(&self) -> &[usize] {
        &self.labels
    }

    pub fn n_rows(&self) -> usize {
        self.rows.len()
    }

    /// The weight of each row, when the rows have weights; `None`: every row weighs 1.
    pub fn weights(&self) -> Option<&[f64]> {
        self.weights.as_deref()
    }

    /// Whether the rows have weights (even if every weight happens to be 1).
    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    /// The weight of row `i` (1 without weights).
    pub fn weight(&self, i: usize) -> f64 {
        self.weights.as_ref().map_or(1.0, |w| w[i])
    }

    /// The sum of the rows' weights (the number of rows without weights).
    pub fn total_weight(&self) -> f64 {
        match &self.weights {
            Some(weights) => weights.iter().sum(),
            None => self.n_rows() as f64,
        }
    }

    /// The sum of the weights of the rows of each class (the counts without weights).
    pub fn class_weight_totals(&self) -> Vec<f64> {
        let mut totals = vec![0.0; self.n_classes()];
        for (i, &label) in self.labels.iter().enumerate() {
            totals[label] += self.weight(i);
        }
        totals
    }

    /// Whether every weight is a whole number (true without weights): then the weighted data
    /// is the data with each row repeated its weight's number of times.
    pub fn has_integer_weights(&self) -> bool {
        self.weights
            .as_ref()
            .is_none_or(|w| w.iter().all(|&x| x.fract() == 0.0 && x <= u32::MAX as f64))
    }

    pub fn n_features(&self) -> usize {
        self.schema.n_features()
    }

    pub fn n_classes(&self) -> usize {
        self.classes.len()
    }

    /// Number of rows of each class.
    pub fn class_counts(&self) -> Vec<usize> {
        count_classes(&self.labels, self.n_classes())
    }

    /// The values of feature `feature` over all rows (empty when there is no such feature).
    pub fn feature_column(&self, feature: usize) -> Vec<f64> {
        if feature >= self.n_features() {
            return Vec::new();
        }
        self.rows.iter().map(|row| row[feature]).collect()
    }

    /// The rows at `indices` (in that order; indices past the end are skipped), with the same
    /// schema and classes.
    pub fn subset(&self, indices: &[usize]) -> Dataset {
        let indices: Vec<usize> = indices
            .iter()
            .copied()
            .filter(|&i| i < self.n_rows())
            .collect();
        Dataset {
            source: self.source.clone(),
            schema: self.schema.clone(),
            classes: self.classes.clone(),
            rows: indices.iter().map(|&i| self.rows[i].clone()).collect(),
            labels: indices.iter().map(|&i| self.labels[i]).collect(),
            weights: self
                .weights
                .as_ref()
                .map(|w| indices.iter().map(|&i| w[i]).collect()),
        }
    }

    /// Whether any feature value is missing (`NaN`).
    pub fn has_missing(&self) -> bool {
        self.rows.iter().flatten().any(|v| v.is_nan())
    }

    /// Refuses data with missing values for `method`, which does not take them.
    pub fn refuse_missing(&self, method: &str) -> crate::Result<()> {
        match (0..self.n_features()).find(|&j| self.rows.iter().any(|row| row[j].is_nan())) {
            Some(j) => Err(crate::Error::input(
                &self.source,
                format!(
                    "feature `{}` has missing values, which {method} does not take; remove or \
                     impute them first",
                    self.schema.features[j]
                ),
            )),
            None => Ok(()),
        }
    }

    /// Number of errors of the majority-class baseline (predict the most frequent class).
    pub fn baseline_errors(&self) -> usize {
        let counts = self.class_counts();
        self.n_rows() - counts.iter().copied().max().unwrap_or(0)
    }
}

/// `x` as messages show a number: the shortest text that reads back as `x` for magnitudes from
/// 1e-5 to 1e15, and the exponent form beyond (`1e300`, `5e-324`), so that no message spells
/// out hundreds of digits.
pub fn short_number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-5..1e15).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Checks row weights for `n_rows` rows: one per row, each finite and non-negative, not all 0
/// (a subset may be all 0 only when it has no rows). `row` names row `i` in messages.
pub(crate) fn check_weights(
    source: &str,
    weights: &[f64],
    n_rows: usize,
    row: impl Fn(usize) -> String,
) -> crate::Result<()> {
    let bad = |message: String| crate::Error::input(source, message);
    if weights.len() != n_rows {
        return Err(bad(format!("{} weights for {n_rows} rows", weights.len())));
    }
    if let Some((i, w)) = weights
        .iter()
        .enumerate()
        .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
    {
        return Err(bad(format!(
            "{}: the weight {} is not a finite non-negative number",
            row(i),
            short_number(*w)
        )));
    }
    if n_rows > 0 && weights.iter().all(|&w| w == 0.0) {
        return Err(bad(
            "every row has weight 0: there is nothing to learn from".into(),
        ));
    }
    Ok(())
}

/// Data read against a tree's schema for prediction: the rows, and the labels when the file
/// has the label column. `classes` starts with the tree's classes, in the tree's order; labels
/// the tree has never seen are appended after them.
#[derive(Debug, Clone, PartialEq)]
pub struct Observations {
    pub source: String,
    pub rows: Vec<Vec<f64>>,
    pub labels: Option<Vec<usize>>,
    /// The rows' weights, when the tree was learned with a weight column and the file has it.
    pub weights: Option<Vec<f64>>,
    pub classes: Vec<String>,
}

/// Counts how many labels fall in each of `n_classes` classes (labels out of range are not
/// counted).
pub fn count_classes(labels: &[usize], n_classes: usize) -> Vec<usize> {
    let mut counts = vec![0; n_classes];
    for &label in labels {
        if let Some(count) = counts.get_mut(label) {
            *count += 1;
        }
    }
    counts
}
