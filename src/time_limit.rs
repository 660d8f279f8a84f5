//! Time limits and budgets in seconds, as every command and entry point takes them, checked in
//! this one place: a number of seconds is usable when it is a number (not NaN), not negative,
//! and at most [`MAX_SECONDS`]. Past that bound a limit is no limit at all, and a `Duration`
//! of it added to an `Instant` would overflow. The command line checks its options with
//! [`parse_seconds`] (clap then names the option); the library checks its options with
//! [`check_seconds`] and [`check_limit`], naming the option in the error.

use std::time::Duration;

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

/// [`check_seconds`] for an optional limit (`None`: no limit).
pub fn check_limit(option: &str, limit: Option<f64>) -> Result<Option<Duration>> {
    limit
        .map(|seconds| check_seconds(option, seconds))
        .transpose()
}

/// Parses a number of seconds given on the command line and checks it as [`check_seconds`]
/// does; the message says what is wrong, and clap adds the option's name.
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
    fn the_command_line_parser_agrees_with_the_check() {
        for text in ["0", "0.25", "1e9", " 3 "] {
            let seconds = parse_seconds(text).expect("usable");
            assert!(check_seconds("x", seconds).is_ok());
        }
        for text in ["nan", "-1", "inf", "1e20", "", "ten", "1e999"] {
            assert!(parse_seconds(text).is_err(), "{text}");
        }
    }
}
