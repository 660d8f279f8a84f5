//! A tuning run's directory (`--out-dir DIR`), which makes the run resumable:
//!
//! - `settings.json`: what the fits depend on (the training rows' fingerprint and schema, seed,
//!   folds, repeats, method and its fixed parameters, time limit); a second run in the same
//!   directory must have the same;
//! - `fits.jsonl`: one [`Fit`] per line, appended as each fit ends, so an interrupted run
//!   loses at most the fits that were running; a line that does not parse (cut short) is
//!   fitted again;
//! - `fits/`: each fit's tree, `<configuration>-r<repeat>-f<fold>.json`;
//! - `folds.csv`: the fold of every training row (`row` counts the training rows from 0, in the
//!   data's order) in every repeat.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::tree::Tree;
use crate::tune::fit::Fit;

/// An open run directory.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    fits: Mutex<File>,
    existing: Vec<Fit>,
}

fn output_error(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.display().to_string(),
        source,
    }
}

impl Store {
    /// Opens `dir` for a run with `settings`: creates it, or, when it holds a run, checks that
    /// the settings are the same and reads the fits it has.
    pub fn open(dir: &Path, settings: &serde_json::Value) -> Result<Store> {
        std::fs::create_dir_all(dir.join("fits")).map_err(|e| output_error(dir, e))?;
        let settings_path = dir.join("settings.json");
        match std::fs::read_to_string(&settings_path) {
            Ok(text) => {
                let stored: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
                    Error::input(settings_path.display().to_string(), e.to_string())
                })?;
                if &stored != settings {
                    return Err(Error::parameter(
                        "--out-dir",
                        format!(
                            "{} holds a tuning run with other settings ({}); give another \
                             directory, or remove it to start again",
                            dir.display(),
                            differences(&stored, settings).join(", ")
                        ),
                    ));
                }
            }
            Err(_) => {
                let text = serde_json::to_string_pretty(settings)
                    .map_err(|e| Error::Internal(e.to_string()))?;
                std::fs::write(&settings_path, text)
                    .map_err(|e| output_error(&settings_path, e))?;
            }
        }
        let fits_path = dir.join("fits.jsonl");
        let existing = match std::fs::read_to_string(&fits_path) {
            Ok(text) => text
                .lines()
                .filter_map(|line| serde_json::from_str::<Fit>(line).ok())
                .collect(),
            Err(_) => Vec::new(),
        };
        // A last line cut short gets its newline, so that the next fit starts a line.
        if let Ok(text) = std::fs::read_to_string(&fits_path) {
            if !text.is_empty() && !text.ends_with('\n') {
                let mut file = OpenOptions::new()
                    .append(true)
                    .open(&fits_path)
                    .map_err(|e| output_error(&fits_path, e))?;
                file.write_all(b"\n")
                    .map_err(|e| output_error(&fits_path, e))?;
            }
        }
        let fits = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&fits_path)
            .map_err(|e| output_error(&fits_path, e))?;
        Ok(Store {
            dir: dir.to_path_buf(),
            fits: Mutex::new(fits),
            existing,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The fits the directory held when it was opened.
    pub fn existing(&self) -> &[Fit] {
        &self.existing
    }

    /// Stores `tree` (if any) under `fits/`, notes its file in `fit`, and appends `fit` to
    /// `fits.jsonl`.
    pub fn record(&self, fit: &mut Fit, tree: Option<&Tree>) -> Result<()> {
        if let Some(tree) = tree {
            let name = format!(
                "fits/{}-r{}-f{}.json",
                file_stem(&fit.config),
                fit.repeat,
                fit.fold
            );
            let path = self.dir.join(&name);
            std::fs::write(&path, tree.to_json_string()).map_err(|e| output_error(&path, e))?;
            fit.tree_file = Some(name);
        }
        let line = serde_json::to_string(fit).map_err(|e| Error::Internal(e.to_string()))?;
        let path = self.dir.join("fits.jsonl");
        let mut file = self
            .fits
            .lock()
            .map_err(|_| Error::Internal("the fits file's lock is poisoned".into()))?;
        writeln!(file, "{line}")
            .and_then(|()| file.flush())
            .map_err(|e| output_error(&path, e))
    }

    /// Writes `contents` to `name` in the directory; returns its path.
    pub fn write(&self, name: &str, contents: &str) -> Result<PathBuf> {
        let path = self.dir.join(name);
        std::fs::write(&path, contents).map_err(|e| output_error(&path, e))?;
        Ok(path)
    }
}

/// A configuration's label as a file name: `depth=3_alpha=0.01`.
pub fn file_stem(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '=' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `key: stored -> now` for each top-level setting that differs.
fn differences(stored: &serde_json::Value, now: &serde_json::Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let (a, b) = (
        stored.as_object().unwrap_or(&empty),
        now.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let show = |v: Option<&serde_json::Value>| {
                let text = v.map_or("none".into(), |v| v.to_string());
                match text.char_indices().nth(60) {
                    Some((end, _)) => format!("{}...", &text[..end]),
                    None => text,
                }
            };
            format!("{k}: {} then, {} now", show(a.get(k)), show(b.get(k)))
        })
        .collect()
}
