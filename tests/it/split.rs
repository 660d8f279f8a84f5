//! The stratified train/test split: a partition of the rows, class proportions kept,
//! reproducible for a seed, different across seeds.

use milptree::data::stratified_split;
use proptest::prelude::*;

proptest! {
    #[test]
    fn split_is_a_stratified_partition(
        labels in proptest::collection::vec(0usize..3, 6..80),
        fraction in 0.1f64..0.6,
        seed in 0u64..1000,
    ) {
        let n_classes = 3;
        let Ok(split) = stratified_split(&labels, n_classes, fraction, seed) else {
            // Only allowed when rounding leaves no test row.
            let wanted: usize = (0..n_classes)
                .map(|c| {
                    let n = labels.iter().filter(|&&l| l == c).count();
                    if n == 0 { 0 } else { ((n as f64 * fraction).round() as usize).min(n - 1) }
                })
                .sum();
            prop_assert_eq!(wanted, 0);
            return Ok(());
        };
        let mut all: Vec<usize> = split.train.iter().chain(&split.test).copied().collect();
        all.sort_unstable();
        prop_assert_eq!(all, (0..labels.len()).collect::<Vec<_>>());
        for class in 0..n_classes {
            let n = labels.iter().filter(|&&l| l == class).count();
            let in_test = split.test.iter().filter(|&&i| labels[i] == class).count();
            if n > 0 {
                let expected = ((n as f64 * fraction).round() as usize).min(n - 1);
                prop_assert_eq!(in_test, expected);
            }
        }
        let again = stratified_split(&labels, n_classes, fraction, seed).expect("same input");
        prop_assert_eq!(&again, &split);
    }
}

#[test]
fn seeds_give_different_splits() {
    let labels: Vec<usize> = (0..100).map(|i| i % 2).collect();
    let a = stratified_split(&labels, 2, 0.25, 0).expect("valid");
    let b = stratified_split(&labels, 2, 0.25, 1).expect("valid");
    assert_eq!(a.test.len(), 26); // round(50 * 0.25) = 13 per class (12.5 rounds away from 0)
    assert_ne!(a.test, b.test);
}
