//! The settings of a front of false positives and false negatives: [`Settings::front`] turns
//! the [`Settings`] the command line (`milptree pareto`) or the Python extension
//! (`pareto_front`) filled into a [`FrontRequest`], refusing what the front's method does not
//! take by the capability table of [`super::capability`] and naming the setting as the caller
//! does ([`crate::setting`]).
//!
//! The front differs from a single tree's run in two ways: every front method counts two
//! classes, so each takes the positive class; and its methods are the bi-objective search and
//! the two formulations that count each class's errors (OCT, BinOCT), chosen on the command
//! line by the MIP solver (`--solver highs`).

use super::capability::{Capability, MethodKind};
use super::front::{FrontMethod, FrontRequest};
use super::settings::{capability_of, Settings};
use crate::budget::Budget;
use crate::data::ThresholdMode;
use crate::dp::DEFAULT_MEMORY_LIMIT_MB;
use crate::error::{Error, Result};
use crate::formulation::binoct::BinOct;
use crate::formulation::oct::Oct;
use crate::formulation::{AnyFormulation, Objective};
use crate::pareto::ParetoProblem;
use crate::setting::{Named, Reason, Setting, SettingError};
use crate::solver::SolverKind;

/// The methods that learn a front.
pub const FRONT_METHODS: [MethodKind; 3] = [MethodKind::Dp, MethodKind::Oct, MethodKind::BinOct];

/// The settings a front takes (each method of them as [`front_capability`] says).
pub const FRONT_SETTINGS: [Setting; 9] = [
    Setting::Method,
    Setting::Solver,
    Setting::Depth,
    Setting::PositiveClass,
    Setting::MaxSplits,
    Setting::Thresholds,
    Setting::TimeLimit,
    Setting::MemoryLimit,
    Setting::Threads,
];

/// What a front's method must take for `setting` (one of [`FRONT_SETTINGS`]) to apply; `None`:
/// every front method takes it. The positive class applies to every front (each counts two
/// classes), and the thresholds are checked by their value (OCT splits at every midpoint).
fn front_capability(setting: Setting) -> Option<Capability> {
    match setting {
        Setting::PositiveClass | Setting::Thresholds => None,
        other => capability_of(other),
    }
}

/// The front methods that take `capability`, as a list (`oct, binoct`).
fn front_takers(capability: Capability) -> String {
    let takers: Vec<&str> = FRONT_METHODS
        .iter()
        .filter(|m| m.takes(capability))
        .map(|m| m.name())
        .collect();
    takers.join(", ")
}

impl Settings {
    /// How the front's method is chosen: `--solver dp` or `--solver highs` on the command line
    /// (`pareto` chooses a formulation's front by its MIP solver), `method='oct'` in Python.
    fn front_chosen(&self) -> Named {
        let command_line = match self.method {
            MethodKind::Dp => "--solver dp".to_string(),
            _ => format!(
                "--solver {}",
                self.solver.unwrap_or(SolverKind::Highs).name()
            ),
        };
        Named {
            command_line,
            python: format!("method='{}'", self.method.name()),
        }
    }

    /// Fails on the first setting given (in the table's order) that the front, or its
    /// method, does not take.
    fn refuse_what_the_front_does_not_take(&self) -> Result<()> {
        match self.method {
            MethodKind::Dp | MethodKind::Oct | MethodKind::BinOct => {}
            MethodKind::Sparse | MethodKind::MaxFp => {
                return Err(SettingError::invalid(
                    Setting::Method,
                    format!(
                        "{} has no front: dp is the bi-objective search, oct and binoct the \
                         epsilon-constraint method's formulations",
                        self.method.name()
                    ),
                )
                .into())
            }
            MethodKind::FlowOct | MethodKind::Olct => {
                return Err(SettingError::invalid(
                    Setting::Method,
                    format!(
                        "{} cannot count each class's errors; the front's MILPs are oct and \
                         binoct",
                        self.method.name()
                    ),
                )
                .into())
            }
        }
        for &setting in Setting::ALL {
            if !self.is_given(setting) {
                continue;
            }
            if !FRONT_SETTINGS.contains(&setting) {
                return Err(SettingError::invalid(setting, "does not apply to a front").into());
            }
            let Some(needs) = front_capability(setting) else {
                continue;
            };
            if !self.method.takes(needs) {
                return Err(SettingError {
                    setting,
                    reason: Reason::DoesNotApply {
                        method: self.front_chosen(),
                        takers: front_takers(needs),
                    },
                }
                .into());
            }
        }
        Ok(())
    }

    /// The front these settings describe, checked: its method, problem, budget (no interrupt
    /// flag; the caller adds it), cache and threads. The positive class stays here, for the
    /// caller to make the data two-class ([`crate::pareto::binary_data`]).
    pub fn front(&self) -> Result<FrontRequest> {
        self.refuse_what_the_front_does_not_take()?;
        let depth = self.levels()?;
        let thresholds = self.thresholds;
        let method = match self.method {
            MethodKind::Dp => {
                if self.threads == Some(0) {
                    return Err(Error::parameter("--threads", "must be at least 1"));
                }
                FrontMethod::Search
            }
            MethodKind::Oct if thresholds == Some(ThresholdMode::ClassBoundary) => {
                return Err(Error::parameter(
                    "--thresholds",
                    "OCT splits at every midpoint; class-boundary applies to binoct",
                ))
            }
            kind => FrontMethod::Epsilon {
                formulation: if kind == MethodKind::Oct {
                    AnyFormulation::Oct(Oct::new(depth))
                } else {
                    AnyFormulation::BinOct(BinOct {
                        thresholds: thresholds.unwrap_or(ThresholdMode::All),
                        objective: Objective::Accuracy,
                        ..BinOct::new(depth)
                    })
                },
                solver: self.solver.unwrap_or(SolverKind::Highs),
                threads: self.threads,
            },
        };
        let threads = match method {
            FrontMethod::Search => self.threads.unwrap_or(1),
            FrontMethod::Epsilon { .. } => 1,
        };
        Ok(FrontRequest {
            problem: ParetoProblem {
                depth,
                max_splits: self.max_splits,
                thresholds: thresholds.unwrap_or(ThresholdMode::All),
            },
            method,
            budget: self.time_limit.map_or_else(Budget::unlimited, Budget::of),
            memory_limit_mb: self.memory_limit.unwrap_or(DEFAULT_MEMORY_LIMIT_MB),
            threads,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setting::Names;

    fn front(json: &str) -> Result<FrontRequest> {
        Settings::from_json(json)?.front()
    }

    fn refusal(json: &str) -> (String, String) {
        let error = front(json).expect_err("refused");
        assert_eq!(error.exit_code(), 2, "{error}");
        (error.to_string(), error.render(Names::Python))
    }

    #[test]
    fn the_front_settings_give_the_method_problem_and_budget() {
        let request = front(
            r#"{"method": "dp", "max_depth": 2, "max_splits": 2, "threads": 2,
                "time_limit": 1.5, "memory_limit": 64}"#,
        )
        .unwrap();
        assert_eq!(request.method, FrontMethod::Search);
        assert_eq!(
            (request.problem.depth, request.problem.max_splits),
            (2, Some(2))
        );
        assert_eq!((request.threads, request.memory_limit_mb), (2, 64));
        assert_eq!(request.budget.limit_seconds(), Some(1.5));
        let request = front(
            r#"{"method": "binoct", "max_depth": 1, "solver": "cbc",
                "thresholds": "class-boundary", "positive_class": "a"}"#,
        )
        .unwrap();
        let FrontMethod::Epsilon {
            formulation,
            solver,
            ..
        } = &request.method
        else {
            panic!("{:?}", request.method)
        };
        assert_eq!((formulation.name(), *solver), ("binoct", SolverKind::Cbc));
        assert_eq!(request.problem.thresholds, ThresholdMode::ClassBoundary);
        assert_eq!(request.threads, 1);
    }

    /// Every front setting with a capability, given to every front method that lacks it, is
    /// refused naming it in both sets of names, the method as each caller chooses it and the
    /// front methods that take it.
    #[test]
    fn a_setting_the_front_method_does_not_take_is_refused_by_name() {
        let mut refused = 0;
        for setting in FRONT_SETTINGS {
            let Some(needs) = front_capability(setting) else {
                continue;
            };
            for method in FRONT_METHODS {
                let value = match setting {
                    Setting::Solver => "\"cbc\"".to_string(),
                    _ => "2".to_string(),
                };
                let json = format!(
                    r#"{{"method": "{}", "max_depth": 1, "{}": {value}}}"#,
                    method.name(),
                    setting.python()
                );
                if method.takes(needs) {
                    assert!(front(&json).is_ok(), "{json}");
                    continue;
                }
                let (flag, python) = refusal(&json);
                let takers = front_takers(needs);
                assert!(
                    flag.starts_with(&format!(
                        "invalid {}: does not apply to --solver ",
                        setting.flag()
                    )) && flag.ends_with(&format!("(it applies to {takers})")),
                    "{flag}"
                );
                assert_eq!(
                    python,
                    format!(
                        "invalid {}: does not apply to method='{}' (it applies to {takers})",
                        setting.python(),
                        method.name()
                    )
                );
                refused += 1;
            }
        }
        // max_splits and memory_limit for oct and binoct, solver for dp.
        assert_eq!(refused, 5);
    }

    #[test]
    fn a_method_without_a_front_and_a_setting_beyond_it_are_refused() {
        let (_, python) = refusal(r#"{"method": "sparse", "max_depth": 1}"#);
        assert!(
            python.starts_with("invalid method: sparse has no front"),
            "{python}"
        );
        let (flag, python) = refusal(r#"{"method": "flowoct", "max_depth": 1}"#);
        assert_eq!(
            flag,
            "invalid --formulation: flowoct cannot count each class's errors; the front's MILPs \
             are oct and binoct"
        );
        assert!(
            python.starts_with("invalid method: flowoct cannot"),
            "{python}"
        );
        let (flag, python) = refusal(r#"{"method": "dp", "max_depth": 1, "alpha": 0.1}"#);
        assert_eq!(flag, "invalid --alpha: does not apply to a front");
        assert_eq!(python, "invalid alpha: does not apply to a front");
        let (_, python) = refusal(r#"{"method": "dp"}"#);
        assert!(
            python.starts_with("invalid max_depth: is needed"),
            "{python}"
        );
        let (_, python) = refusal(r#"{"method": "dp", "max_depth": 1, "threads": 0}"#);
        assert_eq!(python, "invalid threads: must be at least 1");
        let (flag, python) =
            refusal(r#"{"method": "oct", "max_depth": 1, "thresholds": "class-boundary"}"#);
        assert!(
            flag.starts_with("invalid --thresholds: OCT splits"),
            "{flag}"
        );
        assert!(
            python.starts_with("invalid thresholds: OCT splits"),
            "{python}"
        );
    }
}
