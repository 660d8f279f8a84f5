//! What an error on each training row costs in a formulation's objective ([`ErrorCosts`]): the
//! class's cost (accuracy or balanced, [`Objective::class_weights`]) times the user's class
//! weight (`--class-weight`) times the row's weight (1 for data without row weights). The
//! models sum these costs over the rows they misclassify, and the plain evaluation of a tree
//! ([`ErrorCosts::errors_of`]) sums the same costs, so the two agree.
//!
//! Every positive cost must lie in [`COST_RANGE`]: the solvers drop coefficients below their
//! tolerances and fail on huge ones (HiGHS from 1e15, CBC from 1e25), and no objective holds
//! one error beside another 1e18 times larger. Costs outside are refused, naming the option
//! that made them (`--class-weight`, or `--weight-column` when the row weights alone do).

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::score::{class_weight_vector, ClassWeight, Objective};

/// The least and the largest positive cost of one error the models take.
pub const COST_RANGE: (f64, f64) = (1e-6, 1e12);

/// The cost of an error on each row of the training data, and its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorCosts {
    /// The cost of an error on each class per unit of row weight: the objective's class cost
    /// times the user's class weight.
    pub class_factors: Vec<f64>,
    /// The cost of an error on each row: its class factor times its weight.
    pub rows: Vec<f64>,
    /// The sum of `rows` over the rows of each class.
    pub class_totals: Vec<f64>,
}

impl ErrorCosts {
    /// The costs on `data` under `objective` and the user's class weights `given` (an unknown
    /// label is an error naming `--class-weight`).
    pub fn new(objective: Objective, given: &[ClassWeight], data: &Dataset) -> Result<ErrorCosts> {
        let factors = class_weight_vector(given, data, "--class-weight")?;
        let class_factors: Vec<f64> = objective
            .class_weights(data)
            .iter()
            .zip(&factors)
            .map(|(cost, factor)| cost * factor)
            .collect();
        let rows = objective.row_costs(data, &factors);
        check_range(&rows, &class_factors, data)?;
        let mut class_totals = vec![0.0; data.n_classes()];
        for (&label, cost) in data.labels().iter().zip(&rows) {
            class_totals[label] += cost;
        }
        Ok(ErrorCosts {
            class_factors,
            rows,
            class_totals,
        })
    }

    /// The cost of misclassifying every row, `W`.
    pub fn total(&self) -> f64 {
        self.class_totals.iter().sum()
    }

    /// The errors of the majority-class baseline: `W` minus the largest class total.
    pub fn baseline(&self) -> f64 {
        self.total() - self.class_totals.iter().copied().fold(0.0, f64::max)
    }

    /// The summed cost of the rows of `data` whose `predicted` class is not their label.
    pub fn errors_of(&self, data: &Dataset, predicted: impl IntoIterator<Item = usize>) -> f64 {
        predicted
            .into_iter()
            .zip(data.labels())
            .zip(&self.rows)
            .filter(|((p, label), _)| p != *label)
            .map(|(_, cost)| cost)
            .sum()
    }
}

/// Refuses costs of one error outside [`COST_RANGE`] (see the module documentation): `rows`
/// are the rows' costs, `class_factors` the classes' (what they are without row weights).
pub(crate) fn check_range(rows: &[f64], class_factors: &[f64], data: &Dataset) -> Result<()> {
    let (least, largest) = COST_RANGE;
    let outside = |cost: &f64| *cost > 0.0 && !(least..=largest).contains(cost);
    let Some(cost) = rows.iter().find(|c| outside(c) || !c.is_finite()) else {
        return Ok(());
    };
    let option = if data.is_weighted() && !class_factors.iter().any(outside) {
        "--weight-column"
    } else {
        "--class-weight"
    };
    Err(Error::parameter(
        option,
        format!(
            "an error costs {cost:e} here; the models take costs of one error from {least:e} to \
             {largest:e} (solvers drop smaller coefficients and fail on larger ones): scale the \
             weights into that range"
        ),
    ))
}

/// An error when `data` has row weights: for `what`, a model that counts rows (its false
/// positives and negatives are whole numbers of rows), which does not take them yet.
pub fn refuse_row_weights(data: &Dataset, what: &str) -> Result<()> {
    if data.is_weighted() {
        return Err(Error::input(
            data.source(),
            format!("{what} counts rows and does not take row weights"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Dataset {
        Dataset::from_parts(
            "costs".to_string(),
            vec!["x".to_string()],
            vec!["a".to_string(), "b".to_string()],
            vec![vec![0.0], vec![1.0], vec![2.0]],
            vec![0, 0, 1],
        )
        .expect("valid data")
    }

    #[test]
    fn costs_multiply_class_cost_class_weight_and_row_weight() {
        let weighted = data().with_weights(vec![2.0, 0.5, 3.0]).expect("weights");
        let given = [ClassWeight {
            label: "b".to_string(),
            weight: 4.0,
        }];
        let costs = ErrorCosts::new(Objective::Accuracy, &given, &weighted).expect("costs");
        assert_eq!(costs.rows, vec![2.0, 0.5, 12.0]);
        assert_eq!(costs.class_totals, vec![2.5, 12.0]);
        assert_eq!(costs.baseline(), 2.5);
        assert_eq!(costs.errors_of(&weighted, [1, 0, 0]), 14.0);
        // Balanced: W / (K W_k) per unit of weight, W = 5.5, W_a = 2.5, W_b = 3.
        let balanced = ErrorCosts::new(Objective::Balanced, &[], &weighted).expect("costs");
        assert!((balanced.class_totals[0] - 2.75).abs() < 1e-12);
        assert!((balanced.class_totals[1] - 2.75).abs() < 1e-12);
        let unknown = [ClassWeight {
            label: "c".to_string(),
            weight: 1.0,
        }];
        assert!(ErrorCosts::new(Objective::Accuracy, &unknown, &weighted).is_err());
    }
}
