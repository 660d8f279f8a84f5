//! Self-contained HTML pages of trees, fronts, tuning runs, regularisation paths and solver
//! trajectories: one file each, its script (plain JavaScript drawing inline SVG, `page.js`)
//! and styles inline, opening offline and making no request (its content-security policy
//! forbids them). A page draws each tree as a diagram whose subtrees collapse and expand, with
//! every split's condition and missing side, every node's training counts (and weights), every
//! leaf's class and probabilities, the provenance beside it, and a row's path highlighted from
//! typed values or from embedded rows ([`Rows`], embedded when few enough).
//!
//! [`Page`] holds what a page shows; [`TreeModel`] is a tree as the page routes it (by the
//! tree's own rule: `x <= threshold` left, missing values to the learned side or to the child
//! more training rows reached). The commands build their pages from their reports.

mod page;
mod tree_model;

pub use page::{Chart, ChartPoint, Fact, Page, Series, SeriesStyle, Table, TableRow, TreeEntry};
pub use tree_model::{Input, NodeModel, Rows, RowsModel, TreeModel, MAX_EMBEDDED_VALUES};

use serde_json::Value;

use crate::export::{significant, TextView};
use crate::tree::{Provenance, Tree};

/// A figure with ten significant digits (`0.025`, not `0.025000000000000001`), or `-` when
/// unknown.
pub fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| significant(v, 10))
}

/// A gap as a percentage with four decimals, as `show` and `solve` print it.
pub fn gap_text(gap: Option<f64>) -> String {
    gap.map_or_else(|| "-".to_string(), |g| format!("{:.4}%", 100.0 * g))
}

/// A JSON value as short text: strings bare, fractions to ten significant digits, arrays of
/// strings joined by commas, others as compact JSON.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) if number.is_f64() => figure(number.as_f64()),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            if items.is_empty() {
                "none".to_string()
            } else {
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        }
        other => other.to_string(),
    }
}

/// A method's parameters as `name value` pairs, those without a value (`null`, `[]`) left
/// out.
pub fn parameters_text(parameters: &Value) -> String {
    match parameters.as_object() {
        Some(fields) => fields
            .iter()
            .filter(|(_, v)| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
            .map(|(name, value)| format!("{} {}", name.replace('_', " "), value_text(value)))
            .collect::<Vec<_>>()
            .join(", "),
        None => value_text(parameters),
    }
}

/// The side constraints' report as lines `name: value` (the constraints, then the tree's
/// values under them and what it breaks).
pub fn side_constraints_text(report: &Value) -> String {
    match report.as_object() {
        Some(fields) => fields
            .iter()
            .map(|(name, value)| format!("{}: {}", name.replace('_', " "), value_text(value)))
            .collect::<Vec<_>>()
            .join("\n"),
        None => value_text(report),
    }
}

/// The facts of a tree file's provenance: how the tree was made, how good it is known to be,
/// and which rows it was learned on.
pub fn provenance_facts(made: &Provenance) -> Vec<Fact> {
    let training = &made.training;
    let mut facts = vec![
        Fact::new("method", "method", &made.method),
        Fact::new("solver", "solver", &made.solver),
        Fact::new(
            "parameters",
            "parameters",
            parameters_text(&made.parameters),
        ),
        Fact::new("termination", "termination", &made.termination),
    ];
    if let Some(source) = &made.tree_source {
        facts.push(Fact::new("tree_source", "tree from", source));
    }
    facts.extend([
        Fact::new("objective", "objective", figure(made.objective)),
        Fact::new("bound", "bound", figure(made.bound)),
        Fact::new("gap", "gap", gap_text(made.gap)),
    ]);
    if let Some(certificate) = &made.certificate {
        facts.push(Fact::new(
            "certificate",
            "certificate",
            format!("{}: {}", certificate.verdict, certificate.message),
        ));
    }
    if let Some(constraints) = &made.side_constraints {
        facts.push(Fact::new(
            "side_constraints",
            "side constraints",
            side_constraints_text(constraints),
        ));
    }
    facts.extend([
        Fact::new(
            "seconds",
            "seconds",
            made.seconds
                .map_or_else(|| "-".to_string(), |s| format!("{s:.3}")),
        ),
        Fact::new("time_limit", "time limit", figure(made.time_limit)),
        Fact::new(
            "training",
            "training rows",
            format!("{} of {}", training.rows, training.path),
        ),
        Fact::new("fingerprint", "data fingerprint", &training.fingerprint),
        Fact::new(
            "split",
            "train/test split",
            match training.test_fraction {
                Some(fraction) => format!(
                    "test fraction {fraction}, seed {}",
                    training
                        .split_seed
                        .map_or_else(|| "-".to_string(), |s| s.to_string())
                ),
                None => "none (every row is a training row)".to_string(),
            },
        ),
        Fact::new("version", "milptree version", &made.milptree_version),
    ]);
    facts
}

/// A tree's caption: its depth, splits and leaves.
pub fn tree_caption(tree: &Tree) -> String {
    let (splits, leaves) = (tree.n_splits(), tree.leaves().len());
    format!(
        "Tree of depth {}: {splits} split{}, {leaves} lea{}",
        tree.actual_depth(),
        if splits == 1 { "" } else { "s" },
        if leaves == 1 { "f" } else { "ves" }
    )
}

/// The title of a tree's page: how it was learned and on what, when its file says.
pub fn tree_title(tree: &Tree) -> String {
    match &tree.provenance {
        Some(made) => format!(
            "{} tree of depth {} on {}",
            made.method,
            tree.actual_depth(),
            made.training.path
        ),
        None => format!("Tree of depth {}", tree.actual_depth()),
    }
}

impl Page {
    /// Embeds `rows` when few enough, or says why not.
    pub fn with_rows(mut self, rows: Option<&Rows<'_>>) -> Page {
        match rows.map(Rows::embedded) {
            Some(Ok(model)) => self.rows = Some(model),
            Some(Err(note)) => self.rows_note = Some(note),
            None => {}
        }
        self
    }

    /// Adds `tree` (its weights from `rows`, when they have some) under `caption`, with
    /// `facts` of its own.
    pub fn add_tree(
        &mut self,
        tree: &Tree,
        caption: String,
        facts: Vec<Fact>,
        rows: Option<&Rows<'_>>,
    ) {
        self.trees.push(TreeEntry {
            caption,
            facts,
            model: TreeModel::of(tree, rows),
        });
    }
}

/// The page of one tree: its diagram and its provenance; `rows` to route (the training rows,
/// or any rows with the tree's columns), embedded when few enough.
pub fn tree_page(tree: &Tree, rows: Option<&Rows<'_>>) -> String {
    let mut page = Page::new("tree", tree_title(tree)).with_rows(rows);
    page.facts = tree
        .provenance
        .as_ref()
        .map(provenance_facts)
        .unwrap_or_default();
    if tree.provenance.is_none() {
        page.notes
            .push("the tree file records no provenance".to_string());
    }
    page.add_tree(tree, tree_caption(tree), Vec::new(), rows);
    page.to_html(Some(&TextView(tree).to_string()))
}
