//! Building the OLCT model (the paper's (12) in its experimental objective form) as a
//! [`MipModel`]; the statement is in `formulations/olct.md`.
//!
//! Nodes `t = 1 .. 2^d - 1` are the branch nodes (breadth-first), `T_d` the last level
//! `2^(d-1) .. 2^d - 1`, and `T_d(t)` the last-level nodes under `t` (left part `T_d^l(t)`,
//! right part `T_d^r(t)`).

use crate::error::Result;
use crate::formulation::olct::tangents::{TangentPoint, TangentSet};
use crate::formulation::olct::training::Training;
use crate::mip::{Expression, MipModel, Variable};

/// The model's variables, by family.
#[derive(Debug, Clone)]
pub(crate) struct OlctVars {
    /// `w[t-1][j]`, `w_plus`, `w_minus`: the weights of node `t` and their parts (11).
    pub w: Vec<Vec<Variable>>,
    pub w_plus: Vec<Vec<Variable>>,
    pub w_minus: Vec<Vec<Variable>>,
    /// `b[t-1]`: the bias of node `t`.
    pub b: Vec<Variable>,
    /// `z[i][k]`: row `i` reaches last-level node `2^(d-1) + k`.
    pub z: Vec<Vec<Variable>>,
    /// `xi[i][h-1]`: the loss of row `i` at level `h`.
    pub xi: Vec<Vec<Variable>>,
    /// `delta[t-1][j]`: feature `j` may be used at node `t` (univariate models only).
    pub delta: Option<Vec<Vec<Variable>>>,
}

/// Node arithmetic of a complete tree of `depth` branch levels.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    pub depth: usize,
}

impl Layout {
    /// Number of branch nodes, `2^d - 1`.
    pub fn branches(&self) -> usize {
        (1 << self.depth) - 1
    }

    /// The first node of the last level, `2^(d-1)`.
    pub fn first_last(&self) -> usize {
        1 << (self.depth - 1)
    }

    /// Number of last-level nodes.
    pub fn n_last(&self) -> usize {
        self.first_last()
    }

    /// The level (1 = root) of node `t`.
    pub fn level(&self, t: usize) -> usize {
        crate::tree::node_depth(t) + 1
    }

    /// The indices `k` (node `2^(d-1) + k`) of the last-level nodes under `t`, `t` included.
    pub fn last_under(&self, t: usize) -> std::ops::Range<usize> {
        let span = self.depth - self.level(t);
        let first = t << span;
        let count = 1 << span;
        first - self.first_last()..first - self.first_last() + count
    }
}

/// The built model and what decoding needs.
#[derive(Debug)]
pub struct OlctModel {
    pub(crate) mip: MipModel,
    pub(crate) training: Training,
    pub(crate) tangents: TangentSet,
    pub(crate) vars: OlctVars,
    /// At most one feature per split (also in the refinement).
    pub(crate) univariate: bool,
    /// Refit the last level by exact L1-logistic regression after the solve.
    pub(crate) refine: bool,
}

/// `w_t . z_i + b_t` as an expression.
fn score(vars: &OlctVars, training: &Training, i: usize, t: usize) -> Expression {
    let mut e = Expression::with_capacity(training.z[i].len() + 1);
    for (j, &value) in training.z[i].iter().enumerate() {
        if value != 0.0 {
            e.add_mul(value, vars.w[t - 1][j]);
        }
    }
    e.add_mul(1.0, vars.b[t - 1]);
    e
}

/// The sum of `z[i][k]` over `ks`.
fn reach(vars: &OlctVars, i: usize, ks: std::ops::Range<usize>) -> Expression {
    let mut e = Expression::with_capacity(ks.len());
    for k in ks {
        e.add_mul(1.0, vars.z[i][k]);
    }
    e
}

/// Builds the model over prepared training data.
pub(crate) fn build_model(
    training: Training,
    tangents: TangentSet,
    univariate: bool,
    refine: bool,
) -> Result<OlctModel> {
    let settings = &training.settings;
    let layout = Layout {
        depth: settings.depth,
    };
    let mut mip = MipModel::new(format!("olct_depth{}", settings.depth));
    // |w_j| <= S / Z_j follows from the score bound; a constant feature's weight is 0.
    let weight_bound: Vec<f64> = training
        .bound
        .feature_max
        .iter()
        .map(|&z| {
            if z > 0.0 {
                settings.score_limit / z
            } else {
                0.0
            }
        })
        .collect();
    let vars = add_columns(&mut mip, &training, layout, &weight_bound, univariate);
    // (1a) every row reaches exactly one last-level node.
    for i in 0..training.data.n_rows() {
        mip.add_constraint(
            format!("route[i={i}]"),
            reach(&vars, i, 0..layout.n_last()).eq(1.0),
        );
    }
    add_split_rows(&mut mip, &vars, &training, layout, &weight_bound);
    add_forwarding_rows(&mut mip, &vars, &training, layout)?;
    add_loss_rows(&mut mip, &vars, &training, &tangents, layout)?;
    mip.set_objective(objective(&vars, &training, layout));
    Ok(OlctModel {
        mip,
        training,
        tangents,
        vars,
        univariate,
        refine,
    })
}

/// The columns: each branch node's weights `w = wp - wm` (within `weight_bound`), its
/// intercept `b` and, for univariate splits, its `delta`; each row's `z` at the last level and
/// its losses `xi` per level.
fn add_columns(
    mip: &mut MipModel,
    training: &Training,
    layout: Layout,
    weight_bound: &[f64],
    univariate: bool,
) -> OlctVars {
    let (n, p) = (training.data.n_rows(), training.data.n_features());
    let limit = training.settings.score_limit;
    let mut vars = OlctVars {
        w: Vec::new(),
        w_plus: Vec::new(),
        w_minus: Vec::new(),
        b: Vec::new(),
        z: Vec::new(),
        xi: Vec::new(),
        delta: univariate.then(Vec::new),
    };
    for t in 1..=layout.branches() {
        let mut w = Vec::with_capacity(p);
        let mut w_plus = Vec::with_capacity(p);
        let mut w_minus = Vec::with_capacity(p);
        for (j, &bound) in weight_bound.iter().enumerate() {
            w.push(mip.continuous(format!("w[f={j},n={t}]"), -bound, bound));
            w_plus.push(mip.continuous(format!("wp[f={j},n={t}]"), 0.0, bound));
            w_minus.push(mip.continuous(format!("wm[f={j},n={t}]"), 0.0, bound));
        }
        vars.w.push(w);
        vars.w_plus.push(w_plus);
        vars.w_minus.push(w_minus);
        vars.b
            .push(mip.continuous(format!("b[n={t}]"), -limit, limit));
        if let Some(delta) = vars.delta.as_mut() {
            delta.push(
                (0..p)
                    .map(|j| mip.binary(format!("delta[f={j},n={t}]")))
                    .collect(),
            );
        }
    }
    for i in 0..n {
        vars.z.push(
            (0..layout.n_last())
                .map(|k| mip.binary(format!("z[i={i},n={}]", layout.first_last() + k)))
                .collect(),
        );
        // xi >= 0 is the tangent at +inf.
        vars.xi.push(
            (1..=layout.depth)
                .map(|h| mip.continuous(format!("xi[i={i},h={h}]"), 0.0, f64::INFINITY))
                .collect(),
        );
    }
    vars
}

/// Each branch node's split rows: (11a) `w = w+ - w-`, the score bound, and for univariate
/// splits Remark 2's one feature per node.
fn add_split_rows(
    mip: &mut MipModel,
    vars: &OlctVars,
    training: &Training,
    layout: Layout,
    weight_bound: &[f64],
) {
    let p = training.data.n_features();
    let limit = training.settings.score_limit;
    for t in 1..=layout.branches() {
        for j in 0..p {
            // (11a) w = w+ - w-.
            let mut e = Expression::with_capacity(3);
            e.add_mul(1.0, vars.w[t - 1][j]);
            e.add_mul(-1.0, vars.w_plus[t - 1][j]);
            e.add_mul(1.0, vars.w_minus[t - 1][j]);
            mip.add_constraint(format!("split[f={j},n={t}]"), e.eq(0.0));
        }
        // Score bound: sum_j Z_j (w+ + w-) +- b <= S.
        for (sign, side) in [(1.0, "hi"), (-1.0, "lo")] {
            let mut e = Expression::with_capacity(2 * p + 1);
            for (j, &z) in training.bound.feature_max.iter().enumerate() {
                if z > 0.0 {
                    e.add_mul(z, vars.w_plus[t - 1][j]);
                    e.add_mul(z, vars.w_minus[t - 1][j]);
                }
            }
            e.add_mul(sign, vars.b[t - 1]);
            mip.add_constraint(format!("bound_{side}[n={t}]"), e.leq(limit));
        }
        if let Some(delta) = &vars.delta {
            // Remark 2: -W_j delta <= w <= W_j delta, sum_j delta <= 1.
            let mut count = Expression::with_capacity(p);
            for j in 0..p {
                let mut low = Expression::with_capacity(2);
                low.add_mul(1.0, vars.w[t - 1][j]);
                low.add_mul(weight_bound[j], delta[t - 1][j]);
                mip.add_constraint(format!("use_lo[f={j},n={t}]"), low.geq(0.0));
                let mut high = Expression::with_capacity(2);
                high.add_mul(1.0, vars.w[t - 1][j]);
                high.add_mul(-weight_bound[j], delta[t - 1][j]);
                mip.add_constraint(format!("use_hi[f={j},n={t}]"), high.leq(0.0));
                count.add_mul(1.0, delta[t - 1][j]);
            }
            mip.add_constraint(format!("one_feature[n={t}]"), count.leq(1.0));
        }
    }
}

/// (2a), (2b): forwarding at the nodes above the last level.
fn add_forwarding_rows(
    mip: &mut MipModel,
    vars: &OlctVars,
    training: &Training,
    layout: Layout,
) -> Result<()> {
    let (m, epsilon) = (training.settings.big_m, training.settings.epsilon);
    for t in 1..layout.first_last() {
        let left = layout.last_under(2 * t);
        let right = layout.last_under(2 * t + 1);
        for i in 0..training.data.n_rows() {
            crate::mip::build_clock::check()?;
            let mut e = score(vars, training, i, t);
            e.add_mul(m, reach(vars, i, left.clone()));
            mip.add_constraint(format!("left[i={i},n={t}]"), e.leq(m));
            let mut e = score(vars, training, i, t);
            e.add_mul(-m, reach(vars, i, right.clone()));
            mip.add_constraint(format!("right[i={i},n={t}]"), e.geq(epsilon - m));
        }
    }
    Ok(())
}

/// (10): xi[i,h] >= a_k + s_k y_i (w_t . z_i + b_t) - M (1 - sum_{T_d(t)} z[i,s]), one row
/// per finite tangent.
fn add_loss_rows(
    mip: &mut MipModel,
    vars: &OlctVars,
    training: &Training,
    tangents: &TangentSet,
    layout: Layout,
) -> Result<()> {
    let m = training.settings.big_m;
    let p = training.data.n_features();
    let lines: Vec<_> = tangents
        .lines()
        .into_iter()
        .filter(|line| line.point != TangentPoint::PlusInfinity)
        .collect();
    for t in 1..=layout.branches() {
        let h = layout.level(t);
        let under = layout.last_under(t);
        for i in 0..training.data.n_rows() {
            crate::mip::build_clock::check()?;
            let y = training.y(i);
            for line in &lines {
                let mut e = Expression::with_capacity(p + 2 + under.len());
                e.add_mul(1.0, vars.xi[i][h - 1]);
                e.add_mul(-line.slope * y, score(vars, training, i, t));
                e.add_mul(-m, reach(vars, i, under.clone()));
                mip.add_constraint(
                    format!("loss[i={i},n={t},v={}]", line.point),
                    e.geq(line.intercept - m),
                );
            }
        }
    }
    Ok(())
}

/// Objective: sum_h (C_h sum_i v_i xi[i,h] + sum_{t in T_h} ||w_t||_1), v_i the weight of
/// row i's loss.
fn objective(vars: &OlctVars, training: &Training, layout: Layout) -> Expression {
    let p = training.data.n_features();
    let rows = training.data.n_rows();
    let mut objective = Expression::with_capacity(rows * layout.depth + 2 * p * layout.branches());
    for (xi, &weight) in vars.xi.iter().zip(&training.loss_weights) {
        if weight == 0.0 {
            continue;
        }
        for (h, &x) in xi.iter().enumerate() {
            objective.add_mul(training.settings.c[h] * weight, x);
        }
    }
    for t in 0..layout.branches() {
        for j in 0..p {
            objective.add_mul(1.0, vars.w_plus[t][j]);
            objective.add_mul(1.0, vars.w_minus[t][j]);
        }
    }
    objective
}
