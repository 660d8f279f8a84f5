//! MurTree's similarity lower bound: a row set's optimum is at least the optimum (or lower
//! bound) of a recently solved row set at the same depth and budget, less the weight of the
//! rows the older set has and the new one lacks (removing rows lowers a subtree's cost by at
//! most their weight), less what the rows the new set has and the older one lacks can lower it
//! (nothing without a leaf minimum; with one, see [`super::leaf_minimum`]: the union of both
//! sets costs at least the older set's optimum less bound 2, and the new set at least the
//! union's less bound 1).

use crate::dp::leaf_minimum::LeafSlack;
use crate::search_core::binned::Binned;
use crate::search_core::cost::CostModel;
use crate::search_core::view::{Arena, View};

/// The multiplicities of the rows whose bits are set in `word`, `multiplicities` starting at
/// its first row.
fn weight_of(mut word: u64, multiplicities: &[u32]) -> u64 {
    let mut total = 0;
    while word != 0 {
        total += u64::from(multiplicities[word.trailing_zeros() as usize]);
        word &= word - 1;
    }
    total
}

/// How many solved row sets are remembered per depth.
const REMEMBERED: usize = 2;

#[derive(Debug, Clone)]
struct Remembered {
    rows: Vec<u64>,
    budget: usize,
    value: f64,
}

/// The last row sets solved at each depth, as bitsets.
#[derive(Debug)]
pub(crate) struct Similarity {
    words: usize,
    /// One bitset per class: the rows of that class.
    class_rows: Vec<Vec<u64>>,
    weights: Vec<f64>,
    /// How many times each row counts (empty: once each).
    multiplicities: Vec<u32>,
    /// What rows joining a set can lower its optimum by.
    slack: LeafSlack,
    /// Per depth: the last solved row sets, newest first.
    memory: Vec<Vec<Remembered>>,
    scratch: Vec<u64>,
}

impl Similarity {
    pub fn new(data: &Binned, cost: &CostModel) -> Similarity {
        let words = data.n_rows.div_ceil(64);
        let mut class_rows = vec![vec![0u64; words]; data.n_classes];
        for (row, &label) in data.labels.iter().enumerate() {
            class_rows[label as usize][row / 64] |= 1 << (row % 64);
        }
        Similarity {
            words,
            class_rows,
            weights: cost.weights.clone(),
            multiplicities: data.multiplicities.clone(),
            slack: LeafSlack::new(cost),
            memory: Vec::new(),
            scratch: vec![0; words],
        }
    }

    pub fn bytes(&self) -> usize {
        8 * self.words * (self.class_rows.len() + 1 + REMEMBERED * self.memory.len())
            + 4 * self.multiplicities.len()
    }

    fn load(&mut self, arena: &Arena, view: &View) {
        self.scratch.iter_mut().for_each(|w| *w = 0);
        for e in arena.list(view, 0) {
            self.scratch[e.row as usize / 64] |= 1 << (e.row % 64);
        }
    }

    /// The best similarity bound for `view` at `depth` and `budget` (0 if none).
    pub fn bound(&mut self, arena: &Arena, view: &View, depth: usize, budget: usize) -> f64 {
        let Some(slots) = self.memory.get(depth) else {
            return 0.0;
        };
        if slots.iter().all(|r| r.budget != budget) {
            return 0.0;
        }
        self.load(arena, view);
        let mut best: f64 = 0.0;
        for remembered in &self.memory[depth] {
            if remembered.budget != budget || remembered.value <= best {
                continue;
            }
            let mut removed = 0.0;
            for (class_rows, &w) in self.class_rows.iter().zip(&self.weights) {
                let gone = remembered
                    .rows
                    .iter()
                    .zip(&self.scratch)
                    .zip(class_rows)
                    .map(|((old, new), class)| old & !new & class);
                let count: u64 = if self.multiplicities.is_empty() {
                    gone.map(|word| u64::from(word.count_ones())).sum()
                } else {
                    gone.enumerate()
                        .map(|(at, word)| weight_of(word, &self.multiplicities[64 * at..]))
                        .sum()
                };
                removed += count as f64 * w;
            }
            if self.slack.binds() {
                let (mut added, mut old_size) = (0usize, 0usize);
                for (old, new) in remembered.rows.iter().zip(&self.scratch) {
                    added += (new & !old).count_ones() as usize;
                    old_size += old.count_ones() as usize;
                }
                // The union's subtrees hold at most this many splits.
                let splits = self.slack.most_splits(old_size + added);
                removed += self.slack.grown(added, splits);
            }
            best = best.max(remembered.value - removed);
        }
        best
    }

    /// Remembers that `view`'s optimum at `depth` and `budget` is at least `value`.
    pub fn remember(
        &mut self,
        arena: &Arena,
        view: &View,
        depth: usize,
        budget: usize,
        value: f64,
    ) {
        while self.memory.len() <= depth {
            self.memory.push(Vec::new());
        }
        self.load(arena, view);
        let slots = &mut self.memory[depth];
        let mut entry = if slots.len() >= REMEMBERED {
            slots.pop().unwrap_or_else(|| Remembered {
                rows: Vec::new(),
                budget,
                value,
            })
        } else {
            Remembered {
                rows: Vec::new(),
                budget,
                value,
            }
        };
        entry.rows.clear();
        entry.rows.extend_from_slice(&self.scratch);
        entry.budget = budget;
        entry.value = value;
        slots.insert(0, entry);
    }
}
