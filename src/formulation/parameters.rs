//! Parameters as JSON objects: the figures reports add to the parameters as given, and the
//! fields that differ from the defaults (how a grid names a setting).

use serde::Serialize;
use serde_json::Value;

/// `parameters` without the figures reports add to the parameters as given (`depth`, and the
/// derived `score_limit` of OLCT).
pub fn without_derived(parameters: &Value) -> Value {
    let mut value = parameters.clone();
    if let Value::Object(fields) = &mut value {
        for derived in ["depth", "score_limit"] {
            fields.remove(derived);
        }
    }
    value
}

/// The fields of `given` that differ from `defaults`, as `(name, value)` pairs in field order,
/// values as compact text: strings without quotes, numbers in Rust's shortest form (1 rather
/// than 1.0), lists comma-separated, a class weight as `LABEL=W` (as `--class-weight` takes it).
pub fn non_default<P: Serialize>(given: &P, defaults: &P) -> Vec<(String, String)> {
    fn text(value: &Value) -> String {
        match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), |f| f.to_string()),
            Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(","),
            Value::Object(fields) if fields.len() == 2 => {
                match (fields.get("label"), fields.get("weight")) {
                    (Some(label), Some(weight)) => format!("{}={}", text(label), text(weight)),
                    _ => value.to_string(),
                }
            }
            other => other.to_string(),
        }
    }
    let (Ok(Value::Object(given)), Ok(Value::Object(defaults))) =
        (serde_json::to_value(given), serde_json::to_value(defaults))
    else {
        return Vec::new();
    };
    given
        .iter()
        .filter(|(key, value)| defaults.get(*key) != Some(*value))
        .map(|(key, value)| (key.clone(), text(value)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::non_default;
    use crate::formulation::oct::OctParams;
    use crate::score::ClassWeight;

    #[test]
    fn class_weights_read_as_the_command_line_writes_them() {
        let given = OctParams {
            alpha: 0.5,
            class_weights: vec![
                ClassWeight {
                    label: "yes".to_string(),
                    weight: 2.0,
                },
                ClassWeight {
                    label: "no".to_string(),
                    weight: 0.25,
                },
            ],
            ..OctParams::default()
        };
        assert_eq!(
            non_default(&given, &OctParams::default()),
            vec![
                ("alpha".to_string(), "0.5".to_string()),
                ("class_weights".to_string(), "yes=2,no=0.25".to_string()),
            ]
        );
    }
}
