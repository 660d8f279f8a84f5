//! An experiment grid: what the user asked for ([`GridSpec`], from the command line or a TOML
//! file) and its validated form ([`Grid`]), whose configurations are the runs.
//!
//! Validation happens before anything runs: every list must be non-empty and without
//! repetitions, formulations and solvers must exist (`all` stands for every one), every
//! formulation's parameters must check at every depth, every dataset must be readable, split
//! with every seed, and learnable by every formulation at every depth (its greedy tree is grown
//! once as a check), and dataset names (file stems) must be distinct because they are part of
//! the run keys.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use crate::constraints::ConstraintSpec;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::experiment::config::{DatasetEntry, RunConfig};
use crate::experiment::datasets::{dataset_entries, prepare, LoadedDatasets};
use crate::experiment::grid_constraints::check_methods;
use crate::formulation::{FormulationName, FormulationParams};
use crate::learn::search_rows::DpBounds;
use crate::learn::{milp_under_constraints, DpParams, MethodSpec, SparseParams, WarmStartMode};
use crate::solver::{check_solver_options, SolverKind};

/// One setting of a solver's own options: `(name, value)` pairs, set in this order.
pub type SolverSetting = Vec<(String, String)>;

/// The default fraction of rows held out as the test set.
pub const DEFAULT_TEST_FRACTION: f64 = 0.25;

/// A grid as given, before validation.
#[derive(Debug, Clone, PartialEq)]
pub struct GridSpec {
    /// CSV files, or directories whose `*.csv` files are all used.
    pub datasets: Vec<PathBuf>,
    pub depths: Vec<usize>,
    /// Formulation names, or `all` (every formulation); `dp` (the exact search) and `sparse`
    /// (the sparse search) may be listed too.
    pub formulations: Vec<String>,
    /// The parameter settings of a formulation to run (each a run of its own); a formulation
    /// not listed runs with its defaults.
    pub parameters: BTreeMap<FormulationName, Vec<FormulationParams>>,
    /// The parameter settings of the exact search, when `dp` is listed (default: its
    /// defaults).
    pub dp_parameters: Option<Vec<DpParams>>,
    /// The parameter settings of the sparse search, when `sparse` is listed (default: its
    /// defaults).
    pub sparse_parameters: Option<Vec<SparseParams>>,
    /// Solver thread counts (`None`: the solver's default).
    pub threads: Vec<Option<usize>>,
    /// Solver names, or `all`.
    pub solvers: Vec<String>,
    /// The settings of a solver's own options to run (each a run of its own), by solver name,
    /// each setting `(name, value)` pairs; a solver not listed runs with milptree's settings
    /// alone.
    pub solver_options: BTreeMap<String, Vec<SolverSetting>>,
    /// `none` and/or `greedy`, or `all`.
    pub warm_starts: Vec<String>,
    /// The exact search's rows in the MILPs (`none`, `objective`, `splits`, `all`), each a run
    /// of its own; empty: `all`, `solve`'s default.
    pub dp_bounds: Vec<String>,
    pub seeds: Vec<u64>,
    /// The time limit of each solve, checked where it entered (the command line, the grid
    /// file); `None` is refused: an experiment needs one.
    pub time_limit: Option<Duration>,
    /// `0`: no test set.
    pub test_fraction: f64,
    /// The exact search's budget for the certificate of each MILP run (`None`: none).
    pub certify: Option<Duration>,
    /// Side constraints every run of the grid takes (`None`: none).
    pub constraints: Option<ConstraintSpec>,
}

/// The default budget of the certificate of each MILP run.
pub const DEFAULT_CERTIFY: Duration = Duration::from_secs(5);

/// A validated grid.
#[derive(Debug, Clone)]
pub struct Grid {
    pub datasets: Vec<DatasetEntry>,
    pub depths: Vec<usize>,
    /// Every formulation with every parameter setting to run.
    pub formulations: Vec<FormulationParams>,
    /// Every setting of the exact search to run (none when the grid does not list `dp`).
    pub dp: Vec<DpParams>,
    /// Every setting of the sparse search to run (none when the grid does not list `sparse`).
    pub sparse: Vec<SparseParams>,
    pub solvers: Vec<SolverKind>,
    /// The settings of each solver's options, at the solver's index in `solvers` (one empty
    /// setting for a solver without options).
    pub solver_options: Vec<Vec<SolverSetting>>,
    pub threads: Vec<Option<usize>>,
    pub warm_starts: Vec<WarmStartMode>,
    pub dp_bounds: Vec<DpBounds>,
    pub seeds: Vec<u64>,
    pub time_limit: Duration,
    pub test_fraction: f64,
    pub certify: Option<Duration>,
    /// Side constraints every run takes.
    pub constraints: Option<ConstraintSpec>,
}

impl Grid {
    /// Every configuration, datasets outermost, then depth, seed, formulation (with its
    /// parameters), solver (with its options), threads, warm start and the exact search's rows;
    /// the searches' settings after the formulations (they have no solver, threads, warm start
    /// or rows to vary).
    pub fn configs(&self) -> Vec<RunConfig> {
        let mut configs = Vec::new();
        for dataset in &self.datasets {
            for &depth in &self.depths {
                for &seed in &self.seeds {
                    for formulation in &self.formulations {
                        let solvers = self.solvers.iter().zip(&self.solver_options);
                        for (&solver, settings) in solvers {
                            for solver_options in settings {
                                for &threads in &self.threads {
                                    for &warm_start in &self.warm_starts {
                                        for &dp_bounds in &self.dp_bounds {
                                            configs.push(RunConfig {
                                                dataset: dataset.clone(),
                                                method: MethodSpec::Milp {
                                                    formulation: formulation.clone(),
                                                    solver,
                                                },
                                                solver_options: solver_options.clone(),
                                                depth,
                                                warm_start,
                                                dp_bounds,
                                                seed,
                                                test_fraction: self.test_fraction,
                                                time_limit: self.time_limit,
                                                threads,
                                                constraints: self.constraints.clone(),
                                            });
                                        }
                                    }
                                }
                            }
                        }
                    }
                    let searches = (self.dp.iter().cloned().map(MethodSpec::Dp))
                        .chain(self.sparse.iter().cloned().map(MethodSpec::Sparse));
                    for method in searches {
                        configs.push(RunConfig {
                            dataset: dataset.clone(),
                            method,
                            solver_options: Vec::new(),
                            depth,
                            warm_start: WarmStartMode::None,
                            dp_bounds: DpBounds::default(),
                            seed,
                            test_fraction: self.test_fraction,
                            time_limit: self.time_limit,
                            threads: None,
                            constraints: self.constraints.clone(),
                        });
                    }
                }
            }
        }
        configs
    }
}

impl GridSpec {
    /// Checks everything and loads the datasets: see the module documentation.
    pub fn validate(&self) -> Result<(Grid, LoadedDatasets)> {
        let depths = distinct("depths", &self.depths)?;
        if let Some(&zero) = depths.iter().find(|&&d| d == 0) {
            return Err(Error::parameter(
                "depths",
                format!("{zero} is not a depth >= 1"),
            ));
        }
        let seeds = distinct("seeds", &self.seeds)?;
        let (formulations, dp, sparse) = self.methods(&depths)?;
        let threads = distinct_options("threads", &self.threads)?;
        for &count in threads.iter().flatten() {
            crate::solver::check_threads(count)?;
        }
        let solver_names: Vec<&str> = SolverKind::ALL.iter().map(|s| s.name()).collect();
        let solvers = names("solvers", &self.solvers, &solver_names, |name| {
            name.parse::<SolverKind>()
                .map_err(|e| match name.eq_ignore_ascii_case("cbc") {
                    true => e,
                    false => unknown("solvers", name, &solver_names),
                })
        })?;
        let solver_options = solver_settings(&self.solver_options, &solvers)?;
        let warm_names: Vec<&str> = WarmStartMode::ALL.iter().map(|w| w.name()).collect();
        let warm_starts = names("warm-starts", &self.warm_starts, &warm_names, |name| {
            name.parse::<WarmStartMode>()
                .map_err(|_| unknown("warm-starts", name, &warm_names))
        })?;
        let dp_bounds = self.dp_bounds_settings()?;
        let time_limit = self.checked_time_limit()?;
        let test_fraction = self.test_fraction;
        if !(test_fraction == 0.0 || (test_fraction > 0.0 && test_fraction < 1.0)) {
            return Err(Error::parameter(
                "test-fraction",
                format!("{test_fraction} is neither 0 (no test set) nor strictly between 0 and 1"),
            ));
        }
        let certify = self.certify;
        if self.datasets.is_empty() {
            return Err(Error::parameter("datasets", "the list is empty"));
        }
        if let Some(spec) = &self.constraints {
            check_methods(spec, &self.formulations)?;
        }
        let datasets = dataset_entries(&self.datasets)?;
        let loaded = LoadedDatasets::load(&datasets)?;
        let methods: Vec<MethodSpec> = formulations
            .iter()
            .map(|formulation| MethodSpec::Milp {
                formulation: formulation.clone(),
                solver: solvers[0],
            })
            .chain(dp.iter().cloned().map(MethodSpec::Dp))
            .chain(sparse.iter().cloned().map(MethodSpec::Sparse))
            .collect();
        for entry in &datasets {
            self.check_dataset(entry, loaded.get(&entry.name)?, &methods, (&depths, &seeds))?;
        }
        let grid = Grid {
            datasets,
            depths,
            formulations,
            dp,
            sparse,
            solvers,
            solver_options,
            threads,
            warm_starts,
            dp_bounds,
            seeds,
            time_limit,
            test_fraction,
            certify,
            constraints: self.constraints.clone(),
        };
        Ok((grid, loaded))
    }

    /// The formulations' settings, and the exact and sparse searches' when the grid lists
    /// them, each checked at every depth.
    fn methods(
        &self,
        depths: &[usize],
    ) -> Result<(Vec<FormulationParams>, Vec<DpParams>, Vec<SparseParams>)> {
        let formulation_names: Vec<&str> = FormulationName::ALL.iter().map(|f| f.name()).collect();
        let listed = |search: &str| self.formulations.iter().any(|name| name.trim() == search);
        let (with_dp, with_sparse) = (listed("dp"), listed("sparse"));
        let milp_names: Vec<String> = self
            .formulations
            .iter()
            .filter(|name| !matches!(name.trim(), "dp" | "sparse"))
            .cloned()
            .collect();
        let dp = search_settings(
            "dp",
            with_dp,
            &self.dp_parameters,
            depths,
            |setting, depth| setting.check(depth).map(drop),
        )?;
        let sparse = search_settings(
            "sparse",
            with_sparse,
            &self.sparse_parameters,
            depths,
            |setting, depth| {
                if let Some(weight) = setting.class_weights.iter().find(|w| w.label.contains(',')) {
                    return Err(Error::parameter(
                        "[sparse] class_weights",
                        format!(
                            "the label `{}` holds a comma, which a grid cannot pass on",
                            weight.label
                        ),
                    ));
                }
                setting.check(Some(depth)).map(drop)
            },
        )?;
        let names_given = if milp_names.is_empty() && (with_dp || with_sparse) {
            Vec::new()
        } else {
            names("formulations", &milp_names, &formulation_names, |name| {
                name.parse::<FormulationName>()
                    .map_err(|_| unknown("formulations", name, &formulation_names))
            })?
        };
        if let Some(extra) = self.parameters.keys().find(|n| !names_given.contains(n)) {
            return Err(Error::parameter(
                "grid",
                format!("parameters are given for {extra}, which the grid does not run"),
            ));
        }
        let mut formulations = Vec::new();
        for name in names_given {
            let settings = match self.parameters.get(&name) {
                Some(settings) => settings.clone(),
                None => vec![FormulationParams::defaults(name)],
            };
            for setting in settings {
                if formulations.contains(&setting) {
                    return Err(Error::parameter(
                        format!("{name} parameters"),
                        format!("{:?} is listed twice", setting.non_default()),
                    ));
                }
                for &depth in depths {
                    setting.check(depth)?;
                }
                formulations.push(setting);
            }
        }
        Ok((formulations, dp, sparse))
    }

    /// The families of the exact search's rows the grid runs (`all`, `solve`'s default, when it
    /// names none).
    fn dp_bounds_settings(&self) -> Result<Vec<DpBounds>> {
        if self.dp_bounds.is_empty() {
            return Ok(vec![DpBounds::default()]);
        }
        let parsed = self
            .dp_bounds
            .iter()
            .map(|name| {
                name.trim().parse::<DpBounds>().map_err(|_| {
                    Error::parameter(
                        "dp-bounds",
                        format!("`{name}` is not one of: none, objective, splits, all"),
                    )
                })
            })
            .collect::<Result<Vec<_>>>()?;
        distinct("dp-bounds", &parsed)
    }

    /// The time limit per solve: required and above 0 (a usable number of seconds it is
    /// already, checked where it entered).
    fn checked_time_limit(&self) -> Result<Duration> {
        let Some(limit) = self.time_limit else {
            return Err(Error::parameter(
                "time-limit",
                "an experiment needs a time limit (seconds per solve)",
            ));
        };
        if limit.is_zero() {
            return Err(Error::parameter(
                "time-limit",
                "0 is not a positive number of seconds: it leaves no time to solve",
            ));
        }
        Ok(limit)
    }

    /// Checks the dataset of `entry` against the grid: the side constraints resolve on it, and
    /// every method prepares it at every depth and seed, with one greedy tree per method and
    /// depth (on the first seed) showing it can learn from it.
    fn check_dataset(
        &self,
        entry: &DatasetEntry,
        data: &Dataset,
        methods: &[MethodSpec],
        (depths, seeds): (&[usize], &[u64]),
    ) -> Result<()> {
        if let Some(spec) = &self.constraints {
            spec.resolve(data).map_err(|e| in_dataset(entry, e))?;
            // The searches take missing values under side constraints; the MILPs do not.
            for method in methods {
                if let MethodSpec::Milp { formulation, .. } = method {
                    data.refuse_missing(&milp_under_constraints(formulation.name().name()))
                        .map_err(|e| in_dataset(entry, e))?;
                }
            }
        }
        for (index, &seed) in seeds.iter().enumerate() {
            for spec in methods {
                for &depth in depths {
                    let method = spec.check(depth)?;
                    let split = prepare(data, seed, self.test_fraction, &method)
                        .map_err(|e| in_dataset(entry, e))?;
                    // One greedy tree per dataset, formulation and depth checks the depth
                    // and that the formulation can learn from the data.
                    if index == 0 {
                        method
                            .greedy_tree(&split.train)
                            .map_err(|e| in_dataset(entry, e))?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The settings of each solver's options, at its index in `solvers`: every solver named must
/// be run by the grid, no setting may be listed twice, and each is checked by the solver as far
/// as it can tell ([`check_solver_options`]).
fn solver_settings(
    given: &BTreeMap<String, Vec<SolverSetting>>,
    solvers: &[SolverKind],
) -> Result<Vec<Vec<SolverSetting>>> {
    let mut by_solver: Vec<Vec<SolverSetting>> = vec![vec![Vec::new()]; solvers.len()];
    for (name, settings) in given {
        let index = name
            .parse::<SolverKind>()
            .ok()
            .and_then(|kind| solvers.iter().position(|&s| s == kind))
            .ok_or_else(|| {
                Error::parameter(
                    "grid",
                    format!("solver options are given for {name}, which the grid does not run"),
                )
            })?;
        for (i, setting) in settings.iter().enumerate() {
            if settings[..i].contains(setting) {
                return Err(Error::parameter(
                    format!("{name} options"),
                    "a setting is listed twice",
                ));
            }
            check_solver_options(solvers[index], setting)?;
        }
        by_solver[index] = settings.clone();
    }
    Ok(by_solver)
}

/// An error about one dataset, naming it.
fn in_dataset(entry: &DatasetEntry, error: Error) -> Error {
    match error {
        Error::Parameter { parameter, message } => Error::Parameter {
            parameter,
            message: format!("{message} (dataset {})", entry.path.display()),
        },
        other => other,
    }
}

/// The settings of the search `name` to run: those given (default: its defaults) when the
/// grid lists it, each distinct and checked at every depth; none when it is not listed, and
/// then no settings may be given.
fn search_settings<P: Clone + PartialEq + Default>(
    name: &str,
    listed: bool,
    given: &Option<Vec<P>>,
    depths: &[usize],
    check: impl Fn(&P, usize) -> Result<()>,
) -> Result<Vec<P>> {
    if !listed {
        if given.is_some() {
            return Err(Error::parameter(
                "grid",
                format!("parameters are given for {name}, which the grid does not run"),
            ));
        }
        return Ok(Vec::new());
    }
    let settings = given.clone().unwrap_or_else(|| vec![P::default()]);
    for (i, setting) in settings.iter().enumerate() {
        if settings[..i].contains(setting) {
            return Err(Error::parameter(
                format!("{name} parameters"),
                "a setting is listed twice",
            ));
        }
        for &depth in depths {
            check(setting, depth)?;
        }
    }
    Ok(settings)
}

fn unknown(list: &str, name: &str, known: &[&str]) -> Error {
    Error::parameter(
        list,
        format!("`{name}` is not one of: {}, all", known.join(", ")),
    )
}

/// The values of a list, checked to be non-empty and without repetitions.
fn distinct<T: Ord + Copy + std::fmt::Display>(list: &str, values: &[T]) -> Result<Vec<T>> {
    if values.is_empty() {
        return Err(Error::parameter(list, "the list is empty"));
    }
    let mut seen = BTreeSet::new();
    for value in values {
        if !seen.insert(*value) {
            return Err(Error::parameter(list, format!("{value} is listed twice")));
        }
    }
    Ok(values.to_vec())
}

/// The values of a list of optional values, checked to be non-empty and without repetitions.
fn distinct_options(list: &str, values: &[Option<usize>]) -> Result<Vec<Option<usize>>> {
    if values.is_empty() {
        return Err(Error::parameter(list, "the list is empty"));
    }
    let mut seen = BTreeSet::new();
    for value in values {
        if !seen.insert(*value) {
            let shown = value.map_or_else(|| "the default".to_string(), |v| v.to_string());
            return Err(Error::parameter(list, format!("{shown} is listed twice")));
        }
    }
    Ok(values.to_vec())
}

/// The parsed entries of a list of names, with `all` standing for every known name.
fn names<T: PartialEq>(
    list: &str,
    given: &[String],
    known: &[&str],
    parse: impl Fn(&str) -> Result<T>,
) -> Result<Vec<T>> {
    if given.is_empty() {
        return Err(Error::parameter(list, "the list is empty"));
    }
    let expanded: Vec<&str> = if given.len() == 1 && given[0].trim() == "all" {
        known.to_vec()
    } else {
        given.iter().map(|name| name.trim()).collect()
    };
    let mut parsed: Vec<T> = Vec::new();
    for name in expanded {
        let value = parse(name)?;
        if parsed.contains(&value) {
            return Err(Error::parameter(list, format!("{name} is listed twice")));
        }
        parsed.push(value);
    }
    Ok(parsed)
}
