//! Forbidden features in the exact and sparse searches and in a MILP's certificate: a set of
//! side constraints made only of forbidden features is the problem over the other features, so
//! the searches run on the data without the forbidden columns
//! ([`crate::tree::kept_features`]) and their trees are mapped back to every feature. Any other
//! kind of constraint is beyond them.

use crate::constraints::{ConstraintSpec, SideConstraints};
use crate::data::Dataset;
use crate::error::Result;
use crate::tree::kept_features::KeptFeatures;

/// A set of side constraints made only of forbidden features, checked against the training
/// data, and the data without them.
#[derive(Debug, Clone)]
pub struct Forbidden {
    pub constraints: SideConstraints,
    pub kept: KeptFeatures,
}

/// What the constraints `spec` are to an exact search on `train`: `Ok(forbidden)` when they
/// are only forbidden features, `Err(kinds)` with the other kinds present otherwise.
/// Constraints that do not fit the data are an error.
pub fn only_forbidden(
    spec: &ConstraintSpec,
    train: &Dataset,
) -> Result<std::result::Result<Forbidden, Vec<&'static str>>> {
    let constraints = spec.resolve(train)?;
    let others = constraints.beyond_forbidden();
    if !others.is_empty() {
        return Ok(Err(others));
    }
    let kept = KeptFeatures::of(train, &constraints.forbidden)?;
    Ok(Ok(Forbidden { constraints, kept }))
}
