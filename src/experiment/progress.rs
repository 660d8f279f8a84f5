//! The progress display of a grid: one overall bar (runs done of runs to do, and the current
//! configuration) with the running solve's own line beneath it, drawn only when stderr is a
//! terminal. Otherwise, unless quiet, one line per finished run goes to stderr.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::experiment::config::RunConfig;
use crate::experiment::row::Row;
use crate::noteln;
use crate::solver::Progress;

/// How a grid shows its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressMode {
    /// Bars when stderr is a terminal, one line per run otherwise.
    Auto,
    /// Nothing.
    Quiet,
}

/// The display of one grid.
pub struct GridProgress {
    multi: Option<MultiProgress>,
    bar: Option<ProgressBar>,
    lines: bool,
    total: usize,
    done: usize,
}

impl GridProgress {
    /// A display for `total` runs.
    pub fn new(total: usize, mode: ProgressMode) -> GridProgress {
        let terminal = std::io::stderr().is_terminal();
        let (multi, bar) = if mode == ProgressMode::Auto && terminal {
            let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
            let bar = multi.add(ProgressBar::new(total as u64));
            if let Ok(style) = ProgressStyle::with_template(
                "{pos}/{len} runs {bar:20.cyan/blue} {elapsed_precise} · {wide_msg}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(500));
            (Some(multi), Some(bar))
        } else {
            (None, None)
        };
        GridProgress {
            multi,
            bar,
            lines: mode == ProgressMode::Auto && !terminal,
            total,
            done: 0,
        }
    }

    /// Where the solve of the current run draws its line.
    pub fn solve_progress(&self) -> Progress {
        match &self.multi {
            Some(multi) => Progress::Attached(multi.clone()),
            None => Progress::Hidden,
        }
    }

    /// A run starts.
    pub fn start(&self, config: &RunConfig) {
        if let Some(bar) = &self.bar {
            bar.set_message(config.describe());
        }
    }

    /// A run finished with `row`.
    pub fn finished(&mut self, row: &Row) {
        self.done += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        if self.lines {
            let seconds = row
                .seconds
                .map_or_else(|| "-".to_string(), |s| format!("{s:.2} s"));
            noteln!(
                "[{}/{}] {}: {} in {seconds}",
                self.done,
                self.total,
                row.run_key,
                row.termination
            );
        }
    }

    /// Prints a message above the bars (or on stderr without them).
    pub fn message(&self, text: &str) {
        match &self.multi {
            Some(multi) => {
                if multi.println(text).is_err() {
                    noteln!("{text}");
                }
            }
            None => noteln!("{text}"),
        }
    }

    /// Removes the bars.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
