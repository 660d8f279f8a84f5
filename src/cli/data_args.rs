//! The data options shared by the commands that learn a tree, and their resolution into a
//! training set and an optional test set.

use std::path::PathBuf;

use clap::Args;

use crate::data::{read_dataset, Sets, TargetColumn};
use crate::error::Result;

#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// CSV file with a header row. Numeric columns are used as they are; a column whose cells
    /// are all text is one-hot encoded into `column=value` features. Missing, empty, NaN or
    /// infinite cells are errors.
    pub data: PathBuf,
    /// The label column, by name or 0-based index (default: the last column).
    #[arg(long, value_name = "NAME|INDEX")]
    pub target: Option<String>,
    /// Hold out this fraction of the rows (stratified by class) as a test set.
    #[arg(long, value_name = "F")]
    pub test_fraction: Option<f64>,
    /// Seed of the train/test split.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
}

impl DataArgs {
    /// Reads and validates the data, and splits it when asked.
    pub fn load(&self) -> Result<Sets> {
        let target = match &self.target {
            Some(spec) => TargetColumn::Named(spec.clone()),
            None => TargetColumn::Last,
        };
        let dataset = read_dataset(&self.data, &target)?;
        Sets::split(&dataset, self.test_fraction, self.seed)
    }
}
