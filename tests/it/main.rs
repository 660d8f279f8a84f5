//! milptree's integration tests: one test binary, one module per area.

mod cart_sklearn;
mod cli_commands;
mod common;
mod data_errors;
mod evaluator_props;
mod olct;
mod oracle;
mod split;
mod tree_files;
