//! `milptree tune`: choose a method's parameters by stratified k-fold cross-validation over a
//! grid ([`crate::tune`]), then refit the chosen configuration on all the training rows and,
//! with `--test-fraction`, score it once on the held-out rows. Each configuration becomes the
//! very method `solve` would build from the same options, so the refitted tree is `solve`'s.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use serde_json::json;

use crate::budget::Budget;
use crate::cli::data_args::DataArgs;
use crate::cli::interrupt::interrupt_flag;
use crate::cli::model_args::{
    BinOctArgs, ErrorArgs, PositiveClassArgs, SolverChoice, WarmStartArgs,
};
use crate::cli::output::{print_json, write_file};
use crate::cli::pages::{tune_page, write_page};
use crate::cli::solve::relabel_rule;
use crate::data::ThresholdMode;
use crate::data::{Dataset, Sets};
use crate::error::{Error, Result};
use crate::export::html::Rows;
use crate::learn::capability::MethodKind;
use crate::learn::settings::{Depth, Settings};
use crate::learn::{self, provenance, DataBlock, LearnOptions, Method};
use crate::setting::Reason;
use crate::solver::Progress;
use crate::solver::SolverKind;
use crate::tree::Tree;
use crate::tune::{
    self, configurations, parse_values, Config, ConfigRow, Param, Scores, Store, TuneMetric,
    TuneOptions, TuneResult,
};
use crate::{noteln, outln};

mod figure;

pub(crate) use figure::depth_only;

#[derive(Debug, Args)]
pub struct TuneArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// The method: dp, sparse, oct, binoct, flowoct or olct.
    #[arg(long, value_name = "METHOD")]
    pub method: String,
    /// [oct, binoct, flowoct, olct] The MIP solver: highs (the default) or cbc.
    #[arg(long, value_parser = parse_solver)]
    pub solver: Option<SolverKind>,
    /// Depths: `LOW..HIGH` or a list (`2,3,4`); the sparse search's cap.
    #[arg(long, value_name = "D..D|D,D,...")]
    pub depth: Option<String>,
    /// [dp, oct] Costs per split, a list.
    #[arg(long, value_name = "A,A,...")]
    pub alpha: Option<String>,
    /// [sparse, oct, binoct] Penalties per leaf, a list.
    #[arg(long, value_name = "L,L,...")]
    pub leaf_penalty: Option<String>,
    /// [olct] Weights of the log-loss (each applied to every level), a list.
    #[arg(long, value_name = "C,C,...")]
    pub c: Option<String>,
    /// [dp, oct] Leaf minima: `LOW..HIGH` or a list.
    #[arg(long, value_name = "N..N|N,N,...")]
    pub min_leaf: Option<String>,
    /// [dp] Split limits: `LOW..HIGH` or a list.
    #[arg(long, value_name = "N..N|N,N,...")]
    pub max_splits: Option<String>,
    #[command(flatten)]
    pub errors: ErrorArgs,
    #[command(flatten)]
    pub thresholds: BinOctArgs,
    #[command(flatten)]
    pub positive: PositiveClassArgs,
    #[command(flatten)]
    pub warm: WarmStartArgs,
    /// Number of folds (stratified by class).
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub folds: usize,
    /// Number of repeats, each with its own folds (seeds S, S+1, ...); at most 1000.
    #[arg(long, default_value_t = 1, value_name = "R")]
    pub repeats: usize,
    /// The validation metric maximised: accuracy, balanced, f1, mcc or auc (the last three on
    /// two classes).
    #[arg(long, default_value = "accuracy", value_parser = parse_metric)]
    pub metric: TuneMetric,
    /// Choose the configuration with the fewest mean leaves whose mean is within one standard
    /// error of the best.
    #[arg(long)]
    pub one_se: bool,
    /// Wall-clock limit of each fit, in seconds: a fit stopped there counts with its tree.
    #[arg(long, value_name = "SECONDS", value_parser = crate::budget::parse_budget)]
    pub time_limit: Option<Budget>,
    /// Fits run at once (folds and configurations in parallel), each with one solver thread: at
    /// most the machine's hardware threads.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// [sparse] Fit every leaf penalty alone instead of one path per fold.
    #[arg(long)]
    pub no_share: bool,
    /// Print one JSON document on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write the table as CSV to this file.
    #[arg(long, short, alias = "csv", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The run directory: settings, every fit and its tree, the folds, the table, the refitted
    /// tree, the figure and the page (tune.html). A run resumes from what the directory holds.
    #[arg(long = "out-dir", alias = "out", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write a self-contained HTML page to this file: the validation curve with its error
    /// bars, the table, and the chosen configuration's refitted tree.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress notes on stderr.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_solver(text: &str) -> std::result::Result<SolverKind, String> {
    text.parse::<SolverKind>()
        .map_err(|_| match text.eq_ignore_ascii_case("cbc") {
            true => crate::solver::CBC_MISSING.to_string(),
            false => format!("`{text}` is not one of: highs, cbc"),
        })
}

fn parse_metric(text: &str) -> std::result::Result<TuneMetric, String> {
    text.parse().map_err(|e: Error| e.to_string())
}

/// The methods `tune` knows, as `--method` spells them.
const METHODS: [&str; 6] = ["dp", "sparse", "oct", "binoct", "flowoct", "olct"];

/// The most repeats of a run (each holds a fold for every training row).
pub const MAX_REPEATS: usize = 1000;

/// A setting the capability table refuses for `method`, as `tune` names the method
/// (`--method dp`); any other error as it is.
fn refusal_by_method(method: &str, error: Error) -> Error {
    match error {
        Error::Setting(refused) if matches!(refused.reason, Reason::DoesNotApply { .. }) => {
            Error::parameter(
                refused.setting.flag(),
                format!("does not apply to --method {method}"),
            )
        }
        other => other,
    }
}

impl TuneArgs {
    /// The solver choice `solve` would take for the method.
    fn solver_choice(&self) -> SolverChoice {
        match self.method.as_str() {
            "dp" => SolverChoice::Dp,
            "sparse" => SolverChoice::Sparse,
            _ => SolverChoice::Mip(self.solver.unwrap_or(SolverKind::Highs)),
        }
    }

    /// The settings `solve` would be given for `config`.
    fn method_settings(&self, config: &Config) -> Result<Settings> {
        let kind = MethodKind::of_name(&self.method).ok_or_else(|| {
            Error::parameter(
                "--method",
                format!("`{}` is not one of: {}", self.method, METHODS.join(", ")),
            )
        })?;
        let mut settings = Settings::new(kind);
        settings.solver = match self.solver_choice() {
            SolverChoice::Mip(solver) => Some(solver),
            // Given for a search, for the capability table to refuse.
            _ => self.solver,
        };
        settings.depth = config.depth.map(Depth::Levels);
        settings.warm_start = self.warm.warm_start;
        settings.objective = self.errors.objective;
        settings.thresholds = self.thresholds.thresholds.map(ThresholdMode::from);
        settings
            .positive_class
            .clone_from(&self.positive.positive_class);
        settings.alpha = config.alpha;
        settings.min_leaf = config.min_leaf;
        settings.leaf_penalty = config.leaf_penalty;
        settings.max_splits = config.max_splits;
        settings.c = config.c.map(|c| vec![c]);
        Ok(settings)
    }

    /// The grid's configurations, each with its method.
    fn candidates(&self) -> Result<Vec<(Config, Method)>> {
        if !METHODS.contains(&self.method.as_str()) {
            return Err(Error::parameter(
                "--method",
                format!("`{}` is not one of: {}", self.method, METHODS.join(", ")),
            ));
        }
        let given = [
            (Param::Depth, &self.depth),
            (Param::Alpha, &self.alpha),
            (Param::LeafPenalty, &self.leaf_penalty),
            (Param::C, &self.c),
            (Param::MinLeaf, &self.min_leaf),
            (Param::MaxSplits, &self.max_splits),
        ];
        let mut values = Vec::new();
        for (param, text) in given {
            if let Some(text) = text {
                values.push((param, parse_values(param, text)?));
            }
        }
        configurations(&self.method, &values)?
            .into_iter()
            .map(|config| {
                let (method, _) = self
                    .method_settings(&config)?
                    .build()
                    .map_err(|error| refusal_by_method(&self.method, error))?;
                Ok((config, method))
            })
            .collect()
    }

    /// What the fits depend on: a run directory holds the fits of these settings only. The data
    /// enters by what the fits see of it, whatever option or file shaped it: the training
    /// rows' fingerprint (values, labels, weights) and their schema (the columns read, their
    /// kinds, the features).
    fn settings(&self, train: &Dataset) -> serde_json::Value {
        json!({
            "rows": train.fingerprint(),
            "schema": train.schema(),
            "test_fraction": self.data.test_fraction,
            "seed": self.data.seed,
            "folds": self.folds,
            "repeats": self.repeats,
            "method": self.method,
            "solver": match self.solver_choice() {
                SolverChoice::Mip(solver) => Some(solver.name()),
                _ => None,
            },
            "objective": self.errors.objective.map(|o| format!("{o:?}")),
            "thresholds": self.thresholds.thresholds.map(|t| format!("{t:?}")),
            "positive_class": self.positive.positive_class,
            "warm_start": self.warm.mode().to_string(),
            "time_limit": self.time_limit.as_ref().and_then(Budget::limit_seconds),
            "share": !self.no_share,
        })
    }
}

/// The refitted tree's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Refit {
    pub config: String,
    pub termination: String,
    pub seconds: f64,
    pub leaves: usize,
    pub depth: usize,
    pub train: Scores,
    pub test: Option<Scores>,
    pub tree_file: Option<String>,
}

/// The report of `milptree tune`.
#[derive(Debug, Clone, Serialize)]
pub struct TuneDocument {
    pub command: String,
    pub data: DataBlock,
    pub method: String,
    pub metric: TuneMetric,
    pub folds: usize,
    pub repeats: usize,
    pub one_se: bool,
    pub rows: Vec<ConfigRow>,
    pub best: Option<String>,
    pub chosen: Option<String>,
    pub chosen_config: Option<Config>,
    pub refit: Option<Refit>,
    pub fits_run: usize,
    pub fits_reused: usize,
    pub interrupted: bool,
    pub seconds: f64,
    pub figures: Vec<String>,
}

/// Refuses, before anything is read or fitted, the counts no run needs: more repeats than
/// [`MAX_REPEATS`], more fits at once than the machine's hardware threads, a time limit that is
/// not a number of seconds.
fn refuse_absurd_counts(args: &TuneArgs) -> Result<()> {
    if !(1..=MAX_REPEATS).contains(&args.repeats) {
        return Err(Error::parameter(
            "--repeats",
            format!("{} repeats: from 1 to {MAX_REPEATS}", args.repeats),
        ));
    }
    let machine = crate::solver::machine_threads();
    if !(1..=machine).contains(&args.threads) {
        return Err(Error::parameter(
            "--threads",
            format!(
                "{} fits at once: from 1 to this machine's {machine} hardware threads (each fit \
                 takes one)",
                args.threads
            ),
        ));
    }
    if let Some(limit) = args
        .time_limit
        .as_ref()
        .and_then(Budget::limit_seconds)
        .filter(|t| !(t.is_finite() && *t > 0.0))
    {
        return Err(Error::parameter(
            "--time-limit",
            format!("{limit} is not a positive number of seconds"),
        ));
    }
    Ok(())
}

pub fn run(args: TuneArgs) -> Result<()> {
    refuse_absurd_counts(&args)?;
    let candidates = args.candidates()?;
    let Some((_, first)) = candidates.first() else {
        return Err(Error::Internal("a grid with no configuration".into()));
    };
    args.data.refuse_weights("tune")?;
    let original = args.data.load()?;
    let data = original.clone().map(|set| first.prepare(set))?;
    // What every fit would refuse of the data, refused once before the folds.
    first.refuse_missing(&data.train)?;
    let relabel = relabel_rule(&original, &data);
    if args.metric.needs_two_classes() && data.train.n_classes() != 2 {
        return Err(Error::parameter(
            "--metric",
            format!(
                "{} needs two classes; the training data has {}",
                args.metric,
                data.train.n_classes()
            ),
        ));
    }
    let options = tune_options(&args);
    let store = args
        .out
        .as_ref()
        .map(|dir| Store::open(dir, &args.settings(&original.train)))
        .transpose()?;
    if let Some(store) = &store {
        store.write(
            "folds.csv",
            &folds_csv(&tune::assignments(&data.train, &options)?),
        )?;
    }
    if !args.quiet {
        noteln!(
            "tune: {} configurations x {} folds x {} repeats on {} training rows",
            candidates.len(),
            args.folds,
            args.repeats,
            data.train.n_rows()
        );
    }
    let result = tune::cross_validate(&data.train, &candidates, &options, store.as_ref())?;
    let (refit, refit_tree) = match result.chosen.filter(|_| !result.interrupted) {
        Some(index) => {
            let (refit, tree) = refit(
                &args,
                &candidates[index],
                &data,
                relabel.as_ref(),
                store.as_ref(),
            )?;
            (Some(refit), Some(tree))
        }
        None => (None, None),
    };
    let mut figures = Vec::new();
    if let Some(store) = &store {
        let stem = store.dir().join("tune");
        figures = figure::draw(&stem, &result, args.metric, &args.data.data)?
            .iter()
            .map(|p| p.display().to_string())
            .collect();
    }
    let label = |index: Option<usize>| index.map(|i| result.rows[i].label.clone());
    let document = TuneDocument {
        command: "tune".into(),
        data: DataBlock::new(
            &args.data.data,
            &data,
            Some(args.data.seed),
            args.data.test_fraction,
        ),
        method: args.method.clone(),
        metric: args.metric,
        folds: args.folds,
        repeats: args.repeats,
        one_se: args.one_se,
        rows: result.rows.clone(),
        best: label(result.best),
        chosen: label(result.chosen),
        chosen_config: result.chosen.map(|i| result.rows[i].config),
        refit,
        fits_run: result.fits_run,
        fits_reused: result.fits_reused,
        interrupted: result.interrupted,
        seconds: result.seconds,
        figures,
    };
    write_tune_pages(
        &args,
        &document,
        refit_tree.as_ref(),
        store.as_ref(),
        (&original.train, &data.train),
    )?;
    let csv = to_csv(&result, args.metric);
    if let Some(path) = &args.output {
        write_file(path, &csv)?;
    }
    if let Some(store) = &store {
        store.write("results.csv", &csv)?;
        let text =
            serde_json::to_string_pretty(&document).map_err(|e| Error::Internal(e.to_string()))?;
        store.write("results.json", &text)?;
    }
    if args.json {
        print_json(&document)?;
    } else {
        print_table(&document, &result)?;
    }
    ending(&args, &result)
}

/// The run's settings for cross-validation.
fn tune_options(args: &TuneArgs) -> TuneOptions {
    TuneOptions {
        folds: args.folds,
        repeats: args.repeats,
        seed: args.data.seed,
        metric: args.metric,
        one_se: args.one_se,
        budget: args
            .time_limit
            .clone()
            .unwrap_or_default()
            .with_interrupt(Some(interrupt_flag())),
        threads: args.threads,
        share: !args.no_share,
        warm_start: args.warm.mode(),
        progress: if args.quiet {
            Progress::Hidden
        } else {
            Progress::Stderr
        },
    }
}

/// Writes the run's page to `--html` and into the store; `(original, train)` are the training
/// rows as read (for their fingerprint) and as prepared.
fn write_tune_pages(
    args: &TuneArgs,
    document: &TuneDocument,
    refit_tree: Option<&Tree>,
    store: Option<&Store>,
    (original, train): (&Dataset, &Dataset),
) -> Result<()> {
    let pages: Vec<PathBuf> = args
        .html
        .iter()
        .cloned()
        .chain(store.map(|store| store.dir().join("tune.html")))
        .collect();
    if !pages.is_empty() {
        let source = format!("training rows of {}", args.data.data.display());
        let training = crate::cli::output::training_rows(&args.data, original);
        let page = tune_page(
            document,
            refit_tree,
            &Rows::of(train, &source),
            &training.fingerprint,
        );
        for path in &pages {
            write_page(path, &page)?;
        }
    }
    Ok(())
}

/// How the run ends: a note when interrupted, an error when no configuration can be chosen.
fn ending(args: &TuneArgs, result: &TuneResult) -> Result<()> {
    if result.interrupted {
        noteln!(
            "interrupted: {} fits done{}",
            result.fits.len(),
            if args.out.is_some() {
                "; run the same command again to resume"
            } else {
                ""
            }
        );
    } else if result.chosen.is_none() {
        return Err(Error::Solver {
            solver: args.method.clone(),
            message: "no configuration can be chosen: every one has a failed fit or a fold \
                      without a score (see the table's status)"
                .into(),
        });
    }
    Ok(())
}

/// Learns the chosen configuration on all the training rows, as `solve` would, and scores it.
fn refit(
    args: &TuneArgs,
    (config, method): &(Config, Method),
    data: &Sets,
    relabel: Option<&serde_json::Value>,
    store: Option<&Store>,
) -> Result<(Refit, crate::tree::Tree)> {
    let options = LearnOptions {
        budget: args
            .time_limit
            .clone()
            .unwrap_or_default()
            .with_interrupt(Some(interrupt_flag())),
        warm_start: args.warm.mode(),
        ..LearnOptions::default()
    };
    let mut outcome = learn::learn(method, &data.train, options)?;
    let made = provenance::of_outcome(
        &outcome,
        crate::cli::output::training_rows(&args.data, &data.train),
    );
    let mut tree = outcome.tree.take().ok_or_else(|| Error::Solver {
        solver: args.method.clone(),
        message: format!(
            "the refit of {} on all training rows ended with {} and no tree",
            config.label(),
            outcome.report.termination
        ),
    })?;
    tree.provenance = Some(made);
    if let Some(rule) = relabel {
        let mut learned_by = tree.learned_by.take().unwrap_or_else(|| json!({}));
        learned_by["relabel"] = rule.clone();
        tree.learned_by = Some(learned_by);
    }
    let tree_file = store
        .map(|store| store.write("tree.json", &tree.to_json_string()))
        .transpose()?
        .map(|p| p.display().to_string());
    let refit = Refit {
        config: config.label(),
        termination: outcome.report.termination.to_string(),
        seconds: outcome.report.seconds,
        leaves: tree.leaves().len(),
        depth: tree.actual_depth(),
        train: Scores::of(&tree, &data.train)?,
        test: data
            .test
            .as_ref()
            .map(|test| Scores::of(&tree, test))
            .transpose()?,
        tree_file,
    };
    Ok((refit, tree))
}

/// `row,repeat,fold`: the fold of every training row in every repeat.
fn folds_csv(assignments: &[Vec<usize>]) -> String {
    let mut text = String::from("row,repeat,fold\n");
    for (repeat, folds) in assignments.iter().enumerate() {
        for (row, fold) in folds.iter().enumerate() {
            text.push_str(&format!("{row},{repeat},{fold}\n"));
        }
    }
    text
}

fn cell(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| v.to_string())
}

/// The table as CSV, one row per configuration.
fn to_csv(result: &TuneResult, metric: TuneMetric) -> String {
    let mut text = format!(
        "config,chosen,fits,failed,limited,mean_{metric},sd_{metric},se_{metric},\
         train_{metric},leaves,seconds,optimal_share,status\n"
    );
    for (i, row) in result.rows.iter().enumerate() {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},\"{}\"\n",
            row.label,
            result.chosen == Some(i),
            row.fits,
            row.failed,
            row.limited,
            cell(row.mean),
            cell(row.sd),
            cell(row.se),
            cell(row.train_mean),
            cell(row.leaves_mean),
            row.seconds_mean,
            row.optimal_share,
            row.status.replace('"', "\"\"")
        ));
    }
    text
}

fn print_table(document: &TuneDocument, result: &TuneResult) -> Result<()> {
    let metric = document.metric;
    outln!(
        "{} on {} ({} training rows): {}-fold cross-validation x {} repeat(s), {metric}{}",
        document.method,
        document.data.path,
        document.data.train_rows,
        document.folds,
        document.repeats,
        if document.one_se {
            ", one-standard-error rule"
        } else {
            ""
        }
    )?;
    let width = result
        .rows
        .iter()
        .map(|r| r.label.len())
        .max()
        .unwrap_or(6)
        .max(6);
    outln!(
        "  {:<width$} {:>8} {:>7} {:>8} {:>7} {:>8} {:>8}  status",
        "config",
        "mean",
        "sd",
        "train",
        "leaves",
        "seconds",
        "optimal"
    )?;
    let number = |v: Option<f64>, digits: usize| {
        v.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
    };
    for (i, row) in result.rows.iter().enumerate() {
        let mark = if result.chosen == Some(i) { "*" } else { " " };
        outln!(
            "{mark} {:<width$} {:>8} {:>7} {:>8} {:>7} {:>8.3} {:>7.0}%  {}",
            row.label,
            number(row.mean, 4),
            number(row.sd, 4),
            number(row.train_mean, 4),
            number(row.leaves_mean, 1),
            row.seconds_mean,
            row.optimal_share * 100.0,
            row.status
        )?;
    }
    if let Some(refit) = &document.refit {
        outln!(
            "chosen: {} (refitted on all training rows: {} leaves, train {metric} {}{}, {})",
            refit.config,
            refit.leaves,
            number(metric.of(&refit.train), 4),
            refit.test.as_ref().map_or_else(String::new, |test| format!(
                ", test {metric} {}",
                number(metric.of(test), 4)
            )),
            refit.termination
        )?;
    }
    outln!(
        "{} fits run, {} read back, {:.2} s",
        document.fits_run,
        document.fits_reused,
        document.seconds
    )?;
    for file in &document.figures {
        outln!("figure written to {file}")?;
    }
    Ok(())
}
