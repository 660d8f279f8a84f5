//! When the search must stop: a wall-clock limit and an interrupt flag, checked between units
//! of work. Checks can be suspended (to finish building a tree that was already found).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::budget::Budget;
use crate::search_core::{ProgressSink, Termination};

#[derive(Debug)]
pub(crate) struct Deadline {
    start: Instant,
    limit: Option<Duration>,
    interrupt: Option<Arc<AtomicBool>>,
    stopped: Option<Termination>,
    /// While set, [`Deadline::reached`] answers `false` (the reason stays recorded).
    pub suspended: bool,
    /// Where the search's points of progress are published.
    pub progress: ProgressSink,
}

impl Deadline {
    /// The deadline of `budget` for a search started at `start`.
    pub fn new(start: Instant, budget: &Budget) -> Deadline {
        Deadline {
            start,
            limit: budget.duration(),
            interrupt: budget.interrupt().cloned(),
            stopped: None,
            suspended: false,
            progress: ProgressSink::default(),
        }
    }

    /// The same deadline for another thread of the search: same start, limit, interrupt and
    /// progress sink, its own record of having stopped.
    pub fn fork(&self) -> Deadline {
        Deadline {
            start: self.start,
            limit: self.limit,
            interrupt: self.interrupt.clone(),
            stopped: None,
            suspended: false,
            progress: self.progress.clone(),
        }
    }

    /// Records that `other` (a fork) stopped, if it did and this one has not.
    pub fn join(&mut self, other: &Deadline) {
        self.stopped = self.stopped.or(other.stopped);
    }

    /// Moves the wall-clock limit to `limit` after the start (`None`: no limit) and forgets
    /// a stop for the old limit: a phase of the search with a limit of its own.
    pub fn set_limit(&mut self, limit: Option<Duration>) {
        self.limit = limit;
        if self.stopped == Some(Termination::TimeLimit) {
            self.stopped = None;
        }
    }

    /// Whether the search must stop now.
    pub fn reached(&mut self) -> bool {
        if self.suspended {
            return false;
        }
        if self.stopped.is_some() {
            return true;
        }
        if self
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            self.stopped = Some(Termination::Interrupted);
        } else if self
            .limit
            .is_some_and(|limit| self.start.elapsed() >= limit)
        {
            self.stopped = Some(Termination::TimeLimit);
        }
        self.stopped.is_some()
    }

    /// Whether the search was stopped (even while checks are suspended).
    pub fn stopped(&self) -> Option<Termination> {
        self.stopped
    }

    /// Whether the search is stopped and checks are not suspended: results are incomplete.
    pub fn aborted(&self) -> bool {
        !self.suspended && self.stopped.is_some()
    }

    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}
