//! The process-wide supply of `good_lp` variables, so that no two live models share one.
//!
//! A `good_lp` [`Variable`] is only an index into the `ProblemVariables` that made it: two
//! models that each made their own would hand out the same variables, and a variable of one
//! model whose index falls within the other's columns could not be told from the other's own.
//! Every [`super::MipModel`] takes its variables from this one pool instead, in blocks of
//! [`BLOCK`] consecutive indices that start at a multiple of [`BLOCK`]. A model's column is then
//! found from a variable's index by arithmetic (its block, and the offset in it), and a variable
//! in no block of the model is foreign.
//!
//! A model's blocks go back to the pool when the model, its clones and every assignment made
//! for it are gone (the [`Lease`] is dropped), and are handed out again oldest first; the pool
//! holds as many variables as were ever alive at once. A variable kept after its model is gone
//! may come to belong to a later model, and a variable made by `good_lp` outside any model
//! (its own `ProblemVariables`) may coincide with one of the pool's: neither can be told apart.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use good_lp::{ProblemVariables, Variable};

use super::variable_index::index_of;

/// Variables per block.
pub(crate) const BLOCK: usize = 256;

/// One block of variables: indices `BLOCK * id .. BLOCK * (id + 1)`, in order.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub(crate) id: usize,
    pub(crate) variables: Vec<Variable>,
}

/// Every block made so far, and those free to hand out.
struct Pool {
    /// Makes new variables, a block at a time; its definitions are never used.
    maker: ProblemVariables,
    /// Blocks given back, in the order they were given back.
    free: VecDeque<Block>,
}

/// Locks `mutex`, going on after a panic elsewhere (every change under the lock is a single
/// push or pop, so the data stays consistent).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn pool() -> &'static Mutex<Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    POOL.get_or_init(|| {
        Mutex::new(Pool {
            maker: ProblemVariables::new(),
            free: VecDeque::new(),
        })
    })
}

/// The blocks held by one model, its clones and its assignments; they go back to the pool
/// when the lease is dropped.
#[derive(Debug, Default)]
pub(crate) struct Lease {
    blocks: Mutex<Vec<Block>>,
}

impl Lease {
    /// A block no other live lease holds.
    pub(crate) fn take_block(&self) -> Block {
        let block = {
            let mut pool = lock(pool());
            match pool.free.pop_front() {
                Some(block) => block,
                None => {
                    let variables = pool.maker.add_vector(good_lp::variable(), BLOCK);
                    let id = variables.first().map_or(0, |&v| index_of(v) / BLOCK);
                    Block { id, variables }
                }
            }
        };
        lock(&self.blocks).push(block.clone());
        block
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let blocks = std::mem::take(
            self.blocks
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner),
        );
        lock(pool()).free.extend(blocks);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn blocks_are_aligned_runs_of_indices() {
        let lease = Lease::default();
        for _ in 0..3 {
            let block = lease.take_block();
            assert_eq!(block.variables.len(), BLOCK);
            for (offset, &v) in block.variables.iter().enumerate() {
                assert_eq!(index_of(v), block.id * BLOCK + offset);
            }
        }
    }

    #[test]
    fn live_leases_never_share_a_block() {
        let first = Lease::default();
        let second = Lease::default();
        let mut seen = HashSet::new();
        for _ in 0..4 {
            assert!(seen.insert(first.take_block().id));
            assert!(seen.insert(second.take_block().id));
        }
        // Blocks given back are handed out again, never while their lease lives.
        let kept: HashSet<usize> = lock(&second.blocks).iter().map(|b| b.id).collect();
        drop(first);
        let third = Lease::default();
        for _ in 0..8 {
            assert!(!kept.contains(&third.take_block().id));
        }
    }
}
