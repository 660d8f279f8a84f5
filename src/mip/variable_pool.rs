//! The process-wide supply of `good_lp` variables, so that no two live models share one.
//!
//! A `good_lp` [`Variable`] is only an index into the `ProblemVariables` that made it: two
//! models that each made their own would hand out the same variables, and a variable of one
//! model whose index falls within the other's columns could not be told from the other's own.
//! Every [`super::MipModel`] takes its variables from this one pool instead, so a model's map
//! from variables to columns recognises its own variables and no others.
//!
//! A model's variables go back to the pool when the model, its clones and every assignment made
//! for it are gone (the [`Lease`] is dropped), and are handed out again oldest first; the pool
//! holds as many variables as were ever alive at once. A variable kept after its model is gone
//! may come to belong to a later model, and a variable made by `good_lp` outside any model
//! (its own `ProblemVariables`) may coincide with one of the pool's: neither can be told apart.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use good_lp::{ProblemVariables, Variable};

/// How many variables a lease takes from the pool at a time.
const CHUNK: usize = 256;

/// Every variable made so far, and those free to hand out.
struct Pool {
    /// Makes new variables; its definitions are never used.
    maker: ProblemVariables,
    /// Variables given back, in the order they were given back.
    free: VecDeque<Variable>,
}

/// Locks `mutex`, going on after a panic elsewhere (the data stays consistent: every change
/// is a single push or pop).
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

/// Takes `count` variables from the pool, free ones first.
fn take_from_pool(count: usize) -> Vec<Variable> {
    let mut pool = lock(pool());
    let reused = count.min(pool.free.len());
    let mut variables: Vec<Variable> = pool.free.drain(..reused).collect();
    while variables.len() < count {
        let variable = pool.maker.add(good_lp::variable());
        variables.push(variable);
    }
    variables
}

/// The variables of one model, its clones and its assignments; they go back to the pool when
/// the lease is dropped.
#[derive(Debug, Default)]
pub(crate) struct Lease {
    state: Mutex<LeaseState>,
}

#[derive(Debug, Default)]
struct LeaseState {
    /// Variables handed to the model.
    used: Vec<Variable>,
    /// Variables taken from the pool and not handed out yet.
    spare: Vec<Variable>,
}

impl Lease {
    /// A variable no other live model has.
    pub(crate) fn take(&self) -> Variable {
        let mut state = lock(&self.state);
        if state.spare.is_empty() {
            let mut chunk = take_from_pool(CHUNK);
            // Hand the chunk out in the order the pool gave it.
            chunk.reverse();
            state.spare = chunk;
        }
        let variable = match state.spare.pop() {
            Some(variable) => variable,
            None => take_from_pool(1)[0],
        };
        state.used.push(variable);
        variable
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let state = std::mem::take(self.state.get_mut().unwrap_or_else(PoisonError::into_inner));
        let mut pool = lock(pool());
        pool.free.extend(state.used);
        pool.free.extend(state.spare.into_iter().rev());
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn live_leases_never_share_a_variable() {
        let first = Lease::default();
        let second = Lease::default();
        let mut seen = HashSet::new();
        for _ in 0..(3 * CHUNK) {
            assert!(seen.insert(first.take()));
            assert!(seen.insert(second.take()));
        }
        // Variables given back are handed out again, never while their lease lives.
        drop(first);
        let third = Lease::default();
        let kept: HashSet<Variable> = lock(&second.state).used.iter().copied().collect();
        for _ in 0..(3 * CHUNK) {
            assert!(!kept.contains(&third.take()));
        }
    }
}
