//! The CPLEX LP writer ([`MipModel::write_lp`]).

use std::io::{self, Write};

use super::names::OBJECTIVE_NAME;
use super::number_format::Num;
use super::record::{RowSense, VarInfo, VarKind};
use super::MipModel;

/// Lines are wrapped before this many characters.
const LINE_WIDTH: usize = 79;

impl MipModel {
    /// Writes the model in CPLEX LP format: the exact model, with the names of
    /// [`MipModel::file_name`], rows and terms in the record's order (terms sorted by column),
    /// lines wrapped before 80 characters; the same model always gives the same bytes.
    ///
    /// Layout: a comment header; `Minimize` with the objective row `obj`, constant term
    /// included (a column that appears in no row and not in the objective gets a `0`
    /// coefficient there, so that the file declares it); `Subject To` with every row; `Bounds`
    /// for every column whose bounds differ from the LP default `[0, +inf)` (`x free`,
    /// `-inf <= x <= u`, `x >= l`, `l <= x <= u`, `x = v`); `Generals` for general integers
    /// (and binaries whose bounds are not `[0, 1]`, bounds written); `Binaries`; `End`.
    ///
    /// Fails on an inconsistent model (see [`MipModel::validate`]).
    pub fn write_lp(&self, out: &mut dyn Write) -> io::Result<()> {
        self.validate()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        if self.vars().is_empty() && !self.rows().is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "an LP file cannot hold rows without any variable",
            ));
        }
        let mut w = Lines::new(out);
        let size = self.size();
        w.line(&format!("\\ Model {}", one_line(self.name())))?;
        w.line(&format!(
            "\\ Variables: {} ({} binary, {} integer, {} continuous)",
            size.variables, size.binaries, size.integers, size.continuous
        ))?;
        w.line(&format!(
            "\\ Constraints: {}, non-zeros: {}",
            size.constraints, size.nonzeros
        ))?;
        w.line("Minimize")?;
        w.start(&format!(" {OBJECTIVE_NAME}:"))?;
        self.write_terms(&mut w, &self.objective_terms_declaring_all())?;
        let constant = self.objective_constant();
        if constant != 0.0 {
            w.token(&signed(constant))?;
        }
        w.end()?;
        w.line("Subject To")?;
        for (i, row) in self.rows().iter().enumerate() {
            w.start(&format!(" {}:", self.file_row_name(i)))?;
            self.write_terms(&mut w, &row.terms)?;
            let sense = match row.sense {
                RowSense::Le => "<=",
                RowSense::Ge => ">=",
                RowSense::Eq => "=",
            };
            w.token(&format!("{sense} {}", Num(row.rhs)))?;
            w.end()?;
        }
        let bounds: Vec<String> = self
            .vars()
            .iter()
            .enumerate()
            .filter_map(|(j, var)| bound_line(self.file_name(j), var))
            .collect();
        if !bounds.is_empty() {
            w.line("Bounds")?;
            for bound in &bounds {
                w.line(&format!(" {bound}"))?;
            }
        }
        let generals: Vec<usize> = (0..self.vars().len())
            .filter(|&j| {
                let var = &self.vars()[j];
                var.kind.is_integral() && !var.is_standard_binary()
            })
            .collect();
        self.write_name_section(&mut w, "Generals", &generals)?;
        let binaries: Vec<usize> = (0..self.vars().len())
            .filter(|&j| self.vars()[j].is_standard_binary())
            .collect();
        self.write_name_section(&mut w, "Binaries", &binaries)?;
        w.line("End")
    }

    /// The objective's terms plus a zero term for every column that appears nowhere else, so
    /// that the file declares every column.
    fn objective_terms_declaring_all(&self) -> Vec<(usize, f64)> {
        let mut used = vec![false; self.vars().len()];
        for row in self.rows() {
            for &(j, _) in &row.terms {
                used[j] = true;
            }
        }
        let mut terms = self.objective_terms().to_vec();
        for &(j, _) in self.objective_terms() {
            used[j] = true;
        }
        terms.extend((0..used.len()).filter(|&j| !used[j]).map(|j| (j, 0.0)));
        terms.sort_by_key(|&(j, _)| j);
        terms
    }

    /// Writes `terms`; an empty list is written as `0 x` with the first column.
    fn write_terms(&self, w: &mut Lines<'_>, terms: &[(usize, f64)]) -> io::Result<()> {
        if terms.is_empty() {
            if !self.vars().is_empty() {
                w.token(&format!("0 {}", self.file_name(0)))?;
            }
            return Ok(());
        }
        for (k, &(j, c)) in terms.iter().enumerate() {
            let name = self.file_name(j);
            let magnitude = c.abs();
            let body = if magnitude == 1.0 {
                name.to_string()
            } else {
                format!("{} {name}", Num(magnitude))
            };
            let term = match (k, c < 0.0) {
                (0, false) => body,
                (_, true) => format!("- {body}"),
                (_, false) => format!("+ {body}"),
            };
            w.token(&term)?;
        }
        Ok(())
    }

    fn write_name_section(
        &self,
        w: &mut Lines<'_>,
        title: &str,
        columns: &[usize],
    ) -> io::Result<()> {
        if columns.is_empty() {
            return Ok(());
        }
        w.line(title)?;
        w.start("")?;
        for &j in columns {
            w.token(self.file_name(j))?;
        }
        w.end()
    }
}

/// `+ 3` or `- 3`.
fn signed(value: f64) -> String {
    if value < 0.0 {
        format!("- {}", Num(-value))
    } else {
        format!("+ {}", Num(value))
    }
}

/// The `Bounds` line of a column, if its bounds differ from what the LP format implies.
fn bound_line(name: &str, var: &VarInfo) -> Option<String> {
    if var.is_standard_binary() {
        return None;
    }
    let (lower, upper) = (var.lower, var.upper);
    if lower == upper {
        return Some(format!("{name} = {}", Num(lower)));
    }
    match (lower.is_finite(), upper.is_finite()) {
        (false, false) => Some(format!("{name} free")),
        (false, true) => Some(format!("-inf <= {name} <= {}", Num(upper))),
        (true, false) if lower == 0.0 && var.kind != VarKind::Binary => None,
        (true, false) => Some(format!("{name} >= {}", Num(lower))),
        (true, true) => Some(format!("{} <= {name} <= {}", Num(lower), Num(upper))),
    }
}

/// `text` on one line (a model name cannot break the comment it is written in).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Writes lines, wrapping a line of tokens before [`LINE_WIDTH`] characters; continuation lines
/// are indented by three spaces.
struct Lines<'a> {
    out: &'a mut dyn Write,
    current: String,
}

impl<'a> Lines<'a> {
    fn new(out: &'a mut dyn Write) -> Lines<'a> {
        Lines {
            out,
            current: String::new(),
        }
    }

    /// A whole line.
    fn line(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    /// Starts a line of tokens with `head`.
    fn start(&mut self, head: &str) -> io::Result<()> {
        self.current.clear();
        self.current.push_str(head);
        Ok(())
    }

    /// Adds a token, wrapping first if it would not fit.
    fn token(&mut self, token: &str) -> io::Result<()> {
        let blank = self.current.trim().is_empty();
        if !blank && self.current.len() + 1 + token.len() > LINE_WIDTH {
            writeln!(self.out, "{}", self.current)?;
            self.current.clear();
            self.current.push_str("  ");
        }
        self.current.push(' ');
        self.current.push_str(token);
        Ok(())
    }

    /// Ends the current line of tokens.
    fn end(&mut self) -> io::Result<()> {
        writeln!(self.out, "{}", self.current)?;
        self.current.clear();
        Ok(())
    }
}
