//! Stratified, reproducible train/test splits.
//!
//! Each class is shuffled on its own (ChaCha8 seeded with the user's seed, so the split is the
//! same on every platform and version) and `round(n_c * fraction)` of its rows go to the test
//! set, keeping at least one row of every class in the training set. [`Sets`] holds the two
//! resulting datasets.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::data::Dataset;
use crate::error::{Error, Result};

/// Row indices of the training and test sets, each in increasing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainTest {
    pub train: Vec<usize>,
    pub test: Vec<usize>,
}

/// Splits rows with class indices `labels` (classes `0..n_classes`) into a training and a test
/// set with about `test_fraction` of each class in the test set.
pub fn stratified_split(
    labels: &[usize],
    n_classes: usize,
    test_fraction: f64,
    seed: u64,
) -> Result<TrainTest> {
    if !(test_fraction > 0.0 && test_fraction < 1.0) {
        return Err(Error::parameter(
            "--test-fraction",
            format!("{test_fraction} is not strictly between 0 and 1"),
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut train = Vec::new();
    let mut test = Vec::new();
    for class in 0..n_classes {
        let mut rows: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        if rows.is_empty() {
            continue;
        }
        rows.shuffle(&mut rng);
        let wanted = (rows.len() as f64 * test_fraction).round() as usize;
        let n_test = wanted.min(rows.len() - 1);
        test.extend_from_slice(&rows[..n_test]);
        train.extend_from_slice(&rows[n_test..]);
    }
    if test.is_empty() {
        return Err(Error::parameter(
            "--test-fraction",
            format!(
                "{test_fraction} of {} rows leaves no row for the test set (every class keeps at \
                 least one training row); use a larger fraction or more data",
                labels.len()
            ),
        ));
    }
    train.sort_unstable();
    test.sort_unstable();
    Ok(TrainTest { train, test })
}

/// The data of one run: the training set and, when some rows are held out, the test set.
#[derive(Debug, Clone, PartialEq)]
pub struct Sets {
    pub train: Dataset,
    pub test: Option<Dataset>,
}

impl Sets {
    /// `data` split with `seed`, holding out `test_fraction` of each class (strictly between 0
    /// and 1); no test set with `None`.
    pub fn split(data: &Dataset, test_fraction: Option<f64>, seed: u64) -> Result<Sets> {
        match test_fraction {
            None => Ok(Sets {
                train: data.clone(),
                test: None,
            }),
            Some(fraction) => {
                let split = stratified_split(data.labels(), data.n_classes(), fraction, seed)?;
                Ok(Sets {
                    train: data.subset(&split.train),
                    test: Some(data.subset(&split.test)),
                })
            }
        }
    }

    /// Both sets passed through `prepare` (e.g. relabelled for a formulation).
    pub fn map(self, prepare: impl Fn(Dataset) -> Result<Dataset>) -> Result<Sets> {
        Ok(Sets {
            train: prepare(self.train)?,
            test: self.test.map(&prepare).transpose()?,
        })
    }
}
