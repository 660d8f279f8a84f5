//! [`MipModel`]: the ordered record of columns, rows and objective, built from `good_lp`
//! variables and expressions.

use std::sync::{Arc, OnceLock};

use good_lp::{Constraint, Expression, IntoAffineExpression, Variable};

use super::column_map::ColumnMap;
use super::names::FileNames;
use super::record::{ModelSize, RowInfo, RowSense, VarInfo, VarKind};
use super::variable_pool::BLOCK;
use super::{Assignment, AssignmentBuilder};
use crate::error::{Error, Result};

/// How many model defects an error message names.
const DEFECTS_NAMED: usize = 10;

/// A minimisation MILP: our ordered record of its columns, rows and objective.
///
/// Variables and constraints are added through this type, which records them in creation order;
/// column `j` is the `j`-th variable created, row `i` the `i`-th constraint added. Its `good_lp`
/// variables are its own: no other live model has them (see `variable_pool`), so a variable of
/// another model is always recognised as foreign.
#[derive(Clone)]
pub struct MipModel {
    name: String,
    /// Which variables are the columns, shared with the assignments made for the model.
    columns: Arc<ColumnMap>,
    /// The variables of the block the next columns take theirs from.
    block: Vec<Variable>,
    /// The variable of each column.
    variables: Vec<Variable>,
    vars: Vec<VarInfo>,
    rows: Vec<RowInfo>,
    objective_terms: Vec<(usize, f64)>,
    objective_constant: f64,
    defects: Vec<String>,
    objective_defects: Vec<String>,
    file_names: OnceLock<FileNames>,
}

impl std::fmt::Debug for MipModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MipModel")
            .field("name", &self.name)
            .field("size", &self.size())
            .finish_non_exhaustive()
    }
}

impl MipModel {
    /// An empty model called `name` (the name appears in exported files).
    pub fn new(name: impl Into<String>) -> Self {
        MipModel {
            name: name.into(),
            columns: Arc::new(ColumnMap::default()),
            block: Vec::new(),
            variables: Vec::new(),
            vars: Vec::new(),
            rows: Vec::new(),
            objective_terms: Vec::new(),
            objective_constant: 0.0,
            defects: Vec::new(),
            objective_defects: Vec::new(),
            file_names: OnceLock::new(),
        }
    }

    /// The model's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Adds a column. Bounds may be infinite. A [`VarKind::Binary`] column must have bounds
    /// within `[0, 1]`; bounds that are NaN, a lower bound of `+inf` or an upper bound of `-inf`
    /// are recorded as defects and reported by [`MipModel::validate`].
    pub fn add_var(
        &mut self,
        name: impl Into<String>,
        kind: VarKind,
        lower: f64,
        upper: f64,
    ) -> Variable {
        let name = name.into();
        if lower.is_nan() || upper.is_nan() || lower == f64::INFINITY || upper == f64::NEG_INFINITY
        {
            self.defects
                .push(format!("variable `{name}` has bounds [{lower}, {upper}]"));
        }
        if kind == VarKind::Binary && (lower < 0.0 || upper > 1.0) {
            self.defects.push(format!(
                "binary variable `{name}` has bounds [{lower}, {upper}] outside [0, 1]"
            ));
        }
        let column = self.vars.len();
        if column % BLOCK == 0 {
            self.block = ColumnMap::add_block(&mut self.columns, column / BLOCK).variables;
        }
        let variable = self.block[column % BLOCK];
        self.variables.push(variable);
        self.vars.push(VarInfo {
            name,
            kind,
            lower,
            upper,
        });
        self.file_names = OnceLock::new();
        variable
    }

    /// Adds a binary column (bounds `[0, 1]`).
    pub fn binary(&mut self, name: impl Into<String>) -> Variable {
        self.add_var(name, VarKind::Binary, 0.0, 1.0)
    }

    /// Adds a continuous column; bounds may be infinite.
    pub fn continuous(&mut self, name: impl Into<String>, lower: f64, upper: f64) -> Variable {
        self.add_var(name, VarKind::Continuous, lower, upper)
    }

    /// Adds a general integer column; bounds may be infinite.
    pub fn integer(&mut self, name: impl Into<String>, lower: f64, upper: f64) -> Variable {
        self.add_var(name, VarKind::Integer, lower, upper)
    }

    /// Adds a row from a `good_lp` constraint and returns its index.
    ///
    /// `good_lp` stores every inequality as `expression <= 0` and does not say which way the
    /// caller wrote it, so the record takes the terms of that expression and `rhs = -constant`.
    /// A `<=` or `=` row whose coefficients are all negative is recorded as the identical row
    /// with every sign flipped (so `x + y >= 1` stays readable instead of `-x - y <= -1`). Use
    /// [`MipModel::add_row`] to record a row exactly as written.
    ///
    /// Variables this model did not create and non-finite numbers are recorded as defects and
    /// reported by [`MipModel::validate`].
    pub fn add_constraint(&mut self, name: impl Into<String>, constraint: Constraint) -> usize {
        let name = name.into();
        let expression = constraint.expression();
        let mut defects = Vec::new();
        let terms = self.record_terms(&name, expression, &mut defects);
        self.defects.append(&mut defects);
        let rhs = -expression.constant();
        let sense = if constraint.is_equality() {
            RowSense::Eq
        } else {
            RowSense::Le
        };
        let all_negative = !terms.is_empty() && terms.iter().all(|&(_, c)| c < 0.0);
        let (terms, sense, rhs) = if all_negative {
            let flipped = terms.into_iter().map(|(j, c)| (j, -c)).collect();
            let sense = match sense {
                RowSense::Le => RowSense::Ge,
                other => other,
            };
            (flipped, sense, -rhs)
        } else {
            (terms, sense, rhs)
        };
        self.push_row(name, terms, sense, rhs)
    }

    /// Adds the row `lhs sense rhs` (both sides may hold variables and constants) and records it
    /// with the sense as written: terms are `lhs - rhs` without constants, the right-hand side is
    /// the constants moved to the right.
    pub fn add_row(
        &mut self,
        name: impl Into<String>,
        lhs: impl Into<Expression>,
        sense: RowSense,
        rhs: impl Into<Expression>,
    ) -> usize {
        let name = name.into();
        let difference: Expression = lhs.into() - rhs.into();
        let mut defects = Vec::new();
        let terms = self.record_terms(&name, &difference, &mut defects);
        self.defects.append(&mut defects);
        let rhs = -difference.constant();
        self.push_row(name, terms, sense, rhs)
    }

    /// Sets the objective (always minimised); its constant term is kept.
    pub fn set_objective(&mut self, objective: Expression) {
        let mut defects = Vec::new();
        self.objective_terms = self.record_terms("the objective", &objective, &mut defects);
        self.objective_constant = objective.constant();
        if !self.objective_constant.is_finite() {
            defects.push(format!(
                "the objective has the constant {}",
                self.objective_constant
            ));
        }
        // A new objective replaces the defects of the previous one.
        self.objective_defects = defects;
    }

    /// The variable of column `column`.
    ///
    /// # Panics
    /// If `column` is not a column of this model.
    pub fn variable(&self, column: usize) -> Variable {
        self.variables[column]
    }

    /// The column of `variable`.
    ///
    /// # Panics
    /// If `variable` is not a column of this model (a bug in the code building the model); see
    /// [`MipModel::try_col`].
    pub fn col(&self, variable: Variable) -> usize {
        match self.try_col(variable) {
            Some(column) => column,
            None => panic!("{variable:?} is not a column of model `{}`", self.name),
        }
    }

    /// The column of `variable`, or `None` if this model did not create it.
    pub fn try_col(&self, variable: Variable) -> Option<usize> {
        self.columns.column(variable, self.vars.len())
    }

    /// Whether `assignment` was made for this model as it is now: by this model (or a clone)
    /// since its last column was added, so it has one value per column, in column order.
    pub fn owns(&self, assignment: &Assignment) -> bool {
        Arc::ptr_eq(&self.columns, assignment.columns())
            && assignment.values().len() == self.vars.len()
    }

    /// The shared map from variables to columns, for assignments.
    pub(crate) fn column_map(&self) -> &Arc<ColumnMap> {
        &self.columns
    }

    /// Every column, in creation order.
    pub fn vars(&self) -> &[VarInfo] {
        &self.vars
    }

    /// Every row, in creation order.
    pub fn rows(&self) -> &[RowInfo] {
        &self.rows
    }

    /// The objective's `(column, coefficient)` pairs, sorted by column, without zeros.
    pub fn objective_terms(&self) -> &[(usize, f64)] {
        &self.objective_terms
    }

    /// The objective as an expression (terms and constant), e.g. to bound it in a row.
    pub fn objective_expression(&self) -> Expression {
        let mut expression = Expression::from(self.objective_constant);
        for &(column, coefficient) in &self.objective_terms {
            expression.add_mul(coefficient, self.variables[column]);
        }
        expression
    }

    /// The objective's constant term.
    pub fn objective_constant(&self) -> f64 {
        self.objective_constant
    }

    /// The LP relaxation: the same model with every column continuous (within its bounds).
    pub fn relaxed(&self) -> MipModel {
        let mut relaxed = self.clone();
        for var in &mut relaxed.vars {
            var.kind = VarKind::Continuous;
        }
        relaxed.name = format!("{}_relaxed", self.name);
        relaxed.file_names = OnceLock::new();
        relaxed
    }

    /// Whether any column must take an integer value.
    pub fn has_integers(&self) -> bool {
        self.vars.iter().any(|v| v.kind.is_integral())
    }

    /// The model's dimensions.
    pub fn size(&self) -> ModelSize {
        let count = |kind: VarKind| self.vars.iter().filter(|v| v.kind == kind).count();
        ModelSize {
            variables: self.vars.len(),
            binaries: count(VarKind::Binary),
            integers: count(VarKind::Integer),
            continuous: count(VarKind::Continuous),
            constraints: self.rows.len(),
            nonzeros: self.rows.iter().map(|r| r.terms.len()).sum(),
        }
    }

    /// Checks that the model was built consistently: no NaN or infinite coefficients or
    /// right-hand sides, sensible bounds, only variables this model created. Solving and
    /// writing a model call this first.
    pub fn validate(&self) -> Result<()> {
        let defects: Vec<&str> = self
            .defects
            .iter()
            .chain(&self.objective_defects)
            .map(String::as_str)
            .collect();
        if defects.is_empty() {
            return Ok(());
        }
        let named = &defects[..defects.len().min(DEFECTS_NAMED)];
        let more = defects.len().saturating_sub(DEFECTS_NAMED);
        let suffix = if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        };
        Err(Error::Model(format!(
            "model `{}` is inconsistent: {}{suffix}",
            self.name,
            named.join("; ")
        )))
    }

    /// A builder for a complete assignment of this model's columns, all unset.
    pub fn start(&self) -> AssignmentBuilder<'_> {
        AssignmentBuilder::new(self)
    }

    /// `assignment` with every integer and binary column rounded to the nearest integer
    /// (continuous columns unchanged): solvers return integer columns within a tolerance, such
    /// as `0.9999999`; decoders read the rounded values.
    pub fn round_integers(&self, assignment: &Assignment) -> Assignment {
        let values = assignment
            .values()
            .iter()
            .zip(&self.vars)
            .map(|(&value, var)| {
                if var.kind.is_integral() {
                    value.round()
                } else {
                    value
                }
            })
            .collect();
        assignment.with_values(values)
    }

    /// The name column `col` has in LP, MPS and start files: readable, unique, accepted by the
    /// HiGHS and CBC readers (verified by the round-trip tests).
    ///
    /// `[` becomes `(`, `]` becomes `)`, `=` is dropped, letters, digits and `_ ( ) , .` are
    /// kept, any other character becomes `_`: `a[f=3,n=1]` is written `a(f3,n1)`. A name that
    /// would not start with a letter, that reads like an exponent (`e`, `e12`, `E1`, ...) or
    /// that is an LP keyword (`st`, `free`, `inf`, `bin`, `end`, ...) gets the prefix `x_`; an
    /// empty name becomes `x`. Names are cut to 100 characters (CBC's LP reader replaces every
    /// name by a default one as soon as one is longer). A name already taken (among columns,
    /// or among rows, where the objective is `obj`) gets the first free suffix `_2`, `_3`, ...
    ///
    /// # Panics
    /// If `col` is not a column of this model.
    pub fn file_name(&self, col: usize) -> &str {
        self.file_names().column(col)
    }

    /// The sanitised name row `row` has in LP and MPS files.
    ///
    /// # Panics
    /// If `row` is not a row of this model.
    pub fn file_row_name(&self, row: usize) -> &str {
        self.file_names().row(row)
    }

    /// An assignment of this model from raw values indexed by column (e.g. a solver's solution).
    pub(crate) fn assignment_from_values(&self, values: Vec<f64>) -> Result<Assignment> {
        if values.len() != self.vars.len() {
            return Err(Error::Internal(format!(
                "{} values for the {} columns of model `{}`",
                values.len(),
                self.vars.len(),
                self.name
            )));
        }
        Ok(Assignment::new(Arc::clone(&self.columns), values))
    }

    /// The values of `assignment`, or [`Error::Model`] when it was not made for this model
    /// ([`MipModel::owns`]): the one check that an assignment (a warm start, a start to write)
    /// fits the model.
    pub fn values_of<'a>(&self, assignment: &'a Assignment) -> Result<&'a [f64]> {
        if !self.owns(assignment) {
            return Err(Error::Model(self.not_owned(assignment)));
        }
        Ok(assignment.values())
    }

    /// Says that `assignment` was not made for this model.
    pub(crate) fn not_owned(&self, assignment: &Assignment) -> String {
        format!(
            "an assignment of {} values, not made for model `{}` ({} columns)",
            assignment.values().len(),
            self.name,
            self.vars.len()
        )
    }

    fn file_names(&self) -> &FileNames {
        self.file_names
            .get_or_init(|| FileNames::new(&self.vars, &self.rows))
    }

    /// The sorted, zero-free terms of `expression`; defects for foreign variables and
    /// non-finite coefficients are recorded against `owner`.
    fn record_terms(
        &self,
        owner: &str,
        expression: &Expression,
        defects: &mut Vec<String>,
    ) -> Vec<(usize, f64)> {
        let mut terms = Vec::new();
        for (variable, coefficient) in expression.linear_coefficients() {
            let Some(column) = self.try_col(variable) else {
                defects.push(format!(
                    "`{owner}` uses a variable this model did not create"
                ));
                continue;
            };
            if !coefficient.is_finite() {
                defects.push(format!(
                    "`{owner}` has the coefficient {coefficient} on `{}`",
                    self.vars[column].name
                ));
            }
            if coefficient != 0.0 {
                terms.push((column, coefficient));
            }
        }
        terms.sort_by_key(|&(column, _)| column);
        terms
    }

    fn push_row(
        &mut self,
        name: String,
        terms: Vec<(usize, f64)>,
        sense: RowSense,
        rhs: f64,
    ) -> usize {
        if !rhs.is_finite() {
            self.defects
                .push(format!("row `{name}` has the right-hand side {rhs}"));
        }
        let index = self.rows.len();
        self.rows.push(RowInfo {
            name,
            terms,
            sense,
            // Adding 0.0 turns a right-hand side of -0.0 into 0.0.
            rhs: rhs + 0.0,
        });
        self.file_names = OnceLock::new();
        index
    }
}
