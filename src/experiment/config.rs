//! One configuration of an experiment grid ([`RunConfig`]) and its run key, the stable name
//! under which its results are stored and by which a rerun recognises it as done.

use std::path::PathBuf;
use std::time::Duration;

use crate::budget::seconds_of;
use crate::constraints::ConstraintSpec;
use crate::error::Result;
use crate::experiment::grid_constraints::key_tag;
use crate::learn::search_rows::DpBounds;
use crate::learn::{Method, MethodSpec, WarmStartMode};

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

/// `solver` with `options` in brackets (`_` written `-`, values made safe for file names), or
/// `solver` alone without options.
pub fn solver_label(solver: &str, options: &[(String, String)]) -> String {
    if options.is_empty() {
        return solver.to_string();
    }
    let options: Vec<String> = options
        .iter()
        .map(|(name, value)| format!("{}={}", safe_name(name), safe_name(value)))
        .collect();
    format!("{solver}[{}]", options.join(",").replace('_', "-"))
}

/// One run of a grid: every parameter that decides what is solved and how.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    pub dataset: DatasetEntry,
    /// The method (a formulation on a solver, or the exact search) and its parameters
    /// (besides the depth).
    pub method: MethodSpec,
    /// The solver's own options (`solve --solver-option NAME=VALUE`), set after milptree's;
    /// none for the exact search.
    pub solver_options: Vec<(String, String)>,
    pub depth: usize,
    /// The warm start (`none` for the exact search, which finds its own).
    pub warm_start: WarmStartMode,
    /// The exact search's rows in a MILP (`solve --dp-bounds`; the default, `all`, for the
    /// searches, which have none).
    pub dp_bounds: DpBounds,
    /// Seed of the train/test split.
    pub seed: u64,
    /// Fraction of rows held out as the test set; `0`: no test set.
    pub test_fraction: f64,
    /// Wall-clock limit of the solve.
    pub time_limit: Duration,
    /// Solver threads; `None`: the solver's default.
    pub threads: Option<usize>,
    /// Side constraints the run takes; `None`: none.
    pub constraints: Option<ConstraintSpec>,
}

impl RunConfig {
    /// The run key: every grid parameter in a fixed order, e.g.
    /// `iris_oct_d2_highs_greedy_s0_t60_f0.25`. Parameters that differ from the formulation's
    /// defaults follow its name in brackets (`oct[alpha=0.01,min-leaf=2]`), solver options the
    /// solver's (`cbc[cutsOnOff=off]`, `highs[mip-heuristic-effort=0.3]`), a thread count
    /// follows (`_j2`), then the exact search's rows other than the default (`_bnone`,
    /// `_bsplits`), and side constraints end the key (`_c` and a hash of them, see
    /// [`key_tag`]), so keys of default runs stay the same as grids gain axes. The
    /// dataset name comes first and may itself contain `_`; the fields after it never do, so
    /// distinct configurations (with distinct dataset names) have distinct keys. Numbers use
    /// Rust's shortest round-trip decimal form, which does not change between versions; the
    /// time limit is the number of seconds given ([`seconds_of`] its duration).
    pub fn key(&self) -> String {
        let mut key = format!(
            "{}_{}_d{}_{}_{}_s{}_t{}_f{}",
            self.dataset.name,
            self.method_name(),
            self.depth,
            self.solver_label(),
            self.warm_start,
            self.seed,
            seconds_of(self.time_limit),
            self.test_fraction
        );
        if let Some(threads) = self.threads {
            key.push_str(&format!("_j{threads}"));
        }
        if self.dp_bounds != DpBounds::default() {
            key.push_str(&format!("_b{}", self.dp_bounds));
        }
        if let Some(spec) = &self.constraints {
            key.push_str(&key_tag(spec));
        }
        key
    }

    /// The method's name with its non-default parameters, e.g. `oct[alpha=0.01]`.
    pub fn method_name(&self) -> String {
        let name = self.method.name().to_string();
        let changed = self.method.non_default();
        if changed.is_empty() {
            return name;
        }
        let parameters: Vec<String> = changed
            .iter()
            .map(|(key, value)| format!("{}={}", key.replace('_', "-"), safe_name(value)))
            .collect();
        format!("{name}[{}]", parameters.join(",").replace('_', "-"))
    }

    /// The solver's name with the run's solver options, e.g. `cbc[cutsOnOff=off]`.
    pub fn solver_label(&self) -> String {
        solver_label(self.method.solver_name(), &self.solver_options)
    }

    /// The method of the run, its parameters checked.
    pub fn checked_method(&self) -> Result<Method> {
        self.method.check(self.depth)
    }

    /// A short human description for progress lines.
    pub fn describe(&self) -> String {
        let rows = match self.dp_bounds {
            DpBounds::All => String::new(),
            other => format!(" · dp bounds {other}"),
        };
        format!(
            "{} · {} depth {} · {} · warm start {}{rows} · seed {}",
            self.dataset.name,
            self.method_name(),
            self.depth,
            self.solver_label(),
            self.warm_start,
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formulation::binoct::BinOctParams;
    use crate::formulation::oct::OctParams;
    use crate::formulation::{FormulationName, FormulationParams};
    use crate::solver::SolverKind;

    fn config() -> RunConfig {
        RunConfig {
            dataset: DatasetEntry::from_path(PathBuf::from("data/breast cancer.csv")),
            method: MethodSpec::Milp {
                formulation: FormulationParams::defaults(FormulationName::Oct),
                solver: SolverKind::Cbc,
            },
            solver_options: Vec::new(),
            depth: 2,
            warm_start: WarmStartMode::Greedy,
            dp_bounds: DpBounds::All,
            seed: 3,
            test_fraction: 0.25,
            time_limit: Duration::from_millis(500),
            threads: None,
            constraints: None,
        }
    }

    #[test]
    fn the_key_names_every_parameter() {
        assert_eq!(
            config().key(),
            "breast-cancer_oct_d2_cbc_greedy_s3_t0.5_f0.25"
        );
        let mut other = config();
        other.time_limit = Duration::from_secs(60);
        other.test_fraction = 0.0;
        assert_eq!(other.key(), "breast-cancer_oct_d2_cbc_greedy_s3_t60_f0");
    }

    #[test]
    fn a_grid_files_time_limit_keeps_the_keys_it_gave_as_seconds() {
        let key_with = |seconds: &str| {
            let text = format!("datasets = \"a.csv\"\ndepths = 2\ntime_limit = {seconds}\n");
            let grid =
                crate::experiment::grid_file::parse_grid(&text, "g.toml".as_ref()).expect("parses");
            let mut config = config();
            config.time_limit = grid.spec.time_limit.expect("a limit");
            config.key()
        };
        for (seconds, key) in [
            ("0.1", "breast-cancer_oct_d2_cbc_greedy_s3_t0.1_f0.25"),
            ("1", "breast-cancer_oct_d2_cbc_greedy_s3_t1_f0.25"),
            ("2.5", "breast-cancer_oct_d2_cbc_greedy_s3_t2.5_f0.25"),
            ("30", "breast-cancer_oct_d2_cbc_greedy_s3_t30_f0.25"),
            ("30.0", "breast-cancer_oct_d2_cbc_greedy_s3_t30_f0.25"),
            ("1.118", "breast-cancer_oct_d2_cbc_greedy_s3_t1.118_f0.25"),
            ("3e3", "breast-cancer_oct_d2_cbc_greedy_s3_t3000_f0.25"),
        ] {
            assert_eq!(key_with(seconds), key);
        }
        // The key as it was written from the number itself.
        for seconds in [
            "0.001",
            "0.3",
            "7.77",
            "59.999",
            "86400.25",
            "123456.789",
            "1e9",
        ] {
            let number: f64 = seconds.parse().expect("a number");
            assert_eq!(
                key_with(seconds),
                format!("breast-cancer_oct_d2_cbc_greedy_s3_t{number}_f0.25")
            );
        }
    }

    #[test]
    fn non_default_parameters_and_threads_extend_the_key() {
        let mut other = config();
        other.method = MethodSpec::Milp {
            formulation: FormulationParams::Oct(OctParams {
                alpha: 0.01,
                min_leaf: 2,
                ..OctParams::default()
            }),
            solver: SolverKind::Cbc,
        };
        other.threads = Some(2);
        assert_eq!(
            other.key(),
            "breast-cancer_oct[alpha=0.01,min-leaf=2]_d2_cbc_greedy_s3_t0.5_f0.25_j2"
        );
        other.dp_bounds = DpBounds::None;
        assert_eq!(
            other.key(),
            "breast-cancer_oct[alpha=0.01,min-leaf=2]_d2_cbc_greedy_s3_t0.5_f0.25_j2_bnone"
        );
        let mut binoct = config();
        binoct.method = MethodSpec::Milp {
            formulation: FormulationParams::BinOct(BinOctParams {
                thresholds: crate::data::ThresholdMode::All,
                ..BinOctParams::default()
            }),
            solver: SolverKind::Highs,
        };
        assert_eq!(binoct.method_name(), "binoct[thresholds=all]");
        binoct.solver_options = vec![
            ("mip_heuristic_effort".to_string(), "0.3".to_string()),
            ("presolve".to_string(), "off".to_string()),
        ];
        assert_eq!(
            binoct.key(),
            "breast-cancer_binoct[thresholds=all]_d2_highs[mip-heuristic-effort=0.3,presolve=off]_greedy_s3_t0.5_f0.25"
        );
        let mut dp = config();
        dp.method = MethodSpec::Dp(crate::learn::DpParams {
            max_splits: Some(3),
            ..Default::default()
        });
        dp.warm_start = WarmStartMode::None;
        assert_eq!(
            dp.key(),
            "breast-cancer_dp[max-splits=3]_d2_dp_none_s3_t0.5_f0.25"
        );
    }
}
