//! What a solve is asked to do: [`SolveOptions`] and where its progress goes ([`Progress`]).

use std::time::Duration;

use crate::budget::Budget;
use crate::error::{Error, Result};
use crate::mip::Assignment;
use crate::solver::Watch;

/// Where the progress display of a solve goes.
#[derive(Debug, Clone, Default)]
pub enum Progress {
    /// No progress display.
    #[default]
    Hidden,
    /// A spinner line on stderr (elapsed / limit, incumbent, bound, gap), drawn only when stderr
    /// is a terminal.
    Stderr,
    /// The same line, added to a caller's [`indicatif::MultiProgress`].
    Attached(indicatif::MultiProgress),
    /// No display: each point of progress is handed to a caller's [`Watch`].
    Watched(Watch),
}

impl Progress {
    /// The watch the points go to, if any.
    pub fn watch(&self) -> Option<&Watch> {
        match self {
            Progress::Watched(watch) => Some(watch),
            Progress::Hidden | Progress::Stderr | Progress::Attached(_) => None,
        }
    }
}

/// Options of one solve.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// The time of the whole solve, model load included (a zero limit stops as early as the
    /// solver can), and the interrupt flag: when set by someone else (e.g. a Ctrl-C handler),
    /// the solve stops and reports `interrupted`: HiGHS at its next check, with its best
    /// solution; CBC at once (its worker process is killed), with the incumbent its log showed
    /// (see [`crate::solver::cbc`]).
    pub budget: Budget,
    /// Relative MIP gap at which the solver may stop and call the result optimal. Default `0`:
    /// optimal means optimal (up to the solvers' absolute tolerances, 1e-6 for HiGHS, 1e-10 for
    /// CBC).
    pub mip_rel_gap: f64,
    /// Threads the solver may use, from 1 to the machine's hardware threads
    /// ([`machine_threads`]); `None`: the solver's default (HiGHS: half the hardware threads,
    /// rounded up; CBC: 1).
    pub threads: Option<usize>,
    /// Largest distance from an integer at which an integer column counts as integral (HiGHS
    /// `mip_feasibility_tolerance`, which also bounds row violations in a MIP; CBC
    /// `integerTolerance`). Big-M models need it well below `epsilon / M`. `None`: the solver's
    /// default (HiGHS 1e-6, CBC 1e-7).
    pub integrality_tolerance: Option<f64>,
    /// The backend's own parameters, `(name, value)`, set after every other option in this
    /// order (a later one wins): HiGHS option names (`mip_heuristic_effort`), CBC parameter
    /// names (`cutsOnOff`). HiGHS refuses an unknown name or a value of the wrong type; CBC takes
    /// any name and ignores one it does not know (its log says so).
    pub solver_options: Vec<(String, String)>,
    /// Stream the solver's own log to stderr (never stdout). The progress line is not drawn
    /// while the log is on.
    pub log: bool,
    /// Where progress goes.
    pub progress: Progress,
    /// A complete start, checked before solving and passed to the solver.
    pub warm_start: Option<Assignment>,
    /// Pass the warm start's objective (when the start is feasible by our check), plus a small
    /// margin, to the solver as an objective cutoff (HiGHS `objective_bound`, CBC `cutoff`):
    /// it then looks only for better solutions. A solver that proves there is none returns
    /// the start as optimal (see [`crate::solver::solve`]).
    pub start_as_cutoff: bool,
}

/// The hardware threads of this machine (the standard library's `available_parallelism`, which
/// honours CPU affinity and cgroup quotas; 1 when it cannot tell): the most threads a solve may
/// ask for.
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Checks a solver thread count: from one to the machine's hardware threads.
pub fn check_threads(threads: usize) -> Result<()> {
    let machine = machine_threads();
    if threads == 0 {
        return Err(Error::parameter("threads", "at least 1 thread is needed"));
    }
    if threads > machine {
        return Err(Error::parameter(
            "threads",
            format!(
                "{threads} threads asked for, but this machine has {machine} hardware threads; \
                 more would only make the solver's threads wait for each other"
            ),
        ));
    }
    Ok(())
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            budget: Budget::unlimited(),
            mip_rel_gap: 0.0,
            threads: None,
            integrality_tolerance: None,
            solver_options: Vec::new(),
            log: false,
            progress: Progress::Hidden,
            warm_start: None,
            start_as_cutoff: false,
        }
    }
}

impl SolveOptions {
    /// Checks the numeric options: a finite, non-negative time limit and gap, from one thread
    /// to the machine's hardware threads. Every solve is checked here, and only here.
    pub fn validate(&self) -> Result<()> {
        if !self.mip_rel_gap.is_finite() || self.mip_rel_gap < 0.0 {
            return Err(Error::parameter(
                "--mip-gap",
                format!("{} is not a relative gap >= 0", self.mip_rel_gap),
            ));
        }
        if let Some(tolerance) = self.integrality_tolerance {
            if !(1e-10..0.5).contains(&tolerance) {
                return Err(Error::parameter(
                    "integrality tolerance",
                    format!("{tolerance} is not between 1e-10 and 0.5"),
                ));
            }
        }
        if let Some(threads) = self.threads {
            check_threads(threads)?;
        }
        Ok(())
    }

    /// Whether the interrupt flag is set.
    pub(crate) fn interrupted(&self) -> bool {
        self.budget.interrupted()
    }

    /// The time left of the limit after `elapsed` (never negative).
    pub(crate) fn remaining(&self, elapsed: Duration) -> Option<Duration> {
        self.budget.after(elapsed).duration()
    }
}
