//! Reading CBC 2.10's log (log level 1) for what it says about the search while it runs:
//! [`parse_line`] turns one line into a [`LogEvent`].
//!
//! The lines read (`X`, `Y` are objective values of CBC's model, without our objective
//! constant, printed with about six significant digits):
//! - `Cbc0045I MIPStart provided solution with cost X`: CBC took the warm start as an
//!   incumbent;
//! - `Cbc0012I Integer solution of X found by HEURISTIC after ...`, `Cbc0004I Integer solution
//!   of X found after ...`, `Cbc0016I Integer solution of X found by strong branching ...`: an
//!   improving solution (by a heuristic, at a node, in strong branching);
//! - `Continuous objective value is Y - T seconds`: the bound of the LP relaxation;
//! - `Cbc0010I After N nodes, M on tree, X best solution, best possible Y (T seconds)`: the
//!   periodic progress line (`X` is `1e+50` without an incumbent);
//! - `Cbc0013I At root node, K cuts changed objective from A to Y in P passes`: the root bound;
//! - `Cbc0005I Partial search - best objective X (best possible Y), took ...` and `Cbc0001I
//!   Search completed - best objective X, took ...`: the final state.
//!
//! Everything else (preprocessing, cut statistics, heuristics' inner passes) says nothing about
//! the incumbent or the bound.

/// What one log line says about the search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LogEvent {
    /// CBC took the warm start as an incumbent of this objective.
    StartAccepted(f64),
    /// An improving solution of this objective.
    Incumbent(f64),
    /// The incumbent (if any) and the best bound, as CBC knows them.
    Progress {
        incumbent: Option<f64>,
        bound: Option<f64>,
    },
}

/// The event of a CBC log line, if it tells one.
pub(crate) fn parse_line(line: &str) -> Option<LogEvent> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("Continuous objective value is ") {
        let bound = rest.split_whitespace().next()?.parse().ok();
        return Some(LogEvent::Progress {
            incumbent: None,
            bound: bound.and_then(real_objective),
        });
    }
    let (code, text) = line.split_once(' ')?;
    match code {
        "Cbc0045I" => {
            number_after(text, "MIPStart provided solution with cost ").map(LogEvent::StartAccepted)
        }
        "Cbc0012I" | "Cbc0004I" | "Cbc0016I" => {
            number_after(text, "Integer solution of ").map(LogEvent::Incumbent)
        }
        "Cbc0010I" => Some(LogEvent::Progress {
            incumbent: number_before(text, " best solution").and_then(real_objective),
            bound: number_after(text, "best possible ").and_then(real_objective),
        }),
        "Cbc0013I" => {
            let bound = number_after(text, " to ")?;
            Some(LogEvent::Progress {
                incumbent: None,
                bound: real_objective(bound),
            })
        }
        "Cbc0005I" | "Cbc0001I" => Some(LogEvent::Progress {
            incumbent: number_after(text, "best objective ").and_then(real_objective),
            bound: number_after(text, "best possible ").and_then(real_objective),
        }),
        _ => None,
    }
}

/// The number that follows `marker` in `text` (up to a space, comma or parenthesis).
fn number_after(text: &str, marker: &str) -> Option<f64> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// The number that ends just before `marker` in `text`.
fn number_before(text: &str, marker: &str) -> Option<f64> {
    let before = &text[..text.find(marker)?];
    let start = before
        .rfind(|c: char| c.is_whitespace() || c == ',')
        .map_or(0, |i| i + 1);
    before[start..].parse().ok()
}

/// `value` unless it is one of CBC's stand-ins for "none" (`1e50`, infinities).
fn real_objective(value: f64) -> Option<f64> {
    (value.is_finite() && value.abs() < 1e30).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines copied from CBC 2.10.8 logs of milptree models.
    #[test]
    fn reads_incumbents_bounds_and_the_start() {
        assert_eq!(
            parse_line("Cbc0045I MIPStart provided solution with cost 0.06"),
            Some(LogEvent::StartAccepted(0.06))
        );
        assert_eq!(
            parse_line(
                "Cbc0012I Integer solution of 0.04 found by Reduced search after 0 iterations \
                 and 0 nodes (0.41 seconds)"
            ),
            Some(LogEvent::Incumbent(0.04))
        );
        assert_eq!(
            parse_line(
                "Cbc0004I Integer solution of -47286.631 found after 1234 iterations and 56 \
                 nodes (2.10 seconds)"
            ),
            Some(LogEvent::Incumbent(-47286.631))
        );
        assert_eq!(
            parse_line(
                "Cbc0010I After 0 nodes, 1 on tree, 0.06 best solution, best possible 0 (1.29 \
                 seconds)"
            ),
            Some(LogEvent::Progress {
                incumbent: Some(0.06),
                bound: Some(0.0)
            })
        );
        assert_eq!(
            parse_line(
                "Cbc0010I After 100 nodes, 7 on tree, 1e+50 best solution, best possible \
                 -12.5 (0.50 seconds)"
            ),
            Some(LogEvent::Progress {
                incumbent: None,
                bound: Some(-12.5)
            })
        );
        assert_eq!(
            parse_line(
                "Cbc0013I At root node, 70 cuts changed objective from 0 to 0.013 in 10 passes"
            ),
            Some(LogEvent::Progress {
                incumbent: None,
                bound: Some(0.013)
            })
        );
        assert_eq!(
            parse_line("Continuous objective value is -41364.7 - 0.12 seconds"),
            Some(LogEvent::Progress {
                incumbent: None,
                bound: Some(-41364.7)
            })
        );
        assert_eq!(
            parse_line(
                "Cbc0005I Partial search - best objective 0.06 (best possible 0), took 16339 \
                 iterations and 322 nodes (4.93 seconds)"
            ),
            Some(LogEvent::Progress {
                incumbent: Some(0.06),
                bound: Some(0.0)
            })
        );
        assert_eq!(
            parse_line(
                "Cbc0005I Partial search - best objective 1e+50 (best possible 0), took 0 \
                 iterations and 0 nodes (0.10 seconds)"
            ),
            Some(LogEvent::Progress {
                incumbent: None,
                bound: Some(0.0)
            })
        );
    }

    #[test]
    fn ignores_lines_that_say_nothing_of_the_search() {
        for line in [
            "Cgl0004I processed model has 1998 rows, 642 columns (631 integer (631 of which \
             binary)) and 12019 elements",
            "Cbc0038I Full problem 1998 rows 642 columns, reduced to 442 rows 137 columns",
            "Cbc0038I Solution found of 0.05",
            "Cbc0014I Cut generator 0 (Probing) - 17 row cuts average 8.6 elements",
            "Total time (CPU seconds):       3.96   (Wallclock seconds):       4.96",
            "",
            "Cbc0045I MIPStart solution provided values for 12 of 40 integer variables",
        ] {
            assert_eq!(parse_line(line), None, "{line}");
        }
    }
}
