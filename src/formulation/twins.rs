//! Rows that every split of a model routes alike ("twins": identical on the features the model
//! splits on). BinOCT gives a set of twins one set of leaf variables and writes its routing
//! rows once; the class counts still sum every row, so twins with different labels weigh each
//! class by its own rows. Exact: every tree sends twins to the same leaf.

use std::collections::HashMap;
use std::hash::Hash;

/// The twins of a model's training rows: for each row, the first row identical to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Twins {
    first: Vec<usize>,
    sets: usize,
}

impl Twins {
    /// The twins among rows with the given keys (equal keys: routed alike).
    pub fn of<K: Hash + Eq>(keys: impl IntoIterator<Item = K>) -> Twins {
        let mut seen: HashMap<K, usize> = HashMap::new();
        let mut first = Vec::new();
        for (r, key) in keys.into_iter().enumerate() {
            first.push(*seen.entry(key).or_insert(r));
        }
        Twins {
            sets: seen.len(),
            first,
        }
    }

    /// The first row identical to row `r` (`r` itself for the first of its set).
    pub fn first_of(&self, r: usize) -> usize {
        self.first[r]
    }

    /// Whether row `r` is the first of its set, the one whose routing rows the model writes.
    pub fn is_first(&self, r: usize) -> bool {
        self.first[r] == r
    }

    /// Rows and sets of twins.
    pub fn rows_and_sets(&self) -> (usize, usize) {
        (self.first.len(), self.sets)
    }

    /// The note a decode gives when rows were merged.
    pub fn note(&self) -> Option<String> {
        let (rows, sets) = self.rows_and_sets();
        (sets < rows).then(|| {
            format!(
                "{rows} training rows were {sets} sets of rows identical on the features the \
                 model splits on, one set of leaf variables each"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Twins;

    #[test]
    fn equal_keys_share_their_first_row() {
        let twins = Twins::of([[1, 2], [3, 4], [1, 2], [5, 6], [3, 4]]);
        assert_eq!(
            (0..5).map(|r| twins.first_of(r)).collect::<Vec<_>>(),
            [0, 1, 0, 3, 1]
        );
        assert_eq!(twins.rows_and_sets(), (5, 3));
        assert!(twins.is_first(3) && !twins.is_first(4));
        assert!(twins.note().is_some());
        assert_eq!(Twins::of([1, 2, 3]).note(), None);
    }
}
