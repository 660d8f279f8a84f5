//! Fronts as the search holds them: each point with how a tree reaches it ([`Entry`],
//! [`Made`]), and the table indexed by false positives in which fronts are assembled
//! ([`Table`]).
//!
//! A point's tree is rebuilt from its root split alone: the split, the budgets of its children
//! and the left child's point (the right child's is the difference), each child's point then
//! found on the child's front.

use crate::pareto::front::Point;

/// The `feature` of a [`Made`] that is a leaf.
pub(crate) const LEAF: u32 = u32::MAX;

/// How a point of a front is reached: a leaf (`feature == LEAF`, `bin` = 1 for a leaf that
/// predicts positive, 0 negative), or a split of searched feature `feature` at threshold bin
/// `bin` whose left child reaches `left` within `left_budget` splits and whose right child
/// reaches the rest within `right_budget`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Made {
    pub feature: u32,
    pub bin: u32,
    pub left: Point,
    pub left_budget: u16,
    pub right_budget: u16,
}

impl Made {
    pub fn leaf(positive: bool) -> Made {
        Made {
            feature: LEAF,
            bin: u32::from(positive),
            left: Point::ZERO,
            left_budget: 0,
            right_budget: 0,
        }
    }

    pub fn split(feature: u32, bin: u32, left: Point, budgets: (usize, usize)) -> Made {
        Made {
            feature,
            bin,
            left,
            left_budget: budgets.0 as u16,
            right_budget: budgets.1 as u16,
        }
    }

    pub fn is_leaf(&self) -> bool {
        self.feature == LEAF
    }
}

/// A point of a front and how it is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    pub point: Point,
    pub made: Made,
}

/// The points of a front of entries.
pub(crate) fn points(entries: &[Entry]) -> Vec<Point> {
    entries.iter().map(|e| e.point).collect()
}

/// The front of a single leaf on `negatives` negative and `positives` positive rows: predict
/// negative `(0, positives)` or positive `(negatives, 0)`.
pub(crate) fn leaf_front(negatives: u32, positives: u32) -> Vec<Entry> {
    let negative = Entry {
        point: Point::new(0, positives),
        made: Made::leaf(false),
    };
    let positive = Entry {
        point: Point::new(negatives, 0),
        made: Made::leaf(true),
    };
    if negatives == 0 {
        vec![positive]
    } else if positives == 0 {
        vec![negative]
    } else {
        vec![negative, positive]
    }
}

/// The points of [`leaf_front`].
pub(crate) fn leaf_points(negatives: u32, positives: u32) -> Vec<Point> {
    if negatives == 0 || positives == 0 {
        vec![Point::ZERO]
    } else {
        vec![Point::new(0, positives), Point::new(negatives, 0)]
    }
}

/// A table `fp -> least fn` over `0..=width`, for fronts whose trees are not needed.
#[derive(Debug, Default)]
pub(crate) struct PointTable {
    best: Vec<u32>,
}

impl PointTable {
    /// Empties the table and sizes it for false positives `0..=max_fp`.
    pub fn reset(&mut self, max_fp: u32) {
        self.best.clear();
        self.best.resize(max_fp as usize + 1, u32::MAX);
    }

    #[inline]
    pub fn offer(&mut self, point: Point) {
        let slot = &mut self.best[point.fp as usize];
        *slot = (*slot).min(point.fn_);
    }

    /// The staircase of the points offered, into `out` (cleared first).
    pub fn read(&self, out: &mut Vec<Point>) {
        out.clear();
        let mut running = u32::MAX;
        for (fp, &fn_) in self.best.iter().enumerate() {
            if fn_ < running {
                running = fn_;
                out.push(Point::new(fp as u32, fn_));
            }
        }
    }
}

/// A table `fp -> (least fn, how)` over `0..=width`: fronts are assembled by offering it
/// points, then read off as a staircase.
#[derive(Debug, Default)]
pub(crate) struct Table {
    best: Vec<u32>,
    made: Vec<Made>,
}

impl Table {
    /// Empties the table and sizes it for false positives `0..=max_fp`.
    pub fn reset(&mut self, max_fp: u32) {
        let width = max_fp as usize + 1;
        self.best.clear();
        self.best.resize(width, u32::MAX);
        if self.made.len() < width {
            self.made.resize(width, Made::leaf(false));
        }
    }

    /// Keeps `point` if no point offered before has the same `fp` and at most its `fn`.
    #[inline]
    pub fn offer(&mut self, point: Point, made: Made) {
        let at = point.fp as usize;
        if point.fn_ < self.best[at] {
            self.best[at] = point.fn_;
            self.made[at] = made;
        }
    }

    /// Offers every `a + b` (`a` from `left`, `b` from `right`), as a split made by `split`
    /// (its `left` point filled in from `a`).
    pub fn offer_sums(&mut self, left: &[Point], right: &[Point], split: Made) {
        for &a in left {
            let made = Made { left: a, ..split };
            for &b in right {
                self.offer(a.plus(b), made);
            }
        }
    }

    /// Offers every entry of a front as it is.
    pub fn offer_all(&mut self, entries: &[Entry]) {
        for e in entries {
            self.offer(e.point, e.made);
        }
    }

    /// The staircase of the points offered, appended to `out` (cleared first).
    pub fn read(&self, out: &mut Vec<Entry>) {
        out.clear();
        let mut running = u32::MAX;
        for (fp, &fn_) in self.best.iter().enumerate() {
            if fn_ < running {
                running = fn_;
                out.push(Entry {
                    point: Point::new(fp as u32, fn_),
                    made: self.made[fp],
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pareto::front::{is_staircase, minkowski};

    fn entries(points: &[(u32, u32)]) -> Vec<Entry> {
        points
            .iter()
            .map(|&(fp, fn_)| Entry {
                point: Point::new(fp, fn_),
                made: Made::leaf(false),
            })
            .collect()
    }

    #[test]
    fn a_table_of_sums_reads_as_the_minkowski_staircase() {
        let a = entries(&[(0, 5), (1, 3), (4, 0)]);
        let b = entries(&[(0, 2), (2, 1), (3, 0)]);
        let mut table = Table::default();
        table.reset(7);
        table.offer_sums(
            &points(&a),
            &points(&b),
            Made::split(3, 9, Point::ZERO, (1, 1)),
        );
        let mut out = Vec::new();
        table.read(&mut out);
        let expected = minkowski(&points(&a), &points(&b));
        assert_eq!(points(&out), expected);
        assert!(is_staircase(&points(&out)));
        // Each point remembers the left point it was made from.
        for e in &out {
            assert!(a.iter().any(|x| x.point == e.made.left));
            assert!(b.iter().any(|y| y.point == e.point.minus(e.made.left)));
        }
    }

    #[test]
    fn leaf_fronts_drop_a_dominated_leaf() {
        assert_eq!(
            points(&leaf_front(3, 2)),
            vec![Point::new(0, 2), Point::new(3, 0)]
        );
        assert_eq!(points(&leaf_front(0, 2)), vec![Point::new(0, 0)]);
        assert_eq!(points(&leaf_front(3, 0)), vec![Point::new(0, 0)]);
    }
}
