//! The time a run may take, checked in this one place. A number of seconds is usable when it is
//! a number (not NaN), not negative, and at most [`MAX_SECONDS`]: past that bound a limit is no
//! limit at all, and a `Duration` of it added to an `Instant` would overflow. A limit is checked
//! where it enters: the command line (and the Python module, which goes through it) with
//! [`parse_budget`] and [`parse_duration`], whose parser then names the option; grid files with
//! [`check_seconds`]; any other caller with [`Budget::limit`], which names the option in the
//! error. Below the entry points a run holds a [`Budget`] or a `Duration`, valid by
//! construction: a limit, the interrupt flag, and the shares of what remains that the run hands
//! to its phases (warm start, certificate, a reference search). Reports, run keys and job lines
//! give a limit in seconds by [`seconds_of`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// The largest time limit, in seconds: 1e9 s, about 31 years.
pub const MAX_SECONDS: f64 = 1e9;

/// Why `seconds` is not a usable time limit, if it is not.
fn problem(seconds: f64) -> Option<String> {
    if !(0.0..=MAX_SECONDS).contains(&seconds) {
        let shown = if seconds.abs() > MAX_SECONDS {
            format!("{seconds:e}")
        } else {
            seconds.to_string()
        };
        Some(format!(
            "{shown} is not a number of seconds from 0 to {MAX_SECONDS:e}"
        ))
    } else {
        None
    }
}

/// `seconds` as a [`Duration`]; an error naming `option` when it is NaN, negative, infinite or
/// above [`MAX_SECONDS`].
pub fn check_seconds(option: &str, seconds: f64) -> Result<Duration> {
    match problem(seconds) {
        Some(message) => Err(Error::parameter(option, message)),
        None => Ok(Duration::from_secs_f64(seconds)),
    }
}

/// `duration` in seconds: the number whose shortest decimal form is the duration's to the
/// nanosecond, so that a limit given as `1.118` (or any number of seconds with at most nine
/// decimals) comes back as `1.118` (`Duration::as_secs_f64` adds the whole seconds and the
/// fraction as two numbers, and rounds twice: `1.1179999999999999`). Reports, run keys and
/// job lines print a limit through this.
pub fn seconds_of(duration: Duration) -> f64 {
    // Rust's parsing of a decimal is correctly rounded: one rounding, from the exact value.
    format!("{}.{:09}", duration.as_secs(), duration.subsec_nanos())
        .parse()
        .unwrap_or(duration.as_secs_f64())
}

/// [`check_seconds`] for an optional limit (`None`: no limit).
pub fn check_limit(option: &str, limit: Option<f64>) -> Result<Option<Duration>> {
    limit
        .map(|seconds| check_seconds(option, seconds))
        .transpose()
}

/// The time a run may take, from when it starts: a checked limit (`None`: no limit) and the
/// flag that interrupts it (e.g. set by a Ctrl-C handler). A run measures its own elapsed time
/// and hands its phases what remains ([`Budget::after`]) or a share of it ([`Budget::share`]).
#[derive(Debug, Clone, Default)]
pub struct Budget {
    limit: Option<Duration>,
    interrupt: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limit and no interrupt flag.
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// A limit of `seconds` (`None`: no limit); an error naming `option` when it is NaN,
    /// negative, infinite or above [`MAX_SECONDS`].
    pub fn limit(option: &str, seconds: Option<f64>) -> Result<Budget> {
        Ok(Budget {
            limit: check_limit(option, seconds)?,
            interrupt: None,
        })
    }

    /// A limit of `seconds`, for the library's own code and tests: a limit outside the usable
    /// range is clamped into it (NaN or negative: 0; above [`MAX_SECONDS`]: no limit).
    pub fn seconds(seconds: f64) -> Budget {
        let limit = if seconds > MAX_SECONDS {
            None
        } else if seconds >= 0.0 {
            Some(Duration::from_secs_f64(seconds))
        } else {
            Some(Duration::ZERO)
        };
        Budget {
            limit,
            interrupt: None,
        }
    }

    /// A limit of `limit`, already a duration.
    pub fn of(limit: Duration) -> Budget {
        Budget {
            limit: Some(limit),
            interrupt: None,
        }
    }

    /// A limit already checked where it entered ([`parse_seconds`]; `None`: no limit).
    pub fn parsed(seconds: Option<f64>) -> Budget {
        seconds.map_or_else(Budget::unlimited, Budget::seconds)
    }

    /// This budget, interrupted when `flag` is set.
    pub fn with_interrupt(mut self, flag: Option<Arc<AtomicBool>>) -> Budget {
        self.interrupt = flag;
        self
    }

    /// The limit in seconds (`None`: no limit), as reports give it.
    pub fn limit_seconds(&self) -> Option<f64> {
        self.limit.map(seconds_of)
    }

    /// The limit (`None`: no limit).
    pub fn duration(&self) -> Option<Duration> {
        self.limit
    }

    /// The interrupt flag, if there is one.
    pub fn interrupt(&self) -> Option<&Arc<AtomicBool>> {
        self.interrupt.as_ref()
    }

    /// Whether the interrupt flag is set.
    pub fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether a run started at `start` has used up the limit (or was interrupted).
    pub fn spent_since(&self, start: Instant) -> bool {
        self.interrupted() || self.limit.is_some_and(|limit| start.elapsed() >= limit)
    }

    /// What remains after `elapsed`, never below zero; the same interrupt flag.
    pub fn after(&self, elapsed: Duration) -> Budget {
        Budget {
            limit: self.limit.map(|limit| limit.saturating_sub(elapsed)),
            interrupt: self.interrupt.clone(),
        }
    }

    /// What remains of a run started at `start`.
    pub fn left_since(&self, start: Instant) -> Budget {
        self.after(start.elapsed())
    }

    /// `fraction` (from 0 to 1) of the limit, for one phase of a run; no limit stays no limit.
    pub fn share(&self, fraction: f64) -> Budget {
        Budget {
            limit: self
                .limit
                .map(|limit| limit.mul_f64(fraction.clamp(0.0, 1.0))),
            interrupt: self.interrupt.clone(),
        }
    }

    /// The limit, or `seconds` if that is less (a phase with a cap of its own).
    pub fn at_most(&self, seconds: Duration) -> Budget {
        Budget {
            limit: Some(self.limit.map_or(seconds, |limit| limit.min(seconds))),
            interrupt: self.interrupt.clone(),
        }
    }

    /// The time from now until `deadline` (none past it; `None`: no limit), with this budget's
    /// interrupt flag.
    pub fn until(&self, deadline: Option<Instant>) -> Budget {
        Budget {
            limit: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            interrupt: self.interrupt.clone(),
        }
    }

    /// The limit less `reserve` (kept for a later phase), never below zero.
    pub fn less(&self, reserve: Duration) -> Budget {
        self.after(reserve)
    }

    /// The wall-clock instant at which a run started at `start` has used up the limit (`None`:
    /// no limit, or one too far to represent).
    pub fn deadline_from(&self, start: Instant) -> Option<Instant> {
        self.limit.and_then(|limit| start.checked_add(limit))
    }
}

/// Parses a time limit given on the command line into a [`Budget`], checked as
/// [`parse_seconds`] checks it.
pub fn parse_budget(text: &str) -> std::result::Result<Budget, String> {
    parse_seconds(text).map(Budget::seconds)
}

/// Parses a number of seconds given on the command line into a [`Duration`], checked as
/// [`parse_seconds`] checks it.
pub fn parse_duration(text: &str) -> std::result::Result<Duration, String> {
    parse_seconds(text).map(Duration::from_secs_f64)
}

/// Parses a number of seconds given on the command line and checks it as [`check_seconds`]
/// does; the message says what is wrong, and the command line's parser adds the option's name.
pub fn parse_seconds(text: &str) -> std::result::Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    match problem(seconds) {
        Some(message) => Err(message),
        None => Ok(seconds),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usable_limits_pass_and_the_others_name_the_option() {
        for seconds in [0.0, 1e-9, 0.5, 60.0, MAX_SECONDS] {
            let duration = check_seconds("--time-limit", seconds).expect("usable");
            assert_eq!(duration.as_secs_f64(), seconds);
        }
        for seconds in [
            f64::NAN,
            -1.0,
            -0.0 - 1e-12,
            f64::INFINITY,
            f64::NEG_INFINITY,
            MAX_SECONDS * 1.000001,
            1e20,
            f64::MAX,
        ] {
            let error = check_seconds("--certify", seconds).expect_err("refused");
            assert_eq!(error.exit_code(), 2);
            assert!(error.to_string().contains("--certify"), "{error}");
        }
        assert_eq!(check_limit("x", None).expect("no limit"), None);
    }

    #[test]
    fn a_budget_hands_its_phases_what_remains_and_shares_of_it() {
        let budget = Budget::limit("--time-limit", Some(10.0)).expect("usable");
        assert_eq!(budget.limit_seconds(), Some(10.0));
        assert_eq!(
            budget.after(Duration::from_secs(4)).limit_seconds(),
            Some(6.0)
        );
        assert_eq!(
            budget.after(Duration::from_secs(40)).limit_seconds(),
            Some(0.0)
        );
        assert_eq!(budget.share(0.25).limit_seconds(), Some(2.5));
        assert_eq!(
            budget.at_most(Duration::from_secs(3)).limit_seconds(),
            Some(3.0)
        );
        assert_eq!(Budget::unlimited().share(0.5).limit_seconds(), None);
        assert_eq!(
            Budget::unlimited()
                .at_most(Duration::from_secs(3))
                .limit_seconds(),
            Some(3.0)
        );
        assert!(Budget::limit("--time-limit", Some(-1.0)).is_err());
        assert_eq!(Budget::seconds(f64::NAN).limit_seconds(), Some(0.0));
        assert_eq!(Budget::seconds(1e12).limit_seconds(), None);
        let flag = Arc::new(AtomicBool::new(false));
        let interruptible = Budget::unlimited().with_interrupt(Some(flag.clone()));
        assert!(!interruptible.share(0.5).interrupted());
        flag.store(true, Ordering::Relaxed);
        assert!(interruptible.after(Duration::ZERO).interrupted());
        assert!(interruptible.spent_since(Instant::now()));
        assert!(Budget::seconds(0.0).spent_since(Instant::now()));
    }

    #[test]
    fn a_limit_in_seconds_comes_back_as_given() {
        // `as_secs_f64` rounds twice: the reason for `seconds_of`.
        assert_eq!(
            Duration::from_millis(1118).as_secs_f64(),
            1.1179999999999999
        );
        assert_eq!(seconds_of(Duration::from_millis(1118)), 1.118);
        assert_eq!(Budget::parsed(Some(1.118)).limit_seconds(), Some(1.118));
        let mut drifted = 0;
        for millis in 1..=2_000_000u64 {
            let seconds = millis as f64 / 1000.0;
            assert_eq!(seconds_of(Duration::from_secs_f64(seconds)), seconds);
            drifted += usize::from(Duration::from_secs_f64(seconds).as_secs_f64() != seconds);
        }
        assert!(drifted > 0, "as_secs_f64 no longer rounds twice");
        // Nine decimals at any magnitude up to the largest limit, from a fixed sequence.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let text = format!(
                "{}.{:09}",
                (state >> 34) % 1_000_000_000,
                state % 1_000_000_000
            );
            let seconds: f64 = text.parse().expect("a number");
            let duration = parse_duration(&text).expect("usable");
            assert_eq!(seconds_of(duration), seconds, "{text}");
        }
        assert_eq!(seconds_of(Duration::from_secs(1_000_000_000)), MAX_SECONDS);
        assert_eq!(seconds_of(Duration::ZERO), 0.0);
    }

    #[test]
    fn the_command_line_parser_agrees_with_the_check() {
        for text in ["0", "0.25", "1e9", " 3 "] {
            let seconds = parse_seconds(text).expect("usable");
            assert!(check_seconds("x", seconds).is_ok());
        }
        for text in ["nan", "-1", "inf", "1e20", "", "ten", "1e999"] {
            assert!(parse_seconds(text).is_err(), "{text}");
            assert!(parse_duration(text).is_err(), "{text}");
        }
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
    }
}
