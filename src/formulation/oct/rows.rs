//! The rows of the OCT model (see `formulations/oct.md`), added step by step to a model whose
//! columns are in place: each leaf's accounting, the routing of every row, the tree's
//! structure, the free leaves' class errors and the objective.

use crate::error::Result;
use crate::mip::{Expression, Variable};

use super::model::{ancestors, LeafRule, OctModel};

impl OctModel {
    /// Leaf accounting: each leaf's loss, its counts per class and in all, the class it
    /// predicts when used, at least `min_leaf` rows when used, and a row only in a used leaf.
    pub(super) fn add_leaf_rows(&mut self, min_leaf: usize) -> Result<()> {
        let n_leaves = self.n_leaves();
        let k = self.data.n_classes();
        let big = self.total_weight;
        let Self {
            mip,
            data,
            costs,
            z,
            twins,
            l,
            c,
            n_kt,
            n_t,
            loss,
            leaves,
            ..
        } = self;
        for t in 0..n_leaves {
            let id = n_leaves + t;
            crate::mip::build_clock::check()?;
            for class in 0..k {
                mip.add_constraint(
                    format!("loss_lb[k={class},l={id}]"),
                    (loss[t] - n_t[t] + n_kt[class][t] - big * c[class][t]).geq(-big),
                );
                if *leaves == LeafRule::Majority {
                    mip.add_constraint(
                        format!("loss_ub[k={class},l={id}]"),
                        (loss[t] - n_t[t] + n_kt[class][t] - big * c[class][t]).leq(0.0),
                    );
                }
                let mut members = Expression::from(n_kt[class][t]);
                for i in (0..z.len()).filter(|&i| data.labels()[i] == class && costs.rows[i] != 0.0)
                {
                    members -= costs.rows[i] * z[i][t];
                }
                mip.add_constraint(format!("count[k={class},l={id}]"), members.eq(0.0));
            }
            let mut all = Expression::from(n_t[t]);
            for (row, &cost) in z.iter().zip(&costs.rows).filter(|(_, &cost)| cost != 0.0) {
                all -= cost * row[t];
            }
            mip.add_constraint(format!("count[l={id}]"), all.eq(0.0));
            let chosen: Expression = (0..k).map(|class| Expression::from(c[class][t])).sum();
            mip.add_constraint(format!("predict[l={id}]"), (chosen - l[t]).eq(0.0));
            let reached: Expression = z.iter().map(|row| Expression::from(row[t])).sum();
            mip.add_constraint(
                format!("min_leaf[l={id}]"),
                (reached - min_leaf as f64 * l[t]).geq(0.0),
            );
            // Only rows with their own variables: an equivalent row's rows would repeat its
            // first's.
            for (i, row) in z.iter().enumerate().filter(|(i, _)| twins.is_first(*i)) {
                mip.add_constraint(format!("used[i={i},l={id}]"), (row[t] - l[t]).leq(0.0));
            }
        }
        Ok(())
    }

    /// Routing: every row reaches one leaf, a leaf left of a node is used only when the node
    /// splits, and a row in a leaf satisfies each ancestor's split on its side.
    pub(super) fn add_routing_rows(&mut self) -> Result<()> {
        let n_leaves = self.n_leaves();
        let depth = self.depth;
        let epsilon_max = self
            .features
            .iter()
            .filter_map(|f| f.epsilon)
            .fold(0.0, f64::max);
        let Self {
            mip,
            data,
            features,
            a,
            d,
            b,
            z,
            twins,
            l,
            ..
        } = self;
        for (i, row) in z.iter().enumerate().filter(|(i, _)| twins.is_first(*i)) {
            let one: Expression = row.iter().map(|&v| Expression::from(v)).sum();
            mip.add_constraint(format!("assign[i={i}]"), one.eq(1.0));
        }
        for t in 0..n_leaves {
            let id = n_leaves + t;
            crate::mip::build_clock::check()?;
            for (m, goes_left) in ancestors(depth, t) {
                let node = m + 1;
                if goes_left {
                    // A leaf under the left branch of m is usable only when m splits.
                    mip.add_constraint(
                        format!("left_needs_split[n={node},l={id}]"),
                        (l[t] - d[m]).leq(0.0),
                    );
                }
                for (i, row) in z.iter().enumerate().filter(|(i, _)| twins.is_first(*i)) {
                    let mut lhs = Expression::default();
                    for (j, feature) in features.iter().enumerate() {
                        if let (Some(var), Some(eps)) = (a[j][m], feature.epsilon) {
                            let x = feature.scale(data.rows()[i][j]);
                            let coefficient = if goes_left { x + eps } else { x };
                            if coefficient != 0.0 {
                                lhs += coefficient * var;
                            }
                        }
                    }
                    if goes_left {
                        let lhs = lhs - b[m] + (1.0 + epsilon_max) * row[t];
                        mip.add_constraint(
                            format!("left[i={i},n={node},l={id}]"),
                            lhs.leq(1.0 + epsilon_max),
                        );
                    } else {
                        let lhs = lhs - b[m] - row[t];
                        mip.add_constraint(format!("right[i={i},n={node},l={id}]"), lhs.geq(-1.0));
                    }
                }
            }
        }
        Ok(())
    }

    /// Tree structure: a splitting node uses one feature and a threshold only when it splits,
    /// and only below a splitting parent.
    pub(super) fn add_structure_rows(&mut self) {
        let Self { mip, a, d, b, .. } = self;
        for m in 0..d.len() {
            let id = m + 1;
            let chosen: Expression = a
                .iter()
                .filter_map(|var| var[m].map(Expression::from))
                .sum();
            mip.add_constraint(format!("one_feature[n={id}]"), (chosen - d[m]).eq(0.0));
            mip.add_constraint(format!("threshold_off[n={id}]"), (b[m] - d[m]).leq(0.0));
            if m > 0 {
                let parent = (id / 2) - 1;
                mip.add_constraint(format!("hierarchy[n={id}]"), (d[m] - d[parent]).leq(0.0));
            }
        }
    }

    /// With free leaves, each class's errors in each leaf: its rows there unless it is
    /// predicted (`errors[k][leaf index]`).
    pub(super) fn add_class_errors(&mut self) -> Vec<Vec<Variable>> {
        let n_leaves = self.n_leaves();
        let Self {
            mip,
            costs,
            c,
            n_kt,
            ..
        } = self;
        let mut class_errors = Vec::new();
        for (class, &class_total) in costs.class_totals.iter().enumerate() {
            let mut by_leaf = Vec::with_capacity(n_leaves);
            for t in 0..n_leaves {
                let id = n_leaves + t;
                let errors = mip.continuous(format!("E[k={class},l={id}]"), 0.0, f64::INFINITY);
                mip.add_constraint(
                    format!("class_errors[k={class},l={id}]"),
                    (errors - n_kt[class][t] + class_total * c[class][t]).geq(0.0),
                );
                by_leaf.push(errors);
            }
            class_errors.push(by_leaf);
        }
        class_errors
    }

    /// The objective: the normalised losses, `alpha` per split, and the leaf penalty
    /// `leaf_penalty` (a fraction of the total weight) per leaf.
    pub(super) fn set_objective(&mut self, alpha: f64, leaf_penalty: f64) {
        let baseline = self.baseline;
        let mut objective = Expression::default();
        for &var in &self.loss {
            objective += (1.0 / baseline) * var;
        }
        // A tree has one leaf more than splits: the leaf penalty is a split cost and a
        // constant.
        let leaf_cost = leaf_penalty * self.total_weight / baseline;
        let split_cost = alpha + leaf_cost;
        if split_cost > 0.0 {
            for &var in &self.d {
                objective += split_cost * var;
            }
        }
        if leaf_cost > 0.0 {
            objective += leaf_cost;
        }
        self.mip.set_objective(objective);
    }
}
