//! milptree's integration tests: one test binary, one module per area.

mod binoct;
mod cart_sklearn;
mod certificate;
mod cli_commands;
mod cli_solve;
mod common;
mod data_errors;
mod dp_limits;
mod dp_methods;
mod dp_oracle;
mod dp_peers;
mod evaluator_props;
mod experiment;
mod flowoct;
mod mip;
mod models;
mod oct;
mod olct;
mod oracle;
mod pareto_oracle;
mod round_trip;
mod solver;
mod solver_oracle;
mod split;
mod tree_files;
