//! milptree's integration tests: one test binary, one module per area.
