//! `milptree experiment`: runs a grid in process (resumable), or prints it as `milptree solve`
//! jobs (`--emit-jobs`), or merges the jobs' outputs (`--collect`); then writes the summary
//! and the plots. Results go to stdout as a few lines of text; job lines alone go to stdout
//! with `--emit-jobs`, so they can be piped to GNU parallel.

use std::path::Path;

use crate::budget::Budget;
use crate::cli::args::ExperimentArgs;
use crate::cli::interrupt::interrupt_flag;
use crate::error::{Error, Result};
use crate::experiment::grid_file::read_grid_file;
use crate::experiment::jobs::{collect, emit_jobs};
use crate::experiment::plots::write_plots;
use crate::experiment::progress::ProgressMode;
use crate::experiment::runner::{run_grid, RunnerOptions};
use crate::experiment::{write_summary, GridSpec, ResultsStore};
use crate::{noteln, outln};

pub fn run(args: ExperimentArgs) -> Result<()> {
    if args.collect || args.report_only {
        let out = args
            .out
            .clone()
            .ok_or_else(|| Error::parameter("--out-dir", "the results directory is required"))?;
        if args.report_only && !out.join("runs.jsonl").exists() {
            return Err(Error::input(
                out.display().to_string(),
                "no results here (runs.jsonl is missing)",
            ));
        }
        if args.collect && !out.join("jobs").is_dir() {
            return Err(Error::input(
                out.join("jobs").display().to_string(),
                "no job outputs to collect (the directory is missing)",
            ));
        }
        let mut store = open_store(&out)?;
        if args.collect {
            let collected = collect(&mut store)?;
            for problem in &collected.problems {
                noteln!("warning: {problem}");
            }
            outln!(
                "job outputs collected: {}; already in the results: {}; unusable: {}",
                collected.added,
                collected.already,
                collected.problems.len()
            )?;
        }
        return write_reports(&mut store);
    }
    let (spec, out_from_file) = match &args.grid {
        Some(path) => {
            let file = read_grid_file(path)?;
            (file.spec, file.out)
        }
        None => (spec_from_flags(&args), None),
    };
    let out = args.out.clone().or(out_from_file).ok_or_else(|| {
        Error::parameter(
            "--out-dir",
            "the results directory is required (or `out` in the grid file)",
        )
    })?;
    let (grid, datasets) = spec.validate()?;
    let mut store = open_store(&out)?;
    if args.emit_jobs {
        let emitted = emit_jobs(&grid, &store, &args.program)?;
        for line in &emitted.lines {
            outln!("{line}")?;
        }
        if !args.quiet {
            noteln!(
                "{} jobs to run; {} configurations already in the results, {} with job outputs \
                 not collected yet (run `milptree experiment --collect --out-dir {}`)",
                emitted.lines.len(),
                emitted.done,
                emitted.uncollected,
                out.display()
            );
        }
        return Ok(());
    }
    let options = RunnerOptions {
        progress: if args.quiet {
            ProgressMode::Quiet
        } else {
            ProgressMode::Auto
        },
        interrupt: Some(interrupt_flag()),
        certify: grid.certify,
    };
    let report = run_grid(&grid, &datasets, &mut store, &options)?;
    outln!(
        "runs solved now: {}; already in the results: {}; failed: {}",
        report.ran,
        report.skipped,
        report.failed
    )?;
    if report.interrupted {
        noteln!("interrupted: the finished runs are recorded; rerun the same command to continue");
    }
    write_reports(&mut store)
}

fn spec_from_flags(args: &ExperimentArgs) -> GridSpec {
    GridSpec {
        datasets: args.datasets.clone(),
        depths: args.depths.clone(),
        formulations: args.formulations.clone(),
        parameters: Default::default(),
        dp_parameters: None,
        sparse_parameters: None,
        certify: args.certify.0,
        threads: if args.threads.is_empty() {
            vec![None]
        } else {
            args.threads.iter().copied().map(Some).collect()
        },
        solvers: args.solvers.clone(),
        solver_options: Default::default(),
        warm_starts: args.warm_starts.clone(),
        dp_bounds: args.dp_bounds.clone(),
        seeds: args.seeds.clone(),
        time_limit: args.time_limit.as_ref().and_then(Budget::duration),
        test_fraction: args.test_fraction,
        constraints: None,
    }
}

fn open_store(out: &Path) -> Result<ResultsStore> {
    let store = ResultsStore::open(out)?;
    for warning in &store.warnings {
        noteln!("warning: {warning}");
    }
    Ok(store)
}

/// Writes the summary and the plots, and says where everything is.
fn write_reports(store: &mut ResultsStore) -> Result<()> {
    store.write_tables()?;
    let summary = write_summary(store)?;
    let plots = write_plots(store)?;
    outln!(
        "{} runs in {} and {}",
        store.rows().len(),
        store.runs_csv().display(),
        store.runs_jsonl().display()
    )?;
    outln!("summary: {}", summary.display())?;
    match &plots.skipped {
        Some(reason) => noteln!("warning: no plots: {reason}"),
        None => outln!(
            "plots: {} files in {}",
            plots.files.len(),
            store.plots_dir().display()
        )?,
    }
    Ok(())
}
