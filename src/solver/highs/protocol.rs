//! What the parent sends a HiGHS worker: the [`Job`] of the shared worker protocol
//! ([`crate::solver::worker::protocol`]) with HiGHS's [`Problem`] and the shared [`Settings`]. The worker
//! sends HiGHS's log (with `log` on), an event per improving solution (its values included)
//! and per bound move, and the result.

use serde::{Deserialize, Serialize};

use crate::solver::worker::protocol::{ColumnModel, Settings};

/// One HiGHS solve, as the worker receives it.
pub(crate) type Job = crate::solver::worker::protocol::Job<Problem, Settings>;

/// The problem to solve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Problem {
    /// A model given whole, with its start.
    Model(Box<ColumnModel>),
    /// A model file read by HiGHS's own reader, with a start file (a HiGHS `.sol` file).
    File { path: String, start: Option<String> },
}
