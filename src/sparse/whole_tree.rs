//! The search for the losses of whole leaf sets (F1, AUC and partial AUC of the ROC convex
//! hull), which do not decompose over subtrees: a branch and bound over partial trees, as the
//! seed does for them (its PyGOSDT variant, after OSDT).
//!
//! A partial tree has fixed leaves and open leaves (row sets that may still split, each with
//! the depth it has left). Depth first, the last open leaf is either fixed or split on each
//! candidate threshold (best Gini first), so every tree is reached once; a partial tree met
//! again through splits taken in another order is skipped (the leaf permutation bound,
//! Theorem B.8). A partial tree is pruned when its lower bound reaches the best objective:
//! - the hierarchical bound with equivalent points (Theorems 2.1, 2.2, B.1, C.3): every open
//!   leaf replaced by its equivalence classes (rows no split separates), the finest leaves any
//!   completion can have; these losses never grow when a leaf is refined (Lemma C.1 for the
//!   AUC; F1 and the partial AUC likewise), so the loss of that leaf set, plus the penalty of
//!   the leaves there are now, bounds every completion;
//! - one-step lookahead (Theorem B.2) and the leaf-count bound (B.4): when one more leaf
//!   would reach the best, the open leaves can only be fixed, and the partial tree is scored
//!   as it is.
//!
//! The first incumbents are the single leaf, a given tree, and the optimal trees of the
//! balanced and plain accuracy losses with the same penalty. Without a limit the search is
//! exact; it grows exponentially with the number of leaves worth having, so it suits small
//! data or large penalties. Depth by depth (iterative deepening), each depth's optimum is the
//! next one's incumbent, and with the leaf-count bound a lower bound for deeper trees; at a
//! limit, the lower bound is the best of those and the root's.

use std::time::Instant;

use rustc_hash::FxHashSet;

use crate::budget::Budget;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::search_core::binned::{split_bin, Binned};
use crate::search_core::cost::{CostModel, Scale};
use crate::search_core::deadline::Deadline;
use crate::search_core::subtree::{to_tree, SubTree};
use crate::search_core::{Progress as DpProgress, Termination as DpTermination};
use crate::sparse::equivalence::Equivalence;
use crate::sparse::extract::{depth_of, from_tree};
use crate::sparse::loss::{f1_loss, Leaf};
use crate::sparse::{
    solve as solve_additive, Loss, SparseOptions, SparseOutcome, SparseProblem, SparseStats,
};
use crate::tree::{NodeKind, Tree};

/// A fixed leaf of a partial tree.
#[derive(Debug, Clone)]
struct Fixed {
    hash: u64,
    stats: Leaf,
}

/// An open leaf of a partial tree.
#[derive(Debug, Clone)]
struct Open {
    id: usize,
    rows: Vec<u32>,
    hash: u64,
    depth_left: usize,
    stats: Leaf,
    /// Its equivalence classes, as leaves.
    groups: Vec<Leaf>,
}

/// A candidate split of an open leaf.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    gini: f64,
    feature: u32,
    bin: u32,
}

struct WholeTree<'a> {
    binned: &'a Binned,
    loss: &'a Loss,
    penalty: f64,
    total: Leaf,
    positive: Vec<bool>,
    group_of: Vec<u32>,
    row_keys: Vec<u64>,
    /// `bins[row * features + f]`.
    bins: Vec<u32>,
    deadline: Deadline,
    visited: FxHashSet<(u64, u64)>,
    visited_cap: usize,
    tol: f64,
    best: f64,
    best_tree: SubTree,
    fixed: Vec<Fixed>,
    open: Vec<Open>,
    splits: Vec<(usize, u32, u32)>,
    stats: SparseStats,
    trajectory: Vec<DpProgress>,
    scratch: Vec<Leaf>,
    group_slot: Vec<u32>,
}

/// SplitMix64.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<'a> WholeTree<'a> {
    fn open_leaf(&mut self, id: usize, rows: Vec<u32>, depth_left: usize) -> Open {
        let mut stats = Leaf::default();
        let mut hash = 0u64;
        let mut groups: Vec<Leaf> = Vec::new();
        for &row in &rows {
            let r = row as usize;
            hash = hash.wrapping_add(self.row_keys[r]);
            let group = self.group_of[r] as usize;
            let slot = match self.group_slot[group] {
                u32::MAX => {
                    self.group_slot[group] = groups.len() as u32;
                    groups.push(Leaf::default());
                    groups.len() - 1
                }
                slot => slot as usize,
            };
            if self.positive[r] {
                stats.positive += 1.0;
                groups[slot].positive += 1.0;
            } else {
                stats.negative += 1.0;
                groups[slot].negative += 1.0;
            }
        }
        for &row in &rows {
            self.group_slot[self.group_of[row as usize] as usize] = u32::MAX;
        }
        Open {
            id,
            rows,
            hash,
            depth_left,
            stats,
            groups,
        }
    }

    fn value(&self, leaves: &[Leaf]) -> f64 {
        self.loss
            .of_binary_leaves(leaves, self.total)
            .unwrap_or(f64::INFINITY)
            + self.penalty * leaves.len() as f64
    }

    /// The hierarchical bound of the current partial tree with equivalent points.
    fn bound(&mut self) -> f64 {
        self.scratch.clear();
        self.scratch.extend(self.fixed.iter().map(|f| f.stats));
        for open in &self.open {
            self.scratch.extend_from_slice(&open.groups);
        }
        let loss = self
            .loss
            .of_binary_leaves(&self.scratch, self.total)
            .unwrap_or(f64::INFINITY);
        loss + self.penalty * (self.fixed.len() + self.open.len()) as f64
    }

    /// The partial tree as it is, every open leaf fixed.
    fn value_as_is(&mut self) -> f64 {
        self.scratch.clear();
        self.scratch.extend(self.fixed.iter().map(|f| f.stats));
        self.scratch.extend(self.open.iter().map(|o| o.stats));
        let scratch = std::mem::take(&mut self.scratch);
        let value = self.value(&scratch);
        self.scratch = scratch;
        value
    }

    fn fingerprint(&self) -> (u64, u64) {
        let (mut a, mut b) = (
            0u64,
            (self.fixed.len() as u64) << 32 | self.open.len() as u64,
        );
        for f in &self.fixed {
            a = a.wrapping_add(mix(f.hash ^ 0x5555_5555_5555_5555));
            b = b.wrapping_add(mix(f.hash.rotate_left(29) ^ 0x1234_5678));
        }
        for o in &self.open {
            let tag = (o.depth_left as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407);
            a = a.wrapping_add(mix(o.hash ^ tag));
            b = b.wrapping_add(mix(o.hash.rotate_left(29) ^ tag.rotate_left(7)));
        }
        (a, b)
    }

    /// The tree of the current partial tree (open leaves as leaves).
    fn current_tree(&self) -> SubTree {
        fn build(splits: &[(usize, u32, u32)], id: usize) -> SubTree {
            match splits.iter().find(|(node, _, _)| *node == id) {
                Some(&(_, feature, bin)) => SubTree::Split {
                    feature,
                    bin,
                    left: Box::new(build(splits, 2 * id)),
                    right: Box::new(build(splits, 2 * id + 1)),
                },
                None => SubTree::Leaf,
            }
        }
        build(&self.splits, 1)
    }

    fn record(&mut self, value: f64) {
        if value < self.best - self.tol {
            self.best = value;
            self.best_tree = self.current_tree();
            self.trajectory.push(DpProgress {
                seconds: self.deadline.seconds(),
                incumbent: value,
                bound: 0.0,
            });
        }
    }

    /// The candidate splits of `open`, best Gini first.
    fn candidates(&self, open: &Open) -> Vec<Candidate> {
        let features = self.binned.n_features();
        let mut out = Vec::new();
        let mut order: Vec<(u32, bool)> = Vec::with_capacity(open.rows.len());
        for f in 0..features {
            order.clear();
            order.extend(open.rows.iter().map(|&r| {
                (
                    self.bins[r as usize * features + f],
                    self.positive[r as usize],
                )
            }));
            order.sort_unstable_by_key(|&(bin, _)| bin);
            let (mut pos, mut neg) = (0.0, 0.0);
            for i in 1..order.len() {
                if order[i - 1].1 {
                    pos += 1.0;
                } else {
                    neg += 1.0;
                }
                if order[i - 1].0 == order[i].0 {
                    continue;
                }
                let left = Leaf::new(pos, neg);
                let right = Leaf::new(open.stats.positive - pos, open.stats.negative - neg);
                let gini = |leaf: Leaf| {
                    let n = leaf.positive + leaf.negative;
                    if n > 0.0 {
                        2.0 * leaf.positive * leaf.negative / n
                    } else {
                        0.0
                    }
                };
                out.push(Candidate {
                    gini: gini(left) + gini(right),
                    feature: f as u32,
                    bin: split_bin(order[i - 1].0, order[i].0),
                });
            }
        }
        out.sort_by(|a, b| {
            a.gini
                .total_cmp(&b.gini)
                .then(a.feature.cmp(&b.feature))
                .then(a.bin.cmp(&b.bin))
        });
        out
    }

    fn search(&mut self) {
        if self.deadline.reached() {
            return;
        }
        self.stats.subproblems += 1;
        if self.visited.len() >= self.visited_cap {
            self.visited.clear();
        }
        if !self.visited.insert(self.fingerprint()) {
            self.stats.duplicates += 1;
            return;
        }
        let bound = self.bound();
        if bound >= self.best - self.tol {
            self.stats.bound_pruned += 1;
            return;
        }
        if self.open.is_empty() {
            self.record(bound);
            return;
        }
        if bound + self.penalty >= self.best - self.tol {
            // One more leaf reaches the best: no open leaf may split.
            self.stats.lookahead_pruned += 1;
            let value = self.value_as_is();
            self.record(value);
            return;
        }
        let Some(leaf) = self.open.pop() else {
            return;
        };
        self.fixed.push(Fixed {
            hash: leaf.hash,
            stats: leaf.stats,
        });
        self.search();
        self.fixed.pop();
        if leaf.depth_left > 0 {
            let features = self.binned.n_features();
            for candidate in self.candidates(&leaf) {
                if self.deadline.reached() {
                    break;
                }
                self.stats.splits += 1;
                let f = candidate.feature as usize;
                let (left_rows, right_rows): (Vec<u32>, Vec<u32>) = leaf
                    .rows
                    .iter()
                    .partition(|&&r| self.bins[r as usize * features + f] <= candidate.bin);
                let left = self.open_leaf(2 * leaf.id, left_rows, leaf.depth_left - 1);
                let right = self.open_leaf(2 * leaf.id + 1, right_rows, leaf.depth_left - 1);
                self.open.push(left);
                self.open.push(right);
                self.splits
                    .push((leaf.id, candidate.feature, candidate.bin));
                self.search();
                self.splits.pop();
                self.open.pop();
                self.open.pop();
            }
        }
        self.open.push(leaf);
    }
}

/// The project's tree of `subtree`, its leaves labelled for `loss`: F1's best labelling, the
/// majority class for the AUCs.
fn into_tree(subtree: &SubTree, binned: &Binned, data: &Dataset, loss: &Loss) -> Result<Tree> {
    let rows = data.n_rows();
    let scale = Scale {
        rows,
        total_weight: rows as f64,
    };
    let majority = CostModel::new(&vec![1.0; data.n_classes()], 0.0, 1, scale)?;
    let mut tree = to_tree(subtree, binned, data, &majority, depth_of(subtree).max(1))?;
    if let Loss::F1 { positive } = loss {
        let negative = 1 - positive;
        let leaves = tree.leaves();
        let stats: Vec<Leaf> = leaves
            .iter()
            .map(|&id| {
                tree.node(id).map_or(Leaf::default(), |node| {
                    Leaf::new(node.counts[*positive] as f64, node.counts[negative] as f64)
                })
            })
            .collect();
        let total_positive = data.labels().iter().filter(|&&l| l == *positive).count();
        let (_, labels) = f1_loss(&stats, total_positive as f64);
        for (&id, is_positive) in leaves.iter().zip(labels) {
            if matches!(tree.node(id).map(|n| &n.kind), Some(NodeKind::Leaf { .. })) {
                tree.set_leaf_class(id, if is_positive { *positive } else { negative })?;
            }
        }
    }
    Ok(tree)
}

/// The search's value of `tree` (its leaves as they are, F1 labelled at best).
fn value_of_tree(tree: &Tree, loss: &Loss, penalty: f64, positive: usize, total: Leaf) -> f64 {
    let leaves: Vec<Leaf> = tree
        .leaves()
        .iter()
        .filter_map(|&id| tree.node(id))
        .map(|node| {
            Leaf::new(
                node.counts[positive] as f64,
                (node.rows() - node.counts[positive]) as f64,
            )
        })
        .collect();
    loss.of_binary_leaves(&leaves, total)
        .unwrap_or(f64::INFINITY)
        + penalty * leaves.len() as f64
}

/// The first incumbents besides the leaf: a given tree, and with the greedy switch the
/// additive optima of balanced accuracy and accuracy with the same penalty, each in a tenth of
/// the time left.
fn first_incumbents(
    data: &Dataset,
    problem: &SparseProblem,
    options: &SparseOptions,
    start: Instant,
    deadline: &mut Deadline,
) -> Vec<Tree> {
    let mut incumbents: Vec<Tree> = Vec::new();
    if let Some(tree) = &options.incumbent {
        incumbents.push(tree.clone());
    }
    if options.switches.greedy {
        for proxy in [Loss::Balanced, Loss::Accuracy] {
            if deadline.reached() {
                break;
            }
            let remaining = options.budget.left_since(start).share(0.1);
            let proxy_problem = SparseProblem {
                loss: proxy,
                ..problem.clone()
            };
            let proxy_options = SparseOptions {
                budget: remaining,
                incumbent: None,
                // The proxy's values are not the search's: nothing is published.
                progress: Default::default(),
                ..options.clone()
            };
            if let Ok(found) = solve_additive(data, &proxy_problem, &proxy_options) {
                incumbents.push(found.tree);
            }
        }
    }
    incumbents
}

/// Every row's bin on every feature, row by row (`bins[row * features + f]`).
fn row_bins(binned: &Binned, n_rows: usize) -> Vec<u32> {
    let features = binned.n_features();
    let mut bins = vec![0u32; n_rows * features];
    for (f, list) in binned.sorted.iter().enumerate() {
        for e in list {
            bins[e.row as usize * features + f] = e.bin;
        }
    }
    bins
}

impl WholeTree<'_> {
    /// Takes `tree` as the incumbent when it fits in `depth` and improves on it (recorded in
    /// the trajectory at its time since `start`); `positive` is the positive class.
    fn consider(
        &mut self,
        tree: &Tree,
        data: &Dataset,
        depth: usize,
        (positive, start): (usize, Instant),
    ) -> Result<()> {
        let Some(subtree) = from_tree(tree, self.binned) else {
            return Ok(());
        };
        if depth_of(&subtree) > depth {
            return Ok(());
        }
        let tree = into_tree(&subtree, self.binned, data, self.loss)?;
        let value = value_of_tree(&tree, self.loss, self.penalty, positive, self.total);
        if value < self.best - self.tol {
            self.best = value;
            self.best_tree = subtree;
            self.trajectory.push(DpProgress {
                seconds: start.elapsed().as_secs_f64(),
                incumbent: value,
                bound: 0.0,
            });
        }
        Ok(())
    }

    /// The search from the open root, depth by depth with deepening when `deepening` (as the
    /// additive search): once every tree of depth `d` is searched, a better one has at least
    /// `d + 2` leaves, so it costs at least the root's bound with that many leaves. Returns
    /// the lower bound reached and whether the incumbent is proven optimal.
    fn deepen(&mut self, depth: usize, deepening: bool) -> (f64, bool) {
        let root_bound = self.bound();
        let floor = root_bound - self.penalty;
        let mut lower_bound = root_bound.min(self.best);
        let mut level = if deepening { 1 } else { depth };
        loop {
            self.open[0].depth_left = level;
            self.visited.clear();
            self.search();
            if self.deadline.stopped().is_some() {
                return (lower_bound, false);
            }
            let deeper = floor + self.penalty * (level + 2) as f64;
            if level >= depth || self.best <= deeper + self.tol {
                return (lower_bound, true);
            }
            lower_bound = lower_bound.max(self.best.min(deeper));
            level += 1;
        }
    }
}

/// Solves `problem` (a two-class loss of whole leaf sets) on `data`.
pub(crate) fn solve(
    data: &Dataset,
    binned: &Binned,
    problem: &SparseProblem,
    options: &SparseOptions,
) -> Result<SparseOutcome> {
    let start = Instant::now();
    let loss = &problem.loss;
    let positive = loss
        .positive_class()
        .ok_or_else(|| Error::Internal("the whole-tree search got an additive loss".into()))?;
    let depth = problem.depth_limit();
    let rows_positive: Vec<bool> = data.labels().iter().map(|&l| l == positive).collect();
    let n_pos = rows_positive.iter().filter(|&&p| p).count() as f64;
    let total = Leaf::new(n_pos, data.n_rows() as f64 - n_pos);
    let mut deadline = Deadline::new(start, &options.budget);

    let incumbents = first_incumbents(data, problem, options, start, &mut deadline);
    let greedy_seconds = start.elapsed().as_secs_f64();
    let weights = [1.0, 1.0];
    let equivalence = Equivalence::new(binned, &weights);
    let visited_cap = (options.memory_limit_mb.saturating_mul(1 << 20) / 48).max(1024);
    let mut search = WholeTree {
        binned,
        loss,
        penalty: problem.leaf_penalty,
        total,
        positive: rows_positive,
        group_of: (0..data.n_rows()).map(|r| equivalence.group(r)).collect(),
        row_keys: (0..data.n_rows() as u64).map(mix).collect(),
        bins: row_bins(binned, data.n_rows()),
        deadline: Deadline::new(start, &Budget::unlimited()),
        visited: FxHashSet::default(),
        visited_cap,
        tol: 1e-12,
        best: f64::INFINITY,
        best_tree: SubTree::Leaf,
        fixed: Vec::new(),
        open: Vec::new(),
        splits: Vec::new(),
        stats: SparseStats {
            search: "whole_tree".to_string(),
            greedy_seconds,
            ..SparseStats::default()
        },
        trajectory: Vec::new(),
        scratch: Vec::new(),
        group_slot: vec![u32::MAX; equivalence.groups],
    };
    let root = search.open_leaf(1, (0..data.n_rows() as u32).collect(), depth);
    search.record(search.value(&[root.stats]));
    for tree in incumbents {
        search.consider(&tree, data, depth, (positive, start))?;
    }
    search.stats.initial_objective = search.best;
    std::mem::swap(&mut search.deadline, &mut deadline);
    search.open.push(root);
    let (lower_bound, proven) = search.deepen(depth, options.switches.deepening);
    let termination = if proven {
        DpTermination::Optimal
    } else {
        search
            .deadline
            .stopped()
            .unwrap_or(DpTermination::TimeLimit)
    };
    let lower_bound = if proven { search.best } else { lower_bound };
    search.stats.peak_memory_bytes =
        (search.visited.capacity() * 16 + search.bins.len() * 4 + search.row_keys.len() * 8) as u64;
    let tree = into_tree(&search.best_tree, binned, data, loss)?;
    let value = value_of_tree(&tree, loss, problem.leaf_penalty, positive, total);
    if (value - search.best).abs() > 1e-9 * search.best.abs().max(1.0) {
        return Err(Error::Internal(format!(
            "the search valued its tree at {} but its leaves give {value}",
            search.best
        )));
    }
    super::finish(
        tree,
        data,
        problem,
        search.best,
        lower_bound,
        termination,
        start,
        search.stats,
        search.trajectory,
    )
}
