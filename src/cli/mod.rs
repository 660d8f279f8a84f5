//! The `milptree` command line: argument parsing ([`args`]), one file per command, and the
//! mapping of errors to exit codes (0 success, 2 bad usage or bad input, 1 other failures).
//! Errors go to stderr with their whole chain; results go to stdout, as human text or, with
//! `--json`, as one JSON document. Every write goes through [`crate::console`].

mod args;
mod data_args;
mod experiment;
mod export_lp;
mod greedy;
mod interrupt;
mod model_args;
mod output;
mod pareto;
mod path;
mod predict;
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
    crate::solver::cbc::workers_run_this_program();
    exit_code(std::env::args_os())
}

/// Runs the command line `args` (the program name first) in this process, with its output
/// captured in memory instead of written to the standard streams, and returns the exit code
/// the process would have ended with and what it wrote. CBC solves find their worker program
/// as any library caller's do (see [`crate::solver::cbc::worker_program`]).
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
    let command = Cli::command();
    let parsed = command
        .clone()
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            print_clap_error(&error);
            return error.exit_code();
        }
    };
    if matches!(cli.command, Command::CbcWorker) {
        return worker::run();
    }
    match check_options(&command, &matches).and_then(|()| run(cli)) {
        Ok(()) => 0,
        Err(error) if error.is_closed_pipe() => error.exit_code(),
        Err(error) => {
            crate::noteln!("error: {error}");
            let mut source = error.source();
            while let Some(cause) = source {
                crate::noteln!("  caused by: {cause}");
                source = cause.source();
            }
            error.exit_code()
        }
    }
}

/// Prints clap's help, version or usage error (styled when not captured), best effort.
fn print_clap_error(error: &clap::Error) {
    if !console::is_captured() {
        let _ = error.print();
    } else if error.use_stderr() {
        console::note(format_args!("{}", error.render()));
    } else {
        let _ = crate::out!("{}", error.render());
    }
}

/// Checks what the types cannot: that every model option given applies to the formulation.
fn check_options(command: &clap::Command, matches: &ArgMatches) -> crate::Result<()> {
    if let Some((name, sub_matches)) = matches.subcommand() {
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
        Command::CbcWorker => Err(crate::Error::parameter(
            "command",
            "`cbc-worker` runs only as the child process of a CBC solve",
        )),
        Command::Path(args) => path::run(args),
        Command::Tune(args) => tune::run(args),
    }
}
