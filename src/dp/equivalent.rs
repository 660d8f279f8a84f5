//! The equivalent-points bound: rows that fall in the same bin of every searched feature reach
//! the same leaf of any tree, so the errors of each such group under its best single label are
//! paid by every tree of any depth. Their sum is a lower bound on the optimum that holds at every
//! depth, under every leaf rule and split cost, and costs one pass over the rows; a search
//! stopped with its root open reports it rather than zero, and an incumbent that meets it is
//! optimal.

use rustc_hash::FxHashMap;

use crate::search_core::binned::Binned;
use crate::search_core::cost::CostModel;

/// The least cost any tree pays on `data` under `cost`'s class weights: per group of rows in
/// the same bin of every searched feature, its weighted errors under its cheapest label.
pub(crate) fn equivalent_points_bound(data: &Binned, cost: &CostModel) -> f64 {
    let n_features = data.sorted.len();
    let mut bins = vec![0u32; data.n_rows * n_features];
    for (feature, sorted) in data.sorted.iter().enumerate() {
        for element in sorted {
            bins[element.row as usize * n_features + feature] = element.bin;
        }
    }
    let k = data.n_classes;
    let mut groups: FxHashMap<&[u32], Vec<f64>> = FxHashMap::default();
    for row in 0..data.n_rows {
        let key = &bins[row * n_features..(row + 1) * n_features];
        let label = data.labels[row] as usize;
        let weight = cost.weights[label] * f64::from(data.multiplicity(row));
        groups.entry(key).or_insert_with(|| vec![0.0; k])[label] += weight;
    }
    groups
        .values()
        .filter(|weights| weights.iter().filter(|&&w| w > 0.0).count() > 1)
        .map(|weights| {
            let total: f64 = weights.iter().sum();
            total - weights.iter().copied().fold(0.0, f64::max)
        })
        // A fold from +0 rather than `sum` (which starts at -0): no mixed group is a bound of 0.
        .fold(0.0, |bound, paid| bound + paid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_core::binned::Element;
    use crate::search_core::cost::Scale;

    /// Binned data of `bins` (per row, each feature's bin) and `labels`.
    fn binned(bins: &[[u32; 2]], labels: &[u16]) -> Binned {
        let sorted = (0..2)
            .map(|f| {
                let mut list: Vec<Element> = bins
                    .iter()
                    .enumerate()
                    .map(|(row, b)| Element {
                        row: row as u32,
                        bin: b[f],
                    })
                    .collect();
                list.sort_by_key(|e| (e.bin, e.row));
                list
            })
            .collect();
        Binned {
            n_rows: bins.len(),
            n_classes: 2,
            data_feature: vec![0, 1],
            thresholds: vec![vec![0.5, 1.5, 2.5]; 2],
            labels: labels.to_vec(),
            multiplicities: Vec::new(),
            sorted,
        }
    }

    #[test]
    fn groups_of_equal_rows_pay_their_minority() {
        // Rows 0-2 are equal (classes 0, 0, 1), rows 3-4 equal (1, 0), row 5 alone.
        let data = binned(
            &[[1, 2], [1, 2], [1, 2], [3, 2], [3, 2], [0, 1]],
            &[0, 0, 1, 1, 0, 1],
        );
        let scale = Scale {
            rows: 6,
            total_weight: 6.0,
        };
        let cost = CostModel::new(&[1.0, 1.0], 0.0, 1, scale).expect("a cost model");
        assert_eq!(equivalent_points_bound(&data, &cost), 2.0);
        // Class 1 weighs 3: group one pays its two 0s, group two its 0.
        let weighted = CostModel::new(&[1.0, 3.0], 0.0, 1, scale).expect("a cost model");
        assert_eq!(equivalent_points_bound(&data, &weighted), 3.0);
        let mut counted = data.clone();
        counted.multiplicities = vec![1, 1, 4, 1, 1, 1];
        // Group one: 2 of class 0 against 4 of class 1: it pays the 2.
        assert_eq!(equivalent_points_bound(&counted, &cost), 3.0);
        // Every row apart: the bound is zero, and reported as 0, not -0.
        let apart = binned(&[[0, 0], [1, 0], [0, 1]], &[0, 1, 0]);
        let bound = equivalent_points_bound(&apart, &cost);
        assert!(bound == 0.0 && bound.is_sign_positive(), "bound {bound}");
    }
}
