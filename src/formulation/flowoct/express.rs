//! A given tree expressed in the FlowOCT model's features: its splits snapped onto candidate
//! thresholds (BinOCT's snapping), each split replaced by the feature its level uses for the
//! same routing of the training rows, and a split of the last level whose threshold the model
//! leaves out (not a class boundary, see [`super::features`]) moved to the neighbouring class
//! boundary, or made a leaf, whichever costs the fewest weighted errors on its rows; that never
//! costs more than the split itself.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::formulation::binoct::snap::snap_tree;
use crate::tree::{node_depth, NodeKind, Split, Tree, TreeBuilder};

use super::features::BinaryFeature;
use super::model::FlowOctModel;

/// What a split of the given tree becomes.
enum Replacement {
    Split(BinaryFeature),
    Leaf(usize),
}

impl FlowOctModel {
    /// The tree the model expresses for `tree` (see the module documentation), with counts on
    /// the training data, and notes on what changed.
    pub fn express(&self, tree: &Tree) -> Result<(Tree, Vec<String>)> {
        let (snapped, mut notes) = snap_tree(tree, &self.data, &self.candidates, self.depth)?;
        let mut replaced: BTreeMap<usize, Replacement> = BTreeMap::new();
        for (id, node) in snapped.nodes() {
            let NodeKind::Split(Split::Axis { feature, threshold }) = &node.kind else {
                continue;
            };
            let level = node_depth(id);
            let index = self
                .candidates
                .index_of(*feature, *threshold)
                .ok_or_else(|| {
                    Error::Internal(format!("node {id}: {threshold} is not a candidate"))
                })?;
            let own = BinaryFeature {
                feature: *feature,
                index,
            };
            let position = self.features.position(own).ok_or_else(|| {
                Error::Internal(format!("node {id}: no binary feature for its split"))
            })?;
            match self.features.representative(level, position) {
                Some(kept) if self.features.binary[kept] == own => {}
                Some(kept) => {
                    replaced.insert(id, Replacement::Split(self.features.binary[kept]));
                }
                None => {
                    let choice = self.best_replacement(&snapped, id, own, level)?;
                    if let Replacement::Leaf(class) = choice {
                        notes.push(format!(
                            "node {id}: the split on `{}` at {threshold} is not at a class \
                             boundary, which the model's last split level needs; a leaf of \
                             `{}` costs no more",
                            self.data.schema().features[*feature],
                            self.data.classes()[class]
                        ));
                    } else {
                        notes.push(format!(
                            "node {id}: the split on `{}` at {threshold} moved to the nearest \
                             class boundary that costs no more (the model's last split level \
                             splits at class boundaries only)",
                            self.data.schema().features[*feature]
                        ));
                    }
                    replaced.insert(id, choice);
                }
            }
        }
        // A split whose two children are leaves of one class classifies as a leaf of that
        // class, which the model's symmetry rows require instead (bottom-up, so a parent whose
        // children become such leaves follows).
        let mut collapsed: BTreeMap<usize, usize> = BTreeMap::new();
        let ids: Vec<usize> = snapped.nodes().map(|(id, _)| id).collect();
        for &id in ids.iter().rev().filter(|_| self.alike) {
            if !matches!(snapped.node(id).map(|n| &n.kind), Some(NodeKind::Split(_))) {
                continue;
            }
            let leaf_class = |child: usize| {
                collapsed.get(&child).copied().or_else(|| {
                    if replaced.contains_key(&child) {
                        return match replaced.get(&child) {
                            Some(Replacement::Leaf(class)) => Some(*class),
                            _ => None,
                        };
                    }
                    match snapped.node(child).map(|n| &n.kind) {
                        Some(NodeKind::Leaf { class }) => Some(*class),
                        _ => None,
                    }
                })
            };
            let own = match replaced.get(&id) {
                Some(Replacement::Leaf(_)) => continue,
                _ => (leaf_class(2 * id), leaf_class(2 * id + 1)),
            };
            if let (Some(left), Some(right)) = own {
                if left == right {
                    collapsed.insert(id, left);
                }
            }
        }
        for (&id, &class) in &collapsed {
            notes.push(format!(
                "node {id}: every leaf below it predicts `{}`, so it is a leaf of that class (the \
                 model counts such a split once, as the leaf)",
                self.data.classes()[class]
            ));
            replaced.insert(id, Replacement::Leaf(class));
        }
        if replaced.is_empty() {
            return Ok((snapped, notes));
        }
        let mut builder = TreeBuilder::new(
            self.data.schema().clone(),
            self.data.classes().to_vec(),
            self.depth,
        )?;
        let mut stack = vec![1usize];
        while let Some(id) = stack.pop() {
            let Some(node) = snapped.node(id) else {
                continue;
            };
            match (replaced.get(&id), &node.kind) {
                (Some(Replacement::Leaf(class)), _) => {
                    builder.leaf(id, *class)?;
                }
                (Some(Replacement::Split(f)), _) => {
                    builder.split(id, self.split_of(*f))?;
                    stack.extend([2 * id, 2 * id + 1]);
                }
                (None, NodeKind::Split(split)) => {
                    builder.split(id, split.clone())?;
                    stack.extend([2 * id, 2 * id + 1]);
                }
                (None, NodeKind::Leaf { class }) => {
                    builder.leaf(id, *class)?;
                }
            }
        }
        let mut expressed = builder.build()?;
        expressed.recount(self.data.rows(), self.data.labels())?;
        expressed.learned_by = tree.learned_by.clone();
        Ok((expressed, notes))
    }

    /// The axis split of a binary feature.
    fn split_of(&self, f: BinaryFeature) -> Split {
        Split::Axis {
            feature: f.feature,
            threshold: self.candidates.threshold(f.feature, f.index),
        }
    }

    /// The cheapest stand-in for the last-level split `own` at node `id` of `tree`: the nearest
    /// class-boundary threshold of the same feature below or above it, or a leaf of the class of
    /// either child (the split moved past every row).
    fn best_replacement(
        &self,
        tree: &Tree,
        id: usize,
        own: BinaryFeature,
        level: usize,
    ) -> Result<Replacement> {
        let class_of = |child: usize| match tree.node(child).map(|n| &n.kind) {
            Some(NodeKind::Leaf { class }) => Ok(*class),
            _ => Err(Error::Internal(format!(
                "node {id} of the last split level has a child that is not a leaf"
            ))),
        };
        let (left, right) = (class_of(2 * id)?, class_of(2 * id + 1)?);
        let rows: Vec<usize> = (0..self.data.n_rows())
            .filter(|&i| tree.path(&self.data.rows()[i]).contains(&id))
            .collect();
        let cost = |goes_left: &dyn Fn(usize) -> bool| -> f64 {
            rows.iter()
                .filter(|&&i| {
                    let predicted = if goes_left(i) { left } else { right };
                    predicted != self.data.labels()[i]
                })
                .map(|&i| self.costs.rows[i])
                .sum()
        };
        let boundaries = self.features.boundaries_of(own.feature);
        let below = boundaries
            .iter()
            .rev()
            .find(|&&f| self.features.binary[f].index < own.index);
        let above = boundaries
            .iter()
            .find(|&&f| self.features.binary[f].index > own.index);
        let mut options: Vec<(f64, Replacement)> = vec![
            (cost(&|_| true), Replacement::Leaf(left)),
            (cost(&|_| false), Replacement::Leaf(right)),
        ];
        for &candidate in below.into_iter().chain(above) {
            let f = self.features.binary[candidate];
            let Some(kept) = self.features.representative(level, candidate) else {
                continue;
            };
            let bins = &self.candidates.bins;
            options.push((
                cost(&|i| bins[i][f.feature] < f.index),
                Replacement::Split(self.features.binary[kept]),
            ));
        }
        let mut best = options.remove(0);
        for option in options {
            if option.0 < best.0 {
                best = option;
            }
        }
        Ok(best.1)
    }
}
