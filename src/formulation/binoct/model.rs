//! The BinOCT mixed-integer model: its variables and rows (see `formulations/binoct.md`), and the
//! two conversions between a [`FullTree`] and values of its variables.

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::costs::ErrorCosts;
use crate::formulation::twins::Twins;
use crate::formulation::{
    cbc_without_cuts_and_heuristics, BuiltModel, FeatureUse, RootSplit, RootSplits, StartKind,
    VariableRole,
};
use crate::mip::{Assignment, Expression, MipModel, RowSense, Variable};
use crate::solver::SolverKind;

use super::candidates::Candidates;
use super::full_tree::{FullTree, NodeSplit};
use super::ranges::{decode_index, encode_index, range_rules, RuleKind, Side};

/// A built BinOCT model, with the training data and candidates it was built on.
#[derive(Debug)]
pub struct BinOctModel {
    pub(super) mip: MipModel,
    pub(super) data: Dataset,
    pub(super) depth: usize,
    pub(super) candidates: Candidates,
    /// The cost of an error on each row, and per unit of row weight on each class.
    pub(super) costs: ErrorCosts,
    /// The penalty per leaf, in weighted errors (`lambda * W`); 0 without split indicators.
    leaf_cost: f64,
    /// `d[n]` at `[n - 1]`, with a leaf penalty only: node `n` splits.
    split_vars: Vec<Variable>,
    /// `f[n,f]` at `[n - 1][f]`; `None` for a feature without candidates.
    feature_vars: Vec<Vec<Option<Variable>>>,
    /// `t[n,b]` at `[n - 1][b - 1]`.
    bit_vars: Vec<Vec<Variable>>,
    /// `l[r,l]` at `[r][l - 2^depth]`.
    leaf_vars: Vec<Vec<Variable>>,
    /// Rows identical on the binary features share their `l[r,·]` (those of the first).
    pub(super) twins: Twins,
    /// `p[l,c]` at `[l - 2^depth][c]`.
    class_vars: Vec<Vec<Variable>>,
    /// `e[l,c]` at `[l - 2^depth][c]`.
    error_vars: Vec<Vec<Variable>>,
    roles: Vec<VariableRole>,
}

/// The leaves (tree node ids) under node `id` of a complete tree of depth `depth`.
fn leaves_under(id: usize, depth: usize) -> std::ops::Range<usize> {
    let level = crate::tree::node_depth(id);
    let width = 1usize << (depth - level);
    id * width..(id + 1) * width
}

impl BinOctModel {
    /// Builds the model of depth `depth` over `candidates` of `data`, with the cost `costs` of
    /// an error on each row, and `leaf_penalty` per leaf (in units of the weighted error rate;
    /// 0 builds the model without split indicators unless `split_indicators`: side constraints
    /// on features need them, so that a node above the last level can be a leaf without a
    /// filler split on some feature).
    pub(super) fn build(
        data: &Dataset,
        depth: usize,
        candidates: Candidates,
        costs: ErrorCosts,
        leaf_penalty: f64,
        split_indicators: bool,
    ) -> Result<BinOctModel> {
        let n_branch = (1usize << depth) - 1;
        let first_leaf = 1usize << depth;
        let n_bits = candidates.n_bits();
        let features = &data.schema().features;
        let mut mip = MipModel::new(format!("binoct_depth{depth}"));
        let mut roles = Vec::new();
        let mut role = |name: &str, node: Option<usize>, meaning: String| {
            roles.push(VariableRole {
                name: name.to_string(),
                node,
                meaning,
            });
        };

        let leaf_cost = leaf_penalty * costs.total();
        let mut split_vars = Vec::new();
        let mut feature_vars = Vec::with_capacity(n_branch);
        let mut bit_vars = Vec::with_capacity(n_branch);
        for n in 1..=n_branch {
            if leaf_cost > 0.0 || split_indicators {
                let name = format!("d[n={n}]");
                split_vars.push(mip.binary(&name));
                role(&name, Some(n), format!("node {n} splits"));
            }
            let mut row = Vec::with_capacity(features.len());
            for (f, feature) in features.iter().enumerate() {
                if candidates.count(f) == 0 {
                    row.push(None);
                    continue;
                }
                let name = format!("f[n={n},f={f}]");
                row.push(Some(mip.binary(&name)));
                role(
                    &name,
                    Some(n),
                    format!("node {n} splits on feature {feature}"),
                );
            }
            feature_vars.push(row);
            let mut bits = Vec::with_capacity(n_bits);
            for b in 1..=n_bits {
                let name = format!("t[n={n},b={b}]");
                bits.push(mip.binary(&name));
                role(
                    &name,
                    Some(n),
                    format!("bit {b} of node {n}'s threshold search (1 = lower half)"),
                );
            }
            bit_vars.push(bits);
        }
        let twins = Twins::of(candidates.bins.iter());
        let mut leaf_vars: Vec<Vec<Variable>> = Vec::with_capacity(data.n_rows());
        for r in 0..data.n_rows() {
            crate::mip::build_clock::check()?;
            if !twins.is_first(r) {
                leaf_vars.push(leaf_vars[twins.first_of(r)].clone());
                continue;
            }
            let mut row = Vec::with_capacity(first_leaf);
            for l in first_leaf..2 * first_leaf {
                let name = format!("l[r={r},l={l}]");
                row.push(mip.continuous(&name, 0.0, 1.0));
                role(&name, Some(l), format!("row {r} reaches leaf {l}"));
            }
            leaf_vars.push(row);
        }
        let mut class_vars = Vec::with_capacity(first_leaf);
        let mut error_vars = Vec::with_capacity(first_leaf);
        for l in first_leaf..2 * first_leaf {
            let mut p = Vec::with_capacity(data.n_classes());
            for (c, class) in data.classes().iter().enumerate() {
                let name = format!("p[l={l},c={c}]");
                p.push(mip.binary(&name));
                role(&name, Some(l), format!("leaf {l} predicts class {class}"));
            }
            class_vars.push(p);
        }
        // A leaf's errors of a class (its rows' summed weights) are a whole number in every
        // tree when the row weights are. With whole class costs and leaf cost the objective is
        // then whole, which the solvers see only when the error columns are integer: they then
        // prune every node whose bound is above the incumbent minus one.
        let class_totals = data.class_weight_totals();
        let whole_objective = data.has_integer_weights()
            && costs
                .class_factors
                .iter()
                .chain([&leaf_cost])
                .all(|&w| w >= 0.0 && w.fract() == 0.0);
        for l in first_leaf..2 * first_leaf {
            let mut e = Vec::with_capacity(data.n_classes());
            for (c, class) in data.classes().iter().enumerate() {
                let name = format!("e[l={l},c={c}]");
                e.push(if whole_objective {
                    mip.integer(&name, 0.0, class_totals[c])
                } else {
                    mip.continuous(&name, 0.0, f64::INFINITY)
                });
                role(
                    &name,
                    Some(l),
                    format!("(weighted) rows of class {class} in leaf {l} counted as errors"),
                );
            }
            error_vars.push(e);
        }

        let mut model = BinOctModel {
            mip,
            data: data.clone(),
            depth,
            candidates,
            costs,
            leaf_cost,
            split_vars,
            feature_vars,
            bit_vars,
            leaf_vars,
            twins,
            class_vars,
            error_vars,
            roles,
        };
        model.add_rows()?;
        Ok(model)
    }

    fn add_rows(&mut self) -> Result<()> {
        let n_branch = (1usize << self.depth) - 1;
        let first_leaf = 1usize << self.depth;
        let usable = self.candidates.usable();
        let n_rows = self.twins.rows_and_sets().1 as f64;
        for n in 1..=n_branch {
            crate::mip::build_clock::check()?;
            let mut right = Expression::default();
            for (_, row) in self.first_twins() {
                for l in leaves_under(2 * n + 1, self.depth) {
                    right += row[l - first_leaf];
                }
            }
            if usable.is_empty() {
                // No split can separate anything: every row goes left.
                self.mip
                    .add_row(format!("all_left[n={n}]"), right, RowSense::Le, 0.0);
            } else if let Some(&split) = self.split_vars.get(n - 1) {
                // A node that splits selects one feature; one that does not selects none (so
                // no range rule binds) and sends every row left.
                let mut selected: Expression =
                    self.feature_vars[n - 1].iter().flatten().copied().sum();
                selected -= split;
                self.mip
                    .add_row(format!("feature[n={n}]"), selected, RowSense::Eq, 0.0);
                right -= n_rows * split;
                self.mip
                    .add_row(format!("no_split[n={n}]"), right, RowSense::Le, 0.0);
            } else {
                let selected: Expression = self.feature_vars[n - 1].iter().flatten().copied().sum();
                self.mip
                    .add_row(format!("feature[n={n}]"), selected, RowSense::Eq, 1.0);
            }
            if n > 1 {
                if let (Some(&child), Some(&parent)) =
                    (self.split_vars.get(n - 1), self.split_vars.get(n / 2 - 1))
                {
                    self.mip.add_row(
                        format!("hierarchy[n={n}]"),
                        Expression::from(child) - parent,
                        RowSense::Le,
                        0.0,
                    );
                }
            }
        }
        let reached_rows: Vec<(usize, Expression)> = self
            .first_twins()
            .map(|(r, row)| (r, row.iter().copied().sum()))
            .collect();
        for (r, reached) in reached_rows {
            self.mip
                .add_row(format!("row[r={r}]"), reached, RowSense::Eq, 1.0);
        }
        for (i, p) in self.class_vars.iter().enumerate() {
            let predicted: Expression = p.iter().copied().sum();
            self.mip.add_row(
                format!("leaf[l={}]", first_leaf + i),
                predicted,
                RowSense::Eq,
                1.0,
            );
        }
        for &f in &usable {
            let rows_by_bin = self.candidates.rows_by_bin(f);
            for n in 1..=n_branch {
                crate::mip::build_clock::check()?;
                self.add_range_rules(n, f, &rows_by_bin);
            }
        }
        // e[l,c] is in units of row weight (rows without weights): class c's rows in leaf l
        // when it predicts another class; the objective prices it at the class's cost.
        let class_totals = self.data.class_weight_totals();
        let mut objective = Expression::default();
        for i in 0..first_leaf {
            for (c, &n_c) in class_totals.iter().enumerate() {
                crate::mip::build_clock::check()?;
                let mut lhs = Expression::default();
                for (r, (row, &label)) in self.leaf_vars.iter().zip(self.data.labels()).enumerate()
                {
                    let weight = self.data.weight(r);
                    if label == c && weight != 0.0 {
                        lhs += weight * row[i];
                    }
                }
                lhs -= n_c * self.class_vars[i][c];
                lhs -= self.error_vars[i][c];
                self.mip.add_row(
                    format!("err[l={},c={c}]", first_leaf + i),
                    lhs,
                    RowSense::Le,
                    0.0,
                );
                objective += self.costs.class_factors[c] * self.error_vars[i][c];
            }
        }
        if self.leaf_cost > 0.0 {
            // One leaf more than splits.
            for &split in &self.split_vars {
                objective += self.leaf_cost * split;
            }
            objective += self.leaf_cost;
        }
        self.mip.set_objective(objective);
        Ok(())
    }

    /// The first row of each set of twins, with its leaf variables.
    fn first_twins(&self) -> impl Iterator<Item = (usize, &Vec<Variable>)> + '_ {
        self.leaf_vars
            .iter()
            .enumerate()
            .filter(|&(r, _)| self.twins.is_first(r))
    }

    /// The range rules of feature `f` at node `n` (see `ranges.rs`); `rows_by_bin[j]` holds the
    /// rows in bin `j` of `f`.
    fn add_range_rules(&mut self, n: usize, f: usize, rows_by_bin: &[Vec<usize>]) {
        let first_leaf = 1usize << self.depth;
        let Some(selected) = self.feature_vars[n - 1][f] else {
            return;
        };
        for rule in range_rules(self.candidates.count(f)) {
            let mut lhs = Expression::default();
            let mut held = 0usize;
            for closure in &rule.closures {
                let child = match closure.side {
                    Side::Left => 2 * n,
                    Side::Right => 2 * n + 1,
                };
                for &r in rows_by_bin[closure.first_bin..=closure.last_bin]
                    .iter()
                    .flatten()
                    .filter(|&&r| self.twins.is_first(r))
                {
                    held += 1;
                    for l in leaves_under(child, self.depth) {
                        lhs += self.leaf_vars[r][l - first_leaf];
                    }
                }
            }
            if held == 0 {
                continue;
            }
            let big_m = held as f64;
            lhs += big_m * selected;
            for &b in &rule.ones {
                lhs += big_m * self.bit_vars[n - 1][b - 1];
            }
            for &b in &rule.zeros {
                lhs -= big_m * self.bit_vars[n - 1][b - 1];
            }
            let rhs = big_m * (1 + rule.ones.len()) as f64;
            let name = match rule.kind {
                RuleKind::Extreme => format!("extreme[n={n},f={f}]"),
                RuleKind::NoLeft { split } => format!("no_left[n={n},f={f},s={split}]"),
                RuleKind::NoRight { split } => format!("no_right[n={n},f={f},s={split}]"),
            };
            self.mip.add_row(name, lhs, RowSense::Le, rhs);
        }
    }

    /// The depth of the tree the model is built for.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The number of threshold bits per node, `ceil(log2 T_max)`.
    pub fn n_bits(&self) -> usize {
        self.candidates.n_bits()
    }

    /// The candidate thresholds of each feature, increasing.
    pub fn thresholds(&self) -> &[Vec<f64>] {
        &self.candidates.thresholds
    }

    /// The cost of an error on each class, per unit of row weight.
    pub fn class_weights(&self) -> &[f64] {
        &self.costs.class_factors
    }

    /// Whether the model has split indicators and prices leaves.
    pub fn penalised(&self) -> bool {
        !self.split_vars.is_empty()
    }

    /// The objective's cost of one leaf (`lambda * W` weighted errors; 0 without a penalty).
    pub fn leaf_cost(&self) -> f64 {
        self.leaf_cost
    }

    /// `d[n]`, with a leaf penalty (`node` in `1..2^depth`).
    pub fn split_var(&self, node: usize) -> Option<Variable> {
        self.split_vars.get(node.wrapping_sub(1)).copied()
    }

    /// `f[n,f]`, if feature `feature` has candidates (`node` in `1..2^depth`).
    pub fn feature_var(&self, node: usize, feature: usize) -> Option<Variable> {
        self.feature_vars
            .get(node.wrapping_sub(1))?
            .get(feature)
            .copied()
            .flatten()
    }

    /// `t[n,b]` (`bit` in `1..=n_bits`).
    pub fn bit_var(&self, node: usize, bit: usize) -> Option<Variable> {
        self.bit_vars
            .get(node.wrapping_sub(1))?
            .get(bit.wrapping_sub(1))
            .copied()
    }

    /// `l[r,l]` (`leaf` a tree node id in `2^depth..2^(depth+1)`).
    pub fn leaf_var(&self, row: usize, leaf: usize) -> Option<Variable> {
        self.leaf_vars
            .get(row)?
            .get(leaf.wrapping_sub(1 << self.depth))
            .copied()
    }

    /// `p[l,c]`.
    pub fn class_var(&self, leaf: usize, class: usize) -> Option<Variable> {
        self.class_vars
            .get(leaf.wrapping_sub(1 << self.depth))?
            .get(class)
            .copied()
    }

    /// `e[l,c]`.
    pub fn error_var(&self, leaf: usize, class: usize) -> Option<Variable> {
        self.error_vars
            .get(leaf.wrapping_sub(1 << self.depth))?
            .get(class)
            .copied()
    }

    /// The rows of class `class` counted as errors, over every leaf: `sum_l e[l,class]`.
    pub fn class_errors(&self, class: usize) -> Expression {
        self.error_vars
            .iter()
            .filter_map(|by_class| by_class.get(class).copied())
            .map(Expression::from)
            .sum()
    }

    /// The complete assignment that encodes `full`, every `e` at its smallest feasible value.
    pub(super) fn assignment_of(&self, full: &FullTree) -> Result<Assignment> {
        let first_leaf = 1usize << self.depth;
        let n_bits = self.n_bits();
        let mut start = self.mip.start();
        for (i, split) in full.splits.iter().enumerate() {
            let (selected, bits) = match *split {
                NodeSplit::Threshold { feature, index } => (
                    Some(feature),
                    encode_index(self.candidates.count(feature), index, n_bits),
                ),
                NodeSplit::AllLeft | NodeSplit::NoSplit => (None, vec![false; n_bits]),
            };
            if let Some(&var) = self.split_vars.get(i) {
                let splits = !matches!(split, NodeSplit::NoSplit);
                start.set(var, f64::from(u8::from(splits)));
            }
            for (f, var) in self.feature_vars[i].iter().enumerate() {
                if let Some(var) = var {
                    start.set(*var, f64::from(u8::from(selected == Some(f))));
                }
            }
            for (var, bit) in self.bit_vars[i].iter().zip(bits) {
                start.set(*var, f64::from(u8::from(bit)));
            }
        }
        let mut in_leaf = vec![vec![0.0; self.data.n_classes()]; first_leaf];
        for (r, row) in self.leaf_vars.iter().enumerate() {
            let reached = full.leaf_of(&self.candidates.bins[r]);
            in_leaf[reached - first_leaf][self.data.labels()[r]] += self.data.weight(r);
            for (i, var) in row.iter().enumerate() {
                start.set(*var, f64::from(u8::from(first_leaf + i == reached)));
            }
        }
        for (i, &predicted) in full.leaf_classes.iter().enumerate() {
            for (c, &count) in in_leaf[i].iter().enumerate() {
                let is_predicted = c == predicted;
                start.set(self.class_vars[i][c], f64::from(u8::from(is_predicted)));
                let errors = if is_predicted { 0.0 } else { count };
                start.set(self.error_vars[i][c], errors);
            }
        }
        start.finish()
    }

    /// The full tree a solution selects (integer columns read as rounded).
    pub(super) fn full_tree_of(&self, solution: &Assignment) -> Result<FullTree> {
        let is_one = |var: Variable| solution.value(var) > 0.5;
        let mut splits = Vec::with_capacity(self.feature_vars.len());
        for (i, features) in self.feature_vars.iter().enumerate() {
            let n = i + 1;
            let selected: Vec<usize> = features
                .iter()
                .enumerate()
                .filter_map(|(f, var)| var.filter(|&v| is_one(v)).map(|_| f))
                .collect();
            let splitting = self.split_vars.get(i).is_none_or(|&var| is_one(var));
            let split = match selected.as_slice() {
                [] if !splitting => NodeSplit::NoSplit,
                [] if self.candidates.usable().is_empty() => NodeSplit::AllLeft,
                [feature] => {
                    let bits: Vec<bool> = self.bit_vars[i].iter().map(|&v| is_one(v)).collect();
                    NodeSplit::Threshold {
                        feature: *feature,
                        index: decode_index(self.candidates.count(*feature), &bits),
                    }
                }
                _ => {
                    return Err(Error::Model(format!(
                        "the solution selects {} features at node {n}, not one",
                        selected.len()
                    )))
                }
            };
            splits.push(split);
        }
        let first_leaf = 1usize << self.depth;
        let mut leaf_classes = Vec::with_capacity(first_leaf);
        for (i, p) in self.class_vars.iter().enumerate() {
            let predicted: Vec<usize> = (0..p.len()).filter(|&c| is_one(p[c])).collect();
            match predicted.as_slice() {
                [class] => leaf_classes.push(*class),
                _ => {
                    return Err(Error::Model(format!(
                        "the solution gives leaf {} {} classes, not one",
                        first_leaf + i,
                        predicted.len()
                    )))
                }
            }
        }
        Ok(FullTree {
            depth: self.depth,
            splits,
            leaf_classes,
        })
    }
}

impl BuiltModel for BinOctModel {
    fn mip(&self) -> &MipModel {
        &self.mip
    }

    /// The node's `f[n,f]`, each a split on the feature at a threshold its bits encode (which
    /// may send every row one way), and, with split indicators, `1 - d[n]`: the `feature[n]`
    /// row makes exactly one of them 1 (below a split parent).
    fn node_choices(&self, node: usize) -> Option<RootSplits> {
        let m = node.checked_sub(1)?;
        let splits: Vec<(RootSplit, Expression)> = self
            .feature_vars
            .get(m)?
            .iter()
            .enumerate()
            .filter_map(|(feature, var)| {
                var.map(|f| (RootSplit::AnyThreshold { feature }, Expression::from(f)))
            })
            .collect();
        if splits.is_empty() {
            return None;
        }
        Some(RootSplits {
            splits,
            leaf: self.split_vars.get(m).map(|&d| Expression::from(1.0) - d),
        })
    }

    /// A set of twins is predicted `class` when its `l[r,l]` and `p[l,class]` are 1 for some
    /// leaf `l`.
    fn class_predictions(
        &self,
        class: usize,
    ) -> Option<Vec<crate::formulation::predictions::ClassPrediction>> {
        use crate::formulation::predictions::{ClassPrediction, PredictionTerms};
        let n = self.data.n_rows();
        let mut rows: Vec<Vec<usize>> = vec![Vec::new(); n];
        for r in 0..n {
            rows[self.twins.first_of(r)].push(r);
        }
        Some(
            (0..n)
                .filter(|&r| self.twins.is_first(r))
                .map(|r| ClassPrediction {
                    rows: std::mem::take(&mut rows[r]),
                    terms: PredictionTerms::Leaves(
                        self.leaf_vars[r]
                            .iter()
                            .zip(&self.class_vars)
                            .map(|(&l, p)| (Expression::from(l), Expression::from(p[class])))
                            .collect(),
                    ),
                })
                .collect(),
        )
    }

    /// Leaf `l` receives `sum_r l[r,l]` rows (twins share their variables, so each set counts
    /// its rows); a node that does not split sends its rows to its leftmost leaf.
    fn leaf_rows(&self) -> Option<crate::formulation::leaf_rows::LeafRowSource> {
        let first_leaf = 1usize << self.depth;
        let counts = (0..first_leaf)
            .map(|t| crate::formulation::leaf_rows::LeafCount {
                node: first_leaf + t,
                rows: self
                    .leaf_vars
                    .iter()
                    .map(|row| Expression::from(row[t]))
                    .sum(),
            })
            .collect();
        Some(crate::formulation::leaf_rows::LeafRowSource::Counted(
            counts,
        ))
    }

    /// Node `n` splits on feature `f` when `f[n,f]` is 1.
    fn feature_usage(&self) -> Option<Vec<FeatureUse>> {
        Some(
            self.feature_vars
                .iter()
                .enumerate()
                .flat_map(|(m, row)| {
                    row.iter().enumerate().filter_map(move |(f, var)| {
                        var.map(|var| FeatureUse {
                            node: m + 1,
                            feature: f,
                            expression: Expression::from(var),
                        })
                    })
                })
                .collect(),
        )
    }

    fn variable_roles(&self) -> Vec<VariableRole> {
        self.roles.clone()
    }

    /// From a proven optimum, CBC runs without its cuts and heuristics: nothing is left for the
    /// heuristics to find, and the proofs are 2 to 4 times faster. From a greedy start CBC keeps
    /// its defaults, whose heuristics improve some starts (measured in `formulations/binoct.md`).
    fn solver_options(&self, solver: SolverKind, start: StartKind) -> Vec<(String, String)> {
        if solver == SolverKind::Cbc && start == StartKind::Optimal {
            cbc_without_cuts_and_heuristics()
        } else {
            Vec::new()
        }
    }
}
