//! One fold's fits: a configuration's method learned on the fold's training rows by the
//! library's one entry point ([`learn::learn`], as `solve` runs it) and scored on both sides
//! of the fold; or, for the sparse search, the configurations of one group that differ only in
//! their leaf penalty, solved as one path ([`sparse::solve_path`]: each solve starts from what
//! the previous ones proved). A fit that fails, or ends without a tree, is a [`Fit`] that says
//! so, never an error of the run.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::data::Dataset;
use crate::error::Result;
use crate::learn::{self, LearnOptions, Method, Outcome};
use crate::solver::Termination;
use crate::sparse;
use crate::tree::Tree;
use crate::tune::grid::Config;
use crate::tune::score::Scores;

/// How a fit ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitStatus {
    /// A tree proven optimal.
    Optimal,
    /// A tree at a limit (time), not proven optimal.
    Limit,
    /// No tree: an error, or a solver that found none.
    Failed,
}

/// The record of one fit: a configuration on one fold of one repeat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// The configuration's label ([`Config::label`]).
    pub config: String,
    pub repeat: usize,
    pub fold: usize,
    pub status: FitStatus,
    /// How the solver or search ended (`optimal`, `time_limit`, `error: ...`).
    pub termination: String,
    /// Wall-clock seconds of the fit (its share of a path: the seconds of its own solve).
    pub seconds: f64,
    pub leaves: Option<usize>,
    pub depth: Option<usize>,
    /// Scores on the fold's training rows and on its validation rows.
    pub train: Option<Scores>,
    pub validation: Option<Scores>,
    /// Where the fit's tree was stored, if it was.
    #[serde(default)]
    pub tree_file: Option<String>,
}

impl Fit {
    /// The key of the fit in a store: configuration, repeat, fold.
    pub fn key(&self) -> (String, usize, usize) {
        (self.config.clone(), self.repeat, self.fold)
    }
}

/// What one fold gives a fit: where it is, and its rows.
pub struct FoldData<'a> {
    pub repeat: usize,
    pub fold: usize,
    pub train: &'a Dataset,
    pub validation: &'a Dataset,
}

/// Fits `method` (configuration `config`) on the fold.
pub fn fit_one(
    config: &Config,
    method: &Method,
    fold: &FoldData<'_>,
    options: LearnOptions,
) -> (Fit, Option<Tree>) {
    let start = Instant::now();
    let outcome = learn::learn(method, fold.train, options);
    let seconds = start.elapsed().as_secs_f64();
    record(config, fold, outcome, Some(seconds))
}

/// Fits the sparse searches of `group` (configurations with their methods, penalties
/// increasing, every other parameter equal) on the fold as one path.
pub fn fit_path(
    group: &[(Config, Method)],
    fold: &FoldData<'_>,
    options: &LearnOptions,
) -> Vec<(Fit, Option<Tree>)> {
    let searches: Vec<_> = group
        .iter()
        .filter_map(|(_, method)| match method {
            Method::Sparse(search) => Some(search),
            _ => None,
        })
        .collect();
    // As `learn` runs a method: over the fold's missing-value copies, its trees mapped back.
    let solve = |train: &Dataset| -> Result<Vec<Outcome>> {
        let problems = searches
            .iter()
            .map(|search| search.problem(train))
            .collect::<Result<Vec<_>>>()?;
        let first = searches.first().ok_or_else(|| {
            crate::Error::Internal("a path of sparse searches with no search".into())
        })?;
        let found = sparse::solve_path(train, &problems, &first.options(options))?;
        Ok(found
            .into_iter()
            .zip(searches.iter().zip(&problems))
            .map(|(found, (search, problem))| {
                search.outcome(found, train, problem, options.budget.limit_seconds())
            })
            .collect())
    };
    let solved = learn::missing::with_copies(fold.train, solve, |outcomes, map| {
        outcomes
            .into_iter()
            .map(|outcome| learn::missing::map_outcome(outcome, map))
            .collect()
    });
    match solved {
        Ok(outcomes) if outcomes.len() == group.len() => group
            .iter()
            .zip(outcomes)
            .map(|((config, _), outcome)| record(config, fold, Ok(outcome), None))
            .collect(),
        Ok(_) => group
            .iter()
            .map(|(config, _)| {
                let missing = crate::Error::Internal("the path returned too few trees".into());
                record(config, fold, Err(missing), None)
            })
            .collect(),
        Err(error) => {
            let text = error.to_string();
            group
                .iter()
                .map(|(config, _)| {
                    record(
                        config,
                        fold,
                        Err(crate::Error::Internal(text.clone())),
                        None,
                    )
                })
                .collect()
        }
    }
}

/// The fit of `config` from a run's outcome; `seconds` is the wall time measured around it
/// (`None`: the outcome's own seconds).
fn record(
    config: &Config,
    fold: &FoldData<'_>,
    outcome: Result<Outcome>,
    seconds: Option<f64>,
) -> (Fit, Option<Tree>) {
    let mut fit = Fit {
        config: config.label(),
        repeat: fold.repeat,
        fold: fold.fold,
        status: FitStatus::Failed,
        termination: String::new(),
        seconds: seconds.unwrap_or(0.0),
        leaves: None,
        depth: None,
        train: None,
        validation: None,
        tree_file: None,
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            fit.termination = format!("error: {error}");
            return (fit, None);
        }
    };
    fit.termination = outcome.report.termination.to_string();
    if seconds.is_none() {
        fit.seconds = outcome.report.seconds;
    }
    let Some(tree) = outcome.tree else {
        return (fit, None);
    };
    let scores = Scores::of(&tree, fold.train)
        .and_then(|train| Scores::of(&tree, fold.validation).map(|validation| (train, validation)));
    match scores {
        Ok((train, validation)) => {
            fit.train = Some(train);
            fit.validation = Some(validation);
            fit.leaves = Some(tree.leaves().len());
            fit.depth = Some(tree.actual_depth());
            fit.status = if outcome.report.termination == Termination::Optimal {
                FitStatus::Optimal
            } else {
                FitStatus::Limit
            };
            (fit, Some(tree))
        }
        Err(error) => {
            fit.termination = format!("error: {error}");
            (fit, None)
        }
    }
}
