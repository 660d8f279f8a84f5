//! How a built model predicts one class for its training rows ([`ClassPrediction`]): the rows
//! it routes alike, and either one expression that is 1 exactly when they are predicted the
//! class, or the pairs "they reach this leaf" and "this leaf predicts the class" whose product
//! is. The fairness rows ([`super::fairness_rows`]) are built on them.

use crate::mip::Expression;

/// Whether a unit of training rows is predicted one class.
#[derive(Debug, Clone)]
pub struct ClassPrediction {
    /// The training rows of the unit (every integer solution routes them alike).
    pub rows: Vec<usize>,
    pub terms: PredictionTerms,
}

/// The expressions of a unit's prediction, 0 or 1 in every integer solution.
#[derive(Debug, Clone)]
pub enum PredictionTerms {
    /// 1 exactly when the unit is predicted the class.
    Linear(Expression),
    /// Per leaf, `(reaches, predicts)`: the unit reaches the leaf, and the leaf predicts the
    /// class; the unit is predicted the class when both are 1 for some leaf (it reaches one).
    Leaves(Vec<(Expression, Expression)>),
}
