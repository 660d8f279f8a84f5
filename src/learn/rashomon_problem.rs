//! The Rashomon set's problem from a run's [`Settings`], for the command line and Python alike:
//! the exact search's problem (depth, `alpha`, the objective's class weights and the given
//! ones, the leaf rules) and the [`Restriction`] of its side constraints (forbidden features,
//! depths, fairness bounds with the run's positive class).

use crate::constraints::ConstraintKind;
use crate::data::Dataset;
use crate::dp::DpProblem;
use crate::error::{Error, Result};
use crate::learn::objective::ObjectiveName;
use crate::learn::settings::Settings;
use crate::learn::Method;
use crate::rashomon::Restriction;

/// The objectives a Rashomon set takes: those of fixed class costs.
pub const RASHOMON_OBJECTIVES: [ObjectiveName; 2] =
    [ObjectiveName::Accuracy, ObjectiveName::Balanced];

/// The exact search's problem of `settings` (the exact search's method) on `data`, and the
/// restriction of their side constraints.
pub fn rashomon_problem(settings: &Settings, data: &Dataset) -> Result<(DpProblem, Restriction)> {
    if let Some(objective) = settings.objective {
        if !RASHOMON_OBJECTIVES.contains(&objective) {
            return Err(Error::parameter(
                "objective",
                format!(
                    "{}: the Rashomon set takes accuracy or balanced",
                    objective.name()
                ),
            ));
        }
    }
    let search = match settings.method()? {
        Method::Dp(search) => search,
        _ => return Err(Error::Internal("the Rashomon set of another method".into())),
    };
    let mut problem = search.problem(data);
    problem.max_leaf = settings.max_leaf_rows;
    let restriction = match settings.constraint_spec() {
        Some(mut spec) => {
            // The positive class of the fairness rates, as the exact search takes it.
            if spec.positive_class.is_none() {
                spec.positive_class.clone_from(&settings.positive_class);
            }
            // Leaf rows given as constraints are the problem's leaf rules.
            if let Some(least) = spec.min_leaf_rows {
                problem.min_leaf = problem.min_leaf.max(least);
            }
            if let Some(most) = spec.max_leaf_rows {
                problem.max_leaf = Some(problem.max_leaf.map_or(most, |m| m.min(most)));
            }
            Restriction::of(
                &spec.resolve(data)?,
                &[ConstraintKind::MinLeafRows, ConstraintKind::MaxLeafRows],
            )?
        }
        None => Restriction::default(),
    };
    Ok((problem, restriction))
}
