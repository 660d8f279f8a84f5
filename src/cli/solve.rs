//! `milptree solve`: learn a tree with the chosen method on the training data, and report
//! everything the solver proved and the plain evaluator measured ([`SolveDocument`]).

use std::time::Instant;

use serde_json::json;

use crate::budget::Budget;
use crate::cli::args::SolveArgs;
use crate::cli::interrupt::interrupt_flag;
use crate::cli::output::{one_sided_note, print_json, summary_line, train_test, write_file};
use crate::cli::pages::{solve_page, write_page};
use crate::data::Sets;
use crate::error::{Error, Result};
use crate::export::html::Rows;
use crate::export::TextView;
use crate::learn::certificate::Verdict;
use crate::learn::counterpart;
use crate::learn::milp_method::adopt_certificate_tree;
use crate::learn::settings::Settings;
use crate::learn::{self, provenance, Method, Outcome, SolveDocument, TreeSource};
use crate::solver::Progress;
use crate::{out, outln};

pub fn run(args: SolveArgs) -> Result<()> {
    let started = Instant::now();
    let (method, mut options) = settings(&args)?.build()?;
    let original = args.data.load()?;
    let data = original.clone().map(|set| method.prepare(set))?;
    let rule = relabel_rule(&original, &data);
    // The time limit bounds the whole command: what reading the data took is gone from it.
    options.budget = options
        .budget
        .with_interrupt(Some(interrupt_flag()))
        .left_since(started);
    if !(args.quiet || options.log) {
        options.progress = Progress::Stderr;
    }
    options.break_model_for_tests = std::env::var_os(BREAK_MODEL_FOR_TESTS).is_some();
    let constraints = options.constraints.clone();
    let mut outcome = learn::learn(&method, &data.train, options)?;
    if let Method::Milp { formulation, .. } = &method {
        adopt_certificate_tree(formulation, &data.train, constraints.as_ref(), &mut outcome)?;
    }
    outcome.report.time_limit = args.time_limit.as_ref().and_then(Budget::limit_seconds);
    if let (Some(rule), Some(tree)) = (&rule, outcome.tree.as_mut()) {
        let mut learned_by = tree.learned_by.take().unwrap_or_else(|| json!({}));
        learned_by["relabel"] = rule.clone();
        tree.learned_by = Some(learned_by);
    }
    let training = crate::cli::output::training_rows(&args.data, &original.train);
    let made = provenance::of_outcome(&outcome, training.clone());
    if let Some(tree) = outcome.tree.as_mut() {
        tree.provenance = Some(made);
    }
    if let (Some(path), Some(tree)) = (&args.output, &outcome.tree) {
        write_file(path, &tree.to_json_string())?;
    }
    let unwritten = args.output.as_ref().filter(|_| outcome.tree.is_none());
    if args.json || args.html.is_some() {
        let mut document = SolveDocument::new(
            &outcome,
            &data,
            &args.data.data,
            Some(args.data.seed),
            args.data.test_fraction,
        )?;
        document.command_seconds = Some(started.elapsed().as_secs_f64());
        document.dp_objective = outcome
            .tree
            .as_ref()
            .and_then(|tree| counterpart::dp_objective(&method, &data.train, tree));
        if let Some(path) = &args.html {
            let source = format!("training rows of {}", args.data.data.display());
            let rows = Rows::of(&data.train, &source);
            let made = provenance::of_outcome(&outcome, training.clone());
            let page = solve_page(&document, Some(&made), outcome.tree.as_ref(), Some(&rows));
            write_page(path, &page)?;
        }
        if args.json {
            print_json(&document)?;
        }
    }
    if !args.json {
        print_human(&args, &data, &outcome)?;
    }
    if let Some(certificate) = outcome
        .certificate
        .as_ref()
        .filter(|c| c.verdict == Verdict::Contradiction)
    {
        let written = write_contradiction(&args, &outcome, certificate)?;
        return Err(Error::Solver {
            solver: method.solver_name().to_string(),
            message: format!(
                "CONTRADICTION: {}. This is a bug in the solver or in milptree's model. The two \
                 trees are in {}; please report it to milptree's maintainers with the data \
                 file, this command line and those two files.",
                certificate.message,
                written.join(" and ")
            ),
        });
    }
    let termination = &outcome.report.termination;
    if termination.is_failure(outcome.report.has_solution) {
        // Infeasible, unbounded, failed or crashed: a failure of the run, tree or not.
        let tree = match outcome.tree_source() {
            Some(TreeSource::Certificate) => "the tree reported is the certificate's",
            Some(_) => "the tree reported is the solver's last incumbent",
            None => "no tree",
        };
        return Err(Error::Solver {
            solver: method.solver_name().to_string(),
            message: format!("{tree}: the solve ended with {termination}"),
        });
    }
    if let Some(path) = unwritten {
        return Err(Error::NoTree(format!(
            "{} was not written: the run ended with {termination} and no tree",
            path.display()
        )));
    }
    Ok(())
}

/// Test-only: set, this makes MILP runs bound their objective below by the warm start's (see
/// [`LearnOptions::break_model_for_tests`]), so that the certificate's contradiction can be
/// tested.
pub const BREAK_MODEL_FOR_TESTS: &str = "MILPTREE_TEST_BREAK_MODEL";

/// Writes the MILP's tree and the exact search's tree of a contradiction, next to `--output`
/// or in the working directory, and returns their paths.
fn write_contradiction(
    args: &SolveArgs,
    outcome: &Outcome,
    certificate: &crate::learn::certificate::Certificate,
) -> Result<Vec<String>> {
    let base = args
        .output
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from(format!("contradiction-{}", outcome.name)));
    let mut written = Vec::new();
    for (suffix, tree) in [
        ("milp", outcome.tree.as_ref()),
        ("dp", certificate.dp_tree.as_ref()),
    ] {
        if let Some(tree) = tree {
            let path = base.with_extension(format!("{suffix}.json"));
            write_file(&path, &tree.to_json_string())?;
            written.push(path.display().to_string());
        }
    }
    Ok(written)
}

/// The library's settings of `solve`'s options.
pub(crate) fn settings(args: &SolveArgs) -> Result<Settings> {
    let mut settings = args.model.settings(args.solver, Some(&args.searches))?;
    args.model.constraints.add_to(&mut settings)?;
    settings.time_limit = args.time_limit.as_ref().and_then(Budget::duration);
    settings.mip_gap = args.mip.mip_gap;
    settings.solver_options.clone_from(&args.mip.solver_options);
    settings.log = args.mip.log;
    settings.threads = args.threads.threads;
    settings.certify = args.certify.certify.map(|certify| certify.0);
    settings.dp_bounds = args.certify.dp_bounds;
    settings.separation_rounds = args.certify.separation_rounds;
    Ok(settings)
}

pub use crate::learn::front_run::relabel_rule;

fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.6}"))
}

fn print_human(args: &SolveArgs, data: &Sets, outcome: &Outcome) -> Result<()> {
    let report = &outcome.report;
    outln!(
        "{} depth {} on {} ({} training rows, {} features, {} classes), {} {}",
        outcome.name.to_uppercase(),
        outcome.depth,
        args.data.data.display(),
        data.train.n_rows(),
        data.train.n_features(),
        data.train.n_classes(),
        report.solver,
        report.solver_version
    )?;
    if let Some(model) = &outcome.model {
        let size = &model.size;
        outln!(
            "model: {} variables ({} binary, {} integer, {} continuous), {} constraints, {} non-zeros; built in {:.2} s",
            size.variables, size.binaries, size.integers, size.continuous, size.constraints, size.nonzeros, model.build_seconds
        )?;
    }
    if let Some(stats) = &outcome.search {
        outln!(
            "search: {} subproblems, {} cache entries ({} evicted), peak memory {:.1} MiB",
            stats.subproblems,
            stats.cache_entries,
            stats.cache_evictions,
            stats.peak_memory_bytes as f64 / (1024.0 * 1024.0)
        )?;
    }
    if let Some(warm) = &report.warm_start {
        let accepted = match warm.accepted {
            Some(true) => "accepted",
            Some(false) => "not accepted",
            None => "acceptance unknown",
        };
        let feasible = if warm.feasible {
            "feasible"
        } else {
            "INFEASIBLE"
        };
        outln!(
            "warm start: objective {} ({feasible}, {accepted}){}",
            figure(Some(warm.objective)),
            outcome
                .warm_start_source
                .as_ref()
                .map_or_else(String::new, |source| format!(", from {source}"))
        )?;
        if let Some(violation) = &warm.worst_violation {
            outln!(
                "  worst violation: {} by {}",
                violation.name,
                violation.amount
            )?;
        }
    }
    outln!(
        "solve: {} in {:.2} s, {} nodes; objective {}, bound {}, gap {}",
        report.termination,
        report.seconds,
        report
            .nodes
            .map_or_else(|| "-".to_string(), |n| n.to_string()),
        figure(report.objective),
        figure(report.best_bound),
        report
            .rel_gap
            .map_or_else(|| "-".to_string(), |g| format!("{:.4}%", 100.0 * g)),
    )?;
    if let Some(mismatch) = &outcome.decode_mismatch {
        outln!("WARNING: {}", mismatch.message)?;
    }
    if let Some(certificate) = &outcome.certificate {
        match &certificate.dp {
            Some(dp) => outln!(
                "certificate: {} ({}); exact search {} in {:.2} s, objective {}, bound {}",
                certificate.verdict,
                certificate.message,
                serde_json::to_value(dp.termination)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                dp.seconds,
                figure(Some(dp.objective)),
                figure(Some(dp.bound))
            )?,
            None => outln!(
                "certificate: {} ({})",
                certificate.verdict,
                certificate.message
            )?,
        }
        if let Some(all) = &certificate.all_thresholds {
            outln!(
                "  over every midpoint threshold: objective {}, bound {}",
                figure(Some(all.objective)),
                figure(Some(all.bound))
            )?;
        }
    }
    for note in report.notes.iter().chain(&outcome.notes) {
        outln!("note: {note}")?;
    }
    let Some(tree) = &outcome.tree else {
        return match outcome.model {
            Some(_) => outln!("no tree: the solver found no solution"),
            None => outln!("no tree: the search found none in time (see the note)"),
        };
    };
    let (train, test) = train_test(tree, data)?;
    outln!("{}", summary_line("train", &train))?;
    if let Some(test) = &test {
        outln!("{}", summary_line("test", test))?;
    }
    if let Some(line) = crate::cli::constraint_args::text_line(&outcome.side_constraints) {
        outln!("{line}")?;
    }
    if let Some(note) = one_sided_note(tree) {
        outln!("{note}")?;
    }
    if let Some(path) = &args.output {
        outln!("tree written to {}", path.display())?;
    }
    if let Some(path) = &args.html {
        outln!("page written to {}", path.display())?;
    }
    out!("{}", TextView(tree))?;
    Ok(())
}
