//! Stratified, reproducible k-fold assignment.
//!
//! For repeat `r`, each class's rows are shuffled on their own (ChaCha8 seeded with
//! `seed + r`, so the folds are the same on every platform and version) and dealt to the folds
//! in turn, the deal of each class continuing where the previous class's stopped, so every
//! fold holds `floor` or `ceil` of `n_c / k` rows of every class `c` and `floor` or `ceil` of
//! `n / k` rows in all.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::{Error, Result};

/// The fold (`0..folds`) of every row with class indices `labels` (classes `0..n_classes`),
/// for repeat `repeat` of seed `seed`. Fails unless `2 <= folds <= labels.len()`.
pub fn stratified_folds(
    labels: &[usize],
    n_classes: usize,
    folds: usize,
    seed: u64,
    repeat: usize,
) -> Result<Vec<usize>> {
    if folds < 2 {
        return Err(Error::parameter(
            "--folds",
            format!("{folds} folds: cross-validation needs at least 2"),
        ));
    }
    if folds > labels.len() {
        return Err(Error::parameter(
            "--folds",
            format!(
                "{folds} folds of {} training rows would leave a fold empty",
                labels.len()
            ),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(repeat as u64));
    let mut assignment = vec![0; labels.len()];
    let mut next = 0;
    for class in 0..n_classes {
        let mut rows: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        rows.shuffle(&mut rng);
        for row in rows {
            assignment[row] = next;
            next = (next + 1) % folds;
        }
    }
    Ok(assignment)
}

/// The rows outside fold `fold` (its training rows) and in it (its validation rows), each in
/// increasing order.
pub fn fold_rows(assignment: &[usize], fold: usize) -> (Vec<usize>, Vec<usize>) {
    (0..assignment.len()).partition(|&i| assignment[i] != fold)
}
