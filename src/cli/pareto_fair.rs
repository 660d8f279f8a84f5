//! `milptree pareto --group-column G`: the exact front of training errors against the gap
//! between the groups of `G` ([`learn_fair_front`]) as a report ([`FairFrontDocument`]):
//! JSON, CSV, the figure and one tree file per point in `--out-dir`, or the CSV (the JSON with
//! `--json`) on stdout; the summary on stdout with `--out-dir`, on stderr beside a report.
//! The options of the other front that do not apply are refused by name. Under `--time-limit`
//! (or an interrupt) the front may stop unfinished: the report says so (`complete: false`, its
//! `termination`), with the points found, as the front of F1 does.

use serde_json::json;

use crate::budget::Budget;
use crate::cli::args::{FairnessArg, ParetoArgs};
use crate::cli::interrupt::interrupt_flag;
use crate::cli::model_args::SolverChoice;
use crate::cli::output::{data_block, write_file};
use crate::cli::pareto::{create_dir, emit_front, provenance};
use crate::constraints::fairness::FairnessKind;
use crate::constraints::ConstraintSpec;
use crate::data::{Sets, ThresholdMode};
use crate::error::{Error, Result};
use crate::experiment::plots::fair_front::FairFrontFigure;
use crate::fair::FairStop;
use crate::learn::fair_front::{
    learn_fair_front, FairFront, FairFrontDocument, FairFrontRequest, FairScore,
};
use crate::learn::search_line::SearchLine;
use crate::search_core::Termination;
use crate::solver::Progress;

pub fn run(args: &ParetoArgs) -> Result<()> {
    let mut request = request(args)?;
    let sets = args.data.load()?;
    // The limit bounds the whole command: what reading the data took is gone from it.
    request.stop.budget = request.stop.budget.left_since(request.stop.start);
    request.stop.start = std::time::Instant::now();
    let line = SearchLine::start(
        "front",
        args.time_limit.as_ref().and_then(Budget::limit_seconds),
        &if args.quiet {
            Progress::Hidden
        } else {
            Progress::Stderr
        },
    );
    line.say("searching the front of errors against the gap");
    let front = learn_fair_front(&sets.train, &request)?;
    drop(line);
    let tree_files = write_tree_files(args, &front, &request, &sets)?;
    let document = FairFrontDocument::new(
        &front,
        &request,
        &sets,
        data_block(&args.data, &sets),
        &tree_files,
    )?;
    emit_front(
        args,
        (&document, &document.to_csv()),
        |stem, dataset| FairFrontFigure::new(&document, dataset).save(stem),
        Vec::new(),
        |written| summary_lines(&document, written),
    )
}

/// The front the options ask for; the options of the other front are refused by name.
fn request(args: &ParetoArgs) -> Result<FairFrontRequest> {
    let Some(column) = &args.fair.group_column else {
        let given = if args.fairness.is_some() {
            "--fairness"
        } else if args.fair.allow_group_as_feature {
            "--allow-group-as-feature"
        } else if !args.fair.forbid_feature.is_empty() {
            "--forbid-feature"
        } else {
            "--min-leaf-rows"
        };
        return Err(Error::parameter(
            given,
            "applies to the front of errors against the gap between groups: give \
             --group-column NAME (the front of false positives against false negatives takes \
             no side constraints)",
        ));
    };
    if args.solver != SolverChoice::Dp {
        return Err(Error::parameter(
            "--solver",
            "the front of errors against the gap between groups is the exact search's (dp)",
        ));
    }
    for (given, name, why) in [
        (
            args.formulation.is_some(),
            "--formulation",
            "needs no model",
        ),
        (
            args.max_splits.is_some(),
            "--max-splits",
            "takes no split budget",
        ),
        (
            args.memory_limit.is_some(),
            "--memory-limit",
            "keeps no cache",
        ),
        (
            args.html.is_some(),
            "--html",
            "is written as JSON, CSV and a figure (the page shows the front of false \
             positives and false negatives)",
        ),
    ] {
        if given {
            return Err(Error::parameter(
                name,
                format!("the front of errors against the gap between groups {why}"),
            ));
        }
    }
    if args.threads == Some(0) {
        return Err(Error::parameter("--threads", "must be at least 1"));
    }
    let mut spec = ConstraintSpec {
        group_column: Some(column.clone()),
        positive_class: args.positive_class.clone(),
        ..ConstraintSpec::default()
    };
    args.fair.add_to(&mut spec);
    Ok(FairFrontRequest {
        spec,
        kind: match args.fairness.unwrap_or(FairnessArg::Parity) {
            FairnessArg::Parity => FairnessKind::Parity,
            FairnessArg::Opportunity => FairnessKind::Opportunity,
        },
        depth: args.depth,
        thresholds: args
            .thresholds
            .map_or(ThresholdMode::All, ThresholdMode::from),
        threads: args.threads.unwrap_or(1),
        stop: FairStop {
            start: std::time::Instant::now(),
            budget: args
                .time_limit
                .clone()
                .unwrap_or_default()
                .with_interrupt(Some(interrupt_flag())),
        },
    })
}

/// Writes each point's tree file (to `--trees`, or `trees` in `--out-dir`) with its
/// provenance; the paths, by point (none without a directory).
fn write_tree_files(
    args: &ParetoArgs,
    front: &FairFront,
    request: &FairFrontRequest,
    sets: &Sets,
) -> Result<Vec<Option<String>>> {
    let mut tree_files = vec![None; front.trees.len()];
    let trees_dir = args
        .trees
        .clone()
        .or_else(|| args.out.as_ref().map(|dir| dir.join("trees")));
    let Some(dir) = &trees_dir else {
        return Ok(tree_files);
    };
    create_dir(dir)?;
    let training = crate::cli::output::training_rows(&args.data, &sets.train);
    for (slot, point) in tree_files.iter_mut().zip(&front.trees) {
        let mut tree = point.tree.clone();
        let learned_by = json!({
            "method": "pareto",
            "front": "fairness",
            "front_method": "dp",
            "solver": "dp",
            "depth": request.depth,
            "fairness": request.kind,
            "group_column": request.spec.group_column,
            "allow_group_as_feature": request.spec.allow_group_as_feature,
            "positive_class": sets.train.classes()[fairness_positive(front)],
            "forbidden": front.forbidden_names(),
            "min_leaf_rows": request.spec.min_leaf_rows,
            "point": {
                "errors": point.train.errors,
                "gap": point.train.gap,
            },
        });
        tree.provenance = Some(provenance(
            args,
            &learned_by,
            ("dp", termination_name(front.termination)),
            front.seconds,
            &training,
        ));
        tree.learned_by = Some(learned_by);
        let path = dir.join(format!(
            "errors{}-gap{:.6}.json",
            point.train.errors, point.train.gap
        ));
        write_file(&path, &tree.to_json_string())?;
        *slot = Some(path.display().to_string());
    }
    Ok(tree_files)
}

/// How a front's trees were found: `optimal` on a complete front.
fn termination_name(termination: Termination) -> &'static str {
    match termination {
        Termination::Optimal => "optimal",
        Termination::TimeLimit => "time_limit",
        Termination::Interrupted => "interrupted",
    }
}

/// The index of the positive class of `front`'s rates.
fn fairness_positive(front: &FairFront) -> usize {
    front
        .constraints
        .fairness
        .as_ref()
        .map_or(1, |f| f.positive)
}

/// `score` in words: errors, accuracy and the groups' rates.
fn point_line(score: &FairScore) -> String {
    let fairness = serde_json::to_value(score).unwrap_or_default();
    format!(
        "{} errors (accuracy {:.4}); {}",
        score.errors,
        score.accuracy,
        super::fairness_line::text(&fairness)
    )
}

/// The summary: the front's size, its two ends, and the files written.
fn summary_lines(document: &FairFrontDocument, written: &[String]) -> Vec<String> {
    let gap = match document.fairness {
        FairnessKind::Parity => "parity gap",
        FairnessKind::Opportunity => "opportunity gap",
    };
    let status = match document.termination {
        Termination::Optimal => "complete",
        Termination::TimeLimit => "stopped by the time limit (the points found)",
        Termination::Interrupted => "stopped by the interrupt (the points found)",
    };
    let mut lines = vec![format!(
        "front of training errors against the {gap} between the groups of `{}` ({}), \
         positive class `{}`: {} points, {status}, {:.2} s",
        document.group_column,
        document.groups.join(", "),
        document.positive_class,
        document.points.len(),
        document.seconds
    )];
    if let (Some(fair), Some(best)) = (document.points.first(), document.points.last()) {
        lines.push(format!(
            "smallest gap ({:.6}): {}",
            fair.train.gap,
            point_line(&fair.train)
        ));
        lines.push(format!("fewest errors: {}", point_line(&best.train)));
    }
    for path in written {
        lines.push(format!("written: {path}"));
    }
    lines
}
