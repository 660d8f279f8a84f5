//! Spreading a grid over machines: [`emit_jobs`] writes one `milptree solve` command line per
//! configuration not yet done, each sending its JSON report to `<out>/jobs/<run key>.json`;
//! [`collect`] turns those reports into rows of the same tables the in-process runner writes.
//!
//! A job's report carries everything needed to rebuild its configuration (data path, split
//! seed and fraction, formulation, depth, solver, warm start, time limit), so collecting needs
//! no grid. The greedy baseline is recomputed from the dataset (deterministic), so the dataset
//! paths in the reports must be readable where `--collect` runs.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::budget::{check_seconds, seconds_of};
use crate::error::{Error, Result};
use crate::experiment::baseline::greedy_figures;
use crate::experiment::config::{DatasetEntry, RunConfig};
use crate::experiment::datasets::{prepare, LoadedDatasets};
use crate::experiment::grid::Grid;
use crate::experiment::row::Row;
use crate::experiment::store::ResultsStore;
use crate::learn::{MethodSpec, SolveDocument};
use crate::solver::Termination;

/// The emitted command lines, and the configurations left out because their job output
/// already holds a report that has not been collected.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EmittedJobs {
    pub lines: Vec<String>,
    pub uncollected: usize,
    pub done: usize,
}

fn quote(text: &str) -> Result<String> {
    shlex::try_quote(text)
        .map(|quoted| quoted.into_owned())
        .map_err(|e| {
            Error::parameter(
                "path",
                format!("`{text}` cannot be quoted for a shell: {e}"),
            )
        })
}

/// The `milptree solve` command of one configuration, `program` being the milptree binary.
pub fn job_line(
    program: &str,
    config: &RunConfig,
    certify: Option<Duration>,
    output: &Path,
) -> Result<String> {
    let mut words = vec![
        quote(program)?,
        "solve".to_string(),
        quote(&config.dataset.path.display().to_string())?,
    ];
    if config.method.takes_warm_start() {
        words.push(format!("--formulation {}", config.method.name()));
    }
    words.push(format!("--depth {}", config.depth));
    words.push(format!("--solver {}", config.method.solver_name()));
    if config.method.takes_warm_start() {
        words.push(format!("--warm-start {}", config.warm_start));
        words.push(format!("--dp-bounds {}", config.dp_bounds));
        words.push(format!(
            "--certify {}",
            certify.map_or_else(
                || "off".to_string(),
                |budget| seconds_of(budget).to_string()
            )
        ));
    }
    words.push(format!("--time-limit {}", seconds_of(config.time_limit)));
    words.push(format!("--seed {}", config.seed));
    if config.test_fraction > 0.0 {
        words.push(format!("--test-fraction {}", config.test_fraction));
    }
    if let Some(threads) = config.threads {
        words.push(format!("--threads {threads}"));
    }
    for flag in parameter_flags(&config.method) {
        words.push(quote(&flag)?);
    }
    for (name, value) in &config.solver_options {
        words.push("--solver-option".to_string());
        words.push(quote(&format!("{name}={value}"))?);
    }
    words.push("--json --quiet >".to_string());
    words.push(quote(&output.display().to_string())?);
    Ok(words.join(" "))
}

/// The `solve` options that give a method its non-default parameters: `--name value`, a flag
/// for a boolean that is true (`--univariate`) or `--no-name` for one that is false
/// (`--no-refine`), the tangent set by its number, one `--class-weight LABEL=W` per class
/// weight.
pub fn parameter_flags(params: &MethodSpec) -> Vec<String> {
    let mut flags = Vec::new();
    for (name, value) in params.non_default() {
        let option = name.replace('_', "-");
        match value.as_str() {
            "true" => flags.push(format!("--{option}")),
            "false" => flags.push(format!("--no-{option}")),
            _ if name == "class_weights" => {
                for weight in value.split(',') {
                    flags.push("--class-weight".to_string());
                    flags.push(weight.to_string());
                }
            }
            _ if name == "tangents" => {
                flags.push(format!("--{option}"));
                flags.push(value.trim_start_matches('V').to_string());
            }
            _ => {
                flags.push(format!("--{option}"));
                flags.push(value);
            }
        }
    }
    flags
}

/// The command lines of the configurations of `grid` that are neither in the results nor in
/// an uncollected job output; a grid with side constraints is refused (it runs in process
/// only). Creates `<out>/jobs/` so that the lines can write there.
pub fn emit_jobs(grid: &Grid, store: &ResultsStore, program: &str) -> Result<EmittedJobs> {
    if grid.constraints.is_some() {
        return Err(Error::parameter(
            "--emit-jobs",
            "a grid with side constraints (`constraints` in the grid file) runs in process only",
        ));
    }
    let jobs = store.jobs_dir();
    fs::create_dir_all(&jobs).map_err(|source| Error::Output {
        path: jobs.display().to_string(),
        source,
    })?;
    let mut emitted = EmittedJobs::default();
    for config in grid.configs() {
        let key = config.key();
        let output = jobs.join(format!("{key}.json"));
        if store.contains(&key) {
            emitted.done += 1;
        } else if usable_report(&output).is_ok() {
            emitted.uncollected += 1;
        } else {
            emitted
                .lines
                .push(job_line(program, &config, grid.certify, &output)?);
        }
    }
    Ok(emitted)
}

/// What [`collect`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collected {
    /// Reports turned into rows now.
    pub added: usize,
    /// Reports of runs already in the results.
    pub already: usize,
    /// Job outputs that could not be used, with the reason.
    pub problems: Vec<String>,
}

/// The job output at `path`, parsed.
fn read_report(path: &Path) -> std::result::Result<SolveDocument, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    if text.trim().is_empty() {
        return Err("empty: the job failed before reporting, or has not run".to_string());
    }
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("not a complete JSON report ({e}); is the job still running?"))?;
    SolveDocument::from_value(&value)
}

/// The configuration a report describes.
fn config_of(document: &SolveDocument) -> std::result::Result<RunConfig, String> {
    let missing = |what: &str| {
        format!("the report has no {what} (it was written by an older milptree); rerun the job")
    };
    let method = MethodSpec::from_report(
        &document.formulation,
        &document.parameters,
        &document.report.solver,
    )
    .map_err(|e| e.to_string())?;
    Ok(RunConfig {
        dataset: DatasetEntry::from_path(PathBuf::from(&document.data.path)),
        method: method.clone(),
        solver_options: document.solver_options.clone(),
        depth: document.depth,
        warm_start: document.warm_start_mode,
        // Reports from before the setting was recorded ran with the default.
        dp_bounds: document.dp_bounds.unwrap_or_default(),
        seed: document.data.seed.ok_or_else(|| missing("data.seed"))?,
        test_fraction: document.data.test_fraction.unwrap_or(0.0),
        time_limit: document
            .report
            .time_limit
            .ok_or_else(|| missing("time_limit"))
            .and_then(|seconds| check_seconds("time_limit", seconds).map_err(|e| e.to_string()))?,
        // A grid varies the MILP solvers' threads only; the searches run on their default.
        threads: match method {
            MethodSpec::Milp { .. } => document.report.threads,
            _ => None,
        },
        // Grids with side constraints run in process only (see `emit_jobs`).
        constraints: None,
    })
}

/// Merges the reports in `<out>/jobs/*.json` into the results and writes the tables.
pub fn collect(store: &mut ResultsStore) -> Result<Collected> {
    let jobs = store.jobs_dir();
    let mut collected = Collected::default();
    let mut paths: Vec<PathBuf> = match fs::read_dir(&jobs) {
        Ok(listing) => listing
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect(),
        Err(e) => {
            return Err(Error::input(
                jobs.display().to_string(),
                format!("no job outputs to collect ({e})"),
            ))
        }
    };
    paths.sort();
    let mut datasets = LoadedDatasets::default();
    for path in paths {
        let name = path.display().to_string();
        match collect_one(&path, store, &mut datasets) {
            Ok(true) => collected.added += 1,
            Ok(false) => collected.already += 1,
            Err(problem) => collected.problems.push(format!("{name}: {problem}")),
        }
    }
    store.write_tables()?;
    Ok(collected)
}

/// The job output at `path`, if it is the report of a finished solve.
fn usable_report(path: &Path) -> std::result::Result<SolveDocument, String> {
    let document = read_report(path)?;
    if document.report.termination == Termination::Interrupted {
        return Err("the solve was interrupted; rerun the job".to_string());
    }
    Ok(document)
}

/// Adds the row of one job output; `Ok(false)` when its run is already recorded.
fn collect_one(
    path: &Path,
    store: &mut ResultsStore,
    datasets: &mut LoadedDatasets,
) -> std::result::Result<bool, String> {
    let document = usable_report(path)?;
    let config = config_of(&document)?;
    let key = config.key();
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    if stem.as_deref() != Some(key.as_str()) {
        return Err(format!(
            "the report describes the run `{key}`, which does not match the file name"
        ));
    }
    if store.contains(&key) {
        return Ok(false);
    }
    let dataset = datasets.insert(&config.dataset).map_err(|e| {
        format!("the greedy baseline needs the dataset, which cannot be read here: {e}")
    })?;
    let method = config.checked_method().map_err(|e| e.to_string())?;
    let greedy = prepare(dataset, config.seed, config.test_fraction, &method)
        .and_then(|data| greedy_figures(&method, &data))
        .map_err(|e| format!("the greedy baseline: {e}"))?;
    let row = Row::from_solve(&config, &document, &greedy);
    store
        .add(row, document.report.trajectory)
        .map_err(|e| e.to_string())?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::parameter_flags;
    use crate::learn::sparse_search::SparseObjective;
    use crate::learn::{MethodSpec, SparseParams};
    use crate::score::ClassWeight;

    /// The sparse search's class weights become one `--class-weight LABEL=W` each, which
    /// `solve` parses back into the same weights.
    #[test]
    fn class_weights_are_one_flag_each() {
        let weights = vec![
            ClassWeight {
                label: "yes".into(),
                weight: 2.5,
            },
            ClassWeight {
                label: "no".into(),
                weight: 0.0,
            },
        ];
        let spec = MethodSpec::Sparse(SparseParams {
            objective: SparseObjective::Weighted,
            class_weights: weights.clone(),
            ..SparseParams::default()
        });
        let flags = parameter_flags(&spec);
        let expected = [
            "--class-weight",
            "yes=2.5",
            "--class-weight",
            "no=0",
            "--objective",
            "weighted",
        ];
        assert_eq!(flags, expected.map(String::from).to_vec());
        let parsed: Vec<ClassWeight> = flags
            .chunks(2)
            .filter(|pair| pair[0] == "--class-weight")
            .map(|pair| pair[1].parse().expect("LABEL=W"))
            .collect();
        assert_eq!(parsed, weights);
    }
}
