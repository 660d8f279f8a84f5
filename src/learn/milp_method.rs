//! A MILP formulation as a method: the warm start chosen ([`WarmStartMode`]), the formulation
//! run ([`super::milp::run`]), and the result certified by the exact search on the same problem
//! ([`super::certificate`]).
//!
//! With `dp` the warm start is the exact search's tree of the formulation's problem (see
//! [`super::counterpart`]), optimal or the best found within a tenth of the time limit; the
//! solver gets what remains of the limit. With `best` it is the better of that tree and the
//! greedy one (by the formulation's objective; the greedy one on a tie). OLCT, whose objective
//! the search does not have, refines the search's axis-aligned tree into logistic leaves and
//! keeps it when its exact objective beats the greedy logistic tree's.
//!
//! Under side constraints the searches take (see [`super::search_constraints`]), the warm
//! start's search and the certificate solve the constrained problem (a greedy start that
//! breaks them is not chosen); under any other kind the certificate is `not_applicable`. A
//! solver's bound below 0, which no tree's objective is, is reported as 0 with a note.
//!
//! The certificate reuses the warm start's search when it proved optimality on the same
//! problem; otherwise it runs the search within its own budget. Under a time limit the solver
//! leaves [`CERTIFICATE_SHARE`] of the limit (at most the certificate's budget) for it.

use std::time::{Duration, Instant};

use crate::budget::seconds_of;
use crate::constraints::kinds::{names, ConstraintTaker};
use crate::constraints::ConstraintSpec;
use crate::data::{Dataset, ThresholdMode};
use crate::dp::{self, DpOptions, DpOutcome, DpProblem, DpTermination, FeatureRule};
use crate::error::{Error, Result};
use crate::formulation::AnyFormulation;
use crate::learn::certificate::{
    verdict, Certificate, MilpClaim, SearchFigures, SearchResult, Verdict,
};
use crate::learn::counterpart::{counterpart, Counterpart};
use crate::learn::milp::{self, MilpOptions};
use crate::learn::search_constraints::{SearchConstraints, UserRows};
use crate::learn::search_rows::{DpBounds, SearchRowSource};
use crate::learn::{LearnOptions, Outcome, ReplacedTree, WarmStartMode};
use crate::solver::{SolveOptions, SolveReport, SolverKind, Termination};
use crate::tree::Tree;

/// The share of the time limit the `dp` and `best` warm starts give the exact search.
pub const WARM_START_SEARCH_SHARE: f64 = 0.1;

/// The share of the time limit kept from the solver for the certificate's search (at most
/// the certificate's own budget), so a solver that runs to the limit still leaves the
/// certificate time to give a verdict.
pub const CERTIFICATE_SHARE: f64 = 0.1;

/// Runs `formulation` on `solver` as a method (see the module documentation).
pub fn run(
    formulation: &AnyFormulation,
    solver: SolverKind,
    train: &Dataset,
    options: LearnOptions,
) -> Result<Outcome> {
    let started = Instant::now();
    let mut counterpart = counterpart(formulation, train, None);
    let limits = match (counterpart.as_mut(), &options.constraints) {
        (Some(c), Some(spec)) => search_limits(c, spec, train)?,
        _ => None,
    };
    let limits = limits.as_ref();
    let mut chosen = choose_start(formulation, counterpart.as_ref(), train, &options, limits)?;
    // The start's search solved the model's own problem when the certificate applies (with the
    // side constraints it takes, or none); without constraints it takes, it solved the problem
    // without them, a relaxation whose bound holds too. Otherwise (a leaf minimum over weighted
    // rows) its bound may not hold, and the rows come from a search of their own.
    let certifiable = counterpart
        .as_ref()
        .is_some_and(|c| c.not_applicable.is_none());
    let found = chosen
        .search
        .as_ref()
        .filter(|_| certifiable || limits.is_none());
    // Without it, the rows' own search solves the problem without side constraints.
    let models_problem = match found {
        Some(_) => certifiable,
        None => options.constraints.is_none(),
    };
    let search_rows = search_row_source(
        formulation,
        train,
        models_problem,
        found,
        &options,
        &mut chosen.notes,
    )?;
    let certificate_reserve = match (options.certify, certifiable, options.budget.duration()) {
        (Some(budget), true, Some(limit)) => budget.min(limit.mul_f64(CERTIFICATE_SHARE)),
        _ => Duration::ZERO,
    };
    let solver_budget = options.budget.left_since(started).less(certificate_reserve);
    let mut outcome = milp::run_any(
        formulation,
        train,
        MilpOptions {
            solver,
            solve: SolveOptions {
                budget: solver_budget,
                mip_rel_gap: options.mip_rel_gap,
                threads: options.threads,
                integrality_tolerance: None,
                solver_options: options.solver_options.clone(),
                log: options.log,
                progress: options.progress.clone(),
                warm_start: None,
                // Measured: CBC proves the same optima faster with the cutoff; HiGHS, which
                // takes the start as its incumbent before it searches, is unchanged.
                start_as_cutoff: true,
            },
            start: chosen.tree,
            warm_start_mode: options.warm_start,
            start_is_optimal: chosen.optimal,
            fallback_start: chosen.fallback,
            bound_below_for_tests: options.break_model_for_tests,
            search_rows,
            separation_rounds: options.separation_rounds,
            constraints: options.constraints.clone(),
        },
    )?;
    // The run's limit, which the warm start's search and the solver share.
    outcome.report.time_limit = options.budget.limit_seconds();
    if let Some(model) = outcome.model.as_mut() {
        model.dp_bounds = options.dp_bounds;
    }
    if !matches!(formulation, AnyFormulation::Olct(_)) {
        outcome.notes.extend(clip_bound(&mut outcome.report));
    }
    // A start replaced inside the run (it broke a side constraint) names its own source.
    outcome.warm_start_source = outcome.warm_start_source.take().or(chosen.source);
    outcome.notes.extend(chosen.notes);
    if let (Some(budget), Some(counterpart)) = (options.certify, &counterpart) {
        if let Some(why) = &counterpart.not_applicable {
            outcome.certificate = Some(Certificate::not_applicable(why.clone()));
        } else if outcome.report.termination != Termination::Interrupted {
            // The certificate shares the time limit: it has its budget or what is left of the
            // limit, whichever is less.
            let limit_deadline = options.budget.deadline_from(started);
            let budget_deadline = Instant::now().checked_add(budget);
            let deadline = limit_deadline.into_iter().chain(budget_deadline).min();
            let cut_by_limit = match (limit_deadline, budget_deadline) {
                (Some(limit), Some(budget)) => limit < budget,
                (Some(_), None) => true,
                (None, _) => false,
            };
            let left = seconds_until(deadline);
            // The warm start's search of the same problem: reused when it proved its optimum,
            // and when no time is left, where a new search would only repeat its setup past
            // the limit to find less than it found with more time.
            let reused = chosen
                .search
                .filter(|found| found.is_optimal() || left == Some(0.0));
            if cut_by_limit {
                outcome.notes.push(match &reused {
                    Some(found) if !found.is_optimal() => {
                        "no time was left of the time limit for the certificate's search: its \
                         figures are the warm start's search of the same problem"
                            .to_string()
                    }
                    _ => format!(
                        "the certificate's search had {:.2} s, what was left of the time \
                         limit, instead of its budget of {} s",
                        left.unwrap_or(0.0),
                        seconds_of(budget)
                    ),
                });
            }
            let certificate = certify(
                formulation,
                (counterpart, limits),
                train,
                &outcome,
                reused,
                deadline,
                &options,
            )?;
            outcome.certificate = Some(certificate);
        }
    }
    Ok(outcome)
}

/// The side constraints `spec` as limits of the exact search for `counterpart` on `train`:
/// under the kinds the searches take, the warm start's search and the certificate solve the
/// constrained problem; under any other kind (or a leaf minimum the search cannot count, or one
/// above the training rows) the counterpart says why its optimum is not the model's.
fn search_limits(
    c: &mut Counterpart,
    spec: &ConstraintSpec,
    train: &Dataset,
) -> Result<Option<SearchConstraints>> {
    let limits = SearchConstraints::of(spec, train, UserRows::OverFeaturesUsed)?;
    Ok(match limits {
        Ok(found) if found.fair_refusal(c.search.depth).is_some() => {
            c.not_applicable = found
                .fair_refusal(c.search.depth)
                .map(|why| format!("{why}, so the exact search has no optimum of this model"));
            None
        }
        Ok(found)
            if found
                .min_leaf_rows
                .is_some_and(|rows| rows > train.n_rows()) =>
        {
            // No tree meets it: the model is infeasible, and the search has no problem.
            c.not_applicable = Some(format!(
                "min_leaf_rows is above the {} training rows, so no tree meets it",
                train.n_rows()
            ));
            None
        }
        Ok(found) => {
            if found.constraints.fairness.is_some() && !train.counts_as_rows() {
                c.not_applicable.get_or_insert_with(|| {
                    "fairness counts each row its weight in each group's rates, and the exact \
                     search under fairness takes whole-number row weights only, so its optimum \
                     is not this model's"
                        .to_string()
                });
            }
            if found.max_leaf_rows.is_some() && !train.copies_count_rows() {
                c.not_applicable.get_or_insert_with(|| {
                    "max_leaf_rows counts rows, whatever their weights, and the exact search, \
                     which holds a row of weight w as w copies, cannot count rows, so its \
                     optimum is not this model's"
                        .to_string()
                });
            }
            if found
                .min_leaf_rows
                .is_some_and(|rows| !train.copies_count_leaf_rows(rows))
            {
                c.not_applicable.get_or_insert_with(|| {
                    "min_leaf_rows counts rows, whatever their weights, and the exact search, \
                     which holds a row of weight w as w copies, cannot count rows, so its \
                     optimum is not this model's"
                        .to_string()
                });
            }
            Some(found)
        }
        Err(kinds) => {
            c.not_applicable = Some(format!(
                "the exact search does not take {} (it takes {}), so its optimum is not this \
                 model's",
                names(&kinds),
                names(&ConstraintTaker::Dp.taken())
            ));
            None
        }
    })
}

/// When the certificate's search found a tree strictly better than the solver's (or the solver
/// found none), makes that tree the one `outcome` returns: the best tree the run knows (what
/// `milptree solve` saves and prints; experiments keep the solver's tree, whose figures they
/// compare). Its objective is recomputed by plain code; the solver's tree is kept in
/// [`Outcome::replaced`]. A contradiction keeps the solver's tree, which the command reports
/// as a fault. `train` is the data `outcome` was learned on, under the side constraints
/// `constraints`: the tree is adopted only when it meets them (checked by plain code), and the
/// report of the side constraints is then the new tree's.
pub fn adopt_certificate_tree(
    formulation: &AnyFormulation,
    train: &Dataset,
    constraints: Option<&ConstraintSpec>,
    outcome: &mut Outcome,
) -> Result<()> {
    let Some(certificate) = outcome.certificate.as_ref() else {
        return Ok(());
    };
    let Some(counterpart) = counterpart(formulation, train, None) else {
        return Ok(());
    };
    if certificate.verdict == Verdict::Contradiction {
        return Ok(());
    }
    let Some(mut candidate) = certificate.dp_tree.clone() else {
        return Ok(());
    };
    let problem = counterpart.search.problem(train);
    let Some(objective) =
        dp::objective_of(&candidate, train, &problem).map(|o| counterpart.to_model(o))
    else {
        return Ok(());
    };
    let better = match (&outcome.tree, outcome.evaluated_objective) {
        (None, _) => true,
        (Some(_), Some(current)) => {
            objective < current
                && !crate::learn::certificate::evaluations_equal(
                    objective,
                    current,
                    counterpart.unit(train),
                )
        }
        (Some(_), None) => false,
    };
    if !better {
        return Ok(());
    }
    let side_constraints = match constraints {
        Some(spec) => match SearchConstraints::of(spec, train, UserRows::OverFeaturesUsed)? {
            Ok(limits) => {
                let (report, meets) = limits.report(&candidate);
                if !meets {
                    return Ok(());
                }
                report
            }
            Err(_) => return Ok(()),
        },
        None => serde_json::Value::Null,
    };
    candidate.learned_by = Some(serde_json::json!({
        "method": formulation.name(),
        "parameters": formulation.parameters(),
        "tree_source": "certificate",
    }));
    let previous = outcome.evaluated_objective;
    outcome.notes.push(match previous {
        Some(previous) => format!(
            "the certificate's exact search found a better tree (objective {objective}) than the \
             solver's ({previous}): it is the tree returned; the solver's own tree is in \
             `milp_tree`"
        ),
        None => format!(
            "the solver found no tree; the certificate's exact search found one (objective \
             {objective}): it is the tree returned"
        ),
    });
    outcome.replaced = Some(ReplacedTree {
        tree: outcome.tree.replace(candidate),
        objective: previous,
    });
    outcome.evaluated_objective = Some(objective);
    outcome.side_constraints = side_constraints;
    Ok(())
}

/// The share of the time limit the rows of the exact search may take (`--dp-bounds`): the
/// search for the problem's bound when the warm start ran none, then the root splits'
/// subtrees.
pub const SEARCH_ROWS_SHARE: f64 = 0.1;

/// What the model's rows from the exact search are made from (see [`super::search_rows`]), or
/// `None`: none asked for, or the search does not solve a relaxation of the model's problem
/// (OLCT; row weights it cannot repeat). `found` is the warm start's search, whose bound is
/// reused (a search of the model's problem, or of a relaxation of it), and `models_problem`
/// whether it solved the model's own problem (with the side constraints it takes). The split row is left out when the objective row dominates it: the search proved
/// the model's own optimum, which every root split's bound is at least.
fn search_row_source(
    formulation: &AnyFormulation,
    train: &Dataset,
    models_problem: bool,
    found: Option<&DpOutcome>,
    options: &LearnOptions,
    notes: &mut Vec<String>,
) -> Result<Option<SearchRowSource>> {
    if options.dp_bounds == DpBounds::None {
        return Ok(None);
    }
    // The counterpart without side constraints: its search's bounds hold for every tree, so
    // for every constrained tree too; only what the search does not solve (row weights that are
    // not whole, a leaf minimum over weighted rows) stops the rows.
    let Some(counterpart) = counterpart(formulation, train, None) else {
        return Ok(None);
    };
    if let Some(why) = &counterpart.not_applicable {
        notes.push(format!(
            "no rows from the exact search (--dp-bounds): {why}"
        ));
        return Ok(None);
    }
    let started = Instant::now();
    let share = options.budget.share(SEARCH_ROWS_SHARE);
    let deadline = share.deadline_from(started);
    let (lower_bound, upper_bound, search_seconds, optimal) = match found {
        Some(found) => (found.lower_bound, found.objective, 0.0, found.is_optimal()),
        None => {
            let data = counterpart.search_data(train);
            let found = dp::solve(
                &data.rows,
                &counterpart.search_problem(train, &data),
                &DpOptions {
                    budget: share,
                    ..DpOptions::default()
                },
            )?;
            (
                found.lower_bound,
                found.objective,
                found.seconds,
                found.is_optimal(),
            )
        }
    };
    let families = match options.dp_bounds {
        DpBounds::All if optimal && models_problem => {
            notes.push(
                "--dp-bounds all: the exact search proved the model's optimum, so the objective \
                 row dominates the root splits' row, which is left out"
                    .to_string(),
            );
            DpBounds::Objective
        }
        given => given,
    };
    let searched = counterpart.search_data(train);
    Ok(Some(SearchRowSource {
        families,
        problem: counterpart.search_problem(train, &searched),
        data: searched.rows.into_owned(),
        counterpart,
        lower_bound,
        upper_bound,
        search_seconds,
        deadline,
        interrupt: options.budget.interrupt().cloned(),
        raised_for_tests: options.raise_dp_bounds_for_tests,
        raised_paths_for_tests: options.raise_path_bounds_for_tests,
    }))
}

/// The rows of the exact search for `formulation`'s model on `train` outside a run (`export-lp
/// --dp-bounds`), with the search's tree (counted on `train`), against which they are to be
/// checked. The search solves the problem without side constraints, without a time limit;
/// `constrained` says whether the model has side constraints (without, `all` keeps the
/// objective row alone once the search proves the optimum, as a run does). An error when the
/// search does not solve a relaxation of the model's problem (OLCT; row weights that are not
/// whole numbers).
pub fn search_rows_alone(
    formulation: &AnyFormulation,
    train: &Dataset,
    families: DpBounds,
    constrained: bool,
    raised_for_tests: f64,
    notes: &mut Vec<String>,
) -> Result<(SearchRowSource, Tree)> {
    let refused = |why: &str| Error::parameter("--dp-bounds", why.to_string());
    let Some(counterpart) = counterpart(formulation, train, None) else {
        return Err(refused(&format!(
            "applies to oct, binoct and flowoct, whose objective the exact search has; not to {}",
            formulation.name()
        )));
    };
    if let Some(why) = &counterpart.not_applicable {
        return Err(refused(&format!("no rows from the exact search: {why}")));
    }
    let (found, _) = search_problem(&counterpart, None, train, &DpOptions::default())?;
    let options = LearnOptions {
        dp_bounds: families,
        raise_dp_bounds_for_tests: raised_for_tests,
        ..LearnOptions::default()
    };
    let source = search_row_source(
        formulation,
        train,
        !constrained,
        Some(&found),
        &options,
        notes,
    )?;
    let mut source = source.ok_or_else(|| refused("asked for no rows"))?;
    source.search_seconds = found.seconds;
    Ok((source, found.tree))
}

/// The warm start a run starts from.
struct ChosenStart {
    tree: Option<Tree>,
    /// Where it came from, for the report (`greedy`, `dp (optimal, 0.02 s)`, ...).
    source: Option<String>,
    notes: Vec<String>,
    /// The exact search run for it, if any.
    search: Option<DpOutcome>,
    /// Whether the tree is the exact search's, proven optimal.
    optimal: bool,
    /// The start to try when `tree` breaks side constraints the search did not take: the
    /// greedy tree beside the search's under `best`.
    fallback: Option<Tree>,
}

fn choose_start(
    formulation: &AnyFormulation,
    counterpart: Option<&Counterpart>,
    train: &Dataset,
    options: &LearnOptions,
    limits: Option<&SearchConstraints>,
) -> Result<ChosenStart> {
    let mode = options.warm_start;
    if mode == WarmStartMode::None {
        return Ok(ChosenStart {
            tree: None,
            source: None,
            notes: Vec::new(),
            search: None,
            optimal: false,
            fallback: None,
        });
    }
    let greedy = formulation.greedy_tree(train)?;
    if mode == WarmStartMode::Greedy {
        return Ok(ChosenStart {
            tree: Some(greedy),
            source: Some("greedy".to_string()),
            notes: Vec::new(),
            search: None,
            optimal: false,
            fallback: None,
        });
    }
    let search_options = DpOptions {
        budget: options.budget.share(WARM_START_SEARCH_SHARE),
        ..DpOptions::default()
    };
    let Some(counterpart) = counterpart else {
        if matches!(formulation, AnyFormulation::Olct(_)) {
            return olct_start(formulation, train, greedy, &search_options, mode);
        }
        // No search solves this model's problem (its costs, or its data, are beyond what the
        // search holds): the greedy tree starts, as `best` falls back on it.
        return Ok(ChosenStart {
            tree: Some(greedy),
            source: Some("greedy".to_string()),
            notes: vec![format!(
                "warm start: the exact search has no counterpart of this {} model, so the \
                 greedy tree starts",
                formulation.name()
            )],
            search: None,
            optimal: false,
            fallback: None,
        });
    };
    let (found, problem) = match search_problem(counterpart, limits, train, &search_options) {
        Ok(found) => found,
        Err(error @ (Error::Infeasible(_) | Error::NoTree(_))) => {
            return Ok(start_without_search(greedy, limits, &error));
        }
        Err(error) => return Err(error),
    };
    let described = describe(&found);
    // A greedy tree that breaks the side constraints is no start.
    let greedy_objective =
        dp::objective_of(&greedy, &counterpart.search_data(train).rows, &problem)
            .filter(|_| limits.is_none_or(|l| l.meets(&greedy)));
    let use_search = match (mode, greedy_objective) {
        (WarmStartMode::Best, Some(greedy_objective)) => found.objective < greedy_objective,
        _ => true,
    };
    let mut notes = vec![format!(
        "warm start: the exact search ({described}) found a tree of objective {}; the greedy \
         tree's is {}",
        counterpart.to_model(found.objective),
        greedy_objective.map_or_else(
            || "outside the problem (or its side constraints)".to_string(),
            |g| { counterpart.to_model(g).to_string() }
        )
    )];
    if options.budget.duration().is_some() {
        notes.push(format!(
            "the solver's time limit is what the warm start's search left of it ({:.3} s used)",
            found.seconds
        ));
    }
    // Under side constraints the search did not take, its tree may break them where the
    // greedy tree does not: the greedy tree is then the start under `best`.
    let (tree, source, fallback) = if use_search {
        let fallback =
            (mode == WarmStartMode::Best && greedy_objective.is_some()).then_some(greedy);
        (found.tree.clone(), format!("dp ({described})"), fallback)
    } else {
        (greedy, "greedy".to_string(), None)
    };
    if let Some(why) = &counterpart.not_applicable {
        notes.push(format!(
            "{why}: its tree is a heuristic start, chosen by the search's own objective"
        ));
    }
    let optimal = use_search && found.is_optimal() && counterpart.not_applicable.is_none();
    Ok(ChosenStart {
        tree: Some(tree),
        source: Some(source),
        notes,
        search: Some(found),
        optimal,
        fallback,
    })
}

/// The start when the exact search returned no tree (`error`: none meets the side constraints,
/// or none was found in its share of the time): the greedy tree when it meets them, else none.
fn start_without_search(
    greedy: Tree,
    limits: Option<&SearchConstraints>,
    error: &Error,
) -> ChosenStart {
    let meets = limits.is_none_or(|l| l.meets(&greedy));
    let (tree, source) = if meets {
        (Some(greedy), Some("greedy".to_string()))
    } else {
        (None, None)
    };
    ChosenStart {
        notes: vec![format!(
            "warm start: the exact search returned no tree ({error}); {}",
            if meets {
                "the greedy tree, which meets the side constraints, starts"
            } else {
                "the greedy tree breaks the side constraints, so no tree starts"
            }
        )],
        tree,
        source,
        search: None,
        optimal: false,
        fallback: None,
    }
}

/// `optimal, 0.02 s` or `time_limit, gap 3.1%, 1.00 s`.
fn describe(found: &DpOutcome) -> String {
    match found.termination {
        DpTermination::Optimal => format!("optimal, {:.3} s", found.seconds),
        other => {
            let (_, gap) = crate::solver::gaps(Some(found.objective), Some(found.lower_bound));
            format!(
                "{}, gap {}, {:.3} s",
                serde_json::to_value(other)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                gap.map_or_else(|| "-".to_string(), |g| format!("{:.2}%", 100.0 * g)),
                found.seconds
            )
        }
    }
}

/// OLCT's `dp` and `best` warm starts: the search's tree of accuracy at one level less, its
/// last level made of logistic leaves and refined, when its exact objective beats the greedy
/// logistic tree's (or always with `dp`, when it can be built).
fn olct_start(
    formulation: &AnyFormulation,
    train: &Dataset,
    greedy: Tree,
    search_options: &DpOptions,
    mode: WarmStartMode,
) -> Result<ChosenStart> {
    let AnyFormulation::Olct(olct) = formulation else {
        return Err(Error::Internal(format!(
            "{} has no exact search counterpart",
            formulation.name()
        )));
    };
    let (candidate, described, found) = olct.start_from_search(train, search_options)?;
    let greedy_objective = olct.exact_objective_on(train, &greedy)?;
    let candidate_objective = olct.exact_objective_on(train, &candidate)?;
    let notes = vec![format!(
        "warm start: the exact search's tree ({described}) refined into logistic leaves has \
         exact objective {candidate_objective}; the greedy logistic tree's is {greedy_objective}"
    )];
    let take_candidate = mode == WarmStartMode::Dp || candidate_objective < greedy_objective;
    let (tree, source) = if take_candidate {
        (
            candidate,
            format!("dp refined into logistic leaves ({described})"),
        )
    } else {
        (greedy, "greedy".to_string())
    };
    Ok(ChosenStart {
        tree: Some(tree),
        source: Some(source),
        notes,
        search: Some(found),
        optimal: false,
        fallback: None,
    })
}

/// The certificate of `outcome` (see [`super::certificate`]).
fn certify(
    formulation: &AnyFormulation,
    (counterpart, limits): (&Counterpart, Option<&SearchConstraints>),
    train: &Dataset,
    outcome: &Outcome,
    reusable: Option<DpOutcome>,
    deadline: Option<Instant>,
    options: &LearnOptions,
) -> Result<Certificate> {
    let search_options = || DpOptions {
        budget: options.budget.until(deadline),
        ..DpOptions::default()
    };
    let found = match reusable {
        Some(found) => found,
        None => match search_problem(counterpart, limits, train, &search_options()) {
            Ok((found, _)) => found,
            Err(error @ (Error::Infeasible(_) | Error::NoTree(_))) => {
                return Ok(certificate_without_tree(outcome, &error));
            }
            Err(error) => return Err(error),
        },
    };
    let figures = |found: &DpOutcome, counterpart: &Counterpart| SearchFigures {
        termination: found.termination,
        seconds: found.seconds,
        objective: counterpart.to_model(found.objective),
        bound: counterpart.to_model(found.lower_bound),
    };
    let dp = figures(&found, counterpart);
    let (objective, bound) = (dp.objective, dp.bound);
    let report = &outcome.report;
    let claim = MilpClaim {
        optimal: report.termination == Termination::Optimal,
        objective: report.objective,
        bound: report.best_bound,
        tree_objective: outcome.evaluated_objective,
    };
    let search = SearchResult {
        optimal: found.is_optimal(),
        objective,
        bound,
        unit: counterpart.unit(train),
    };
    let (verdict, difference, message) = verdict(&claim, &search);
    let reduced = match formulation {
        AnyFormulation::BinOct(f) => f.thresholds != ThresholdMode::All,
        AnyFormulation::FlowOct(f) => f.thresholds != ThresholdMode::All,
        _ => false,
    };
    let all_thresholds = if reduced {
        match counterpart_over_all(formulation, train) {
            Some(all) => {
                let found = search_problem(&all, limits, train, &search_options())?.0;
                Some(figures(&found, &all))
            }
            None => None,
        }
    } else {
        None
    };
    Ok(Certificate {
        verdict,
        dp: Some(dp),
        difference,
        message,
        all_thresholds,
        dp_tree: Some(found.tree),
    })
}

/// The certificate when the exact search returned no tree (`error`): it proves that no tree
/// meets the side constraints ([`Error::Infeasible`]), which agrees with a solver that found
/// none and contradicts one whose tree meets them; or it stopped first (`unknown`).
fn certificate_without_tree(outcome: &Outcome, error: &Error) -> Certificate {
    let proven = matches!(error, Error::Infeasible(_));
    let milp_tree = outcome.tree.is_some() && outcome.evaluated_objective.is_some();
    let (verdict, message) = match (proven, milp_tree) {
        (true, false) => (Verdict::Agrees, format!("neither found a tree: {error}")),
        (true, true) => (
            Verdict::Contradiction,
            format!("the solver returned a tree, but {error}"),
        ),
        (false, _) => (Verdict::Unknown, error.to_string()),
    };
    Certificate {
        verdict,
        dp: None,
        difference: None,
        message,
        all_thresholds: None,
        dp_tree: None,
    }
}

/// The exact search of `counterpart`'s problem on `train` under the side constraints
/// `limits` (its tree over every feature of `train`), and the problem it solved.
fn search_problem(
    counterpart: &Counterpart,
    limits: Option<&SearchConstraints>,
    train: &Dataset,
    options: &DpOptions,
) -> Result<(DpOutcome, DpProblem)> {
    let searched = counterpart.search_data(train);
    let mut problem = counterpart.search_problem(train, &searched);
    let searched = searched.rows;
    let rule = match limits {
        Some(limits) => {
            limits.limit(&mut problem);
            limits.rule.clone()
        }
        None => FeatureRule::default(),
    };
    let fair = match limits {
        Some(limits) => limits.solve_fair(&searched, &problem, options)?,
        None => None,
    };
    let mut found = match fair {
        Some(found) => found,
        None => dp::solve_under(&searched, &problem, &rule, options)?.outcome,
    };
    // Counted on the training rows (not their copies), as every tree a run reports.
    found.tree.recount_on(train)?;
    Ok((found, problem))
}

/// Clips a solver's bound below 0, the least objective of OCT, BinOCT and FlowOCT (errors and
/// split costs), to 0, the gaps with it, and says so: a bound that cannot hold says nothing
/// more than 0 does. The note, when it clipped.
fn clip_bound(report: &mut SolveReport) -> Option<String> {
    let bound = report.best_bound.filter(|&b| b < 0.0)?;
    report.best_bound = Some(0.0);
    (report.abs_gap, report.rel_gap) = crate::solver::gaps(report.objective, Some(0.0));
    Some(format!(
        "the solver's bound {bound} is below 0, the least objective any tree has: reported as 0"
    ))
}

/// Seconds from now until `deadline` (0 when past); `None` without a deadline.
fn seconds_until(deadline: Option<Instant>) -> Option<f64> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
}

fn counterpart_over_all(formulation: &AnyFormulation, train: &Dataset) -> Option<Counterpart> {
    counterpart(formulation, train, Some(ThresholdMode::All))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_below_zero_is_clipped_with_its_gaps_and_a_note() {
        let mut report = SolveReport::new("highs", String::new(), &SolveOptions::default());
        report.objective = Some(212.0);
        report.best_bound = Some(-3414.0);
        let note = clip_bound(&mut report).expect("clipped");
        assert!(note.contains("-3414"), "{note}");
        assert_eq!(report.best_bound, Some(0.0));
        assert_eq!((report.abs_gap, report.rel_gap), (Some(212.0), Some(1.0)));
        report.best_bound = Some(3.0);
        assert_eq!(clip_bound(&mut report), None);
        assert_eq!(report.best_bound, Some(3.0));
    }
}
