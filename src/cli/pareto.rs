//! `milptree pareto`: the front of false positives and false negatives ([`learn_front`]) as a
//! report ([`FrontDocument`]): JSON, CSV, a plot and one tree file per point in `--out-dir`, or
//! the report on stdout; the summary on stdout with `--out-dir`, on stderr beside a report.

use std::path::Path;

use crate::budget::Budget;
use crate::cli::args::ParetoArgs;
use crate::cli::interrupt::interrupt_flag;
use crate::cli::model_args::SolverChoice;
use crate::cli::output::{data_block, print_json, write_file};
use crate::cli::pages::{front_page, write_page};
use crate::data::{Dataset, ThresholdMode};
use crate::error::{Error, Result};
use crate::experiment::plots::front::FrontFigure;
use crate::export::html::Rows;
use crate::learn::capability::MethodKind;
use crate::learn::front::{learn_front, FrontMethod, FrontResult};
use crate::learn::front_document::{FrontDocument, FrontRunInfo};
use crate::learn::front_run::{method_names, point_trees, two_class};
use crate::learn::search_line::SearchLine;
use crate::learn::settings::{Depth, Settings};
use crate::pareto::{Metric, ParetoProblem};
use crate::solver::Progress;
use crate::tree::{Provenance, TrainingRows};

pub fn run(args: ParetoArgs) -> Result<()> {
    let started = std::time::Instant::now();
    if args.fair.given() || args.fairness.is_some() {
        return super::pareto_fair::run(&args);
    }
    let settings = settings(&args)?;
    let mut request = settings.front()?;
    let original = args.data.load()?;
    // The front counts false positives and false negatives in weight (the search in units of
    // each class, see `pareto::solve`); every report is of the weighted rows.
    let (sets, rule) = two_class(&original, settings.positive_class.as_deref())?;
    // The limit bounds the whole command: what reading the data took is gone from it.
    request.budget = args
        .time_limit
        .clone()
        .unwrap_or_default()
        .with_interrupt(Some(interrupt_flag()))
        .left_since(started);
    let line = SearchLine::start(
        "front",
        args.time_limit.as_ref().and_then(Budget::limit_seconds),
        &if args.quiet {
            Progress::Hidden
        } else {
            Progress::Stderr
        },
    );
    line.say("searching the front");
    let result = learn_front(&request, &sets.train)?;
    drop(line);
    let (method, problem) = (request.method, request.problem);
    let (method_name, solver_name) = method_names(&method);

    let tree_files = write_tree_files(
        &args,
        &result,
        (&method, &solver_name),
        &problem,
        (&original.train, &sets.train),
        rule.as_ref(),
    )?;

    let document = FrontDocument::new(
        &result,
        &sets,
        FrontRunInfo {
            method: method_name,
            solver: solver_name,
            problem,
            data: data_block(&args.data, &sets),
        },
        &tree_files,
    );
    let written = write_pages(&args, &document, &result, (&original.train, &sets.train))?;
    emit_front(
        &args,
        (&document, &document.to_csv()),
        |stem, dataset| FrontFigure::new(&document, dataset).save(stem),
        written,
        |written| summary_lines(&document, written),
    )
}

/// Writes a front's report as the options say: in `--out-dir`, `front.json`, `front.csv` and
/// the figure (`figure`); otherwise the JSON (`--json`) or the CSV on stdout. Then the summary
/// (`summary` of every file written, `written` first), unless `--quiet`: the result when stdout
/// carries nothing else (`--out-dir`); beside a CSV or JSON document on stdout a diagnostic, on
/// stderr.
pub(super) fn emit_front<D: serde::Serialize>(
    args: &ParetoArgs,
    (document, csv): (&D, &str),
    figure: impl FnOnce(&Path, &str) -> Result<std::result::Result<Vec<std::path::PathBuf>, String>>,
    mut written: Vec<String>,
    summary: impl FnOnce(&[String]) -> Vec<String>,
) -> Result<()> {
    if let Some(dir) = &args.out {
        create_dir(dir)?;
        let json_path = dir.join("front.json");
        let text = serde_json::to_string_pretty(document)
            .map_err(|e| Error::Internal(format!("the report cannot be written: {e}")))?;
        write_file(&json_path, &text)?;
        let csv_path = dir.join("front.csv");
        write_file(&csv_path, csv)?;
        written.push(json_path.display().to_string());
        written.push(csv_path.display().to_string());
        let dataset = args
            .data
            .data
            .file_stem()
            .map_or_else(|| "data".to_string(), |s| s.to_string_lossy().into_owned());
        match figure(&dir.join("front"), &dataset)? {
            Ok(paths) => written.extend(paths.iter().map(|p| p.display().to_string())),
            Err(reason) => crate::noteln!("note: no plot: {reason}"),
        }
    } else if args.json {
        print_json(document)?;
    } else {
        crate::out!("{csv}")?;
    }
    if !args.quiet {
        for line in summary(&written) {
            if args.out.is_some() {
                crate::outln!("{line}")?;
            } else {
                crate::noteln!("{line}");
            }
        }
    }
    Ok(())
}

/// Writes each point's tree file (to `--trees`, or `trees` in `--out-dir`) with its
/// provenance; the paths, by point (none without a directory). `(original, train)` are the
/// training rows as read (for their fingerprint) and as the front counts them.
fn write_tree_files(
    args: &ParetoArgs,
    result: &FrontResult,
    (method, solver_name): (&FrontMethod, &str),
    problem: &ParetoProblem,
    (original, train): (&Dataset, &Dataset),
    rule: Option<&serde_json::Value>,
) -> Result<Vec<Option<String>>> {
    let mut tree_files = vec![None; result.outcome.front.len()];
    let trees_dir = args
        .trees
        .clone()
        .or_else(|| args.out.as_ref().map(|dir| dir.join("trees")));
    let Some(dir) = &trees_dir else {
        return Ok(tree_files);
    };
    create_dir(dir)?;
    let training = crate::cli::output::training_rows(&args.data, original);
    let termination = serde_json::to_value(result.outcome.termination)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let trees = point_trees(result, method, problem, train, rule)?;
    for (slot, (mut tree, errors)) in tree_files.iter_mut().zip(trees) {
        let learned_by = tree.learned_by.clone().unwrap_or_default();
        tree.provenance = Some(provenance(
            args,
            &learned_by,
            (solver_name, &termination),
            result.outcome.seconds,
            &training,
        ));
        let path = dir.join(format!("fp{}-fn{}.json", errors.fp, errors.fn_));
        write_file(&path, &tree.to_json_string())?;
        *slot = Some(path.display().to_string());
    }
    Ok(tree_files)
}

/// The provenance of a tree of a front: `learned_by` its parameters, found by `solver` (which
/// ended with `termination`) in `seconds`, on the `training` rows.
pub(super) fn provenance(
    args: &ParetoArgs,
    learned_by: &serde_json::Value,
    (solver, termination): (&str, &str),
    seconds: f64,
    training: &TrainingRows,
) -> Provenance {
    Provenance {
        method: "pareto".to_string(),
        parameters: learned_by.clone(),
        solver: solver.to_string(),
        termination: termination.to_string(),
        tree_source: None,
        objective: None,
        bound: None,
        gap: None,
        seconds: Some(seconds),
        time_limit: args.time_limit.as_ref().and_then(Budget::limit_seconds),
        milptree_version: Provenance::this_version(),
        training: training.clone(),
        certificate: None,
        side_constraints: None,
    }
}

/// Writes the front's page to `--html` and into `--out-dir`; the paths written.
fn write_pages(
    args: &ParetoArgs,
    document: &FrontDocument,
    result: &FrontResult,
    (original, train): (&Dataset, &Dataset),
) -> Result<Vec<String>> {
    let mut written = Vec::new();
    let pages = args
        .html
        .iter()
        .cloned()
        .chain(args.out.as_ref().map(|dir| dir.join("front.html")))
        .collect::<Vec<_>>();
    if pages.is_empty() {
        return Ok(written);
    }
    if let Some(dir) = &args.out {
        create_dir(dir)?;
    }
    let source = format!(
        "training rows of {} (positive class {})",
        args.data.data.display(),
        train.classes()[1]
    );
    let fingerprint = crate::cli::output::training_rows(&args.data, original);
    let page = front_page(
        document,
        result,
        &Rows::of(train, &source),
        &fingerprint.fingerprint,
    );
    for path in &pages {
        write_page(path, &page)?;
        written.push(path.display().to_string());
    }
    Ok(written)
}

/// The front's settings the options give ([`Settings::front`] checks them). How the command
/// line chooses the method (`--solver`, with `--formulation` for a MIP solver) is checked here.
fn settings(args: &ParetoArgs) -> Result<Settings> {
    let method = match args.solver {
        SolverChoice::Sparse => {
            return Err(Error::parameter(
                "--solver",
                "sparse has no front: use dp (the bi-objective search) or highs/cbc (the \
                 epsilon-constraint method)",
            ))
        }
        SolverChoice::Dp => {
            if let Some(formulation) = args.formulation {
                return Err(Error::parameter(
                    "--formulation",
                    format!(
                        "{formulation} is a MILP; --solver dp is the bi-objective search, which \
                         needs no formulation (use --solver highs or cbc for the \
                         epsilon-constraint method)"
                    ),
                ));
            }
            MethodKind::Dp
        }
        SolverChoice::Mip(solver) => match args.formulation {
            Some(formulation) => MethodKind::formulation(formulation),
            None => {
                return Err(Error::parameter(
                    "--formulation",
                    format!("is needed with --solver {}: oct or binoct", solver.name()),
                ))
            }
        },
    };
    let mut settings = Settings::new(method);
    if let SolverChoice::Mip(solver) = args.solver {
        settings.solver = Some(solver);
    }
    settings.depth = Some(Depth::Levels(args.depth));
    settings.max_splits = args.max_splits;
    settings.positive_class.clone_from(&args.positive_class);
    settings.thresholds = args.thresholds.map(ThresholdMode::from);
    settings.time_limit = args.time_limit.as_ref().and_then(Budget::duration);
    settings.memory_limit = args.memory_limit;
    settings.threads = args.threads;
    Ok(settings)
}

pub(super) fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Output {
        path: dir.display().to_string(),
        source,
    })
}

/// The summary: the front's size and status, the best point of F1 and MCC, the reference
/// trees, and the files written.
fn summary_lines(document: &FrontDocument, written: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let status = if document.complete {
        "complete".to_string()
    } else {
        format!(
            "stopped by the {} (points found, with a lower-bound front)",
            if document.termination == crate::dp::DpTermination::Interrupted {
                "interrupt"
            } else {
                "time limit"
            }
        )
    };
    lines.push(format!(
        "front of `{}` (positive) against `{}`: {} points, {status}, {:.2} s",
        document.positive_class,
        document.negative_class,
        document.points.len(),
        document.seconds
    ));
    for metric in [Metric::F1, Metric::Mcc] {
        if let Some(best) = document.best.get(metric.key()) {
            let bound = if document.complete {
                String::new()
            } else {
                format!(" (at most {:.4} for any tree)", best.bound)
            };
            lines.push(format!(
                "best {}: {:.4} at FP {}, FN {}{bound}",
                metric.name(),
                best.value,
                best.fp,
                best.fn_
            ));
        }
    }
    for reference in &document.references {
        lines.push(format!(
            "{} ({}): F1 {:.4}, MCC {:.4} at FP {}, FN {}",
            reference.name.replace('_', "-"),
            reference.status,
            reference.train.metrics[Metric::F1.key()],
            reference.train.metrics[Metric::Mcc.key()],
            reference.train.fp,
            reference.train.fn_
        ));
    }
    for path in written {
        lines.push(format!("written: {path}"));
    }
    lines
}
