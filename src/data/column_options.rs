//! The reading options about columns: which columns are categorical, which are left out, how
//! many categories an undeclared text column may have, and the character between fields.

use std::path::Path;

/// The most categories a text column may have unless it is declared categorical.
pub const DEFAULT_MAX_CATEGORIES: usize = 64;

/// How the reader treats the file's columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnOptions {
    /// Columns (by name, or 0-based position) read as categorical whatever their cells (numeric
    /// codes included), and exempt from [`ColumnOptions::max_categories`].
    pub categorical: Vec<String>,
    /// Columns (by name, or 0-based position) left out: not features, not checked.
    pub ignore: Vec<String>,
    /// A text column with more categories than this is refused unless declared categorical.
    pub max_categories: usize,
    /// The byte between fields; `None`: a tab for a `.tsv` file, a comma otherwise.
    pub delimiter: Option<u8>,
}

impl Default for ColumnOptions {
    fn default() -> Self {
        ColumnOptions {
            categorical: Vec::new(),
            ignore: Vec::new(),
            max_categories: DEFAULT_MAX_CATEGORIES,
            delimiter: None,
        }
    }
}

impl ColumnOptions {
    /// The delimiter for the file at `path`: the one given, else a tab for a name ending in
    /// `.tsv` (any case), else a comma.
    pub fn delimiter_for(&self, path: &Path) -> u8 {
        self.delimiter.unwrap_or_else(|| {
            let tsv = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("tsv"));
            if tsv {
                b'\t'
            } else {
                b','
            }
        })
    }
}

/// Reads a `--delimiter` value: one ASCII character, or `\t` / `tab` for a tab. Says what is
/// wrong otherwise.
pub fn parse_delimiter(text: &str) -> Result<u8, String> {
    match text {
        "\\t" | "tab" | "TAB" | "\t" => Ok(b'\t'),
        _ => {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii() && c != '"' && c != '\n' && c != '\r' => {
                    Ok(c as u8)
                }
                _ => Err(format!(
                    "`{text}` is not a delimiter: give one ASCII character other than a quote or \
                     a line break (or `tab`)"
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_files_default_to_tabs() {
        let options = ColumnOptions::default();
        assert_eq!(options.delimiter_for(Path::new("a/b.TSV")), b'\t');
        assert_eq!(options.delimiter_for(Path::new("a/b.csv")), b',');
        assert_eq!(options.delimiter_for(Path::new("-")), b',');
        let semicolon = ColumnOptions {
            delimiter: Some(b';'),
            ..ColumnOptions::default()
        };
        assert_eq!(semicolon.delimiter_for(Path::new("b.tsv")), b';');
    }

    #[test]
    fn delimiters_are_one_ascii_character() {
        assert_eq!(parse_delimiter(";"), Ok(b';'));
        assert_eq!(parse_delimiter("tab"), Ok(b'\t'));
        assert_eq!(parse_delimiter("\\t"), Ok(b'\t'));
        assert!(parse_delimiter(";;").is_err());
        assert!(parse_delimiter("").is_err());
        assert!(parse_delimiter("é").is_err());
        assert!(parse_delimiter("\"").is_err());
    }
}
