//! The results directory and what it holds:
//!
//! ```text
//! runs.jsonl              one row per run (JSON lines): the record a rerun resumes from
//! runs.csv                the same rows as CSV
//! trajectories/<key>.csv  incumbent and bound over time of each run
//! jobs/<key>.json         outputs of emitted `milptree solve` jobs (see `jobs`)
//! claims/<key>.claim      runs being solved now (see `claim`)
//! plots/                  figures, SVG and PNG
//! summary.md              the Markdown summary
//! runs.lock               the lock of the tables
//! ```
//!
//! Rows are kept sorted by dataset, depth, seed, formulation, solver and warm start. Both tables
//! are rewritten whole (through a temporary file and a rename, so an interrupted write leaves
//! the previous version) after every run, with the primal integrals recomputed against the
//! best objective now known for each instance.
//!
//! Several processes may write one results directory at once (two grids, or one grid shared
//! by workers on machines that see the same directory): writing the tables is a
//! read-modify-write under an exclusive lock on `runs.lock` (`flock`, through `fs4`) that
//! rereads `runs.jsonl`, adds the rows this process recorded since its last write, and writes
//! both tables, so no process's rows are lost. Runs are claimed before they are solved
//! ([`ResultsStore::claim`]), so no run is solved twice.

mod claim;

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use fs4::FileExt;

use crate::error::{Error, Result};
use crate::experiment::primal_integral::fill_primal_integrals;
use crate::experiment::row::Row;
use crate::experiment::trajectory::{read_trajectory, write_trajectory};
use crate::solver::TrajectoryPoint;

pub use claim::Claim;

/// The results directory of an experiment, with its rows and trajectories in memory.
#[derive(Debug)]
pub struct ResultsStore {
    root: PathBuf,
    rows: Vec<Row>,
    trajectories: HashMap<String, Vec<TrajectoryPoint>>,
    /// Keys of the rows added since the tables were last written.
    pending: Vec<String>,
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
            pending: Vec::new(),
            warnings: Vec::new(),
        };
        for dir in [store.trajectories_dir(), store.claims_dir()] {
            fs::create_dir_all(&dir).map_err(|e| output_error(&dir, e))?;
        }
        store.reload()?;
        Ok(store)
    }

    /// Rereads the rows of `runs.jsonl` (and the trajectories of rows not known yet), keeping
    /// the rows added here since the last write.
    fn reload(&mut self) -> Result<()> {
        let runs = self.runs_jsonl();
        let mut rows = Vec::new();
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
                    Ok(row) => rows.push(row),
                    Err(e) if index + 1 == lines.len() && !text.ends_with('\n') => {
                        self.warnings.push(format!(
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
        let mine: Vec<Row> = self
            .rows
            .iter()
            .filter(|row| self.pending.contains(&row.run_key))
            .cloned()
            .collect();
        rows.retain(|row| !self.pending.contains(&row.run_key));
        for row in &rows {
            let known = self
                .rows
                .iter()
                .any(|r| r.run_key == row.run_key && r.trajectory_points == row.trajectory_points);
            if known && self.trajectories.contains_key(&row.run_key) {
                continue;
            }
            let path = self.trajectory_path(&row.run_key);
            let points = if row.trajectory_points == 0 {
                Vec::new()
            } else {
                match read_trajectory(&path) {
                    Ok(points) => points,
                    Err(e) => {
                        self.warnings.push(format!(
                            "{e}; the primal integral of {} is left empty",
                            row.run_key
                        ));
                        Vec::new()
                    }
                }
            };
            self.trajectories.insert(row.run_key.clone(), points);
        }
        rows.extend(mine);
        rows.sort_by_key(table_order);
        self.trajectories
            .retain(|key, _| rows.iter().any(|row| &row.run_key == key));
        self.rows = rows;
        Ok(())
    }

    /// Takes the lock of the tables (released when the file is dropped).
    fn lock(&self) -> Result<File> {
        let path = self.root.join("runs.lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| output_error(&path, e))?;
        FileExt::lock(&file).map_err(|e| output_error(&path, e))?;
        Ok(file)
    }

    /// Claims the run `key` for this process (see the `claim` module): `None` when the run is
    /// recorded (the rows are reread first) or another live worker is solving it. Hold the
    /// claim until the run is recorded.
    pub fn claim(&mut self, key: &str) -> Result<Option<Claim>> {
        let Some(claim) = Claim::try_take(&self.claims_dir().join(format!("{key}.claim")))? else {
            return Ok(None);
        };
        {
            let _lock = self.lock()?;
            self.reload()?;
        }
        Ok((!self.contains(key)).then_some(claim))
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

    pub fn claims_dir(&self) -> PathBuf {
        self.root.join("claims")
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
        if !self.pending.contains(&row.run_key) {
            self.pending.push(row.run_key.clone());
        }
        self.rows.push(row);
        self.rows.sort_by_key(table_order);
        Ok(())
    }

    /// Under the lock of the tables: rereads the rows others wrote, adds this process's new
    /// ones, recomputes the primal integrals and writes `runs.jsonl` and `runs.csv`.
    pub fn write_tables(&mut self) -> Result<()> {
        let _lock = self.lock()?;
        self.reload()?;
        self.pending.clear();
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
        row.solver_label(),
        row.warm_start.to_string(),
        row.run_key.clone(),
    )
}

/// Writes `bytes` to `path` through a temporary file next to it (named after this process, so
/// that processes writing the same file do not share one) and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(
        ".{}.{}.tmp",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    let temporary = PathBuf::from(temporary);
    let mut file = fs::File::create(&temporary).map_err(|e| output_error(&temporary, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| output_error(&temporary, e))?;
    fs::rename(&temporary, path).map_err(|e| output_error(path, e))
}
