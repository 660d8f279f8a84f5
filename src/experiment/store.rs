//! The results directory and what it holds:
//!
//! ```text
//! runs.jsonl              one row per run (JSON lines): the record a rerun resumes from
//! runs.csv                the same rows as CSV
//! trajectories/<key>.csv  incumbent and bound over time of each run
//! jobs/<key>.json         outputs of emitted `milptree solve` jobs (see `jobs`)
//! plots/                  figures, SVG and PNG
//! summary.md              the Markdown summary
//! ```
//!
//! Rows are kept sorted by dataset, depth, seed, formulation, solver and warm start. Both tables
//! are rewritten whole (through a temporary file and a rename, so an interrupted write leaves
//! the previous version) after every run, with the primal integrals recomputed against the
//! best objective now known for each instance.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::experiment::primal_integral::fill_primal_integrals;
use crate::experiment::row::Row;
use crate::experiment::trajectory::{read_trajectory, write_trajectory};
use crate::solver::TrajectoryPoint;

/// The results directory of an experiment, with its rows and trajectories in memory.
#[derive(Debug)]
pub struct ResultsStore {
    root: PathBuf,
    rows: Vec<Row>,
    trajectories: HashMap<String, Vec<TrajectoryPoint>>,
    /// Problems found while reading the directory (a truncated last line, a missing
    /// trajectory file), for the caller to show.
    pub warnings: Vec<String>,
}

fn output_error(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.display().to_string(),
        source,
    }
}

impl ResultsStore {
    /// Opens (creating it if needed) the results directory `root` and reads its rows.
    pub fn open(root: &Path) -> Result<ResultsStore> {
        let mut store = ResultsStore {
            root: root.to_path_buf(),
            rows: Vec::new(),
            trajectories: HashMap::new(),
            warnings: Vec::new(),
        };
        fs::create_dir_all(store.trajectories_dir())
            .map_err(|e| output_error(&store.trajectories_dir(), e))?;
        let runs = store.runs_jsonl();
        if runs.exists() {
            let text = fs::read_to_string(&runs).map_err(|e| Error::Format {
                path: runs.display().to_string(),
                message: format!("cannot read: {e}"),
            })?;
            let lines: Vec<&str> = text.lines().collect();
            for (index, line) in lines.iter().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Row>(line) {
                    Ok(row) => store.rows.push(row),
                    Err(e) if index + 1 == lines.len() && !text.ends_with('\n') => {
                        store.warnings.push(format!(
                            "{}: the last line is incomplete ({e}); that run will be redone",
                            runs.display()
                        ));
                    }
                    Err(e) => {
                        return Err(Error::Format {
                            path: runs.display().to_string(),
                            message: format!("line {}: {e}", index + 1),
                        })
                    }
                }
            }
        }
        for row in &store.rows {
            let path = store.trajectory_path(&row.run_key);
            let points = if row.trajectory_points == 0 {
                Vec::new()
            } else {
                match read_trajectory(&path) {
                    Ok(points) => points,
                    Err(e) => {
                        store.warnings.push(format!(
                            "{e}; the primal integral of {} is left empty",
                            row.run_key
                        ));
                        Vec::new()
                    }
                }
            };
            store.trajectories.insert(row.run_key.clone(), points);
        }
        Ok(store)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn runs_jsonl(&self) -> PathBuf {
        self.root.join("runs.jsonl")
    }

    pub fn runs_csv(&self) -> PathBuf {
        self.root.join("runs.csv")
    }

    pub fn trajectories_dir(&self) -> PathBuf {
        self.root.join("trajectories")
    }

    pub fn trajectory_path(&self, key: &str) -> PathBuf {
        self.trajectories_dir().join(format!("{key}.csv"))
    }

    pub fn jobs_dir(&self) -> PathBuf {
        self.root.join("jobs")
    }

    pub fn plots_dir(&self) -> PathBuf {
        self.root.join("plots")
    }

    pub fn summary_path(&self) -> PathBuf {
        self.root.join("summary.md")
    }

    /// Whether a run with this key is recorded.
    pub fn contains(&self, key: &str) -> bool {
        self.rows.iter().any(|row| row.run_key == key)
    }

    /// The rows, in table order.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The trajectory of the run `key` (empty when unknown).
    pub fn trajectory(&self, key: &str) -> &[TrajectoryPoint] {
        self.trajectories.get(key).map_or(&[], Vec::as_slice)
    }

    /// The trajectories of every run, by run key.
    pub fn trajectories(&self) -> &HashMap<String, Vec<TrajectoryPoint>> {
        &self.trajectories
    }

    /// Records a run (replacing a row with the same key) and writes its trajectory file. The
    /// tables are written by [`ResultsStore::write_tables`].
    pub fn add(&mut self, row: Row, trajectory: Vec<TrajectoryPoint>) -> Result<()> {
        if !trajectory.is_empty() {
            write_trajectory(&self.trajectory_path(&row.run_key), &trajectory)?;
        }
        self.trajectories.insert(row.run_key.clone(), trajectory);
        self.rows.retain(|other| other.run_key != row.run_key);
        self.rows.push(row);
        self.rows.sort_by_key(table_order);
        Ok(())
    }

    /// Recomputes the primal integrals and writes `runs.jsonl` and `runs.csv`.
    pub fn write_tables(&mut self) -> Result<()> {
        fill_primal_integrals(&mut self.rows, &self.trajectories);
        let mut jsonl = String::new();
        for row in &self.rows {
            let line = serde_json::to_string(row)
                .map_err(|e| Error::Internal(format!("a row does not serialise: {e}")))?;
            jsonl.push_str(&line);
            jsonl.push('\n');
        }
        write_atomically(&self.runs_jsonl(), jsonl.as_bytes())?;
        let csv_path = self.runs_csv();
        let mut writer = csv::Writer::from_writer(Vec::new());
        if self.rows.is_empty() {
            writer
                .write_record(Row::column_names())
                .map_err(|e| output_error(&csv_path, e.into()))?;
        }
        for row in &self.rows {
            writer
                .serialize(row)
                .map_err(|e| output_error(&csv_path, e.into()))?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|e| output_error(&csv_path, std::io::Error::other(e.to_string())))?;
        write_atomically(&csv_path, &bytes)
    }
}

fn table_order(row: &Row) -> (String, usize, u64, String, String, String, String) {
    (
        row.dataset.clone(),
        row.depth,
        row.seed,
        row.formulation.clone(),
        row.solver.clone(),
        row.warm_start.to_string(),
        row.run_key.clone(),
    )
}

/// Writes `bytes` to `path` through a temporary file next to it and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let mut file = fs::File::create(&temporary).map_err(|e| output_error(&temporary, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| output_error(&temporary, e))?;
    fs::rename(&temporary, path).map_err(|e| output_error(path, e))
}
