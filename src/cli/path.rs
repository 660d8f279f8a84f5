//! `milptree path`: the regularisation path of the sparse search. For each leaf penalty of a
//! log-spaced range (increasing; each solve starts from what the previous ones proved), the
//! optimal tree, its leaves and its training and test metric, as a table (text, JSON, CSV),
//! tree files, and a figure of training and test loss against leaves, so that the knee can be
//! picked.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use crate::budget::Budget;
use crate::cli::data_args::DataArgs;
use crate::cli::interrupt::interrupt_flag;
use crate::cli::model_args::{
    BinOctArgs, ClassWeightArgs, DepthArg, ErrorArgs, PositiveClassArgs, SearchArgs, SparseArgs,
};
use crate::cli::output::{print_json, write_file};
use crate::cli::pages::{path_page, write_page};
use crate::data::{Dataset, Sets, ThresholdMode};
use crate::error::{Error, Result};
use crate::export::html::Rows;
use crate::learn::objective::ObjectiveName;
use crate::learn::search_line::SearchLine;
use crate::learn::{provenance, DataBlock, SparseParams};
use crate::solver::{Progress, SolveReport};
use crate::sparse::{self, score_of, SparseOptions, SparseOutcome, SparseProblem};
use crate::tree::Tree;

mod figure;

#[derive(Debug, Args)]
pub struct PathArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// The leaf penalties: `LOW..HIGH` (with --steps values, log-spaced, both ends included),
    /// or a comma-separated list.
    #[arg(long, value_name = "LOW..HIGH|L,L,...", default_value = "0.001..0.1")]
    pub leaf_penalty: String,
    /// How many penalties a `LOW..HIGH` range holds.
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub steps: usize,
    /// At most this many levels, or `none` (up to 20).
    #[arg(long, value_name = "D|none", value_parser = parse_depth_arg)]
    pub depth: Option<DepthArg>,
    #[command(flatten)]
    pub errors: ErrorArgs,
    #[command(flatten)]
    pub sparse: SparseArgs,
    #[command(flatten)]
    pub class_weights: ClassWeightArgs,
    #[command(flatten)]
    pub positive: PositiveClassArgs,
    #[command(flatten)]
    pub thresholds: BinOctArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Wall-clock limit of each solve, in seconds (0 to 1e9).
    #[arg(long, value_name = "SECONDS", value_parser = crate::budget::parse_budget)]
    pub time_limit: Option<Budget>,
    /// Write the table as CSV to this file.
    #[arg(long, short, alias = "csv", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the table (path.csv), each tree (trees/lambda-<L>.json) and the figure of loss
    /// against leaves, train and test (path.svg, path.png) to this directory.
    #[arg(long = "out-dir", value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write the tree files to this directory instead of OUT_DIR/trees (kept for older
    /// command lines).
    #[arg(long, value_name = "DIR", hide = true)]
    pub trees: Option<PathBuf>,
    /// Draw the figure to FILE.svg and FILE.png instead of OUT_DIR/path.* (kept for older
    /// command lines).
    #[arg(long, value_name = "FILE", hide = true)]
    pub plot: Option<PathBuf>,
    /// Write a self-contained HTML page to this file: loss against leaves, the table and each
    /// penalty's tree; with --out-dir it is also written there as path.html.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_depth_arg(text: &str) -> std::result::Result<DepthArg, String> {
    if text == "none" {
        return Ok(DepthArg::None);
    }
    text.parse()
        .map(DepthArg::Levels)
        .map_err(|_| format!("`{text}` is neither a number of levels nor `none`"))
}

/// `lambda-<L>.json`, with `L` rounded to 12 significant digits so that a penalty computed on
/// a log scale (`0.0010000000000000002`) is named as written (`0.001`).
fn tree_file_name(penalty: f64) -> String {
    let rounded = if penalty > 0.0 && penalty.is_finite() {
        let digits = 12 - penalty.log10().ceil() as i32;
        let scale = 10f64.powi(digits);
        (penalty * scale).round() / scale
    } else {
        penalty
    };
    format!("lambda-{rounded}.json")
}

/// The penalties of `spec` (`LOW..HIGH` with `steps` log-spaced values, or a list), increasing.
pub fn penalties(spec: &str, steps: usize) -> Result<Vec<f64>> {
    let number = |text: &str| -> Result<f64> {
        let value: f64 = text
            .trim()
            .parse()
            .map_err(|_| Error::parameter("--leaf-penalty", format!("`{text}` is not a number")))?;
        if !(value.is_finite() && value > 0.0) {
            return Err(Error::parameter(
                "--leaf-penalty",
                format!("{value} is not a positive penalty"),
            ));
        }
        Ok(value)
    };
    let mut values = if let Some((low, high)) = spec.split_once("..") {
        let (low, high) = (number(low)?, number(high)?);
        if low > high {
            return Err(Error::parameter(
                "--leaf-penalty",
                format!("the range {low}..{high} is empty"),
            ));
        }
        match steps {
            0 => return Err(Error::parameter("--steps", "must be at least 1")),
            1 => vec![low],
            _ => (0..steps)
                .map(|i| {
                    let t = i as f64 / (steps - 1) as f64;
                    (low.ln() + t * (high.ln() - low.ln())).exp()
                })
                .collect(),
        }
    } else {
        spec.split(',').map(number).collect::<Result<Vec<f64>>>()?
    };
    values.sort_by(f64::total_cmp);
    values.dedup();
    Ok(values)
}

/// The figures of one set (train or test).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SetFigures {
    /// The loss (`1 - metric`).
    pub loss: f64,
    /// The objective's metric: accuracy, balanced or weighted accuracy, F1, AUC or pAUC.
    pub metric: f64,
    pub accuracy: f64,
}

/// One penalty of the path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathRow {
    pub lambda: f64,
    pub leaves: usize,
    pub depth: usize,
    /// `loss + lambda * leaves` on the training set, and the proven bound.
    pub objective: f64,
    pub lower_bound: f64,
    pub termination: String,
    pub seconds: f64,
    /// The tree's training errors (each costing its row's weight), by plain code: the scale
    /// every method's report shares.
    pub errors: f64,
    pub train: SetFigures,
    pub test: Option<SetFigures>,
    /// The tree file written, if any.
    pub tree_file: Option<String>,
}

/// The report of `milptree path`.
#[derive(Debug, Clone, Serialize)]
pub struct PathDocument {
    pub command: String,
    pub data: DataBlock,
    pub objective: String,
    pub depth: Option<usize>,
    pub thresholds: ThresholdMode,
    pub rows: Vec<PathRow>,
    pub figures: Vec<String>,
}

pub fn run(args: PathArgs) -> Result<()> {
    let lambdas = penalties(&args.leaf_penalty, args.steps)?;
    let depth = match args.depth {
        Some(DepthArg::Levels(depth)) => Some(depth),
        Some(DepthArg::None) | None => None,
    };
    let base = base_params(&args, lambdas[0])?;
    let searches = lambdas
        .iter()
        .map(|&lambda| {
            SparseParams {
                leaf_penalty: lambda,
                ..base.clone()
            }
            .check(depth)
        })
        .collect::<Result<Vec<_>>>()?;
    let data = args.data.load()?;
    data.train.refuse_missing("path")?;
    // The searches run on the rows repeated by their weights' multiples of one unit per class,
    // each class cost times its unit (see `SparseSearch::problems_on`); their trees are
    // reported on the weighted rows.
    let factored = data
        .train
        .factored_by_class(&crate::setting::Named::same("path (the sparse search)"))?;
    let (problems, on_copies): (Vec<_>, Vec<_>) = searches
        .iter()
        .map(|search| search.problems_on(&data.train, &factored))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    let found = search_path(&args, &on_copies, base.memory_limit, &factored.rows)?;
    let trees_dir = args
        .trees
        .clone()
        .or_else(|| args.out.as_ref().map(|dir| dir.join("trees")));
    for dir in args.out.iter().chain(&trees_dir) {
        std::fs::create_dir_all(dir).map_err(|source| Error::Output {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let mut rows = Vec::with_capacity(found.len());
    let mut trees = Vec::with_capacity(found.len());
    for ((search, problem), found) in searches.iter().zip(&problems).zip(found) {
        let mut outcome = search.outcome(
            found,
            &data.train,
            problem,
            args.time_limit.as_ref().and_then(Budget::limit_seconds),
        );
        let made = provenance::of_outcome(
            &outcome,
            crate::cli::output::training_rows(&args.data, &data.train),
        );
        if let Some(tree) = outcome.tree.as_mut() {
            if data.train.is_weighted() {
                // Counted on the copies; a file holds the weighted rows' counts.
                tree.recount_on(&data.train)?;
            }
            tree.provenance = Some(made);
        }
        let Some(tree) = &outcome.tree else {
            return Err(Error::Internal("the sparse search returned no tree".into()));
        };
        let tree_file = match &trees_dir {
            Some(dir) => {
                let path = dir.join(tree_file_name(problem.leaf_penalty));
                write_file(&path, &tree.to_json_string())?;
                Some(path.display().to_string())
            }
            None => None,
        };
        rows.push(path_row(tree, &outcome.report, problem, &data, tree_file)?);
        trees.push(tree.clone());
    }
    let objective = base.objective.name().to_string();
    let plot_stem = args
        .plot
        .clone()
        .or_else(|| args.out.as_ref().map(|dir| dir.join("path")));
    let mut figures_written = Vec::new();
    if let Some(stem) = &plot_stem {
        figures_written = figure::draw(stem, &rows, &objective, &args.data.data)?
            .iter()
            .map(|p| p.display().to_string())
            .collect();
    }
    let table = args.out.as_ref().map(|dir| dir.join("path.csv"));
    for csv in args.output.iter().chain(&table) {
        write_file(csv, &to_csv(&rows))?;
    }
    let document = PathDocument {
        command: "path".to_string(),
        data: DataBlock::new(
            &args.data.data,
            &data,
            Some(args.data.seed),
            args.data.test_fraction,
        ),
        objective,
        depth,
        thresholds: base.thresholds,
        rows,
        figures: figures_written,
    };
    let pages = write_pages(&args, &document, &trees, &data)?;
    if args.json {
        print_json(&document)?;
    } else {
        print_table(&args.data.data, &data, &document.objective, &document.rows)?;
        for file in &document.figures {
            crate::outln!("figure written to {file}")?;
        }
        for page in &pages {
            crate::outln!("page written to {}", page.display())?;
        }
    }
    Ok(())
}

/// The sparse search's settings every penalty shares, the first penalty `first` in place.
fn base_params(args: &PathArgs, first: f64) -> Result<SparseParams> {
    let defaults = SparseParams::default();
    let objective = args
        .errors
        .objective
        .map(ObjectiveName::for_sparse)
        .transpose()?
        .unwrap_or(defaults.objective);
    Ok(SparseParams {
        objective,
        leaf_penalty: first,
        class_weights: args.class_weights.class_weight.clone(),
        pauc_theta: args.sparse.pauc_theta(objective)?,
        positive_class: args.positive.positive_class.clone(),
        thresholds: args
            .thresholds
            .thresholds
            .map_or(defaults.thresholds, ThresholdMode::from),
        memory_limit: args.search.memory_limit.unwrap_or(defaults.memory_limit),
    })
}

/// Every penalty's search on `train`, in order, under the one time limit, its progress on a
/// line of standard error unless `--quiet`.
fn search_path(
    args: &PathArgs,
    problems: &[SparseProblem],
    memory_limit_mb: usize,
    train: &Dataset,
) -> Result<Vec<SparseOutcome>> {
    let line = SearchLine::start(
        &format!("sparse path of {} penalties", problems.len()),
        args.time_limit.as_ref().and_then(Budget::limit_seconds),
        &if args.quiet {
            Progress::Hidden
        } else {
            Progress::Stderr
        },
    );
    line.say("searching");
    // Each penalty's search publishes its own incumbent and bound, the line showing the
    // current one's.
    let sparse_options = SparseOptions {
        budget: args
            .time_limit
            .clone()
            .unwrap_or_default()
            .with_interrupt(Some(interrupt_flag())),
        memory_limit_mb,
        progress: line.sink(),
        ..SparseOptions::default()
    };
    sparse::solve_path(train, problems, &sparse_options)
}

/// The table's row of one penalty's `tree`, reported by `report`.
fn path_row(
    tree: &Tree,
    report: &SolveReport,
    problem: &SparseProblem,
    data: &Sets,
    tree_file: Option<String>,
) -> Result<PathRow> {
    let figures = |set: &Dataset| -> Option<SetFigures> {
        let score = score_of(tree, set, problem)?;
        let evaluation = tree
            .evaluate(set.rows(), set.labels(), set.classes())
            .ok()?;
        Some(SetFigures {
            loss: score.loss,
            metric: 1.0 - score.loss,
            accuracy: evaluation.summary().accuracy,
        })
    };
    let train = figures(&data.train).ok_or_else(|| {
        Error::Internal("the path's tree does not score on its training data".into())
    })?;
    Ok(PathRow {
        lambda: problem.leaf_penalty,
        leaves: tree.leaves().len(),
        depth: tree.actual_depth(),
        objective: report.objective.unwrap_or(f64::NAN),
        lower_bound: report.best_bound.unwrap_or(f64::NAN),
        termination: report.termination.to_string(),
        seconds: report.seconds,
        errors: crate::learn::document::weighted_errors(tree, &data.train),
        train,
        test: data.test.as_ref().and_then(figures),
        tree_file,
    })
}

/// Writes the path's page to `--html` and into `--out`; returns where.
fn write_pages(
    args: &PathArgs,
    document: &PathDocument,
    trees: &[Tree],
    data: &Sets,
) -> Result<Vec<PathBuf>> {
    let pages: Vec<PathBuf> = args
        .html
        .iter()
        .cloned()
        .chain(args.out.as_ref().map(|dir| dir.join("path.html")))
        .collect();
    if !pages.is_empty() {
        let source = format!("training rows of {}", args.data.data.display());
        let training = crate::cli::output::training_rows(&args.data, &data.train);
        let page = path_page(
            document,
            trees,
            &Rows::of(&data.train, &source),
            &training.fingerprint,
        );
        for path in &pages {
            write_page(path, &page)?;
        }
    }
    Ok(pages)
}

fn cell(value: Option<f64>) -> String {
    value.map_or_else(String::new, |v| format!("{v}"))
}

/// The table as CSV (one row per penalty).
pub fn to_csv(rows: &[PathRow]) -> String {
    let mut out = String::from(
        "lambda,leaves,depth,objective,lower_bound,termination,seconds,train_loss,train_metric,\
         train_accuracy,test_loss,test_metric,test_accuracy,tree_file\n",
    );
    for row in rows {
        let test = row.test;
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            row.lambda,
            row.leaves,
            row.depth,
            row.objective,
            row.lower_bound,
            row.termination,
            row.seconds,
            row.train.loss,
            row.train.metric,
            row.train.accuracy,
            cell(test.map(|t| t.loss)),
            cell(test.map(|t| t.metric)),
            cell(test.map(|t| t.accuracy)),
            row.tree_file.clone().unwrap_or_default(),
        ));
    }
    out
}

fn print_table(path: &Path, data: &Sets, objective: &str, rows: &[PathRow]) -> Result<()> {
    crate::outln!(
        "regularisation path on {} ({} training rows{}), objective {objective}",
        path.display(),
        data.train.n_rows(),
        data.test
            .as_ref()
            .map_or_else(String::new, |t| format!(", {} test rows", t.n_rows()))
    )?;
    crate::outln!(
        "{:>10} {:>6} {:>5} {:>10} {:>12} {:>12} {:>9}  status",
        "lambda",
        "leaves",
        "depth",
        "objective",
        "train metric",
        "test metric",
        "seconds"
    )?;
    for row in rows {
        crate::outln!(
            "{:>10.6} {:>6} {:>5} {:>10.6} {:>12.4} {:>12} {:>9.3}  {}",
            row.lambda,
            row.leaves,
            row.depth,
            row.objective,
            row.train.metric,
            row.test
                .map_or_else(|| "-".to_string(), |t| format!("{:.4}", t.metric)),
            row.seconds,
            row.termination
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_files_are_named_by_the_penalty_as_written() {
        assert_eq!(tree_file_name(0.0010000000000000002), "lambda-0.001.json");
        assert_eq!(tree_file_name(0.1), "lambda-0.1.json");
        assert_eq!(tree_file_name(0.0), "lambda-0.json");
        assert_eq!(
            tree_file_name(0.021544346900318846),
            "lambda-0.0215443469003.json"
        );
        // The default range's ten penalties keep ten names.
        let names: std::collections::HashSet<String> = (0..10)
            .map(|i| tree_file_name(0.001 * 100f64.powf(f64::from(i) / 9.0)))
            .collect();
        assert_eq!(names.len(), 10);
    }
}
