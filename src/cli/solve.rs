//! `milptree solve`: build a formulation on the training data, solve it, decode and check
//! the tree, and report everything the solver proved and the plain evaluator measured.

use serde_json::{json, Map, Value};

use crate::cli::args::SolveArgs;
use crate::cli::data_args::LoadedData;
use crate::cli::interrupt::interrupt_flag;
use crate::cli::model_args::WarmStartArg;
use crate::cli::output::{
    data_block, one_sided, one_sided_note, print_json, summary_line, train_test, write_file,
};
use crate::error::{Error, Result};
use crate::export::TextView;
use crate::formulation::pipeline::{Outcome, RunOptions, WarmStart};
use crate::formulation::AnyFormulation;
use crate::solver::{Progress, SolveOptions};

pub fn run(args: SolveArgs) -> Result<()> {
    let formulation = args.model.formulation()?;
    solve_with(&formulation, &args)
}

/// The data with the formulation's relabelling applied to both sets.
pub fn relabelled(formulation: &AnyFormulation, data: LoadedData) -> Result<LoadedData> {
    Ok(LoadedData {
        train: formulation.relabel(data.train)?,
        test: data
            .test
            .map(|test| formulation.relabel(test))
            .transpose()?,
    })
}

/// Solve options from the command line.
pub fn solve_options(args: &SolveArgs) -> Result<SolveOptions> {
    if let Some(limit) = args.time_limit {
        if !(limit.is_finite() && limit >= 0.0) {
            return Err(Error::parameter(
                "--time-limit",
                format!("{limit} is not a number of seconds"),
            ));
        }
    }
    if !(args.mip_gap.is_finite() && args.mip_gap >= 0.0) {
        return Err(Error::parameter(
            "--mip-gap",
            format!("{} is not a non-negative number", args.mip_gap),
        ));
    }
    if args.threads == Some(0) {
        return Err(Error::parameter("--threads", "must be at least 1"));
    }
    let interrupt = interrupt_flag();
    Ok(SolveOptions {
        time_limit: args.time_limit,
        mip_rel_gap: args.mip_gap,
        threads: args.threads,
        integrality_tolerance: None,
        log: args.log,
        progress: if args.quiet || args.log {
            Progress::Hidden
        } else {
            Progress::Stderr
        },
        warm_start: None,
        interrupt: Some(interrupt),
    })
}

/// How a relabelling formulation maps the data's classes to the classes it learns
/// (`{"map": {original: learned}}`), recorded in the tree so that `predict` maps labels the same
/// way; `None` when the classes are unchanged.
pub fn relabel_rule(original: &LoadedData, relabelled: &LoadedData) -> Option<Value> {
    if original.train.classes() == relabelled.train.classes() {
        return None;
    }
    let mut map = Map::new();
    for (i, &label) in original.train.labels().iter().enumerate() {
        let learned = &relabelled.train.classes()[relabelled.train.labels()[i]];
        map.insert(original.train.classes()[label].clone(), json!(learned));
    }
    Some(json!({ "map": map }))
}

fn solve_with(formulation: &AnyFormulation, args: &SolveArgs) -> Result<()> {
    let original = args.data.load()?;
    let data = relabelled(formulation, original.clone())?;
    let rule = relabel_rule(&original, &data);
    let options = RunOptions {
        solver: args.solver,
        solve: solve_options(args)?,
        warm_start: match args.model.warm_start {
            WarmStartArg::Greedy => WarmStart::Greedy,
            WarmStartArg::None => WarmStart::None,
        },
    };
    let mut outcome = formulation.run(&data.train, options)?;
    if let (Some(rule), Some(tree)) = (&rule, outcome.tree.as_mut()) {
        let mut learned_by = tree.learned_by.take().unwrap_or_else(|| json!({}));
        learned_by["relabel"] = rule.clone();
        tree.learned_by = Some(learned_by);
    }
    if let (Some(path), Some(tree)) = (&args.output, &outcome.tree) {
        write_file(path, &tree.to_json_string())?;
    }
    let report = report_json(args, &data, &outcome);
    if args.json {
        print_json(&report);
    } else {
        print_human(args, &data, &outcome);
    }
    let termination = &outcome.report.termination;
    if termination.is_failure(outcome.report.has_solution) {
        // Infeasible, unbounded, failed or crashed: a failure of the run, tree or not.
        let tree = if outcome.tree.is_some() {
            "the tree reported is the solver's last incumbent"
        } else {
            "no tree"
        };
        return Err(Error::Solver {
            solver: args.solver.to_string(),
            message: format!("{tree}: the solve ended with {termination}"),
        });
    }
    Ok(())
}

/// The JSON report: the solver's figures at the top level, then the model, the warm start,
/// the check of the decoded tree, the evaluator's figures and the tree.
pub fn report_json(args: &SolveArgs, data: &LoadedData, outcome: &Outcome) -> Value {
    let mut report = Map::new();
    report.insert("command".into(), json!("solve"));
    report.insert("formulation".into(), json!(outcome.formulation));
    report.insert("parameters".into(), outcome.parameters.clone());
    report.insert("depth".into(), json!(args.model.depth));
    let mut data_json = data_block(&args.data.data, data);
    if let Value::Object(block) = &mut data_json {
        block.insert("seed".into(), json!(args.data.seed));
        block.insert("test_fraction".into(), json!(args.data.test_fraction));
    }
    report.insert("data".into(), data_json);
    if let Value::Object(solver) = serde_json::to_value(&outcome.report).expect("reports serialise")
    {
        report.extend(solver);
    }
    report.insert(
        "model_size".into(),
        serde_json::to_value(outcome.size).expect("sizes serialise"),
    );
    report.insert("build_seconds".into(), json!(outcome.build_seconds));
    report.insert(
        "warm_start_mode".into(),
        json!(match args.model.warm_start {
            WarmStartArg::Greedy => "greedy",
            WarmStartArg::None => "none",
        }),
    );
    report.insert(
        "warm_start_tree_objective".into(),
        json!(outcome.warm_start_objective),
    );
    report.insert(
        "evaluated_objective".into(),
        json!(outcome.evaluated_objective),
    );
    report.insert("decode_mismatch".into(), json!(outcome.decode_mismatch));
    report.insert("notes".into(), json!(outcome.notes));
    report.insert("post_process".into(), outcome.post_process.clone());
    let (train, test) = match &outcome.tree {
        Some(tree) => {
            let (train, test) = train_test(tree, data);
            (json!(train), json!(test))
        }
        None => (Value::Null, Value::Null),
    };
    report.insert("train".into(), train);
    report.insert("test".into(), test);
    report.insert(
        "one_sided_splits".into(),
        outcome.tree.as_ref().map_or(Value::Null, one_sided),
    );
    report.insert(
        "tree".into(),
        outcome
            .tree
            .as_ref()
            .map_or(Value::Null, |t| t.to_json_value()),
    );
    Value::Object(report)
}

fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.6}"))
}

fn print_human(args: &SolveArgs, data: &LoadedData, outcome: &Outcome) {
    let report = &outcome.report;
    println!(
        "{} depth {} on {} ({} training rows, {} features, {} classes), {} {}",
        outcome.formulation.to_uppercase(),
        args.model.depth,
        args.data.data.display(),
        data.train.n_rows(),
        data.train.n_features(),
        data.train.n_classes(),
        report.solver,
        report.solver_version
    );
    let size = &outcome.size;
    println!(
        "model: {} variables ({} binary, {} integer, {} continuous), {} constraints, {} non-zeros; built in {:.2} s",
        size.variables, size.binaries, size.integers, size.continuous, size.constraints, size.nonzeros, outcome.build_seconds
    );
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
        println!(
            "warm start: objective {} ({feasible}, {accepted})",
            figure(Some(warm.objective))
        );
        if let Some(violation) = &warm.worst_violation {
            println!(
                "  worst violation: {} by {}",
                violation.name, violation.amount
            );
        }
    }
    println!(
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
    );
    if let Some(mismatch) = &outcome.decode_mismatch {
        println!("WARNING: {}", mismatch.message);
    }
    for note in &outcome.notes {
        println!("note: {note}");
    }
    let Some(tree) = &outcome.tree else {
        println!("no tree: the solver found no solution");
        return;
    };
    let (train, test) = train_test(tree, data);
    println!("{}", summary_line("train", &train));
    if let Some(test) = &test {
        println!("{}", summary_line("test", test));
    }
    if let Some(note) = one_sided_note(tree) {
        println!("{note}");
    }
    if let Some(path) = &args.output {
        println!("tree written to {}", path.display());
    }
    print!("{}", TextView(tree));
}
