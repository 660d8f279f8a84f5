//! The library's one error type and its mapping to process exit codes.
//!
//! Bad input (data files, tree files, parameters) exits with code 2; anything else that fails
//! (solver failures, output that cannot be written, internal inconsistencies) exits with code 1.

use std::io;

use crate::setting::{Names, Setting, SettingError};

/// Every error the library reports. Messages name the file, line, column or parameter involved.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A problem with an input file as a whole (missing, empty, header only, one class, ...).
    #[error("{path}: {message}")]
    Input { path: String, message: String },

    /// A problem with one cell of an input CSV file.
    #[error("{path}, line {line}, column {column} (`{name}`): {message}")]
    Cell {
        path: String,
        line: u64,
        column: usize,
        name: String,
        message: String,
    },

    /// An invalid parameter value (depth, fractions, flags that do not fit the data, ...).
    #[error("invalid {parameter}: {message}")]
    Parameter { parameter: String, message: String },

    /// A setting of a learning run that is refused, named as the caller names it
    /// ([`Error::render`]); `Display` uses the command line's names.
    #[error("{0}")]
    Setting(Box<SettingError>),

    /// A tree file that does not fit the data it is applied to.
    #[error("the tree does not match the data: {0}")]
    TreeMismatch(String),

    /// A tree or results file that cannot be parsed.
    #[error("{path}: {message}")]
    Format { path: String, message: String },

    /// An output file or stream that cannot be written.
    #[error("cannot write {path}: {source}")]
    Output {
        path: String,
        #[source]
        source: io::Error,
    },

    /// A standard stream (stdout, stderr) that cannot be written.
    #[error("cannot write to {stream}")]
    Stream {
        stream: &'static str,
        #[source]
        source: io::Error,
    },

    /// A mixed-integer model that is inconsistent (an incomplete assignment, an unknown variable).
    #[error("model: {0}")]
    Model(String),

    /// A solver that failed or reported something we cannot interpret.
    #[error("solver {solver}: {message}")]
    Solver { solver: String, message: String },

    /// A tree whose structure is invalid (a node outside the tree, a missing root or child, a
    /// class or feature out of range, ...), as [`crate::tree::TreeBuilder`] finds it. A tree
    /// file that fails this check is reported as [`Error::Format`] naming the file.
    #[error("invalid tree: {0}")]
    InvalidTree(String),

    /// An output that needs a tree the run did not produce (`solve -o` after no solution).
    #[error("no tree to write: {0}")]
    NoTree(String),

    /// A problem no tree meets (side constraints that the data and depth cannot satisfy),
    /// proven by a search.
    #[error("no tree meets the problem: {0}")]
    Infeasible(String),

    /// A broken internal invariant: a bug in milptree, reported rather than hidden.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<SettingError> for Error {
    fn from(error: SettingError) -> Error {
        Error::Setting(Box::new(error))
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Shorthand for a parameter error.
    pub fn parameter(parameter: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Parameter {
            parameter: parameter.into(),
            message: message.into(),
        }
    }

    /// The message with `names`: a refused setting as [`SettingError::render`] gives it, and
    /// a parameter error whose parameter is a setting's flag with the setting's name in
    /// `names` (the rest of its text as the library wrote it).
    pub fn render(&self, names: Names) -> String {
        match self {
            Error::Setting(error) => error.render(names),
            Error::Parameter { parameter, message } => match Setting::of_flag(parameter) {
                Some(setting) => format!("invalid {}: {message}", setting.name(names)),
                None => self.to_string(),
            },
            other => other.to_string(),
        }
    }

    /// Shorthand for a whole-file input error.
    pub fn input(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Input {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Whether this is a write to a standard stream whose reader has gone (a closed pipe, as
    /// after `| head -1`): not a failure, the command line ends quietly with exit 0.
    pub fn is_closed_pipe(&self) -> bool {
        matches!(self, Error::Stream { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }

    /// The process exit code for this error: 2 for bad input, 1 for other failures, 0 for a
    /// closed pipe on a standard stream.
    pub fn exit_code(&self) -> i32 {
        if self.is_closed_pipe() {
            return 0;
        }
        match self {
            Error::Input { .. }
            | Error::Cell { .. }
            | Error::Parameter { .. }
            | Error::Setting(_)
            | Error::TreeMismatch(_)
            | Error::Format { .. }
            | Error::Infeasible(_) => 2,
            Error::Output { .. }
            | Error::Stream { .. }
            | Error::Model(_)
            | Error::InvalidTree(_)
            | Error::Solver { .. }
            | Error::NoTree(_)
            | Error::Internal(_) => 1,
        }
    }
}
