//! The progress line of a search that runs without a MILP (dp, sparse, the front): the
//! program, elapsed time and limit, and the incumbent, bound and gap the search publishes
//! through its [`ProgressSink`]. Drawn on stderr only when it is a terminal (indicatif hides
//! it on a pipe), and only with [`Progress::Stderr`] or [`Progress::Attached`]; with
//! [`Progress::Watched`] the points go to the caller's watch instead.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::search_core::ProgressSink;
use crate::solver::progress::spinner_line;
use crate::solver::{gaps, Progress, Watch};

/// One search's line; cleared when dropped.
pub struct SearchLine {
    bar: Option<ProgressBar>,
    program: String,
    watch: Option<Watch>,
}

impl SearchLine {
    /// Replaces the figures with `text` (for a search that publishes none).
    pub fn say(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(text.to_string());
        }
    }

    /// A line for `program` (`dp`, `sparse`, ...) under `time_limit`, where `progress` says.
    pub fn start(program: &str, time_limit: Option<f64>, progress: &Progress) -> SearchLine {
        SearchLine {
            bar: spinner_line(program, time_limit, progress),
            program: program.to_string(),
            watch: progress.watch().cloned(),
        }
    }

    /// The sink the search publishes to: each point redraws the line's figures, or goes to
    /// the watch.
    pub fn sink(&self) -> ProgressSink {
        let program = self.program.clone();
        match (self.bar.clone(), self.watch.clone()) {
            (Some(bar), _) => ProgressSink::new(move |incumbent, bound| {
                bar.set_message(figures(incumbent, bound));
            }),
            (None, Some(watch)) => ProgressSink::new(move |incumbent, bound| {
                watch.see(&program, Some(incumbent), Some(bound));
            }),
            (None, None) => ProgressSink::default(),
        }
    }
}

/// `incumbent 12 · bound 3 · gap 75.00%`.
pub fn figures(incumbent: f64, bound: f64) -> String {
    let show = |v: f64| format!("{}", (v * 1e6).round() / 1e6 + 0.0);
    let gap = match gaps(Some(incumbent), Some(bound)) {
        (_, Some(rel)) => format!("{:.2}%", 100.0 * rel),
        _ => "-".to_string(),
    };
    format!(
        "incumbent {} · bound {} · gap {gap}",
        show(incumbent),
        show(bound)
    )
}

impl Drop for SearchLine {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The line of a command that runs many fits (`tune`): runs done of the total, elapsed time,
/// and the limit of each run.
pub struct RunsLine {
    bar: Option<ProgressBar>,
}

impl RunsLine {
    /// A line for `total` runs of `what`, each under `time_limit`, where `progress` says.
    pub fn start(
        what: &str,
        total: usize,
        time_limit: Option<f64>,
        progress: &Progress,
    ) -> RunsLine {
        let bar = match progress {
            Progress::Hidden | Progress::Watched(_) => None,
            Progress::Stderr => Some(ProgressBar::with_draw_target(
                Some(total as u64),
                ProgressDrawTarget::stderr(),
            )),
            Progress::Attached(multi) => Some(multi.add(ProgressBar::new(total as u64))),
        };
        if let Some(bar) = &bar {
            let limit = time_limit
                .map(|limit| format!(", at most {limit:.1} s each"))
                .unwrap_or_default();
            let template = format!(
                "{{spinner}} {what} {{pos}}/{{len}} runs {{bar:20}} {{elapsed_precise}}{limit}"
            );
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        RunsLine { bar }
    }

    /// `runs` more are done.
    pub fn done(&self, runs: usize) {
        if let Some(bar) = &self.bar {
            bar.inc(runs as u64);
        }
    }
}

impl Drop for RunsLine {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
