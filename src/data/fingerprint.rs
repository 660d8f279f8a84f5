//! The fingerprint of a dataset's rows ([`Dataset::fingerprint`]): a SHA-256 digest that is the
//! same on every run and platform for the same rows, so a tree file can name the training rows
//! it was learned on and a reader can check that a file holds them.

use sha2::{Digest, Sha256};

use crate::data::Dataset;

impl Dataset {
    /// `sha256:` and the hex digest of the rows in order: each row's feature values (the IEEE
    /// bits of each `f64`, little-endian), its label's text (length first), and its weight when
    /// the data has row weights. Feature names and file layout do not enter it.
    pub fn fingerprint(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(b"milptree rows v1");
        hasher.update((self.n_features() as u64).to_le_bytes());
        for (i, (row, &label)) in self.rows().iter().zip(self.labels()).enumerate() {
            for value in row {
                hasher.update(value.to_bits().to_le_bytes());
            }
            let text = self.classes()[label].as_bytes();
            hasher.update((text.len() as u64).to_le_bytes());
            hasher.update(text);
            if self.is_weighted() {
                hasher.update(self.weight(i).to_bits().to_le_bytes());
            }
        }
        let digest = hasher.finalize();
        let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
        format!("sha256:{hex}")
    }
}

#[cfg(test)]
mod tests {
    use crate::data::Dataset;

    fn data(rows: Vec<Vec<f64>>, labels: Vec<usize>) -> Dataset {
        Dataset::from_parts(
            "test",
            vec!["a".into(), "b".into()],
            vec!["no".into(), "yes".into()],
            rows,
            labels,
        )
        .expect("valid data")
    }

    #[test]
    fn the_fingerprint_is_fixed_and_follows_every_value_and_label() {
        let base = data(vec![vec![1.0, 2.5], vec![0.0, -3.0]], vec![0, 1]);
        // The digest of the documented byte layout, computed apart from this code (Python's
        // hashlib over `struct.pack('<Q', 2)`, `'<d'` values, `'<Q'` label lengths).
        let digest = base.fingerprint();
        assert_eq!(
            digest,
            "sha256:0be2731a9c62594652d34f3ee639206f9a192d7814efbe4a3a01e23faf90cc2a"
        );
        let changed_value = data(vec![vec![1.0, 2.5], vec![0.0, -3.5]], vec![0, 1]);
        let changed_label = data(vec![vec![1.0, 2.5], vec![0.0, -3.0]], vec![0, 0]);
        let swapped = data(vec![vec![0.0, -3.0], vec![1.0, 2.5]], vec![1, 0]);
        for other in [changed_value, changed_label, swapped] {
            assert_ne!(other.fingerprint(), digest);
        }
    }
}
