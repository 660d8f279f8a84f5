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

/// How a menu's entry labels its rows: a leaf and a split over two leaves by value (the menus
/// hold many, and allocate none), deeper trees shared.
#[derive(Debug, Clone)]
pub(crate) enum Pick {
    Leaf(u8),
    Stump {
        feature: u32,
        bin: u32,
        left: u8,
        right: u8,
    },
    Tree(Arc<Shape>),
}

impl Pick {
    /// The tree it picks.
    pub fn shape(&self) -> Arc<Shape> {
        let leaf = |class: u8| Arc::new(Shape::Leaf(usize::from(class)));
        match self {
            Pick::Leaf(class) => leaf(*class),
            Pick::Stump {
                feature,
                bin,
                left,
                right,
            } => Arc::new(Shape::Split {
                feature: *feature,
                bin: *bin,
                left: leaf(*left),
                right: leaf(*right),
            }),
            Pick::Tree(tree) => Arc::clone(tree),
        }
    }

    /// The split on `feature` at `bin` over `left` and `right`.
    pub fn split(feature: u32, bin: u32, left: &Pick, right: &Pick) -> Pick {
        match (left, right) {
            (Pick::Leaf(left), Pick::Leaf(right)) => Pick::Stump {
                feature,
                bin,
                left: *left,
                right: *right,
            },
            _ => Pick::Tree(Arc::new(Shape::Split {
                feature,
                bin,
                left: left.shape(),
                right: right.shape(),
            })),
        }
    }
}
