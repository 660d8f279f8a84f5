//! The greedy logistic tree, checked by code written here: its shape, the score bound and the
//! margin that make it representable by the model, the univariate restriction, and that every
//! ordinary node's split is the L1-logistic optimum on the rows reaching it (optimality
//! conditions computed here from the tree's weights).

use milptree::data::Dataset;
use milptree::greedy::{logistic_tree, LogisticTreeParams};
use milptree::tree::{NodeKind, Split, Tree};
use proptest::prelude::*;

use crate::common::random_dataset;

pub const LIMIT: f64 = 100.0 - std::f64::consts::LN_2;
pub const MARGIN: f64 = 1e-5;

/// Population mean and standard deviation (1 for a constant column), as StandardScaler.
pub fn standardise(data: &Dataset) -> Vec<Vec<f64>> {
    let n = data.n_rows() as f64;
    let p = data.n_features();
    let mean: Vec<f64> = (0..p)
        .map(|j| data.rows().iter().map(|r| r[j]).sum::<f64>() / n)
        .collect();
    let sd: Vec<f64> = (0..p)
        .map(|j| {
            let v = data
                .rows()
                .iter()
                .map(|r| (r[j] - mean[j]).powi(2))
                .sum::<f64>()
                / n;
            if v.sqrt() > 1e-12 {
                v.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    data.rows()
        .iter()
        .map(|r| (0..p).map(|j| (r[j] - mean[j]) / sd[j]).collect())
        .collect()
}

pub fn oblique(tree: &Tree, id: usize) -> (Vec<f64>, f64) {
    match &tree.node(id).expect("node present").kind {
        NodeKind::Split(Split::Oblique { weights, bias }) => (weights.clone(), *bias),
        other => panic!("node {id} is {other:?}"),
    }
}

fn notes(tree: &Tree) -> Vec<String> {
    tree.learned_by.as_ref().unwrap()["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

fn sigmoid(u: f64) -> f64 {
    1.0 / (1.0 + (-u).exp())
}

fn params(depth: usize, c: f64, univariate: bool) -> LogisticTreeParams {
    LogisticTreeParams {
        depth,
        c: vec![c; depth],
        positive_class: 1,
        univariate,
        score_limit: LIMIT,
        margin: MARGIN,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn greedy_trees_are_representable_and_fit_each_node(
        seed in 0u64..10_000,
        n in 6usize..60,
        p in 1usize..5,
        depth in 1usize..4,
        c in prop::sample::select(vec![0.05, 1.0, 20.0]),
        univariate in any::<bool>(),
    ) {
        let data = random_dataset(seed, n, p, 2, 5);
        let tree = logistic_tree(&data, &params(depth, c, univariate)).unwrap();
        let z = standardise(&data);
        let feature_max: Vec<f64> = (0..p)
            .map(|j| z.iter().map(|r| r[j].abs()).fold(0.0, f64::max))
            .collect();
        let notes = notes(&tree);
        let first_last = 1usize << (depth - 1);
        for id in 1..(1usize << depth) {
            let (w, b) = oblique(&tree, id);
            let size: f64 = w.iter().zip(&feature_max).map(|(w, z)| w.abs() * z).sum::<f64>() + b.abs();
            prop_assert!(size <= LIMIT * (1.0 + 1e-12), "node {id}: bound {size}");
            if univariate {
                prop_assert!(w.iter().filter(|&&v| v != 0.0).count() <= 1, "node {id}: {w:?}");
            }
            let reaching: Vec<usize> = (0..n).filter(|&i| tree.path(&data.rows()[i]).contains(&id)).collect();
            let scores: Vec<f64> = reaching.iter().map(|&i| tree.oblique_value(&w, b, &data.rows()[i])).collect();
            if id < first_last {
                for s in &scores {
                    prop_assert!(*s <= 0.0 || *s >= MARGIN, "node {id}: score {s} in the margin");
                }
            } else {
                prop_assert_eq!(
                    [&tree.node(2 * id).unwrap().kind, &tree.node(2 * id + 1).unwrap().kind],
                    [&NodeKind::Leaf { class: 0 }, &NodeKind::Leaf { class: 1 }]
                );
            }
            let positives = reaching.iter().filter(|&&i| data.labels()[i] == 1).count();
            if reaching.is_empty() || positives == 0 || positives == reaching.len() {
                prop_assert!(w.iter().all(|&v| v == 0.0), "node {id}: {w:?}");
                continue;
            }
            let special = notes.iter().any(|note| note.starts_with(&format!("node {id}:")));
            if univariate || special {
                continue;
            }
            // Optimality of ||w||_1 + C sum f(y s) on the node's rows (intercept free).
            let mut gradient = vec![0.0; p + 1];
            for (&i, s) in reaching.iter().zip(&scores) {
                let y = if data.labels()[i] == 1 { 1.0 } else { -1.0 };
                let factor = -c * y * sigmoid(-y * s);
                for j in 0..p {
                    gradient[j] += factor * z[i][j];
                }
                gradient[p] += factor;
            }
            let tolerance = 1e-6 * (c * reaching.len() as f64).max(1.0);
            prop_assert!(gradient[p].abs() <= tolerance, "node {id}: intercept gradient {}", gradient[p]);
            for j in 0..p {
                if feature_max[j] == 0.0 {
                    continue;
                }
                let violation = if w[j] > 0.0 {
                    (gradient[j] + 1.0).abs()
                } else if w[j] < 0.0 {
                    (gradient[j] - 1.0).abs()
                } else {
                    (gradient[j].abs() - 1.0).max(0.0)
                };
                prop_assert!(violation <= tolerance, "node {id}, feature {j}: violation {violation}");
            }
        }
    }
}

#[test]
fn a_pure_node_goes_to_the_bound_and_an_empty_one_is_zero() {
    // Depth 2 on data separated by x0: the root sends each class one way, so each child is
    // pure; with strong C the root separates, and the children are one-class nodes.
    let rows: Vec<Vec<f64>> = (0..20)
        .map(|i| vec![f64::from(i), f64::from(i % 3)])
        .collect();
    let labels: Vec<usize> = (0..20).map(|i| usize::from(i >= 10)).collect();
    let data = Dataset::from_parts(
        "separable",
        vec!["x0".into(), "x1".into()],
        vec!["neg".into(), "pos".into()],
        rows,
        labels,
    )
    .unwrap();
    let tree = logistic_tree(&data, &params(2, 10.0, false)).unwrap();
    let errors = tree
        .evaluate(data.rows(), data.labels(), data.classes())
        .expect("the rows fit the tree")
        .misclassified;
    assert_eq!(errors, 0);
    for (id, sign) in [(2, -1.0), (3, 1.0)] {
        let (w, b) = oblique(&tree, id);
        assert!(w.iter().all(|&v| v == 0.0), "node {id}: {w:?}");
        assert_eq!(b, sign * LIMIT, "node {id}");
    }
}
