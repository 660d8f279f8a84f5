//! The model options shared by `solve` and `export-lp`, and their resolution into one of the
//! formulations. An option that does not apply to the chosen formulation is an error rather
//! than silently ignored.

use clap::{Args, ValueEnum};

use crate::error::{Error, Result};
use crate::formulation::oct::Oct;
use crate::formulation::{AnyFormulation, Objective};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormulationName {
    /// Bertsimas & Dunn's OCT (axis-aligned).
    Oct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ObjectiveArg {
    /// Every error costs the same.
    Accuracy,
    /// Errors on class k cost n / (K n_k): every class weighs the same.
    Balanced,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WarmStartArg {
    /// The formulation's greedy tree (CART; a greedy logistic tree for OLCT).
    Greedy,
    /// No warm start.
    None,
}

#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// The model to build.
    #[arg(long, value_enum)]
    pub formulation: FormulationName,
    /// Depth of the tree (number of split levels).
    #[arg(long)]
    pub depth: usize,
    /// [oct] Cost of each split, in units of the error normalised by the baseline's errors.
    #[arg(long)]
    pub alpha: Option<f64>,
    /// [oct] Minimum number of training rows in a leaf that is used.
    #[arg(long)]
    pub min_leaf: Option<usize>,
    /// [oct] What an error costs.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
    /// Warm start.
    #[arg(long, value_enum, default_value_t = WarmStartArg::Greedy)]
    pub warm_start: WarmStartArg,
}

fn objective(arg: Option<ObjectiveArg>) -> Objective {
    match arg {
        Some(ObjectiveArg::Balanced) => Objective::Balanced,
        Some(ObjectiveArg::Accuracy) | None => Objective::Accuracy,
    }
}

/// Fails when an option given on the command line does not apply to `formulation`.
fn reject(formulation: &str, given: &[(&str, bool)]) -> Result<()> {
    for (option, is_given) in given {
        if *is_given {
            return Err(Error::parameter(
                *option,
                format!("does not apply to --formulation {formulation}"),
            ));
        }
    }
    Ok(())
}

impl ModelArgs {
    /// The formulation these options describe.
    pub fn formulation(&self) -> Result<AnyFormulation> {
        match self.formulation {
            FormulationName::Oct => {
                reject("oct", &[])?;
                Ok(AnyFormulation::Oct(Oct {
                    depth: self.depth,
                    alpha: self.alpha.unwrap_or(0.0),
                    min_leaf: self.min_leaf.unwrap_or(1),
                    objective: objective(self.objective),
                }))
            }
        }
    }
}
