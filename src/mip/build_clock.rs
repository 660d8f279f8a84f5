//! The clock of the model a thread is building: a learner that builds a model within a time
//! limit sets its deadline and interrupt flag around the build ([`BuildClock::start`]), and the
//! formulations' builders look at it ([`check`]) between units of work (a node, a row), so that
//! a build that cannot end within its limit, or that Ctrl-C interrupts, stops there with an
//! error instead of running on. Without a clock started on the thread (a model exported to a
//! file, a solve without a limit), [`check`] never stops a build.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::error::{Error, Result};

/// Why a build stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The deadline passed.
    TimeLimit,
    /// The interrupt flag was raised.
    Interrupted,
}

/// The option an error of a build stopped at its deadline names.
pub const TIME_LIMIT_OPTION: &str = "--time-limit";

#[derive(Default)]
struct Clock {
    deadline: Option<Instant>,
    interrupt: Option<Arc<AtomicBool>>,
    stopped: Option<Stopped>,
}

thread_local! {
    static CLOCK: RefCell<Option<Clock>> = const { RefCell::new(None) };
}

/// The clock of the builds on this thread while it lives; dropping it stops the clock.
#[must_use = "the clock runs while the guard lives"]
pub struct BuildClock {
    previous: Option<Clock>,
}

impl BuildClock {
    /// Starts the clock of the builds on this thread: they stop at `deadline` or when
    /// `interrupt` is raised (either may be absent).
    pub fn start(deadline: Option<Instant>, interrupt: Option<Arc<AtomicBool>>) -> BuildClock {
        let clock = Clock {
            deadline,
            interrupt,
            stopped: None,
        };
        BuildClock {
            previous: CLOCK.with(|cell| cell.replace(Some(clock))),
        }
    }

    /// Why the builds under this clock stopped, if they did.
    pub fn stopped(&self) -> Option<Stopped> {
        CLOCK.with(|cell| cell.borrow().as_ref().and_then(|clock| clock.stopped))
    }
}

impl Drop for BuildClock {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CLOCK.with(|cell| cell.replace(previous));
    }
}

/// Fails when the build running on this thread must stop: its deadline has passed or its
/// interrupt is raised (an error naming [`TIME_LIMIT_OPTION`], or a solver error for an
/// interrupt; the caller words it with what it was building). Cheap: a clock read.
pub fn check() -> Result<()> {
    let stopped = CLOCK.with(|cell| {
        let mut cell = cell.borrow_mut();
        let clock = cell.as_mut()?;
        let reason = if clock
            .interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            Some(Stopped::Interrupted)
        } else if clock.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stopped::TimeLimit)
        } else {
            None
        };
        clock.stopped = clock.stopped.or(reason);
        reason
    });
    match stopped {
        None => Ok(()),
        Some(Stopped::TimeLimit) => Err(Error::parameter(
            TIME_LIMIT_OPTION,
            "the model was still being built when the time limit ran out",
        )),
        Some(Stopped::Interrupted) => Err(Error::Solver {
            solver: "build".into(),
            message: "interrupted while the model was being built".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_stops_at_its_deadline_or_interrupt_and_not_without_a_clock() {
        assert!(check().is_ok());
        {
            let clock = BuildClock::start(Some(Instant::now()), None);
            assert!(check().is_err());
            assert_eq!(clock.stopped(), Some(Stopped::TimeLimit));
            // A clock started inside another is the one checked, until it is dropped.
            let flag = Arc::new(AtomicBool::new(false));
            let inner = BuildClock::start(None, Some(flag.clone()));
            assert!(check().is_ok());
            flag.store(true, Ordering::Relaxed);
            assert!(check().is_err());
            assert_eq!(inner.stopped(), Some(Stopped::Interrupted));
            drop(inner);
            assert_eq!(clock.stopped(), Some(Stopped::TimeLimit));
        }
        assert!(check().is_ok());
    }
}
