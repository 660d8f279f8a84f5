//! The OLCT model without solving: warm starts (greedy and random trees) encode into
//! assignments that break no row, whose model objective equals the surrogate objective
//! recomputed here independently, and that decode back into trees predicting the same; the
//! exact objective; refinement never increases it; parameter and data errors.

use milptree::data::Dataset;
use milptree::formulation::olct::{Olct, TangentSet};
use milptree::formulation::{BuiltModel, Formulation};
use milptree::tree::{Split, Standardisation, Tree, TreeBuilder};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::random_dataset;
use crate::olct::independent;

/// A random logistic tree of `depth` over `data` (two classes), with sparse random weights.
fn random_tree(data: &Dataset, depth: usize, seed: u64) -> Tree {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let p = data.n_features();
    let scaling = Standardisation::fit(data.rows(), p);
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), depth)
        .unwrap()
        .standardisation(scaling);
    for id in 1..(1usize << depth) {
        let weights: Vec<f64> = (0..p)
            .map(|_| {
                if rng.random_bool(0.4) {
                    0.0
                } else {
                    rng.random_range(-3.0..3.0)
                }
            })
            .collect();
        let bias = rng.random_range(-1.0..1.0);
        builder.split(id, Split::Oblique { weights, bias }).unwrap();
        if id >= 1 << (depth - 1) {
            builder.leaf(2 * id, 0).unwrap();
            builder.leaf(2 * id + 1, 1).unwrap();
        }
    }
    let mut tree = builder.build().unwrap();
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    tree
}

fn olct(depth: usize, tangents: usize, c: f64, univariate: bool) -> Olct {
    Olct {
        tangents: TangentSet::from_index(tangents).unwrap(),
        c: vec![c],
        univariate,
        ..Olct::new(depth)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn warm_starts_encode_feasibly_with_their_objective(
        seed in 0u64..100_000,
        n in 4usize..30,
        p in 1usize..4,
        depth in 1usize..4,
        tangents in 0usize..4,
        c in prop::sample::select(vec![0.1, 1.0, 8.0]),
        univariate in any::<bool>(),
        random in any::<bool>(),
    ) {
        let data = random_dataset(seed, n, p, 2, 4);
        let model = olct(depth, tangents, c, univariate);
        let built = model.build(&data).unwrap();
        let tree = if random && !univariate {
            random_tree(&data, depth, seed)
        } else {
            model.greedy_tree(&data).unwrap()
        };
        let encoded = model.encode(&built, &tree).unwrap();
        let feasibility = built.mip().check(&encoded.assignment);
        prop_assert!(feasibility.feasible, "{:?}; notes {:?}", feasibility.worst, encoded.notes);
        if !random {
            // The greedy tree is representable as it is.
            prop_assert!(encoded.notes.is_empty(), "{:?}", encoded.notes);
            prop_assert_eq!(&encoded.tree, &tree);
        }
        let expected = independent::objective(
            &encoded.tree, &data, 1, depth, &vec![c; depth], &|u| independent::surrogate(tangents, u),
        );
        let model_value = built.mip().objective_value(&encoded.assignment);
        let plain = model.objective_of(&built, &encoded.tree).unwrap();
        prop_assert!((model_value - expected).abs() <= 1e-9 * expected.max(1.0), "{model_value} vs {expected}");
        prop_assert!((plain - expected).abs() <= 1e-9 * expected.max(1.0), "{plain} vs {expected}");
        let exact = model.exact_objective(&built, &encoded.tree);
        let exact_expected = independent::objective(
            &encoded.tree, &data, 1, depth, &vec![c; depth], &independent::loss,
        );
        prop_assert!((exact - exact_expected).abs() <= 1e-9 * exact_expected.max(1.0));
        // The surrogate underestimates the exact loss (the L1 terms are the same).
        prop_assert!(plain <= exact + 1e-9);
        let decoded = model.decode(&built, &encoded.assignment).unwrap();
        prop_assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
        prop_assert_eq!(decoded.tree.predict(data.rows()), encoded.tree.predict(data.rows()));
        for row in data.rows() {
            prop_assert_eq!(decoded.tree.leaf_of(row), encoded.tree.leaf_of(row));
        }
        // Refinement never increases the exact objective.
        let (refined, report) = built.post_process(encoded.tree.clone()).unwrap();
        let after = model.exact_objective(&built, &refined);
        prop_assert!(after <= exact + 1e-9 * exact.max(1.0), "{after} > {exact}");
        prop_assert!((report["exact_objective"]["after_refinement"].as_f64().unwrap() - after).abs() <= 1e-9 * after.max(1.0));
        if univariate {
            for id in 1..(1usize << depth) {
                let (w, _) = independent::split_of(&refined, id);
                prop_assert!(w.iter().filter(|&&v| v != 0.0).count() <= 1);
            }
        }
        // Only the last level changes; every row keeps its last-level node.
        for row in data.rows() {
            prop_assert_eq!(refined.leaf_of(row) / 2, encoded.tree.leaf_of(row) / 2);
        }
    }
}

#[test]
fn decode_follows_the_solutions_routing_within_tolerance() {
    // Root w = 0, b = 0: every row scores 0 and goes left. A solution whose root bias is
    // 1e-7 (within a solver's feasibility tolerance of the left rows' `s <= 0`) still routes
    // them left by its z; decode moves the bias back so the tree routes as the solution did.
    let data = random_dataset(8, 12, 2, 2, 4);
    let model = Olct::new(2);
    let built = model.build(&data).unwrap();
    let mut tree = random_tree(&data, 2, 8);
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 2)
        .unwrap()
        .standardisation(tree.standardisation().unwrap().clone());
    builder
        .split(
            1,
            Split::Oblique {
                weights: vec![0.0, 0.0],
                bias: 0.0,
            },
        )
        .unwrap();
    for id in 2..4 {
        let (weights, bias) = independent::split_of(&tree, id);
        builder.split(id, Split::Oblique { weights, bias }).unwrap();
    }
    for leaf in 4..8 {
        builder.leaf(leaf, leaf % 2).unwrap();
    }
    tree = builder.build().unwrap();
    tree.recount(data.rows(), data.labels())
        .expect("the rows fit the tree");
    let encoded = model.encode(&built, &tree).unwrap();
    let mip = built.mip();
    let root_bias = mip.vars().iter().position(|v| v.name == "b[n=1]").unwrap();
    let mut start = mip.start();
    for (column, &value) in encoded.assignment.values().iter().enumerate() {
        start.set_column(column, if column == root_bias { 1e-7 } else { value });
    }
    let perturbed = start.finish().unwrap();
    assert!(mip.check(&perturbed).feasible);
    let decoded = model.decode(&built, &perturbed).unwrap();
    assert_eq!(decoded.notes.len(), 1, "{:?}", decoded.notes);
    assert!(
        decoded.notes[0].contains("node 1: bias moved"),
        "{:?}",
        decoded.notes
    );
    for row in data.rows() {
        assert_eq!(decoded.tree.leaf_of(row), tree.leaf_of(row));
    }
    let solver_view = mip.objective_value(&perturbed);
    let plain = model.objective_of(&built, &decoded.tree).unwrap();
    assert!(
        (solver_view - plain).abs() <= 1e-6 * plain.max(1.0),
        "{solver_view} vs {plain}"
    );
}
