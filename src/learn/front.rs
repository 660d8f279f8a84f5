//! Learning the front of false positives and false negatives ([`learn_front`]): by the
//! bi-objective search, or by a MILP formulation with the epsilon-constraint method, with two
//! reference trees placed in the same plane: CART of the same depth, and the accuracy-optimal
//! tree from the exact single-objective search.
//!
//! The accuracy-optimal tree is also a check: a complete front's fewest errors (FP + FN) must
//! be its number of errors, or the two searches contradict each other and the run fails.
//!
//! Row weights: the bi-objective search takes whole multiples of one unit per class (see
//! [`pareto::solve`]), the accuracy-optimal tree is the weighted one (each class's error
//! costing its unit on the copies) and CART grows on the weighted rows; the epsilon-constraint
//! method counts rows and takes whole-number weights only.

use std::time::Instant;

use crate::budget::Budget;
use crate::data::{Dataset, Factored, ThresholdMode};
use crate::dp::{self, DpOptions, DpProblem, DpTermination};
use crate::error::{Error, Result};
use crate::formulation::AnyFormulation;
use crate::greedy::{cart, CartParams};
use crate::learn::epsilon::{epsilon_front, EpsilonOptions};
use crate::learn::front_document::EpsilonSolve;
use crate::pareto::{self, weighted_errors_of, ParetoOptions, ParetoOutcome, ParetoProblem};
use crate::solver::SolverKind;
use crate::tree::Tree;

/// The share of the time limit the accuracy-optimal reference tree gets.
pub const REFERENCE_SEARCH_SHARE: f64 = 0.1;

/// How the front is computed.
#[derive(Debug, Clone, PartialEq)]
pub enum FrontMethod {
    /// The bi-objective search.
    Search,
    /// The epsilon-constraint method on a formulation with [`crate::formulation::ClassErrors`]
    /// (OCT or BinOCT).
    Epsilon {
        formulation: AnyFormulation,
        solver: SolverKind,
        threads: Option<usize>,
    },
}

/// What to compute.
#[derive(Debug, Clone)]
pub struct FrontRequest {
    pub problem: ParetoProblem,
    pub method: FrontMethod,
    /// The time of the whole run, and its interrupt flag.
    pub budget: Budget,
    /// The search's cache cap, in MiB.
    pub memory_limit_mb: usize,
    /// Threads of the bi-objective search ([`FrontMethod::Search`]; at least 1).
    pub threads: usize,
}

/// A tree learned otherwise, to place in the plane of the front.
#[derive(Debug, Clone)]
pub struct ReferenceTree {
    /// `cart` or `accuracy_optimal`.
    pub name: String,
    pub tree: Tree,
    /// `greedy`, or the exact search's termination.
    pub status: String,
}

/// A computed front with its reference trees.
#[derive(Debug, Clone)]
pub struct FrontResult {
    pub outcome: ParetoOutcome,
    /// The epsilon-constraint method's solves.
    pub solves: Option<Vec<EpsilonSolve>>,
    pub references: Vec<ReferenceTree>,
}

/// Computes the front of `request` on the two-class `train` (class 1 positive; see
/// [`pareto::binary_data`]).
///
/// On data with missing values, the front is learned over the data's copies and its trees
/// mapped back (see [`crate::learn::missing`]).
pub fn learn_front(request: &FrontRequest, train: &Dataset) -> Result<FrontResult> {
    crate::learn::missing::with_copies(
        train,
        |data| learn_front_over(request, data),
        crate::learn::missing::map_front,
    )
}

fn learn_front_over(request: &FrontRequest, train: &Dataset) -> Result<FrontResult> {
    let started = Instant::now();
    let problem = &request.problem;
    problem.check(train)?;
    // The front counts the rows repeated by their weights' multiples of one unit per class;
    // the epsilon-constraint method counts whole-number weights only.
    let factored = match request.method {
        FrontMethod::Search => {
            train.factored_by_class(&crate::setting::Named::same("pareto --solver dp"))?
        }
        FrontMethod::Epsilon { .. } => Factored {
            rows: train.repeated_by_weight(&crate::setting::Named::same(EPSILON_METHOD))?,
            units: vec![1.0; train.n_classes()],
        },
    };
    let copies = factored.rows.as_ref();
    let cart_tree = cart(
        train,
        &CartParams {
            depth: problem.depth,
            min_leaf: 1,
            thresholds: problem.thresholds,
        },
    )?;
    // The accuracy-optimal tree of the weighted rows: on the copies, each class's error costs
    // its unit.
    let accuracy = DpProblem {
        max_splits: problem.max_splits,
        thresholds: problem.thresholds,
        class_weights: factored.units.clone(),
        ..DpProblem::accuracy(copies, problem.depth)
    };
    let optimal = dp::solve(
        copies,
        &accuracy,
        &DpOptions {
            budget: request.budget.share(REFERENCE_SEARCH_SHARE),
            memory_limit_mb: request.memory_limit_mb,
            ..DpOptions::default()
        },
    )?;
    let remaining = request.budget.left_since(started);
    let (outcome, solves) = match &request.method {
        FrontMethod::Search => {
            let outcome = pareto::solve(
                train,
                problem,
                &ParetoOptions {
                    budget: remaining,
                    memory_limit_mb: request.memory_limit_mb,
                    threads: request.threads,
                    ..ParetoOptions::default()
                },
            )?;
            (outcome, None)
        }
        FrontMethod::Epsilon {
            formulation,
            solver,
            threads,
        } => {
            let options = EpsilonOptions {
                solver: *solver,
                budget: remaining,
                threads: *threads,
            };
            let run = match formulation {
                AnyFormulation::Oct(oct) => epsilon_front(oct, copies, &options)?,
                AnyFormulation::BinOct(binoct) => epsilon_front(binoct, copies, &options)?,
                other => {
                    return Err(Error::parameter(
                        "--formulation",
                        format!(
                            "{} cannot count each class's errors; the front's MILPs are oct \
                             and binoct",
                            other.name()
                        ),
                    ))
                }
            };
            (run.outcome, Some(run.solves))
        }
    };
    let termination = match optimal.termination {
        DpTermination::Optimal => "optimal",
        DpTermination::TimeLimit => "time_limit",
        DpTermination::Interrupted => "interrupted",
    };
    if outcome.is_complete() && optimal.is_optimal() {
        check_fewest_errors(&outcome, &optimal.tree, train)?;
    }
    Ok(FrontResult {
        outcome,
        solves,
        references: vec![
            ReferenceTree {
                name: "cart".into(),
                tree: cart_tree,
                status: "greedy".into(),
            },
            ReferenceTree {
                name: "accuracy_optimal".into(),
                tree: optimal.tree,
                status: termination.into(),
            },
        ],
    })
}

/// What the epsilon-constraint method is called in a refusal of its row weights.
const EPSILON_METHOD: &str = "the epsilon-constraint front (--solver highs or cbc)";

/// Checks a complete front against the exact search's accuracy-optimal tree `optimal`: the
/// front's fewest weighted errors (FP + FN) are the tree's on the weighted `train`, or the two
/// searches contradict each other.
fn check_fewest_errors(outcome: &ParetoOutcome, optimal: &Tree, train: &Dataset) -> Result<()> {
    let fewest = outcome
        .front
        .iter()
        .map(|t| outcome.errors(t.point).total())
        .min_by(f64::total_cmp);
    let expected = weighted_errors_of(optimal, train).total();
    let agree = fewest.is_some_and(|f| (f - expected).abs() <= 1e-9 * expected.max(1.0));
    if agree {
        return Ok(());
    }
    Err(Error::Internal(format!(
        "the front's fewest errors are {fewest:?}, but the exact search's accuracy-optimal \
         tree makes {expected}: the two searches contradict each other"
    )))
}

/// The thresholds a formulation's front is over (`None` for one without a front).
pub fn formulation_thresholds(formulation: &AnyFormulation) -> Option<ThresholdMode> {
    match formulation {
        AnyFormulation::Oct(_) => Some(ThresholdMode::All),
        AnyFormulation::BinOct(binoct) => Some(binoct.thresholds),
        _ => None,
    }
}
