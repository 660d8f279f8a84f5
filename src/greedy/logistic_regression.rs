//! L1-regularised logistic regression, solved exactly by coordinate descent.
//!
//! The problem is
//!
//! ```text
//! minimise  sum_j |w_j|  +  C * sum_i f(y_i (w . x_i + b)),    f(u) = log(1 + exp(-u)),
//! ```
//!
//! with labels `y_i` in {-1, +1}. By default the intercept `b` is not penalised, as in the OLCT
//! objective. [`Intercept::Penalised`] gives liblinear's variant instead: the intercept is the
//! weight of an extra feature of constant value `scaling` and is penalised like the others
//! (scikit-learn's `LogisticRegression(solver='liblinear', l1_ratio=1, intercept_scaling=s)`
//! minimises exactly that).
//!
//! The solver is newGLMNET (Yuan, Ho and Lin, 2012): each outer iteration builds the quadratic
//! model of the smooth part at the current point, minimises model + L1 term by cyclic coordinate
//! descent (closed-form soft-thresholded steps), and takes the largest step `2^-k` along that
//! direction that decreases the objective by a sufficient amount (Armijo). The objective never
//! increases from the starting point, so a fit warm-started from given weights can only improve
//! on them. Convergence is tested on the optimality (KKT) conditions: the minimum-norm
//! subgradient of the objective must vanish, to a tolerance.

use crate::error::{Error, Result};
use crate::tree::sigmoid;

/// `f(u) = log(1 + exp(-u))`, the logistic loss at margin `u`, computed without overflow.
pub fn logistic_loss(margin: f64) -> f64 {
    if margin > 0.0 {
        (-margin).exp().ln_1p()
    } else {
        -margin + margin.exp().ln_1p()
    }
}

/// `f'(u) = -1 / (1 + exp(u))`, the derivative of [`logistic_loss`].
pub fn logistic_loss_slope(margin: f64) -> f64 {
    -sigmoid(-margin)
}

/// How the intercept enters the problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Intercept {
    /// A free intercept, not penalised (the OLCT objective).
    Unpenalised,
    /// liblinear's intercept: the weight `w_b` of an extra feature of value `scaling`,
    /// penalised by `|w_b|`; the intercept is `scaling * w_b`.
    Penalised { scaling: f64 },
}

/// Settings of an L1-regularised logistic regression.
#[derive(Debug, Clone, PartialEq)]
pub struct L1Logistic {
    /// The weight `C` of the summed log-loss against the L1 norm (positive).
    pub c: f64,
    pub intercept: Intercept,
    /// Convergence: the largest minimum-norm subgradient component must fall to
    /// `tolerance * max(1, C * n)`.
    pub tolerance: f64,
    /// Largest number of Newton (outer) iterations.
    pub max_iterations: usize,
}

impl L1Logistic {
    /// Weight `c`, unpenalised intercept, tolerance 1e-9, at most 500 Newton iterations.
    pub fn new(c: f64) -> L1Logistic {
        L1Logistic {
            c,
            intercept: Intercept::Unpenalised,
            tolerance: 1e-9,
            max_iterations: 500,
        }
    }
}

/// A fitted model and how the fit went.
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticFit {
    pub weights: Vec<f64>,
    pub intercept: f64,
    /// The objective at the returned point.
    pub objective: f64,
    /// The largest component of the minimum-norm subgradient at the returned point.
    pub kkt_violation: f64,
    /// Whether `kkt_violation` reached the tolerance.
    pub converged: bool,
    pub iterations: usize,
}

/// The data of one fit in column-major form, with the intercept as the last column.
struct Problem {
    /// `columns[j][i]`: feature `j` of row `i`; the last column is the intercept's.
    columns: Vec<Vec<f64>>,
    /// Penalty factor of each column (1, or 0 for an unpenalised intercept).
    penalty: Vec<f64>,
    y: Vec<f64>,
    c: f64,
}

impl Problem {
    fn n(&self) -> usize {
        self.y.len()
    }

    /// The objective at coefficients `beta` whose linear predictor is `xb`.
    fn objective(&self, beta: &[f64], xb: &[f64]) -> f64 {
        let penalty: f64 = beta
            .iter()
            .zip(&self.penalty)
            .map(|(b, p)| p * b.abs())
            .sum();
        let loss: f64 = xb
            .iter()
            .zip(&self.y)
            .map(|(s, y)| logistic_loss(y * s))
            .sum();
        penalty + self.c * loss
    }

    /// Gradient of the smooth part at the linear predictor `xb`.
    fn gradient(&self, xb: &[f64]) -> Vec<f64> {
        let factor: Vec<f64> = xb
            .iter()
            .zip(&self.y)
            .map(|(s, y)| self.c * logistic_loss_slope(y * s) * y)
            .collect();
        self.columns
            .iter()
            .map(|column| column.iter().zip(&factor).map(|(x, f)| x * f).sum())
            .collect()
    }

    /// The largest component of the minimum-norm subgradient of the objective.
    fn kkt_violation(&self, beta: &[f64], gradient: &[f64]) -> f64 {
        beta.iter()
            .zip(gradient)
            .zip(&self.penalty)
            .map(|((&b, &g), &p)| coordinate_violation(b, g, p))
            .fold(0.0, f64::max)
    }
}

/// Distance from 0 to the subdifferential `g + p * d|b|` of one coordinate.
fn coordinate_violation(value: f64, gradient: f64, penalty: f64) -> f64 {
    if value > 0.0 {
        (gradient + penalty).abs()
    } else if value < 0.0 {
        (gradient - penalty).abs()
    } else {
        (gradient.abs() - penalty).max(0.0)
    }
}

/// The step `z` minimising `g z + h z^2 / 2 + p |v + z|` (one coordinate of the quadratic model).
fn coordinate_step(value: f64, gradient: f64, curvature: f64, penalty: f64) -> f64 {
    if gradient + penalty <= curvature * value {
        -(gradient + penalty) / curvature
    } else if gradient - penalty >= curvature * value {
        -(gradient - penalty) / curvature
    } else {
        -value
    }
}

impl L1Logistic {
    fn check(&self) -> Result<()> {
        if !(self.c.is_finite() && self.c > 0.0) {
            return Err(Error::parameter(
                "C",
                format!(
                    "{} is not a positive number (the weight of the log-loss)",
                    self.c
                ),
            ));
        }
        if let Intercept::Penalised { scaling } = self.intercept {
            if !(scaling.is_finite() && scaling > 0.0) {
                return Err(Error::parameter(
                    "intercept scaling",
                    format!("{scaling} is not a positive number"),
                ));
            }
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(Error::parameter(
                "tolerance",
                format!("{} is not a positive number", self.tolerance),
            ));
        }
        Ok(())
    }

    fn problem(&self, rows: &[&[f64]], positive: &[bool]) -> Result<Problem> {
        self.check()?;
        if rows.len() != positive.len() {
            return Err(Error::Internal(format!(
                "logistic regression: {} rows but {} labels",
                rows.len(),
                positive.len()
            )));
        }
        if rows.is_empty() {
            return Err(Error::Internal(
                "logistic regression: no rows to fit".into(),
            ));
        }
        let p = rows[0].len();
        if rows.iter().any(|row| row.len() != p) {
            return Err(Error::Internal(
                "logistic regression: rows of different lengths".into(),
            ));
        }
        if rows
            .iter()
            .flat_map(|row| row.iter())
            .any(|v| !v.is_finite())
        {
            return Err(Error::Internal(
                "logistic regression: a feature value is not finite".into(),
            ));
        }
        let both_classes = positive.iter().any(|&y| y) && positive.iter().any(|&y| !y);
        if self.intercept == Intercept::Unpenalised && !both_classes {
            return Err(Error::Internal(
                "logistic regression with a free intercept needs rows of both classes (on one \
                 class the loss has no minimum)"
                    .into(),
            ));
        }
        let mut columns: Vec<Vec<f64>> = (0..p)
            .map(|j| rows.iter().map(|row| row[j]).collect())
            .collect();
        let (intercept_value, intercept_penalty) = match self.intercept {
            Intercept::Unpenalised => (1.0, 0.0),
            Intercept::Penalised { scaling } => (scaling, 1.0),
        };
        columns.push(vec![intercept_value; rows.len()]);
        let mut penalty = vec![1.0; p];
        penalty.push(intercept_penalty);
        Ok(Problem {
            columns,
            penalty,
            y: positive
                .iter()
                .map(|&y| if y { 1.0 } else { -1.0 })
                .collect(),
            c: self.c,
        })
    }

    /// The column value of the intercept feature.
    fn intercept_value(&self) -> f64 {
        match self.intercept {
            Intercept::Unpenalised => 1.0,
            Intercept::Penalised { scaling } => scaling,
        }
    }

    /// The objective at `weights` and `intercept` (the intercept in the data's units).
    pub fn objective(
        &self,
        rows: &[&[f64]],
        positive: &[bool],
        weights: &[f64],
        intercept: f64,
    ) -> f64 {
        let loss: f64 = rows
            .iter()
            .zip(positive)
            .map(|(row, &y)| {
                let s: f64 = row.iter().zip(weights).map(|(x, w)| x * w).sum::<f64>() + intercept;
                logistic_loss(if y { s } else { -s })
            })
            .sum();
        let mut penalty: f64 = weights.iter().map(|w| w.abs()).sum();
        if let Intercept::Penalised { scaling } = self.intercept {
            penalty += (intercept / scaling).abs();
        }
        penalty + self.c * loss
    }

    /// Fits the model to `rows` (one slice of features per row) with labels `positive`
    /// (`true` for y = +1), starting from `start = (weights, intercept)` or from zero.
    ///
    /// Errors on invalid settings, on ragged or non-finite rows, and, with a free intercept,
    /// on rows of one class only (the loss then has no minimum).
    pub fn fit(
        &self,
        rows: &[&[f64]],
        positive: &[bool],
        start: Option<(&[f64], f64)>,
    ) -> Result<LogisticFit> {
        let problem = self.problem(rows, positive)?;
        let n = problem.n();
        let dimension = problem.columns.len();
        let mut beta = vec![0.0; dimension];
        if let Some((weights, intercept)) = start {
            if weights.len() != dimension - 1 || weights.iter().any(|w| !w.is_finite()) {
                return Err(Error::Internal(format!(
                    "logistic regression: a start of {} weights for {} features",
                    weights.len(),
                    dimension - 1
                )));
            }
            beta[..dimension - 1].copy_from_slice(weights);
            beta[dimension - 1] = intercept / self.intercept_value();
        }
        let mut xb = vec![0.0; n];
        for (column, b) in problem.columns.iter().zip(&beta) {
            if *b != 0.0 {
                for (s, x) in xb.iter_mut().zip(column) {
                    *s += b * x;
                }
            }
        }
        let threshold = self.tolerance * (self.c * n as f64).max(1.0);
        let mut objective = problem.objective(&beta, &xb);
        let mut gradient = problem.gradient(&xb);
        let mut violation = problem.kkt_violation(&beta, &gradient);
        let mut iterations = 0;
        while violation > threshold && iterations < self.max_iterations {
            iterations += 1;
            let Some((direction, x_direction, decrease)) =
                newton_direction(&problem, &beta, &xb, &gradient, violation)
            else {
                break;
            };
            // Armijo backtracking: the largest step 2^-k with a sufficient decrease.
            let mut step = 1.0;
            let mut accepted = None;
            for _ in 0..60 {
                let trial_beta: Vec<f64> = beta
                    .iter()
                    .zip(&direction)
                    .map(|(b, d)| b + step * d)
                    .collect();
                let trial_xb: Vec<f64> = xb
                    .iter()
                    .zip(&x_direction)
                    .map(|(s, d)| s + step * d)
                    .collect();
                let trial = problem.objective(&trial_beta, &trial_xb);
                if trial <= objective + 0.01 * step * decrease {
                    accepted = Some((trial_beta, trial_xb, trial));
                    break;
                }
                step *= 0.5;
            }
            let Some((new_beta, new_xb, new_objective)) = accepted else {
                // No decrease is measurable any more: the point is optimal to rounding.
                break;
            };
            beta = new_beta;
            xb = new_xb;
            objective = new_objective;
            gradient = problem.gradient(&xb);
            violation = problem.kkt_violation(&beta, &gradient);
        }
        let intercept = beta[dimension - 1] * self.intercept_value();
        beta.truncate(dimension - 1);
        Ok(LogisticFit {
            weights: beta,
            intercept,
            objective,
            kkt_violation: violation,
            converged: violation <= threshold,
            iterations,
        })
    }
}

/// One newGLMNET direction: coordinate descent on the quadratic model of the smooth part plus
/// the L1 term at `beta`. Returns the direction, its image `X d`, and the model decrease
/// `g . d + sum_j p_j (|beta_j + d_j| - |beta_j|)` (negative), or `None` when the direction
/// is zero.
fn newton_direction(
    problem: &Problem,
    beta: &[f64],
    xb: &[f64],
    gradient: &[f64],
    outer_violation: f64,
) -> Option<(Vec<f64>, Vec<f64>, f64)> {
    let n = problem.n();
    let dimension = beta.len();
    // Diagonal of the Hessian of the smooth part, per row.
    let weight: Vec<f64> = xb
        .iter()
        .zip(&problem.y)
        .map(|(s, y)| {
            let p = sigmoid(y * s);
            problem.c * p * (1.0 - p)
        })
        .collect();
    let curvature: Vec<f64> = problem
        .columns
        .iter()
        .map(|column| {
            column
                .iter()
                .zip(&weight)
                .map(|(x, w)| w * x * x)
                .sum::<f64>()
                + 1e-12
        })
        .collect();
    let mut direction = vec![0.0; dimension];
    let mut x_direction = vec![0.0; n];
    let inner_threshold = 0.1 * outer_violation;
    for _pass in 0..100 {
        let mut pass_violation: f64 = 0.0;
        for j in 0..dimension {
            let column = &problem.columns[j];
            let model_gradient = gradient[j]
                + column
                    .iter()
                    .zip(&weight)
                    .zip(&x_direction)
                    .map(|((x, w), d)| x * w * d)
                    .sum::<f64>();
            let value = beta[j] + direction[j];
            pass_violation = pass_violation.max(coordinate_violation(
                value,
                model_gradient,
                problem.penalty[j],
            ));
            let z = coordinate_step(value, model_gradient, curvature[j], problem.penalty[j]);
            if z != 0.0 {
                direction[j] += z;
                for (d, x) in x_direction.iter_mut().zip(column) {
                    *d += z * x;
                }
            }
        }
        if pass_violation <= inner_threshold {
            break;
        }
    }
    if direction.iter().all(|&d| d == 0.0) {
        return None;
    }
    let decrease: f64 = direction
        .iter()
        .zip(gradient)
        .map(|(d, g)| d * g)
        .sum::<f64>()
        + beta
            .iter()
            .zip(&direction)
            .zip(&problem.penalty)
            .map(|((b, d), p)| p * ((b + d).abs() - b.abs()))
            .sum::<f64>();
    Some((direction, x_direction, decrease))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small overlapping two-class problem.
    fn data() -> (Vec<Vec<f64>>, Vec<bool>) {
        let rows = vec![
            vec![0.5, 1.0],
            vec![1.5, -0.5],
            vec![-1.0, 0.3],
            vec![-0.2, -1.2],
            vec![2.0, 0.7],
            vec![-1.5, 1.1],
            vec![0.1, 0.1],
            vec![1.0, 2.0],
        ];
        let positive = vec![true, true, false, false, true, false, false, true];
        (rows, positive)
    }

    fn refs(rows: &[Vec<f64>]) -> Vec<&[f64]> {
        rows.iter().map(Vec::as_slice).collect()
    }

    #[test]
    fn loss_slope_and_sigmoid_are_stable_and_consistent() {
        assert!((logistic_loss(0.0) - 2f64.ln()).abs() < 1e-15);
        assert!((logistic_loss(-800.0) - 800.0).abs() < 1e-12);
        assert!(logistic_loss(800.0) >= 0.0 && logistic_loss(800.0) < 1e-300);
        for u in [-30.0, -2.0, -0.1, 0.0, 0.3, 4.0, 25.0] {
            let h = 1e-6;
            let numeric = (logistic_loss(u + h) - logistic_loss(u - h)) / (2.0 * h);
            assert!((numeric - logistic_loss_slope(u)).abs() < 1e-8, "u = {u}");
            assert!((sigmoid(u) + sigmoid(-u) - 1.0).abs() < 1e-15);
        }
    }

    #[test]
    fn the_fit_satisfies_the_optimality_conditions_and_beats_perturbations() {
        let (rows, positive) = data();
        let solver = L1Logistic::new(2.0);
        let fit = solver.fit(&refs(&rows), &positive, None).unwrap();
        assert!(fit.converged, "{fit:?}");
        let base = solver.objective(&refs(&rows), &positive, &fit.weights, fit.intercept);
        assert!((base - fit.objective).abs() < 1e-10);
        for k in 0..3 {
            for delta in [-1e-3, 1e-3] {
                let mut w = fit.weights.clone();
                let mut b = fit.intercept;
                if k < 2 {
                    w[k] += delta;
                } else {
                    b += delta;
                }
                assert!(solver.objective(&refs(&rows), &positive, &w, b) >= base - 1e-12);
            }
        }
    }

    #[test]
    fn a_warm_start_never_ends_worse_than_it_began() {
        let (rows, positive) = data();
        let mut solver = L1Logistic::new(0.7);
        solver.max_iterations = 1;
        let start = ([3.0, -2.0], 1.5);
        let before = solver.objective(&refs(&rows), &positive, &start.0, start.1);
        let fit = solver
            .fit(&refs(&rows), &positive, Some((&start.0, start.1)))
            .unwrap();
        assert!(fit.objective <= before);
    }

    #[test]
    fn strong_regularisation_gives_zero_weights() {
        let (rows, positive) = data();
        let fit = L1Logistic::new(1e-3)
            .fit(&refs(&rows), &positive, None)
            .unwrap();
        assert_eq!(fit.weights, vec![0.0, 0.0]);
        // Intercept only: log-odds of the class balance (4 of 8 positive).
        assert!(fit.intercept.abs() < 1e-8);
    }

    #[test]
    fn one_class_with_a_free_intercept_is_an_error() {
        let rows = [vec![1.0], vec![2.0]];
        let err = L1Logistic::new(1.0)
            .fit(&refs(&rows), &[true, true], None)
            .unwrap_err();
        assert!(err.to_string().contains("both classes"), "{err}");
    }
}
