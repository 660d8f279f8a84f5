//! `milptree predict`: apply a saved tree to a CSV file; report metrics when the file has
//! the label column, and, with `--proba`, the probability of the positive class of logistic
//! trees.

use std::fmt::Write as _;

use serde_json::json;

use crate::cli::args::PredictArgs;
use crate::cli::output::{print_json, summary_line, write_file};
use crate::data::{read_for_schema, same_label, Observations};
use crate::error::Result;
use crate::tree::{evaluate, ProbabilityModel, Tree};
use crate::{errln, noteln, out, outln};

pub fn run(args: PredictArgs) -> Result<()> {
    let tree = Tree::read(&args.tree)?;
    let probability_model = if args.proba {
        Some(ProbabilityModel::new(&tree)?)
    } else {
        None
    };
    let (mut observations, unseen) = read_for_schema(&args.data, tree.schema(), tree.classes())?;
    apply_relabel_rule(&tree, &mut observations);
    for category in &unseen {
        noteln!(
            "warning: column `{}`: value `{}` ({} rows) does not occur in the tree's training \
             data; those rows take no category of that column",
            category.column,
            category.value,
            category.rows
        );
    }
    let leaves: Vec<usize> = observations
        .rows
        .iter()
        .map(|row| tree.leaf_of(row))
        .collect();
    let predicted = tree.predict(&observations.rows);
    let probabilities: Option<Vec<f64>> = probability_model.map(|model| {
        observations
            .rows
            .iter()
            .map(|row| model.probability(row))
            .collect()
    });
    let evaluation = observations
        .labels
        .as_ref()
        .map(|labels| evaluate(&predicted, labels, &observations.classes))
        .transpose()?;
    let mut table = String::from("row,leaf,predicted");
    if probabilities.is_some() {
        table.push_str(",probability");
    }
    if observations.labels.is_some() {
        table.push_str(",actual");
    }
    table.push('\n');
    for (i, (&leaf, &class)) in leaves.iter().zip(&predicted).enumerate() {
        let _ = write!(
            table,
            "{},{},{}",
            i + 1,
            leaf,
            csv_field(&tree.classes()[class])
        );
        if let Some(probabilities) = &probabilities {
            let _ = write!(table, ",{}", probabilities[i]);
        }
        if let Some(labels) = &observations.labels {
            let _ = write!(table, ",{}", csv_field(&observations.classes[labels[i]]));
        }
        table.push('\n');
    }
    if let Some(path) = &args.output {
        write_file(path, &table)?;
    }
    let train = tree.training_evaluation().summary();
    if args.json {
        let mut report = json!({
            "command": "predict",
            "tree": args.tree.display().to_string(),
            "data": { "path": args.data.display().to_string(), "rows": observations.rows.len() },
            "train": train,
            "test": evaluation.as_ref().map(|e| e.summary()),
            "evaluation": evaluation,
            "predictions": predicted.iter().map(|&c| tree.classes()[c].clone()).collect::<Vec<_>>(),
        });
        if let (Some(model), Some(probabilities)) = (probability_model, &probabilities) {
            report["positive_class"] = json!(tree.classes()[model.positive_class()]);
            report["probability"] = json!(probabilities);
        }
        return print_json(&report);
    }
    let mut report = Vec::new();
    if let Some(evaluation) = &evaluation {
        report.push(summary_line(
            &args.data.display().to_string(),
            &evaluation.summary(),
        ));
        for class in &evaluation.per_class {
            report.push(format!(
                "  class {}: support {}, precision {:.4}, recall {:.4}, F1 {:.4}",
                class.label, class.support, class.precision, class.recall, class.f1
            ));
        }
    }
    match &args.output {
        Some(path) => {
            report.push(format!("predictions written to {}", path.display()));
            outln!("{}", report.join("\n"))?;
        }
        None => {
            out!("{table}")?;
            if !report.is_empty() {
                errln!("{}", report.join("\n"))?;
            }
        }
    }
    Ok(())
}

/// Maps the labels of the data the way the tree's training data was relabelled, when it was
/// (`learned_by.relabel.map`, e.g. OLCT's `X` / `not X`), numbers matched by value; labels
/// outside the map stay as they are.
fn apply_relabel_rule(tree: &Tree, observations: &mut Observations) {
    let Some(map) = tree
        .learned_by
        .as_ref()
        .and_then(|l| l.get("relabel"))
        .and_then(|r| r.get("map"))
        .and_then(|m| m.as_object())
    else {
        return;
    };
    let Some(labels) = observations.labels.as_mut() else {
        return;
    };
    let mut classes: Vec<String> = tree.classes().to_vec();
    for label in labels.iter_mut() {
        let original = &observations.classes[*label];
        let learned = map
            .iter()
            .find(|(key, _)| same_label(key, original))
            .and_then(|(_, v)| v.as_str())
            .unwrap_or(original)
            .to_string();
        *label = match classes.iter().position(|c| *c == learned) {
            Some(index) => index,
            None => {
                classes.push(learned);
                classes.len() - 1
            }
        };
    }
    observations.classes = classes;
}

/// Quotes a CSV field when it needs it.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
