//! The clap definitions of every command and its options. Nothing outside `cli` sees them:
//! each command resolves its arguments into validated library settings.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::budget::Budget;
use crate::cli::constraint_args::FairSearchArgs;
use crate::cli::data_args::DataArgs;
use crate::cli::model_args::{
    parse_dp_bounds, parse_formulation, CertifyArgs, MipSolverArgs, ModelArgs, SearchModelArgs,
    SolverChoice, ThreadArgs, ThresholdArg,
};
use crate::formulation::FormulationName;
use crate::learn::search_rows::DpBounds;
use crate::solver::SolverKind;

/// Optimal classification trees by mixed-integer programming.
#[derive(Debug, Parser)]
#[command(name = "milptree", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grow a greedy CART tree (Gini impurity) and report its accuracy.
    Greedy(GreedyArgs),
    /// Predict the class of every row of a CSV file with a saved tree.
    Predict(PredictArgs),
    /// Render a saved tree as text, Graphviz DOT, JSON or a self-contained HTML page.
    Show(ShowArgs),
    /// Learn an optimal tree: build a formulation, solve it with HiGHS or CBC, report.
    Solve(SolveArgs),
    /// Write the model `solve` would build as an LP or MPS file for external solvers.
    ExportLp(ExportLpArgs),
    /// The regularisation path of the sparse search: the optimal tree for each of a range of
    /// leaf penalties, its leaves and train/test metric, as a table, tree files and a figure.
    Path(crate::cli::path::PathArgs),
    /// Choose a method's parameters by stratified k-fold cross-validation over a grid, then
    /// refit the chosen configuration on all training rows: a table, the tree and a figure.
    Tune(crate::cli::tune::TuneArgs),
    /// The Pareto front of false positives and false negatives over the trees of a depth, with
    /// one tree per point, every metric of each (F1, MCC, ...) and a plot.
    Pareto(ParetoArgs),
    /// The Rashomon set: every tree of a depth within a margin of the optimum, counted by
    /// objective, with the features it uses, the rows it disagrees on, samples and the trees in
    /// objective order.
    Rashomon(crate::cli::rashomon::RashomonArgs),
    /// Run a grid of solves (datasets x depths x formulations x solvers x warm starts x
    /// seeds), resumable, with results tables, trajectories, plots and a summary.
    Experiment(ExperimentArgs),
    /// Run one CBC solve for a parent milptree: a job on stdin, CBC's log and the result on
    /// stdout. Internal.
    #[command(name = "cbc-worker", hide = true)]
    CbcWorker,
    /// Run one HiGHS solve for a parent milptree: a job on stdin, events, HiGHS's log and the
    /// result on stdout. Internal.
    #[command(name = "highs-worker", hide = true)]
    HighsWorker,
}

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// CSV files or directories of CSV files, comma-separated (label: the last column).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "PATHS",
        conflicts_with = "grid"
    )]
    pub datasets: Vec<PathBuf>,
    /// Tree depths, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "DEPTHS",
        conflicts_with = "grid"
    )]
    pub depths: Vec<usize>,
    /// Formulations, comma-separated, or `all`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "all",
        conflicts_with = "grid"
    )]
    pub formulations: Vec<String>,
    /// Solvers (highs, cbc), comma-separated, or `all`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "all",
        conflicts_with = "grid"
    )]
    pub solvers: Vec<String>,
    /// Warm starts (none, greedy, dp, best), comma-separated, or `all`.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "none,greedy",
        conflicts_with = "grid"
    )]
    pub warm_starts: Vec<String>,
    /// The exact search's rows in the MILPs (none, objective, splits, all), comma-separated:
    /// each a run of its own, as `solve --dp-bounds` (default: all).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "all",
        conflicts_with = "grid"
    )]
    pub dp_bounds: Vec<String>,
    /// Seeds of the train/test split, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0",
        conflicts_with = "grid"
    )]
    pub seeds: Vec<u64>,
    /// Wall-clock limit of each solve, in seconds (more than 0, at most 1e9).
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = crate::budget::parse_budget,
        conflicts_with = "grid"
    )]
    pub time_limit: Option<Budget>,
    /// Solver thread counts, comma-separated (default: each solver's default). Formulation
    /// parameters other than the defaults, and solver options, are set in a grid file.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "N[,N...]",
        conflicts_with = "grid"
    )]
    pub threads: Vec<usize>,
    /// Fraction of rows held out (stratified) as the test set; 0: none.
    #[arg(
        long,
        default_value_t = 0.25,
        value_name = "F",
        conflicts_with = "grid"
    )]
    pub test_fraction: f64,
    /// The exact search's budget for the certificate of each MILP run, in seconds, or `off`.
    #[arg(
        long,
        default_value = "5",
        value_name = "SECONDS|off",
        value_parser = crate::cli::model_args::parse_certify,
        conflicts_with = "grid"
    )]
    pub certify: crate::cli::model_args::Certify,
    /// Read the grid from this TOML file instead of the flags above.
    #[arg(long, value_name = "FILE")]
    pub grid: Option<PathBuf>,
    /// The results directory (runs.csv, runs.jsonl, trajectories/, plots/, summary.md).
    #[arg(long = "out-dir", alias = "out", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print a `milptree solve` command line per configuration not yet done, instead of
    /// running them; their outputs go to DIR/jobs/.
    #[arg(long, conflicts_with = "collect")]
    pub emit_jobs: bool,
    /// The program named in emitted command lines.
    #[arg(
        long,
        default_value = "milptree",
        value_name = "PATH",
        requires = "emit_jobs"
    )]
    pub program: String,
    /// Merge the outputs of emitted jobs (DIR/jobs/*.json) into the results; needs no grid.
    #[arg(long)]
    pub collect: bool,
    /// Rewrite the summary and plots from the results without running anything.
    #[arg(long, conflicts_with_all = ["collect", "emit_jobs"])]
    pub report_only: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub searches: SearchModelArgs,
    /// The solver: a MIP solver (highs, cbc) for the chosen --formulation, dp (the exact
    /// dynamic-programming search) or sparse (the sparse search: a penalty per leaf instead of a
    /// depth); the searches take no formulation.
    #[arg(long, default_value = "highs", value_parser = parse_solver_choice)]
    pub solver: SolverChoice,
    /// Wall-clock time limit of the whole command, in seconds (fractions allowed; 0 to 1e9):
    /// reading the data, model build, warm start, solver and certificate share it, and the
    /// command ends within about 1 s of it (a model build is not stopped).
    #[arg(long, value_name = "SECONDS", value_parser = crate::budget::parse_budget)]
    pub time_limit: Option<Budget>,
    #[command(flatten)]
    pub mip: MipSolverArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub certify: CertifyArgs,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the tree to this JSON file.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Write a self-contained HTML page to this file: the tree, its provenance and
    /// certificate, and the solver's incumbent and bound against time.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExportLpArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    /// The model file: `.lp` (CPLEX LP format) or `.mps`. Next to it go `<name>.vars.json`
    /// (what each variable means) and, with a warm start, `<name>.mst` and `<name>.sol`.
    #[arg(long, short)]
    pub output: PathBuf,
    /// [oct, binoct] Write one model of the epsilon-constraint front of false positives and
    /// false negatives instead: minimise (N + 1) FN + FP subject to FP <= E, N the negative
    /// rows. The positive class is the second class, or --positive-class (needed with more
    /// than two classes, the others counted together as `not LABEL`, as `pareto` does). Its
    /// objective takes no --objective, --alpha or --leaf-penalty. No warm start is written.
    #[arg(long, value_name = "E")]
    pub max_fp: Option<u32>,
    /// [oct, binoct, flowoct] Write the exact search's rows that bound the objective from
    /// below, named `dp_bound` (`objective`) and `dp_root_splits` (`splits`), as `solve
    /// --dp-bounds` adds them: `none` (the default), `objective`, `splits` or `all`. The search
    /// runs without a time limit; the rows are checked against its tree and the warm start.
    #[arg(long, default_value = "none", value_name = "none|objective|splits|all", value_parser = parse_dp_bounds)]
    pub dp_bounds: DpBounds,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ParetoArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Depth of the trees (number of split levels).
    #[arg(long)]
    pub depth: usize,
    /// At most this many split nodes (the exact search only).
    #[arg(long, value_name = "N")]
    pub max_splits: Option<usize>,
    /// The positive class (default: the second class). Needed with more than two classes, the
    /// others being counted together as `not LABEL`.
    #[arg(long, value_name = "LABEL")]
    pub positive_class: Option<String>,
    /// Candidate thresholds: every midpoint (all, the default) or class-boundary (not OCT).
    #[arg(long, value_enum)]
    pub thresholds: Option<ThresholdArg>,
    /// dp, the bi-objective search (the default), or a MIP solver (highs, cbc) running the
    /// epsilon-constraint method on --formulation.
    #[arg(long, default_value = "dp", value_parser = parse_solver_choice)]
    pub solver: SolverChoice,
    /// With --solver highs|cbc: oct or binoct.
    #[arg(long, value_parser = parse_formulation)]
    pub formulation: Option<FormulationName>,
    /// Wall-clock limit in seconds (0 to 1e9): the points found, each with its tree, and a
    /// lower-bound front are reported.
    #[arg(long, value_name = "SECONDS", value_parser = crate::budget::parse_budget)]
    pub time_limit: Option<Budget>,
    /// [dp] Cap on the search's cache in MiB (default 2048).
    #[arg(long, value_name = "MB")]
    pub memory_limit: Option<usize>,
    /// [highs, cbc] Solver threads; [dp] threads of the search (default 1), the same front and
    /// trees for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write front.json, front.csv, the plot (front.svg, front.png) and one tree file per point
    /// of the front (trees/fp<FP>-fn<FN>.json) to this directory.
    #[arg(long = "out-dir", alias = "out", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the tree files to this directory instead of OUT_DIR/trees (kept for older
    /// command lines).
    #[arg(long, value_name = "DIR", hide = true)]
    pub trees: Option<PathBuf>,
    /// Without --out-dir: print the JSON report on stdout instead of the CSV.
    #[arg(long)]
    pub json: bool,
    /// Write a self-contained HTML page of the front to this file (each point's tree a click
    /// away); with --out-dir it is also written there as front.html.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress line and no summary.
    #[arg(long)]
    pub quiet: bool,
    /// With --group-column: the gap of the front, parity (the groups' rates of positive
    /// predictions, the default) or opportunity (their rates on the rows of the positive
    /// class).
    #[arg(long, value_enum, value_name = "KIND", help_heading = FAIR_FRONT_HEADING)]
    pub fairness: Option<FairnessArg>,
    /// With --group-column: the front of training errors against the gap between the
    /// groups (the exact search, depths 1 to 3) instead of false positives against false
    /// negatives. Forbidden features and the leaf minimum hold on every tree of that front.
    #[command(flatten, next_help_heading = FAIR_FRONT_HEADING)]
    pub fair: FairSearchArgs,
}

/// The heading of the options of `pareto`'s front of fairness in its help.
const FAIR_FRONT_HEADING: &str =
    "Front of errors against the gap between groups (with --group-column; depths 1 to 3)";

/// The gap of `pareto`'s front of fairness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FairnessArg {
    /// Statistical parity.
    Parity,
    /// Equal opportunity.
    Opportunity,
}

fn parse_solver_choice(text: &str) -> Result<SolverChoice, String> {
    match text {
        "dp" => Ok(SolverChoice::Dp),
        "sparse" => Ok(SolverChoice::Sparse),
        other => other
            .parse::<SolverKind>()
            .map(SolverChoice::Mip)
            .map_err(|_| match other.eq_ignore_ascii_case("cbc") {
                true => crate::solver::CBC_MISSING.to_string(),
                false => format!("`{other}` is not one of: highs, cbc, dp, sparse"),
            }),
    }
}

#[derive(Debug, Args)]
pub struct GreedyArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Maximum depth of the tree (number of split levels, at least 1).
    #[arg(long)]
    pub depth: usize,
    /// Minimum number of training rows in every leaf.
    #[arg(long, default_value_t = 1)]
    pub min_leaf: usize,
    /// Write the tree to this JSON file.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The tree file (JSON, as written by `--output`).
    #[arg(long)]
    pub tree: PathBuf,
    /// CSV file (`-`: standard input) with the tree's columns, matched by name: in any order,
    /// other columns passed over; the label column may be left out. Missing cells (see
    /// `--na-values`) go each split's learned missing side, or, at a split that learned none,
    /// to the child more training rows reached.
    pub data: PathBuf,
    #[command(flatten)]
    pub delimiter: crate::cli::column_args::DelimiterArgs,
    #[command(flatten)]
    pub missing: crate::cli::missing_args::NaValuesArgs,
    /// Write the predictions (CSV: row, leaf, predicted[, probabilities][, actual]) to this
    /// file. Without it they go to stdout and the metrics to stderr.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Also give each row's class probabilities: on a logistic tree (as OLCT learns),
    /// sigma(w . z + b) at the last split it passes; on any other tree, each class's frequency
    /// among the training rows of its leaf. Two classes: one `probability` column, of the
    /// positive class; more: one `probability:LABEL` column per class.
    #[arg(long)]
    pub proba: bool,
    /// Laplace smoothing of the leaf frequencies: (n_c + A) / (n + K A) over K classes.
    #[arg(long, value_name = "A", requires = "proba")]
    pub proba_smoothing: Option<f64>,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    Text,
    Dot,
    Json,
    /// One self-contained page: the tree as a diagram, its provenance, a row's path.
    Html,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The tree file (JSON).
    pub tree: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
    /// Write the rendering to this file instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// [html] Rows to pick and route on the page (the training file, or any CSV file with the
    /// tree's columns, read as `predict` reads it), embedded when they hold at most 20000
    /// values; with a weight column, every node also shows its rows' weight.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub delimiter: crate::cli::column_args::DelimiterArgs,
    #[command(flatten)]
    pub missing: crate::cli::missing_args::MissingArgs,
}
