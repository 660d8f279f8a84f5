//! Property tests of the evaluator and of prediction: the evaluator's counts add up and agree
//! with figures computed here independently, and an independent router written in this test
//! reproduces the tree's predictions and its stored leaf counts.

use milptree::data::Dataset;
use milptree::greedy::{cart, CartParams};
use milptree::tree::{evaluate, NodeKind, Split, Tree, TreeBuilder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::random_dataset;

proptest! {
    #[test]
    fn evaluator_counts_add_up(
        pairs in proptest::collection::vec((0usize..4, 0usize..4), 1..200),
    ) {
        let classes: Vec<String> = (0..4).map(|c| format!("c{c}")).collect();
        let predicted: Vec<usize> = pairs.iter().map(|p| p.0).collect();
        let actual: Vec<usize> = pairs.iter().map(|p| p.1).collect();
        let e = evaluate(&predicted, &actual, &classes).expect("one class per row");
        let wrong = predicted.iter().zip(&actual).filter(|(p, a)| p != a).count();
        prop_assert_eq!(e.rows, pairs.len());
        prop_assert_eq!(e.misclassified, wrong);
        prop_assert_eq!(e.confusion.iter().flatten().sum::<usize>(), pairs.len());
        prop_assert_eq!(e.per_class.iter().map(|m| m.support).sum::<usize>(), pairs.len());
        prop_assert_eq!(e.per_class.iter().map(|m| m.predicted).sum::<usize>(), pairs.len());
        prop_assert!((e.accuracy - (pairs.len() - wrong) as f64 / pairs.len() as f64).abs() < 1e-12);
        let mut recalls = Vec::new();
        for c in 0..4 {
            let support = actual.iter().filter(|&&a| a == c).count();
            let hits = predicted.iter().zip(&actual).filter(|(p, a)| **p == c && **a == c).count();
            if support > 0 {
                recalls.push(hits as f64 / support as f64);
            }
            prop_assert_eq!(e.per_class[c].support, support);
        }
        let balanced = recalls.iter().sum::<f64>() / recalls.len() as f64;
        prop_assert!((e.balanced_accuracy - balanced).abs() < 1e-12);
    }
}

/// Routes a row by reading the tree's nodes, independently of `Tree::leaf_of`.
fn route_by_hand(tree: &Tree, row: &[f64]) -> usize {
    let mut id = 1;
    loop {
        match &tree.node(id).expect("a present node").kind {
            NodeKind::Leaf { .. } => return id,
            NodeKind::Split(Split::Axis { feature, threshold }) => {
                id = if row[*feature] <= *threshold {
                    2 * id
                } else {
                    2 * id + 1
                };
            }
            NodeKind::Split(Split::Oblique { .. }) => unreachable!("axis trees only here"),
        }
    }
}

fn check_against_hand_routing(tree: &Tree, data: &Dataset) -> Result<(), TestCaseError> {
    let predicted = tree.predict(data.rows());
    let mut leaf_counts = std::collections::BTreeMap::<usize, Vec<usize>>::new();
    for (i, row) in data.rows().iter().enumerate() {
        let leaf = route_by_hand(tree, row);
        leaf_counts
            .entry(leaf)
            .or_insert_with(|| vec![0; data.n_classes()])[data.labels()[i]] += 1;
        let NodeKind::Leaf { class } = tree.node(leaf).expect("leaf").kind else {
            return Err(TestCaseError::fail("routing ended on a split"));
        };
        prop_assert_eq!(predicted[i], class);
    }
    for id in tree.leaves() {
        let stored = &tree.node(id).expect("leaf").counts;
        let by_hand = leaf_counts
            .get(&id)
            .cloned()
            .unwrap_or_else(|| vec![0; data.n_classes()]);
        prop_assert_eq!(stored, &by_hand, "leaf {}", id);
    }
    let wrong = predicted
        .iter()
        .zip(data.labels())
        .filter(|(p, a)| p != a)
        .count();
    let evaluation = tree
        .evaluate(data.rows(), data.labels(), data.classes())
        .expect("the rows fit the tree");
    prop_assert_eq!(evaluation.misclassified, wrong);
    prop_assert_eq!(tree.training_evaluation(), evaluation);
    prop_assert!(tree.counts_consistent());
    Ok(())
}

/// A random axis-aligned tree of depth <= `depth`, thresholds drawn around the data's values.
fn random_tree(data: &Dataset, depth: usize, seed: u64) -> Tree {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth).expect("depth");
    let mut open = vec![(1usize, 0usize)];
    while let Some((id, level)) = open.pop() {
        if level < depth && (id == 1 || rng.random_bool(0.7)) {
            let feature = rng.random_range(0..data.n_features());
            let threshold = f64::from(rng.random_range(-1..6)) + 0.5;
            builder
                .split(id, Split::Axis { feature, threshold })
                .expect("in range");
            open.push((2 * id, level + 1));
            open.push((2 * id + 1, level + 1));
        } else {
            builder
                .leaf(id, rng.random_range(0..data.n_classes()))
                .expect("in range");
        }
    }
    let mut tree = builder.build().expect("a valid random tree");
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    tree
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn cart_trees_predict_their_stored_counts(
        seed in 0u64..10_000, n in 4usize..60, p in 1usize..4, k in 2usize..4,
        depth in 1usize..5, min_leaf in 1usize..3,
    ) {
        let data = random_dataset(seed, n, p, k, 5);
        prop_assume!(n >= 2 * min_leaf);
        let tree = cart(&data, &CartParams { min_leaf, ..CartParams::new(depth) }).expect("CART");
        check_against_hand_routing(&tree, &data)?;
    }

    #[test]
    fn random_trees_predict_their_stored_counts(
        seed in 0u64..10_000, n in 1usize..60, p in 1usize..4, k in 2usize..4, depth in 1usize..5,
    ) {
        let data = random_dataset(seed, n.max(k), p, k, 5);
        let tree = random_tree(&data, depth, seed);
        check_against_hand_routing(&tree, &data)?;
    }
}
