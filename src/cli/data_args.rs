//! The data options shared by the commands that learn a tree, and their resolution into a
//! training set and an optional test set.

use std::path::PathBuf;

use clap::Args;

use crate::cli::column_args::ColumnArgs;
use crate::cli::missing_args::MissingArgs;
use crate::data::{read_table, Sets, TargetColumn};
use crate::error::Result;
use crate::noteln;

#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// CSV file with a header row (`-`: standard input). Numeric columns are used as they
    /// are; a column whose cells are all text is categorical (one `column=value` feature per
    /// category). Empty, `NA`, `NaN` and `?` cells are missing values (see `--na-values`);
    /// infinite cells are errors.
    pub data: PathBuf,
    /// The label column, by name or 0-based index (default: the last column).
    #[arg(long, value_name = "NAME|INDEX")]
    pub target: Option<String>,
    /// The column of row weights, by name or 0-based index: not a feature; each cell a finite
    /// non-negative number, not all 0. A row of weight w counts as w rows in the objective
    /// (the searches take whole multiples of one unit per class, e.g. balanced weights; the
    /// front, F1/AUC, path, fairness and CART whole numbers).
    #[arg(long, value_name = "NAME|INDEX")]
    pub weight_column: Option<String>,
    /// Hold out this fraction of the rows (stratified by class) as a test set.
    #[arg(long, value_name = "F")]
    pub test_fraction: Option<f64>,
    /// Seed of the train/test split.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    #[command(flatten)]
    pub columns: ColumnArgs,
    #[command(flatten)]
    pub missing: MissingArgs,
}

impl DataArgs {
    /// Reads and validates the data, and splits it when asked.
    pub fn load(&self) -> Result<Sets> {
        let target = match &self.target {
            Some(spec) => TargetColumn::Named(spec.clone()),
            None => TargetColumn::Last,
        };
        let (dataset, warnings) = read_table(
            &self.data,
            &target,
            self.weight_column.as_deref(),
            &self.columns.options(),
            &self.missing.options(),
        )?;
        for warning in warnings {
            noteln!("warning: {warning}");
        }
        Sets::split(&dataset, self.test_fraction, self.seed)
    }

    /// [`DataArgs::load`], each set with its rows repeated by their whole-number weights (see
    /// [`crate::data::Dataset::repeated_by_weight`]; `method` names the learner that needs it).
    pub fn load_repeated(&self, method: &str) -> Result<Sets> {
        self.load()?.map(|set| {
            Ok(set
                .repeated_by_weight(&crate::setting::Named::same(method))?
                .into_owned())
        })
    }

    /// Refuses row weights for a command that does not take them yet.
    pub fn refuse_weights(&self, command: &str) -> Result<()> {
        match self.weight_column {
            Some(_) => Err(crate::error::Error::parameter(
                "--weight-column",
                format!("{command} does not take row weights yet"),
            )),
            None => Ok(()),
        }
    }
}
