//! Which method takes which kind of side constraint: the kinds ([`ConstraintKind`]), the
//! methods that take constraints ([`ConstraintTaker`]) and one table between them
//! ([`ConstraintTaker::support`]), matched exhaustively, so a new kind is decided for every
//! method before the code compiles. The kinds a set holds are read by destructuring it whole
//! ([`present`], [`given`]): a new field of [`SideConstraints`] or [`ConstraintSpec`] is a
//! compile error here until it has a kind. The user guide's table
//! (docs/side-constraints.md) is [`markdown_table`], and the README's short one
//! [`markdown_summary`], both checked by a test.

use super::{ConstraintSpec, SideConstraints};

/// A kind of side constraint, as reports and refusals name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConstraintKind {
    Forbidden,
    MaxFeatures,
    /// `feature_costs` with `budget`.
    Budget,
    Depths,
    MaxLeaves,
    MinLeafRows,
    MaxLeafRows,
    Rows,
    /// `group_column` with `max_parity_gap` or `max_opportunity_gap`.
    Fairness,
}

impl ConstraintKind {
    /// Every kind, in the order of the user guide's table.
    pub const ALL: [ConstraintKind; 9] = [
        ConstraintKind::Forbidden,
        ConstraintKind::MaxFeatures,
        ConstraintKind::Budget,
        ConstraintKind::Depths,
        ConstraintKind::MaxLeaves,
        ConstraintKind::MinLeafRows,
        ConstraintKind::MaxLeafRows,
        ConstraintKind::Rows,
        ConstraintKind::Fairness,
    ];

    /// The kind's name (its key in a constraints file).
    pub fn name(self) -> &'static str {
        match self {
            ConstraintKind::Forbidden => "forbidden",
            ConstraintKind::MaxFeatures => "max_features",
            ConstraintKind::Budget => "budget",
            ConstraintKind::Depths => "depths",
            ConstraintKind::MaxLeaves => "max_leaves",
            ConstraintKind::MinLeafRows => "min_leaf_rows",
            ConstraintKind::MaxLeafRows => "max_leaf_rows",
            ConstraintKind::Rows => "rows",
            ConstraintKind::Fairness => "fairness",
        }
    }

    /// The kind as the user guide's table writes it (its keys in a constraints file).
    fn keys(self) -> &'static str {
        match self {
            ConstraintKind::Budget => "`feature_costs` + `budget`",
            ConstraintKind::Fairness => {
                "`group_column` with `max_parity_gap`, `max_opportunity_gap`"
            }
            ConstraintKind::Forbidden => "`forbidden`",
            ConstraintKind::MaxFeatures => "`max_features`",
            ConstraintKind::Depths => "`depths`",
            ConstraintKind::MaxLeaves => "`max_leaves`",
            ConstraintKind::MinLeafRows => "`min_leaf_rows`",
            ConstraintKind::MaxLeafRows => "`max_leaf_rows`",
            ConstraintKind::Rows => "`rows`",
        }
    }
}

/// The names of `kinds`, comma-separated.
pub fn names(kinds: &[ConstraintKind]) -> String {
    kinds
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A method as far as side constraints go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintTaker {
    /// OCT, BinOCT and FlowOCT on HiGHS or CBC, and `export-lp`: rows of the model.
    Milp,
    /// The exact search (`--solver dp`), and the MILPs' `dp` warm start and certificate.
    Dp,
    /// The sparse search (`--solver sparse`): the exact search's kinds but fairness.
    Sparse,
    /// OLCT (oblique splits).
    Olct,
}

/// Whether a method takes a kind, and how (the user guide's cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    Takes(&'static str),
    Refuses,
}

impl ConstraintTaker {
    /// Every taker, in the order of the user guide's columns.
    pub const ALL: [ConstraintTaker; 4] = [
        ConstraintTaker::Milp,
        ConstraintTaker::Dp,
        ConstraintTaker::Sparse,
        ConstraintTaker::Olct,
    ];

    /// The column heading of the user guide's table.
    fn heading(self) -> &'static str {
        match self {
            ConstraintTaker::Milp => "oct, binoct, flowoct (HiGHS, CBC, `export-lp`)",
            ConstraintTaker::Dp => "`--solver dp`, the `dp` start and certificate",
            ConstraintTaker::Sparse => "`--solver sparse`",
            ConstraintTaker::Olct => "olct",
        }
    }

    /// The column heading of the README's table (the methods as the command line and the
    /// Python estimator's `method` name them).
    fn short_heading(self) -> &'static str {
        match self {
            ConstraintTaker::Milp => "oct, binoct, flowoct",
            ConstraintTaker::Dp => "dp",
            ConstraintTaker::Sparse => "sparse",
            ConstraintTaker::Olct => "olct",
        }
    }

    /// The table: whether this method takes `kind`, and how.
    pub fn support(self, kind: ConstraintKind) -> Support {
        use ConstraintKind::*;
        match self {
            ConstraintTaker::Milp => match kind {
                Fairness => Support::Takes("yes (two classes)"),
                Forbidden | MaxFeatures | Budget | Depths | MaxLeaves | MinLeafRows
                | MaxLeafRows | Rows => Support::Takes("yes"),
            },
            ConstraintTaker::Dp => match kind {
                Forbidden => Support::Takes("yes (the search runs without the columns)"),
                MaxFeatures | Budget => Support::Takes(
                    "yes (the best of the searches over each largest feature set allowed)",
                ),
                MaxLeaves => Support::Takes("yes (a split budget of `max_leaves - 1`)"),
                MinLeafRows => Support::Takes("yes (the leaf minimum; without row weights)"),
                Fairness => Support::Takes(
                    "yes (two classes, two groups or more, either bound or both, depths 1-3, \
                     beside every kind above)",
                ),
                MaxLeafRows => {
                    Support::Takes("yes (a cap on the rows of a leaf; without row weights)")
                }
                Depths => {
                    Support::Takes("yes (each node splits on the features allowed at its depth)")
                }
                Rows => Support::Refuses,
            },
            ConstraintTaker::Sparse => match kind {
                Rows => Support::Refuses,
                Fairness => Support::Takes(
                    "yes (as `--solver dp`, under a depth cap or `max_leaves` that keeps the tree \
                     within depth 3)",
                ),
                Forbidden | MaxFeatures | Budget | Depths | MaxLeaves | MinLeafRows
                | MaxLeafRows => match ConstraintTaker::Dp.support(kind) {
                    Support::Takes(_) => Support::Takes("yes (as `--solver dp`)"),
                    Support::Refuses => Support::Refuses,
                },
            },
            ConstraintTaker::Olct => match kind {
                Forbidden | MaxFeatures | Budget | Depths | MaxLeaves | MinLeafRows
                | MaxLeafRows | Rows | Fairness => Support::Refuses,
            },
        }
    }

    /// Whether this method takes `kind`.
    pub fn takes(self, kind: ConstraintKind) -> bool {
        matches!(self.support(kind), Support::Takes(_))
    }

    /// The kinds of `kinds` this method does not take.
    pub fn refused(self, kinds: &[ConstraintKind]) -> Vec<ConstraintKind> {
        kinds.iter().copied().filter(|&k| !self.takes(k)).collect()
    }

    /// Every kind this method takes.
    pub fn taken(self) -> Vec<ConstraintKind> {
        ConstraintKind::ALL
            .into_iter()
            .filter(|&k| self.takes(k))
            .collect()
    }
}

/// The kinds a checked set holds.
pub fn present(constraints: &SideConstraints) -> Vec<ConstraintKind> {
    let SideConstraints {
        feature_names: _,
        max_features,
        costs: _,
        budget,
        forbidden,
        depths,
        max_leaves,
        rows,
        fairness,
        min_leaf_rows,
        max_leaf_rows,
    } = constraints;
    flagged([
        forbidden.iter().any(|&f| f),
        max_features.is_some(),
        budget.is_some(),
        depths.iter().any(Option::is_some),
        max_leaves.is_some(),
        min_leaf_rows.is_some(),
        max_leaf_rows.is_some(),
        !rows.is_empty(),
        fairness.is_some(),
    ])
}

/// The kinds a set as given holds (a group column alone, or the switches of a fairness bound
/// without a bound, are not a constraint).
pub fn given(spec: &ConstraintSpec) -> Vec<ConstraintKind> {
    let ConstraintSpec {
        max_features,
        forbidden,
        feature_costs,
        budget,
        depths,
        max_leaves,
        rows,
        group_column: _,
        allow_group_as_feature: _,
        positive_class: _,
        max_parity_gap,
        max_opportunity_gap,
        min_leaf_rows,
        max_leaf_rows,
        forbidden_by_setting: _,
    } = spec;
    flagged([
        !forbidden.is_empty(),
        max_features.is_some(),
        budget.is_some() || !feature_costs.is_empty(),
        !depths.is_empty(),
        max_leaves.is_some(),
        min_leaf_rows.is_some(),
        max_leaf_rows.is_some(),
        !rows.is_empty(),
        max_parity_gap.is_some() || max_opportunity_gap.is_some(),
    ])
}

/// The kinds flagged, in the order of [`ConstraintKind::ALL`].
fn flagged(flags: [bool; 9]) -> Vec<ConstraintKind> {
    ConstraintKind::ALL
        .into_iter()
        .zip(flags)
        .filter(|&(_, on)| on)
        .map(|(kind, _)| kind)
        .collect()
}

/// The user guide's table of which method takes which kind, from [`ConstraintTaker::support`].
pub fn markdown_table() -> String {
    render_table(ConstraintTaker::heading, |taker, kind| {
        match taker.support(kind) {
            Support::Takes(how) => how,
            Support::Refuses => "refused (exit 2)",
        }
    })
}

/// The README's table of which method takes which kind, from [`ConstraintTaker::support`]:
/// `yes` or `no` in each cell.
pub fn markdown_summary() -> String {
    render_table(ConstraintTaker::short_heading, |taker, kind| {
        if taker.takes(kind) {
            "yes"
        } else {
            "no"
        }
    })
}

/// A Markdown table of every kind (rows) against every method (columns, headed by `heading`),
/// each cell what `cell` says.
fn render_table(
    heading: fn(ConstraintTaker) -> &'static str,
    cell: impl Fn(ConstraintTaker, ConstraintKind) -> &'static str,
) -> String {
    let mut table = format!(
        "| constraint | {} |\n|---|{}\n",
        ConstraintTaker::ALL.map(heading).join(" | "),
        "---|".repeat(ConstraintTaker::ALL.len())
    );
    for kind in ConstraintKind::ALL {
        let cells = ConstraintTaker::ALL.map(|taker| cell(taker, kind));
        table.push_str(&format!("| {} | {} |\n", kind.keys(), cells.join(" | ")));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_user_guide_has_the_table_of_the_code() {
        let guide = include_str!("../../docs/side-constraints.md");
        let table = markdown_table();
        assert!(
            guide.contains(&table),
            "docs/side-constraints.md lacks the table:\n{table}"
        );
    }

    #[test]
    fn the_readme_has_the_short_table_of_the_code() {
        let readme = include_str!("../../README.md");
        let table = markdown_summary();
        assert!(
            readme.contains(&table),
            "README.md lacks the table:\n{table}"
        );
    }

    #[test]
    fn every_kind_a_spec_gives_is_present_once_checked() {
        let spec: ConstraintSpec = toml::from_str(
            "max_features = 1\nforbidden = [\"y\"]\nbudget = 2\nmax_leaves = 3\n\
             min_leaf_rows = 1\nmax_leaf_rows = 2\nrows = [\"d[n=1] <= 0\"]\n\
             [feature_costs]\nx = 1\n[depths]\nx = [0]\n",
        )
        .expect("parses");
        let data = crate::data::Dataset::from_parts(
            "kinds".to_string(),
            vec!["x".to_string(), "y".to_string()],
            vec!["a".to_string(), "b".to_string()],
            vec![vec![0.0, 1.0], vec![1.0, 0.0]],
            vec![0, 1],
        )
        .expect("valid data");
        let checked = spec.resolve(&data).expect("valid");
        assert_eq!(given(&spec), present(&checked));
        assert_eq!(given(&spec).len(), ConstraintKind::ALL.len() - 1);
        assert_eq!(
            ConstraintTaker::Dp.refused(&given(&spec)),
            vec![ConstraintKind::Rows]
        );
        assert_eq!(
            ConstraintTaker::Sparse.refused(&ConstraintKind::ALL),
            vec![ConstraintKind::Rows]
        );
        assert!(ConstraintTaker::Olct.taken().is_empty());
        assert_eq!(ConstraintTaker::Milp.taken(), ConstraintKind::ALL.to_vec());
    }
}
