//! Which `good_lp` variables are a model's columns: the model's blocks of pool variables (see
//! `variable_pool`), by which a variable's column is found from its index. Shared
//! (copy-on-write) between a model and the assignments made for it, so that an assignment is
//! read by variable and keeps its model's variables from other models while it lives.

use std::sync::Arc;

use good_lp::Variable;
use rustc_hash::FxHashMap;

use super::variable_index::index_of;
use super::variable_pool::{Block, Lease, BLOCK};

/// The blocks of one model's columns: column `j` is the variable at offset `j % BLOCK` of the
/// model's block number `j / BLOCK`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ColumnMap {
    lease: Arc<Lease>,
    /// The position among the model's blocks of each of its blocks, by block id.
    positions: FxHashMap<usize, usize>,
}

impl ColumnMap {
    /// Takes the block of columns from `BLOCK * position` on.
    pub(crate) fn add_block(map: &mut Arc<ColumnMap>, position: usize) -> Block {
        let map = Arc::make_mut(map);
        let block = map.lease.take_block();
        map.positions.insert(block.id, position);
        block
    }

    /// The column of `variable` among the first `columns` columns, if it is one of them.
    pub(crate) fn column(&self, variable: Variable, columns: usize) -> Option<usize> {
        let index = index_of(variable);
        let position = self.positions.get(&(index / BLOCK))?;
        let column = position * BLOCK + index % BLOCK;
        (column < columns).then_some(column)
    }
}
