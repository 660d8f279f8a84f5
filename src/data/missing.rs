//! How the readers recognise missing cells ([`MissingValues`]): the cell texts that mean
//! "missing" and what to do with a row whose label is missing.
//!
//! A missing feature cell is kept as `NaN` in the [`Dataset`](crate::data::Dataset) (for a text
//! column, as `NaN` in each of its `column=value` features). A row whose label cell is missing
//! is dropped, with one warning line giving the count, or refused when `strict` is set.

/// The cell texts read as missing by default (after trimming; `NA` and `NaN` in any case).
pub const DEFAULT_NA_VALUES: [&str; 4] = ["", "NA", "NaN", "?"];

/// The reading options about missing cells.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MissingValues {
    /// Cell texts (besides the defaults) read as missing, compared exactly after trimming.
    pub extra: Vec<String>,
    /// Refuse a row whose label is missing (exit 2) instead of dropping it with a warning.
    pub strict: bool,
}

impl MissingValues {
    /// The defaults plus the comma-separated cell texts of `list` (`--na-values`).
    pub fn with_list(list: Option<&str>, strict: bool) -> MissingValues {
        MissingValues {
            extra: list
                .map(|l| l.split(',').map(|t| t.trim().to_string()).collect())
                .unwrap_or_default(),
            strict,
        }
    }

    /// Whether `cell` (already trimmed) is a missing value.
    pub fn is_missing(&self, cell: &str) -> bool {
        DEFAULT_NA_VALUES
            .iter()
            .any(|token| cell.eq_ignore_ascii_case(token))
            || self.extra.iter().any(|token| token == cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_extra_tokens_are_missing() {
        let missing = MissingValues::with_list(Some("-999, unknown"), false);
        for cell in ["", "NA", "na", "NaN", "nan", "?", "-999", "unknown"] {
            assert!(missing.is_missing(cell), "{cell}");
        }
        for cell in ["0", "n/a", "none", "Unknown", "-999.0"] {
            assert!(!missing.is_missing(cell), "{cell}");
        }
        assert!(!MissingValues::default().is_missing("-999"));
    }
}
