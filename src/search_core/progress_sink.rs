//! Where a search publishes its incumbent and lower bound as they improve ([`ProgressSink`]),
//! for a caller's progress display; by default nowhere.

use std::fmt;
use std::sync::Arc;

/// A callback given `(incumbent, bound)` each time the search records a point of progress.
#[derive(Clone, Default)]
pub struct ProgressSink(Option<Arc<dyn Fn(f64, f64) + Send + Sync>>);

impl ProgressSink {
    /// A sink that calls `publish`.
    pub fn new(publish: impl Fn(f64, f64) + Send + Sync + 'static) -> ProgressSink {
        ProgressSink(Some(Arc::new(publish)))
    }

    /// Hands `incumbent` and `bound` to the callback, if any.
    pub fn publish(&self, incumbent: f64, bound: f64) {
        if let Some(publish) = &self.0 {
            publish(incumbent, bound);
        }
    }
}

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "ProgressSink(set)"
        } else {
            "ProgressSink(none)"
        })
    }
}
