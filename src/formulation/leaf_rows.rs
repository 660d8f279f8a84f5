//! The bounds on the training rows per leaf (`min_leaf_rows`, `max_leaf_rows`), shared by the
//! formulations that say how many rows each leaf receives ([`BuiltModel::leaf_rows`]):
//! - a model whose variables route every row (OCT's `z`, BinOCT's `l`) gives each leaf's rows as
//!   an expression ([`LeafRowSource::Counted`]);
//! - a model whose variables route only some rows (FlowOCT's flow carries only the rows a leaf
//!   classifies correctly) gives, per group of rows routed alike, the sides of its routing at
//!   every branch node and every node's "is a leaf" ([`LeafRowSource::Routed`]); a unit of
//!   routing per group, `reach[g,n]` into node `n` and `end[g,n]` ending at leaf `n`, then
//!   counts the rows:
//!   `reach[g,1] = 1`, `reach[g,n] = reach[g,2n] + reach[g,2n+1] + end[g,n]` (no children at the
//!   last level), `reach[g,2n] <= left(g,n)`, `reach[g,2n+1] <= right(g,n)`,
//!   `end[g,n] <= p[n]`; in every integer solution the unit follows the group's path to its
//!   leaf, and the leaf's rows are `sum_g |g| end[g,n]`.
//!
//! With `R[n]` a leaf's rows, the rows added are `max_leaf_rows[n]`: `R[n] <= max` and, with a
//! binary `nonempty[n]`, `leaf_reached[n]`: `R[n] - N nonempty[n] <= 0` (`N` the rows of the
//! data) and `min_leaf_rows[n]`: `R[n] - min nonempty[n] >= 0`: a leaf no row reaches is not
//! bounded below. [`LeafRowColumns::start`] gives the added columns their values for a warm
//! start from the values of the model's own.

use good_lp::IntoAffineExpression;

use crate::error::{Error, Result};
use crate::formulation::BuiltModel;
use crate::mip::{Expression, MipModel, RowSense, Variable};

/// A leaf's training rows as an expression of the model's variables.
#[derive(Debug, Clone)]
pub struct LeafCount {
    /// The leaf (tree node id; a node of a complete tree that may be a leaf).
    pub node: usize,
    /// Its training rows (unweighted), in every integer solution.
    pub rows: Expression,
}

/// A group of training rows every split routes alike, and its routing at each branch node.
#[derive(Debug, Clone)]
pub struct RoutedGroup {
    /// Its rows.
    pub rows: f64,
    /// At `[n - 1]`, branch node `n`: 1 when the node splits and sends the group left.
    pub left: Vec<Expression>,
    /// At `[n - 1]`: 1 when the node splits and sends the group right.
    pub right: Vec<Expression>,
}

/// The routing of every group through the complete tree of depth `depth`.
#[derive(Debug, Clone)]
pub struct Routing {
    pub depth: usize,
    /// At `[n - 1]`, every node: 1 when node `n` is a leaf.
    pub leaf: Vec<Expression>,
    pub groups: Vec<RoutedGroup>,
}

/// How a model gives the training rows of each leaf.
#[derive(Debug, Clone)]
pub enum LeafRowSource {
    /// Each leaf's rows over the model's own variables.
    Counted(Vec<LeafCount>),
    /// A routing to build them from.
    Routed(Routing),
}

/// The columns the bounds added to a model, to give them warm-start values.
#[derive(Debug, Clone)]
pub struct LeafRowColumns {
    counts: Vec<LeafCount>,
    /// `nonempty[n]` of each count, with a minimum.
    nonempty: Vec<Variable>,
    /// The routing and its columns.
    routed: Option<RoutedColumns>,
}

/// A routing and the columns that carry it: `reach[g][n - 1]` and `end[g][n - 1]`.
#[derive(Debug, Clone)]
struct RoutedColumns {
    routing: Routing,
    reach: Vec<Vec<Variable>>,
    end: Vec<Vec<Variable>>,
}

/// Adds the rows of the bounds `min` and `max` on the rows per leaf of `built` to `mip` (a copy
/// of its model); `rows` is the data's row count. An error names the formulation when its
/// model does not take them.
pub fn add_bounds<B: BuiltModel>(
    built: &B,
    mip: &mut MipModel,
    min: Option<usize>,
    max: Option<usize>,
    rows: usize,
    formulation: &str,
) -> Result<LeafRowColumns> {
    let source = built.leaf_rows().ok_or_else(|| {
        Error::parameter(
            "--constraints",
            format!(
                "{formulation} does not take bounds on the rows per leaf (oct, binoct and \
                 flowoct do)"
            ),
        )
    })?;
    let (counts, routed) = match source {
        LeafRowSource::Counted(counts) => (counts, None),
        LeafRowSource::Routed(routing) => {
            let (counts, reach, end) = route(mip, &routing);
            let routed = RoutedColumns {
                routing,
                reach,
                end,
            };
            (counts, Some(routed))
        }
    };
    let mut nonempty = Vec::new();
    for count in &counts {
        let n = count.node;
        if let Some(max) = max {
            mip.add_row(
                format!("max_leaf_rows[n={n}]"),
                count.rows.clone(),
                RowSense::Le,
                max as f64,
            );
        }
        if let Some(min) = min {
            let reached = mip.binary(format!("nonempty[n={n}]"));
            mip.add_row(
                format!("leaf_reached[n={n}]"),
                count.rows.clone() - rows as f64 * reached,
                RowSense::Le,
                0.0,
            );
            mip.add_row(
                format!("min_leaf_rows[n={n}]"),
                count.rows.clone() - min as f64 * reached,
                RowSense::Ge,
                0.0,
            );
            nonempty.push(reached);
        }
    }
    Ok(LeafRowColumns {
        counts,
        nonempty,
        routed,
    })
}

/// The `reach` and `end` columns and rows of `routing` (see the module documentation), and the
/// rows of every node as a leaf.
fn route(
    mip: &mut MipModel,
    routing: &Routing,
) -> (Vec<LeafCount>, Vec<Vec<Variable>>, Vec<Vec<Variable>>) {
    let n_nodes = (1usize << (routing.depth + 1)) - 1;
    let n_branch = (1usize << routing.depth) - 1;
    let mut reach = Vec::with_capacity(routing.groups.len());
    let mut end = Vec::with_capacity(routing.groups.len());
    let mut counts: Vec<Expression> = vec![Expression::default(); n_nodes];
    for (g, group) in routing.groups.iter().enumerate() {
        let into: Vec<Variable> = (1..=n_nodes)
            .map(|n| mip.continuous(format!("reach[g={g},n={n}]"), 0.0, 1.0))
            .collect();
        let ends: Vec<Variable> = (1..=n_nodes)
            .map(|n| mip.continuous(format!("end[g={g},n={n}]"), 0.0, 1.0))
            .collect();
        mip.add_row(format!("reach[g={g}]"), into[0], RowSense::Eq, 1.0);
        for n in 1..=n_nodes {
            let mut out = Expression::from(ends[n - 1]);
            if n <= n_branch {
                out += into[2 * n - 1];
                out += into[2 * n];
                mip.add_row(
                    format!("reach_left[g={g},n={n}]"),
                    into[2 * n - 1],
                    RowSense::Le,
                    group.left[n - 1].clone(),
                );
                mip.add_row(
                    format!("reach_right[g={g},n={n}]"),
                    into[2 * n],
                    RowSense::Le,
                    group.right[n - 1].clone(),
                );
            }
            mip.add_row(
                format!("pass[g={g},n={n}]"),
                Expression::from(into[n - 1]) - out,
                RowSense::Eq,
                0.0,
            );
            mip.add_row(
                format!("end[g={g},n={n}]"),
                ends[n - 1],
                RowSense::Le,
                routing.leaf[n - 1].clone(),
            );
            counts[n - 1] += group.rows * ends[n - 1];
        }
        reach.push(into);
        end.push(ends);
    }
    let counts = counts
        .into_iter()
        .enumerate()
        .map(|(m, rows)| LeafCount { node: m + 1, rows })
        .collect();
    (counts, reach, end)
}

/// The value of `expression` at `values` (every column of `mip`).
fn value_at(mip: &MipModel, expression: &Expression, values: &[f64]) -> f64 {
    expression
        .linear_coefficients()
        .map(|(variable, coefficient)| coefficient * values[mip.col(variable)])
        .sum::<f64>()
        + expression.constant()
}

impl LeafRowColumns {
    /// Sets the added columns in `values` (every column of `mip`, the model's own set) to
    /// what they are for the tree those encode: each group's path, and whether each leaf has
    /// rows.
    pub fn start(&self, mip: &MipModel, values: &mut [f64]) {
        if let Some(RoutedColumns {
            routing,
            reach,
            end,
        }) = &self.routed
        {
            let n_branch = (1usize << routing.depth) - 1;
            for (g, group) in routing.groups.iter().enumerate() {
                let mut n = 1;
                loop {
                    values[mip.col(reach[g][n - 1])] = 1.0;
                    let is_leaf = value_at(mip, &routing.leaf[n - 1], values) > 0.5;
                    if is_leaf || n > n_branch {
                        values[mip.col(end[g][n - 1])] = 1.0;
                        break;
                    }
                    n = if value_at(mip, &group.left[n - 1], values) > 0.5 {
                        2 * n
                    } else {
                        2 * n + 1
                    };
                }
            }
        }
        for (count, &reached) in self.counts.iter().zip(&self.nonempty) {
            let rows = value_at(mip, &count.rows, values);
            values[mip.col(reached)] = f64::from(u8::from(rows > 0.5));
        }
    }
}
