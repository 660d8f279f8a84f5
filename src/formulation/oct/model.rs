//! The OCT model: its variables and rows ([`build`]), the built model ([`OctModel`]) with the
//! meaning of every variable, and the scaled features the rows are written in.

use crate::data::{candidate_thresholds, Dataset, ThresholdMode};
use crate::error::Result;
use crate::formulation::costs::ErrorCosts;
use crate::formulation::cuts::Cuts;
use crate::formulation::oct::Oct;
use crate::formulation::twins::Twins;
use crate::formulation::{BuiltModel, FeatureUse, RootSplit, RootSplits, VariableRole};
use crate::mip::{Expression, MipModel, Variable};

/// One feature as the model sees it.
#[derive(Debug, Clone)]
pub(super) struct ScaledFeature {
    pub(super) min: f64,
    pub(super) range: f64,
    /// Smallest gap between consecutive distinct scaled values (None for a constant feature,
    /// which the model cannot split on).
    pub(super) epsilon: Option<f64>,
    /// The distinct training values, increasing, in original units.
    pub(super) values: Vec<f64>,
    /// The candidate thresholds (midpoints of consecutive distinct values).
    pub(super) thresholds: Vec<f64>,
}

impl ScaledFeature {
    pub(super) fn scale(&self, x: f64) -> f64 {
        if self.range > 0.0 {
            (x - self.min) / self.range
        } else {
            0.0
        }
    }
}

/// What OCT's leaves may predict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafRule {
    /// A (weighted) majority class of their rows, as in the published model.
    Majority,
    /// Either class, with the errors on each class counted by their own variables (the model
    /// of the front of false positives and false negatives).
    Free,
}

/// The built OCT model with its variables and the data it was built on.
#[derive(Debug, Clone)]
pub struct OctModel {
    pub(super) mip: MipModel,
    pub(super) data: Dataset,
    pub(super) depth: usize,
    pub(super) features: Vec<ScaledFeature>,
    /// The cost of an error on each row.
    pub(super) costs: ErrorCosts,
    pub(super) baseline: f64,
    /// The data's total (weighted) rows `W`.
    pub(super) total_weight: f64,
    /// a[j][m]: None for constant features.
    pub(super) a: Vec<Vec<Option<Variable>>>,
    pub(super) d: Vec<Variable>,
    pub(super) b: Vec<Variable>,
    /// z[i][leaf index]; equivalent rows share theirs with `--cuts equivalent-points`.
    pub(super) z: Vec<Vec<Variable>>,
    /// The rows whose variables `z` are their own (every row without equivalent points).
    pub(super) twins: Twins,
    pub(super) l: Vec<Variable>,
    /// c[k][leaf index]
    pub(super) c: Vec<Vec<Variable>>,
    pub(super) n_kt: Vec<Vec<Variable>>,
    pub(super) n_t: Vec<Variable>,
    pub(super) loss: Vec<Variable>,
    pub(super) leaves: LeafRule,
    /// With free leaves: `errors[k][leaf index]`, the (weighted) rows of class `k` in the leaf
    /// when it predicts another class.
    pub(super) class_errors: Vec<Vec<Variable>>,
}

impl OctModel {
    pub(super) fn n_branch(&self) -> usize {
        (1 << self.depth) - 1
    }

    pub(super) fn n_leaves(&self) -> usize {
        1 << self.depth
    }

    /// Tree node id of leaf index `t` (0-based).
    pub(super) fn leaf_id(&self, t: usize) -> usize {
        self.n_leaves() + t
    }

    /// The baseline errors `L^` the objective is normalised by.
    pub fn baseline(&self) -> f64 {
        self.baseline
    }

    /// What one more leaf costs in the objective's units: `lambda * W / L^`.
    pub fn leaf_cost(&self, leaf_penalty: f64) -> f64 {
        leaf_penalty * self.total_weight / self.baseline
    }
}

impl BuiltModel for OctModel {
    fn mip(&self) -> &MipModel {
        &self.mip
    }

    /// The node's `a[f=j,n]`, each a split on feature `j` at the threshold `b[n]` (which may
    /// send every row one way), and `1 - d[n]`: the `one_feature[n]` row makes exactly one of
    /// them 1 (below a split parent). With free leaves (under fairness) the objective is the
    /// same and a leaf's errors are at least those of its majority class, so a bound of the
    /// published model bounds it too; the front, which sets another objective, does not offer
    /// them.
    fn node_choices(&self, node: usize) -> Option<RootSplits> {
        if node == 0 {
            return None;
        }
        let m = node - 1;
        let d = *self.d.get(m)?;
        let splits: Vec<(RootSplit, Expression)> = self
            .a
            .iter()
            .enumerate()
            .filter_map(|(feature, by_node)| {
                by_node
                    .get(m)
                    .copied()
                    .flatten()
                    .map(|var| (RootSplit::AnyThreshold { feature }, Expression::from(var)))
            })
            .collect();
        Some(RootSplits {
            splits,
            leaf: Some(Expression::from(1.0) - d),
        })
    }

    /// Row `i` is predicted `class` when `z[i,t]` and `c[class,t]` are 1 for some leaf `t`.
    fn class_predictions(
        &self,
        class: usize,
    ) -> Option<Vec<crate::formulation::predictions::ClassPrediction>> {
        use crate::formulation::predictions::{ClassPrediction, PredictionTerms};
        Some(
            self.z
                .iter()
                .enumerate()
                .map(|(i, by_leaf)| ClassPrediction {
                    rows: vec![i],
                    terms: PredictionTerms::Leaves(
                        by_leaf
                            .iter()
                            .zip(&self.c[class])
                            .map(|(&z, &c)| (Expression::from(z), Expression::from(c)))
                            .collect(),
                    ),
                })
                .collect(),
        )
    }

    /// Leaf `t` receives `sum_i z[i,t]` rows (a node that does not split sends its rows to
    /// its rightmost leaf).
    fn leaf_rows(&self) -> Option<crate::formulation::leaf_rows::LeafRowSource> {
        let n_leaves = self.l.len();
        let counts = (0..n_leaves)
            .map(|t| crate::formulation::leaf_rows::LeafCount {
                node: n_leaves + t,
                rows: self.z.iter().map(|row| Expression::from(row[t])).sum(),
            })
            .collect();
        Some(crate::formulation::leaf_rows::LeafRowSource::Counted(
            counts,
        ))
    }

    /// Node `n` splits on feature `j` when `a[f=j,n]` is 1.
    fn feature_usage(&self) -> Option<Vec<FeatureUse>> {
        Some(
            self.a
                .iter()
                .enumerate()
                .flat_map(|(j, by_node)| {
                    by_node.iter().enumerate().filter_map(move |(m, var)| {
                        var.map(|var| FeatureUse {
                            node: m + 1,
                            feature: j,
                            expression: Expression::from(var),
                        })
                    })
                })
                .collect(),
        )
    }

    fn variable_roles(&self) -> Vec<VariableRole> {
        let mut roles: Vec<Option<VariableRole>> = vec![None; self.mip.vars().len()];
        let mut put = |var: Variable, node: usize, meaning: String| {
            let column = self.mip.col(var);
            roles[column] = Some(VariableRole {
                name: self.mip.vars()[column].name.clone(),
                node: Some(node),
                meaning,
            });
        };
        for m in 0..self.n_branch() {
            let id = m + 1;
            for (j, var) in self.a.iter().enumerate() {
                if let Some(var) = var[m] {
                    let feature = &self.data.schema().features[j];
                    put(var, id, format!("1 if node {id} splits on `{feature}`"));
                }
            }
            put(self.d[m], id, format!("1 if node {id} splits"));
            put(
                self.b[m],
                id,
                format!("threshold of node {id} on the [0,1]-scaled feature"),
            );
        }
        for t in 0..self.n_leaves() {
            let id = self.leaf_id(t);
            for (i, row) in self
                .z
                .iter()
                .enumerate()
                .filter(|(i, _)| self.twins.is_first(*i))
            {
                put(
                    row[t],
                    id,
                    format!("1 if training row {} reaches leaf {id}", i + 1),
                );
            }
            put(self.l[t], id, format!("1 if leaf {id} is used"));
            for (k, label) in self.data.classes().iter().enumerate() {
                put(
                    self.c[k][t],
                    id,
                    format!("1 if leaf {id} predicts `{label}`"),
                );
                put(
                    self.n_kt[k][t],
                    id,
                    format!("(weighted) rows of class `{label}` in leaf {id}"),
                );
            }
            put(self.n_t[t], id, format!("(weighted) rows in leaf {id}"));
            put(self.loss[t], id, format!("(weighted) errors of leaf {id}"));
            for (k, label) in self.data.classes().iter().enumerate() {
                if let Some(errors) = self.class_errors.get(k) {
                    put(
                        errors[t],
                        id,
                        format!("(weighted) rows of class `{label}` misclassified in leaf {id}"),
                    );
                }
            }
        }
        roles.into_iter().flatten().collect()
    }
}

/// The ancestors of leaf index `t` (0-based) in a depth-`depth` tree, root first, each with
/// whether the path to the leaf goes left there. Branch nodes are 0-based (`id - 1`).
pub(super) fn ancestors(depth: usize, t: usize) -> Vec<(usize, bool)> {
    let mut id = (1 << depth) + t;
    let mut path = Vec::with_capacity(depth);
    while id > 1 {
        let parent = id / 2;
        path.push((parent - 1, id % 2 == 0));
        id = parent;
    }
    path.reverse();
    path
}

fn scaled_features(data: &Dataset) -> Vec<ScaledFeature> {
    (0..data.n_features())
        .map(|j| {
            let column = data.feature_column(j);
            let mut values = column.clone();
            values.sort_by(f64::total_cmp);
            values.dedup();
            let min = values[0];
            let range = values[values.len() - 1] - min;
            let scaled: Vec<f64> = values
                .iter()
                .map(|v| if range > 0.0 { (v - min) / range } else { 0.0 })
                .collect();
            let epsilon = scaled
                .windows(2)
                .map(|w| w[1] - w[0])
                .filter(|gap| *gap > 0.0)
                .min_by(f64::total_cmp);
            ScaledFeature {
                min,
                range,
                epsilon,
                thresholds: candidate_thresholds(&column, data.labels(), ThresholdMode::All),
                values,
            }
        })
        .collect()
}

/// The OCT model of `params` on `data` with the leaf rule `leaves`: its columns, then its rows
/// step by step ([`super::rows`]).
pub(super) fn build(params: &Oct, data: &Dataset, leaves: LeafRule) -> Result<OctModel> {
    let features = scaled_features(data);
    let costs = ErrorCosts::new(params.objective, &params.class_weights, data)?;
    let total_weight = costs.total();
    // A baseline without errors (one class) leaves nothing to normalise: the errors count as
    // they are, and the single leaf, which makes none, is optimal.
    let baseline = Some(costs.baseline()).filter(|&b| b > 0.0).unwrap_or(1.0);
    let depth = params.depth;
    let twins = twins(params.cuts, data);
    let mut mip = MipModel::new(format!("oct_depth{depth}"));
    let branches = BranchColumns::add(&mut mip, &features, depth);
    let leaves_columns = LeafColumns::add(&mut mip, &twins, data, depth)?;
    let mut model = OctModel {
        mip,
        data: data.clone(),
        depth,
        features,
        costs,
        baseline,
        total_weight,
        a: branches.a,
        d: branches.d,
        b: branches.b,
        z: leaves_columns.z,
        twins,
        l: leaves_columns.l,
        c: leaves_columns.c,
        n_kt: leaves_columns.n_kt,
        n_t: leaves_columns.n_t,
        loss: leaves_columns.loss,
        leaves,
        class_errors: Vec::new(),
    };
    model.add_leaf_rows(params.min_leaf)?;
    model.add_routing_rows()?;
    model.add_structure_rows();
    if leaves == LeafRule::Free {
        model.class_errors = model.add_class_errors();
    }
    model.set_objective(params.alpha, params.leaf_penalty);
    Ok(model)
}

/// Equivalent points: rows identical on every feature share their assignment variables under
/// `--cuts equivalent-points`; every row has its own otherwise.
fn twins(cuts: Cuts, data: &Dataset) -> Twins {
    match cuts {
        Cuts::None => Twins::of(0..data.n_rows()),
        Cuts::EquivalentPoints => Twins::of(
            data.rows()
                .iter()
                .map(|row| row.iter().map(|x| x.to_bits()).collect::<Vec<u64>>()),
        ),
    }
}

/// The branch nodes' columns: `a[f,n]` (not for constant features), `d[n]` and `b[n]`.
struct BranchColumns {
    a: Vec<Vec<Option<Variable>>>,
    d: Vec<Variable>,
    b: Vec<Variable>,
}

impl BranchColumns {
    fn add(mip: &mut MipModel, features: &[ScaledFeature], depth: usize) -> BranchColumns {
        let n_branch = (1 << depth) - 1;
        let mut a = vec![vec![None; n_branch]; features.len()];
        let mut d = Vec::with_capacity(n_branch);
        let mut b = Vec::with_capacity(n_branch);
        for m in 0..n_branch {
            let id = m + 1;
            for (j, (feature, by_node)) in features.iter().zip(a.iter_mut()).enumerate() {
                if feature.epsilon.is_some() {
                    by_node[m] = Some(mip.binary(format!("a[f={j},n={id}]")));
                }
            }
            d.push(mip.binary(format!("d[n={id}]")));
            b.push(mip.continuous(format!("b[n={id}]"), 0.0, 1.0));
        }
        BranchColumns { a, d, b }
    }
}

/// The leaves' columns: `z[i,l]` (shared by equivalent rows), `l[l]`, `c[k,l]`, `Nk[k,l]`,
/// `N[l]` and `L[l]`.
struct LeafColumns {
    z: Vec<Vec<Variable>>,
    l: Vec<Variable>,
    c: Vec<Vec<Variable>>,
    n_kt: Vec<Vec<Variable>>,
    n_t: Vec<Variable>,
    loss: Vec<Variable>,
}

impl LeafColumns {
    fn add(mip: &mut MipModel, twins: &Twins, data: &Dataset, depth: usize) -> Result<LeafColumns> {
        let n = data.n_rows();
        let k = data.n_classes();
        let n_leaves = 1 << depth;
        let mut z = vec![Vec::with_capacity(n_leaves); n];
        let mut l = Vec::with_capacity(n_leaves);
        let mut c = vec![Vec::with_capacity(n_leaves); k];
        let mut n_kt = vec![Vec::with_capacity(n_leaves); k];
        let mut n_t = Vec::with_capacity(n_leaves);
        let mut loss = Vec::with_capacity(n_leaves);
        for t in 0..n_leaves {
            let id = n_leaves + t;
            crate::mip::build_clock::check()?;
            for i in 0..n {
                let first = twins.first_of(i);
                let var = if first == i {
                    mip.binary(format!("z[i={i},l={id}]"))
                } else {
                    z[first][t]
                };
                z[i].push(var);
            }
            l.push(mip.binary(format!("l[l={id}]")));
            for (class, by_leaf) in c.iter_mut().enumerate() {
                by_leaf.push(mip.binary(format!("c[k={class},l={id}]")));
            }
            for (class, by_leaf) in n_kt.iter_mut().enumerate() {
                by_leaf.push(mip.continuous(format!("Nk[k={class},l={id}]"), 0.0, f64::INFINITY));
            }
            n_t.push(mip.continuous(format!("N[l={id}]"), 0.0, f64::INFINITY));
            loss.push(mip.continuous(format!("L[l={id}]"), 0.0, f64::INFINITY));
        }
        Ok(LeafColumns {
            z,
            l,
            c,
            n_kt,
            n_t,
            loss,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ancestors;

    #[test]
    fn ancestors_of_leaves_go_left_then_right() {
        // depth 2: leaves 4,5,6,7 = indices 0..3; node 1 = branch 0, node 2 = 1, node 3 = 2.
        assert_eq!(ancestors(2, 0), vec![(0, true), (1, true)]);
        assert_eq!(ancestors(2, 1), vec![(0, true), (1, false)]);
        assert_eq!(ancestors(2, 2), vec![(0, false), (2, true)]);
        assert_eq!(ancestors(2, 3), vec![(0, false), (2, false)]);
    }
}
