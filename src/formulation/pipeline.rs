//! Runs a formulation end to end: build the model, encode the warm start (a greedy tree by
//! default), solve, decode the incumbent, and check the decoded tree against the solver.
//!
//! The check is the project's rule that an optimal tree is a claim: the objective the model
//! assigns to the decoded tree is recomputed by plain code ([`Formulation::objective_of`]);
//! when it differs from the solver's objective (solver tolerances, a decoding that cannot
//! reproduce the solution's routing), the outcome says so in `decode_mismatch`, and every
//! figure reported about the tree comes from the plain evaluation, never from the model.

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use crate::data::Dataset;
use crate::error::Result;
use crate::formulation::{BuiltModel, Formulation};
use crate::mip::ModelSize;
use crate::solver::{self, SolveOptions, SolveReport, SolverKind};
use crate::tree::Tree;

/// Where the warm start comes from.
#[derive(Debug, Clone, Default)]
pub enum WarmStart {
    /// No warm start.
    None,
    /// The formulation's greedy tree (CART, or the greedy logistic tree for OLCT).
    #[default]
    Greedy,
    /// A given tree.
    Tree(Box<Tree>),
}

/// How to run a formulation.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub solver: SolverKind,
    /// Solver options; `warm_start` is filled in by the pipeline.
    pub solve: SolveOptions,
    pub warm_start: WarmStart,
}

/// The solver's objective and the plain evaluation of the decoded tree, when they differ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecodeMismatch {
    pub solver_objective: f64,
    pub evaluated_objective: f64,
    pub message: String,
}

/// Everything a run produced.
#[derive(Debug)]
pub struct Outcome {
    pub formulation: &'static str,
    pub parameters: Value,
    pub size: ModelSize,
    pub build_seconds: f64,
    pub report: SolveReport,
    /// The warm-start tree (as encoded) and the model's objective for it (plain code).
    pub warm_start_tree: Option<Tree>,
    pub warm_start_objective: Option<f64>,
    /// The model's objective for the decoded tree, computed by plain code.
    pub evaluated_objective: Option<f64>,
    pub decode_mismatch: Option<DecodeMismatch>,
    /// Notes from encoding and decoding.
    pub notes: Vec<String>,
    /// What post-processing did (e.g. OLCT's refinement), or null.
    pub post_process: Value,
    /// The final tree (after post-processing), when the solver found a solution.
    pub tree: Option<Tree>,
}

/// Whether two objective values agree to `tolerance`, relative to their size (at least 1).
pub fn objectives_agree(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * a.abs().max(b.abs()).max(1.0)
}

/// Runs `formulation` on the training data `train` (already relabelled if the formulation
/// relabels; see [`Formulation::relabel`]).
pub fn run<F: Formulation>(
    formulation: &F,
    train: &Dataset,
    options: RunOptions,
) -> Result<Outcome> {
    let started = Instant::now();
    let built = formulation.build(train)?;
    let build_seconds = started.elapsed().as_secs_f64();
    let mut notes = Vec::new();
    let warm_start_tree = match options.warm_start {
        WarmStart::None => None,
        WarmStart::Greedy => Some(formulation.greedy_tree(train)?),
        WarmStart::Tree(tree) => Some(*tree),
    };
    let mut solve = options.solve;
    if solve.integrality_tolerance.is_none() {
        solve.integrality_tolerance = formulation.integrality_tolerance();
    }
    let mut warm_start_objective = None;
    let warm_start_tree = match warm_start_tree {
        None => None,
        Some(tree) => {
            let encoded = formulation.encode(&built, &tree)?;
            notes.extend(encoded.notes);
            let evaluated = formulation.objective_of(&built, &encoded.tree)?;
            let model = built.mip().objective_value(&encoded.assignment);
            if !objectives_agree(evaluated, model, formulation.objective_tolerance()) {
                notes.push(format!(
                    "the warm start's model objective {model} differs from the plain evaluation \
                     of its tree {evaluated}"
                ));
            }
            warm_start_objective = Some(evaluated);
            solve.warm_start = Some(encoded.assignment);
            Some(encoded.tree)
        }
    };
    let solved = solver::solve(built.mip(), options.solver, &solve)?;
    let mut outcome = Outcome {
        formulation: formulation.name(),
        parameters: formulation.parameters(),
        size: built.mip().size(),
        build_seconds,
        report: solved.report,
        warm_start_tree,
        warm_start_objective,
        evaluated_objective: None,
        decode_mismatch: None,
        notes,
        post_process: Value::Null,
        tree: None,
    };
    let Some(solution) = solved.solution else {
        return Ok(outcome);
    };
    let decoded = formulation.decode(&built, &solution)?;
    outcome.notes.extend(decoded.notes);
    let evaluated = formulation.objective_of(&built, &decoded.tree)?;
    outcome.evaluated_objective = Some(evaluated);
    if let Some(objective) = outcome.report.objective {
        if !objectives_agree(objective, evaluated, formulation.objective_tolerance()) {
            outcome.decode_mismatch = Some(DecodeMismatch {
                solver_objective: objective,
                evaluated_objective: evaluated,
                message: format!(
                    "the solver reports objective {objective}, but the decoded tree evaluates to \
                     {evaluated}; the tree's figures below come from the plain evaluation"
                ),
            });
        }
    }
    let (tree, post_process) = formulation.post_process(&built, decoded.tree)?;
    outcome.post_process = post_process;
    outcome.tree = Some(tree);
    Ok(outcome)
}
