//! The words `solve` prints of a tree's fairness figures (the `fairness` part of the report's
//! `side_constraints`): each group's rates and the gaps.

/// `fairness` (a report's `side_constraints.fairness`) in words.
pub fn text(fairness: &serde_json::Value) -> String {
    let groups: Vec<String> = fairness["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| {
            let tpr = g["true_positive_rate"]
                .as_f64()
                .map_or_else(|| "-".to_string(), |r| format!("{r:.4}"));
            format!(
                "{} positive rate {:.4} TPR {tpr}",
                g["group"].as_str().unwrap_or_default(),
                g["positive_rate"].as_f64().unwrap_or_default()
            )
        })
        .collect();
    format!(
        "groups {}; parity gap {:.6}; opportunity gap {:.6}",
        groups.join(", "),
        fairness["parity_gap"].as_f64().unwrap_or_default(),
        fairness["opportunity_gap"].as_f64().unwrap_or_default()
    )
}
