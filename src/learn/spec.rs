//! A method as given, before its parameters are checked ([`MethodSpec`]): what an experiment
//! grid lists and a report names. [`MethodSpec::check`] turns it into a [`Method`] at a depth.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::formulation::parameters::{non_default, without_derived};
use crate::formulation::{FormulationName, FormulationParams};
use crate::learn::{DpParams, Method, SparseParams};
use crate::solver::SolverKind;

/// A method with its parameters as given.
#[derive(Debug, Clone, PartialEq)]
pub enum MethodSpec {
    /// A formulation on a MIP solver.
    Milp {
        formulation: FormulationParams,
        solver: SolverKind,
    },
    /// The exact search.
    Dp(DpParams),
    /// The sparse search, at the grid's depth.
    Sparse(SparseParams),
}

impl MethodSpec {
    /// The formulation's name, or `dp`, or `sparse`.
    pub fn name(&self) -> &'static str {
        match self {
            MethodSpec::Milp { formulation, .. } => formulation.name().name(),
            MethodSpec::Dp(_) => "dp",
            MethodSpec::Sparse(_) => "sparse",
        }
    }

    /// The solver's name: `highs`, `cbc`, `dp` or `sparse`.
    pub fn solver_name(&self) -> &'static str {
        match self {
            MethodSpec::Milp { solver, .. } => solver.name(),
            MethodSpec::Dp(_) => "dp",
            MethodSpec::Sparse(_) => "sparse",
        }
    }

    /// Whether a warm start applies (the MILPs; the searches find their own).
    pub fn takes_warm_start(&self) -> bool {
        matches!(self, MethodSpec::Milp { .. })
    }

    /// The method at `depth`, its parameters checked.
    pub fn check(&self, depth: usize) -> Result<Method> {
        Ok(match self {
            MethodSpec::Milp {
                formulation,
                solver,
            } => Method::Milp {
                formulation: formulation.check(depth)?,
                solver: *solver,
            },
            MethodSpec::Dp(params) => Method::Dp(params.check(depth)?),
            MethodSpec::Sparse(params) => Method::Sparse(params.check(Some(depth))?),
        })
    }

    /// The parameters that differ from the method's defaults, as `(name, value)` pairs in
    /// field order, values as compact text (see [`non_default`]).
    pub fn non_default(&self) -> Vec<(String, String)> {
        match self {
            MethodSpec::Milp { formulation, .. } => formulation.non_default(),
            MethodSpec::Dp(params) => non_default(params, &DpParams::default()),
            MethodSpec::Sparse(params) => {
                let mut changed = non_default(params, &SparseParams::default());
                // Class weights as `solve` takes them: LABEL=W, comma-separated.
                for (name, value) in &mut changed {
                    if name == "class_weights" {
                        *value = params
                            .class_weights
                            .iter()
                            .map(|w| format!("{}={}", w.label, w.weight))
                            .collect::<Vec<_>>()
                            .join(",");
                    }
                }
                changed
            }
        }
    }

    /// The method called `name` (a formulation, `dp` or `sparse`) with its parameters from a
    /// JSON object (a report's `parameters`, whose `depth` and derived figures are ignored), run
    /// on the solver called `solver`.
    pub fn from_report(name: &str, parameters: &Value, solver: &str) -> Result<MethodSpec> {
        if name == "dp" {
            let params = serde_json::from_value(without_derived(parameters))
                .map_err(|e| Error::parameter("dp parameters", e.to_string()))?;
            return Ok(MethodSpec::Dp(params));
        }
        if name == "sparse" {
            let params = serde_json::from_value(without_derived(parameters))
                .map_err(|e| Error::parameter("sparse parameters", e.to_string()))?;
            return Ok(MethodSpec::Sparse(params));
        }
        let name: FormulationName = name.parse()?;
        Ok(MethodSpec::Milp {
            formulation: FormulationParams::from_json(name, parameters)?,
            solver: solver.parse()?,
        })
    }
}
