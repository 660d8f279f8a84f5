//! The plain data of the model record: columns ([`VarInfo`], [`VarKind`]), rows ([`RowInfo`],
//! [`RowSense`]) and dimensions ([`ModelSize`]).

use serde::{Deserialize, Serialize};

/// The kind of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VarKind {
    /// A real number between its bounds.
    Continuous,
    /// A general integer between its bounds.
    Integer,
    /// An integer in `[0, 1]` (its bounds may fix it to 0 or 1).
    Binary,
}

impl VarKind {
    /// Whether the column must take an integer value.
    pub fn is_integral(self) -> bool {
        !matches!(self, VarKind::Continuous)
    }
}

/// One column of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct VarInfo {
    /// Readable name, e.g. `a[f=3,n=1]`.
    pub name: String,
    /// Continuous, general integer or binary.
    pub kind: VarKind,
    /// Lower bound (may be `-inf`).
    pub lower: f64,
    /// Upper bound (may be `+inf`).
    pub upper: f64,
}

impl VarInfo {
    /// A binary column with its standard bounds `[0, 1]` (written as such in LP and MPS files).
    pub fn is_standard_binary(&self) -> bool {
        self.kind == VarKind::Binary && self.lower == 0.0 && self.upper == 1.0
    }
}

/// The sense of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RowSense {
    /// `terms <= rhs`
    Le,
    /// `terms >= rhs`
    Ge,
    /// `terms = rhs`
    Eq,
}

/// One row (constraint) of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct RowInfo {
    /// Readable name, e.g. `leaf[l=3]`.
    pub name: String,
    /// `(column, coefficient)` pairs, sorted by column, without zero coefficients.
    pub terms: Vec<(usize, f64)>,
    /// Sense of the row.
    pub sense: RowSense,
    /// Right-hand side.
    pub rhs: f64,
}

impl RowInfo {
    /// The row's left-hand side at `values` (indexed by column).
    pub fn activity(&self, values: &[f64]) -> f64 {
        self.terms
            .iter()
            .map(|&(column, coefficient)| coefficient * values[column])
            .sum()
    }
}

/// The dimensions of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSize {
    /// All columns.
    pub variables: usize,
    /// Binary columns.
    pub binaries: usize,
    /// General integer columns.
    pub integers: usize,
    /// Continuous columns.
    pub continuous: usize,
    /// Rows.
    pub constraints: usize,
    /// Non-zero coefficients in the constraint matrix.
    pub nonzeros: usize,
}
