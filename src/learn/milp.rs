//! Runs a MILP formulation end to end: build the model, encode the warm-start tree, solve,
//! decode the incumbent, and check the decoded tree against the solver. The build counts
//! against the time limit: a model still being built when the limit runs out (or Ctrl-C
//! comes) is stopped ([`crate::mip::build_clock`]) with an error that says what to change.
//!
//! The check is the project's rule that an optimal tree is a claim: the objective the model
//! assigns to the decoded tree is recomputed by plain code ([`Formulation::objective_of`]);
//! when it differs from the solver's objective (solver tolerances, a decoding that cannot
//! reproduce the solution's routing), the outcome says so in `decode_mismatch`, and every
//! figure reported about the tree comes from the plain evaluation, never from the model.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::constraints::ConstraintSpec;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::side_constraints::Constrained;
use crate::formulation::{AnyFormulation, BuiltModel, Formulation, StartKind};
use crate::learn::outcome::{objectives_agree, DecodeMismatch, ModelFacts, Outcome};
use crate::learn::search_paths::PathSeparator;
use crate::learn::search_rows::{DpBounds, SearchRowSource, SearchRows};
use crate::learn::separation::{self, Separated};
use crate::learn::WarmStartMode;
use crate::mip::build_clock::{BuildClock, Stopped, TIME_LIMIT_OPTION};
use crate::mip::{Assignment, MipModel, RowSense};
use crate::solver::{self, SolveOptions, SolverKind};
use crate::tree::Tree;

/// Runs the formulation chosen at run time end to end (see [`run`]).
pub fn run_any(
    formulation: &AnyFormulation,
    train: &Dataset,
    options: MilpOptions,
) -> Result<Outcome> {
    let Some(spec) = options.constraints.clone() else {
        return match formulation {
            AnyFormulation::Oct(f) => run(f, train, options),
            AnyFormulation::BinOct(f) => run(f, train, options),
            AnyFormulation::Olct(f) => run(f, train, options),
            AnyFormulation::FlowOct(f) => run(f, train, options),
        };
    };
    let constraints = spec.resolve(train)?;
    let constraints = &constraints;
    match formulation {
        AnyFormulation::Oct(inner) => run(&Constrained { inner, constraints }, train, options),
        AnyFormulation::BinOct(inner) => run(&Constrained { inner, constraints }, train, options),
        AnyFormulation::Olct(inner) => run(&Constrained { inner, constraints }, train, options),
        AnyFormulation::FlowOct(inner) => run(&Constrained { inner, constraints }, train, options),
    }
}

/// How to run a formulation.
#[derive(Debug, Clone)]
pub struct MilpOptions {
    pub solver: SolverKind,
    /// Solver options; `warm_start` is filled in from `start`, and `integrality_tolerance`,
    /// when unset, from the model.
    pub solve: SolveOptions,
    /// The warm-start tree, learned on the same training data.
    pub start: Option<Tree>,
    /// Where `start` came from, for the report.
    pub warm_start_mode: WarmStartMode,
    /// Whether `start` is proven optimal (the exact search's finished tree), which lets a model
    /// spare the solver's search for better incumbents ([`BuiltModel::solver_options`]).
    pub start_is_optimal: bool,
    /// The start to try when `start` breaks the side constraints, before a single leaf (the
    /// greedy tree, when `start` is the exact search's under `best`).
    pub fallback_start: Option<Tree>,
    /// Side constraints on the tree (checked against the training data when the model is
    /// built); `None`: none.
    pub constraints: Option<ConstraintSpec>,
    /// Test-only: a row `objective >= the start's objective` is added to the model solved,
    /// which makes the solver claim optimality for a tree that may be beaten.
    pub bound_below_for_tests: bool,
    /// The exact search's bounds the model gets as rows ([`SearchRows`]); `None`: none.
    pub search_rows: Option<SearchRowSource>,
    /// Rounds of the loop that adds the search's rows over paths below the root between
    /// solves of the LP relaxation ([`super::separation`]); 0: none. Needs the split rows.
    pub separation_rounds: usize,
}

/// A value freed on a thread of its own when it is dropped: a model of millions of rows takes
/// seconds to free, which the caller's time limit need not wait for.
struct FreedElsewhere<T: Send + 'static>(Option<T>);

impl<T: Send + 'static> std::ops::Deref for FreedElsewhere<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0.as_ref().expect("present until dropped")
    }
}

impl<T: Send + 'static> Drop for FreedElsewhere<T> {
    fn drop(&mut self) {
        if let Some(value) = self.0.take() {
            // A thread that cannot start frees the value here.
            let _ = std::thread::Builder::new().spawn(move || drop(value));
        }
    }
}

/// Builds `formulation`'s model on `train`, stopped (with an error that says what to change) when
/// the time limit of `solve` runs out or its interrupt is raised first.
fn build_within<F: Formulation>(
    formulation: &F,
    train: &Dataset,
    solve: &SolveOptions,
) -> Result<F::Built> {
    let deadline = solve.budget.deadline_from(Instant::now());
    let clock = BuildClock::start(deadline, solve.budget.interrupt().cloned());
    let built = formulation.build(train);
    let what = || {
        format!(
            "the {} model of depth {} on {} rows",
            formulation.name().to_uppercase(),
            formulation.depth(),
            train.n_rows()
        )
    };
    match (built, clock.stopped()) {
        (Err(_), Some(Stopped::TimeLimit)) => Err(Error::parameter(
            TIME_LIMIT_OPTION,
            format!(
                "{} was still being built when the time limit ({:.2} s left of it) ran out, and \
                 was stopped; give a longer --time-limit or a smaller --depth, or use --solver \
                 dp (the exact search builds no model)",
                what(),
                solve.budget.limit_seconds().unwrap_or(0.0)
            ),
        )),
        (Err(_), Some(Stopped::Interrupted)) => Err(Error::Solver {
            solver: formulation.name().to_string(),
            message: format!("interrupted while {} was being built; no tree", what()),
        }),
        (built, _) => built,
    }
}

/// Runs `formulation` on the training data `train` (already prepared for it, e.g. relabelled).
pub fn run<F: Formulation>(
    formulation: &F,
    train: &Dataset,
    options: MilpOptions,
) -> Result<Outcome>
where
    F::Built: Send + 'static,
{
    let started = Instant::now();
    let built = FreedElsewhere(Some(build_within(formulation, train, &options.solve)?));
    let build_seconds = started.elapsed().as_secs_f64();
    let tolerance = built.objective_tolerance();
    let mut notes = Vec::new();
    let children =
        (options.separation_rounds > 0).then(|| [built.node_choices(2), built.node_choices(3)]);
    let (mut search_rows, mut separator) = match options.search_rows.as_ref() {
        Some(source) => {
            let root = built.root_splits();
            let (rows, separator) =
                SearchRows::make_separable(source, built.mip(), root, children)?;
            (Some(rows), separator)
        }
        None => (None, None),
    };
    let mut solve = options.solve;
    if solve.integrality_tolerance.is_none() {
        solve.integrality_tolerance = built.integrality_tolerance();
    }
    let start = match options.start {
        Some(tree) => {
            let checked = search_rows.as_ref().map(|rows| (rows, tolerance));
            let candidates = (&tree, options.fallback_start.as_ref());
            encoded_start(formulation, &built, candidates, train, checked, &mut notes)?
        }
        None => None,
    };
    let (warm_start_tree, warm_start_objective, replaced_source) = match start {
        Some(start) => {
            solve.warm_start = Some(start.assignment);
            (
                Some(start.tree),
                Some(start.objective),
                start.replaced_source,
            )
        }
        None => (None, None, None),
    };
    let start_is_optimal = options.start_is_optimal && replaced_source.is_none();
    let start = match (&solve.warm_start, start_is_optimal) {
        (None, _) => StartKind::None,
        (Some(_), false) => StartKind::Heuristic,
        (Some(_), true) => StartKind::Optimal,
    };
    let given_options = solve.solver_options.clone();
    if let Some(note) = add_default_options(&*built, options.solver, start, &mut solve) {
        notes.push(note);
    }
    // The solver has what the build and the warm start's encoding left of the limit.
    let time_limit = solve.budget.limit_seconds();
    solve.budget = solve.budget.left_since(started);
    let mut with_rows = search_rows.as_ref().map(|rows| rows.added_to(built.mip()));
    let separated = match (separator.as_mut(), with_rows.take(), search_rows.as_mut()) {
        (Some(separator), Some(model), Some(rows)) => {
            let start = solve.warm_start.clone().zip(warm_start_objective);
            let checked = (built.mip(), start.as_ref().map(|(a, o)| (a, *o)), tolerance);
            let rounds = options.separation_rounds;
            let (model, separated) = separate(
                separator,
                model,
                (options.solver, &mut solve, rounds),
                rows,
                checked,
            )?;
            with_rows = Some(model);
            Some(separated)
        }
        (_, model, _) => {
            with_rows = model;
            None
        }
    };
    let solved_model = with_rows.as_ref().unwrap_or(built.mip());
    let mut solved = match (options.bound_below_for_tests, warm_start_objective) {
        (true, Some(start)) => {
            let mut broken = solved_model.clone();
            broken.add_row(
                "bounded_below_for_tests",
                broken.objective_expression(),
                RowSense::Ge,
                start,
            );
            solver::solve(&broken, options.solver, &solve)?
        }
        _ => solver::solve(solved_model, options.solver, &solve)?,
    };
    drop(with_rows);
    solved.report.time_limit = time_limit;
    if let Some(separated) = &separated {
        separation::with_rounds(
            &mut solved.report.trajectory,
            separated,
            warm_start_objective,
        );
        solved.report.seconds += separated.seconds;
    }
    let mut outcome = Outcome {
        name: formulation.name(),
        parameters: formulation.parameters(),
        depth: formulation.depth(),
        report: solved.report,
        model: Some(ModelFacts {
            size: built.mip().size(),
            build_seconds,
            search_rows: search_rows.as_ref().map(|rows| rows.report.clone()),
            dp_bounds: options
                .search_rows
                .as_ref()
                .map_or(DpBounds::None, |source| source.families),
        }),
        search: None,
        sparse: None,
        warm_start_mode: options.warm_start_mode,
        solver_options: given_options,
        warm_start_source: replaced_source,
        certificate: None,
        warm_start_tree,
        warm_start_objective,
        evaluated_objective: None,
        decode_mismatch: None,
        notes,
        post_process: Value::Null,
        tree: None,
        front: None,
        replaced: None,
        side_constraints: Value::Null,
    };
    let Some(solution) = solved.solution else {
        return Ok(outcome);
    };
    let checked = search_rows.as_ref().map(|rows| (rows, tolerance));
    decode_into(formulation, &built, &solution, checked, &mut outcome)?;
    Ok(outcome)
}

/// Runs the loop of [`separation`] on `model` (the model with the search's rows) with the
/// solver `kind` and `solve`'s options (whose time limit then loses the loop's seconds), for
/// `rounds` rounds; the rows added join `rows` (the start, with its plain evaluation, checked
/// against them in `mip`, with the objective's tolerance). The model with every row, and what
/// the loop did.
fn separate(
    separator: &mut PathSeparator,
    model: MipModel,
    (kind, solve, rounds): (SolverKind, &mut SolveOptions, usize),
    rows: &mut SearchRows,
    (mip, start, tolerance): (&MipModel, Option<(&Assignment, f64)>, f64),
) -> Result<(MipModel, Separated)> {
    let values = match start {
        Some((assignment, evaluated)) => Some((mip.values_of(assignment)?, evaluated)),
        None => None,
    };
    let settings = (kind, &*solve, rounds);
    let mut separated = separation::separate_rounds(separator, model, settings, values)?;
    solve.budget = solve
        .budget
        .after(Duration::from_secs_f64(separated.seconds));
    rows.extend(std::mem::take(&mut separated.rows));
    rows.report.rounds = separated.rounds.clone();
    rows.report.seconds += separated.seconds;
    if let Some((assignment, evaluated)) = start {
        rows.check(mip, assignment, evaluated, tolerance, "the warm start")?;
    }
    let model = std::mem::replace(&mut separated.model, MipModel::new("separated"));
    Ok((model, separated))
}

/// A start encoded in the model: the tree as encoded, its plain evaluation, the assignment,
/// and what replaced the given start, if anything did.
struct EncodedStart {
    tree: Tree,
    objective: f64,
    assignment: Assignment,
    replaced_source: Option<String>,
}

/// `tree` encoded as the start of `built`; when it breaks the side constraints, `fallback`
/// (the greedy tree) and then a single leaf instead (none when the leaf breaks them too), with
/// a note. The start is checked against the exact search's rows of `checked` (with the
/// objective's tolerance), and its model objective against its plain evaluation.
fn encoded_start<F: Formulation>(
    formulation: &F,
    built: &F::Built,
    (tree, fallback): (&Tree, Option<&Tree>),
    train: &Dataset,
    checked: Option<(&SearchRows, f64)>,
    notes: &mut Vec<String>,
) -> Result<Option<EncodedStart>> {
    let mut replaced_source = None;
    let accepted = match (accepted_start(formulation, built, tree)?, fallback) {
        (Err(refused), Some(fallback)) => match accepted_start(formulation, built, fallback)? {
            Ok(encoded) => {
                notes.push(format!(
                    "the exact search's tree was dropped as the warm start: it breaks the side \
                     constraints ({refused}); the greedy tree, which meets them, starts instead"
                ));
                replaced_source = Some(
                    "greedy (the exact search's tree breaks the side constraints)".to_string(),
                );
                Ok(encoded)
            }
            Err(_) => Err(refused),
        },
        (accepted, _) => accepted,
    };
    let encoded = match accepted {
        Ok(encoded) => encoded,
        Err(refused) => {
            let (leaf, class) = single_leaf(tree, train)?;
            match accepted_start(formulation, built, &leaf)? {
                Ok(encoded) => {
                    notes.push(format!(
                        "the warm start was dropped: it breaks the side constraints \
                         ({refused}); a single leaf predicting `{class}` starts instead"
                    ));
                    replaced_source = Some(
                        "a single leaf (the given start breaks the side constraints)".to_string(),
                    );
                    encoded
                }
                Err(_) => {
                    notes.push(format!(
                        "the warm start was dropped: it breaks the side constraints ({refused})"
                    ));
                    return Ok(None);
                }
            }
        }
    };
    notes.extend(encoded.notes);
    let evaluated = formulation.objective_of(built, &encoded.tree)?;
    if let Some((rows, tolerance)) = checked {
        rows.check(
            built.mip(),
            &encoded.assignment,
            evaluated,
            tolerance,
            "the warm start",
        )?;
    }
    let model = built.mip().objective_value(&encoded.assignment);
    if !objectives_agree(evaluated, model, built.objective_tolerance()) {
        notes.push(format!(
            "the warm start's model objective {model} differs from the plain evaluation of its \
             tree {evaluated}"
        ));
    }
    Ok(Some(EncodedStart {
        tree: encoded.tree,
        objective: evaluated,
        assignment: encoded.assignment,
        replaced_source,
    }))
}

/// Puts the model's default solver options for this start before the given ones; the note
/// that says so, if there are any.
fn add_default_options<B: BuiltModel>(
    built: &B,
    solver: SolverKind,
    start: StartKind,
    solve: &mut SolveOptions,
) -> Option<String> {
    let defaults = built.solver_options(solver, start);
    if defaults.is_empty() {
        return None;
    }
    let listed: Vec<String> = defaults
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    solve.solver_options = defaults
        .into_iter()
        .chain(std::mem::take(&mut solve.solver_options))
        .collect();
    Some(format!(
        "{solver} runs with {} by default for this model with this warm start (measured faster; \
         --solver-option NAME=VALUE overrides)",
        listed.join(" ")
    ))
}

/// The solver's `solution` decoded into `outcome`'s tree: checked against the exact search's
/// rows of `checked`, evaluated by plain code (a mismatch with the solver's objective
/// recorded), its side constraints reported, and post-processed.
fn decode_into<F: Formulation>(
    formulation: &F,
    built: &F::Built,
    solution: &Assignment,
    checked: Option<(&SearchRows, f64)>,
    outcome: &mut Outcome,
) -> Result<()> {
    let decoded = formulation.decode(built, solution)?;
    outcome.notes.extend(decoded.notes);
    let evaluated = formulation.objective_of(built, &decoded.tree)?;
    if let Some((rows, tolerance)) = checked {
        rows.check(
            built.mip(),
            solution,
            evaluated,
            tolerance,
            "the solver's tree",
        )?;
    }
    outcome.evaluated_objective = Some(evaluated);
    if let Some(objective) = outcome.report.objective {
        if !objectives_agree(objective, evaluated, built.objective_tolerance()) {
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
    outcome.side_constraints =
        formulation.side_constraints_report(built, &decoded.tree, Some(solution));
    let (tree, post_process) = built.post_process(decoded.tree)?;
    outcome.post_process = post_process;
    outcome.tree = Some(tree);
    Ok(())
}

/// `tree` encoded as a start of `built`, or why the model refuses it (a side constraint it
/// breaks).
fn accepted_start<F: Formulation>(
    formulation: &F,
    built: &F::Built,
    tree: &Tree,
) -> Result<std::result::Result<crate::formulation::Encoded, String>> {
    if let Some(refused) = formulation.refuses_start(built, tree, None) {
        return Ok(Err(refused));
    }
    let encoded = formulation.encode(built, tree)?;
    Ok(
        match formulation.refuses_start(built, &encoded.tree, Some(&encoded.assignment)) {
            Some(refused) => Err(refused),
            None => Ok(encoded),
        },
    )
}

/// The tree of one leaf predicting the class of the largest training weight (the first on a
/// tie), over `like`'s features and classes, with its counts on `train`; and that class's
/// name. It meets every fairness bound (all rows are predicted alike), so it starts a solve
/// whose given start was dropped for breaking one.
fn single_leaf(like: &Tree, train: &Dataset) -> Result<(Tree, String)> {
    let totals = train.class_weight_totals();
    let class =
        (0..totals.len()).fold(0, |best, k| if totals[k] > totals[best] { k } else { best });
    let mut builder = crate::tree::TreeBuilder::new(
        like.schema().clone(),
        like.classes().to_vec(),
        like.depth(),
    )?;
    builder.leaf(1, class)?;
    let mut leaf = builder.build()?;
    leaf.recount(train.rows(), train.labels())?;
    let name = leaf.classes().get(class).cloned().unwrap_or_default();
    Ok((leaf, name))
}
