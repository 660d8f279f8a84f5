//! The reading options about missing cells: `--na-values`, shared by every command that reads
//! data, and `--strict`, for the commands that learn (a row without a label is dropped or
//! refused; `predict` always refuses one, so it has no `--strict`).

use clap::Args;

use crate::data::MissingValues;

/// The cell texts read as missing values.
#[derive(Debug, Clone, Default, Args)]
pub struct NaValuesArgs {
    /// Cell texts read as missing values besides the defaults (an empty cell, `NA`, `NaN`, `?`),
    /// comma-separated, compared exactly: e.g. `--na-values -999,unknown`.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub na_values: Option<String>,
}

impl NaValuesArgs {
    /// The reading options these flags give; a row without a label is refused.
    pub fn options(&self) -> MissingValues {
        MissingValues::with_list(self.na_values.as_deref(), true)
    }
}

/// The missing cells of training data.
#[derive(Debug, Clone, Default, Args)]
pub struct MissingArgs {
    #[command(flatten)]
    pub na: NaValuesArgs,
    /// Refuse (exit 2) a row whose label is missing, instead of dropping it with a warning.
    #[arg(long)]
    pub strict: bool,
}

impl MissingArgs {
    /// The reading options these flags give.
    pub fn options(&self) -> MissingValues {
        MissingValues::with_list(self.na.na_values.as_deref(), self.strict)
    }
}
