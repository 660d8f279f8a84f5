//! The command line for programs that embed the library (the Python package's console
//! script): a command line given as a list of words run in this process; the settings that
//! `solve`'s options describe, built as `milptree solve` builds them (the library's
//! [`crate::learn::settings`], for tests that run combinations as the command line would);
//! and what `solve` refuses after a run.

use std::ffi::OsString;

use clap::{Args, FromArgMatches};

use crate::cli::args::SolveArgs;
use crate::error::{Error, Result};
use crate::learn::certificate::Verdict;
use crate::learn::{LearnOptions, Method, Outcome};

/// Runs the command line `args` (the program name first) in this process, printing to the
/// standard streams, and returns its exit code. Solves that need a worker process find it as
/// any library caller does ([`crate::solver::worker::worker_program`]).
pub fn run_command_line(args: Vec<OsString>) -> i32 {
    super::exit_code(args)
}

/// The method and the run options that `solve`'s model and solver options `words` describe
/// (e.g. `["--solver", "dp", "--depth", "3"]`; no data file), built and checked by the
/// library's settings as `solve` builds them. The options have no interrupt flag and hide
/// progress.
pub fn solve_settings(words: &[String]) -> Result<(Method, LearnOptions)> {
    let command = SolveArgs::augment_args(clap::Command::new("solve").no_binary_name(true))
        .mut_args(|arg| {
            if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        });
    // The data file is the caller's: a placeholder fills its place.
    let words = std::iter::once("-".to_string()).chain(words.iter().cloned());
    let matches = command.try_get_matches_from(words).map_err(usage_error)?;
    let args = SolveArgs::from_arg_matches(&matches).map_err(usage_error)?;
    crate::cli::solve::settings(&args)?.build()
}

/// What `solve` refuses after a run, as an error: a certificate that contradicts the solver,
/// and a run that failed (infeasible, unbounded, a solver error) or found no tree.
pub fn refuse_failed_run(method: &Method, outcome: &Outcome) -> Result<()> {
    let failure = |message: String| Error::Solver {
        solver: method.solver_name().to_string(),
        message,
    };
    if let Some(certificate) = outcome
        .certificate
        .as_ref()
        .filter(|c| c.verdict == Verdict::Contradiction)
    {
        return Err(failure(format!(
            "CONTRADICTION: {}. This is a bug in the solver or in milptree's model",
            certificate.message
        )));
    }
    let termination = &outcome.report.termination;
    if termination.is_failure(outcome.report.has_solution) || outcome.tree.is_none() {
        let tree = if outcome.tree.is_some() {
            "the tree reported is the solver's last incumbent"
        } else {
            "no tree"
        };
        return Err(failure(format!(
            "{tree}: the solve ended with {termination}"
        )));
    }
    Ok(())
}

/// A clap error as the library's error: its message up to the usage (one line), without
/// clap's `error: ` prefix.
fn usage_error(error: clap::Error) -> Error {
    let text = error.to_string();
    let message = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    Error::parameter(
        "option",
        message
            .strip_prefix("error: ")
            .unwrap_or(&message)
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn solve_options_give_the_method_and_run_options() {
        let (method, options) =
            solve_settings(&words("--solver dp --depth 3 --time-limit 2.5")).unwrap();
        assert_eq!((method.name(), method.depth()), ("dp", 3));
        assert_eq!(options.budget.limit_seconds(), Some(2.5));
        assert!(options.budget.interrupt().is_none());
        let (method, _) = solve_settings(&words("--formulation oct --depth 1")).unwrap();
        assert_eq!((method.name(), method.solver_name()), ("oct", "highs"));
    }

    #[test]
    fn options_are_checked_as_solve_checks_them() {
        let message = |text: &str| solve_settings(&words(text)).unwrap_err().to_string();
        assert_eq!(
            message("--solver sparse --alpha 0.1"),
            "invalid --alpha: does not apply to --solver sparse (it applies to oct, dp)"
        );
        assert!(message("--solver dp --depth -1").contains("-1"));
        let unknown = message("--solver dp --depth 2 --objective nope");
        assert!(unknown.contains("--objective") && unknown.contains("possible values"));
        assert!(!unknown.contains('\n'));
        assert!(message("--solver dp --depth 2 --time-limit nan").contains("time"));
    }
}
