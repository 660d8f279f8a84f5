//! CART on any non-negative row weights (scikit-learn's `sample_weight`): at depth 1 its split
//! is the best of a brute-force weighted Gini search over every feature and midpoint, and its
//! leaves predict their weighted majority; real weights grow the same tree as the same weights
//! times a common multiple as whole numbers (compared exactly); the `greedy` command takes them.

use milptree::data::Dataset;
use milptree::greedy::{cart, CartParams};
use milptree::tree::{NodeKind, Split, Tree};

use crate::common::{
    milptree, path_str, random_dataset, stderr, temp_file, to_weighted_csv, with_random_weights,
};
use crate::oracle::all_splits;

/// The score CART maximises, `sum_k w_k(L)^2 / w(L) + sum_k w_k(R)^2 / w(R)`, of the split
/// `x_j <= t` on the weighted `data`; `None` when a side weighs nothing.
fn gini_score(data: &Dataset, feature: usize, threshold: f64) -> Option<f64> {
    let k = data.n_classes();
    let (mut left, mut right) = (vec![0.0; k], vec![0.0; k]);
    for (i, row) in data.rows().iter().enumerate() {
        let side = if row[feature] <= threshold {
            &mut left
        } else {
            &mut right
        };
        side[data.labels()[i]] += data.weight(i);
    }
    let part = |counts: &[f64]| -> Option<f64> {
        let total: f64 = counts.iter().sum();
        (total > 0.0).then(|| counts.iter().map(|c| c * c).sum::<f64>() / total)
    };
    Some(part(&left)? + part(&right)?)
}

/// The root split of `tree`.
fn root_split(tree: &Tree) -> Option<(usize, f64)> {
    match tree.node(1).map(|n| &n.kind) {
        Some(NodeKind::Split(Split::Axis { feature, threshold })) => Some((*feature, *threshold)),
        _ => None,
    }
}

#[test]
fn depth_one_cart_on_real_weights_is_the_best_weighted_gini_split() {
    for seed in 0..24u64 {
        let data = with_random_weights(
            random_dataset(700 + seed, 14, 3, 2 + (seed % 2) as usize, 4),
            seed,
            false,
        );
        assert!(!data.has_integer_weights() || seed % 5 == 0, "seed {seed}");
        let best = all_splits(&data)
            .into_iter()
            .filter_map(|(j, t)| gini_score(&data, j, t))
            .fold(f64::NEG_INFINITY, f64::max);
        let tree = cart(&data, &CartParams::new(1)).expect("CART");
        let Some((feature, threshold)) = root_split(&tree) else {
            // No split: the root is pure in weight, or no split leaves weight on both sides.
            assert!(
                best == f64::NEG_INFINITY
                    || data
                        .class_weight_totals()
                        .iter()
                        .filter(|&&w| w > 0.0)
                        .count()
                        <= 1,
                "seed {seed}"
            );
            continue;
        };
        let score = gini_score(&data, feature, threshold).expect("both sides weigh");
        assert!(
            (score - best).abs() <= 1e-9 * best,
            "seed {seed}: {score} against {best}"
        );
        // Each leaf predicts its weighted majority.
        for (side, id) in [(true, 2), (false, 3)] {
            let mut totals = vec![0.0; data.n_classes()];
            for (i, row) in data.rows().iter().enumerate() {
                if (row[feature] <= threshold) == side {
                    totals[data.labels()[i]] += data.weight(i);
                }
            }
            let most = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            match tree.node(id).map(|n| &n.kind) {
                Some(NodeKind::Leaf { class }) => {
                    assert_eq!(totals[*class], most, "seed {seed} leaf {id}: {totals:?}");
                }
                other => panic!("seed {seed}: node {id} is {other:?}"),
            }
        }
    }
}

/// `data`'s tree nodes, each as its id and kind.
fn shape(tree: &Tree) -> Vec<(usize, String)> {
    tree.nodes()
        .map(|(id, node)| (id, format!("{:?}", node.kind)))
        .collect()
}

#[test]
fn real_weights_grow_the_tree_of_their_whole_multiples() {
    // Weights in quarters and thirds: times 12 they are whole numbers, compared exactly.
    let choices = [0.0, 0.25, 1.0 / 3.0, 0.5, 1.0, 1.75, 7.0 / 3.0];
    for seed in 0..16u64 {
        let plain = random_dataset(800 + seed, 16, 2, 2, 4);
        let weights: Vec<f64> = (0..plain.n_rows())
            .map(|i| choices[(i * 3 + seed as usize * 5) % choices.len()])
            .collect();
        let whole: Vec<f64> = weights.iter().map(|w| (w * 12.0).round()).collect();
        let real = plain.clone().with_weights(weights).expect("valid");
        let scaled = plain.with_weights(whole).expect("valid");
        assert!(!real.has_integer_weights() && scaled.has_integer_weights());
        for depth in 1..=3 {
            let params = CartParams::new(depth);
            let a = cart(&real, &params).expect("CART");
            let b = cart(&scaled, &params).expect("CART");
            assert_eq!(shape(&a), shape(&b), "seed {seed} depth {depth}");
        }
    }
}

#[test]
fn the_greedy_command_takes_real_weights() {
    let data = with_random_weights(random_dataset(5, 12, 2, 2, 3), 5, false);
    assert!(!data.has_integer_weights());
    let (_dir, file) = temp_file("real.csv", &to_weighted_csv(&data));
    let output = milptree(&[
        "greedy",
        path_str(&file),
        "--weight-column",
        "w",
        "--depth",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let expected = cart(&data, &CartParams::new(2)).expect("CART");
    let tree = Tree::from_json_str(&document["tree"].to_string(), "stdout").expect("a tree");
    assert_eq!(shape(&tree), shape(&expected));
}
