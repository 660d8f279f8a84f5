//! Line numbers of byte offsets in a text file whose lines may end in `\n`, `\r\n` or `\r`.
//!
//! The csv crate counts `\n` bytes only, so its line numbers are one too low after a `\r\n`
//! line end and never move past 1 in a file with `\r` line ends; milptree's messages take
//! their line numbers from here instead.

/// Where each line of a text starts.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex<'a> {
    bytes: &'a [u8],
    /// Byte offset of the first byte of every line, in order; the first line starts at 0.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The line starts of `bytes`: after every `\n`, and after every `\r` not followed by
    /// `\n`.
    pub(crate) fn new(bytes: &'a [u8]) -> LineIndex<'a> {
        let mut starts = vec![0];
        for (i, &byte) in bytes.iter().enumerate() {
            let ends_line = byte == b'\n' || (byte == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if ends_line {
                starts.push(i + 1);
            }
        }
        LineIndex { bytes, starts }
    }

    /// The 1-based line of the record that starts at byte `offset`: line ends at `offset`
    /// (which the csv crate may count as the start of the next record) are skipped first.
    pub(crate) fn line_of_record(&self, offset: u64) -> u64 {
        let mut at = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        while matches!(self.bytes.get(at), Some(b'\r' | b'\n')) {
            at += 1;
        }
        // The number of lines starting at or before `at`.
        self.starts.partition_point(|&start| start <= at) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_end_starts_a_line() {
        for text in [
            "ab\ncd\nef\n",
            "ab\r\ncd\r\nef\r\n",
            "ab\rcd\ref\r",
            "ab\ncd\r\nef\r",
        ] {
            let index = LineIndex::new(text.as_bytes());
            let offset = |word: &str| text.find(word).expect("in the text") as u64;
            assert_eq!(index.line_of_record(offset("ab")), 1, "{text:?}");
            assert_eq!(index.line_of_record(offset("cd")), 2, "{text:?}");
            assert_eq!(index.line_of_record(offset("ef")), 3, "{text:?}");
            // An offset on the line end before a record is that record's line.
            assert_eq!(index.line_of_record(offset("ef") - 1), 3, "{text:?}");
        }
    }

    #[test]
    fn offsets_past_the_end_are_the_last_line() {
        let index = LineIndex::new(b"a\nb");
        assert_eq!(index.line_of_record(99), 2);
        assert_eq!(LineIndex::new(b"").line_of_record(0), 1);
    }
}
