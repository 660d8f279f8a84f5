//! Graphviz DOT rendering of a tree, in the style of scikit-learn's `export_graphviz`:
//! split nodes are boxes with their condition, leaves are rounded boxes with their class; every
//! node shows the number of training rows and the per-class counts; the left edge of a split
//! is labelled `True` (the condition holds), the right edge `False`. A split on one category
//! of a categorical column shows `column != category`; one of the rows missing the column from
//! the rest, `column is missing` or `column is present` (whichever goes left).

use std::fmt;

use crate::export::{
    constant_note, constant_side, counts_list, missing_note, split_condition, worded_conditions,
};
use crate::tree::{NodeKind, Tree};

/// Displays a tree as a Graphviz `digraph`.
pub struct DotView<'a>(pub &'a Tree);

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for DotView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tree = self.0;
        writeln!(f, "digraph Tree {{")?;
        writeln!(f, "node [shape=box, fontname=\"helvetica\"] ;")?;
        writeln!(f, "edge [fontname=\"helvetica\"] ;")?;
        for (id, node) in tree.nodes() {
            let counts = format!(
                "rows = {}\\ncounts = {}",
                node.rows(),
                counts_list(&node.counts)
            );
            match &node.kind {
                NodeKind::Split(split) => {
                    let (lhs, rhs) = split_condition(tree, split);
                    let condition = match worded_conditions(tree, id, split) {
                        Some((left, _)) => left,
                        None => format!("{lhs} <= {rhs}"),
                    };
                    let note = constant_side(split)
                        .map(|side| format!("\\n({})", constant_note(side)))
                        .unwrap_or_default();
                    let note = match missing_note(tree, id) {
                        Some(missing) => format!("{note}\\n({missing})"),
                        None => note,
                    };
                    writeln!(
                        f,
                        "{id} [label=\"{}{note}\\n{counts}\"] ;",
                        escape(&condition)
                    )?;
                }
                NodeKind::Leaf { class } => {
                    writeln!(
                        f,
                        "{id} [label=\"class = {}\\n{counts}\", style=\"rounded,filled\", fillcolor=\"#eeeeee\"] ;",
                        escape(&tree.classes()[*class])
                    )?;
                }
            }
            if id > 1 {
                let parent = id / 2;
                if id % 2 == 0 {
                    writeln!(
                        f,
                        "{parent} -> {id} [labeldistance=2.5, labelangle=45, headlabel=\"True\"] ;"
                    )?;
                } else {
                    writeln!(f, "{parent} -> {id} [labeldistance=2.5, labelangle=-45, headlabel=\"False\"] ;")?;
                }
            }
        }
        writeln!(f, "}}")
    }
}
