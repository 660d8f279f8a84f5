//! An exhaustive-search oracle over tables with categorical columns, written on the cells as
//! text, independently of milptree's reader and encoding: a split is `column = value` for a
//! value of a categorical column (rows with it go right) or `column <= t` for a midpoint `t`
//! of a numeric column (rows below go left); every tree of the depth is tried node by node
//! and leaves are scored by plain counting of the majority class.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One cell of a feature column.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Number(f64),
    Category(String),
}

/// A random table: feature columns (categorical or numeric), labels `0..k`.
#[derive(Debug, Clone)]
pub struct Table {
    pub names: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    pub labels: Vec<usize>,
    pub n_classes: usize,
}

impl Table {
    /// `n` rows: `colour` (text, 4 values), `code` (numeric codes 1 to 4, to be declared
    /// categorical), `size` (numbers 0 to 4), and `k` classes, each occurring at least once.
    pub fn random(seed: u64, n: usize, k: usize) -> Table {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let colours = ["red", "green", "blue", "grey"];
        let rows = (0..n)
            .map(|_| {
                vec![
                    Cell::Category(colours[rng.random_range(0..4)].to_string()),
                    Cell::Category(rng.random_range(1..5u32).to_string()),
                    Cell::Number(f64::from(rng.random_range(0..5u32))),
                ]
            })
            .collect();
        let mut labels: Vec<usize> = (0..n).map(|_| rng.random_range(0..k)).collect();
        for (class, label) in labels.iter_mut().enumerate().take(k) {
            *label = class;
        }
        Table {
            names: vec!["colour".into(), "code".into(), "size".into()],
            rows,
            labels,
            n_classes: k,
        }
    }

    /// The table as CSV with a label column `y` holding `c0`, `c1`, ...
    pub fn to_csv(&self) -> String {
        let mut text = format!("{},y\n", self.names.join(","));
        for (row, label) in self.rows.iter().zip(&self.labels) {
            for cell in row {
                match cell {
                    Cell::Number(x) => text.push_str(&format!("{x},")),
                    Cell::Category(c) => text.push_str(&format!("{c},")),
                }
            }
            text.push_str(&format!("c{label}\n"));
        }
        text
    }

    /// Every split of the table: `(column, Some(value))` for `column = value`, `(column, None)`
    /// paired with a threshold for `column <= t`.
    fn splits(&self) -> Vec<Split> {
        let mut splits = Vec::new();
        for j in 0..self.names.len() {
            let mut numbers: Vec<f64> = Vec::new();
            let mut values: Vec<String> = Vec::new();
            for row in &self.rows {
                match &row[j] {
                    Cell::Number(x) => numbers.push(*x),
                    Cell::Category(c) => values.push(c.clone()),
                }
            }
            numbers.sort_by(f64::total_cmp);
            numbers.dedup();
            values.sort();
            values.dedup();
            splits.extend(
                numbers
                    .windows(2)
                    .map(|w| Split::Below(j, (w[0] + w[1]) / 2.0)),
            );
            splits.extend(values.into_iter().map(|v| Split::Equals(j, v)));
        }
        splits
    }

    fn goes_right(&self, split: &Split, row: usize) -> bool {
        match (split, &self.rows[row]) {
            (Split::Below(j, t), cells) => matches!(&cells[*j], Cell::Number(x) if x > t),
            (Split::Equals(j, v), cells) => matches!(&cells[*j], Cell::Category(c) if c == v),
        }
    }

    fn leaf_errors(&self, rows: &[usize]) -> usize {
        let mut counts = vec![0; self.n_classes];
        for &i in rows {
            counts[self.labels[i]] += 1;
        }
        rows.len() - counts.into_iter().max().unwrap_or(0)
    }

    fn best(&self, splits: &[Split], rows: &[usize], depth: usize) -> usize {
        let mut best = self.leaf_errors(rows);
        if depth == 0 || best == 0 {
            return best;
        }
        for split in splits {
            let (right, left): (Vec<usize>, Vec<usize>) =
                rows.iter().partition(|&&i| self.goes_right(split, i));
            if left.is_empty() || right.is_empty() {
                continue;
            }
            let errors = self.best(splits, &left, depth - 1) + self.best(splits, &right, depth - 1);
            best = best.min(errors);
        }
        best
    }

    /// The fewest training errors of a tree of depth at most `depth`.
    pub fn optimum(&self, depth: usize) -> usize {
        let rows: Vec<usize> = (0..self.rows.len()).collect();
        self.best(&self.splits(), &rows, depth)
    }
}

#[derive(Debug, Clone)]
enum Split {
    Below(usize, f64),
    Equals(usize, String),
}
