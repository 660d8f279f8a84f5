//! The grid file (`milptree experiment --grid grid.toml`): the same grid as the command-line
//! flags, in TOML. Lists may also be given as a single value; relative paths are relative to
//! the file's directory; unknown keys are errors.
//!
//! ```toml
//! datasets = ["datasets/iris.csv", "../shared/datasets"]  # CSV files or directories (required)
//! depths = [2, 3]                                          # required
//! formulations = ["oct", "binoct"]                         # default: "all"
//! solvers = ["highs", "cbc"]                               # default: "all"
//! warm_starts = ["none", "greedy"]                         # default: both
//! seeds = [0, 1, 2]                                        # default: [0]
//! time_limit = 60                                          # seconds per solve (required)
//! test_fraction = 0.25                                     # default 0.25; 0: no test set
//! out = "results"                                          # default: --out
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::experiment::grid::{GridSpec, DEFAULT_TEST_FRACTION};

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
    seeds: Option<OneOrMany<u64>>,
    time_limit: f64,
    test_fraction: Option<f64>,
    out: Option<PathBuf>,
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
    Ok(GridFromFile {
        spec: GridSpec {
            datasets: file.datasets.into_vec().into_iter().map(anchored).collect(),
            depths: file.depths.into_vec(),
            formulations: file.formulations.map_or_else(all, OneOrMany::into_vec),
            solvers: file.solvers.map_or_else(all, OneOrMany::into_vec),
            warm_starts: file.warm_starts.map_or_else(all, OneOrMany::into_vec),
            seeds: file.seeds.map_or_else(|| vec![0], OneOrMany::into_vec),
            time_limit: Some(file.time_limit),
            test_fraction: file.test_fraction.unwrap_or(DEFAULT_TEST_FRACTION),
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
        assert_eq!(grid.spec.time_limit, Some(60.0));
        assert_eq!(grid.spec.test_fraction, 0.0);
        assert_eq!(grid.out, Some(PathBuf::from("grids/results")));
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
