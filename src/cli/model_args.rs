//! The model options shared by `solve` and `export-lp`: the method (a formulation, the exact
//! search with `solve --solver dp`, or the sparse search with `solve --solver sparse`), its
//! depth and warm start, and one clap `Args` struct per
//! group of parameters, flattened into the command. Each group names the capability it needs,
//! and each method declares its capabilities ([`crate::learn::capability`]); an option of a group
//! given on the command line for a method without that capability is refused
//! ([`refuse_options_that_do_not_apply`]), whatever the option, so adding a method or an option
//! needs no list of flags.

use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Command, ValueEnum};

use crate::cli::constraint_args::{ConstraintArgs, CONSTRAINT_OPTIONS};
use crate::constraints::kinds::ConstraintTaker;
use crate::data::ThresholdMode;
use crate::error::{Error, Result};
use crate::formulation::cuts::Cuts;
use crate::formulation::{AnyFormulation, FormulationName, FormulationParams};
use crate::learn::capability::{self, Capability, MethodKind};
use crate::learn::objective::ObjectiveName;
use crate::learn::search_rows::DpBounds;
use crate::learn::settings::{Depth, Settings};
use crate::learn::sparse_search::{ClassWeight, SparseObjective};
use crate::learn::{Method, WarmStartMode};
use crate::solver::SolverKind;

/// The `--solver` of `solve`: a MIP solver for a formulation, the exact search, or the sparse
/// search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverChoice {
    Mip(SolverKind),
    Dp,
    Sparse,
}

/// The name of the exact search, as `--solver` and the option groups spell it.
const DP: &str = "dp";
/// The name of the sparse search, as `--solver` and the option groups spell it.
const SPARSE: &str = "sparse";

/// `--depth`: a number of levels, or `none` (the sparse search only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthArg {
    Levels(usize),
    None,
}

fn parse_depth(text: &str) -> std::result::Result<DepthArg, String> {
    if text == "none" {
        return Ok(DepthArg::None);
    }
    text.parse()
        .map(DepthArg::Levels)
        .map_err(|_| format!("`{text}` is neither a number of levels nor `none`"))
}

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

/// The methods that take `objective` when not every method counting errors does, as the
/// help texts tag them (`[dp, sparse]`); empty when all do. Read from the library's table.
fn objective_tag(objective: ObjectiveName) -> String {
    let takers = [
        (ConstraintTaker::Milp, "oct, binoct, flowoct"),
        (ConstraintTaker::Dp, "dp"),
        (ConstraintTaker::Sparse, "sparse"),
    ];
    if takers.iter().all(|&(taker, _)| objective.taken_by(taker)) {
        return String::new();
    }
    let names: Vec<&str> = takers
        .iter()
        .filter(|&&(taker, _)| objective.taken_by(taker))
        .map(|&(_, name)| name)
        .collect();
    format!("[{}] ", names.join(", "))
}

/// The values of `--objective` among `allowed`, each with its tag and description, parsed into
/// the library's [`ObjectiveName`]: the one table of objectives, no copy of it here.
pub fn objective_values(
    allowed: &[ObjectiveName],
) -> impl clap::builder::TypedValueParser<Value = ObjectiveName> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values: Vec<PossibleValue> = allowed
        .iter()
        .map(|&objective| {
            let mut help = format!("{}{}", objective_tag(objective), objective.description());
            if let Some(setting) = objective.setting() {
                help.push_str(&format!(" ({})", setting.flag()));
            }
            PossibleValue::new(objective.name()).help(help)
        })
        .collect();
    PossibleValuesParser::new(values).try_map(|text: String| {
        ObjectiveName::parse(&text).ok_or_else(|| format!("no objective is named {text}"))
    })
}

/// `--objective` (`arg`) of a command whose methods take only the values `allowed`, with that
/// command's `help`, so that its help lists what applies and clap refuses the rest.
pub fn objective_of_command(
    arg: clap::Arg,
    allowed: &[ObjectiveName],
    help: &'static str,
) -> clap::Arg {
    arg.help(help).value_parser(objective_values(allowed))
}

/// A group of options that applies to the methods with one capability only.
trait OptionGroup {
    /// The clap group id (the struct's `#[group(id)]`).
    const ID: &'static str;
    /// What a method must take for the options to apply (see [`MethodKind::capabilities`]).
    const NEEDS: Capability;
}

/// Options of the formulations whose objective counts errors.
#[derive(Debug, Clone, Args)]
#[group(id = "error-options", multiple = true)]
pub struct ErrorArgs {
    /// [oct, binoct, flowoct, dp, sparse] What an error costs, or a metric of binary
    /// classification; each value is tagged with the methods that take it (untagged: all of
    /// them).
    #[arg(long, value_parser = objective_values(&ObjectiveName::ALL))]
    pub objective: Option<ObjectiveName>,
}

impl OptionGroup for ErrorArgs {
    const ID: &'static str = "error-options";
    const NEEDS: Capability = Capability::ErrorCost;
}

/// The penalty per leaf of the sparse search, and of the MILPs that price leaves the same way.
#[derive(Debug, Clone, Args)]
#[group(id = "leaf-penalty-options", multiple = true)]
pub struct LeafPenaltyArgs {
    /// [sparse, oct, binoct] Penalty per leaf, in units of the loss (for accuracy, a fraction
    /// of the training rows): the objective is loss + L * leaves (sparse default 0.01).
    #[arg(long, value_name = "L")]
    pub leaf_penalty: Option<f64>,
}

impl OptionGroup for LeafPenaltyArgs {
    const ID: &'static str = "leaf-penalty-options";
    const NEEDS: Capability = Capability::LeafPenalty;
}

/// The sparse search's own options.
#[derive(Debug, Clone, Args)]
#[group(id = "sparse-options", multiple = true)]
pub struct SparseArgs {
    /// [sparse] With --objective pauc: the largest false positive rate of the partial AUC
    /// (default 0.1).
    #[arg(long, value_name = "T")]
    pub pauc_theta: Option<f64>,
}

impl OptionGroup for SparseArgs {
    const ID: &'static str = "sparse-options";
    const NEEDS: Capability = Capability::SparseLoss;
}

impl SparseArgs {
    /// The largest false positive rate of the partial AUC: `--pauc-theta`, which applies to
    /// `--objective pauc` only, or the default.
    pub(crate) fn pauc_theta(&self, objective: SparseObjective) -> Result<f64> {
        match self.pauc_theta {
            Some(_) if objective != SparseObjective::Pauc => Err(Error::parameter(
                "--pauc-theta",
                "applies to --objective pauc only",
            )),
            Some(theta) => Ok(theta),
            None => Ok(crate::learn::SparseParams::default().pauc_theta),
        }
    }
}

fn parse_class_weight(text: &str) -> std::result::Result<ClassWeight, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

/// The user's cost of an error per class, taken by every method that counts errors.
#[derive(Debug, Clone, Args)]
#[group(id = "class-weight-options", multiple = true)]
pub struct ClassWeightArgs {
    /// The cost of an error on class LABEL, a factor on what --objective makes it cost
    /// (repeatable, or a comma list `a=2,b=1`; classes not listed cost 1). The formulations and
    /// dp: with accuracy and balanced. sparse: with accuracy and weighted.
    #[arg(
        long,
        value_name = "LABEL=W",
        value_delimiter = ',',
        value_parser = parse_class_weight
    )]
    pub class_weight: Vec<ClassWeight>,
}

impl OptionGroup for ClassWeightArgs {
    const ID: &'static str = "class-weight-options";
    const NEEDS: Capability = Capability::ClassWeights;
}

/// The positive class of the two-class objectives.
#[derive(Debug, Clone, Args)]
#[group(id = "positive-class-options", multiple = true)]
pub struct PositiveClassArgs {
    /// [olct, dp, sparse, export-lp --max-fp] The positive class (default: the second class).
    /// OLCT: the +1 class, required with more than two classes, the others being learned
    /// together as `not LABEL`. dp: the class of f1, mcc and fowlkes-mallows (on more than two
    /// classes, the others are learned together). Sparse f1, auc, pauc: the class F1 and the
    /// ROC count as positive. --max-fp: the class whose errors are false negatives.
    #[arg(long, value_name = "LABEL")]
    pub positive_class: Option<String>,
}

impl OptionGroup for PositiveClassArgs {
    const ID: &'static str = "positive-class-options";
    const NEEDS: Capability = Capability::PositiveClass;
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
    const NEEDS: Capability = Capability::SplitCostAndLeafMinimum;
}

/// The strengthenings of a model built up front.
#[derive(Debug, Clone, Args)]
#[group(id = "cuts-options", multiple = true)]
pub struct CutsArgs {
    /// [oct] Strengthenings added to the model up front: none (the model as published) or
    /// equivalent-points (rows identical on every feature share their leaf-assignment
    /// variables).
    #[arg(long, value_parser = parse_cuts)]
    pub cuts: Option<Cuts>,
}

impl OptionGroup for CutsArgs {
    const ID: &'static str = "cuts-options";
    const NEEDS: Capability = Capability::Cuts;
}

fn parse_cuts(text: &str) -> std::result::Result<Cuts, String> {
    match text {
        "none" => Ok(Cuts::None),
        "equivalent-points" => Ok(Cuts::EquivalentPoints),
        other => Err(format!(
            "`{other}` is not a choice of cuts: none or equivalent-points"
        )),
    }
}

/// The options of the formulations over binary features `x_j <= t`.
#[derive(Debug, Clone, Args)]
#[group(id = "binoct-options", multiple = true)]
pub struct BinOctArgs {
    /// [binoct, flowoct, dp, sparse] Candidate thresholds (BinOCT's default: class-boundary,
    /// the paper's reduction; FlowOCT's, dp's and sparse's: all, exact).
    #[arg(long, value_enum)]
    pub thresholds: Option<ThresholdArg>,
}

impl OptionGroup for BinOctArgs {
    const ID: &'static str = "binoct-options";
    const NEEDS: Capability = Capability::Thresholds;
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
    const NEEDS: Capability = Capability::LogisticSplits;
}

/// The exact search's own options.
#[derive(Debug, Clone, Args)]
#[group(id = "dp-options", multiple = true)]
pub struct DpArgs {
    /// [dp] At most this many split nodes (MurTree's node limit).
    #[arg(long, value_name = "N")]
    pub max_splits: Option<usize>,
}

impl OptionGroup for DpArgs {
    const ID: &'static str = "dp-options";
    const NEEDS: Capability = Capability::SplitLimit;
}

/// The options of the searches (no MILP).
#[derive(Debug, Clone, Args)]
#[group(id = "search-options", multiple = true)]
pub struct SearchArgs {
    /// [dp, sparse] Cap on the search's cache in MiB; past it, entries are evicted (default
    /// 2048).
    #[arg(long, value_name = "MB")]
    pub memory_limit: Option<usize>,
}

impl OptionGroup for SearchArgs {
    const ID: &'static str = "search-options";
    const NEEDS: Capability = Capability::SearchCache;
}

/// The options of the MIP solvers (`solve` only).
#[derive(Debug, Clone, Args)]
#[group(id = "mip-solver-options", multiple = true)]
pub struct MipSolverArgs {
    /// Relative MIP gap at which the solver may stop (default 0: optimal means optimal).
    #[arg(long, value_name = "GAP")]
    pub mip_gap: Option<f64>,
    /// A parameter of the solver itself, set after milptree's own (repeatable; later ones win):
    /// a HiGHS option (`mip_heuristic_effort=0.1`) or a CBC parameter (`cutsOnOff=off`).
    #[arg(long = "solver-option", value_name = "NAME=VALUE", value_parser = parse_solver_option)]
    pub solver_options: Vec<(String, String)>,
    /// Stream the solver's own log to stderr.
    #[arg(long)]
    pub log: bool,
}

/// Threads: the MIP solver's, or the exact search's.
#[derive(Debug, Clone, Args)]
#[group(id = "thread-options", multiple = true)]
pub struct ThreadArgs {
    /// Threads of the MIP solver (HiGHS fixes its thread pool at the first solve of a process;
    /// default: the solver's) or of the exact and sparse searches (dp, sparse; default 1, the
    /// same tree with any number).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

impl OptionGroup for ThreadArgs {
    const ID: &'static str = "thread-options";
    const NEEDS: Capability = Capability::Threads;
}

/// The certificate of the MILPs the exact search has the objective of.
#[derive(Debug, Clone, Args)]
#[group(id = "certify-options", multiple = true)]
pub struct CertifyArgs {
    /// [oct, binoct, flowoct] Certify the result against the exact search on the same problem
    /// within this many seconds (0 to 1e9, default 5; `off`: no certificate). Not for OLCT,
    /// whose objective the search lacks.
    #[arg(long, value_name = "SECONDS|off", value_parser = parse_certify)]
    pub certify: Option<Certify>,
    /// [oct, binoct, flowoct] Rows from the exact search that bound the objective from below:
    /// `objective` (at least the search's lower bound), `splits` (at least each root split's
    /// bound, when the root takes it), `all` (the default) or `none`. Valid under every side
    /// constraint; the search's time counts against --time-limit.
    #[arg(long, value_name = "none|objective|splits|all", value_parser = parse_dp_bounds)]
    pub dp_bounds: Option<DpBounds>,
    /// [oct, binoct, flowoct] Rounds of the loop that solves the LP relaxation and adds the
    /// exact search's rows over the paths below the root that its point violates, before the
    /// MILP is solved (within a quarter of the solver's time); 0 (the default): none. Needs the
    /// split rows (`--dp-bounds splits|all`) and a depth of 2 or more.
    #[arg(long, value_name = "N")]
    pub separation_rounds: Option<usize>,
}

/// `--dp-bounds`, by name.
pub fn parse_dp_bounds(text: &str) -> std::result::Result<DpBounds, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

impl OptionGroup for CertifyArgs {
    const ID: &'static str = "certify-options";
    const NEEDS: Capability = Capability::Certificate;
}

/// One `--solver-option NAME=VALUE`.
pub fn parse_solver_option(text: &str) -> std::result::Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// The `--certify` budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certify(pub Option<Duration>);

pub fn parse_certify(text: &str) -> std::result::Result<Certify, String> {
    if text == "off" {
        return Ok(Certify(None));
    }
    crate::budget::parse_duration(text)
        .map(|budget| Certify(Some(budget)))
        .map_err(|reason| format!("{reason}, nor `off`"))
}

impl OptionGroup for MipSolverArgs {
    const ID: &'static str = "mip-solver-options";
    const NEEDS: Capability = Capability::MipSolver;
}

/// The warm start of the MILP methods.
#[derive(Debug, Clone, Args)]
#[group(id = "warm-start-options", multiple = true)]
pub struct WarmStartArgs {
    /// Warm start: best (the default: the better of the two below that meets the side
    /// constraints), greedy (the formulation's greedy tree), dp (the exact search's tree of the
    /// same problem, optimal or the best within a tenth of the time limit) or none.
    #[arg(long, value_parser = parse_warm_start)]
    pub warm_start: Option<WarmStartMode>,
}

impl WarmStartArgs {
    /// The warm start given, or the default (`best`).
    pub fn mode(&self) -> WarmStartMode {
        self.warm_start.unwrap_or(WarmStartMode::Best)
    }
}

impl OptionGroup for WarmStartArgs {
    const ID: &'static str = "warm-start-options";
    const NEEDS: Capability = Capability::WarmStart;
}

/// Every option group and the capability it needs.
const GROUPS: [(&str, Capability); 16] = [
    (ConstraintArgs::ID, ConstraintArgs::NEEDS),
    (ErrorArgs::ID, ErrorArgs::NEEDS),
    (ClassWeightArgs::ID, ClassWeightArgs::NEEDS),
    (LeafPenaltyArgs::ID, LeafPenaltyArgs::NEEDS),
    (SparseArgs::ID, SparseArgs::NEEDS),
    (PositiveClassArgs::ID, PositiveClassArgs::NEEDS),
    (SearchArgs::ID, SearchArgs::NEEDS),
    (OctArgs::ID, OctArgs::NEEDS),
    (CutsArgs::ID, CutsArgs::NEEDS),
    (BinOctArgs::ID, BinOctArgs::NEEDS),
    (OlctArgs::ID, OlctArgs::NEEDS),
    (DpArgs::ID, DpArgs::NEEDS),
    (MipSolverArgs::ID, MipSolverArgs::NEEDS),
    (ThreadArgs::ID, ThreadArgs::NEEDS),
    (CertifyArgs::ID, CertifyArgs::NEEDS),
    (WarmStartArgs::ID, WarmStartArgs::NEEDS),
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
    /// Depth of the tree (number of split levels). Required but for the sparse search, where
    /// it is an optional cap (`none`, the default: up to 20 levels).
    #[arg(long, value_parser = parse_depth, value_name = "D")]
    pub depth: Option<DepthArg>,
    #[command(flatten)]
    pub warm: WarmStartArgs,
    #[command(flatten)]
    pub errors: ErrorArgs,
    #[command(flatten)]
    pub leaf: LeafPenaltyArgs,
    #[command(flatten)]
    pub class_weights: ClassWeightArgs,
    #[command(flatten)]
    pub positive: PositiveClassArgs,
    #[command(flatten)]
    pub oct: OctArgs,
    #[command(flatten)]
    pub cuts: CutsArgs,
    #[command(flatten)]
    pub binoct: BinOctArgs,
    #[command(flatten)]
    pub olct: OlctArgs,
    #[command(flatten)]
    pub constraints: ConstraintArgs,
}

impl OptionGroup for ConstraintArgs {
    const ID: &'static str = CONSTRAINT_OPTIONS;
    const NEEDS: Capability = Capability::SideConstraints;
}

/// The options of the searches alone (`solve --solver dp|sparse`), which `export-lp`, whose
/// models are MILPs, does not take.
#[derive(Debug, Clone, Args)]
pub struct SearchModelArgs {
    #[command(flatten)]
    pub dp: DpArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub sparse: SparseArgs,
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
        self.warm.mode()
    }

    /// The method `solver` chooses with these options: the formulation on a MIP solver, or one
    /// of the searches (which take no formulation).
    fn method_kind(&self, solver: SolverChoice) -> Result<MethodKind> {
        let no_formulation = |name: &str, what: &str| match self.formulation {
            Some(formulation) => Err(Error::parameter(
                "--formulation",
                format!(
                    "{formulation} is a MILP; --solver {name} is {what}, which needs no formulation"
                ),
            )),
            None => Ok(()),
        };
        match solver {
            SolverChoice::Mip(_) => Ok(MethodKind::formulation(self.formulation_name()?)),
            SolverChoice::Dp => no_formulation(DP, "the exact search").map(|()| MethodKind::Dp),
            SolverChoice::Sparse => {
                no_formulation(SPARSE, "the sparse search").map(|()| MethodKind::Sparse)
            }
        }
    }

    /// The library's settings of these options (and the searches' own, `searches`) for the
    /// method `solver` chooses, the side constraints aside ([`ConstraintArgs::add_to`]).
    pub fn settings(
        &self,
        solver: SolverChoice,
        searches: Option<&SearchModelArgs>,
    ) -> Result<Settings> {
        let mut settings = Settings::new(self.method_kind(solver)?);
        if let SolverChoice::Mip(kind) = solver {
            settings.solver = Some(kind);
        }
        settings.depth = self.depth.map(|depth| match depth {
            DepthArg::Levels(levels) => Depth::Levels(levels),
            DepthArg::None => Depth::Unbounded,
        });
        settings.warm_start = self.warm.warm_start;
        settings.objective = self.errors.objective;
        settings.leaf_penalty = self.leaf.leaf_penalty;
        settings
            .class_weight
            .clone_from(&self.class_weights.class_weight);
        settings
            .positive_class
            .clone_from(&self.positive.positive_class);
        settings.alpha = self.oct.alpha;
        settings.min_leaf = self.oct.min_leaf;
        settings.cuts = self.cuts.cuts;
        settings.thresholds = self.binoct.thresholds.map(ThresholdMode::from);
        let olct = &self.olct;
        settings.tangents = olct.tangents;
        settings.c.clone_from(&olct.c);
        settings.big_m = olct.big_m;
        settings.epsilon = olct.epsilon;
        settings.univariate = olct.univariate;
        settings.no_refine = olct.no_refine;
        if let Some(searches) = searches {
            settings.max_splits = searches.dp.max_splits;
            settings.memory_limit = searches.search.memory_limit;
            settings.pauc_theta = searches.sparse.pauc_theta;
        }
        Ok(settings)
    }

    /// The method these options and the searches' own (`searches`) describe with `solver`,
    /// checked by the library (an option that does not apply to it is refused).
    pub fn method(&self, solver: SolverChoice, searches: &SearchModelArgs) -> Result<Method> {
        self.settings(solver, Some(searches))?.method()
    }

    /// The parameters these options give the chosen formulation (defaults for the others).
    pub fn params(&self) -> Result<FormulationParams> {
        let name = self.formulation_name()?;
        self.settings(SolverChoice::Mip(SolverKind::Highs), None)?
            .formulation_params(name)
    }

    /// The formulation these options describe, its parameters checked.
    pub fn formulation(&self) -> Result<AnyFormulation> {
        let name = self.formulation_name()?;
        self.settings(SolverChoice::Mip(SolverKind::Highs), None)?
            .formulation(name)
    }
}

/// Fails when an option given on the command line belongs to a group that does not apply to
/// the chosen method (the formulation, or `dp` with `--solver dp`; with `export-lp --max-fp`,
/// the groups of `max-fp` apply too). `command` is the subcommand's definition, `matches` its
/// matches.
pub fn refuse_options_that_do_not_apply(command: &Command, matches: &ArgMatches) -> Result<()> {
    let solver = matches.try_get_one::<SolverChoice>("solver").ok().flatten();
    let formulation = matches
        .try_get_one::<FormulationName>("formulation")
        .ok()
        .flatten();
    let method = match (solver, formulation) {
        (Some(SolverChoice::Dp), _) => MethodKind::Dp,
        (Some(SolverChoice::Sparse), _) => MethodKind::Sparse,
        (_, Some(formulation)) => MethodKind::formulation(*formulation),
        _ => return Ok(()),
    };
    let max_fp = matches
        .try_get_one::<u32>("max_fp")
        .ok()
        .flatten()
        .is_some();
    for group in command.get_groups() {
        let Some((_, needs)) = GROUPS.iter().find(|(id, _)| group.get_id() == *id) else {
            continue;
        };
        for id in group.get_args() {
            if matches.value_source(id.as_str()) != Some(ValueSource::CommandLine) {
                continue;
            }
            let name = command
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .and_then(|arg| arg.get_long())
                .map_or_else(|| id.to_string(), |long| format!("--{long}"));
            capability::check(method, max_fp, *needs, &name)?;
        }
    }
    Ok(())
}
