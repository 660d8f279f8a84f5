//! The command-line options about the data file's columns (`--categorical`,
//! `--max-categories`, `--ignore`, `--delimiter`) and their translation into the reader's
//! [`ColumnOptions`].

use clap::Args;

use crate::data::{parse_delimiter, ColumnOptions, DEFAULT_MAX_CATEGORIES};

/// The field delimiter of the data file, for every command that reads one.
#[derive(Debug, Clone, Default, Args)]
pub struct DelimiterArgs {
    /// The character between fields: one ASCII character, or `tab` (default: a tab for a
    /// `.tsv` file, a comma otherwise).
    #[arg(long, value_name = "C", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,
}

impl DelimiterArgs {
    /// The reader's options with this delimiter and every other option at its default.
    pub fn options(&self) -> ColumnOptions {
        ColumnOptions {
            delimiter: self.delimiter,
            ..ColumnOptions::default()
        }
    }
}

/// How the columns of a training file are read.
#[derive(Debug, Clone, Args)]
pub struct ColumnArgs {
    /// Columns read as categorical, by name or 0-based index, comma-separated: numeric codes
    /// included, and however many categories they have. Each category gives a feature
    /// `column=value`; a split on it reads `column = value`.
    #[arg(long, value_delimiter = ',', value_name = "COLS")]
    pub categorical: Vec<String>,
    /// The most categories a text column may have unless named by --categorical; a column with
    /// more is refused (it is often an identifier or free text).
    #[arg(long, default_value_t = DEFAULT_MAX_CATEGORIES, value_name = "N")]
    pub max_categories: usize,
    /// Columns left out, by name or 0-based index, comma-separated: not features, not checked.
    #[arg(long, value_delimiter = ',', value_name = "COLS")]
    pub ignore: Vec<String>,
    #[command(flatten)]
    pub delimiter: DelimiterArgs,
}

impl ColumnArgs {
    /// The reader's options these flags give.
    pub fn options(&self) -> ColumnOptions {
        ColumnOptions {
            categorical: self.categorical.clone(),
            ignore: self.ignore.clone(),
            max_categories: self.max_categories,
            delimiter: self.delimiter.delimiter,
        }
    }
}
