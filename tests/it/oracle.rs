//! An exhaustive-search oracle for optimal trees of depth 1 to 4, written independently of the
//! formulations and of the DP search: every node is either a leaf or a split `x_j <= t` on a
//! candidate midpoint `t` of feature `j` (one-sided splits included), every way of sharing a
//! split budget between two children is tried, and leaves are scored by plain counting. The
//! minimum over all trees is taken node by node (the best tree below a node only depends on
//! the rows that reach it), which is the definition of the optimum, not a search with bounds.
//! Leaves predict the class with the largest total weight (which minimises a leaf's weighted
//! errors); a row's error costs its class's weight times the row's weight (1 for data without
//! row weights). Restrictions mirror OCT's parameters: a split costs `alpha` (in units of the
//! objective), a leaf that receives rows must receive at least `min_leaf` of them (and, with
//! `max_leaf`, at most that many), and optionally at most `max_splits` split nodes.
//!
//! Missing values (`NaN`): at a split on a feature that has missing values, the missing rows go
//! left or right, and both are tried; the candidates of such a feature also include one
//! threshold below all its values (the split that sends exactly the missing rows one way).

use milptree::data::Dataset;

/// What the oracle minimises.
#[derive(Debug, Clone)]
pub struct OracleSpec {
    pub depth: usize,
    /// Cost of one error per class (all 1.0 for accuracy).
    pub class_weights: Vec<f64>,
    /// Cost of each split, added to the weighted errors.
    pub split_cost: f64,
    /// Minimum rows in a leaf that receives any row.
    pub min_leaf: usize,
    /// Maximum rows in a leaf (`None`: no cap).
    pub max_leaf: Option<usize>,
    /// Candidate thresholds per feature; `None` = every midpoint.
    pub thresholds: Option<Vec<Vec<f64>>>,
    /// At most this many split nodes; `None` = only the depth limits them.
    pub max_splits: Option<usize>,
}

impl OracleSpec {
    pub fn errors(data: &Dataset, depth: usize) -> OracleSpec {
        OracleSpec {
            depth,
            class_weights: vec![1.0; data.n_classes()],
            split_cost: 0.0,
            min_leaf: 1,
            max_leaf: None,
            thresholds: None,
            max_splits: None,
        }
    }
}

/// The optimum: the objective value and the number of misclassified rows of one optimal tree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OracleOptimum {
    pub objective: f64,
    pub errors: usize,
}

/// Every (feature, threshold) pair of `thresholds` (one list per feature).
pub fn splits_of(thresholds: &[Vec<f64>]) -> Vec<(usize, f64)> {
    thresholds
        .iter()
        .enumerate()
        .flat_map(|(j, ts)| ts.iter().map(move |&t| (j, t)))
        .collect()
}

/// Every split by a midpoint of [`all_midpoints`].
pub fn all_splits(data: &Dataset) -> Vec<(usize, f64)> {
    splits_of(&all_midpoints(data))
}

/// Every midpoint between consecutive distinct values of each feature (missing values left
/// out), and, for a feature with missing values, one threshold below all its values.
pub fn all_midpoints(data: &Dataset) -> Vec<Vec<f64>> {
    (0..data.n_features())
        .map(|j| {
            let mut values: Vec<f64> = data
                .rows()
                .iter()
                .map(|r| r[j])
                .filter(|v| !v.is_nan())
                .collect();
            values.sort_by(f64::total_cmp);
            values.dedup();
            let mut midpoints: Vec<f64> = values.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
            if has_missing(data, j) {
                midpoints.push(values.first().map_or(0.0, |low| low - 1.0));
            }
            midpoints
        })
        .collect()
}

/// Whether feature `j` has a missing value.
fn has_missing(data: &Dataset, j: usize) -> bool {
    data.rows().iter().any(|r| r[j].is_nan())
}

struct Scorer<'a> {
    data: &'a Dataset,
    spec: &'a OracleSpec,
    /// Every (feature, threshold, missing rows go left) a node may split on.
    splits: Vec<(usize, f64, bool)>,
}

/// Lexicographic minimum of (objective, errors), objectives within 1e-9 counting as equal.
fn better(candidate: (f64, usize), best: Option<(f64, usize)>) -> bool {
    best.is_none_or(|(o, e)| {
        candidate.0 < o - 1e-9 || ((candidate.0 - o).abs() <= 1e-9 && candidate.1 < e)
    })
}

impl Scorer<'_> {
    /// (objective, errors) of a leaf holding `rows`, or None when it violates `min_leaf` or
    /// `max_leaf`.
    fn leaf(&self, rows: &[usize]) -> Option<(f64, usize)> {
        if !rows.is_empty() && rows.len() < self.spec.min_leaf {
            return None;
        }
        if self.spec.max_leaf.is_some_and(|m| rows.len() > m) {
            return None;
        }
        let k = self.data.n_classes();
        let mut weight = vec![0.0; k];
        let mut count = vec![0usize; k];
        for &i in rows {
            weight[self.data.labels()[i]] +=
                self.spec.class_weights[self.data.labels()[i]] * self.data.weight(i);
            count[self.data.labels()[i]] += 1;
        }
        let total: f64 = weight.iter().sum();
        // The best class: the largest weight (its errors are total - weight).
        let mut best = None::<(f64, usize)>;
        for c in 0..k {
            let objective = total - weight[c];
            let errors = rows.len() - count[c];
            match best {
                Some((o, e))
                    if o < objective - 1e-12 || ((o - objective).abs() <= 1e-12 && e <= errors) => {
                }
                _ => best = Some((objective, errors)),
            }
        }
        best
    }

    /// The best (objective, errors) over every tree of depth <= `depth` with <= `budget`
    /// splits on `rows`; None when no such tree meets `min_leaf` and `max_leaf`.
    fn best(&self, rows: &[usize], depth: usize, budget: usize) -> Option<(f64, usize)> {
        let mut best = self.leaf(rows);
        if depth == 0 || budget == 0 {
            return best;
        }
        let child_most = (1usize << (depth - 1)) - 1;
        for &(j, t, missing_left) in &self.splits {
            let (left, right): (Vec<usize>, Vec<usize>) = rows.iter().partition(|&&i| {
                let value = self.data.rows()[i][j];
                if value.is_nan() {
                    missing_left
                } else {
                    value <= t
                }
            });
            for left_budget in 0..budget {
                let right_budget = budget - 1 - left_budget;
                if left_budget > child_most || right_budget > child_most {
                    continue;
                }
                let (Some(l), Some(r)) = (
                    self.best(&left, depth - 1, left_budget),
                    self.best(&right, depth - 1, right_budget),
                ) else {
                    continue;
                };
                let candidate = (l.0 + r.0 + self.spec.split_cost, l.1 + r.1);
                if better(candidate, best) {
                    best = Some(candidate);
                }
            }
        }
        best
    }
}

/// The minimum objective over every tree of depth <= spec.depth (1 to 5; 4 and 5 on a few
/// candidate splits only, the work growing as their number to the depth) and at most
/// spec.max_splits splits.
pub fn optimum(data: &Dataset, spec: &OracleSpec) -> OracleOptimum {
    optimum_if_any(data, spec).expect("a single leaf is always a candidate without a leaf cap")
}

/// [`optimum`], or `None` when no tree meets the spec (a cap on the rows of a leaf the depth
/// cannot split the data under, or a leaf minimum above the rows).
pub fn optimum_if_any(data: &Dataset, spec: &OracleSpec) -> Option<OracleOptimum> {
    assert!(
        (1..=5).contains(&spec.depth),
        "the oracle enumerates depths 1 to 5"
    );
    let thresholds = spec
        .thresholds
        .clone()
        .unwrap_or_else(|| all_midpoints(data));
    let splits = thresholds
        .iter()
        .enumerate()
        .flat_map(|(j, ts)| {
            let sides: &[bool] = if has_missing(data, j) {
                &[false, true]
            } else {
                &[false]
            };
            ts.iter()
                .flat_map(move |&t| sides.iter().map(move |&left| (j, t, left)))
        })
        .collect();
    let scorer = Scorer { data, spec, splits };
    let all_rows: Vec<usize> = (0..data.n_rows()).collect();
    let most = (1usize << spec.depth) - 1;
    let budget = spec.max_splits.map_or(most, |m| m.min(most));
    let (objective, errors) = scorer.best(&all_rows, spec.depth, budget)?;
    Some(OracleOptimum { objective, errors })
}

/// The splits of one tree: `(node, feature, threshold)`, nodes 1-based breadth-first.
pub type OracleTree = Vec<(usize, usize, f64)>;

/// One split of a tree the filtered oracle enumerates: `(node, feature, threshold, whether the
/// rows missing the feature go left)`.
type SidedSplit = (usize, usize, f64, bool);

/// Every tree of depth <= `depth` below `node` over `splits` (feature, threshold, missing rows
/// left), as its list of splits.
fn every_tree(node: usize, depth: usize, splits: &[(usize, f64, bool)]) -> Vec<Vec<SidedSplit>> {
    let mut trees = vec![Vec::new()];
    if depth == 0 {
        return trees;
    }
    let below_left = every_tree(2 * node, depth - 1, splits);
    let below_right = every_tree(2 * node + 1, depth - 1, splits);
    for &(j, t, missing_left) in splits {
        for left in &below_left {
            for right in &below_right {
                let mut tree = vec![(node, j, t, missing_left)];
                tree.extend(left.iter().copied());
                tree.extend(right.iter().copied());
                trees.push(tree);
            }
        }
    }
    trees
}

/// The minimum objective over every tree of depth <= spec.depth (1 to 3) that `keep` accepts
/// (given the tree's splits), enumerated tree by tree (side constraints on the whole tree do
/// not split node by node); `None` when it accepts none. A split on a feature with missing
/// values is tried with the missing rows on either side (`keep` sees the split either way).
pub fn optimum_where(
    data: &Dataset,
    spec: &OracleSpec,
    keep: &dyn Fn(&OracleTree) -> bool,
) -> Option<OracleOptimum> {
    assert!(
        (1..=3).contains(&spec.depth),
        "the filtered oracle enumerates depths 1 to 3"
    );
    let thresholds = spec
        .thresholds
        .clone()
        .unwrap_or_else(|| all_midpoints(data));
    let splits: Vec<(usize, f64, bool)> = thresholds
        .iter()
        .enumerate()
        .flat_map(|(j, ts)| {
            let sides: &[bool] = if has_missing(data, j) {
                &[false, true]
            } else {
                &[false]
            };
            ts.iter()
                .flat_map(move |&t| sides.iter().map(move |&left| (j, t, left)))
        })
        .collect();
    let scorer = Scorer {
        data,
        spec,
        splits: splits.clone(),
    };
    let mut best: Option<(f64, usize)> = None;
    for tree in every_tree(1, spec.depth, &splits) {
        let seen: OracleTree = tree.iter().map(|&(node, j, t, _)| (node, j, t)).collect();
        if spec.max_splits.is_some_and(|m| tree.len() > m) || !keep(&seen) {
            continue;
        }
        let mut leaves: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (i, row) in data.rows().iter().enumerate() {
            let mut node = 1;
            while let Some(&(_, j, t, missing_left)) = tree.iter().find(|s| s.0 == node) {
                let left = if row[j].is_nan() {
                    missing_left
                } else {
                    row[j] <= t
                };
                node = if left { 2 * node } else { 2 * node + 1 };
            }
            leaves.entry(node).or_default().push(i);
        }
        let mut total = (tree.len() as f64 * spec.split_cost, 0usize);
        let mut valid = true;
        for rows in leaves.values() {
            match scorer.leaf(rows) {
                Some((o, e)) => {
                    total.0 += o;
                    total.1 += e;
                }
                None => valid = false,
            }
        }
        if valid && better(total, best) {
            best = Some(total);
        }
    }
    best.map(|(objective, errors)| OracleOptimum { objective, errors })
}

mod tests {
    use super::*;
    use crate::common::random_dataset;

    /// Unfiltered, the tree-by-tree enumeration finds the node-by-node optimum.
    #[test]
    fn the_filtered_oracle_without_a_filter_is_the_oracle() {
        for seed in 1..=4 {
            let data = random_dataset(seed, 14, 2, 2, 4);
            for depth in [1, 2] {
                let spec = OracleSpec::errors(&data, depth);
                let filtered = optimum_where(&data, &spec, &|_| true).expect("a leaf");
                assert_eq!(filtered, optimum(&data, &spec), "seed {seed} depth {depth}");
            }
        }
    }

    /// With missing values too: every split tried with the missing rows on either side.
    #[test]
    fn the_filtered_oracle_on_missing_values_is_the_oracle() {
        for seed in 1..=3 {
            let data = random_dataset(seed, 12, 2, 2, 3);
            let rows: Vec<Vec<f64>> = data
                .rows()
                .iter()
                .enumerate()
                .map(|(i, r)| vec![if i % 4 == 1 { f64::NAN } else { r[0] }, r[1]])
                .collect();
            let data = Dataset::from_parts(
                "missing",
                data.schema().features.clone(),
                data.classes().to_vec(),
                rows,
                data.labels().to_vec(),
            )
            .expect("valid");
            for depth in [1, 2] {
                let spec = OracleSpec::errors(&data, depth);
                let filtered = optimum_where(&data, &spec, &|_| true).expect("a leaf");
                assert_eq!(filtered, optimum(&data, &spec), "seed {seed} depth {depth}");
            }
        }
    }

    /// XOR on two binary features: depth 1 cannot do better than 2 errors of 4, depth 2 is exact.
    #[test]
    fn oracle_solves_xor() {
        let data = Dataset::from_parts(
            "xor",
            vec!["a".into(), "b".into()],
            vec!["0".into(), "1".into()],
            vec![
                vec![0.0, 0.0],
                vec![0.0, 1.0],
                vec![1.0, 0.0],
                vec![1.0, 1.0],
            ],
            vec![0, 1, 1, 0],
        )
        .expect("valid");
        assert_eq!(optimum(&data, &OracleSpec::errors(&data, 1)).errors, 2);
        assert_eq!(optimum(&data, &OracleSpec::errors(&data, 2)).errors, 0);
        // One leaf costs 2 errors; the exact depth-2 tree costs 3 splits. At 0.6 a split, the
        // exact tree (1.8) wins; at 0.7 (2.1) the single leaf (2.0) does.
        let spec = OracleSpec {
            split_cost: 0.6,
            ..OracleSpec::errors(&data, 2)
        };
        assert!((optimum(&data, &spec).objective - 1.8).abs() < 1e-12);
        let spec = OracleSpec {
            split_cost: 0.7,
            ..OracleSpec::errors(&data, 2)
        };
        assert!((optimum(&data, &spec).objective - 2.0).abs() < 1e-12);
    }

    /// Whole-number row weights are repeated rows, and a row of weight 0 is no row.
    #[test]
    fn row_weights_are_repeated_rows() {
        use crate::common::{repeated_rows, with_random_weights};
        for seed in 0..6 {
            let data = with_random_weights(random_dataset(seed, 14, 2, 2, 4), seed, true);
            let repeated = repeated_rows(&data);
            for depth in 1..=2 {
                let weighted = optimum(&data, &OracleSpec::errors(&data, depth));
                let plain = optimum(&repeated, &OracleSpec::errors(&repeated, depth));
                assert!(
                    (weighted.objective - plain.objective).abs() < 1e-9,
                    "seed {seed}"
                );
            }
        }
    }

    /// Deeper never hurts, and a leaf minimum never helps.
    #[test]
    fn oracle_is_monotone() {
        for seed in 0..10 {
            let data = random_dataset(seed, 16, 2, 3, 4);
            let d1 = optimum(&data, &OracleSpec::errors(&data, 1)).objective;
            let d2 = optimum(&data, &OracleSpec::errors(&data, 2)).objective;
            let restricted = optimum(
                &data,
                &OracleSpec {
                    min_leaf: 3,
                    ..OracleSpec::errors(&data, 2)
                },
            )
            .objective;
            assert!(d2 <= d1 && d2 <= restricted, "seed {seed}");
            assert!(
                d1 <= (data.n_rows() - data.class_counts().into_iter().max().unwrap_or(0)) as f64
            );
        }
    }

    /// Three-bit parity: every leaf above the last level holds as many rows of each class, so
    /// depth 2 errs on half the rows and only depth 3 is exact; with three splits, the best
    /// shape is a path (leaves of 4, 2, 1, 1 rows: 2 + 1 + 0 + 0 errors).
    #[test]
    fn oracle_solves_three_bit_parity_and_respects_split_limits() {
        let rows: Vec<Vec<f64>> = (0..8)
            .map(|i| (0..3).map(|b| f64::from((i >> b) & 1)).collect())
            .collect();
        let labels = (0..8usize).map(|i| i.count_ones() as usize % 2).collect();
        let data = Dataset::from_parts(
            "parity",
            vec!["a".into(), "b".into(), "c".into()],
            vec!["even".into(), "odd".into()],
            rows,
            labels,
        )
        .expect("valid");
        assert_eq!(optimum(&data, &OracleSpec::errors(&data, 2)).errors, 4);
        assert_eq!(optimum(&data, &OracleSpec::errors(&data, 3)).errors, 0);
        let limited = |max_splits| OracleSpec {
            max_splits: Some(max_splits),
            ..OracleSpec::errors(&data, 3)
        };
        assert_eq!(optimum(&data, &limited(0)).errors, 4);
        assert_eq!(optimum(&data, &limited(3)).errors, 3);
        assert_eq!(optimum(&data, &limited(7)).errors, 0);
        // Two rows per leaf at least: the exact depth-3 tree has leaves of one row.
        let spec = OracleSpec {
            min_leaf: 2,
            ..OracleSpec::errors(&data, 3)
        };
        assert_eq!(optimum(&data, &spec).errors, 4);
    }
}

/// The smallest weighted training error over every tree of depth <= `depth` (1 or 2) with every
/// labelling of its leaves (a leaf may predict any class, not only its majority) whose splits
/// and training predictions `keep` accepts (given the splits and each row's predicted class);
/// `None` when it accepts none. For constraints on the predictions themselves (fairness).
pub fn optimum_over_predictions(
    data: &Dataset,
    depth: usize,
    keep: &dyn Fn(&OracleTree, &[usize]) -> bool,
) -> Option<f64> {
    let mut best: Option<f64> = None;
    each_prediction(data, depth, &mut |tree, predicted, errors| {
        if keep(tree, predicted) && best.is_none_or(|b| errors < b) {
            best = Some(errors);
        }
    });
    best
}

/// Calls `visit` with every tree of depth <= `depth` (1 to 3; 3 on a few candidate splits
/// only) and every labelling of its leaves (a leaf may predict any class): its splits, each
/// training row's predicted class and the weighted training errors. A split on a feature with
/// missing values is tried with the missing rows on either side (as [`optimum_where`] does).
pub fn each_prediction(
    data: &Dataset,
    depth: usize,
    visit: &mut dyn FnMut(&OracleTree, &[usize], f64),
) {
    each_prediction_without(data, depth, &[], visit);
}

/// [`each_prediction`] over the trees that split on no feature of `skipped`.
pub fn each_prediction_without(
    data: &Dataset,
    depth: usize,
    skipped: &[usize],
    visit: &mut dyn FnMut(&OracleTree, &[usize], f64),
) {
    each_routed_prediction(data, depth, skipped, &mut |routed| {
        visit(routed.tree, routed.predicted, routed.errors)
    });
}

/// One tree and labelling [`each_routed_prediction`] visits.
pub struct Routed<'a> {
    /// The tree's splits (a split tried with the missing rows on either side is visited once
    /// per side, with the same splits).
    pub tree: &'a OracleTree,
    /// The leaf (node id) each training row reaches, its missing values sent to the split's
    /// side.
    pub leaf_of: &'a [usize],
    /// Each training row's predicted class.
    pub predicted: &'a [usize],
    /// The weighted training errors.
    pub errors: f64,
}

/// [`each_prediction_without`], with the leaf each training row reaches: every tree of depth
/// <= `depth` that splits on no feature of `skipped`, each split on a feature with missing
/// values once with the missing rows sent left and once right (its candidates include one
/// threshold below every value, so the split that sends exactly the missing rows one way is
/// among them), and every labelling of the leaves some row reaches.
pub fn each_routed_prediction(
    data: &Dataset,
    depth: usize,
    skipped: &[usize],
    visit: &mut dyn FnMut(&Routed),
) {
    assert!(
        (1..=3).contains(&depth),
        "the oracle over predictions enumerates depths 1 to 3"
    );
    let splits: Vec<(usize, f64, bool)> = all_midpoints(data)
        .iter()
        .enumerate()
        .filter(|(j, _)| !skipped.contains(j))
        .flat_map(|(j, ts)| {
            let sides: &[bool] = if has_missing(data, j) {
                &[false, true]
            } else {
                &[false]
            };
            ts.iter()
                .flat_map(move |&t| sides.iter().map(move |&left| (j, t, left)))
        })
        .collect();
    let k = data.n_classes();
    for sided in every_tree(1, depth, &splits) {
        let tree: OracleTree = sided.iter().map(|&(node, j, t, _)| (node, j, t)).collect();
        let leaf_of: Vec<usize> = data
            .rows()
            .iter()
            .map(|row| {
                let mut node = 1;
                while let Some(&(_, j, t, missing_left)) = sided.iter().find(|s| s.0 == node) {
                    let left = if row[j].is_nan() {
                        missing_left
                    } else {
                        row[j] <= t
                    };
                    node = if left { 2 * node } else { 2 * node + 1 };
                }
                node
            })
            .collect();
        let mut leaves: Vec<usize> = leaf_of.clone();
        leaves.sort_unstable();
        leaves.dedup();
        for labelling in 0..k.pow(leaves.len() as u32) {
            let class_of = |leaf: usize| {
                let position = leaves.binary_search(&leaf).expect("a leaf of the tree");
                (labelling / k.pow(position as u32)) % k
            };
            let predicted: Vec<usize> = leaf_of.iter().map(|&leaf| class_of(leaf)).collect();
            let errors: f64 = (0..data.n_rows())
                .filter(|&i| predicted[i] != data.labels()[i])
                .map(|i| data.weight(i))
                .sum();
            visit(&Routed {
                tree: &tree,
                leaf_of: &leaf_of,
                predicted: &predicted,
                errors,
            });
        }
    }
}

/// The training rows of each leaf of `tree` some row reaches, by leaf id, on data without
/// missing values (on data with them, count [`Routed::leaf_of`]).
pub fn leaf_sizes(data: &Dataset, tree: &OracleTree) -> std::collections::BTreeMap<usize, usize> {
    assert!(
        !data.has_missing(),
        "leaf_sizes routes no missing value: count Routed::leaf_of"
    );
    let mut rows_of = std::collections::BTreeMap::new();
    for row in data.rows() {
        let mut node = 1;
        while let Some(&(_, j, t)) = tree.iter().find(|s| s.0 == node) {
            node = if row[j] <= t { 2 * node } else { 2 * node + 1 };
        }
        *rows_of.entry(node).or_default() += 1;
    }
    rows_of
}
