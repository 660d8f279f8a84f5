//! A caller's watch on a run ([`Watch`]): each point of progress a search or a solver reports
//! (its incumbent and bound, what reported it, and the seconds since the watch was made) is
//! handed to the caller's function as it happens. The Python estimator's `fit(..., callback=)`
//! watches a run this way; the progress line is another reader of the same points.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// One point of progress as a watch sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchPoint {
    /// Seconds since the watch was made (one clock for every phase of a run).
    pub seconds: f64,
    /// What reported it: `dp`, `sparse`, `highs`, `cbc`.
    pub source: String,
    /// The objective of the best tree or solution known then, in the reporter's terms (those
    /// of the report's trajectory), if there is one.
    pub incumbent: Option<f64>,
    /// The best lower bound known then, if there is one.
    pub bound: Option<f64>,
}

/// The function a run hands its points of progress to, and the instant its clock starts.
#[derive(Clone)]
pub struct Watch {
    started: Instant,
    see: Arc<dyn Fn(WatchPoint) + Send + Sync>,
}

impl Watch {
    /// A watch that hands each point to `see`; its clock starts now.
    pub fn new(see: impl Fn(WatchPoint) + Send + Sync + 'static) -> Watch {
        Watch {
            started: Instant::now(),
            see: Arc::new(see),
        }
    }

    /// Hands the point `(incumbent, bound)` reported by `source` to the function; values
    /// that are not finite (solvers' "none") become `None`.
    pub fn see(&self, source: &str, incumbent: Option<f64>, bound: Option<f64>) {
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite() && v.abs() < 1e30);
        (self.see)(WatchPoint {
            seconds: self.started.elapsed().as_secs_f64(),
            source: source.to_string(),
            incumbent: finite(incumbent),
            bound: finite(bound),
        });
    }
}

impl fmt::Debug for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Watch")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_watch_hands_on_each_point_in_order_on_one_clock() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&seen);
        let watch = Watch::new(move |point| kept.lock().expect("not poisoned").push(point));
        watch.see("dp", Some(12.0), Some(3.0));
        watch.clone().see("highs", Some(f64::INFINITY), Some(-1e31));
        watch.see("highs", None, Some(4.0));
        let seen = seen.lock().expect("not poisoned");
        assert_eq!(seen.len(), 3);
        assert_eq!(
            (seen[0].source.as_str(), seen[0].incumbent, seen[0].bound),
            ("dp", Some(12.0), Some(3.0))
        );
        assert_eq!((seen[1].incumbent, seen[1].bound), (None, None));
        assert_eq!(
            (seen[2].source.as_str(), seen[2].bound),
            ("highs", Some(4.0))
        );
        assert!(seen.windows(2).all(|w| w[0].seconds <= w[1].seconds));
    }
}
