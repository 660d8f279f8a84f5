//! The grid file (`milptree experiment --grid grid.toml`): the same grid as the command-line
//! flags, in TOML. Lists may also be given as a single value; relative paths are relative to
//! the file's directory; unknown keys are errors.
//!
//! ```toml
//! datasets = ["datasets/iris.csv", "../shared/datasets"]  # CSV files or directories (required)
//! depths = [2, 3]                                          # required
//! formulations = ["oct", "binoct"]                         # default: "all"
//! solvers = ["highs", "cbc"]                               # default: "all"
//! warm_starts = ["none", "greedy"]                         # default: none and greedy; "all": also dp, best
//! dp_bounds = ["none", "all"]                              # the exact search's rows (default: "all")
//! seeds = [0, 1, 2]                                        # default: [0]
//! threads = [1, 2]                                         # default: the solvers' defaults
//! time_limit = 60                                          # seconds per solve (required)
//! test_fraction = 0.25                                     # default 0.25; 0: no test set
//! certify = 5                                              # seconds, or "off" (default 5)
//! out = "results"                                          # default: --out-dir
//! constraints = "constraints.toml"                         # side constraints of every run (default: none)
//!
//! [oct]                    # a formulation's parameters (default: its defaults)
//! alpha = [0, 0.01]        # a list runs each value: here 2 x 2 settings of OCT
//! min_leaf = [1, 5]
//! [binoct]
//! thresholds = "all"
//! [olct]
//! c = [[1], [1, 10]]       # a list-valued parameter takes a list of lists
//! [dp]                     # the exact search, run when `formulations` lists "dp"
//! max_splits = [3, 7]
//! [sparse]                 # the sparse search (at each depth), when `formulations` lists it
//! leaf_penalty = [0.01, 0.05]
//! [solver_options.cbc]     # a solver's own parameters (`solve --solver-option NAME=VALUE`)
//! cutsOnOff = ["on", "off"]
//! heuristicsOnOff = "off"
//! [solver_options.highs]
//! mip_heuristic_effort = [0.05, 0.3]
//! ```
//!
//! The parameters of a formulation are those of `milptree solve` with `_` for `-`
//! (`min_leaf`, `positive_class`, `big_m`, ...; `refine = false` for `--no-refine`); every
//! combination of the listed values is a setting of its own, with its own run keys. The same
//! holds for a solver's options: every combination is a solver setting, run with every
//! formulation on that solver.
//!
//! `constraints` names a file of side constraints (the TOML of `solve --constraints`) that
//! every run of the grid takes: the MILP formulations every kind, `dp` and `sparse` forbidden
//! features alone (a grid that runs them, or `olct`, under other kinds is refused), in process
//! only (`--emit-jobs` refuses it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::budget::check_seconds;
use crate::constraints::ConstraintSpec;
use crate::error::{Error, Result};
use crate::experiment::grid::{GridSpec, SolverSetting, DEFAULT_CERTIFY, DEFAULT_TEST_FRACTION};
use crate::formulation::{FormulationName, FormulationParams};
use crate::learn::{DpParams, SparseParams};

/// The certificate's budget: seconds, or `"off"`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Certify {
    Seconds(f64),
    Off(String),
}

/// A list, or a single value standing for a list of one.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> OneOrMany<T> {
    fn into_vec(self) -> Vec<T> {
        match self {
            OneOrMany::One(value) => vec![value],
            OneOrMany::Many(values) => values,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    datasets: OneOrMany<PathBuf>,
    depths: OneOrMany<usize>,
    formulations: Option<OneOrMany<String>>,
    solvers: Option<OneOrMany<String>>,
    warm_starts: Option<OneOrMany<String>>,
    dp_bounds: Option<OneOrMany<String>>,
    seeds: Option<OneOrMany<u64>>,
    threads: Option<OneOrMany<usize>>,
    #[serde(deserialize_with = "time_limit")]
    time_limit: Duration,
    test_fraction: Option<f64>,
    certify: Option<Certify>,
    out: Option<PathBuf>,
    oct: Option<BTreeMap<String, Value>>,
    binoct: Option<BTreeMap<String, Value>>,
    olct: Option<BTreeMap<String, Value>>,
    flowoct: Option<BTreeMap<String, Value>>,
    dp: Option<BTreeMap<String, Value>>,
    sparse: Option<BTreeMap<String, Value>>,
    solver_options: Option<BTreeMap<String, BTreeMap<String, Value>>>,
    constraints: Option<PathBuf>,
}

/// The file's `time_limit`, checked as every limit is where it enters
/// ([`check_seconds`]); the file's error names the key and shows its line.
fn time_limit<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> std::result::Result<Duration, D::Error> {
    let seconds = f64::deserialize(deserializer)?;
    check_seconds("time_limit", seconds).map_err(D::Error::custom)
}

/// Every combination of the values a table of parameter lists gives (a list-valued parameter,
/// such as OLCT's `c`, takes a list of lists), as JSON objects; `defaults` (the parameters'
/// defaults as a JSON object) tells which parameters are list-valued. `table` names the table
/// in errors.
fn combinations(
    table: &str,
    lists: &BTreeMap<String, Value>,
    defaults: &Value,
) -> Result<Vec<Value>> {
    let mut combinations = vec![serde_json::Map::new()];
    for (key, value) in lists {
        let list_valued = defaults.get(key).is_some_and(Value::is_array);
        let values: Vec<Value> = match value {
            Value::Array(items) if !list_valued || items.iter().all(Value::is_array) => {
                items.clone()
            }
            single => vec![single.clone()],
        };
        if values.is_empty() {
            return Err(Error::parameter(
                format!("[{table}] {key}"),
                "the list is empty",
            ));
        }
        combinations = combinations
            .into_iter()
            .flat_map(|partial| {
                values.iter().map(move |value| {
                    let mut next = partial.clone();
                    next.insert(key.clone(), value.clone());
                    next
                })
            })
            .collect();
    }
    Ok(combinations.into_iter().map(Value::Object).collect())
}

/// Every setting of formulation `name` that a table of parameter lists describes.
fn settings(
    name: FormulationName,
    table: &BTreeMap<String, Value>,
) -> Result<Vec<FormulationParams>> {
    let defaults = FormulationParams::defaults(name).to_json();
    combinations(name.name(), table, &defaults)?
        .iter()
        .map(|fields| FormulationParams::from_json(name, fields))
        .collect()
}

/// Every setting of the search `name` (`dp`, `sparse`) that a table of parameter lists
/// describes.
fn search_settings<P: Serialize + DeserializeOwned + Default>(
    name: &str,
    table: &BTreeMap<String, Value>,
) -> Result<Vec<P>> {
    let defaults = serde_json::to_value(P::default()).unwrap_or(Value::Null);
    combinations(name, table, &defaults)?
        .into_iter()
        .map(|fields| {
            serde_json::from_value(fields)
                .map_err(|e| Error::parameter(format!("{name} parameters"), e.to_string()))
        })
        .collect()
}

/// Every setting of a solver's options that a table of option lists describes, each as
/// `(name, value)` pairs by name; values are given as text, numbers or booleans.
fn solver_settings(solver: &str, table: &BTreeMap<String, Value>) -> Result<Vec<SolverSetting>> {
    let name = format!("solver_options.{solver}");
    combinations(&name, table, &Value::Null)?
        .iter()
        .map(|setting| {
            let Value::Object(fields) = setting else {
                return Ok(Vec::new());
            };
            fields
                .iter()
                .map(|(option, value)| {
                    let text = match value {
                        Value::String(text) => text.clone(),
                        Value::Number(number) => number.to_string(),
                        Value::Bool(flag) => flag.to_string(),
                        other => {
                            return Err(Error::parameter(
                                format!("[{name}] {option}"),
                                format!("{other} is not a text, number or boolean"),
                            ))
                        }
                    };
                    Ok((option.clone(), text))
                })
                .collect()
        })
        .collect()
}

/// A grid read from a file, with its results directory if the file names one.
#[derive(Debug, Clone, PartialEq)]
pub struct GridFromFile {
    pub spec: GridSpec,
    pub out: Option<PathBuf>,
}

/// Reads the grid file at `path`.
pub fn read_grid_file(path: &Path) -> Result<GridFromFile> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(path.display().to_string(), format!("cannot read: {e}")))?;
    parse_grid(&text, path)
}

/// Parses the text of the grid file at `path` (which anchors relative paths).
pub fn parse_grid(text: &str, path: &Path) -> Result<GridFromFile> {
    let file: GridFile = toml::from_str(text).map_err(|e| Error::Format {
        path: path.display().to_string(),
        message: e.to_string().trim_end().to_string(),
    })?;
    let base = path.parent().unwrap_or(Path::new(""));
    let anchored = |p: PathBuf| if p.is_absolute() { p } else { base.join(p) };
    let all = || vec!["all".to_string()];
    let mut parameters = BTreeMap::new();
    for (name, table) in [
        (FormulationName::Oct, &file.oct),
        (FormulationName::BinOct, &file.binoct),
        (FormulationName::Olct, &file.olct),
        (FormulationName::FlowOct, &file.flowoct),
    ] {
        if let Some(table) = table {
            parameters.insert(name, settings(name, table)?);
        }
    }
    let mut solver_options = BTreeMap::new();
    for (solver, table) in file.solver_options.iter().flatten() {
        solver_options.insert(solver.clone(), solver_settings(solver, table)?);
    }
    Ok(GridFromFile {
        spec: GridSpec {
            datasets: file.datasets.into_vec().into_iter().map(anchored).collect(),
            depths: file.depths.into_vec(),
            formulations: file.formulations.map_or_else(all, OneOrMany::into_vec),
            parameters,
            dp_parameters: (file.dp.as_ref())
                .map(|table| search_settings::<DpParams>("dp", table))
                .transpose()?,
            sparse_parameters: (file.sparse.as_ref())
                .map(|table| search_settings::<SparseParams>("sparse", table))
                .transpose()?,
            threads: file.threads.map_or_else(
                || vec![None],
                |threads| threads.into_vec().into_iter().map(Some).collect(),
            ),
            solvers: file.solvers.map_or_else(all, OneOrMany::into_vec),
            warm_starts: file.warm_starts.map_or_else(
                || vec!["none".to_string(), "greedy".to_string()],
                OneOrMany::into_vec,
            ),
            dp_bounds: file.dp_bounds.map_or_else(Vec::new, OneOrMany::into_vec),
            solver_options,
            seeds: file.seeds.map_or_else(|| vec![0], OneOrMany::into_vec),
            time_limit: Some(file.time_limit),
            test_fraction: file.test_fraction.unwrap_or(DEFAULT_TEST_FRACTION),
            certify: match file.certify {
                None => Some(DEFAULT_CERTIFY),
                Some(Certify::Seconds(seconds)) => Some(check_seconds("certify", seconds)?),
                Some(Certify::Off(text)) if text == "off" => None,
                Some(Certify::Off(text)) => {
                    return Err(Error::Format {
                        path: path.display().to_string(),
                        message: format!("certify = \"{text}\" is neither seconds nor \"off\""),
                    })
                }
            },
            constraints: file
                .constraints
                .map(|p| ConstraintSpec::from_file(&anchored(p)))
                .transpose()?,
        },
        out: file.out.map(anchored),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_parses_with_paths_anchored() {
        let text = r#"
            datasets = ["data/iris.csv", "/abs/wine.csv"]
            depths = [2, 3]
            formulations = "oct"
            solvers = ["highs"]
            warm_starts = ["none", "greedy"]
            seeds = [0, 1]
            time_limit = 60
            test_fraction = 0
            out = "results"
        "#;
        let grid = parse_grid(text, Path::new("grids/small.toml")).expect("parses");
        assert_eq!(
            grid.spec.datasets,
            vec![
                PathBuf::from("grids/data/iris.csv"),
                PathBuf::from("/abs/wine.csv")
            ]
        );
        assert_eq!(grid.spec.depths, vec![2, 3]);
        assert_eq!(grid.spec.formulations, vec!["oct".to_string()]);
        assert_eq!(grid.spec.time_limit, Some(Duration::from_secs(60)));
        assert_eq!(grid.spec.test_fraction, 0.0);
        assert_eq!(grid.out, Some(PathBuf::from("grids/results")));
    }

    #[test]
    fn formulation_tables_expand_into_settings() {
        let text = r#"
            datasets = "a.csv"
            depths = 2
            time_limit = 1
            threads = [1, 2]
            [oct]
            alpha = [0, 0.5]
            min_leaf = [1, 3]
            [olct]
            c = [[1], [1, 10]]
            univariate = true
        "#;
        let grid = parse_grid(text, Path::new("g.toml")).expect("parses");
        assert_eq!(grid.spec.threads, vec![Some(1), Some(2)]);
        let oct = &grid.spec.parameters[&FormulationName::Oct];
        assert_eq!(oct.len(), 4);
        let texts: Vec<Vec<(String, String)>> = oct.iter().map(|p| p.non_default()).collect();
        assert!(texts.contains(&vec![
            ("alpha".to_string(), "0.5".to_string()),
            ("min_leaf".to_string(), "3".to_string())
        ]));
        assert!(texts.contains(&Vec::new()));
        let olct = &grid.spec.parameters[&FormulationName::Olct];
        assert_eq!(olct.len(), 2);
        assert_eq!(
            olct[1].non_default(),
            vec![
                ("c".to_string(), "1,10".to_string()),
                ("univariate".to_string(), "true".to_string())
            ]
        );
        // A flat list of a list-valued parameter is one value.
        let grid = parse_grid(
            "datasets = \"a.csv\"\ndepths = 2\ntime_limit = 1\n[olct]\nc = [1, 10]\n",
            Path::new("g.toml"),
        )
        .expect("parses");
        assert_eq!(grid.spec.parameters[&FormulationName::Olct].len(), 1);
        let error = parse_grid(
            "datasets = \"a.csv\"\ndepths = 2\ntime_limit = 1\n[oct]\nalpah = 1\n",
            Path::new("g.toml"),
        )
        .expect_err("an unknown parameter");
        assert!(error.to_string().contains("alpah"), "{error}");
    }

    #[test]
    fn solver_option_tables_expand_into_settings() {
        let text = r#"
            datasets = "a.csv"
            depths = 2
            time_limit = 1
            [solver_options.cbc]
            cutsOnOff = ["on", "off"]
            heuristicsOnOff = "off"
            [solver_options.highs]
            mip_heuristic_effort = [0.05, 0.3]
            presolve = "off"
            mip_max_nodes = 10
            mip_detect_symmetry = false
        "#;
        let grid = parse_grid(text, Path::new("g.toml")).expect("parses");
        let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
        assert_eq!(
            grid.spec.solver_options["cbc"],
            vec![
                vec![pair("cutsOnOff", "on"), pair("heuristicsOnOff", "off")],
                vec![pair("cutsOnOff", "off"), pair("heuristicsOnOff", "off")],
            ]
        );
        let highs = &grid.spec.solver_options["highs"];
        assert_eq!(highs.len(), 2);
        assert_eq!(
            highs[1],
            vec![
                pair("mip_detect_symmetry", "false"),
                pair("mip_heuristic_effort", "0.3"),
                pair("mip_max_nodes", "10"),
                pair("presolve", "off"),
            ]
        );
        let error = parse_grid(
            "datasets = \"a.csv\"\ndepths = 2\ntime_limit = 1\n[solver_options.cbc]\ncuts = { a = 1 }\n",
            Path::new("g.toml"),
        )
        .expect_err("a table is not an option value");
        assert!(
            error.to_string().contains("[solver_options.cbc] cuts"),
            "{error}"
        );
        let grid = parse_grid(
            "datasets = \"a.csv\"\ndepths = 2\ntime_limit = 1\n",
            Path::new("g.toml"),
        )
        .expect("parses");
        assert!(grid.spec.solver_options.is_empty());
    }

    #[test]
    fn defaults_and_errors() {
        let grid = parse_grid(
            "datasets = \"a.csv\"\ndepths = 1\ntime_limit = 0.5\n",
            Path::new("g.toml"),
        )
        .expect("parses");
        assert_eq!(grid.spec.seeds, vec![0]);
        assert_eq!(grid.spec.solvers, vec!["all".to_string()]);
        assert_eq!(grid.spec.test_fraction, DEFAULT_TEST_FRACTION);
        let error = parse_grid(
            "datasets = \"a.csv\"\ndepths = 1\ntime_limit = 1\ndepht = 2\n",
            Path::new("g.toml"),
        )
        .expect_err("an unknown key");
        assert!(error.to_string().contains("depht"), "{error}");
        let error = parse_grid("datasets = \"a.csv\"\ndepths = 1\n", Path::new("g.toml"))
            .expect_err("no time limit");
        assert!(error.to_string().contains("time_limit"), "{error}");
    }
}
