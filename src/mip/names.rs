//! File names of columns and rows: our readable names mapped to names that CPLEX LP and free
//! MPS readers (HiGHS's and CBC's, verified by the round-trip tests) accept, still readable and
//! unique.
//!
//! Mapping: `[` becomes `(`, `]` becomes `)`, `=` is dropped, letters, digits and `_ ( ) , .` are
//! kept, any other character becomes `_`; so `a[f=3,n=1]` is written `a(f3,n1)`. A name that
//! would not start with a letter, that reads like an exponent (`e`, `e12`, `E1`...) or that is an
//! LP keyword (`st`, `free`, `inf`, `bin`, `end`, ...) gets the prefix `x_`; an empty name
//! becomes `x`. Names are cut to 100 characters (CBC's LP reader replaces every name by a
//! default one as soon as one is longer). A name already taken (among columns, or among rows,
//! where the objective is `obj`) gets the first free suffix `_2`, `_3`, ...

use rustc_hash::FxHashSet as HashSet;

use super::record::{RowInfo, VarInfo};

/// The longest name written to a file.
pub(crate) const MAX_FILE_NAME: usize = 100;

/// The name of the objective row in LP and MPS files.
pub(crate) const OBJECTIVE_NAME: &str = "obj";

/// Names that LP readers take as keywords, compared in lower case.
const KEYWORDS: &[&str] = &[
    "bin", "binaries", "binary", "bound", "bounds", "end", "free", "gen", "general", "generals",
    "inf", "infinity", "int", "integer", "integers", "max", "maximise", "maximize", "maximum",
    "min", "minimise", "minimize", "minimum", "s.t.", "semi", "semis", "sos", "st", "subject",
    "such", "that", "to",
];

/// The file names of every column and row of a model.
#[derive(Debug, Clone)]
pub(crate) struct FileNames {
    columns: Vec<String>,
    rows: Vec<String>,
}

impl FileNames {
    /// Sanitised, unique names for `vars` and `rows`.
    pub(crate) fn new(vars: &[VarInfo], rows: &[RowInfo]) -> FileNames {
        let mut taken = HashSet::default();
        let columns = vars
            .iter()
            .map(|v| unique(sanitise(&v.name), &mut taken))
            .collect();
        let mut taken = HashSet::from_iter([OBJECTIVE_NAME.to_string()]);
        let rows = rows
            .iter()
            .map(|r| unique(sanitise(&r.name), &mut taken))
            .collect();
        FileNames { columns, rows }
    }

    /// The file name of column `col`.
    pub(crate) fn column(&self, col: usize) -> &str {
        &self.columns[col]
    }

    /// The file name of row `row`.
    pub(crate) fn row(&self, row: usize) -> &str {
        &self.rows[row]
    }
}

/// `name` with only safe characters, a safe start, at most [`MAX_FILE_NAME`] characters.
pub(crate) fn sanitise(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for ch in name.chars() {
        match ch {
            '[' => out.push('('),
            ']' => out.push(')'),
            '=' => {}
            c if c.is_ascii_alphanumeric() || matches!(c, '_' | '(' | ')' | ',' | '.') => {
                out.push(c)
            }
            _ => out.push('_'),
        }
    }
    if out.is_empty() {
        out.push('x');
    }
    if needs_prefix(&out) {
        out.insert_str(0, "x_");
    }
    out.truncate(MAX_FILE_NAME);
    out
}

/// Whether a name must not be written as it is: it does not start with a letter, reads like an
/// exponent, or is a keyword.
fn needs_prefix(name: &str) -> bool {
    let mut chars = name.chars();
    let first = chars.next().unwrap_or('x');
    if !first.is_ascii_alphabetic() {
        return true;
    }
    if matches!(first, 'e' | 'E') {
        match chars.next() {
            None => return true,
            Some(c) if c.is_ascii_digit() || matches!(c, 'e' | 'E') => return true,
            Some(_) => {}
        }
    }
    KEYWORDS.contains(&name.to_ascii_lowercase().as_str())
}

/// `base`, or `base_k` for the first `k >= 2` not yet taken; records the result as taken.
fn unique(base: String, taken: &mut HashSet<String>) -> String {
    if taken.insert(base.clone()) {
        return base;
    }
    let mut k = 2usize;
    loop {
        let suffix = format!("_{k}");
        let keep = MAX_FILE_NAME.saturating_sub(suffix.len()).min(base.len());
        let candidate = format!("{}{suffix}", &base[..keep]);
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        k += 1;
    }
}
