//! Side constraints in an experiment grid (`constraints = "file.toml"` in a grid file): which
//! methods of the grid may take them ([`check_methods`]) and the tag that keeps the run keys of
//! constrained runs apart from the others ([`key_tag`]).

use crate::constraints::kinds::{self, ConstraintTaker};
use crate::constraints::ConstraintSpec;
use crate::error::{Error, Result};

/// An error when the grid runs a method that cannot take `spec`: OLCT takes no side
/// constraints; the exact and sparse searches the kinds [`ConstraintTaker::Dp`] and
/// [`ConstraintTaker::Sparse`] take.
pub fn check_methods(spec: &ConstraintSpec, formulations: &[String]) -> Result<()> {
    let listed = |name: &str| formulations.iter().any(|f| f.trim() == name);
    if listed("olct") || listed("all") {
        return Err(Error::parameter(
            "constraints",
            "olct takes no side constraints (oct, binoct and flowoct do); list the \
             formulations the grid runs under them",
        ));
    }
    let given = kinds::given(spec);
    for (search, taker) in [
        ("dp", ConstraintTaker::Dp),
        ("sparse", ConstraintTaker::Sparse),
    ] {
        let refused = taker.refused(&given);
        if listed(search) && !refused.is_empty() {
            return Err(Error::parameter(
                "constraints",
                format!(
                    "{search} does not take {}; the MILP formulations (oct, binoct, flowoct) \
                     do",
                    kinds::names(&refused)
                ),
            ));
        }
    }
    Ok(())
}

/// The constraints as JSON text, written one way
/// ([`ConstraintSpec::canonical`]) with only the kinds given (a switch left off is left out):
/// `{"max_leaf_rows":5}`.
pub fn constraints_text(spec: &ConstraintSpec) -> String {
    let mut value = serde_json::to_value(spec.canonical()).unwrap_or_default();
    if let Some(fields) = value.as_object_mut() {
        fields.retain(|_, field| match field {
            serde_json::Value::Null | serde_json::Value::Bool(false) => false,
            serde_json::Value::Array(items) => !items.is_empty(),
            serde_json::Value::Object(items) => !items.is_empty(),
            _ => true,
        });
    }
    value.to_string()
}

/// `_c` and 8 hex digits of a hash (FNV-1a) of [`constraints_text`]: the same set of
/// constraints, however written, gives the same tag on every machine and version.
pub fn key_tag(spec: &ConstraintSpec) -> String {
    let text = constraints_text(spec);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("_c{:08x}", hash >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_ignores_how_a_set_is_written() {
        let one: ConstraintSpec =
            toml::from_str("forbidden = [\"b\", \"a\", \"b\"]\nmax_leaf_rows = 5\n").expect("toml");
        let other: ConstraintSpec =
            toml::from_str("max_leaf_rows = 5\nforbidden = [\"a\", \"b\"]\n").expect("toml");
        let third: ConstraintSpec = toml::from_str("max_leaf_rows = 6\n").expect("toml");
        assert_eq!(key_tag(&one), key_tag(&other));
        assert_ne!(key_tag(&one), key_tag(&third));
        assert_eq!(key_tag(&one).len(), 10);
        assert_eq!(
            constraints_text(&one),
            r#"{"forbidden":["a","b"],"max_leaf_rows":5}"#
        );
    }

    #[test]
    fn methods_that_cannot_take_the_set_are_refused() {
        let bounds: ConstraintSpec = toml::from_str("max_leaf_rows = 2\n").expect("toml");
        let forbidden: ConstraintSpec = toml::from_str("forbidden = [\"a\"]\n").expect("toml");
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_methods(&bounds, &names(&["oct", "flowoct"])).is_ok());
        assert!(check_methods(&forbidden, &names(&["oct", "dp", "sparse"])).is_ok());
        assert!(check_methods(&bounds, &names(&["oct", "dp", "sparse"])).is_ok());
        let depths: ConstraintSpec = toml::from_str("[depths]\na = [0]\n").expect("toml");
        assert!(check_methods(&depths, &names(&["oct", "dp", "sparse"])).is_ok());
        let rows: ConstraintSpec = toml::from_str("rows = [\"used[j=0] <= 0\"]\n").expect("toml");
        let message = check_methods(&rows, &names(&["oct", "dp"]))
            .expect_err("dp")
            .to_string();
        assert!(message.contains("dp does not take rows"), "{message}");
        let fair: ConstraintSpec =
            toml::from_str("group_column = \"g\"\nmax_parity_gap = 0.1\n").expect("toml");
        assert!(check_methods(&fair, &names(&["oct", "dp", "sparse"])).is_ok());
        let message = check_methods(&fair, &names(&["dp", "olct"]))
            .expect_err("olct")
            .to_string();
        assert!(message.contains("olct"), "{message}");
        assert!(check_methods(&forbidden, &names(&["olct"])).is_err());
        assert!(check_methods(&forbidden, &names(&["all"])).is_err());
    }
}
