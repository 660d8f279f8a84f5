//! Our own record of a mixed-integer model, built with `good_lp`'s expressions.
//!
//! Formulations create variables and constraints through [`MipModel`], using `good_lp`'s
//! [`Variable`], [`Expression`] and [`constraint!`] as usual. The model keeps an ordered record
//! of every column (readable name such as `a[f=3,n=1]`, kind, bounds) and every row (name,
//! terms sorted by column, sense, right-hand side), because a `good_lp` problem cannot be read
//! back; no `good_lp` problem is kept beside it. Its variables come from one pool for the whole
//! process (`variable_pool`), in blocks of consecutive indices, so a variable's column follows
//! from its `good_lp` index (see `variable_index`) and a variable of another model is always
//! recognised as foreign. Everything else is built from this record:
//! - the solver backends load it (see [`crate::solver`]), so the solvers see exactly the model
//!   that is exported and checked;
//! - [`Assignment`]s (complete values for every column, for warm starts and solutions) are
//!   checked against it ([`MipModel::check`]) and evaluated ([`MipModel::objective_value`]);
//! - [`ModelSize`] reports its dimensions;
//! - the writers export it as CPLEX LP ([`MipModel::write_lp`]), free MPS
//!   ([`MipModel::write_mps`]), and a start as a Gurobi `.mst` file ([`MipModel::write_mst`]) or a
//!   HiGHS `.sol` file ([`MipModel::write_highs_solution`]), all with the same file names
//!   ([`MipModel::file_name`]), coefficients in a stable order and the same bytes for the same
//!   model; [`read_mst`] reads such a start back.
//!
//! The objective is always minimised; its constant term is kept everywhere (reports, checks,
//! files).

mod assignment;
pub mod build_clock;
mod check;
mod column_map;
mod lp_writer;
mod model;
mod mps_writer;
mod names;
mod number_format;
mod record;
mod start_reader;
mod start_writer;
mod variable_index;
mod variable_pool;

pub use assignment::{Assignment, AssignmentBuilder};
pub use check::{Feasibility, Violation, ViolationKind, FEASIBILITY_TOLERANCE};
pub use good_lp::{constraint, Constraint, Expression, Variable};
pub use model::MipModel;
pub use record::{ModelSize, RowInfo, RowSense, VarInfo, VarKind};
pub use start_reader::read_mst;
