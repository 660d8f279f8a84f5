//! The versioned JSON file format of a tree (`milptree-tree`, version 1).
//!
//! The file carries the data's column order and encoding ([`Schema`]), the feature names, the
//! class labels, the scaling of oblique splits, and every node with its training counts.
//! Thresholds are in the data's original units; oblique weights apply to standardised features.
//! Reading checks the format, the version and the tree's structure, and reports problems as
//! [`Error::Format`] naming the file.

use serde::{Deserialize, Serialize};

use crate::data::{Column, Schema};
use crate::error::{Error, Result};
use crate::tree::{Node, NodeKind, Split, Standardisation, Tree, TreeBuilder};

/// The `format` field of every tree file.
pub const TREE_FORMAT: &str = "milptree-tree";
/// The version this build writes and reads.
pub const TREE_FORMAT_VERSION: u32 = 1;

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
                    NodeKind::Split(Split::Axis { feature, threshold }) => NodeFileKind::Split {
                        feature: *feature,
                        feature_name: self.features()[*feature].clone(),
                        threshold: *threshold,
                    },
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
        }
    }

    /// Reads a tree from JSON text; `path` names the source in errors.
    pub fn from_json_str(text: &str, path: &str) -> Result<Tree> {
        let bad = |message: String| Error::Format {
            path: path.to_string(),
            message,
        };
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(TREE_FORMAT) => {}
            Some(other) => return Err(bad(format!("format `{other}` is not `{TREE_FORMAT}`"))),
            None => {
                return Err(bad(format!(
                    "not a milptree tree file (no `format: \"{TREE_FORMAT}\"`)"
                )))
            }
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(TREE_FORMAT_VERSION) => {}
            Some(v) => {
                return Err(bad(format!(
                    "tree file version {v} is not supported (this milptree reads version {TREE_FORMAT_VERSION})"
                )))
            }
            None => return Err(bad("the tree file has no version".into())),
        }
        let file: TreeFile =
            serde_json::from_value(value).map_err(|e| bad(format!("invalid tree file: {e}")))?;
        let schema = Schema {
            features: Schema::features_of(&file.columns),
            columns: file.columns,
            target: file.target,
        };
        if schema.features != file.features {
            return Err(bad(format!(
                "the features [{}] do not follow from the columns (expected [{}])",
                file.features.join(", "),
                schema.features.join(", ")
            )));
        }
        let n_classes = file.classes.len();
        let mut builder = TreeBuilder::new(schema, file.classes.clone(), file.depth)
            .map_err(|e| bad(e.to_string()))?;
        if let Some(s) = file.standardisation {
            builder = builder.standardisation(s);
        }
        let mut counts = Vec::new();
        for node in &file.nodes {
            if node.counts.len() != n_classes {
                return Err(bad(format!(
                    "node {} has {} counts for {n_classes} classes",
                    node.id,
                    node.counts.len()
                )));
            }
            let result = match &node.kind {
                NodeFileKind::Split {
                    feature,
                    feature_name,
                    threshold,
                } => {
                    if file.features.get(*feature) != Some(feature_name) {
                        return Err(bad(format!(
                            "node {}: feature {feature} is not named `{feature_name}`",
                            node.id
                        )));
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
                    if file.classes.get(*class) != Some(label) {
                        return Err(bad(format!(
                            "node {}: class {class} is not labelled `{label}`",
                            node.id
                        )));
                    }
                    builder.leaf(node.id, *class)
                }
            };
            result.map_err(|e| bad(e.to_string()))?;
            counts.push((node.id, node.counts.clone()));
        }
        let mut tree = builder.build().map_err(|e| bad(e.to_string()))?;
        for (id, node_counts) in counts {
            if let Some(Some(Node { counts, .. })) = tree.nodes.get_mut(id) {
                *counts = node_counts;
            }
        }
        if !tree.counts_consistent() {
            return Err(bad(
                "the node counts are inconsistent (a split's counts are not the sum of its children's)".into(),
            ));
        }
        tree.learned_by = file.learned_by;
        Ok(tree)
    }

    /// Reads a tree file.
    pub fn read(path: &std::path::Path) -> Result<Tree> {
        let display = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::input(&display, format!("cannot read the tree file: {e}")))?;
        Tree::from_json_str(&text, &display)
    }
}
