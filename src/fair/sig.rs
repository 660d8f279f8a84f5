//! A subtree's signature in the fair search ([`Sig`]): what its leaves that predict positive add
//! to each group's count, held inline up to four counts (two groups under both bounds, or four
//! groups under one) so that the menus' many entries allocate nothing, on the heap beyond.

use std::cmp::Ordering;
use std::ops::{Deref, DerefMut};

/// The counts held inline.
const INLINE: usize = 4;

/// A signature: a short list of integer counts.
#[derive(Debug, Clone)]
pub(crate) enum Sig {
    Inline { len: u8, values: [i64; INLINE] },
    Heap(Vec<i64>),
}

impl Sig {
    /// `n` zeros.
    pub fn zeros(n: usize) -> Sig {
        if n <= INLINE {
            Sig::Inline {
                len: n as u8,
                values: [0; INLINE],
            }
        } else {
            Sig::Heap(vec![0; n])
        }
    }

    /// `a` and `b` added entry by entry (of one length).
    pub fn sum(a: &Sig, b: &Sig) -> Sig {
        let mut out = a.clone();
        for (x, y) in out.iter_mut().zip(b.iter()) {
            *x += y;
        }
        out
    }

    /// `a` less `b`, entry by entry (of one length).
    pub fn difference(a: &Sig, b: &Sig) -> Sig {
        let mut out = a.clone();
        for (x, y) in out.iter_mut().zip(b.iter()) {
            *x -= y;
        }
        out
    }

    /// The signature of `values`.
    #[cfg(test)]
    pub fn of(values: &[i64]) -> Sig {
        let mut sig = Sig::zeros(values.len());
        sig.copy_from_slice(values);
        sig
    }
}

impl Deref for Sig {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        match self {
            Sig::Inline { len, values } => &values[..*len as usize],
            Sig::Heap(values) => values,
        }
    }
}

impl DerefMut for Sig {
    fn deref_mut(&mut self) -> &mut [i64] {
        match self {
            Sig::Inline { len, values } => &mut values[..*len as usize],
            Sig::Heap(values) => values,
        }
    }
}

impl PartialEq for Sig {
    fn eq(&self, other: &Sig) -> bool {
        **self == **other
    }
}

impl Eq for Sig {}

impl PartialOrd for Sig {
    fn partial_cmp(&self, other: &Sig) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Sig {
    fn cmp(&self, other: &Sig) -> Ordering {
        (**self).cmp(&**other)
    }
}
