//! The reader of a Gurobi/CPLEX text MIP start (`.mst`), as [`MipModel::write_mst`] writes it:
//! `name value` lines and `#` comments. It gives the pairs in file order; the solver that takes
//! the start matches the names against its model.
//!
//! [`MipModel::write_mst`]: super::MipModel::write_mst

use std::fs;
use std::path::Path;

use crate::error::{Error, Result};

/// Reads the `(column name, value)` pairs of the `.mst` file at `path`.
pub fn read_mst(path: &Path) -> Result<Vec<(String, f64)>> {
    let text = fs::read_to_string(path)
        .map_err(|e| Error::input(path.display().to_string(), e.to_string()))?;
    parse_mst(&text).map_err(|message| Error::input(path.display().to_string(), message))
}

/// The pairs of an `.mst` text, or what is wrong with it (with its line number).
fn parse_mst(text: &str) -> std::result::Result<Vec<(String, f64)>, String> {
    let mut start = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(name), Some(value), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(format!("line {}: expected `name value`", number + 1));
        };
        let value: f64 = value
            .parse()
            .map_err(|_| format!("line {}: `{value}` is not a number", number + 1))?;
        start.push((name.to_string(), value));
    }
    Ok(start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mip::MipModel;

    #[test]
    fn reads_back_what_the_writer_writes() {
        let mut model = MipModel::new("m");
        let x = model.binary("x[n=1]");
        let y = model.continuous("y", -5.0, 5.0);
        let mut start = model.start();
        start.set(x, 1.0);
        start.set(y, -2.5);
        let start = start.finish().expect("complete");
        let mut bytes = Vec::new();
        model.write_mst(&start, &mut bytes).expect("written");
        let text = String::from_utf8(bytes).expect("UTF-8");
        let pairs = parse_mst(&text).expect("parsed");
        assert_eq!(
            pairs,
            vec![("x(n1)".to_string(), 1.0), ("y".to_string(), -2.5)]
        );
    }

    #[test]
    fn names_the_bad_line() {
        assert_eq!(
            parse_mst("# c\nx 1\ny\n"),
            Err("line 3: expected `name value`".to_string())
        );
        assert_eq!(
            parse_mst("x one\n"),
            Err("line 1: `one` is not a number".to_string())
        );
    }
}
