//! milptree's integration tests: one test binary, one module per area.

mod binoct;
mod cart_sklearn;
mod cli_commands;
mod cli_solve;
mod common;
mod crafted_trees;
mod data_edges;
mod data_errors;
mod evaluator_props;
mod experiment;
mod fuzz;
mod mip;
mod models;
mod oct;
mod olct;
mod oracle;
mod round_trip;
mod solver;
mod solver_oracle;
mod split;
mod streams;
mod totality;
mod tree_files;
