//! Where each feature may split: the side constraint `depths` (a feature allowed only at the
//! listed depths of the tree, the root at depth 0) as a mask per level of the searched
//! features ([`FeatureLevels`]). A search under one keys its cache and its similarity memory by
//! the absolute level of a row set too, since the same rows reached at another level may split
//! on other features ([`FeatureLevels::key_depth`]).

/// The searched features allowed at each level of the tree (the root at level 0).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FeatureLevels {
    /// Per level below `depth`, per searched feature: whether it may split there.
    allowed: Vec<Vec<bool>>,
}

/// The stride between levels in [`FeatureLevels::key_depth`]: above any remaining depth.
const LEVEL_STRIDE: usize = 32;

impl FeatureLevels {
    /// The mask of a tree of `depth` levels whose searched feature `f` is the data's feature
    /// `data_feature[f]`, allowed at the depths `depths[j]` of each data feature `j` (`None`,
    /// or a feature beyond the list: every depth). `None` when no feature has listed depths.
    pub fn new(
        depths: &[Option<Vec<usize>>],
        data_feature: &[usize],
        depth: usize,
    ) -> Option<FeatureLevels> {
        if depths.iter().all(Option::is_none) {
            return None;
        }
        let allowed = (0..depth)
            .map(|level| {
                data_feature
                    .iter()
                    .map(|&j| {
                        depths
                            .get(j)
                            .and_then(Option::as_ref)
                            .is_none_or(|listed| listed.contains(&level))
                    })
                    .collect()
            })
            .collect();
        Some(FeatureLevels { allowed })
    }

    /// Whether searched feature `feature` may split a node at `level`.
    #[inline]
    pub fn allows(&self, level: usize, feature: u32) -> bool {
        self.allowed
            .get(level)
            .is_some_and(|row| row.get(feature as usize).copied().unwrap_or(false))
    }

    /// The depth a cache and a similarity memory key a row set by, at `level` with `depth`
    /// levels left: both, since a row set's optimum depends on where it lies.
    #[inline]
    pub fn key_depth(level: usize, depth: usize) -> usize {
        depth + LEVEL_STRIDE * (level + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_with_listed_depths_splits_only_there() {
        // Data features 0, 1, 2; searched features are data features 0 and 2.
        let depths = vec![Some(vec![1]), None, None];
        let levels = FeatureLevels::new(&depths, &[0, 2], 3).expect("a rule");
        assert!(!levels.allows(0, 0));
        assert!(levels.allows(1, 0));
        assert!(!levels.allows(2, 0));
        assert!((0..3).all(|level| levels.allows(level, 1)));
        assert!(!levels.allows(3, 1), "no split below the tree's depth");
        assert!(FeatureLevels::new(&[None, None], &[0, 1], 2).is_none());
        assert_ne!(
            FeatureLevels::key_depth(0, 2),
            FeatureLevels::key_depth(1, 2)
        );
    }
}
