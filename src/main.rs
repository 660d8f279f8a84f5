//! The `milptree` binary: a thin call into the library's command line.
#![forbid(unsafe_code)]

fn main() {
    std::process::exit(milptree::cli::main());
}
