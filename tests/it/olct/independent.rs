//! OLCT's objectives recomputed here from a tree's numbers, independently of the library: the
//! routing by `w . z + b <= 0`, the logistic loss, the paper's tangent points and the tangent
//! lines from the textbook formulas.

use milptree::data::Dataset;
use milptree::tree::{NodeKind, Split, Tree};

/// The paper's tangent points (finite ones) of V0..V3.
pub fn tangent_points(set: usize) -> Vec<f64> {
    let magnitudes: &[f64] = match set {
        0 => &[],
        1 => &[1.9],
        2 => &[1.9, 0.89, 3.55],
        _ => &[1.9, 0.89, 3.55, 0.44, 1.37, 2.63, 5.16],
    };
    let mut points = vec![0.0];
    for m in magnitudes {
        points.push(*m);
        points.push(-m);
    }
    points
}

pub fn loss(u: f64) -> f64 {
    if u > 30.0 {
        (-u).exp()
    } else {
        (1.0 + (-u).exp()).ln()
    }
}

fn slope(u: f64) -> f64 {
    -1.0 / (1.0 + u.exp())
}

/// The tangent underestimator of `set` at `u`, asymptotes included.
pub fn surrogate(set: usize, u: f64) -> f64 {
    tangent_points(set)
        .into_iter()
        .map(|v| loss(v) + slope(v) * (u - v))
        .fold(f64::max(0.0, -u), f64::max)
}

/// Weights and bias of node `id`.
pub fn split_of(tree: &Tree, id: usize) -> (Vec<f64>, f64) {
    match &tree.node(id).expect("node present").kind {
        NodeKind::Split(Split::Oblique { weights, bias }) => (weights.clone(), *bias),
        other => panic!("node {id} is {other:?}"),
    }
}

/// `w . z + b` with `z` standardised by the tree's stored scaling.
pub fn score(tree: &Tree, id: usize, row: &[f64]) -> f64 {
    let (w, b) = split_of(tree, id);
    let s = tree.standardisation().expect("oblique tree");
    let mut total = 0.0;
    for j in 0..w.len() {
        total += w[j] * (row[j] - s.mean[j]) / s.scale[j];
    }
    total + b
}

/// The branch nodes a row passes, root first (`depth` of them).
pub fn branch_path(tree: &Tree, depth: usize, row: &[f64]) -> Vec<usize> {
    let mut id = 1;
    let mut path = Vec::new();
    for _ in 0..depth {
        path.push(id);
        id = if score(tree, id, row) <= 0.0 {
            2 * id
        } else {
            2 * id + 1
        };
    }
    path
}

/// `sum_h C_h sum_i loss(y_i s_i) + sum_t ||w_t||_1`, with `positive` the class index of +1.
pub fn objective(
    tree: &Tree,
    data: &Dataset,
    positive: usize,
    depth: usize,
    c: &[f64],
    loss_of: &dyn Fn(f64) -> f64,
) -> f64 {
    weighted_objective(
        tree,
        data,
        positive,
        depth,
        c,
        loss_of,
        &vec![1.0; data.n_rows()],
    )
}

/// [`objective`] with row `i`'s loss weighted by `weights[i]`.
pub fn weighted_objective(
    tree: &Tree,
    data: &Dataset,
    positive: usize,
    depth: usize,
    c: &[f64],
    loss_of: &dyn Fn(f64) -> f64,
    weights: &[f64],
) -> f64 {
    let mut total = 0.0;
    for id in 1..(1usize << depth) {
        total += split_of(tree, id).0.iter().map(|w| w.abs()).sum::<f64>();
    }
    for ((row, &label), weight) in data.rows().iter().zip(data.labels()).zip(weights) {
        let y = if label == positive { 1.0 } else { -1.0 };
        for (h, id) in branch_path(tree, depth, row).into_iter().enumerate() {
            total += c[h] * weight * loss_of(y * score(tree, id, row));
        }
    }
    total
}
