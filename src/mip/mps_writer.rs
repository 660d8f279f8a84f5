//! The free MPS writer ([`MipModel::write_mps`]).

use std::io::{self, Write};

use super::names::OBJECTIVE_NAME;
use super::number_format::Num;
use super::record::{RowSense, VarInfo};
use super::MipModel;

impl MipModel {
    /// Writes the model in free MPS format (fields separated by spaces, names longer than fixed
    /// MPS's 8 characters; HiGHS and CBC both read it): the exact model, columns and rows in
    /// the record's order; the same model always gives the same bytes.
    ///
    /// Sections: `NAME`; `ROWS` (objective `N obj`, then `L` / `G` / `E` rows); `COLUMNS` (one
    /// `column row value` entry per line, objective first, integer columns between
    /// `'MARKER' 'INTORG'` / `'INTEND'` markers; a column without any entry gets `column obj 0`
    /// so that it is declared); `RHS` (non-zero right-hand sides, and the objective constant
    /// `c` as `RHS obj -c`, the usual convention); `BOUNDS` (`BV` for binaries, `FX`, `FR`,
    /// `MI`, `LO`, `UP`, and `PL` for integer columns without an upper bound, so that no reader
    /// applies a binary default); `ENDATA`.
    ///
    /// Fails on an inconsistent model (see [`MipModel::validate`]).
    pub fn write_mps(&self, out: &mut dyn Write) -> io::Result<()> {
        self.validate()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        let size = self.size();
        writeln!(
            out,
            "* Model {}",
            self.name().replace(char::is_control, " ")
        )?;
        writeln!(
            out,
            "* Variables: {} ({} binary, {} integer, {} continuous)",
            size.variables, size.binaries, size.integers, size.continuous
        )?;
        writeln!(
            out,
            "* Constraints: {}, non-zeros: {}",
            size.constraints, size.nonzeros
        )?;
        writeln!(out, "NAME {}", mps_model_name(self.name()))?;
        writeln!(out, "ROWS")?;
        writeln!(out, " N  {OBJECTIVE_NAME}")?;
        for (i, row) in self.rows().iter().enumerate() {
            let sense = match row.sense {
                RowSense::Le => 'L',
                RowSense::Ge => 'G',
                RowSense::Eq => 'E',
            };
            writeln!(out, " {sense}  {}", self.file_row_name(i))?;
        }
        self.write_columns(out)?;
        writeln!(out, "RHS")?;
        let constant = self.objective_constant();
        if constant != 0.0 {
            writeln!(out, "    RHS  {OBJECTIVE_NAME}  {}", Num(-constant))?;
        }
        for (i, row) in self.rows().iter().enumerate() {
            if row.rhs != 0.0 {
                writeln!(out, "    RHS  {}  {}", self.file_row_name(i), Num(row.rhs))?;
            }
        }
        writeln!(out, "BOUNDS")?;
        for (j, var) in self.vars().iter().enumerate() {
            for (kind, value) in bounds(var) {
                let name = self.file_name(j);
                match value {
                    Some(value) => writeln!(out, " {kind} BND {name} {}", Num(value))?,
                    None => writeln!(out, " {kind} BND {name}")?,
                }
            }
        }
        writeln!(out, "ENDATA")
    }

    fn write_columns(&self, out: &mut dyn Write) -> io::Result<()> {
        // The record is row-wise; COLUMNS needs every column's entries in row order.
        let mut entries: Vec<Vec<(usize, f64)>> = vec![Vec::new(); self.vars().len()];
        for (i, row) in self.rows().iter().enumerate() {
            for &(j, c) in &row.terms {
                entries[j].push((i, c));
            }
        }
        let mut objective = vec![0.0; self.vars().len()];
        for &(j, c) in self.objective_terms() {
            objective[j] = c;
        }
        writeln!(out, "COLUMNS")?;
        let mut in_integers = false;
        for (j, var) in self.vars().iter().enumerate() {
            let integral = var.kind.is_integral();
            if integral != in_integers {
                let marker = if integral { "INTORG" } else { "INTEND" };
                writeln!(out, "    MARKER  'MARKER'  '{marker}'")?;
                in_integers = integral;
            }
            let name = self.file_name(j);
            if objective[j] != 0.0 || entries[j].is_empty() {
                writeln!(out, "    {name}  {OBJECTIVE_NAME}  {}", Num(objective[j]))?;
            }
            for &(i, c) in &entries[j] {
                writeln!(out, "    {name}  {}  {}", self.file_row_name(i), Num(c))?;
            }
        }
        if in_integers {
            writeln!(out, "    MARKER  'MARKER'  'INTEND'")?;
        }
        Ok(())
    }
}

/// The BOUNDS entries of a column: bound type and value.
fn bounds(var: &VarInfo) -> Vec<(&'static str, Option<f64>)> {
    if var.is_standard_binary() {
        return vec![("BV", None)];
    }
    let (lower, upper) = (var.lower, var.upper);
    if lower == upper {
        return vec![("FX", Some(lower))];
    }
    let integral = var.kind.is_integral();
    match (lower.is_finite(), upper.is_finite()) {
        (false, false) => vec![("FR", None)],
        (false, true) => vec![("MI", None), ("UP", Some(upper))],
        (true, false) => {
            let mut entries = Vec::new();
            if lower != 0.0 {
                entries.push(("LO", Some(lower)));
            }
            if integral {
                entries.push(("PL", None));
            }
            entries
        }
        (true, true) => vec![("LO", Some(lower)), ("UP", Some(upper))],
    }
}

/// The model name as one MPS field.
fn mps_model_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "model".to_string()
    } else {
        cleaned
    }
}
