//! Pieces shared by the commands' reports: the `data` block, the `train` / `test` figures from
//! the plain evaluator, human-readable summaries, and writing files and JSON (through
//! [`crate::console`]).

use std::path::Path;

use serde::Serialize;
use serde_json::{json, Value};

use crate::cli::data_args::DataArgs;
use crate::data::{Dataset, Sets};
use crate::error::{Error, Result};
use crate::learn::DataBlock;
use crate::tree::{Summary, TrainingRows, Tree};

/// The training rows a tree file's provenance names: `train` as read with `args` (the split's
/// seed only when there is a split).
pub fn training_rows(args: &DataArgs, train: &Dataset) -> TrainingRows {
    crate::learn::provenance::training_rows(
        train,
        &args.data,
        args.test_fraction.map(|_| args.seed),
        args.test_fraction,
    )
}

/// The `data` block of a report.
pub fn data_block(args: &DataArgs, data: &Sets) -> DataBlock {
    DataBlock::new(&args.data, data, Some(args.seed), args.test_fraction)
}

/// The evaluator's figures of `tree` on the training set and, if any, the test set.
pub fn train_test(tree: &Tree, data: &Sets) -> Result<(Summary, Option<Summary>)> {
    let summary = |set: &crate::data::Dataset| tree.summary_on(set);
    let train = summary(&data.train)?;
    let test = data.test.as_ref().map(summary).transpose()?;
    Ok((train, test))
}

/// One line of human text for a summary.
pub fn summary_line(name: &str, summary: &Summary) -> String {
    let binary = match (&summary.positive_class, summary.f1, summary.mcc) {
        (Some(positive), Some(f1), Some(mcc)) => {
            format!(", F1 {f1:.4}, MCC {mcc:.4} (positive class `{positive}`)")
        }
        _ => String::new(),
    };
    let weighted = match (summary.weighted_misclassified, summary.weighted_accuracy) {
        (Some(wrong), Some(accuracy)) => {
            format!("; weighted: {wrong} misclassified, accuracy {accuracy:.4}")
        }
        _ => String::new(),
    };
    format!(
        "{name}: {} of {} rows misclassified, accuracy {:.4}, balanced accuracy \
         {:.4}{binary}{weighted}",
        summary.misclassified, summary.rows, summary.accuracy, summary.balanced_accuracy
    )
}

/// The splits that send every training row the same way, as a report entry.
pub fn one_sided(tree: &Tree) -> Value {
    Value::Array(
        tree.one_sided_splits()
            .into_iter()
            .map(|(node, empty_side)| json!({ "node": node, "empty_side": empty_side }))
            .collect(),
    )
}

/// Human text naming the one-sided splits, if any.
pub fn one_sided_note(tree: &Tree) -> Option<String> {
    let splits = tree.one_sided_splits();
    if splits.is_empty() {
        return None;
    }
    let items: Vec<String> = splits
        .iter()
        .map(|(node, side)| format!("node {node} (no training row goes {side})"))
        .collect();
    Some(format!(
        "note: splits that send every training row the same way: {}",
        items.join(", ")
    ))
}

/// Writes `contents` to `path`.
pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })
}

/// Prints one JSON document on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::Internal(format!("a report does not serialise: {e}")))?;
    crate::outln!("{text}")
}
