//! The reading options about missing cells, shared by every command that reads data.

use clap::Args;

use crate::data::MissingValues;

#[derive(Debug, Clone, Default, Args)]
pub struct MissingArgs {
    /// Cell texts read as missing values besides the defaults (an empty cell, `NA`, `NaN`, `?`),
    /// comma-separated, compared exactly: e.g. `--na-values -999,unknown`.
    #[arg(long, value_name = "LIST")]
    pub na_values: Option<String>,
    /// Refuse (exit 2) a row whose label is missing, instead of dropping it with a warning.
    #[arg(long)]
    pub strict: bool,
}

impl MissingArgs {
    /// The reading options these flags give.
    pub fn options(&self) -> MissingValues {
        MissingValues::with_list(self.na_values.as_deref(), self.strict)
    }
}
