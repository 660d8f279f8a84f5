//! The library's entry points are total: arguments that do not fit (rows of another length,
//! labels outside the classes, predictions and labels of different lengths, a confusion matrix
//! that is not square, node 0, an assignment of another model) give an error or the documented
//! safe behaviour, never a panic.

use milptree::data::Dataset;
use milptree::mip::{MipModel, ViolationKind};
use milptree::tree::{
    evaluate, from_confusion, node_depth, Split, Standardisation, Tree, TreeBuilder,
};

/// Two features a, b; classes no / yes.
fn data() -> Dataset {
    Dataset::from_parts(
        "small",
        vec!["a".into(), "b".into()],
        vec!["no".into(), "yes".into()],
        vec![
            vec![1.0, 0.0],
            vec![2.0, 1.0],
            vec![3.0, 2.0],
            vec![4.0, 3.0],
        ],
        vec![0, 0, 1, 1],
    )
    .expect("valid data")
}

/// `b <= 1.5 ? no : yes`: the split is on the second feature.
fn axis_tree() -> Tree {
    let data = data();
    let mut builder =
        TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 1).expect("depth 1");
    builder
        .split(
            1,
            Split::Axis {
                feature: 1,
                threshold: 1.5,
            },
        )
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.leaf(3, 1))
        .expect("nodes in range");
    builder.build().expect("a valid tree")
}

/// `a - b <= 0` over unit scaling.
fn oblique_tree() -> Tree {
    let data = data();
    let mut builder = TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), 1)
        .expect("depth 1")
        .standardisation(Standardisation {
            mean: vec![0.0, 0.0],
            scale: vec![1.0, 1.0],
        });
    builder
        .split(
            1,
            Split::Oblique {
                weights: vec![1.0, -1.0],
                bias: 0.0,
            },
        )
        .and_then(|b| b.leaf(2, 0))
        .and_then(|b| b.leaf(3, 1))
        .expect("nodes in range");
    builder.build().expect("a valid tree")
}

#[test]
fn a_row_without_the_split_feature_goes_right() {
    let tree = axis_tree();
    let Some(node) = tree.node(1) else {
        panic!("a root")
    };
    let milptree::tree::NodeKind::Split(split) = &node.kind else {
        panic!("a split at the root")
    };
    // The documented rule: a row that is not one value per feature of the tree goes right at
    // every split, whatever its values, and so does a NaN value (NaN is not `<=` anything).
    assert!(!tree.goes_left(split, &[0.0]));
    assert!(!tree.goes_left(split, &[9.0, 1.0, 0.0]));
    assert!(!tree.goes_left(split, &[]));
    assert!(!tree.goes_left(split, &[0.0, f64::NAN]));
    assert!(tree.goes_left(split, &[9.0, 1.0]));
    assert_eq!(
        tree.predict(&[vec![0.0], vec![], vec![9.0, 1.0]]),
        vec![1, 1, 0]
    );
}

#[test]
fn a_row_of_another_length_goes_right_at_an_oblique_split() {
    let tree = oblique_tree();
    // Row (1, 5): 1 - 5 <= 0 goes left. Rows of another length go right whatever their
    // values: (-1) would score -1 <= 0 if its missing value were left out of the sum.
    assert_eq!(tree.leaf_of(&[1.0, 5.0]), 2);
    assert_eq!(tree.leaf_of(&[-1.0]), 3);
    assert_eq!(tree.leaf_of(&[-1.0, 5.0, 0.0]), 3);
    assert_eq!(tree.leaf_of(&[]), 3);
}

#[test]
fn recount_refuses_rows_and_labels_that_do_not_fit() {
    let mut tree = axis_tree();
    let error = tree
        .recount(&[vec![1.0, 0.0]], &[2])
        .expect_err("label 2 of two classes");
    assert!(error.to_string().contains("label 2"), "{error}");
    let error = tree
        .recount(&[vec![1.0]], &[0])
        .expect_err("a row with one value");
    assert!(error.to_string().contains("1 values"), "{error}");
    let error = tree
        .recount(&[vec![1.0, 0.0], vec![2.0, 2.0]], &[0])
        .expect_err("two rows, one label");
    assert!(error.to_string().contains("2 rows but 1 labels"), "{error}");
    // A failed recount leaves the counts as they were.
    let data = data();
    tree.recount(data.rows(), data.labels()).expect("fits");
    let before = tree.clone();
    assert!(tree.recount(&[vec![1.0, 0.0]], &[7]).is_err());
    assert_eq!(tree, before);
    assert_eq!(tree.training_counts(), &[2, 2]);
}

#[test]
fn evaluate_refuses_mismatched_lengths_and_unknown_classes() {
    let classes = vec!["no".to_string(), "yes".to_string()];
    let error = evaluate(&[0, 1], &[0], &classes).expect_err("two predictions, one label");
    assert!(error.to_string().contains("2 predictions"), "{error}");
    let error = evaluate(&[0, 2], &[0, 1], &classes).expect_err("prediction 2 of 2 classes");
    assert!(error.to_string().contains("class 2"), "{error}");
    let error = evaluate(&[0, 1], &[5, 1], &classes).expect_err("label 5 of 2 classes");
    assert!(error.to_string().contains("class 5"), "{error}");
    let fine = evaluate(&[0, 1, 1], &[0, 1, 0], &classes).expect("fits");
    assert_eq!(fine.misclassified, 1);
    // The tree's own evaluation refuses rows and labels that do not fit, too.
    let tree = axis_tree();
    assert!(tree.evaluate(&[vec![1.0, 0.0]], &[], &classes).is_err());
}

#[test]
fn a_confusion_matrix_must_be_square_over_the_classes() {
    let classes = vec!["no".to_string(), "yes".to_string()];
    assert!(from_confusion(vec![vec![1, 0]], &classes).is_err());
    assert!(from_confusion(vec![vec![1, 0], vec![2]], &classes).is_err());
    assert!(from_confusion(vec![vec![1, 0, 0], vec![0, 1, 0]], &classes).is_err());
    let fine = from_confusion(vec![vec![3, 1], vec![0, 4]], &classes).expect("square");
    assert_eq!((fine.rows, fine.misclassified), (8, 1));
}

#[test]
fn node_depth_is_total() {
    // Node ids start at 1; 0 is no node and is given the root's depth.
    assert_eq!(node_depth(0), 0);
    assert_eq!(node_depth(1), 0);
    assert_eq!(node_depth(2), 1);
    assert_eq!(node_depth(3), 1);
    assert_eq!(node_depth(4), 2);
    assert_eq!(node_depth(7), 2);
    assert_eq!(node_depth(usize::MAX), usize::BITS as usize - 1);
}

#[test]
fn an_assignment_of_another_model_is_reported_not_a_panic() {
    let mut small = MipModel::new("small");
    let x = small.binary("x");
    let mut start = small.start();
    start.set(x, 1.0);
    let start = start.finish().expect("complete");

    let mut other = MipModel::new("other");
    other.binary("y");
    other.binary("z");
    let feasibility = other.check(&start);
    assert!(!feasibility.feasible);
    assert_eq!(feasibility.violations, 1);
    let worst = feasibility.worst.expect("a violation");
    assert_eq!(worst.kind, ViolationKind::Assignment);
    assert!(worst.name.contains("model `other`"), "{}", worst.name);
    assert!(other.objective_value(&start).is_nan());

    // The same length is not enough: the assignment is of another model.
    let mut twin = MipModel::new("twin");
    twin.binary("x");
    assert!(!twin.check(&start).feasible);
    assert!(twin.objective_value(&start).is_nan());

    // A model that grew after the assignment was made: the assignment misses a column.
    small.binary("w");
    assert!(!small.check(&start).feasible);
    assert!(small.objective_value(&start).is_nan());
}
