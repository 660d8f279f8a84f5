//! Indented text rendering of a tree, in the style of scikit-learn's `export_text`:
//!
//! ```text
//! |--- petal_length <= 2.45
//! |   |--- class: setosa  [50, 0, 0]
//! |--- petal_length >  2.45
//! |   |--- class: versicolor  [0, 50, 50]
//! ```
//!
//! A split on one category of a categorical column reads `colour != blue` (left) and
//! `colour = blue` (right); one of the rows missing the column from the rest, `colour is
//! missing` and `colour is present`. Leaves show their class and the per-class training counts; a
//! branch that no training row takes is marked `(no training rows)`.

use std::fmt;

use crate::export::{
    constant_note, constant_side, counts_list, missing_note, split_condition, worded_conditions,
};
use crate::tree::{NodeKind, Tree};

/// Displays a tree as indented text.
pub struct TextView<'a>(pub &'a Tree);

impl TextView<'_> {
    fn write_node(&self, f: &mut fmt::Formatter<'_>, id: usize, level: usize) -> fmt::Result {
        let tree = self.0;
        let Some(node) = tree.node(id) else {
            return Ok(());
        };
        let indent = "|   ".repeat(level);
        match &node.kind {
            NodeKind::Leaf { class } => writeln!(
                f,
                "{indent}|--- class: {}  {}",
                tree.classes()[*class],
                counts_list(&node.counts)
            ),
            NodeKind::Split(split) => {
                let (lhs, rhs) = split_condition(tree, split);
                let worded = worded_conditions(tree, id, split);
                let constant = constant_side(split);
                for (child, op, side) in [(2 * id, "<=", "left"), (2 * id + 1, "> ", "right")] {
                    let condition = match &worded {
                        Some((left, _)) if side == "left" => left.clone(),
                        Some((_, right)) => right.clone(),
                        None => format!("{lhs} {op} {rhs}"),
                    };
                    let empty = tree.node(child).is_some_and(|c| c.rows() == 0) && node.rows() > 0;
                    let mark = match constant {
                        Some(to) if to == side => format!("  ({})", constant_note(to)),
                        _ if empty => "  (no training rows)".to_string(),
                        _ => String::new(),
                    };
                    let missing = match missing_note(tree, id) {
                        Some(note) if tree.missing_side(id).map(|s| s.name()) == Some(side) => {
                            format!(" ({note})")
                        }
                        _ => String::new(),
                    };
                    writeln!(f, "{indent}|--- {condition}{missing}{mark}")?;
                    self.write_node(f, child, level + 1)?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for TextView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_node(f, 1, 0)
    }
}
