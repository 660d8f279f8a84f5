//! The binary features each level of a FlowOCT tree may split on, reduced without losing any
//! optimum:
//! - at the last split level (whose children are leaves), only class-boundary thresholds: for a
//!   split with two leaves and fixed leaf classes, moving the threshold across a group of equal
//!   values whose rows are all of one class changes the weighted errors monotonically (down
//!   towards the side predicting that class, not at all when neither or both sides do), so along
//!   a run of such groups of one class the best threshold is at an end of the run: a
//!   class-boundary threshold, or the data's extreme, where the split sends every row one way
//!   and equals a leaf. This holds for the rows of any node, since a group pure on the whole
//!   data is pure on every subset;
//! - at every level, one binary feature of each set that routes every training row alike (a
//!   duplicate across features changes no tree's training predictions).
//!
//! [`NodeFeatures::express`] maps a split of another tree onto these features without raising
//! its weighted errors.

use rustc_hash::FxHashMap;

use crate::constraints::SideConstraints;
use crate::data::{candidate_thresholds, Dataset, ThresholdMode};
use crate::formulation::binoct::candidates::Candidates;

use super::groups::Group;

/// A binary feature: `x_j <= t` with `t` the candidate `index` (1-based) of feature `j`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BinaryFeature {
    pub feature: usize,
    pub index: usize,
}

/// The binary features and the ones each level may use.
#[derive(Debug, Clone)]
pub struct NodeFeatures {
    /// Every binary feature of the candidates.
    pub binary: Vec<BinaryFeature>,
    /// Per level, the indices into `binary` a node of that level may split on.
    pub allowed: Vec<Vec<usize>>,
    /// Per level and binary feature, the allowed feature that routes every training row alike.
    representative: Vec<Vec<Option<usize>>>,
    /// Whether each binary feature is a class-boundary threshold.
    class_boundary: Vec<bool>,
}

impl NodeFeatures {
    /// The features of a tree of depth `depth` over `candidates` of `data`, with the rows in
    /// `groups`, under the side constraints `constraints` (if any).
    pub fn new(
        data: &Dataset,
        candidates: &Candidates,
        groups: &[Group],
        depth: usize,
        constraints: Option<&SideConstraints>,
    ) -> Self {
        let permits =
            |feature: usize, level: usize| constraints.is_none_or(|c| c.permits(feature, level));
        let distinct = constraints.is_some_and(SideConstraints::counts_features);
        // Under fairness constraints a leaf may have to predict a class against its rows, so
        // every threshold of the last level is kept.
        let fair = constraints.is_some_and(|c| c.fairness.is_some());
        let binary: Vec<BinaryFeature> = candidates
            .usable()
            .into_iter()
            .flat_map(|feature| {
                (1..=candidates.count(feature)).map(move |index| BinaryFeature { feature, index })
            })
            .collect();
        let boundary_thresholds: Vec<Vec<f64>> = (0..data.n_features())
            .map(|j| {
                candidate_thresholds(
                    &data.feature_column(j),
                    data.labels(),
                    ThresholdMode::ClassBoundary,
                )
            })
            .collect();
        let class_boundary: Vec<bool> = binary
            .iter()
            .map(|f| {
                let threshold = candidates.threshold(f.feature, f.index);
                boundary_thresholds[f.feature].contains(&threshold)
            })
            .collect();
        // Which groups each binary feature sends left, as bits (hashed once per level and
        // feature: as `bool`s, the keys of thousands of features over thousands of groups took
        // seconds to hash).
        let patterns: Vec<Vec<u64>> = binary
            .iter()
            .map(|f| {
                let mut bits = vec![0u64; groups.len().div_ceil(64)];
                for (g, group) in groups.iter().enumerate() {
                    if group.bins[f.feature] < f.index {
                        bits[g / 64] |= 1 << (g % 64);
                    }
                }
                bits
            })
            .collect();
        let mut allowed = Vec::with_capacity(depth);
        let mut representative = Vec::with_capacity(depth);
        for level in 0..depth {
            // Bounds on the rows per leaf change with the threshold, so the class-boundary
            // reduction of the last level does not keep every optimum under them.
            let last =
                level + 1 == depth && !constraints.is_some_and(SideConstraints::bounds_leaf_rows);
            let key = |f: usize| {
                (
                    distinct.then_some(binary[f].feature),
                    patterns[f].as_slice(),
                )
            };
            let mut first: FxHashMap<(Option<usize>, &[u64]), usize> = FxHashMap::default();
            let mut level_allowed = Vec::new();
            for f in 0..patterns.len() {
                if (last && !fair && !class_boundary[f]) || !permits(binary[f].feature, level) {
                    continue;
                }
                first.entry(key(f)).or_insert_with(|| {
                    level_allowed.push(f);
                    f
                });
            }
            representative.push(
                (0..patterns.len())
                    .map(|f| first.get(&key(f)).copied())
                    .collect(),
            );
            allowed.push(level_allowed);
        }
        NodeFeatures {
            binary,
            allowed,
            representative,
            class_boundary,
        }
    }

    /// The index into `binary` of `(feature, index)`.
    pub fn position(&self, feature: BinaryFeature) -> Option<usize> {
        self.binary.iter().position(|&f| f == feature)
    }

    /// The allowed feature at `level` that routes every training row as `feature` does.
    pub fn representative(&self, level: usize, feature: usize) -> Option<usize> {
        self.representative
            .get(level)?
            .get(feature)
            .copied()
            .flatten()
    }

    /// The class-boundary binary features of `feature` (indices into `binary`), increasing.
    pub fn boundaries_of(&self, feature: usize) -> Vec<usize> {
        (0..self.binary.len())
            .filter(|&f| self.binary[f].feature == feature && self.class_boundary[f])
            .collect()
    }
}
