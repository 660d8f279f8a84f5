//! Each feature's importance across a Rashomon set: in one tree, a feature's share of the
//! decrease of the weighted training errors its splits bring (at every split, the errors of the
//! node as a leaf less those of its two children as leaves; the estimator's
//! `feature_importances_`), and across the set, the distribution of those shares over every tree
//! (when the set has at most the trees asked for) or over a uniform sample of them, as the
//! Rashomon importance distribution reads it.

use num_bigint::BigUint;

use crate::data::Dataset;
use crate::error::Result;
use crate::rashomon::RashomonSet;
use crate::tree::{NodeKind, Split, Tree};

/// The importances of the trees of a set, one row per tree.
#[derive(Debug, Clone)]
pub struct Importances {
    /// `per_tree[t][feature]`: the feature's share in tree `t` (the row adds up to 1, or is all
    /// 0 for a tree whose splits lower no error).
    pub per_tree: Vec<Vec<f64>>,
    /// Every tree of the set (in objective order), not a sample.
    pub whole_set: bool,
    /// The sample's seed.
    pub seed: u64,
}

/// One feature's distribution across the trees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub mean: f64,
    pub min: f64,
    pub q25: f64,
    pub median: f64,
    pub q75: f64,
    pub max: f64,
}

impl Importances {
    /// The importances of every tree of `set` when it has at most `trees`, else of `trees`
    /// drawn uniformly from seed `seed`; none for `trees` 0.
    pub fn of(set: &RashomonSet, trees: usize, seed: u64) -> Result<Importances> {
        let class_weights = &set.problem().class_weights;
        let whole_set = set.count() <= BigUint::from(trees);
        let chosen: Vec<Tree> = if whole_set {
            let mut all = Vec::new();
            let mut rank = BigUint::from(0u8);
            while let Some(ranked) = set.tree(&rank)? {
                all.push(ranked.tree);
                rank += 1u8;
            }
            all
        } else {
            set.sample(trees, seed)?
                .into_iter()
                .map(|ranked| ranked.tree)
                .collect()
        };
        Ok(Importances {
            per_tree: chosen
                .iter()
                .map(|tree| of_tree(tree, set.data(), class_weights))
                .collect(),
            whole_set,
            seed,
        })
    }

    /// What the importances are taken over, in words.
    pub fn over(&self) -> String {
        if self.whole_set {
            format!("every tree ({})", self.per_tree.len())
        } else {
            format!(
                "{} trees drawn uniformly (seed {})",
                self.per_tree.len(),
                self.seed
            )
        }
    }

    /// Feature `feature`'s distribution over the trees (`None` without trees).
    pub fn spread(&self, feature: usize) -> Option<Spread> {
        let mut values: Vec<f64> = self.per_tree.iter().map(|row| row[feature]).collect();
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        Some(Spread {
            mean: values.iter().sum::<f64>() / values.len() as f64,
            min: values[0],
            q25: quantile(&values, 0.25),
            median: quantile(&values, 0.5),
            q75: quantile(&values, 0.75),
            max: values[values.len() - 1],
        })
    }
}

/// The `q` quantile of increasing `values` (not empty), interpolated linearly between ranks.
fn quantile(values: &[f64], q: f64) -> f64 {
    let at = q * (values.len() - 1) as f64;
    let (low, high) = (at.floor() as usize, at.ceil() as usize);
    values[low] + (values[high] - values[low]) * (at - low as f64)
}

/// Each feature's share of the decrease of `tree`'s weighted errors on `data` (row weight times
/// its class's weight in `class_weights`): at every axis split, the node's errors as a leaf of
/// its best class less its children's, credited to the split's feature.
pub fn of_tree(tree: &Tree, data: &Dataset, class_weights: &[f64]) -> Vec<f64> {
    let n_classes = data.n_classes();
    let slots = 1usize << (tree.depth() + 1);
    let mut sums = vec![0.0; slots * n_classes];
    for (i, (row, &label)) in data.rows().iter().zip(data.labels()).enumerate() {
        let cost = data.weight(i) * class_weights.get(label).copied().unwrap_or(1.0);
        for id in tree.path(row) {
            if let Some(sum) = sums.get_mut(id * n_classes + label) {
                *sum += cost;
            }
        }
    }
    let leaf_errors = |id: usize| -> f64 {
        sums.get(id * n_classes..(id + 1) * n_classes)
            .map_or(0.0, |s| {
                s.iter().sum::<f64>() - s.iter().copied().fold(0.0, f64::max)
            })
    };
    let mut importances = vec![0.0; data.n_features()];
    for (id, node) in tree.nodes() {
        if let NodeKind::Split(Split::Axis { feature, .. }) = node.kind {
            let decrease = leaf_errors(id) - leaf_errors(2 * id) - leaf_errors(2 * id + 1);
            if let Some(slot) = importances.get_mut(feature) {
                *slot += decrease.max(0.0);
            }
        }
    }
    let total: f64 = importances.iter().sum();
    if total > 0.0 {
        for value in &mut importances {
            *value /= total;
        }
    }
    importances
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_ranks() {
        let values = [0.0, 1.0, 2.0, 10.0];
        assert_eq!(quantile(&values, 0.0), 0.0);
        assert_eq!(quantile(&values, 0.5), 1.5);
        assert_eq!(quantile(&values, 1.0), 10.0);
        assert!((quantile(&values, 0.25) - 0.75).abs() < 1e-12);
    }
}
