//! A linear row of the user's own over a model's variables ([`UserRow`]), parsed from text such
//! as `"a[f=0,n=1] + 2 a[f=1,n=1] - d[n=2] <= 1"`: terms `[coefficient [*]] name` joined by `+`
//! and `-`, one of `<=`, `>=` or `=`, and a number. Names are the model's variables as
//! `export-lp` lists them, readable (`a[f=0,n=1]`) or as written in the LP file (`a(f0,n1)`);
//! they are looked up when the model is built.

use serde::Serialize;

use crate::mip::RowSense;

/// A parsed row: `sum coefficient * name  sense  rhs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UserRow {
    /// The row as given.
    pub text: String,
    /// `(coefficient, variable name)`, in the order given.
    pub terms: Vec<(f64, String)>,
    pub sense: RowSense,
    pub rhs: f64,
}

/// The byte offset and length of the row's comparison at bracket depth 0.
fn comparison(text: &str) -> Result<(usize, usize, RowSense), String> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut found = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b'<' | b'>' | b'=' if depth == 0 => {
                let (len, sense) = match (bytes[i], bytes.get(i + 1)) {
                    (b'<', Some(b'=')) => (2, RowSense::Le),
                    (b'>', Some(b'=')) => (2, RowSense::Ge),
                    (b'=', Some(b'=')) => (2, RowSense::Eq),
                    (b'=', _) => (1, RowSense::Eq),
                    _ => return Err("use <=, >= or = (strict inequalities are not rows)".into()),
                };
                if found.is_some() {
                    return Err("more than one comparison".into());
                }
                found = Some((i, len, sense));
                i += len;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found.ok_or_else(|| "no comparison (<=, >= or =)".to_string())
}

/// The left-hand side's terms, split at `+` and `-` outside brackets (a `-` or `+` in a
/// number's exponent stays in it), each with its sign.
fn split_terms(lhs: &str) -> Vec<(f64, String)> {
    let mut terms = Vec::new();
    let mut sign = 1.0;
    let mut current = String::new();
    let mut depth = 0i32;
    for c in lhs.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
        let exponent = current.ends_with(['e', 'E'])
            && current[..current.len() - 1].trim().parse::<f64>().is_ok();
        if (c == '+' || c == '-') && depth == 0 && !exponent {
            if !current.trim().is_empty() {
                terms.push((sign, current.trim().to_string()));
            }
            current.clear();
            sign = if c == '-' { -1.0 } else { 1.0 };
        } else {
            current.push(c);
        }
    }
    terms.push((sign, current.trim().to_string()));
    terms
}

/// A term's coefficient and name (`2 x`, `2*x`, `x`).
fn term(sign: f64, text: &str) -> Result<(f64, String), String> {
    if text.is_empty() {
        return Err("an empty term".into());
    }
    let (coefficient, name) = if let Some((c, n)) = text.split_once('*') {
        (Some(c.trim()), n.trim())
    } else if let Some((c, n)) = text
        .split_once(char::is_whitespace)
        .filter(|(c, _)| c.parse::<f64>().is_ok())
    {
        (Some(c), n.trim())
    } else {
        (None, text)
    };
    let value = match coefficient {
        Some(c) => c
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{c}` is not a finite coefficient"))?,
        None => 1.0,
    };
    if name.is_empty() || name.parse::<f64>().is_ok() || name.contains(char::is_whitespace) {
        return Err(format!(
            "`{text}` is not a term `[coefficient] name` (constants go on the right-hand side)"
        ));
    }
    Ok((sign * value, name.to_string()))
}

impl UserRow {
    /// Parses `text`; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<UserRow, String> {
        let fail = |why: String| format!("row `{text}`: {why}");
        let (at, len, sense) = comparison(text).map_err(fail)?;
        let rhs_text = text[at + len..].trim();
        let rhs = rhs_text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| fail(format!("the right-hand side `{rhs_text}` is not a number")))?;
        let terms = split_terms(&text[..at])
            .into_iter()
            .map(|(sign, t)| term(sign, &t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        Ok(UserRow {
            text: text.to_string(),
            terms,
            sense,
            rhs,
        })
    }

    /// The row's left-hand side with each variable's value given by `value` (`None` for an
    /// unknown name).
    pub fn activity(&self, value: impl Fn(&str) -> Option<f64>) -> Option<f64> {
        self.terms
            .iter()
            .map(|(c, name)| value(name).map(|v| c * v))
            .sum()
    }

    /// The row as a bound on the distinct features a tree uses, `(weights, limit)`: the summed
    /// weights of the features used at most `limit`, when the row names only the indicators
    /// `used[j=..]` (`used(jN)` in files) of features below `n_features` and its sense makes
    /// every weight non-negative (`<=` with coefficients at least 0, `>=` with coefficients at
    /// most 0); `limit` holds the slack [`UserRow::holds`] gives with `tolerance`. `None`
    /// otherwise.
    pub fn over_features_used(&self, n_features: usize, tolerance: f64) -> Option<(Vec<f64>, f64)> {
        let sign = match self.sense {
            RowSense::Le => 1.0,
            RowSense::Ge => -1.0,
            RowSense::Eq => return None,
        };
        let mut weights = vec![0.0; n_features];
        for (coefficient, name) in &self.terms {
            let j = used_feature(name).filter(|&j| j < n_features)?;
            weights[j] += sign * coefficient;
        }
        if weights.iter().any(|&w| w < 0.0) {
            return None;
        }
        Some((
            weights,
            sign * self.rhs + tolerance * self.rhs.abs().max(1.0),
        ))
    }

    /// Whether `activity` meets the row within `tolerance` (relative to `max(1, |rhs|)`).
    pub fn holds(&self, activity: f64, tolerance: f64) -> bool {
        let slack = tolerance * self.rhs.abs().max(1.0);
        match self.sense {
            RowSense::Le => activity <= self.rhs + slack,
            RowSense::Ge => activity >= self.rhs - slack,
            RowSense::Eq => (activity - self.rhs).abs() <= slack,
        }
    }
}

/// The feature whose indicator `name` is: `used[j=3]`, or `used(j3)` as files write it.
pub fn used_feature(name: &str) -> Option<usize> {
    let index = name
        .strip_prefix("used[j=")
        .and_then(|rest| rest.strip_suffix(']'))
        .or_else(|| {
            name.strip_prefix("used(j")
                .and_then(|rest| rest.strip_suffix(')'))
        })?;
    index.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_parse_with_bracketed_names_and_coefficients() {
        let row = UserRow::parse("a[f=0,n=1] + 2 a[f=1,n=1] - 0.5*d[n=2] -1e-1 e[l=4,c=0] <= 1")
            .expect("parses");
        assert_eq!(row.sense, RowSense::Le);
        assert_eq!(row.rhs, 1.0);
        assert_eq!(
            row.terms,
            vec![
                (1.0, "a[f=0,n=1]".to_string()),
                (2.0, "a[f=1,n=1]".to_string()),
                (-0.5, "d[n=2]".to_string()),
                (-0.1, "e[l=4,c=0]".to_string()),
            ]
        );
        let file = UserRow::parse("a(f0,n1) = 0").expect("parses");
        assert_eq!(file.sense, RowSense::Eq);
        assert_eq!(file.terms, vec![(1.0, "a(f0,n1)".to_string())]);
        assert!(file.holds(1e-9, 1e-6) && !file.holds(0.1, 1e-6));
    }

    #[test]
    fn bad_rows_say_why() {
        for (text, why) in [
            ("x + y", "no comparison"),
            ("x < 1", "strict"),
            ("x <= y", "not a number"),
            ("x + 3 <= 1", "constants go on the right"),
            ("x <= 1 <= 2", "more than one"),
            ("x + <= 1", "empty term"),
        ] {
            let message = UserRow::parse(text).expect_err(text);
            assert!(message.contains(why), "{text}: {message}");
        }
    }

    #[test]
    fn rows_over_the_features_used_become_weights_and_a_limit() {
        let row = UserRow::parse("used[j=2] + 2 used(j0) <= 1").expect("parses");
        let (weights, limit) = row.over_features_used(3, 0.0).expect("over used");
        assert_eq!((weights, limit), (vec![2.0, 0.0, 1.0], 1.0));
        let ge = UserRow::parse("-used[j=1] - used[j=0] >= -1").expect("parses");
        assert_eq!(ge.over_features_used(2, 0.0), Some((vec![1.0, 1.0], 1.0)));
        for text in [
            "used[j=1] - used[j=0] <= 0",
            "used[j=1] >= 1",
            "used[j=1] = 0",
            "used[j=3] <= 0",
            "used[j=1] + d[n=1] <= 1",
            "usedx[j=1] <= 1",
        ] {
            let row = UserRow::parse(text).expect("parses");
            assert_eq!(row.over_features_used(3, 0.0), None, "{text}");
        }
    }
}
