//! The `milptree` command line: argument parsing ([`args`]), one file per command, and the
//! mapping of errors to exit codes (0 success, 2 bad usage or bad input, 1 other failures).
//! Errors go to stderr with their whole chain; results go to stdout, as human text or, with
//! `--json`, as one JSON document.

mod args;
mod data_args;
mod experiment;
mod export_lp;
mod greedy;
mod interrupt;
mod model_args;
mod output;
mod pareto;
mod predict;
mod show;
mod solve;

use std::error::Error as _;

use clap::{ArgMatches, CommandFactory, FromArgMatches};

pub use args::{Cli, Command};

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let command = Cli::command();
    let parsed = command
        .clone()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = error.print();
            return error.exit_code();
        }
    };
    match check_options(&command, &matches).and_then(|()| run(cli)) {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("error: {error}");
            let mut source = error.source();
            while let Some(cause) = source {
                eprintln!("  caused by: {cause}");
                source = cause.source();
            }
            error.exit_code()
        }
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
    }
}
