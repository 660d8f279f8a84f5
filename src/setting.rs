//! The names of the settings of a learning run ([`Setting`]): one table gives each its
//! command-line flag and its Python parameter name, and a refused setting ([`SettingError`])
//! is rendered with either set of names ([`Names`]) from the same error, so that `milptree
//! solve` says `--alpha` where the Python estimator says `alpha`. What the settings are and
//! how they are checked is [`crate::learn::settings`]; this module only names them, below
//! everything that reports them.

use std::fmt;

/// Which names a message uses: the command line's flags or the Python parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    CommandLine,
    Python,
}

macro_rules! settings {
    ($($(#[$doc:meta])* $name:ident => $flag:literal, $python:literal;)*) => {
        /// A setting of a learning run.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Setting {
            $($(#[$doc])* $name,)*
        }

        impl Setting {
            /// Every setting, in the table's order.
            pub const ALL: &'static [Setting] = &[$(Setting::$name,)*];

            /// The command line's flag (`--alpha`).
            pub fn flag(self) -> &'static str {
                match self {
                    $(Setting::$name => $flag,)*
                }
            }

            /// The Python estimator's parameter (`alpha`).
            pub fn python(self) -> &'static str {
                match self {
                    $(Setting::$name => $python,)*
                }
            }
        }
    };
}

settings! {
    /// The method: a formulation, or a search.
    Method => "--formulation", "method";
    /// The MIP solver of a formulation.
    Solver => "--solver", "solver";
    Depth => "--depth", "max_depth";
    Objective => "--objective", "objective";
    ClassWeight => "--class-weight", "class_weight";
    PositiveClass => "--positive-class", "positive_class";
    Alpha => "--alpha", "alpha";
    MinLeaf => "--min-leaf", "min_samples_leaf";
    MaxSplits => "--max-splits", "max_splits";
    LeafPenalty => "--leaf-penalty", "leaf_penalty";
    PaucTheta => "--pauc-theta", "pauc_theta";
    Thresholds => "--thresholds", "thresholds";
    Cuts => "--cuts", "cuts";
    Tangents => "--tangents", "tangents";
    C => "--c", "c";
    BigM => "--big-m", "big_m";
    Epsilon => "--epsilon", "epsilon";
    Univariate => "--univariate", "univariate";
    NoRefine => "--no-refine", "no_refine";
    WarmStart => "--warm-start", "warm_start";
    TimeLimit => "--time-limit", "time_limit";
    Threads => "--threads", "threads";
    MemoryLimit => "--memory-limit", "memory_limit";
    MipGap => "--mip-gap", "mip_gap";
    SolverOptions => "--solver-option", "solver_options";
    Log => "--log", "log";
    Certify => "--certify", "certify";
    DpBounds => "--dp-bounds", "dp_bounds";
    SeparationRounds => "--separation-rounds", "separation_rounds";
    /// Side constraints without a flag of their own (a constraints file, or the estimator's
    /// feature costs, budget, depths and positive class of the fairness rates).
    Constraints => "--constraints", "constraints";
    MaxFeatures => "--max-features", "max_features_used";
    MaxLeaves => "--max-leaves", "max_leaves";
    MinLeafRows => "--min-leaf-rows", "min_leaf_rows";
    MaxLeafRows => "--max-leaf-rows", "max_leaf_rows";
    ForbiddenFeatures => "--forbid-feature", "forbidden_features";
    GroupColumn => "--group-column", "group_column";
    AllowGroupAsFeature => "--allow-group-as-feature", "allow_group_as_feature";
    MaxParityGap => "--max-parity-gap", "max_parity_gap";
    MaxOpportunityGap => "--max-opportunity-gap", "max_opportunity_gap";
    /// Not a setting of learning: the data's row weights (the estimator's `fit` argument),
    /// named here so that messages about them name them as the caller does.
    RowWeights => "--weight-column", "sample_weight";
    /// Not a setting of learning: the smoothing of predicted probabilities.
    ProbaSmoothing => "--proba-smoothing", "proba_smoothing";
}

impl Setting {
    /// The name in `names`.
    pub fn name(self, names: Names) -> &'static str {
        match names {
            Names::CommandLine => self.flag(),
            Names::Python => self.python(),
        }
    }

    /// The setting whose flag is `flag`.
    pub fn of_flag(flag: &str) -> Option<Setting> {
        Setting::ALL.iter().copied().find(|s| s.flag() == flag)
    }

    /// The setting whose Python name is `name`.
    pub fn of_python(name: &str) -> Option<Setting> {
        Setting::ALL.iter().copied().find(|s| s.python() == name)
    }
}

/// A text in both sets of names (how a method is chosen: `--solver sparse`, `method='sparse'`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub command_line: String,
    pub python: String,
}

impl Named {
    /// A text that is the same in both sets of names.
    pub fn same(text: impl Into<String>) -> Named {
        let text = text.into();
        Named {
            command_line: text.clone(),
            python: text,
        }
    }

    pub fn get(&self, names: Names) -> &str {
        match names {
            Names::CommandLine => &self.command_line,
            Names::Python => &self.python,
        }
    }
}

/// Why a setting is refused.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    /// The chosen method (`method`) does not take it; `takers` lists the methods that do.
    DoesNotApply { method: Named, takers: String },
    /// It applies only when `other` has the value `value`.
    OnlyWith { other: Setting, value: String },
    /// It applies only to the method chosen by `method`; `hint` says what to give instead.
    OnlyFor {
        value: String,
        method: Named,
        hint: String,
    },
    /// The value `value` is not taken by the chosen method (`method`, because `why`, which
    /// may be empty); `takers` names the methods that take it.
    ValueDoesNotApply {
        value: String,
        method: Named,
        why: String,
        takers: Named,
    },
    /// A message that names no other setting.
    Invalid(String),
    /// A message that follows the name of the method chosen (`method`).
    OfMethod { method: Named, message: String },
}

/// A refused setting, rendered with the command line's names by `Display` and with either by
/// [`SettingError::render`].
#[derive(Debug, Clone, PartialEq)]
pub struct SettingError {
    pub setting: Setting,
    pub reason: Reason,
}

impl SettingError {
    pub fn invalid(setting: Setting, message: impl Into<String>) -> SettingError {
        SettingError {
            setting,
            reason: Reason::Invalid(message.into()),
        }
    }

    /// The message with `names`.
    pub fn render(&self, names: Names) -> String {
        let setting = self.setting.name(names);
        let reason = match &self.reason {
            Reason::DoesNotApply { method, takers } => format!(
                "does not apply to {} (it applies to {takers})",
                method.get(names)
            ),
            Reason::OnlyWith { other, value } => {
                let given = match names {
                    Names::CommandLine => format!("{} {value}", other.flag()),
                    Names::Python => format!("{}='{value}'", other.python()),
                };
                format!("applies to {given} only")
            }
            Reason::OnlyFor {
                value,
                method,
                hint,
            } => format!("`{value}` applies to {} only; {hint}", method.get(names)),
            Reason::ValueDoesNotApply {
                value,
                method,
                why,
                takers,
            } => format!(
                "{value} does not apply to {}{why}; it applies to {}",
                method.get(names),
                takers.get(names)
            ),
            Reason::Invalid(message) => message.clone(),
            Reason::OfMethod { method, message } => format!("{} {message}", method.get(names)),
        };
        format!("invalid {setting}: {reason}")
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Names::CommandLine))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_setting_has_a_distinct_flag_and_python_name() {
        let flags: HashSet<&str> = Setting::ALL.iter().map(|s| s.flag()).collect();
        let names: HashSet<&str> = Setting::ALL.iter().map(|s| s.python()).collect();
        assert_eq!(flags.len(), Setting::ALL.len());
        assert_eq!(names.len(), Setting::ALL.len());
        for &setting in Setting::ALL {
            assert!(setting.flag().starts_with("--"), "{setting:?}");
            assert!(!setting.python().contains('-'), "{setting:?}");
            assert_eq!(Setting::of_flag(setting.flag()), Some(setting));
            assert_eq!(Setting::of_python(setting.python()), Some(setting));
        }
    }

    #[test]
    fn one_error_renders_in_both_sets_of_names() {
        let error = SettingError {
            setting: Setting::PaucTheta,
            reason: Reason::OnlyWith {
                other: Setting::Objective,
                value: "pauc".into(),
            },
        };
        assert_eq!(
            error.to_string(),
            "invalid --pauc-theta: applies to --objective pauc only"
        );
        assert_eq!(
            error.render(Names::Python),
            "invalid pauc_theta: applies to objective='pauc' only"
        );
    }
}
