//! The trees of the fair search's menus ([`Shape`]): leaves of a chosen class and splits on a
//! searched feature at a threshold bin, their subtrees shared between the menus' entries, read
//! by [`crate::search_core::subtree::build_tree`] to rebuild the tree on the data.

use std::sync::Arc;

use crate::search_core::subtree::{BinNode, BinTree};

/// A tree over bins whose leaves predict the class given.
#[derive(Debug)]
pub(crate) enum Shape {
    Leaf(usize),
    Split {
        feature: u32,
        bin: u32,
        left: Arc<Shape>,
        right: Arc<Shape>,
    },
}

impl BinTree for Shape {
    fn node(&self) -> BinNode<'_, Shape> {
        match self {
            Shape::Leaf(class) => BinNode::Leaf { class: *class },
            Shape::Split {
                feature,
                bin,
                left,
                right,
            } => BinNode::Split {
                feature: *feature,
                bin: *bin,
                left,
                right,
            },
        }
    }
}

impl Shape {
    /// The split on `feature` at `bin` over `left` and `right`.
    pub fn split(feature: u32, bin: u32, left: &Arc<Shape>, right: &Arc<Shape>) -> Arc<Shape> {
        Arc::new(Shape::Split {
            feature,
            bin,
            left: Arc::clone(left),
            right: Arc::clone(right),
        })
    }
}
