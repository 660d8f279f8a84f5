//! milptree's integration tests: one test binary, one module per area.

mod binoct;
mod cart_sklearn;
mod cbc_worker;
mod cli_commands;
mod cli_solve;
mod common;
mod data_errors;
mod evaluator_props;
mod experiment;
mod experiment_sharing;
mod mip;
mod models;
mod oct;
mod olct;
mod oracle;
mod round_trip;
mod solver;
mod solver_oracle;
mod split;
mod tree_files;
