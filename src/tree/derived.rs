//! A tree learned on data derived from the original by feature (features left out, or a
//! feature in copies), mapped back to the original features: each axis split becomes the same
//! threshold on its original feature (with a missing side, if the derivation gives one), the
//! tree is counted on the original rows and checked to route every row to the leaf its derived
//! row reaches. Shared by [`super::missing_copies`] and [`super::kept_features`].

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::tree::{MissingSide, NodeKind, Split, Tree, TreeBuilder};

/// `tree`, learned on `derived`, over the features of `original` (the same rows): `split(id,
/// feature)` gives the original feature of the derived `feature` at node `id` and the split's
/// missing side. `what` names the derived data in the internal errors: a tree over other
/// features, an oblique split, a row routed to another leaf.
pub fn map_back(
    tree: &Tree,
    derived: &Dataset,
    original: &Dataset,
    split: &dyn Fn(usize, usize, f64) -> (usize, Option<MissingSide>),
    what: &str,
) -> Result<Tree> {
    if tree.features() != derived.schema().features.as_slice() {
        return Err(Error::Internal(format!(
            "a tree over other features than {what}"
        )));
    }
    let mut builder = TreeBuilder::new(
        original.schema().clone(),
        tree.classes().to_vec(),
        tree.depth(),
    )?;
    for (id, node) in tree.nodes() {
        match &node.kind {
            NodeKind::Leaf { class } => {
                builder.leaf(id, *class)?;
            }
            NodeKind::Split(Split::Axis { feature, threshold }) => {
                let (feature, side) = split(id, *feature, *threshold);
                builder.split(
                    id,
                    Split::Axis {
                        feature,
                        threshold: *threshold,
                    },
                )?;
                if let Some(side) = side {
                    builder.missing_side(id, side)?;
                }
            }
            NodeKind::Split(Split::Oblique { .. }) => {
                return Err(Error::Internal(format!("an oblique split over {what}")))
            }
        }
    }
    let mut mapped = builder.build()?;
    mapped.learned_by = tree.learned_by.clone();
    mapped.provenance = tree.provenance.clone();
    mapped.recount_on(original)?;
    let same_leaves = original
        .rows()
        .iter()
        .zip(derived.rows())
        .all(|(row, derived)| mapped.leaf_of(row) == tree.leaf_of(derived));
    if !same_leaves {
        return Err(Error::Internal(format!(
            "the tree mapped back from {what} routes a row to another leaf"
        )));
    }
    Ok(mapped)
}
