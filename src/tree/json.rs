//! The versioned JSON file format of a tree (`milptree-tree`, version 2; version 1 still reads).
//!
//! The file carries the data's column order and encoding ([`Schema`]), the feature names, the
//! class labels, the scaling of oblique splits, and every node with its training counts.
//! Version 2 adds `provenance` ([`Provenance`]): how the tree was made, when the run recorded
//! it; a version-1 file is the same without it.
//! An axis split may carry `missing` (`left` or `right`): where the rows missing its feature
//! go; a file without it still reads (the side is then the majority rule of [`Tree`]).
//! Thresholds are in the data's original units; oblique weights apply to standardised features.
//! A split on one category of a categorical column also names the `column` and the `category`
//! (rows with it go right); files without these fields read the same.
//! Reading checks the format, the version and the tree's structure, and reports problems as
//! [`Error::Format`] naming the file.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::data::{Column, Schema};
use crate::error::{Error, Result};
use crate::tree::{
    MissingSide, Node, NodeKind, Provenance, Split, Standardisation, Tree, TreeBuilder,
};

/// The `format` field of every tree file.
pub const TREE_FORMAT: &str = "milptree-tree";
/// The version this build writes.
pub const TREE_FORMAT_VERSION: u32 = 2;
/// The versions this build reads.
const READ_VERSIONS: [u32; 2] = [1, 2];

#[derive(Debug, Serialize, Deserialize)]
struct TreeFile {
    format: String,
    version: u32,
    depth: usize,
    target: String,
    columns: Vec<Column>,
    features: Vec<String>,
    classes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    standardisation: Option<Standardisation>,
    nodes: Vec<NodeFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    learned_by: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provenance: Option<Provenance>,
}

#[derive(Debug, Serialize, Deserialize)]
struct NodeFile {
    id: usize,
    #[serde(flatten)]
    kind: NodeFileKind,
    counts: Vec<usize>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum NodeFileKind {
    Split {
        feature: usize,
        feature_name: String,
        threshold: f64,
        /// The categorical column, for a split on one of its categories.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        column: Option<String>,
        /// The category whose rows go right, for a split on a categorical column.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        category: Option<String>,
        /// Where the rows missing the feature go, when learned (absent: not learned).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        missing: Option<MissingSide>,
    },
    Oblique {
        weights: Vec<f64>,
        bias: f64,
    },
    Leaf {
        class: usize,
        label: String,
    },
}

impl Tree {
    /// The tree as a JSON value in the versioned file format.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(self.to_file()).expect("a tree always serialises")
    }

    /// The tree as pretty-printed JSON in the versioned file format.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string_pretty(&self.to_file()).expect("a tree always serialises")
    }

    fn to_file(&self) -> TreeFile {
        let nodes = self
            .nodes()
            .map(|(id, node)| NodeFile {
                id,
                kind: match &node.kind {
                    NodeKind::Split(split @ Split::Axis { feature, threshold }) => {
                        let category = self.category_split(split);
                        NodeFileKind::Split {
                            feature: *feature,
                            feature_name: self.features()[*feature].clone(),
                            threshold: *threshold,
                            column: category.map(|(column, _)| column.to_string()),
                            category: category.map(|(_, value)| value.to_string()),
                            missing: self.missing_side(id),
                        }
                    }
                    NodeKind::Split(Split::Oblique { weights, bias }) => NodeFileKind::Oblique {
                        weights: weights.clone(),
                        bias: *bias,
                    },
                    NodeKind::Leaf { class } => NodeFileKind::Leaf {
                        class: *class,
                        label: self.classes()[*class].clone(),
                    },
                },
                counts: node.counts.clone(),
            })
            .collect();
        TreeFile {
            format: TREE_FORMAT.to_string(),
            version: TREE_FORMAT_VERSION,
            depth: self.depth(),
            target: self.schema().target.clone(),
            columns: self.schema().columns.clone(),
            features: self.features().to_vec(),
            classes: self.classes().to_vec(),
            standardisation: self.standardisation().cloned(),
            nodes,
            learned_by: self.learned_by.clone(),
            provenance: self.provenance.clone(),
        }
    }

    /// Reads a tree from JSON text (a leading byte order mark is skipped); `path` names the
    /// source in errors, which are all [`Error::Format`].
    pub fn from_json_str(text: &str, path: &str) -> Result<Tree> {
        let bad = |message: String| Error::Format {
            path: path.to_string(),
            message,
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
        check_header(&value).map_err(bad)?;
        let file: TreeFile = serde_path_to_error::deserialize(value).map_err(|e| {
            bad(format!(
                "invalid tree file: at `{}`: {}",
                e.path(),
                e.inner()
            ))
        })?;
        file.into_tree().map_err(bad)
    }

    /// Reads a tree file.
    pub fn read(path: &std::path::Path) -> Result<Tree> {
        let display = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::input(&display, format!("cannot read the tree file: {e}")))?;
        Tree::from_json_str(&text, &display)
    }
}

/// Checks the `format` and `version` fields before the rest of the file is read.
fn check_header(value: &serde_json::Value) -> Result<(), String> {
    match value.get("format") {
        Some(serde_json::Value::String(format)) if format == TREE_FORMAT => {}
        Some(serde_json::Value::String(other)) => {
            return Err(format!("format `{other}` is not `{TREE_FORMAT}`"))
        }
        _ => {
            return Err(format!(
                "not a milptree tree file (no `format: \"{TREE_FORMAT}\"`)"
            ))
        }
    }
    match value.get("version") {
        None => Err("the tree file has no version".into()),
        Some(version)
            if version
                .as_u64()
                .is_some_and(|v| READ_VERSIONS.iter().any(|&r| u64::from(r) == v)) =>
        {
            Ok(())
        }
        Some(serde_json::Value::Number(other)) => Err(format!(
            "tree file version {other} is not supported (this milptree reads versions 1 to \
             {TREE_FORMAT_VERSION})"
        )),
        Some(other) => Err(format!(
            "the version is {other}, {}: it must be a number, 1 to {TREE_FORMAT_VERSION}",
            json_kind(other)
        )),
    }
}

/// Checks the `column` and `category` a split node names, when it names them: both given, the
/// split's feature that category of that column, and a threshold between 0 and 1 (so that the
/// rows with the category go right).
fn check_category(
    schema: &Schema,
    id: usize,
    feature: usize,
    threshold: f64,
    column: &Option<String>,
    category: &Option<String>,
) -> Result<(), String> {
    match (column, category) {
        (None, None) => Ok(()),
        (Some(column), Some(category)) => {
            if schema.category_of(feature) != Some((column.as_str(), category.as_str())) {
                return Err(format!(
                    "node {id}: feature {feature} is not the category `{category}` of the \
                     column `{column}`"
                ));
            }
            if !(0.0..1.0).contains(&threshold) {
                return Err(format!(
                    "node {id}: a split on the category `{category}` needs a threshold from 0 \
                     (included) to 1 (excluded), not {threshold}"
                ));
            }
            Ok(())
        }
        _ => Err(format!(
            "node {id}: a categorical split names both its `column` and its `category`"
        )),
    }
}

/// `a string`, `an object`, ...: what kind of JSON value `value` is.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

impl TreeFile {
    /// The tree the file describes, with every check of its schema, classes, structure and
    /// counts; the message says what is wrong.
    fn into_tree(self) -> Result<Tree, String> {
        let schema = Schema {
            features: Schema::features_of(&self.columns),
            columns: self.columns,
            target: self.target,
        };
        schema.check()?;
        if schema.features != self.features {
            return Err(format!(
                "the features [{}] do not follow from the columns (expected [{}])",
                self.features.join(", "),
                schema.features.join(", ")
            ));
        }
        if self.classes.is_empty() {
            return Err("the tree has no classes".into());
        }
        let mut labels = HashSet::new();
        if let Some(twice) = self.classes.iter().find(|c| !labels.insert(c.as_str())) {
            return Err(format!("class `{twice}` is given twice"));
        }
        let n_classes = self.classes.len();
        let mut builder = TreeBuilder::new(schema.clone(), self.classes.clone(), self.depth)
            .map_err(|e| e.to_string())?;
        if let Some(s) = self.standardisation {
            builder = builder.standardisation(s);
        }
        let mut counts = Vec::new();
        let mut ids = HashSet::new();
        for node in &self.nodes {
            if !ids.insert(node.id) {
                return Err(format!("node {} is given twice", node.id));
            }
            if node.counts.len() != n_classes {
                return Err(format!(
                    "node {} has {} counts for {n_classes} classes",
                    node.id,
                    node.counts.len()
                ));
            }
            let result = match &node.kind {
                NodeFileKind::Split {
                    feature,
                    feature_name,
                    threshold,
                    column,
                    category,
                    missing,
                } => {
                    if self.features.get(*feature) != Some(feature_name) {
                        return Err(format!(
                            "node {}: feature {feature} is not named `{feature_name}`",
                            node.id
                        ));
                    }
                    check_category(&schema, node.id, *feature, *threshold, column, category)?;
                    if let Some(side) = missing {
                        builder
                            .missing_side(node.id, *side)
                            .map_err(|e| e.to_string())?;
                    }
                    builder.split(
                        node.id,
                        Split::Axis {
                            feature: *feature,
                            threshold: *threshold,
                        },
                    )
                }
                NodeFileKind::Oblique { weights, bias } => builder.split(
                    node.id,
                    Split::Oblique {
                        weights: weights.clone(),
                        bias: *bias,
                    },
                ),
                NodeFileKind::Leaf { class, label } => {
                    if self.classes.get(*class) != Some(label) {
                        return Err(format!(
                            "node {}: class {class} is not labelled `{label}`",
                            node.id
                        ));
                    }
                    builder.leaf(node.id, *class)
                }
            };
            result.map_err(|e| e.to_string())?;
            counts.push((node.id, node.counts.clone()));
        }
        let mut tree = builder.build().map_err(|e| e.to_string())?;
        for (id, node_counts) in counts {
            if let Some(Some(Node { counts, .. })) = tree.nodes.get_mut(id) {
                *counts = node_counts;
            }
        }
        // Every node's counts are at most the root's (by consistency, below), so a root total
        // that fits keeps every sum the tree and its evaluation make in range.
        if tree
            .training_counts()
            .iter()
            .try_fold(0usize, |total, &count| total.checked_add(count))
            .is_none()
        {
            return Err(format!(
                "the root's counts add up to more training rows than {} (the largest count)",
                usize::MAX
            ));
        }
        if !tree.counts_consistent() {
            return Err(
                "the node counts are inconsistent (a split's counts are not the sum of its children's)"
                    .into(),
            );
        }
        tree.learned_by = self.learned_by;
        tree.provenance = self.provenance;
        Ok(tree)
    }
}
