//! The model options shared by `solve` and `export-lp`, and their resolution into one of the
//! formulations. An option that does not apply to the chosen formulation is an error rather
//! than silently ignored.

use clap::{Args, ValueEnum};

use crate::data::ThresholdMode;
use crate::error::{Error, Result};
use crate::formulation::binoct::BinOct;
use crate::formulation::oct::Oct;
use crate::formulation::olct::{Olct, TangentSet};
use crate::formulation::{AnyFormulation, Objective};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormulationName {
    /// Bertsimas & Dunn's OCT (axis-aligned).
    Oct,
    /// Verwer & Zhang's BinOCT (binary-search threshold encoding).
    Binoct,
    /// Aldinucci & Lapucci's optimal logistic classification trees (oblique, binary).
    Olct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThresholdArg {
    /// Every midpoint between consecutive distinct values (exact).
    All,
    /// Only midpoints between value groups that are not one and the same single class.
    ClassBoundary,
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
    /// [oct, binoct] What an error costs.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
    /// [binoct] Candidate thresholds (default class-boundary, the paper's reduction).
    #[arg(long, value_enum)]
    pub thresholds: Option<ThresholdArg>,
    /// [olct] The +1 class (default: the second class); required with more than two classes,
    /// the others being learned together as `not LABEL`.
    #[arg(long, value_name = "LABEL")]
    pub positive_class: Option<String>,
    /// [olct] Tangent set of the log-loss underestimator: 0 = {0, ±inf} ... 3 (14 points).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub tangents: Option<u8>,
    /// [olct] Weight of the log-loss of every level, or one per level (`--c 1,10`).
    #[arg(long, value_delimiter = ',', value_name = "C[,C...]")]
    pub c: Option<Vec<f64>>,
    /// [olct] Big-M of the routing and loss constraints.
    #[arg(long, value_name = "M")]
    pub big_m: Option<f64>,
    /// [olct] Margin of the rows sent right (`w . z + b >= epsilon`).
    #[arg(long, value_name = "E")]
    pub epsilon: Option<f64>,
    /// [olct] At most one feature per split.
    #[arg(long)]
    pub univariate: bool,
    /// [olct] Skip the refinement of the last level by exact L1-logistic regression.
    #[arg(long)]
    pub no_refine: bool,
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
    /// The OLCT options given on the command line.
    fn olct_options(&self) -> [(&'static str, bool); 7] {
        [
            ("--positive-class", self.positive_class.is_some()),
            ("--tangents", self.tangents.is_some()),
            ("--c", self.c.is_some()),
            ("--big-m", self.big_m.is_some()),
            ("--epsilon", self.epsilon.is_some()),
            ("--univariate", self.univariate),
            ("--no-refine", self.no_refine),
        ]
    }

    /// The formulation these options describe.
    pub fn formulation(&self) -> Result<AnyFormulation> {
        match self.formulation {
            FormulationName::Oct => {
                reject("oct", &[("--thresholds", self.thresholds.is_some())])?;
                reject("oct", &self.olct_options())?;
                Ok(AnyFormulation::Oct(Oct {
                    depth: self.depth,
                    alpha: self.alpha.unwrap_or(0.0),
                    min_leaf: self.min_leaf.unwrap_or(1),
                    objective: objective(self.objective),
                }))
            }
            FormulationName::Binoct => {
                reject(
                    "binoct",
                    &[
                        ("--alpha", self.alpha.is_some()),
                        ("--min-leaf", self.min_leaf.is_some()),
                    ],
                )?;
                reject("binoct", &self.olct_options())?;
                Ok(AnyFormulation::BinOct(BinOct {
                    depth: self.depth,
                    thresholds: match self.thresholds {
                        Some(ThresholdArg::All) => ThresholdMode::All,
                        Some(ThresholdArg::ClassBoundary) | None => ThresholdMode::ClassBoundary,
                    },
                    objective: objective(self.objective),
                }))
            }
            FormulationName::Olct => {
                reject(
                    "olct",
                    &[
                        ("--alpha", self.alpha.is_some()),
                        ("--min-leaf", self.min_leaf.is_some()),
                        ("--objective", self.objective.is_some()),
                        ("--thresholds", self.thresholds.is_some()),
                    ],
                )?;
                let defaults = Olct::new(self.depth);
                Ok(AnyFormulation::Olct(Olct {
                    positive_class: self.positive_class.clone(),
                    tangents: match self.tangents {
                        Some(index) => TangentSet::from_index(usize::from(index))?,
                        None => defaults.tangents,
                    },
                    c: self.c.clone().unwrap_or_else(|| defaults.c.clone()),
                    big_m: self.big_m.unwrap_or(defaults.big_m),
                    epsilon: self.epsilon.unwrap_or(defaults.epsilon),
                    univariate: self.univariate,
                    refine: !self.no_refine,
                    ..defaults
                }))
            }
        }
    }
}
