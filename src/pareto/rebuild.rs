//! The tree of a front point: rebuilt split by split from the fronts of the subproblems along
//! its path (from the cache, or solved again), and turned into a [`Tree`] of the project's
//! model whose leaves predict the class each point needs (not necessarily the majority).

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::pareto::entry::Entry;
use crate::pareto::front::Point;
use crate::pareto::search::Search;
use crate::score::Errors;
use crate::search_core::binned::Binned;
use crate::search_core::subtree::{build_tree, BinNode, BinTree};
use crate::search_core::view::View;
use crate::tree::Tree;

/// A tree over searched features and threshold bins, with each leaf's prediction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    Leaf {
        positive: bool,
    },
    Split {
        feature: u32,
        bin: u32,
        left: Box<Shape>,
        right: Box<Shape>,
    },
}

impl BinTree for Shape {
    fn node(&self) -> BinNode<'_, Shape> {
        match self {
            Shape::Leaf { positive } => BinNode::Leaf {
                class: usize::from(*positive),
            },
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
    /// The number of split nodes.
    pub fn splits(&self) -> usize {
        match self {
            Shape::Leaf { .. } => 0,
            Shape::Split { left, right, .. } => 1 + left.splits() + right.splits(),
        }
    }
}

/// A tree of `view` with at most `depth` levels and `budget` splits whose point weakly
/// dominates `target` (a point the search found, so one exists): from the front in the cache
/// when it holds such a point, else from a search exact only below `target`.
pub(crate) fn rebuild(
    search: &mut Search,
    view: &View,
    depth: usize,
    budget: usize,
    target: Point,
) -> Result<Shape> {
    let (depth, budget) = search.normalize(view, depth, budget);
    let known = if depth >= 2 {
        let rows = search.arena.list(view, 0);
        search
            .cache
            .get(view.hash, depth, budget, rows)
            .map(|known| known.front)
    } else {
        None
    };
    let find = |front: &[Entry]| {
        front
            .iter()
            .find(|e| e.point.weakly_dominates(target))
            .copied()
    };
    let entry = match known.as_deref().and_then(find) {
        Some(entry) => entry,
        None => {
            // Every point not weakly below the target is covered.
            let beyond = [
                Point::new(0, target.fn_.saturating_add(1)),
                Point::new(target.fp.saturating_add(1), 0),
            ];
            let front = search.solve(view, depth, budget, &beyond).ok_or_else(|| {
                Error::Internal("the search stopped while rebuilding a tree".into())
            })?;
            find(&front).ok_or_else(|| {
                Error::Internal(format!(
                    "no tree of {} rows reaches ({}, {}) again",
                    view.size, target.fp, target.fn_
                ))
            })?
        }
    };
    rebuild_entry(search, view, depth, entry)
}

/// The tree of a front entry of `view` (at the normalised `depth` it was found at).
pub(crate) fn rebuild_entry(
    search: &mut Search,
    view: &View,
    depth: usize,
    entry: Entry,
) -> Result<Shape> {
    let made = entry.made;
    if made.is_leaf() {
        return Ok(Shape::Leaf {
            positive: made.bin == 1,
        });
    }
    let index = search
        .arena
        .feature_index(view, made.feature)
        .ok_or_else(|| Error::Internal("a front's split does not split its rows".into()))?;
    let position = search
        .arena
        .list(view, index)
        .partition_point(|e| e.bin <= made.bin);
    if position == 0 || position == view.size {
        return Err(Error::Internal(
            "a front's split sends every row one way".into(),
        ));
    }
    let (left_view, right_view) = search.arena.split(view, index, position);
    let left = rebuild(
        search,
        &left_view,
        depth - 1,
        made.left_budget as usize,
        made.left,
    )?;
    let right = rebuild(
        search,
        &right_view,
        depth - 1,
        made.right_budget as usize,
        entry.point.minus(made.left),
    )?;
    Ok(Shape::Split {
        feature: made.feature,
        bin: made.bin,
        left: Box::new(left),
        right: Box::new(right),
    })
}

/// The project's tree of `shape` on the two-class `data` (class 1 positive), with counts.
pub(crate) fn to_tree(
    shape: &Shape,
    binned: &Binned,
    data: &Dataset,
    depth: usize,
) -> Result<Tree> {
    build_tree(shape, binned, data, depth)
}

/// The (FP, FN) of `tree` on the two-class `data` (class 1 positive), by plain counting.
pub fn errors_of(tree: &Tree, data: &Dataset) -> Point {
    let mut point = Point::ZERO;
    for (row, &label) in data.rows().iter().zip(data.labels()) {
        let predicted = tree.predict_row(row);
        if predicted == 1 && label == 0 {
            point.fp += 1;
        } else if predicted == 0 && label == 1 {
            point.fn_ += 1;
        }
    }
    point
}

/// The weighted (FP, FN) of `tree` on the two-class `data` (class 1 positive), by plain
/// counting: each row counts its weight (1 without weights).
pub fn weighted_errors_of(tree: &Tree, data: &Dataset) -> Errors {
    let mut errors = Errors::default();
    for (i, (row, &label)) in data.rows().iter().zip(data.labels()).enumerate() {
        let predicted = tree.predict_row(row);
        if predicted == 1 && label == 0 {
            errors.fp += data.weight(i);
        } else if predicted == 0 && label == 1 {
            errors.fn_ += data.weight(i);
        }
    }
    errors
}
