//! The sparse search against brute force: on small random data, for every loss (accuracy,
//! balanced, weighted, F1, AUC and partial AUC of the ROC convex hull), the search's optimum of
//! `loss + lambda * leaves` equals the minimum over every tree of depth up to the cap, found
//! by enumerating the trees' leaf sets and scoring each with the definitions written out here
//! (F1 over every labelling of the leaves, the AUCs by counting ranked pairs and by walking
//! the ROC curve of the leaf scores). The returned tree scores that optimum by the same
//! definitions; without a cap, the optimum is no worse than with one, and equals the brute
//! force at its own depth. Every bound turned off in turn reaches the same optimum. A path of
//! increasing penalties, each solve starting from what the previous ones proved, finds the
//! optima of the solves on their own.

use std::collections::HashSet;

use milptree::data::{Dataset, ThresholdMode};
use milptree::sparse::{solve, solve_path, Loss, SparseOptions, SparseProblem, SparseSwitches};
use milptree::tree::Tree;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::random_dataset;
use crate::oracle::all_splits;

/// Every tree of depth at most `depth` over `rows`, as its leaves (row lists). Splits that
/// send every row one way are left out: an empty leaf only adds its penalty.
fn leaf_sets(
    data: &Dataset,
    rows: &[usize],
    depth: usize,
    splits: &[(usize, f64)],
) -> Vec<Vec<Vec<usize>>> {
    let mut out = vec![vec![rows.to_vec()]];
    if depth == 0 {
        return out;
    }
    let mut seen = HashSet::new();
    for &(j, t) in splits {
        let (left, right): (Vec<usize>, Vec<usize>) =
            rows.iter().partition(|&&i| data.rows()[i][j] <= t);
        if left.is_empty() || right.is_empty() || !seen.insert(left.clone()) {
            continue;
        }
        let lefts = leaf_sets(data, &left, depth - 1, splits);
        let rights = leaf_sets(data, &right, depth - 1, splits);
        for l in &lefts {
            for r in &rights {
                out.push(l.iter().chain(r.iter()).cloned().collect());
            }
        }
    }
    out
}

/// `(positives, negatives)` of each leaf.
fn binary(data: &Dataset, leaves: &[Vec<usize>], positive: usize) -> Vec<(f64, f64)> {
    leaves
        .iter()
        .map(|rows| {
            let p = rows
                .iter()
                .filter(|&&i| data.labels()[i] == positive)
                .count();
            (p as f64, (rows.len() - p) as f64)
        })
        .collect()
}

/// The loss of a leaf set, by definition.
fn loss_of(data: &Dataset, leaves: &[Vec<usize>], loss: &Loss) -> f64 {
    let k = data.n_classes();
    let counts = data.class_counts();
    let weighted = |weights: &[f64]| {
        let total: f64 = data.labels().iter().map(|&l| weights[l]).sum();
        let mut errors = 0.0;
        for rows in leaves {
            let mut by_class = vec![0.0; k];
            for &i in rows {
                by_class[data.labels()[i]] += weights[data.labels()[i]];
            }
            let all: f64 = by_class.iter().sum();
            errors += all - by_class.iter().copied().fold(0.0, f64::max);
        }
        errors / total
    };
    match loss {
        Loss::Accuracy => weighted(&vec![1.0; k]),
        Loss::Balanced => {
            let weights: Vec<f64> = counts
                .iter()
                .map(|&c| data.n_rows() as f64 / (k as f64 * c as f64))
                .collect();
            weighted(&weights)
        }
        Loss::Weighted { weights } => weighted(weights),
        Loss::F1 { positive } => {
            let leaves = binary(data, leaves, *positive);
            let all_positive = counts[*positive] as f64;
            let mut best: f64 = 0.0;
            for mask in 0u32..(1 << leaves.len()) {
                let (mut tp, mut fp) = (0.0, 0.0);
                for (i, (p, n)) in leaves.iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        tp += p;
                        fp += n;
                    }
                }
                let fn_ = all_positive - tp;
                if tp > 0.0 {
                    best = best.max(2.0 * tp / (2.0 * tp + fp + fn_));
                }
            }
            1.0 - best
        }
        Loss::Auc { positive } => {
            let leaves = binary(data, leaves, *positive);
            let (pos, neg) = (
                counts[*positive] as f64,
                (data.n_rows() - counts[*positive]) as f64,
            );
            // Pairs (positive in a, negative in b): right when a's fraction is higher, half
            // when equal (the same leaf included).
            let mut right = 0.0;
            for &(pa, na) in &leaves {
                for &(pb, nb) in &leaves {
                    let (sa, sb) = (pa * (pb + nb), pb * (pa + na));
                    if sa > sb {
                        right += pa * nb;
                    } else if sa == sb {
                        right += 0.5 * pa * nb;
                    }
                }
            }
            1.0 - right / (pos * neg)
        }
        Loss::PartialAuc { positive, theta } => {
            let leaves = binary(data, leaves, *positive);
            let (pos, neg) = (
                counts[*positive] as f64,
                (data.n_rows() - counts[*positive]) as f64,
            );
            // The ROC curve of the leaf scores: distinct scores from the highest, each a
            // straight segment; the area under it up to FPR theta, over theta.
            let mut scores: Vec<(f64, f64, f64)> = leaves
                .iter()
                .filter(|(p, n)| p + n > 0.0)
                .map(|&(p, n)| (p / (p + n), p, n))
                .collect();
            scores.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut points = vec![(0.0f64, 0.0f64)];
            let mut i = 0;
            while i < scores.len() {
                let (mut p, mut n) = (0.0, 0.0);
                let score = scores[i].0;
                while i < scores.len() && (scores[i].0 - score).abs() < 1e-12 {
                    p += scores[i].1;
                    n += scores[i].2;
                    i += 1;
                }
                let (x, y) = points[points.len() - 1];
                points.push((x + n / neg, y + p / pos));
            }
            let mut area = 0.0;
            for w in points.windows(2) {
                let ((x0, y0), (x1, y1)) = (w[0], w[1]);
                if x0 >= *theta {
                    break;
                }
                let x_end = x1.min(*theta);
                let y_end = if x1 > x0 {
                    y0 + (y1 - y0) * (x_end - x0) / (x1 - x0)
                } else {
                    y1
                };
                area += (x_end - x0) * (y0 + y_end) / 2.0;
            }
            1.0 - area / theta
        }
    }
}

/// The brute-force optimum of `problem` at depth `depth`.
pub(crate) fn brute_force(data: &Dataset, problem: &SparseProblem, depth: usize) -> f64 {
    let splits: Vec<(usize, f64)> = all_splits(data);
    let rows: Vec<usize> = (0..data.n_rows()).collect();
    leaf_sets(data, &rows, depth, &splits)
        .iter()
        .map(|leaves| {
            loss_of(data, leaves, &problem.loss) + problem.leaf_penalty * leaves.len() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The objective of a tree by the definitions above (its leaves' rows, routed by the tree).
fn tree_objective(tree: &Tree, data: &Dataset, problem: &SparseProblem) -> f64 {
    let leaves: Vec<Vec<usize>> = tree
        .leaves()
        .iter()
        .map(|&id| {
            (0..data.n_rows())
                .filter(|&i| tree.leaf_of(&data.rows()[i]) == id)
                .collect()
        })
        .collect();
    let leaves: Vec<Vec<usize>> = leaves.into_iter().filter(|rows| !rows.is_empty()).collect();
    loss_of(data, &leaves, &problem.loss) + problem.leaf_penalty * tree.leaves().len() as f64
}

fn loss_case(index: usize, k: usize, weights: (f64, f64, f64), theta: f64) -> Loss {
    match index {
        0 => Loss::Accuracy,
        1 => Loss::Balanced,
        2 => Loss::Weighted {
            weights: [weights.0, weights.1, weights.2][..k].to_vec(),
        },
        3 => Loss::F1 { positive: 1 },
        4 => Loss::Auc { positive: 0 },
        _ => Loss::PartialAuc { positive: 1, theta },
    }
}

fn check(
    data: &Dataset,
    problem: &SparseProblem,
    switches: SparseSwitches,
) -> Result<f64, TestCaseError> {
    let options = SparseOptions {
        switches,
        ..SparseOptions::default()
    };
    let outcome = solve(data, problem, &options)
        .map_err(|e| TestCaseError::fail(format!("{problem:?}: {e}")))?;
    prop_assert!(outcome.is_optimal());
    let tree_value = tree_objective(&outcome.tree, data, problem);
    prop_assert!(
        (tree_value - outcome.objective).abs() < 1e-9,
        "{:?}: the tree scores {} by definition, the search says {}",
        problem,
        tree_value,
        outcome.objective
    );
    Ok(outcome.objective)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: RngSeed::Fixed(20_250_611),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Capped at depth 1 to 3: the search's optimum is the brute force's, for every loss.
    #[test]
    fn the_sparse_optimum_is_the_brute_force_optimum(
        seed in 0u64..10_000,
        n in 6usize..12,
        levels in 2u32..4,
        loss_index in 0usize..6,
        three_classes in any::<bool>(),
        depth in 1usize..4,
        penalty in prop_oneof![Just(0.0), Just(0.01), Just(0.04), Just(0.1), Just(0.25)],
        weights in (0.5f64..3.0, 0.5f64..3.0, 0.5f64..3.0),
        theta in prop_oneof![Just(0.2), Just(0.5), Just(1.0)],
    ) {
        let k = if three_classes && loss_index < 3 { 3 } else { 2 };
        let levels = if depth == 3 { 3 } else { levels + 1 };
        let data = random_dataset(seed, n, 2, k, levels);
        let problem = SparseProblem {
            loss: loss_case(loss_index, k, weights, theta),
            leaf_penalty: penalty,
            depth: Some(depth),
            thresholds: ThresholdMode::All,
        };
        let expected = brute_force(&data, &problem, depth);
        // With every bound, and without the incumbents that could hide a wrong bound.
        let bare = SparseSwitches {
            greedy: false,
            deepening: false,
            ..SparseSwitches::default()
        };
        for switches in [SparseSwitches::default(), bare] {
            let found = check(&data, &problem, switches)?;
            prop_assert!(
                (found - expected).abs() < 1e-9,
                "{:?} on {:?} with {:?}: the search found {} but brute force {}",
                problem, data.source(), switches, found, expected
            );
        }
    }

    /// Without a cap: no worse than any cap, and the brute force's optimum at the depth of
    /// the tree found.
    #[test]
    fn without_a_cap_the_optimum_is_the_best_of_every_depth(
        seed in 0u64..10_000,
        n in 6usize..10,
        loss_index in 0usize..6,
        penalty in prop_oneof![Just(0.03), Just(0.08), Just(0.2)],
    ) {
        let data = random_dataset(seed, n, 2, 2, 3);
        let problem = SparseProblem {
            loss: loss_case(loss_index, 2, (1.0, 2.0, 1.0), 0.5),
            leaf_penalty: penalty,
            depth: None,
            thresholds: ThresholdMode::All,
        };
        let outcome = solve(&data, &problem, &SparseOptions::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(outcome.is_optimal());
        for depth in 1..=3 {
            prop_assert!(outcome.objective <= brute_force(&data, &problem, depth) + 1e-9);
        }
        let depth = outcome.tree.actual_depth();
        if depth <= 3 {
            let expected = brute_force(&data, &problem, depth.max(1));
            prop_assert!((outcome.objective - expected).abs() < 1e-9);
        }
    }

    /// Every bound turned off in turn reaches the same optimum.
    #[test]
    fn every_bound_off_reaches_the_same_optimum(
        seed in 0u64..10_000,
        loss_index in 0usize..6,
        penalty in prop_oneof![Just(0.01), Just(0.05)],
    ) {
        let data = random_dataset(seed, 14, 3, 2, 4);
        let problem = SparseProblem {
            loss: loss_case(loss_index, 2, (1.0, 3.0, 1.0), 0.3),
            leaf_penalty: penalty,
            depth: Some(3),
            thresholds: ThresholdMode::All,
        };
        let reference = check(&data, &problem, SparseSwitches::default())?;
        for name in SparseSwitches::NAMES {
            let switches = SparseSwitches::without(name).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let found = check(&data, &problem, switches)?;
            prop_assert!((found - reference).abs() < 1e-9, "without {}: {} != {}", name, found, reference);
        }
    }

    /// The path's optima are the single solves'.
    #[test]
    fn a_path_finds_the_optima_of_single_solves(
        seed in 0u64..10_000,
        loss_index in 0usize..6,
        capped in any::<bool>(),
        first in prop_oneof![Just(0.004), Just(0.01), Just(0.02)],
    ) {
        let additive = loss_index < 3;
        let data = random_dataset(seed, if additive { 40 } else { 14 }, 3, 2, 6);
        let penalties = [first, first * 1.7, first * 3.0, first * 8.0];
        let problems: Vec<SparseProblem> = penalties
            .iter()
            .map(|&leaf_penalty| SparseProblem {
                loss: loss_case(loss_index, 2, (1.0, 2.5, 1.0), 0.4),
                leaf_penalty,
                depth: if capped || !additive { Some(3) } else { None },
                thresholds: ThresholdMode::All,
            })
            .collect();
        let path = solve_path(&data, &problems, &SparseOptions::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(path.len(), problems.len());
        for (problem, on_path) in problems.iter().zip(&path) {
            let single = solve(&data, problem, &SparseOptions::default())
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(on_path.is_optimal() && single.is_optimal());
            prop_assert!(
                (on_path.objective - single.objective).abs() < 1e-9,
                "{:?}: the path found {} but a single solve {}",
                problem, on_path.objective, single.objective
            );
        }
    }
}
