//! A front as `milptree pareto` and the Python `pareto_front` learn it, between the settings
//! ([`super::front_settings`]) and the report ([`super::front_document`]): the data made
//! two-class ([`two_class`]) and each point's tree as a tree file holds it ([`point_trees`]).

use serde_json::{json, Map, Value};

use super::front::{FrontMethod, FrontResult};
use crate::data::{Dataset, Sets};
use crate::error::Result;
use crate::pareto::{binary_data, ParetoProblem};
use crate::score::Errors;
use crate::tree::Tree;

/// `original` made two-class, `positive` (default: the second class) against the others,
/// and the rule that maps the original labels to the learned ones (see [`relabel_rule`]).
pub fn two_class(original: &Sets, positive: Option<&str>) -> Result<(Sets, Option<Value>)> {
    let sets = original.clone().map(|set| binary_data(&set, positive))?;
    let rule = relabel_rule(original, &sets);
    Ok((sets, rule))
}

/// How a relabelling method maps the data's classes to the classes it learns
/// (`{"map": {original: learned}}`), recorded in the tree so that `predict` maps labels the same
/// way; `None` when the classes are unchanged. `relabelled` holds the same rows as `original`,
/// one to one (relabelled, not repeated or dropped).
pub fn relabel_rule(original: &Sets, relabelled: &Sets) -> Option<Value> {
    if original.train.classes() == relabelled.train.classes() {
        return None;
    }
    debug_assert_eq!(original.train.n_rows(), relabelled.train.n_rows());
    let mut map = Map::new();
    for (&label, &learned) in original
        .train
        .labels()
        .iter()
        .zip(relabelled.train.labels())
    {
        let learned = &relabelled.train.classes()[learned];
        map.insert(original.train.classes()[label].clone(), json!(learned));
    }
    Some(json!({ "map": map }))
}

/// The front method's name and its solver's, as the report gives them (`dp`, `dp` for the
/// bi-objective search).
pub fn method_names(method: &FrontMethod) -> (String, String) {
    match method {
        FrontMethod::Search => ("dp".to_string(), "dp".to_string()),
        FrontMethod::Epsilon {
            formulation,
            solver,
            ..
        } => (formulation.name().to_string(), solver.name().to_string()),
    }
}

/// Each point's tree (by point) with its errors, as its tree file holds it: counted on the
/// (weighted) rows of the two-class `train`, and `learned_by` the front (`method`, `problem`,
/// the point, and the relabelling `rule`, if any).
pub fn point_trees(
    result: &FrontResult,
    method: &FrontMethod,
    problem: &ParetoProblem,
    train: &Dataset,
    rule: Option<&Value>,
) -> Result<Vec<(Tree, Errors)>> {
    let (method_name, solver_name) = method_names(method);
    result
        .outcome
        .front
        .iter()
        .map(|front_tree| {
            let mut tree = front_tree.tree.clone();
            if train.is_weighted() {
                // The search counted units; the file's counts are the weighted rows' (as
                // every learned tree's, see `Tree::recount_on`).
                tree.recount_on(train)?;
            }
            let errors = result.outcome.errors(front_tree.point);
            let mut learned_by = json!({
                "method": "pareto",
                "front_method": method_name,
                "solver": solver_name,
                "parameters": problem,
                "positive_class": train.classes()[1],
                "point": errors,
            });
            if let Some(rule) = rule {
                learned_by["relabel"] = rule.clone();
            }
            tree.learned_by = Some(learned_by);
            Ok((tree, errors))
        })
        .collect()
}
