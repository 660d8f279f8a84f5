//! The monitor of a running solve: it keeps the incumbent, bound and trajectory the solver
//! reports, and draws the progress line (solver, elapsed / limit, incumbent, bound, gap).
//!
//! The trajectory gets a point at every improving solution, a bound-only point when the bound
//! has moved and at least [`BOUND_POINT_INTERVAL`] seconds passed since the last point, and a
//! final point with the final state. Every point also goes to the caller's [`Watch`], if the
//! options' progress has one.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::gap::gaps;
use super::{Progress, SolveOptions, TrajectoryPoint, Watch};

/// Minimum seconds between two bound-only trajectory points.
pub(crate) const BOUND_POINT_INTERVAL: f64 = 1.0;

/// Minimum time between two redraws of the progress message.
const REDRAW_INTERVAL: Duration = Duration::from_millis(100);

/// The trajectory of a finished solve.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trajectory {
    /// The points, in time order.
    pub points: Vec<TrajectoryPoint>,
    /// `(seconds, objective)` of the first incumbent reported.
    pub first_incumbent: Option<(f64, f64)>,
    /// The bound at the end of the solver's first root node evaluation, when it said.
    pub root_bound: Option<f64>,
}

#[derive(Debug, Default)]
struct State {
    incumbent: Option<f64>,
    bound: Option<f64>,
    trajectory: Trajectory,
    last_point: f64,
    last_draw: Option<Instant>,
}

/// Incumbent, bound, trajectory and progress line of one solve.
#[derive(Debug)]
pub(crate) struct Monitor {
    started: Instant,
    solver: &'static str,
    bar: Option<ProgressBar>,
    watch: Option<Watch>,
    state: Mutex<State>,
}

impl Monitor {
    /// A monitor for a solve by `solver` that started at `started`.
    pub(crate) fn new(solver: &'static str, options: &SolveOptions, started: Instant) -> Monitor {
        let bar = if options.log {
            None
        } else {
            spinner_line(solver, options.budget.limit_seconds(), &options.progress)
        };
        Monitor {
            started,
            solver,
            bar,
            watch: options.progress.watch().cloned(),
            state: Mutex::new(State::default()),
        }
    }

    /// Wall seconds since the solve started.
    pub(crate) fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// The solver found an improving solution of value `objective`.
    pub(crate) fn incumbent(&self, objective: f64, bound: Option<f64>) {
        let seconds = self.elapsed();
        let mut state = self.lock();
        state.incumbent = finite(objective);
        if let Some(bound) = bound.and_then(finite) {
            state.bound = Some(bound);
        }
        if state.trajectory.first_incumbent.is_none() {
            state.trajectory.first_incumbent = Some((seconds, objective));
        }
        let point = TrajectoryPoint {
            seconds,
            incumbent: state.incumbent,
            bound: state.bound,
        };
        self.record(&mut state, point);
        self.draw(&mut state, true);
    }

    /// A periodic report of the search: incumbent and bound as the solver knows them.
    pub(crate) fn progress(&self, incumbent: Option<f64>, bound: Option<f64>) {
        let seconds = self.elapsed();
        let mut state = self.lock();
        if let Some(incumbent) = incumbent.and_then(finite) {
            state.incumbent = Some(incumbent);
        }
        if let Some(bound) = bound.and_then(finite) {
            let moved = state.bound != Some(bound);
            state.bound = Some(bound);
            if moved && seconds - state.last_point >= BOUND_POINT_INTERVAL {
                let point = TrajectoryPoint {
                    seconds,
                    incumbent: state.incumbent,
                    bound: state.bound,
                };
                self.record(&mut state, point);
            }
        }
        self.draw(&mut state, false);
    }

    /// The solver's bound at the end of its first root node evaluation (kept once).
    pub(crate) fn root_bound(&self, bound: Option<f64>) {
        let mut state = self.lock();
        if state.trajectory.root_bound.is_none() {
            state.trajectory.root_bound = bound.and_then(finite);
        }
    }

    /// Writes a line of the solver's log to stderr (the progress line is hidden while logging).
    pub(crate) fn log(&self, text: &str) {
        crate::console::note(format_args!("{text}"));
    }

    /// Ends the display and returns the trajectory, closed by a point with the final state.
    pub(crate) fn finish(self, incumbent: Option<f64>, bound: Option<f64>) -> Trajectory {
        let seconds = self.elapsed();
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let state = match self.state.into_inner() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut trajectory = state.trajectory;
        let last = TrajectoryPoint {
            seconds,
            incumbent: incumbent.and_then(finite),
            bound: bound.and_then(finite),
        };
        if let Some(watch) = &self.watch {
            watch.see(self.solver, last.incumbent, last.bound);
        }
        trajectory.points.push(last);
        trajectory
    }

    /// Adds `point` to the trajectory and hands it to the watch.
    fn record(&self, state: &mut State, point: TrajectoryPoint) {
        if let Some(watch) = &self.watch {
            watch.see(self.solver, point.incumbent, point.bound);
        }
        state.last_point = point.seconds;
        state.trajectory.points.push(point);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn draw(&self, state: &mut State, force: bool) {
        let Some(bar) = &self.bar else { return };
        let now = Instant::now();
        if !force && state.last_draw.is_some_and(|t| now - t < REDRAW_INTERVAL) {
            return;
        }
        state.last_draw = Some(now);
        // Six decimals are plenty on one line; `+ 0.0` turns -0 into 0.
        let show = |v: Option<f64>| {
            v.map_or("-".to_string(), |v| {
                format!("{}", (v * 1e6).round() / 1e6 + 0.0)
            })
        };
        let gap = match gaps(state.incumbent, state.bound) {
            (_, Some(rel)) => format!("{:.2}%", 100.0 * rel),
            _ => "-".to_string(),
        };
        bar.set_message(format!(
            "incumbent {} · bound {} · gap {gap}",
            show(state.incumbent),
            show(state.bound)
        ));
    }
}

/// The spinner line of a running search by `program` under `time_limit`, where `progress`
/// says (`None` for [`Progress::Hidden`]): `program elapsed / limit` and a message, which
/// starts as `no incumbent yet`. indicatif draws it only on a terminal.
pub(crate) fn spinner_line(
    program: &str,
    time_limit: Option<f64>,
    progress: &Progress,
) -> Option<ProgressBar> {
    let bar = match progress {
        Progress::Hidden | Progress::Watched(_) => return None,
        Progress::Stderr => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
        Progress::Attached(multi) => multi.add(ProgressBar::new_spinner()),
    };
    let limit = time_limit
        .map(|limit| format!(" / {limit:.1} s"))
        .unwrap_or_default();
    let template = format!("{{spinner}} {program} {{elapsed_precise}}{limit} {{wide_msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.set_message("no incumbent yet");
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// `Some(value)` when finite (solvers use infinities and huge numbers for "none").
pub(crate) fn finite(value: f64) -> Option<f64> {
    (value.is_finite() && value.abs() < 1e30).then_some(value)
}
