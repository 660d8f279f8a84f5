//! The rows of fairness constraints ([`crate::constraints::fairness`]) over a model's
//! predictions of the positive class ([`super::predictions`]). With `pos[u]` the expression of
//! "unit `u` is predicted positive" (the model's own, or `sum_t q[u,t]` with
//! `positive[u=..,t=..]`: `q <= reach`, `q <= predicts`, `q >= reach + predicts - 1`, the product
//! of two 0/1 expressions) and, for a kind of rate, `S_g` the (weighted) rows of group `g` that
//! count in it (all rows for parity, the rows of the positive class for opportunity), the rate
//! of group `g` is `r_g = sum_u (sum_{i in u, g(i) = g, i counts} v_i / S_g) pos[u]`, and each
//! ordered pair of groups gives `parity_gap[g=a,h=b]` (or `opportunity_gap[..]`):
//! `r_a - r_b <= delta`.

use good_lp::IntoAffineExpression;

use crate::constraints::fairness::Fairness;
use crate::mip::{Expression, MipModel, RowSense, Variable};

use super::predictions::{ClassPrediction, PredictionTerms};

/// The columns the fairness rows added: each product `q` with its two factors.
#[derive(Debug, Clone, Default)]
pub struct FairnessRows {
    products: Vec<(Expression, Expression, Variable)>,
}

/// The value of `expression` at `values` (the model's columns).
fn value_at(mip: &MipModel, expression: &Expression, values: &[f64]) -> f64 {
    expression.constant()
        + expression
            .linear_coefficients()
            .map(|(v, c)| c * values[mip.col(v)])
            .sum::<f64>()
}

impl FairnessRows {
    /// Adds to `mip` the rows of `fairness` over `units`, the model's predictions of the
    /// positive class.
    pub fn add(mip: &mut MipModel, units: &[ClassPrediction], fairness: &Fairness) -> Self {
        let mut products = Vec::new();
        let mut positive = Vec::with_capacity(units.len());
        for (u, unit) in units.iter().enumerate() {
            positive.push(match &unit.terms {
                PredictionTerms::Linear(e) => e.clone(),
                PredictionTerms::Leaves(pairs) => {
                    let mut sum = Expression::default();
                    for (t, (reach, predicts)) in pairs.iter().enumerate() {
                        let q = mip.continuous(format!("positive[u={u},t={t}]"), 0.0, 1.0);
                        mip.add_row(
                            format!("positive_reach[u={u},t={t}]"),
                            q,
                            RowSense::Le,
                            reach.clone(),
                        );
                        mip.add_row(
                            format!("positive_class[u={u},t={t}]"),
                            q,
                            RowSense::Le,
                            predicts.clone(),
                        );
                        mip.add_row(
                            format!("positive_both[u={u},t={t}]"),
                            q,
                            RowSense::Ge,
                            reach.clone() + predicts.clone() - 1.0,
                        );
                        products.push((reach.clone(), predicts.clone(), q));
                        sum += q;
                    }
                    sum
                }
            });
        }
        let n_groups = fairness.groups.len();
        for (kind, bound) in fairness.bounds() {
            let sizes = fairness.sizes(kind);
            let mut rates = vec![Expression::default(); n_groups];
            for (unit, pos) in units.iter().zip(&positive) {
                let mut share = vec![0.0; n_groups];
                for &i in unit.rows.iter().filter(|&&i| fairness.counts(kind, i)) {
                    let g = fairness.row_group[i];
                    share[g] += fairness.weight(i) / sizes[g];
                }
                for (g, &s) in share.iter().enumerate().filter(|&(_, &s)| s != 0.0) {
                    rates[g] += s * pos.clone();
                }
            }
            for a in 0..n_groups {
                for b in (0..n_groups).filter(|&b| b != a) {
                    mip.add_row(
                        format!("{}[g={a},h={b}]", kind.row_name()),
                        rates[a].clone() - rates[b].clone(),
                        RowSense::Le,
                        bound,
                    );
                }
            }
        }
        FairnessRows { products }
    }

    /// Sets each product column in `values` from its factors' values (a warm start's).
    pub fn fill(&self, mip: &MipModel, values: &mut [f64]) {
        for (reach, predicts, q) in &self.products {
            let value = value_at(mip, reach, values) * value_at(mip, predicts, values);
            values[mip.col(*q)] = value.clamp(0.0, 1.0);
        }
    }
}
