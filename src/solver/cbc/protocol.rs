//! What the parent sends a CBC worker: the [`Job`] of the shared worker protocol
//! ([`crate::solver::worker::protocol`]) with CBC's [`Problem`] and [`Settings`]. CBC's worker
//! sends its log (which the parent reads for incumbents and bounds, see [`super::log`]) and the
//! result; it sends no events.

use serde::{Deserialize, Serialize};

use crate::solver::worker::protocol::ColumnModel;

/// One CBC solve, as the worker receives it.
pub(crate) type Job = crate::solver::worker::protocol::Job<Problem, Settings>;

/// The problem to solve.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Problem {
    /// A model given whole, with its start.
    Model(Box<ColumnModel>),
    /// A model file read by CBC's own reader (`.mps` as MPS, anything else as LP), with a start
    /// given by column names.
    File {
        path: String,
        start: Option<Vec<(String, f64)>>,
    },
}

/// How CBC runs: the shared settings, and whether CBC preprocesses the model (see the module
/// documentation of the backend).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Settings {
    pub common: crate::solver::worker::protocol::Settings,
    pub preprocess: bool,
}
