//! The `milptree` command line: argument parsing ([`args`]), one file per command, and the
//! mapping of errors to exit codes (0 success, 2 bad usage or bad input, 1 other failures).
//! Errors go to stderr with their whole chain; results go to stdout, as human text or, with
//! `--json`, as one JSON document. Every write goes through [`crate::console`].

mod args;
mod column_args;
mod constraint_args;
mod data_args;
pub mod embed;
mod experiment;
mod export_lp;
mod fairness_line;
mod greedy;
mod interrupt;
mod missing_args;
mod model_args;
mod output;
pub(crate) mod pages;
mod pareto;
mod pareto_fair;
mod path;
mod predict;
mod rashomon;
mod show;
mod solve;
mod tune;
mod worker;

use std::error::Error as _;
use std::ffi::OsString;

use clap::{ArgMatches, CommandFactory, FromArgMatches};

pub use args::{Cli, Command};

use crate::console::{self, Captured};

/// Runs the command line of this process and returns the process exit code. This process is
/// the milptree binary: it runs its own CBC workers.
pub fn main() -> i32 {
    crate::solver::worker::workers_run_this_program();
    exit_code(std::env::args_os())
}

/// Runs the command line `args` (the program name first) in this process, with its output
/// captured in memory instead of written to the standard streams, and returns the exit code
/// the process would have ended with and what it wrote. CBC solves find their worker program
/// as any library caller's do (see [`crate::solver::worker::worker_program`]).
pub fn run_in_memory<I, T>(args: I) -> (i32, Captured)
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    console::capture(|| exit_code(args))
}

/// Parses and runs the command line `args`; prints the error, if any, and returns the exit
/// code.
fn exit_code<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let command = command_line();
    let parsed = command
        .clone()
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            // Help or version that cannot be written is a failed write like any other; a usage
            // error that cannot be written keeps its exit code.
            return match print_clap_error(&error) {
                Err(source) if !error.use_stderr() => report(crate::Error::Stream {
                    stream: console::Stream::Stdout.name(),
                    source,
                }),
                _ => error.exit_code(),
            };
        }
    };
    match cli.command {
        Command::CbcWorker => return worker::run_cbc(),
        Command::HighsWorker => return worker::run_highs(),
        _ => {}
    }
    match check_options(&command, &matches).and_then(|()| run(cli)) {
        Ok(()) if interrupt::was_interrupted() => interrupt::INTERRUPTED_EXIT_CODE,
        Ok(()) => 0,
        // Stopped by Ctrl-C before it had anything to write (a model interrupted while it was
        // built): said, and the interrupt's code.
        Err(error) if interrupt::was_interrupted() => {
            report(error);
            interrupt::INTERRUPTED_EXIT_CODE
        }
        Err(error) => report(error),
    }
}

/// Prints `error` with its whole chain (nothing for a closed pipe) and returns its exit code.
fn report(error: crate::Error) -> i32 {
    if !error.is_closed_pipe() {
        crate::noteln!("error: {error}");
        let mut source = error.source();
        while let Some(cause) = source {
            crate::noteln!("  caused by: {cause}");
            source = cause.source();
        }
    }
    error.exit_code()
}

/// The command line's definition. Every option that takes a value accepts a negative number as
/// that value (`--seed -1`, `--time-limit -1`), so that the option's own check refuses it and
/// names the option, rather than clap taking `-1` for an unknown flag.
fn command_line() -> clap::Command {
    only_what_applies(Cli::command()).mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
    })
}

/// Narrows the shared options of the commands that run fewer methods than `solve`, so that each
/// command's help lists only what applies to it: `path` runs the sparse search, `export-lp`
/// writes MILPs (which count errors), and `tune` takes no row weights yet (the option is
/// hidden, and refused with a message when given).
fn only_what_applies(command: clap::Command) -> clap::Command {
    use crate::constraints::kinds::ConstraintTaker;
    use crate::learn::objective::ObjectiveName;
    use model_args::objective_of_command;
    command
        .mut_subcommand("path", |sub| {
            sub.mut_arg("objective", |arg| {
                objective_of_command(
                    arg,
                    &ObjectiveName::taken(ConstraintTaker::Sparse),
                    "The sparse search's loss (default accuracy)",
                )
            })
        })
        .mut_subcommand("export-lp", |sub| {
            sub.mut_arg("objective", |arg| {
                objective_of_command(
                    arg,
                    &ObjectiveName::taken(ConstraintTaker::Milp),
                    "[oct, binoct, flowoct] What an error costs (default accuracy)",
                )
            })
        })
        .mut_subcommand("tune", |sub| {
            sub.mut_arg("weight_column", |arg| arg.hide(true))
        })
}

/// Prints clap's help, version or usage error (styled when not captured); says whether it
/// could be written.
fn print_clap_error(error: &clap::Error) -> std::io::Result<()> {
    let stream = if error.use_stderr() {
        console::Stream::Stderr
    } else {
        console::Stream::Stdout
    };
    if console::is_captured() {
        console::print(stream, format_args!("{}", error.render())).map_err(|e| match e {
            crate::Error::Stream { source, .. } => source,
            other => std::io::Error::other(other.to_string()),
        })
    } else if console::closed_at_start(stream) {
        Err(std::io::Error::from_raw_os_error(libc::EBADF))
    } else {
        error.print()
    }
}

/// Checks what the types cannot: that every model option given applies to the formulation
/// (`solve`'s settings are checked by the library, [`crate::learn::settings`]).
fn check_options(command: &clap::Command, matches: &ArgMatches) -> crate::Result<()> {
    if let Some((name, sub_matches)) = matches.subcommand() {
        if name == "solve" {
            return Ok(());
        }
        if let Some(sub_command) = command.find_subcommand(name) {
            model_args::refuse_options_that_do_not_apply(sub_command, sub_matches)?;
        }
    }
    Ok(())
}

/// Runs one parsed command.
pub fn run(cli: Cli) -> crate::Result<()> {
    match cli.command {
        Command::Greedy(args) => greedy::run(args),
        Command::Predict(args) => predict::run(args),
        Command::Show(args) => show::run(args),
        Command::Solve(args) => solve::run(args),
        Command::ExportLp(args) => export_lp::run(args),
        Command::Pareto(args) => pareto::run(args),
        Command::Experiment(args) => experiment::run(args),
        Command::CbcWorker | Command::HighsWorker => Err(crate::Error::parameter(
            "command",
            "solver workers run only as the child process of a solve",
        )),
        Command::Path(args) => path::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Rashomon(args) => rashomon::run(args),
    }
}
