//! What a leaf minimum leaves of the bounds between neighbouring row sets: the interval bounds
//! ([`super::intervals`]), the per-feature bounds of the depth-two search and the similarity
//! bounds ([`super::similarity`]) all bound one row set's optimum by a neighbouring set's.
//!
//! Write `T(S)` for the optimum of a subproblem on rows `S` (a depth and a split budget fixed),
//! every leaf of its trees holding at least `m` rows, `W(R)` for the weight of rows `R`,
//! `w` for the largest class weight and `c` for the split cost. Some optimal tree of `S` has no
//! empty leaf (the parent of an empty leaf can be replaced by the leaf's sibling at less cost),
//! and every subproblem the search meets holds at least `m` rows. For `S ⊂ S'` with
//! `k = |S' ∖ S|` rows apart:
//!
//! 1. **Fewer rows cost at most their weight less**: `T(S) >= T(S') - W(S' ∖ S)`. The optimal
//!    tree of `S`, with no empty leaf, routes `S'` into the same leaves, each of which only
//!    gains rows and so still holds `m`; a leaf's cost (its weight less its heaviest class's)
//!    rises by at most the weight of the rows it gains. So `T(S') <= T(S) + W(S' ∖ S)`.
//! 2. **More rows cost at most `min(k, b) · δ` less**, where `δ = max(0, (m - 1) w - c)` and
//!    `b` bounds the splits of the subtree (its budget, and `|S'| / m - 1`: each leaf holds `m`
//!    rows): `T(S') >= T(S) - min(k, b) · δ`. Take the optimal
//!    tree of `S'` and take the `k` rows out one at a time, keeping every leaf non-empty and at
//!    least `m` rows: a row taken out never raises its leaf's cost; when its leaf is left with
//!    fewer than `m` rows (and some rows remain in the subproblem, so the leaf is not the
//!    root), its parent is replaced by the leaf's sibling subtree, which takes the leaf's rows.
//!    That subtree's leaves only gain rows, each row raising the cost by at most its weight,
//!    and the leaf's own cost goes: the cost rises by at most the weight of the leaf's heaviest
//!    class, under `(m - 1) w`, and falls by the split cost `c`. Each repair removes a split,
//!    so there are at most `min(k, b)`, and the tree left is one of `S` (no deeper, no more
//!    splits). So `T(S) <= T(S') + min(k, b) · δ`. With `m = 1`, `δ = 0`: more rows never cost
//!    less, the bound without a leaf minimum. Since each repair removes a split, the tree left
//!    after `r` repairs is one of at most `b - r` splits: `T(S'; b) >= T(S; b - r) - r δ` for
//!    the `r <= min(k, b)` repairs made, where `T(S; b - r) >= T(S; b)` and `T(S; 0)` is the
//!    leaf: `T(S'; b) >= min(T(S; b) - min(k, b - 1) δ, leaf(S) - b δ)` (the second term only
//!    when `k >= b`). For a single split (`b = 1`) that is `min(T(S; 1), leaf(S) - δ)`, which
//!    also bounds the optimum of `S` itself without the leaf minimum (a split that leaves fewer
//!    than `m` rows on a side costs at least the leaf less that side's heaviest class, under
//!    `(m - 1) w`, plus `c`).
//! 3. **One feature's best split**: write `E(S)` for the least of `leaf(S) + c` and the cost of
//!    the splits of `S` on one feature that leave `m` rows on each side. Then
//!    `E(S) >= E(S') - W(S' ∖ S)` (a split of `S` on the feature still leaves `m` rows on each
//!    side of `S'`, and the leaf of `S'` costs at most `W(S' ∖ S)` more than the leaf of
//!    `S`, as in 1) and `E(S') >= E(S) - (m - 1) w` (the best split of `S'`, applied to `S`,
//!    either still leaves `m` rows on each side and costs no more, or leaves a side of fewer
//!    than `m` rows, whose heaviest class then costs at most `(m - 1) w` when the side joins
//!    the other in `leaf(S) + c`), so `E(S') >= min(E(S), leaf(S) + c - (m - 1) w)`.
//!
//! Bounds 2 and 3 are weak when the minimum is large; the problem without the leaf minimum is a
//! relaxation whose optimum never exceeds it and never falls on more rows (bound 2 with
//! `m = 1`), so the search also bounds neighbours by it ([`super::relaxation`]).

use crate::search_core::cost::CostModel;

/// The slack a leaf minimum gives the bounds of a row set from a set with fewer rows.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct LeafSlack {
    /// `δ` of bound 2: what one repair can add (0 without a leaf minimum).
    per_repair: f64,
    /// `(m - 1) w` of bound 3.
    per_split: f64,
    split_cost: f64,
    /// The leaf minimum `m`.
    min_leaf: usize,
}

impl LeafSlack {
    pub fn new(cost: &CostModel) -> LeafSlack {
        let below = f64::from(cost.min_leaf.max(1) - 1) * cost.max_weight;
        LeafSlack {
            per_repair: (below - cost.split_cost).max(0.0),
            per_split: below,
            split_cost: cost.split_cost,
            min_leaf: cost.min_leaf.max(1) as usize,
        }
    }

    /// How much less than a set's optimum the optimum of a set with `rows` more rows can be,
    /// when its subtrees hold at most `splits` splits (bound 2).
    #[inline]
    pub fn grown(&self, rows: usize, splits: usize) -> f64 {
        if self.per_repair == 0.0 {
            0.0
        } else {
            self.per_repair * rows.min(splits) as f64
        }
    }

    /// A lower bound on the optimum of a set with `rows` more rows than one whose optimum is
    /// at least `value` and whose leaf costs `leaf`, for subtrees of at most `splits` splits
    /// (bound 2, its second form).
    #[inline]
    pub fn grown_from(&self, value: f64, leaf: f64, rows: usize, splits: usize) -> f64 {
        if self.per_repair == 0.0 || splits == 0 {
            return value;
        }
        if rows < splits {
            return value - self.per_repair * rows as f64;
        }
        (value - self.per_repair * (splits - 1) as f64).min(leaf - self.per_repair * splits as f64)
    }

    /// A lower bound, on a set with more rows, on its best split on one feature or its leaf
    /// plus the split cost, from the same at most `bound` on a set whose leaf costs `leaf`
    /// (bound 3).
    #[inline]
    pub fn grown_split_from(&self, bound: f64, leaf: f64) -> f64 {
        if self.per_split == 0.0 {
            bound
        } else {
            bound.min(leaf + self.split_cost - self.per_split)
        }
    }

    /// Whether the leaf minimum is above one (else every slack is zero).
    pub fn binds(&self) -> bool {
        self.min_leaf > 1
    }

    /// The most splits a subtree of `rows` rows can hold with every leaf at the minimum.
    pub fn most_splits(&self, rows: usize) -> usize {
        (rows / self.min_leaf).saturating_sub(1)
    }
}
