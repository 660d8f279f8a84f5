//! Feasibility of an assignment (rows, bounds, integrality) and its objective value.
//!
//! Tolerances: a row is violated when its violation exceeds [`FEASIBILITY_TOLERANCE`] times the
//! largest of 1, `|rhs|` and the largest `|coefficient * value|` in the row; a bound when the
//! violation exceeds the tolerance times `max(1, |bound|)`; integrality when the distance to the
//! nearest integer exceeds the tolerance. The worst violation is the one largest relative to its
//! tolerance; its `amount` is the absolute violation.

use serde::{Deserialize, Serialize};

use super::record::{RowSense, VarInfo};
use super::{Assignment, MipModel};

/// Relative feasibility tolerance of [`MipModel::check`] (solvers' defaults are 1e-6 to 1e-7).
pub const FEASIBILITY_TOLERANCE: f64 = 1e-6;

/// What a violation is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViolationKind {
    /// A row's sense and right-hand side.
    Constraint,
    /// A column's bounds.
    Bound,
    /// An integer column's integrality.
    Integrality,
    /// The assignment as a whole: it was not made for this model (another model, or this
    /// model before columns were added).
    Assignment,
}

impl ViolationKind {
    /// `constraint`, `bound`, `integrality` or `assignment`.
    pub fn name(self) -> &'static str {
        match self {
            ViolationKind::Constraint => "constraint",
            ViolationKind::Bound => "bound",
            ViolationKind::Integrality => "integrality",
            ViolationKind::Assignment => "assignment",
        }
    }
}

/// One violated row, bound or integrality requirement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// The readable name of the row or column.
    pub name: String,
    /// What is violated.
    pub kind: ViolationKind,
    /// By how much (absolute).
    pub amount: f64,
}

/// The result of checking an assignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feasibility {
    /// No violation beyond the tolerances.
    pub feasible: bool,
    /// The worst violation, relative to its tolerance.
    pub worst: Option<Violation>,
    /// How many rows, bounds and integrality requirements are violated.
    pub violations: usize,
}

/// Keeps the count and the worst violation seen so far.
struct Worst {
    violations: usize,
    worst: Option<(f64, Violation)>,
}

impl Worst {
    fn record(&mut self, name: &str, kind: ViolationKind, amount: f64, tolerance: f64) {
        if amount <= tolerance {
            return;
        }
        self.violations += 1;
        let relative = amount / tolerance;
        let is_worse = match &self.worst {
            None => true,
            Some((r, _)) => relative > *r,
        };
        if is_worse {
            self.worst = Some((
                relative,
                Violation {
                    name: name.to_string(),
                    kind,
                    amount,
                },
            ));
        }
    }
}

impl MipModel {
    /// The objective value of `assignment`, constant included; NaN for an assignment that was
    /// not made for this model (see [`MipModel::owns`]).
    pub fn objective_value(&self, assignment: &Assignment) -> f64 {
        let Ok(values) = self.values_of(assignment) else {
            return f64::NAN;
        };
        self.objective_constant()
            + self
                .objective_terms()
                .iter()
                .map(|&(j, c)| c * values[j])
                .sum::<f64>()
    }

    /// Checks `assignment` against every row, bound and integrality requirement. An assignment
    /// that was not made for this model (see [`MipModel::owns`]) is infeasible, with one
    /// violation of kind [`ViolationKind::Assignment`] and an infinite amount.
    pub fn check(&self, assignment: &Assignment) -> Feasibility {
        let Ok(values) = self.values_of(assignment) else {
            return Feasibility {
                feasible: false,
                worst: Some(Violation {
                    name: self.not_owned(assignment),
                    kind: ViolationKind::Assignment,
                    amount: f64::INFINITY,
                }),
                violations: 1,
            };
        };
        let mut worst = Worst {
            violations: 0,
            worst: None,
        };
        for (var, &value) in self.vars().iter().zip(values) {
            check_column(var, value, &mut worst);
        }
        for row in self.rows() {
            let activity = row.activity(values);
            let excess = activity - row.rhs;
            let amount = match row.sense {
                RowSense::Le => excess.max(0.0),
                RowSense::Ge => (-excess).max(0.0),
                RowSense::Eq => excess.abs(),
            };
            let largest_term = row
                .terms
                .iter()
                .map(|&(j, c)| (c * values[j]).abs())
                .fold(0.0, f64::max);
            let scale = 1f64.max(row.rhs.abs()).max(largest_term);
            worst.record(
                &row.name,
                ViolationKind::Constraint,
                amount,
                FEASIBILITY_TOLERANCE * scale,
            );
        }
        Feasibility {
            feasible: worst.violations == 0,
            worst: worst.worst.map(|(_, v)| v),
            violations: worst.violations,
        }
    }
}

fn check_column(var: &VarInfo, value: f64, worst: &mut Worst) {
    if !value.is_finite() {
        worst.record(
            &var.name,
            ViolationKind::Bound,
            f64::INFINITY,
            FEASIBILITY_TOLERANCE,
        );
        return;
    }
    let below = var.lower - value;
    if below > 0.0 {
        let tolerance = FEASIBILITY_TOLERANCE * 1f64.max(var.lower.abs());
        worst.record(&var.name, ViolationKind::Bound, below, tolerance);
    }
    let above = value - var.upper;
    if above > 0.0 {
        let tolerance = FEASIBILITY_TOLERANCE * 1f64.max(var.upper.abs());
        worst.record(&var.name, ViolationKind::Bound, above, tolerance);
    }
    if var.kind.is_integral() {
        let distance = (value - value.round()).abs();
        worst.record(
            &var.name,
            ViolationKind::Integrality,
            distance,
            FEASIBILITY_TOLERANCE,
        );
    }
}
