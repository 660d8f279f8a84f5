//! The model options shared by `solve` and `export-lp`: the method (a formulation, or the exact
//! search with `solve --solver dp`), its depth and warm start, and one clap `Args` struct per
//! group of parameters, flattened into the command. Each group says which methods it applies
//! to; an option of a group given on the command line for another method is refused
//! ([`refuse_options_that_do_not_apply`]), whatever the option, so adding a method or an option
//! needs no list of flags.

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Command, ValueEnum};

use crate::data::ThresholdMode;
use crate::error::{Error, Result};
use crate::formulation::binoct::BinOctParams;
use crate::formulation::flowoct::FlowOctParams;
use crate::formulation::oct::OctParams;
use crate::formulation::olct::{OlctParams, TangentSet};
use crate::formulation::{AnyFormulation, FormulationName, FormulationParams, Objective};
use crate::learn::{DpObjective, DpParams, Method, WarmStartMode};
use crate::solver::SolverKind;

/// The `--solver` of `solve`: a MIP solver for a formulation, or the exact search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverChoice {
    Mip(SolverKind),
    Dp,
}

/// The name of the exact search, as `--solver` and the option groups spell it.
const DP: &str = "dp";

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
    /// F1 of the positive class (--solver dp only).
    F1,
    /// Matthews correlation coefficient (--solver dp only).
    Mcc,
    /// Fowlkes-Mallows index, sqrt(precision * recall) (--solver dp only).
    FowlkesMallows,
}

impl From<ObjectiveArg> for DpObjective {
    fn from(arg: ObjectiveArg) -> DpObjective {
        match arg {
            ObjectiveArg::Accuracy => DpObjective::Accuracy,
            ObjectiveArg::Balanced => DpObjective::Balanced,
            ObjectiveArg::F1 => DpObjective::F1,
            ObjectiveArg::Mcc => DpObjective::Mcc,
            ObjectiveArg::FowlkesMallows => DpObjective::FowlkesMallows,
        }
    }
}

impl ObjectiveArg {
    /// The weighted-error objective of a MILP formulation; the metrics, which are not sums over
    /// leaves, are refused.
    fn linear(self) -> Result<Objective> {
        match DpObjective::from(self) {
            DpObjective::Accuracy => Ok(Objective::Accuracy),
            DpObjective::Balanced => Ok(Objective::Balanced),
            other => Err(Error::parameter(
                "--objective",
                format!(
                    "{} is not a sum of errors over the leaves, so no MILP formulation \
                     optimises it: use --solver dp (the exact search over the front of false \
                     positives and false negatives), or milptree pareto",
                    other.metric().map_or("this metric", |m| m.name())
                ),
            )),
        }
    }
}

/// A group of options that applies to some methods only.
trait OptionGroup {
    /// The clap group id (the struct's `#[group(id)]`).
    const ID: &'static str;
    /// The methods the options apply to: formulation names, and `dp` for the exact search.
    const APPLIES_TO: &'static [&'static str];
}

/// Options of the formulations whose objective counts errors.
#[derive(Debug, Clone, Args)]
#[group(id = "error-options", multiple = true)]
pub struct ErrorArgs {
    /// [oct, binoct, flowoct, dp] What an error costs (accuracy, balanced), or, with --solver
    /// dp only, the metric of binary classification to maximise (f1, mcc, fowlkes-mallows).
    #[arg(long, value_enum)]
    pub objective: Option<ObjectiveArg>,
}

impl OptionGroup for ErrorArgs {
    const ID: &'static str = "error-options";
    const APPLIES_TO: &'static [&'static str] = &["oct", "binoct", "flowoct", DP];
}

/// The options of the methods with a cost per split and a leaf minimum.
#[derive(Debug, Clone, Args)]
#[group(id = "oct-options", multiple = true)]
pub struct OctArgs {
    /// [oct, dp] Cost of each split, in units of the baseline's (weighted) errors.
    #[arg(long)]
    pub alpha: Option<f64>,
    /// [oct, dp] Minimum number of training rows in a leaf that is used.
    #[arg(long)]
    pub min_leaf: Option<usize>,
}

impl OptionGroup for OctArgs {
    const ID: &'static str = "oct-options";
    const APPLIES_TO: &'static [&'static str] = &["oct", DP];
}

/// The options of the formulations over binary features `x_j <= t`.
#[derive(Debug, Clone, Args)]
#[group(id = "binoct-options", multiple = true)]
pub struct BinOctArgs {
    /// [binoct, flowoct, dp] Candidate thresholds (BinOCT's default: class-boundary, the
    /// paper's reduction; FlowOCT's and dp's: all, exact).
    #[arg(long, value_enum)]
    pub thresholds: Option<ThresholdArg>,
}

impl OptionGroup for BinOctArgs {
    const ID: &'static str = "binoct-options";
    const APPLIES_TO: &'static [&'static str] = &["binoct", "flowoct", DP];
}

/// The positive class of the methods that learn two classes.
#[derive(Debug, Clone, Args)]
#[group(id = "positive-class-options", multiple = true)]
pub struct PositiveClassArgs {
    /// [olct, dp] The positive class (default: the second class); required with more than two
    /// classes, the others being learned together as `not LABEL`. For dp, the class of F1, MCC
    /// and Fowlkes-Mallows.
    #[arg(long, value_name = "LABEL")]
    pub positive_class: Option<String>,
}

impl OptionGroup for PositiveClassArgs {
    const ID: &'static str = "positive-class-options";
    const APPLIES_TO: &'static [&'static str] = &["olct", DP];
}

/// OLCT's options.
#[derive(Debug, Clone, Args)]
#[group(id = "olct-options", multiple = true)]
pub struct OlctArgs {
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
    const APPLIES_TO: &'static [&'static str] = &["olct"];
}

/// The exact search's own options.
#[derive(Debug, Clone, Args)]
#[group(id = "dp-options", multiple = true)]
pub struct DpArgs {
    /// [dp] At most this many split nodes (MurTree's node limit).
    #[arg(long, value_name = "N")]
    pub max_splits: Option<usize>,
    /// [dp] Cap on the search's cache in MiB; past it, entries are evicted (default 2048).
    #[arg(long, value_name = "MB")]
    pub memory_limit: Option<usize>,
}

impl OptionGroup for DpArgs {
    const ID: &'static str = "dp-options";
    const APPLIES_TO: &'static [&'static str] = &[DP];
}

/// The options of the MIP solvers (`solve` only).
#[derive(Debug, Clone, Args)]
#[group(id = "mip-solver-options", multiple = true)]
pub struct MipSolverArgs {
    /// Relative MIP gap at which the solver may stop (default 0: optimal means optimal).
    #[arg(long, default_value_t = 0.0, value_name = "GAP")]
    pub mip_gap: f64,
    /// Solver threads (HiGHS fixes its thread pool at the first solve of a process).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stream the solver's own log to stderr.
    #[arg(long)]
    pub log: bool,
    /// Certify the result against the exact search on the same problem within this many
    /// seconds (`off`: no certificate). Not for OLCT, whose objective the search lacks.
    #[arg(long, default_value = "5", value_name = "SECONDS|off", value_parser = parse_certify)]
    pub certify: Certify,
}

/// The `--certify` budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certify(pub Option<f64>);

pub fn parse_certify(text: &str) -> std::result::Result<Certify, String> {
    if text == "off" {
        return Ok(Certify(None));
    }
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => Ok(Certify(Some(seconds))),
        _ => Err(format!(
            "`{text}` is neither a number of seconds >= 0 nor `off`"
        )),
    }
}

impl OptionGroup for MipSolverArgs {
    const ID: &'static str = "mip-solver-options";
    const APPLIES_TO: &'static [&'static str] = &["oct", "binoct", "flowoct", "olct"];
}

/// The warm start of the MILP methods.
#[derive(Debug, Clone, Args)]
#[group(id = "warm-start-options", multiple = true)]
pub struct WarmStartArgs {
    /// Warm start: greedy (the formulation's greedy tree), dp (the exact search's tree of the
    /// same problem, optimal or the best within a tenth of the time limit), best (the better of
    /// the two) or none.
    #[arg(long, default_value = "greedy", value_parser = parse_warm_start)]
    pub warm_start: WarmStartMode,
}

impl OptionGroup for WarmStartArgs {
    const ID: &'static str = "warm-start-options";
    const APPLIES_TO: &'static [&'static str] = &["oct", "binoct", "flowoct", "olct"];
}

/// Every option group and the methods it applies to.
const GROUPS: [(&str, &[&str]); 8] = [
    (PositiveClassArgs::ID, PositiveClassArgs::APPLIES_TO),
    (ErrorArgs::ID, ErrorArgs::APPLIES_TO),
    (OctArgs::ID, OctArgs::APPLIES_TO),
    (BinOctArgs::ID, BinOctArgs::APPLIES_TO),
    (OlctArgs::ID, OlctArgs::APPLIES_TO),
    (DpArgs::ID, DpArgs::APPLIES_TO),
    (MipSolverArgs::ID, MipSolverArgs::APPLIES_TO),
    (WarmStartArgs::ID, WarmStartArgs::APPLIES_TO),
];

pub(crate) fn parse_formulation(text: &str) -> std::result::Result<FormulationName, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

fn parse_warm_start(text: &str) -> std::result::Result<WarmStartMode, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// The model to build: oct (Bertsimas & Dunn), binoct (Verwer & Zhang), flowoct (Aghaei,
    /// Gomez & Vayanos) or olct (Aldinucci & Lapucci, oblique logistic splits). Not with
    /// `solve --solver dp`, which needs no model.
    #[arg(long, value_parser = parse_formulation)]
    pub formulation: Option<FormulationName>,
    /// Depth of the tree (number of split levels).
    #[arg(long)]
    pub depth: usize,
    #[command(flatten)]
    pub warm: WarmStartArgs,
    #[command(flatten)]
    pub dp: DpArgs,
    #[command(flatten)]
    pub errors: ErrorArgs,
    #[command(flatten)]
    pub oct: OctArgs,
    #[command(flatten)]
    pub binoct: BinOctArgs,
    #[command(flatten)]
    pub positive: PositiveClassArgs,
    #[command(flatten)]
    pub olct: OlctArgs,
}

impl ModelArgs {
    /// The chosen formulation; an error when none was given.
    fn formulation_name(&self) -> Result<FormulationName> {
        self.formulation.ok_or_else(|| {
            Error::parameter(
                "--formulation",
                "is needed: oct, binoct, flowoct or olct (or use --solver dp, the exact search)",
            )
        })
    }

    /// The warm start of a MILP method.
    pub fn warm_start(&self) -> WarmStartMode {
        self.warm.warm_start
    }

    /// The method these options describe with `solver`: the formulation on a MIP solver, or the
    /// exact search (which takes no formulation).
    pub fn method(&self, solver: SolverChoice) -> Result<Method> {
        match solver {
            SolverChoice::Mip(solver) => Ok(Method::Milp {
                formulation: self.formulation()?,
                solver,
            }),
            SolverChoice::Dp => {
                if let Some(formulation) = self.formulation {
                    return Err(Error::parameter(
                        "--formulation",
                        format!(
                            "{formulation} is a MILP; --solver dp is the exact search, which \
                             needs no formulation"
                        ),
                    ));
                }
                let defaults = DpParams::default();
                let params = DpParams {
                    objective: self
                        .errors
                        .objective
                        .map_or(defaults.objective, DpObjective::from),
                    alpha: self.oct.alpha.unwrap_or(defaults.alpha),
                    min_leaf: self.oct.min_leaf.unwrap_or(defaults.min_leaf),
                    thresholds: self
                        .binoct
                        .thresholds
                        .map_or(defaults.thresholds, ThresholdMode::from),
                    max_splits: self.dp.max_splits,
                    memory_limit: self.dp.memory_limit.unwrap_or(defaults.memory_limit),
                    positive_class: self.positive.positive_class.clone(),
                };
                Ok(Method::Dp(params.check(self.depth)?))
            }
        }
    }

    /// The parameters these options give the chosen formulation (defaults for the others).
    pub fn params(&self) -> Result<FormulationParams> {
        let objective = self
            .errors
            .objective
            .map(ObjectiveArg::linear)
            .transpose()?;
        Ok(match self.formulation_name()? {
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
                    positive_class: self.positive.positive_class.clone(),
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
/// the chosen method (the formulation, or `dp` with `--solver dp`). `command` is the
/// subcommand's definition, `matches` its matches.
pub fn refuse_options_that_do_not_apply(command: &Command, matches: &ArgMatches) -> Result<()> {
    let solver = matches.try_get_one::<SolverChoice>("solver").ok().flatten();
    let formulation = matches
        .try_get_one::<FormulationName>("formulation")
        .ok()
        .flatten();
    let (method, chosen) = match (solver, formulation) {
        (Some(SolverChoice::Dp), _) => (DP.to_string(), "--solver dp".to_string()),
        (_, Some(formulation)) => (
            formulation.to_string(),
            format!("--formulation {formulation}"),
        ),
        _ => return Ok(()),
    };
    for group in command.get_groups() {
        let Some((_, applies_to)) = GROUPS.iter().find(|(id, _)| group.get_id() == *id) else {
            continue;
        };
        if applies_to.contains(&method.as_str()) {
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
                format!("does not apply to {chosen}"),
            ));
        }
    }
    Ok(())
}
