//! `milptree predict`: apply a saved tree to a CSV file; report metrics when the file has
//! the label column (with the AUC of the class probabilities on two classes), and, with
//! `--proba`, every row's class probabilities ([`ProbabilityModel`]).

use std::fmt::Write as _;

use serde_json::json;

use crate::cli::args::PredictArgs;
use crate::cli::output::{print_json, summary_line, write_file};
use crate::data::{read_for_schema, same_label, Observations};
use crate::error::Result;
use crate::tree::{evaluate, Evaluation, ProbabilityModel, Summary, Tree};
use crate::{errln, noteln, out, outln};

pub fn run(args: PredictArgs) -> Result<()> {
    let tree = Tree::read(&args.tree)?;
    let probability_model = if args.proba {
        Some(ProbabilityModel::for_tree(&tree, args.proba_smoothing)?)
    } else {
        None
    };
    let (mut observations, unseen) = read_for_schema(
        &args.data,
        tree.schema(),
        tree.classes(),
        &args.delimiter.options(),
        &args.missing.options(),
    )?;
    apply_relabel_rule(&tree, &mut observations);
    for category in &unseen {
        noteln!(
            "warning: column `{}`: value `{}` ({} rows) does not occur in the tree's training \
             data; those rows go the `!=` way at every split on that column",
            category.column,
            category.value,
            category.rows
        );
    }
    let predicted = tree.predict(&observations.rows);
    let probabilities: Option<Vec<Vec<f64>>> = probability_model.map(|model| {
        observations
            .rows
            .iter()
            .map(|row| model.class_probabilities(row))
            .collect()
    });
    let evaluation = observations
        .labels
        .as_ref()
        .map(|labels| evaluate(&predicted, labels, &observations.classes))
        .transpose()?;
    let area = roc_auc(&tree, probability_model, &observations);
    let two_classes = tree.classes().len() == 2;
    let positive = probability_model
        .map(|model| model.positive_class())
        .filter(|_| two_classes);
    let table = predictions_csv(
        &tree,
        &observations,
        &predicted,
        probabilities.as_deref(),
        positive,
    );
    if let Some(path) = &args.output {
        write_file(path, &table)?;
    }
    let summary = evaluation
        .as_ref()
        .zip(observations.labels.as_ref())
        .map(|(e, labels)| {
            e.summary()
                .with_row_weights(&predicted, labels, observations.weights.as_deref())
        });
    if args.json {
        let mut report = json!({
            "command": "predict",
            "tree": args.tree.display().to_string(),
            "data": { "path": args.data.display().to_string(), "rows": observations.rows.len() },
            "train": tree.training_evaluation().summary(),
            "test": summary,
            "evaluation": evaluation,
            "auc": area,
            "predictions": predicted.iter().map(|&c| tree.classes()[c].clone()).collect::<Vec<_>>(),
        });
        if let (Some(model), Some(probabilities)) = (probability_model, &probabilities) {
            add_probabilities(
                &mut report,
                &tree,
                model,
                probabilities,
                args.proba_smoothing,
            );
        }
        return print_json(&report);
    }
    let mut report = Vec::new();
    if let (Some(evaluation), Some(summary)) = (&evaluation, &summary) {
        report = metric_lines(&args, evaluation, summary, area);
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

/// The predictions as CSV: each row's number, leaf and predicted class, its probabilities
/// (the positive class's alone when `positive` is given) and its actual class when known.
fn predictions_csv(
    tree: &Tree,
    observations: &Observations,
    predicted: &[usize],
    probabilities: Option<&[Vec<f64>]>,
    positive: Option<usize>,
) -> String {
    let mut table = String::from("row,leaf,predicted");
    if probabilities.is_some() {
        match positive {
            Some(_) => table.push_str(",probability"),
            None => {
                for class in tree.classes() {
                    table.push(',');
                    table.push_str(&csv_field(&format!("probability:{class}")));
                }
            }
        }
    }
    if observations.labels.is_some() {
        table.push_str(",actual");
    }
    table.push('\n');
    for (i, (row, &class)) in observations.rows.iter().zip(predicted).enumerate() {
        let leaf = tree.leaf_of(row);
        let _ = write!(
            table,
            "{},{},{}",
            i + 1,
            leaf,
            csv_field(&tree.classes()[class])
        );
        if let Some(probabilities) = probabilities {
            match positive {
                Some(positive) => {
                    let _ = write!(table, ",{}", probabilities[i][positive]);
                }
                None => {
                    for p in &probabilities[i] {
                        let _ = write!(table, ",{p}");
                    }
                }
            }
        }
        if let Some(labels) = &observations.labels {
            let _ = write!(table, ",{}", csv_field(&observations.classes[labels[i]]));
        }
        table.push('\n');
    }
    table
}

/// The JSON report's probabilities: the positive class's on two classes, the rule, the
/// smoothing and every class's.
fn add_probabilities(
    report: &mut serde_json::Value,
    tree: &Tree,
    model: ProbabilityModel<'_>,
    probabilities: &[Vec<f64>],
    smoothing: Option<f64>,
) {
    if tree.classes().len() == 2 {
        let positive = model.positive_class();
        report["positive_class"] = json!(tree.classes()[positive]);
        report["probability"] = json!(probabilities
            .iter()
            .map(|p| p[positive])
            .collect::<Vec<_>>());
    }
    report["probability_rule"] = json!(if model.is_logistic() {
        "logistic"
    } else {
        "leaf-frequency"
    });
    report["proba_smoothing"] = json!(smoothing.unwrap_or(0.0));
    report["classes"] = json!(tree.classes());
    report["class_probabilities"] = json!(probabilities);
}

/// The text report's metric lines: the summary, the AUC and each class's figures.
fn metric_lines(
    args: &PredictArgs,
    evaluation: &Evaluation,
    summary: &Summary,
    area: Option<f64>,
) -> Vec<String> {
    let mut report = vec![summary_line(&args.data.display().to_string(), summary)];
    if let Some(area) = area {
        report.push(format!("  AUC {area:.4}"));
    }
    for class in &evaluation.per_class {
        report.push(format!(
            "  class {}: support {}, precision {:.4}, recall {:.4}, F1 {:.4}",
            class.label, class.support, class.precision, class.recall, class.f1
        ));
    }
    report
}

/// The AUC of the positive class's probability (of `model`, or of the tree's own model
/// unsmoothed) when the data has labels and it and the tree have the same two classes; `None`
/// otherwise, or when one class is absent from the data.
fn roc_auc(
    tree: &Tree,
    model: Option<ProbabilityModel<'_>>,
    observations: &Observations,
) -> Option<f64> {
    let labels = observations.labels.as_ref()?;
    if tree.classes().len() != 2 || observations.classes.len() != 2 {
        return None;
    }
    let model = match model {
        Some(model) => model,
        None => ProbabilityModel::for_tree(tree, None).ok()?,
    };
    model.auc(&observations.rows, labels)
}

/// Maps the labels of the data the way the tree's training data was relabelled, when it was
/// (`learned_by.relabel.map`, e.g. OLCT's `X` / `not X`), numbers matched by value; labels
/// outside the map stay as they are.
pub(crate) fn apply_relabel_rule(tree: &Tree, observations: &mut Observations) {
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
