//! The greedy logistic tree: OLCT's warm start, and a baseline of its own.
//!
//! From the root down, every node fits an L1-regularised logistic regression (the weight `C` of
//! its level) on the standardised training rows that reach it, routes them (`w . z + b <= 0`
//! goes left) and recurses. The tree is complete: every node above the last level is an oblique
//! split, and every node of the last level is an oblique split whose left leaf predicts the
//! negative class and whose right leaf the positive class.
//!
//! Special nodes. A node that no training row reaches gets `w = 0, b = 0`. A node whose rows
//! are all of one class gets `w = 0, b = +S` (positive rows) or `b = -S` (negative rows): the
//! exact minimiser of the node's objective within the score bound below (the logistic loss of
//! one class has no minimum without a bound). With `univariate`, each node uses at most one
//! feature: the best single-feature fit (or the intercept alone) by the node's objective.
//!
//! The tree is built so that the OLCT model can represent it exactly:
//! - **score bound**: every node keeps `sum_j Z_j |w_j| + |b| <= S`, with `Z_j` the largest
//!   `|z_ij|` over the training rows, so `|w . z_i + b| <= S` for every training row. A fit
//!   outside the bound is scaled down onto it (the scaling keeps the signs of the scores, so the
//!   routing; the node's note says so);
//! - **margin**: at a node above the last level, no training row reaching it has a score in
//!   `(0, margin)` (the model sends a row right only with a score of at least `margin`). When
//!   one does, the bias is moved by the smallest amount that clears every row (the note gives
//!   the amount; the rows keep their side unless they were inside the gap).

use serde_json::json;

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::greedy::logistic_node::{fit_node, representable_split, standardised_rows, ScoreBound};
use crate::tree::{Split, Standardisation, Tree, TreeBuilder};

/// Parameters of the greedy logistic tree.
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticTreeParams {
    /// Number of split levels (at least 1).
    pub depth: usize,
    /// The log-loss weight `C_h` of each level, root first (length `depth`).
    pub c: Vec<f64>,
    /// The class index of the positive class (y = +1); the other class is negative.
    pub positive_class: usize,
    /// At most one feature per node.
    pub univariate: bool,
    /// `S`: the largest `sum_j Z_j |w_j| + |b|` a node may have.
    pub score_limit: f64,
    /// The smallest score of a row sent right by a node above the last level.
    pub margin: f64,
}

struct Grower<'a> {
    data: &'a Dataset,
    params: &'a LogisticTreeParams,
    standardisation: Standardisation,
    z: Vec<Vec<f64>>,
    positive: Vec<bool>,
    bound: ScoreBound,
    builder: TreeBuilder,
    notes: Vec<String>,
}

impl Grower<'_> {
    fn grow(&mut self, id: usize, level: usize, rows: Vec<usize>) -> Result<()> {
        let last = level == self.params.depth;
        let margin = (!last).then_some(self.params.margin);
        // Fit within the bound less the room `representable_split` keeps for a bias shift.
        let room = margin.map_or(0.0, |m| {
            (self.bound.limit / 2.0).min((rows.len() + 1) as f64 * m)
        });
        let z: Vec<&[f64]> = rows.iter().map(|&i| self.z[i].as_slice()).collect();
        let positive: Vec<bool> = rows.iter().map(|&i| self.positive[i]).collect();
        let fit = fit_node(
            &z,
            &positive,
            self.params.c[level - 1],
            self.params.univariate,
            &self.bound.with_limit(self.bound.limit - room),
            None,
        )?;
        if let Some(note) = &fit.note {
            self.notes.push(format!("node {id}: {note}"));
        }
        let standardisation = &self.standardisation;
        let data_rows = &self.data.rows();
        let score = |w: &[f64], b: f64, i: usize| standardisation.score(w, b, &data_rows[i]);
        let (weights, bias, notes) =
            representable_split(fit.weights, fit.bias, &rows, &score, &self.bound, margin)
                .map_err(|e| Error::Internal(format!("greedy logistic tree, node {id}: {e}")))?;
        self.notes
            .extend(notes.into_iter().map(|note| format!("node {id}: {note}")));
        let score = |bias: f64, i: usize| standardisation.score(&weights, bias, &data_rows[i]);
        let (left, right): (Vec<usize>, Vec<usize>) =
            rows.iter().partition(|&&i| score(bias, i) <= 0.0);
        self.builder.split(id, Split::Oblique { weights, bias })?;
        if last {
            let negative = 1 - self.params.positive_class;
            self.builder.leaf(2 * id, negative)?;
            self.builder.leaf(2 * id + 1, self.params.positive_class)?;
        } else {
            self.grow(2 * id, level + 1, left)?;
            self.grow(2 * id + 1, level + 1, right)?;
        }
        Ok(())
    }
}

/// Grows the greedy logistic tree on `data`, which must have exactly two classes. The tree
/// keeps the standardisation of the training rows; its `learned_by` records the parameters
/// and the notes on special nodes.
pub fn logistic_tree(data: &Dataset, params: &LogisticTreeParams) -> Result<Tree> {
    if data.n_classes() != 2 || params.positive_class > 1 {
        return Err(Error::Internal(format!(
            "the greedy logistic tree needs two classes and a positive class among them ({} \
             classes, positive class {})",
            data.n_classes(),
            params.positive_class
        )));
    }
    if params.depth == 0 || params.c.len() != params.depth {
        return Err(Error::Internal(format!(
            "greedy logistic tree of depth {} with {} values of C",
            params.depth,
            params.c.len()
        )));
    }
    if data.n_rows() == 0 {
        return Err(Error::input(data.source(), "no training rows"));
    }
    let p = data.n_features();
    let standardisation = Standardisation::fit(data.rows(), p);
    let plain = standardised_rows(data.rows(), &standardisation, None);
    let bound = ScoreBound::new(&plain, p, params.score_limit);
    let z = standardised_rows(data.rows(), &standardisation, Some(&bound));
    let mut grower = Grower {
        data,
        params,
        z,
        positive: data
            .labels()
            .iter()
            .map(|&l| l == params.positive_class)
            .collect(),
        bound,
        builder: TreeBuilder::new(data.schema().clone(), data.classes().to_vec(), params.depth)?
            .standardisation(standardisation.clone()),
        standardisation,
        notes: Vec::new(),
    };
    grower.grow(1, 1, (0..data.n_rows()).collect())?;
    let notes = std::mem::take(&mut grower.notes);
    let mut tree = grower.builder.build()?;
    tree.recount(data.rows(), data.labels())?;
    tree.learned_by = Some(json!({
        "method": "greedy-logistic",
        "depth": params.depth,
        "c": params.c,
        "positive_class": data.classes()[params.positive_class],
        "univariate": params.univariate,
        "score_limit": params.score_limit,
        "margin": params.margin,
        "notes": notes,
    }));
    Ok(tree)
}
