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
//!    `b` bounds the splits of the subtree: `T(S') >= T(S) - min(k, b) · δ`. Take the optimal
//!    tree of `S'` and take the `k` rows out one at a time, keeping every leaf non-empty and at
//!    least `m` rows: a row taken out never raises its leaf's cost; when its leaf is left with
//!    fewer than `m` rows (and some rows remain in the subproblem, so the leaf is not the
//!    root), its parent is replaced by the leaf's sibling subtree, which takes the leaf's rows.
//!    That subtree's leaves only gain rows, each row raising the cost by at most its weight,
//!    and the leaf's own cost goes: the cost rises by at most the weight of the leaf's heaviest
//!    class, under `(m - 1) w`, and falls by the split cost `c`. Each repair removes a split,
//!    so there are at most `min(k, b)`, and the tree left is one of `S` (no deeper, no more
//!    splits). So `T(S) <= T(S') + min(k, b) · δ`. With `m = 1`, `δ = 0`: more rows never cost
//!    less, the bound without a leaf minimum.
//! 3. **One feature's best split**: write `E(S)` for the least of `leaf(S) + c` and the cost of
//!    the splits of `S` on one feature that leave `m` rows on each side. Then
//!    `E(S) >= E(S') - W(S' ∖ S)` (a split of `S` on the feature still leaves `m` rows on each
//!    side of `S'`, and the leaf of `S'` costs at most `W(S' ∖ S)` more than the leaf of
//!    `S`, as in 1) and `E(S') >= E(S) - (m - 1) w` (the best split of `S'`, applied to `S`,
//!    either still leaves `m` rows on each side and costs no more, or leaves a side of fewer
//!    than `m` rows, whose heaviest class then costs at most `(m - 1) w` when the side joins
//!    the other in `leaf(S) + c`).

use crate::search_core::cost::CostModel;

/// The slack a leaf minimum gives the bounds of a row set from a set with fewer rows.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct LeafSlack {
    /// `δ` of bound 2: what one repair can add (0 without a leaf minimum).
    per_repair: f64,
    /// `(m - 1) w` of bound 3.
    per_split: f64,
    /// The leaf minimum `m`.
    min_leaf: usize,
}

impl LeafSlack {
    pub fn new(cost: &CostModel) -> LeafSlack {
        let below = f64::from(cost.min_leaf.max(1) - 1) * cost.max_weight;
        LeafSlack {
            per_repair: (below - cost.split_cost).max(0.0),
            per_split: below,
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

    /// How much less than a set's best split on one feature (or its leaf plus the split cost)
    /// the same can be on a set with more rows (bound 3).
    #[inline]
    pub fn grown_split(&self) -> f64 {
        self.per_split
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
