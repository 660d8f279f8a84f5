//! One configuration of an experiment grid ([`RunConfig`]) and its run key, the stable name
//! under which its results are stored and by which a rerun recognises it as done.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::solver::SolverKind;

/// Whether a run starts from the formulation's greedy tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarmStartMode {
    /// No warm start ("cold").
    None,
    /// The formulation's greedy tree.
    Greedy,
}

impl WarmStartMode {
    /// Both modes, cold first.
    pub const ALL: [WarmStartMode; 2] = [WarmStartMode::None, WarmStartMode::Greedy];

    /// `none` or `greedy`, as `milptree solve --warm-start` spells it.
    pub fn name(self) -> &'static str {
        match self {
            WarmStartMode::None => "none",
            WarmStartMode::Greedy => "greedy",
        }
    }
}

impl fmt::Display for WarmStartMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WarmStartMode {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        match text {
            "none" => Ok(WarmStartMode::None),
            "greedy" => Ok(WarmStartMode::Greedy),
            other => Err(Error::parameter(
                "warm start",
                format!("`{other}` is not one of: none, greedy"),
            )),
        }
    }
}

/// A dataset of the grid: its short name (the file stem, made safe for file names) and path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetEntry {
    pub name: String,
    pub path: PathBuf,
}

impl DatasetEntry {
    /// The entry for the CSV file at `path`, named after its file stem.
    pub fn from_path(path: PathBuf) -> DatasetEntry {
        let stem = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        DatasetEntry {
            name: safe_name(&stem),
            path,
        }
    }
}

/// `text` with every character other than ASCII letters, digits, `.`, `-` and `_` replaced by
/// `-`, so that it can be part of a file name on any system.
pub fn safe_name(text: &str) -> String {
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "-".to_string()
    } else {
        name
    }
}

/// One run of a grid: every parameter that decides what is solved and how.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    pub dataset: DatasetEntry,
    /// The formulation's name (`oct`, ...), with its default parameters.
    pub formulation: String,
    pub depth: usize,
    pub solver: SolverKind,
    pub warm_start: WarmStartMode,
    /// Seed of the train/test split.
    pub seed: u64,
    /// Fraction of rows held out as the test set; `0`: no test set.
    pub test_fraction: f64,
    /// Wall-clock limit of the solve, in seconds.
    pub time_limit: f64,
}

impl RunConfig {
    /// The run key: every grid parameter in a fixed order, e.g.
    /// `iris_oct_d2_highs_greedy_s0_t60_f0.25`. The dataset name comes first and may itself
    /// contain `_`; the seven fields after it never do, so distinct configurations (with
    /// distinct dataset names) have distinct keys. Numbers use Rust's shortest round-trip
    /// decimal form, which does not change between versions.
    pub fn key(&self) -> String {
        format!(
            "{}_{}_d{}_{}_{}_s{}_t{}_f{}",
            self.dataset.name,
            self.formulation,
            self.depth,
            self.solver,
            self.warm_start,
            self.seed,
            self.time_limit,
            self.test_fraction
        )
    }

    /// A short human description for progress lines.
    pub fn describe(&self) -> String {
        format!(
            "{} · {} depth {} · {} · warm start {} · seed {}",
            self.dataset.name,
            self.formulation,
            self.depth,
            self.solver,
            self.warm_start,
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> RunConfig {
        RunConfig {
            dataset: DatasetEntry::from_path(PathBuf::from("data/breast cancer.csv")),
            formulation: "oct".into(),
            depth: 2,
            solver: SolverKind::Cbc,
            warm_start: WarmStartMode::Greedy,
            seed: 3,
            test_fraction: 0.25,
            time_limit: 0.5,
        }
    }

    #[test]
    fn the_key_names_every_parameter() {
        assert_eq!(
            config().key(),
            "breast-cancer_oct_d2_cbc_greedy_s3_t0.5_f0.25"
        );
        let mut other = config();
        other.time_limit = 60.0;
        other.test_fraction = 0.0;
        assert_eq!(other.key(), "breast-cancer_oct_d2_cbc_greedy_s3_t60_f0");
    }

    #[test]
    fn warm_start_modes_round_trip() {
        for mode in WarmStartMode::ALL {
            assert_eq!(mode.name().parse::<WarmStartMode>().ok(), Some(mode));
        }
        assert!("warm".parse::<WarmStartMode>().is_err());
    }
}
