//! milptree's integration tests: one test binary, one module per area.

mod mip;
mod models;
mod round_trip;
mod solver;
mod solver_oracle;
