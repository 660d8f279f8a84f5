//! Writers of a start ([`Assignment`]) for other tools, with the file names of the LP and MPS
//! writers: a Gurobi/CPLEX `.mst` MIP start and a HiGHS `.sol` solution file (HiGHS's raw
//! style, read by its `read_solution_file` option and `Highs::readSolution`).

use std::io::{self, Write};

use super::number_format::Num;
use super::{Assignment, MipModel};

impl MipModel {
    /// Writes `start` as a Gurobi/CPLEX text MIP start: a comment, then one `name value` line
    /// per column.
    pub fn write_mst(&self, start: &Assignment, out: &mut dyn Write) -> io::Result<()> {
        let values = self.start_values(start)?;
        writeln!(
            out,
            "# MIP start for model {}",
            self.name().replace(char::is_control, " ")
        )?;
        for (j, &value) in values.iter().enumerate() {
            writeln!(out, "{} {}", self.file_name(j), Num(value))?;
        }
        Ok(())
    }

    /// Writes `start` as a HiGHS solution file: status `Feasible` or `Infeasible` (by
    /// [`MipModel::check`]), the objective, every column's value and every row's activity.
    pub fn write_highs_solution(&self, start: &Assignment, out: &mut dyn Write) -> io::Result<()> {
        let values = self.start_values(start)?;
        let status = if self.check(start).feasible {
            "Feasible"
        } else {
            "Infeasible"
        };
        writeln!(out, "Model status")?;
        writeln!(out, "Not Set")?;
        writeln!(out)?;
        writeln!(out, "# Primal solution values")?;
        writeln!(out, "{status}")?;
        writeln!(out, "Objective {}", Num(self.objective_value(start)))?;
        writeln!(out, "# Columns {}", values.len())?;
        for (j, &value) in values.iter().enumerate() {
            writeln!(out, "{} {}", self.file_name(j), Num(value))?;
        }
        writeln!(out, "# Rows {}", self.rows().len())?;
        for (i, row) in self.rows().iter().enumerate() {
            writeln!(
                out,
                "{} {}",
                self.file_row_name(i),
                Num(row.activity(values))
            )?;
        }
        Ok(())
    }

    /// The values of `start` ([`MipModel::values_of`]), as an I/O error for the writers.
    fn start_values<'a>(&self, start: &'a Assignment) -> io::Result<&'a [f64]> {
        self.values_of(start)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))
    }
}
