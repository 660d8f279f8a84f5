//! The map from `good_lp` variables to our column indices, shared (copy-on-write) between a
//! model and the assignments made for it, so that an assignment can be read by variable. It
//! holds the model's [`Lease`] of variables, so they stay the model's while any copy lives.

use std::collections::HashMap;
use std::sync::Arc;

use good_lp::Variable;

use super::variable_pool::Lease;

/// Column index of every variable a model created, in creation order.
#[derive(Debug, Clone, Default)]
pub(crate) struct ColumnIndex {
    columns: HashMap<Variable, usize>,
    lease: Arc<Lease>,
}

impl ColumnIndex {
    /// A variable no other live model has, for the next column.
    pub(crate) fn new_variable(&self) -> Variable {
        self.lease.take()
    }

    /// Records `variable` as column `column`.
    pub(crate) fn insert(index: &mut Arc<ColumnIndex>, variable: Variable, column: usize) {
        Arc::make_mut(index).columns.insert(variable, column);
    }

    /// The column of `variable`, if this model created it.
    pub(crate) fn get(&self, variable: Variable) -> Option<usize> {
        self.columns.get(&variable).copied()
    }

    /// The column of `variable`.
    ///
    /// # Panics
    /// If the variable was not created by this model (a bug in the code building the model).
    pub(crate) fn expect(&self, variable: Variable) -> usize {
        match self.get(variable) {
            Some(column) => column,
            None => panic!("{variable:?} was not created by this model"),
        }
    }
}
