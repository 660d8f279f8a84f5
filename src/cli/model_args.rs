//! The model options shared by `solve` and `export-lp`: the formulation, its depth and warm
//! start, and one clap `Args` struct per group of formulation parameters, flattened into the
//! command. Each group says which formulations it applies to; an option of a group given on
//! the command line for another formulation is refused ([`refuse_options_that_do_not_apply`]),
//! whatever the option, so adding a formulation or an option needs no list of flags.

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Command, ValueEnum};

use crate::data::ThresholdMode;
use crate::error::{Error, Result};
use crate::formulation::binoct::BinOctParams;
use crate::formulation::flowoct::FlowOctParams;
use crate::formulation::oct::OctParams;
use crate::formulation::olct::{OlctParams, TangentSet};
use crate::formulation::{AnyFormulation, FormulationName, FormulationParams, Objective};
use crate::learn::WarmStartMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThresholdArg {
    /// Every midpoint between consecutive distinct values (exact).
    All,
    /// Only midpoints between value groups that are not one and the same single class.
    ClassBoundary,
}

impl From<ThresholdArg> for ThresholdMode {
    fn from(arg: ThresholdArg) -> ThresholdMode {
        match arg {
            ThresholdArg::All => ThresholdMode::All,
            ThresholdArg::ClassBoundary => ThresholdMode::ClassBoundary,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ObjectiveArg {
    /// Every error costs the same.
    Accuracy,
    /// Errors on class k cost n / (K n_k): every class weighs the same.
    Balanced,
}

impl From<ObjectiveArg> for Objective {
    fn from(arg: ObjectiveArg) -> Objective {
        match arg {
            ObjectiveArg::Accuracy => Objective::Accuracy,
            ObjectiveArg::Balanced => Objective::Balanced,
        }
    }
}

/// A group of options that applies to some formulations only.
trait OptionGroup {
    /// The clap group id (the struct's `#[group(id)]`).
    const ID: &'static str;
    /// The formulations the options apply to.
    const APPLIES_TO: &'static [FormulationName];
}

/// Options of the formulations whose objective counts errors.
#[derive(Debug, Clone, Args)]
#[group(id = "error-options", multiple = true)]
pub struct ErrorArgs {
    /// [oct, binoct, flowoct] What an error costs.
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
}

impl OptionGroup for ErrorArgs {
    const ID: &'static str = "error-options";
    const APPLIES_TO: &'static [FormulationName] = &[
        FormulationName::Oct,
        FormulationName::BinOct,
        FormulationName::FlowOct,
    ];
}

/// OCT's options.
#[derive(Debug, Clone, Args)]
#[group(id = "oct-options", multiple = true)]
pub struct OctArgs {
    /// [oct] Cost of each split, in units of the error normalised by the baseline's errors.
    #[arg(long)]
    pub alpha: Option<f64>,
    /// [oct] Minimum number of training rows in a leaf that is used.
    #[arg(long)]
    pub min_leaf: Option<usize>,
}

impl OptionGroup for OctArgs {
    const ID: &'static str = "oct-options";
    const APPLIES_TO: &'static [FormulationName] = &[FormulationName::Oct];
}

/// The options of the formulations over binary features `x_j <= t`.
#[derive(Debug, Clone, Args)]
#[group(id = "binoct-options", multiple = true)]
pub struct BinOctArgs {
    /// [binoct, flowoct] Candidate thresholds (BinOCT's default: class-boundary, the paper's
    /// reduction; FlowOCT's: all, exact).
    #[arg(long, value_enum)]
    pub thresholds: Option<ThresholdArg>,
}

impl OptionGroup for BinOctArgs {
    const ID: &'static str = "binoct-options";
    const APPLIES_TO: &'static [FormulationName] =
        &[FormulationName::BinOct, FormulationName::FlowOct];
}

/// OLCT's options.
#[derive(Debug, Clone, Args)]
#[group(id = "olct-options", multiple = true)]
pub struct OlctArgs {
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
}

impl OptionGroup for OlctArgs {
    const ID: &'static str = "olct-options";
    const APPLIES_TO: &'static [FormulationName] = &[FormulationName::Olct];
}

/// Every option group and the formulations it applies to.
const GROUPS: [(&str, &[FormulationName]); 4] = [
    (ErrorArgs::ID, ErrorArgs::APPLIES_TO),
    (OctArgs::ID, OctArgs::APPLIES_TO),
    (BinOctArgs::ID, BinOctArgs::APPLIES_TO),
    (OlctArgs::ID, OlctArgs::APPLIES_TO),
];

fn parse_formulation(text: &str) -> std::result::Result<FormulationName, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

fn parse_warm_start(text: &str) -> std::result::Result<WarmStartMode, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// The model to build: oct (Bertsimas & Dunn), binoct (Verwer & Zhang), flowoct (Aghaei,
    /// Gomez & Vayanos) or olct (Aldinucci & Lapucci, oblique logistic splits).
    #[arg(long, value_parser = parse_formulation)]
    pub formulation: FormulationName,
    /// Depth of the tree (number of split levels).
    #[arg(long)]
    pub depth: usize,
    /// Warm start: greedy (the formulation's greedy tree) or none.
    #[arg(long, default_value = "greedy", value_parser = parse_warm_start)]
    pub warm_start: WarmStartMode,
    #[command(flatten)]
    pub errors: ErrorArgs,
    #[command(flatten)]
    pub oct: OctArgs,
    #[command(flatten)]
    pub binoct: BinOctArgs,
    #[command(flatten)]
    pub olct: OlctArgs,
}

impl ModelArgs {
    /// The parameters these options give the chosen formulation (defaults for the others).
    pub fn params(&self) -> Result<FormulationParams> {
        let objective = self.errors.objective.map(Objective::from);
        Ok(match self.formulation {
            FormulationName::Oct => {
                let defaults = OctParams::default();
                FormulationParams::Oct(OctParams {
                    alpha: self.oct.alpha.unwrap_or(defaults.alpha),
                    min_leaf: self.oct.min_leaf.unwrap_or(defaults.min_leaf),
                    objective: objective.unwrap_or(defaults.objective),
                })
            }
            FormulationName::BinOct => {
                let defaults = BinOctParams::default();
                FormulationParams::BinOct(BinOctParams {
                    thresholds: self
                        .binoct
                        .thresholds
                        .map_or(defaults.thresholds, ThresholdMode::from),
                    objective: objective.unwrap_or(defaults.objective),
                })
            }
            FormulationName::FlowOct => {
                let defaults = FlowOctParams::default();
                FormulationParams::FlowOct(FlowOctParams {
                    thresholds: self
                        .binoct
                        .thresholds
                        .map_or(defaults.thresholds, ThresholdMode::from),
                    objective: objective.unwrap_or(defaults.objective),
                })
            }
            FormulationName::Olct => {
                let defaults = OlctParams::default();
                let olct = &self.olct;
                FormulationParams::Olct(OlctParams {
                    positive_class: olct.positive_class.clone(),
                    tangents: match olct.tangents {
                        Some(index) => TangentSet::from_index(usize::from(index))?,
                        None => defaults.tangents,
                    },
                    c: olct.c.clone().unwrap_or(defaults.c),
                    big_m: olct.big_m.unwrap_or(defaults.big_m),
                    epsilon: olct.epsilon.unwrap_or(defaults.epsilon),
                    univariate: olct.univariate,
                    refine: !olct.no_refine,
                })
            }
        })
    }

    /// The formulation these options describe, its parameters checked.
    pub fn formulation(&self) -> Result<AnyFormulation> {
        self.params()?.check(self.depth)
    }
}

/// Fails when an option given on the command line belongs to a group that does not apply to
/// the chosen formulation. `command` is the subcommand's definition, `matches` its matches.
pub fn refuse_options_that_do_not_apply(command: &Command, matches: &ArgMatches) -> Result<()> {
    let Ok(Some(formulation)) = matches.try_get_one::<FormulationName>("formulation") else {
        return Ok(());
    };
    for group in command.get_groups() {
        let Some((_, applies_to)) = GROUPS.iter().find(|(id, _)| group.get_id() == *id) else {
            continue;
        };
        if applies_to.contains(formulation) {
            continue;
        }
        for id in group.get_args() {
            if matches.value_source(id.as_str()) != Some(ValueSource::CommandLine) {
                continue;
            }
            let name = command
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .and_then(|arg| arg.get_long())
                .map_or_else(|| id.to_string(), |long| format!("--{long}"));
            return Err(Error::parameter(
                name,
                format!("does not apply to --formulation {formulation}"),
            ));
        }
    }
    Ok(())
}
