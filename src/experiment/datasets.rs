//! The datasets of a grid: expanding the given paths (files, or directories of `*.csv` files)
//! into named entries, reading them once, and preparing the data of one run (the stratified
//! train/test split of its seed, prepared for its method), exactly as `milptree solve`
//! prepares it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::data::{read_dataset, Dataset, Sets, TargetColumn};
use crate::error::{Error, Result};
use crate::experiment::config::DatasetEntry;
use crate::learn::Method;

/// The entries for `paths`: a file is one dataset; a directory gives its `*.csv` files in name
/// order. Dataset names must be distinct.
pub fn dataset_entries(paths: &[PathBuf]) -> Result<Vec<DatasetEntry>> {
    let mut entries: Vec<DatasetEntry> = Vec::new();
    for path in paths {
        let files = if path.is_dir() {
            csv_files_in(path)?
        } else if path.is_file() {
            vec![path.clone()]
        } else {
            return Err(Error::input(
                path.display().to_string(),
                "no such file or directory",
            ));
        };
        for file in files {
            let entry = DatasetEntry::from_path(file);
            if let Some(other) = entries.iter().find(|e| e.name == entry.name) {
                return Err(Error::parameter(
                    "datasets",
                    format!(
                        "{} and {} have the same name `{}`; run keys need distinct names",
                        other.path.display(),
                        entry.path.display(),
                        entry.name
                    ),
                ));
            }
            entries.push(entry);
        }
    }
    Ok(entries)
}

fn csv_files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let listing = std::fs::read_dir(dir)
        .map_err(|e| Error::input(dir.display().to_string(), format!("cannot list: {e}")))?;
    let mut files = Vec::new();
    for entry in listing {
        let path = entry
            .map_err(|e| Error::input(dir.display().to_string(), format!("cannot list: {e}")))?
            .path();
        let is_csv = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("csv"));
        if is_csv && path.is_file() {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(Error::input(
            dir.display().to_string(),
            "the directory has no .csv file",
        ));
    }
    files.sort();
    Ok(files)
}

/// The grid's datasets, read once (label: the last column).
#[derive(Debug, Clone, Default)]
pub struct LoadedDatasets {
    by_name: BTreeMap<String, Dataset>,
}

impl LoadedDatasets {
    /// Reads and validates every dataset.
    pub fn load(entries: &[DatasetEntry]) -> Result<LoadedDatasets> {
        let mut loaded = LoadedDatasets::default();
        for entry in entries {
            loaded.insert(entry)?;
        }
        Ok(loaded)
    }

    /// Reads `entry` unless it is already loaded.
    pub fn insert(&mut self, entry: &DatasetEntry) -> Result<&Dataset> {
        if !self.by_name.contains_key(&entry.name) {
            let data = read_dataset(&entry.path, &TargetColumn::Last)?;
            self.by_name.insert(entry.name.clone(), data);
        }
        self.get(&entry.name)
    }

    /// The dataset called `name`.
    pub fn get(&self, name: &str) -> Result<&Dataset> {
        self.by_name
            .get(name)
            .ok_or_else(|| Error::Internal(format!("dataset `{name}` was not loaded")))
    }
}

/// The data of a run: `data` split with `seed` (no split when `test_fraction` is 0) and
/// prepared for `method` (e.g. relabelled).
pub fn prepare(data: &Dataset, seed: u64, test_fraction: f64, method: &Method) -> Result<Sets> {
    let fraction = (test_fraction > 0.0).then_some(test_fraction);
    Sets::split(data, fraction, seed)?.map(|set| method.prepare(set))
}
