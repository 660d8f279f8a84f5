//! The errors of a two-class classifier on a row set ([`Point`]): false positives and false
//! negatives, the coordinates of a Pareto front and what the metrics of [`super::metric`] are
//! computed from.

use serde::{Deserialize, Serialize};

/// The errors of a tree on a row set: negatives predicted positive (`fp`) and positives
/// predicted negative (`fn_`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Point {
    pub fp: u32,
    #[serde(rename = "fn")]
    pub fn_: u32,
}

impl Point {
    pub const ZERO: Point = Point { fp: 0, fn_: 0 };

    pub fn new(fp: u32, fn_: u32) -> Point {
        Point { fp, fn_ }
    }

    /// Whether `self` is at least as good as `other` on both counts.
    #[inline]
    pub fn weakly_dominates(self, other: Point) -> bool {
        self.fp <= other.fp && self.fn_ <= other.fn_
    }

    /// `self - other`, componentwise (`other` must be weakly below `self`).
    #[inline]
    pub fn minus(self, other: Point) -> Point {
        Point {
            fp: self.fp - other.fp,
            fn_: self.fn_ - other.fn_,
        }
    }

    /// `self + other`, componentwise.
    #[inline]
    pub fn plus(self, other: Point) -> Point {
        Point {
            fp: self.fp + other.fp,
            fn_: self.fn_ + other.fn_,
        }
    }
}
