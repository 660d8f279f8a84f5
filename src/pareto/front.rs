//! Pareto fronts of (false positives, false negatives) pairs, as sorted arrays.
//!
//! A front ("staircase") is a list of [`Point`]s sorted by increasing `fp` with strictly
//! decreasing `fn_`: no point weakly dominates another. Every operation here keeps that shape
//! and works in one linear pass over sorted input (the Minkowski sum [`minkowski`] is the
//! exception: it is quadratic in the two fronts' sizes, as any exact merge must be).
//!
//! The same staircase also describes an *up-set*: the points weakly dominated by some point of
//! the front (`fp >= a.fp` and `fn_ >= a.fn_`). Lower bounds on what a subtree can reach are
//! up-sets (every tree's point lies in them), and so is the region a node's front already
//! covers (a new point there is of no use).

pub use crate::score::Point;

/// Whether `points` is a staircase: `fp` strictly increasing, `fn_` strictly decreasing.
pub fn is_staircase(points: &[Point]) -> bool {
    points
        .windows(2)
        .all(|w| w[0].fp < w[1].fp && w[0].fn_ > w[1].fn_)
}

/// The nondominated points of any list, as a staircase: sort lexicographically, then one pass
/// in which each kept point removes the following ones until one with a smaller `fn_`.
pub fn nondominated(mut points: Vec<Point>) -> Vec<Point> {
    points.sort_unstable();
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for p in points {
        if out.last().is_none_or(|last| p.fn_ < last.fn_) {
            out.push(p);
        }
    }
    out
}

/// Whether some point of the staircase `front` weakly dominates `point` (binary search).
pub fn covers(front: &[Point], point: Point) -> bool {
    let at = front.partition_point(|f| f.fp <= point.fp);
    at > 0 && front[at - 1].fn_ <= point.fn_
}

/// Whether every point of the staircase `points` is weakly dominated by a point of the
/// staircase `front` (one merged pass).
pub fn covers_all(front: &[Point], points: &[Point]) -> bool {
    let mut i = 0;
    let mut best = u32::MAX;
    for p in points {
        while i < front.len() && front[i].fp <= p.fp {
            best = best.min(front[i].fn_);
            i += 1;
        }
        if best > p.fn_ {
            return false;
        }
    }
    true
}

/// The staircase of the union of two staircases (a linear merge).
pub fn union(a: &[Point], b: &[Point]) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && a[i] <= b[j]);
        let p = if take_a {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        if out.last().is_none_or(|last| p.fn_ < last.fn_) {
            out.push(p);
        }
    }
    out
}

/// The staircase of `{a + b : a in A, b in B}` (the merge of two children's fronts), by a
/// table indexed by `fp`.
pub fn minkowski(a: &[Point], b: &[Point]) -> Vec<Point> {
    let (Some(a_last), Some(b_last)) = (a.last(), b.last()) else {
        return Vec::new();
    };
    let width = (a_last.fp + b_last.fp) as usize + 1;
    let mut best = vec![u32::MAX; width];
    for pa in a {
        for pb in b {
            let fp = (pa.fp + pb.fp) as usize;
            best[fp] = best[fp].min(pa.fn_ + pb.fn_);
        }
    }
    staircase_of_table(&best)
}

/// The staircase of a table `best[fp]` = least `fn_` reached with exactly `fp` (`u32::MAX`:
/// none).
pub fn staircase_of_table(best: &[u32]) -> Vec<Point> {
    let mut out = Vec::new();
    let mut running = u32::MAX;
    for (fp, &fn_) in best.iter().enumerate() {
        if fn_ < running {
            running = fn_;
            out.push(Point::new(fp as u32, fn_));
        }
    }
    out
}

/// The up-set of `front` lowered by `by` (saturating at 0), as a staircase: a lower bound on a
/// row set that lacks at most `by.fp` negatives and `by.fn_` positives of the row set `front`
/// bounds.
pub fn lowered(front: &[Point], by: Point) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(front.len());
    for p in front {
        let q = Point::new(p.fp.saturating_sub(by.fp), p.fn_.saturating_sub(by.fn_));
        match out.last_mut() {
            // Points saturated at fp = 0 collapse onto the first; keep the least fn_.
            Some(last) if last.fp == q.fp => last.fn_ = last.fn_.min(q.fn_),
            Some(last) if q.fn_ >= last.fn_ => {}
            _ => out.push(q),
        }
    }
    out
}

/// The staircase of the intersection of the up-sets of two staircases (a point lies in it when
/// both weakly dominate it): the pointwise larger of the two step functions `fp -> least fn_`.
/// Empty when either is empty.
pub fn intersection(a: &[Point], b: &[Point]) -> Vec<Point> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Point> = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    let (mut ga, mut gb) = (u32::MAX, u32::MAX);
    while i < a.len() || j < b.len() {
        let fp = match (a.get(i), b.get(j)) {
            (Some(p), Some(q)) => p.fp.min(q.fp),
            (Some(p), None) => p.fp,
            (None, Some(q)) => q.fp,
            (None, None) => break,
        };
        while i < a.len() && a[i].fp == fp {
            ga = a[i].fn_;
            i += 1;
        }
        while j < b.len() && b[j].fp == fp {
            gb = b[j].fn_;
            j += 1;
        }
        let g = ga.max(gb);
        if g != u32::MAX && out.last().is_none_or(|last| g < last.fn_) {
            out.push(Point::new(fp, g));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_nondominated(points: &[Point]) -> Vec<Point> {
        let mut out: Vec<Point> = points
            .iter()
            .copied()
            .filter(|&p| !points.iter().any(|&q| q != p && q.weakly_dominates(p)))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn points() -> impl Strategy<Value = Vec<Point>> {
        prop::collection::vec(
            (0u32..12, 0u32..12).prop_map(|(a, b)| Point::new(a, b)),
            0..14,
        )
    }

    fn up_set_contains(front: &[Point], p: Point) -> bool {
        front.iter().any(|f| f.weakly_dominates(p))
    }

    proptest! {
        #[test]
        fn nondominated_keeps_exactly_the_undominated_points(raw in points()) {
            let front = nondominated(raw.clone());
            prop_assert!(is_staircase(&front));
            prop_assert_eq!(front, brute_nondominated(&raw));
        }

        #[test]
        fn union_and_minkowski_match_their_definitions(a in points(), b in points()) {
            let (fa, fb) = (nondominated(a.clone()), nondominated(b.clone()));
            let all: Vec<Point> = a.iter().chain(&b).copied().collect();
            prop_assert_eq!(union(&fa, &fb), brute_nondominated(&all));
            let sums: Vec<Point> = a.iter().flat_map(|p| b.iter().map(move |q| p.plus(*q))).collect();
            prop_assert_eq!(minkowski(&fa, &fb), brute_nondominated(&sums));
        }

        #[test]
        fn cover_tests_match_the_definition(a in points(), b in points(), x in 0u32..14, y in 0u32..14) {
            let (fa, fb) = (nondominated(a), nondominated(b));
            let p = Point::new(x, y);
            prop_assert_eq!(covers(&fa, p), up_set_contains(&fa, p));
            prop_assert_eq!(covers_all(&fa, &fb), fb.iter().all(|&q| up_set_contains(&fa, q)));
        }

        #[test]
        fn lowered_and_intersection_describe_the_right_up_sets(
            a in points(), b in points(), dx in 0u32..5, dy in 0u32..5,
        ) {
            let (fa, fb) = (nondominated(a), nondominated(b));
            let low = lowered(&fa, Point::new(dx, dy));
            let both = intersection(&fa, &fb);
            prop_assert!(is_staircase(&low) && is_staircase(&both));
            for x in 0..16 {
                for y in 0..16 {
                    let p = Point::new(x, y);
                    let shifted = fa.iter().any(|f| {
                        f.fp.saturating_sub(dx) <= x && f.fn_.saturating_sub(dy) <= y
                    });
                    prop_assert_eq!(up_set_contains(&low, p), shifted);
                    prop_assert_eq!(
                        up_set_contains(&both, p),
                        up_set_contains(&fa, p) && up_set_contains(&fb, p)
                    );
                }
            }
        }
    }
}
