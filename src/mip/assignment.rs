//! Complete assignments of a model's columns ([`Assignment`]) and the builder that guarantees
//! completeness ([`AssignmentBuilder`]).
//!
//! An assignment gives a finite value to every column: solvers that receive a partial warm
//! start complete it in their own way (`good_lp` fills the gaps with 0), which silently turns it
//! into a different start, so a partial assignment cannot be built.

use std::sync::Arc;

use good_lp::Variable;

use super::column_map::ColumnMap;
use super::MipModel;
use crate::error::{Error, Result};

/// How many unset or non-finite variables an error message names.
const NAMED: usize = 10;

/// A finite value for every column of one model, indexed by column.
#[derive(Debug, Clone)]
pub struct Assignment {
    columns: Arc<ColumnMap>,
    values: Vec<f64>,
}

impl Assignment {
    pub(crate) fn new(columns: Arc<ColumnMap>, values: Vec<f64>) -> Assignment {
        Assignment { columns, values }
    }

    /// The same model's assignment with other values.
    pub(crate) fn with_values(&self, values: Vec<f64>) -> Assignment {
        Assignment {
            columns: Arc::clone(&self.columns),
            values,
        }
    }

    /// Which variables are the columns of the model this assignment was made for.
    pub(crate) fn columns(&self) -> &Arc<ColumnMap> {
        &self.columns
    }

    /// The value of `v`.
    ///
    /// # Panics
    /// If `v` is not a column of the model this assignment was made for (a bug in the caller);
    /// see [`Assignment::get`].
    pub fn value(&self, v: Variable) -> f64 {
        match self.get(v) {
            Some(value) => value,
            None => panic!("{v:?} is not a column of this assignment's model"),
        }
    }

    /// The value of `v`, or `None` if `v` is not a column of this assignment's model.
    pub fn get(&self, v: Variable) -> Option<f64> {
        let column = self.columns.column(v, self.values.len())?;
        self.values.get(column).copied()
    }

    /// All values, indexed by column.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

/// Builds an [`Assignment`]: every column must be set to a finite value before
/// [`AssignmentBuilder::finish`] succeeds.
#[derive(Debug)]
pub struct AssignmentBuilder<'a> {
    model: &'a MipModel,
    values: Vec<Option<f64>>,
    foreign: usize,
}

impl<'a> AssignmentBuilder<'a> {
    pub(crate) fn new(model: &'a MipModel) -> AssignmentBuilder<'a> {
        AssignmentBuilder {
            model,
            values: vec![None; model.vars().len()],
            foreign: 0,
        }
    }

    /// Sets `v` to `value` (a later call for the same variable wins). A variable the model did
    /// not create makes [`AssignmentBuilder::finish`] fail.
    pub fn set(&mut self, v: Variable, value: f64) {
        match self.model.try_col(v) {
            Some(column) if column < self.values.len() => self.values[column] = Some(value),
            _ => self.foreign += 1,
        }
    }

    /// Sets column `column` to `value`.
    ///
    /// # Panics
    /// If `column` is not a column of the model.
    pub fn set_column(&mut self, column: usize, value: f64) {
        self.values[column] = Some(value);
    }

    /// Whether `v` has been set.
    pub fn is_set(&self, v: Variable) -> bool {
        self.model
            .try_col(v)
            .and_then(|column| self.values.get(column))
            .is_some_and(Option::is_some)
    }

    /// The complete assignment, or [`Error::Model`] naming (up to 10) variables left unset or
    /// set to a non-finite value.
    pub fn finish(self) -> Result<Assignment> {
        let vars = self.model.vars();
        let describe = |problem: &str, columns: Vec<usize>| {
            let named: Vec<&str> = columns
                .iter()
                .take(NAMED)
                .map(|&j| vars[j].name.as_str())
                .collect();
            let more = columns.len().saturating_sub(NAMED);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            format!(
                "{} of the {} variables of model `{}` {problem}: {}{more}",
                columns.len(),
                vars.len(),
                self.model.name(),
                named.join(", ")
            )
        };
        if self.foreign > 0 {
            return Err(Error::Model(format!(
                "an assignment for model `{}` sets {} variable(s) the model did not create",
                self.model.name(),
                self.foreign
            )));
        }
        let unset: Vec<usize> = (0..self.values.len())
            .filter(|&j| self.values[j].is_none())
            .collect();
        if !unset.is_empty() {
            return Err(Error::Model(describe("are not set", unset)));
        }
        let non_finite: Vec<usize> = (0..self.values.len())
            .filter(|&j| self.values[j].is_some_and(|v| !v.is_finite()))
            .collect();
        if !non_finite.is_empty() {
            return Err(Error::Model(describe("are not finite", non_finite)));
        }
        let values = self.values.into_iter().map(|v| v.unwrap_or(0.0)).collect();
        Ok(Assignment::new(Arc::clone(self.model.column_map()), values))
    }
}
