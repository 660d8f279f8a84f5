//! The settings of one learning run, below every caller ([`Settings`]): the method and its
//! parameters, the run's options and the side constraints, as plain values. The command line
//! (`solve`, from its flags) and the Python extension (from the estimator's parameters, as
//! JSON keyed by their names: [`Settings::from_json`]) fill one, and [`Settings::build`] checks
//! it and gives the [`Method`] and the [`LearnOptions`]: a setting given for a method that
//! does not take it is refused here, by the capability table of [`super::capability`], naming
//! the setting in the caller's names ([`crate::setting`]).
//!
//! A new setting: a row of [`crate::setting`]'s table, a field here, the capability it needs
//! ([`capability_of`]), and where it goes in [`Settings::build`].

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::capability::{self, Capability, MethodKind};
use super::objective::ObjectiveName;
use super::search_rows::DpBounds;
use super::{DpParams, LearnOptions, Method, SparseParams, WarmStartMode};
use crate::budget::{check_seconds, Budget};
use crate::constraints::ConstraintSpec;
use crate::data::ThresholdMode;
use crate::error::{Error, Result};
use crate::formulation::binoct::BinOctParams;
use crate::formulation::cuts::Cuts;
use crate::formulation::flowoct::FlowOctParams;
use crate::formulation::oct::OctParams;
use crate::formulation::olct::{OlctParams, TangentSet};
use crate::formulation::{AnyFormulation, FormulationName, FormulationParams, Objective};
use crate::learn::sparse_search::ClassWeight;
use crate::setting::{Reason, Setting, SettingError};
use crate::solver::{Progress, SolverKind};

/// The certificate's budget when none is given.
pub const DEFAULT_CERTIFY: Duration = Duration::from_secs(5);

/// The depth of a tree: a number of levels, or no cap (the sparse search only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    Levels(usize),
    Unbounded,
}

/// The settings of one run; `None` (or empty, or false) is "not given": the method's default.
#[derive(Debug, Clone)]
pub struct Settings {
    pub method: MethodKind,
    pub solver: Option<SolverKind>,
    pub depth: Option<Depth>,
    pub objective: Option<ObjectiveName>,
    pub class_weight: Vec<ClassWeight>,
    pub positive_class: Option<String>,
    pub alpha: Option<f64>,
    pub min_leaf: Option<usize>,
    pub max_splits: Option<usize>,
    pub leaf_penalty: Option<f64>,
    pub pauc_theta: Option<f64>,
    pub thresholds: Option<ThresholdMode>,
    pub cuts: Option<Cuts>,
    pub tangents: Option<u8>,
    pub c: Option<Vec<f64>>,
    pub big_m: Option<f64>,
    pub epsilon: Option<f64>,
    pub univariate: bool,
    pub no_refine: bool,
    pub warm_start: Option<WarmStartMode>,
    /// Checked where it entered.
    pub time_limit: Option<Duration>,
    pub threads: Option<usize>,
    pub memory_limit: Option<usize>,
    pub mip_gap: Option<f64>,
    pub solver_options: Vec<(String, String)>,
    pub log: bool,
    /// `Some(None)`: no certificate.
    pub certify: Option<Option<Duration>>,
    pub dp_bounds: Option<DpBounds>,
    pub separation_rounds: Option<usize>,
    /// Side constraints given as a set (a constraints file, or keys without a setting of
    /// their own); the settings below add to it.
    pub constraints: Option<ConstraintSpec>,
    pub max_features: Option<usize>,
    pub max_leaves: Option<usize>,
    pub min_leaf_rows: Option<usize>,
    pub max_leaf_rows: Option<usize>,
    pub forbidden_features: Vec<String>,
    pub group_column: Option<String>,
    pub allow_group_as_feature: bool,
    pub max_parity_gap: Option<f64>,
    pub max_opportunity_gap: Option<f64>,
}

impl Settings {
    /// Nothing given but the method.
    pub fn new(method: MethodKind) -> Settings {
        Settings {
            method,
            solver: None,
            depth: None,
            objective: None,
            class_weight: Vec::new(),
            positive_class: None,
            alpha: None,
            min_leaf: None,
            max_splits: None,
            leaf_penalty: None,
            pauc_theta: None,
            thresholds: None,
            cuts: None,
            tangents: None,
            c: None,
            big_m: None,
            epsilon: None,
            univariate: false,
            no_refine: false,
            warm_start: None,
            time_limit: None,
            threads: None,
            memory_limit: None,
            mip_gap: None,
            solver_options: Vec::new(),
            log: false,
            certify: None,
            dp_bounds: None,
            separation_rounds: None,
            constraints: None,
            max_features: None,
            max_leaves: None,
            min_leaf_rows: None,
            max_leaf_rows: None,
            forbidden_features: Vec::new(),
            group_column: None,
            allow_group_as_feature: false,
            max_parity_gap: None,
            max_opportunity_gap: None,
        }
    }

    /// Whether `setting` is given.
    pub fn is_given(&self, setting: Setting) -> bool {
        use Setting as S;
        match setting {
            S::Method => true,
            S::Solver => self.solver.is_some(),
            S::Depth => self.depth.is_some(),
            S::Objective => self.objective.is_some(),
            S::ClassWeight => !self.class_weight.is_empty(),
            S::PositiveClass => self.positive_class.is_some(),
            S::Alpha => self.alpha.is_some(),
            S::MinLeaf => self.min_leaf.is_some(),
            S::MaxSplits => self.max_splits.is_some(),
            S::LeafPenalty => self.leaf_penalty.is_some(),
            S::PaucTheta => self.pauc_theta.is_some(),
            S::Thresholds => self.thresholds.is_some(),
            S::Cuts => self.cuts.is_some(),
            S::Tangents => self.tangents.is_some(),
            S::C => self.c.is_some(),
            S::BigM => self.big_m.is_some(),
            S::Epsilon => self.epsilon.is_some(),
            S::Univariate => self.univariate,
            S::NoRefine => self.no_refine,
            S::WarmStart => self.warm_start.is_some(),
            S::TimeLimit => self.time_limit.is_some(),
            S::Threads => self.threads.is_some(),
            S::MemoryLimit => self.memory_limit.is_some(),
            S::MipGap => self.mip_gap.is_some(),
            S::SolverOptions => !self.solver_options.is_empty(),
            S::Log => self.log,
            S::Certify => self.certify.is_some(),
            S::DpBounds => self.dp_bounds.is_some(),
            S::SeparationRounds => self.separation_rounds.is_some(),
            S::Constraints => self.constraints.is_some(),
            S::MaxFeatures => self.max_features.is_some(),
            S::MaxLeaves => self.max_leaves.is_some(),
            S::MinLeafRows => self.min_leaf_rows.is_some(),
            S::MaxLeafRows => self.max_leaf_rows.is_some(),
            S::ForbiddenFeatures => !self.forbidden_features.is_empty(),
            S::GroupColumn => self.group_column.is_some(),
            S::AllowGroupAsFeature => self.allow_group_as_feature,
            S::MaxParityGap => self.max_parity_gap.is_some(),
            S::MaxOpportunityGap => self.max_opportunity_gap.is_some(),
            S::RowWeights | S::ProbaSmoothing => false,
        }
    }

    /// Fails on the first setting given (in the table's order) that the method does not take,
    /// naming it, the method and the methods that take it.
    pub fn refuse_what_does_not_apply(&self) -> Result<()> {
        for &setting in Setting::ALL {
            let Some(needs) = capability_of(setting) else {
                continue;
            };
            if self.is_given(setting) && !self.method.takes(needs) {
                return Err(SettingError {
                    setting,
                    reason: Reason::DoesNotApply {
                        method: self.method.chosen(),
                        takers: capability::takers(needs),
                    },
                }
                .into());
            }
        }
        Ok(())
    }

    /// The method and the run's options these settings describe, checked. The options hide
    /// progress and have no interrupt flag (the caller adds them).
    pub fn build(&self) -> Result<(Method, LearnOptions)> {
        self.refuse_what_does_not_apply()?;
        let method = self.method()?;
        let options = LearnOptions {
            budget: self.time_limit.map_or_else(Budget::unlimited, Budget::of),
            mip_rel_gap: self.mip_gap.unwrap_or(0.0),
            threads: self.threads,
            solver_options: self.solver_options.clone(),
            log: self.log,
            progress: Progress::Hidden,
            warm_start: self.warm_start.unwrap_or(WarmStartMode::Best),
            certify: self.certify.unwrap_or(Some(DEFAULT_CERTIFY)),
            dp_bounds: self.dp_bounds.unwrap_or_default(),
            separation_rounds: self
                .separation_rounds
                .unwrap_or(super::separation::DEFAULT_ROUNDS),
            constraints: self.constraint_spec(),
            ..LearnOptions::default()
        };
        Ok((method, options))
    }

    /// The side constraints: the set given, with the settings of their own added.
    pub fn constraint_spec(&self) -> Option<ConstraintSpec> {
        let mut spec = self.constraints.clone().unwrap_or_default();
        let keep = |given: Option<usize>, into: &mut Option<usize>| {
            if given.is_some() {
                *into = given;
            }
        };
        keep(self.max_features, &mut spec.max_features);
        keep(self.max_leaves, &mut spec.max_leaves);
        keep(self.max_leaf_rows, &mut spec.max_leaf_rows);
        keep(self.min_leaf_rows, &mut spec.min_leaf_rows);
        spec.forbidden
            .extend(self.forbidden_features.iter().cloned());
        spec.forbidden_by_setting
            .extend(self.forbidden_features.iter().cloned());
        spec.overlay_fairness(
            &self.group_column,
            self.allow_group_as_feature,
            self.max_parity_gap,
            self.max_opportunity_gap,
        );
        (!spec.is_empty()).then_some(spec)
    }

    /// The depth of a method that needs one (every method but the sparse search).
    pub(crate) fn levels(&self) -> Result<usize> {
        match self.depth {
            Some(Depth::Levels(depth)) => Ok(depth),
            Some(Depth::Unbounded) => Err(SettingError {
                setting: Setting::Depth,
                reason: Reason::OnlyFor {
                    value: "none".into(),
                    method: MethodKind::Sparse.chosen(),
                    hint: "give a number of levels".into(),
                },
            }
            .into()),
            None => {
                Err(SettingError::invalid(Setting::Depth, "is needed: a number of levels").into())
            }
        }
    }

    /// The method, its parameters checked.
    pub fn method(&self) -> Result<Method> {
        let name = match self.method {
            MethodKind::Dp => return self.dp(),
            MethodKind::Sparse => return self.sparse(),
            MethodKind::MaxFp => {
                return Err(Error::Internal(
                    "the model of one point of the front is not a method to learn with".into(),
                ))
            }
            MethodKind::Oct => FormulationName::Oct,
            MethodKind::BinOct => FormulationName::BinOct,
            MethodKind::FlowOct => FormulationName::FlowOct,
            MethodKind::Olct => FormulationName::Olct,
        };
        Ok(Method::Milp {
            formulation: self.formulation(name)?,
            solver: self.solver.unwrap_or(SolverKind::Highs),
        })
    }

    fn dp(&self) -> Result<Method> {
        let defaults = DpParams::default();
        let params = DpParams {
            objective: self
                .objective
                .map(ObjectiveName::for_dp)
                .transpose()?
                .unwrap_or(defaults.objective),
            alpha: self.alpha.unwrap_or(defaults.alpha),
            min_leaf: self.min_leaf.unwrap_or(defaults.min_leaf),
            thresholds: self.thresholds.unwrap_or(defaults.thresholds),
            max_splits: self.max_splits,
            memory_limit: self.memory_limit.unwrap_or(defaults.memory_limit),
            positive_class: self.positive_class.clone(),
            class_weights: self.class_weight.clone(),
        };
        Ok(Method::Dp(params.check(self.levels()?)?))
    }

    fn sparse(&self) -> Result<Method> {
        let defaults = SparseParams::default();
        let objective = self
            .objective
            .map(ObjectiveName::for_sparse)
            .transpose()?
            .unwrap_or(defaults.objective);
        let pauc_theta = match self.pauc_theta {
            Some(_) if objective != crate::learn::sparse_search::SparseObjective::Pauc => {
                return Err(SettingError {
                    setting: Setting::PaucTheta,
                    reason: Reason::OnlyWith {
                        other: Setting::Objective,
                        value: "pauc".into(),
                    },
                }
                .into())
            }
            Some(theta) => theta,
            None => defaults.pauc_theta,
        };
        let params = SparseParams {
            objective,
            leaf_penalty: self.leaf_penalty.unwrap_or(defaults.leaf_penalty),
            class_weights: self.class_weight.clone(),
            pauc_theta,
            positive_class: self.positive_class.clone(),
            thresholds: self.thresholds.unwrap_or(defaults.thresholds),
            memory_limit: self.memory_limit.unwrap_or(defaults.memory_limit),
        };
        let depth = match self.depth {
            Some(Depth::Levels(depth)) => Some(depth),
            Some(Depth::Unbounded) | None => None,
        };
        Ok(Method::Sparse(params.check(depth)?))
    }

    /// The parameters these settings give formulation `name` (defaults for the others).
    pub fn formulation_params(&self, name: FormulationName) -> Result<FormulationParams> {
        let objective: Option<Objective> = self
            .objective
            .map(|o| o.for_milp(MethodKind::formulation(name)))
            .transpose()?;
        let class_weights = self.class_weight.clone();
        Ok(match name {
            FormulationName::Oct => {
                let defaults = OctParams::default();
                FormulationParams::Oct(OctParams {
                    alpha: self.alpha.unwrap_or(defaults.alpha),
                    min_leaf: self.min_leaf.unwrap_or(defaults.min_leaf),
                    objective: objective.unwrap_or(defaults.objective),
                    leaf_penalty: self.leaf_penalty.unwrap_or(defaults.leaf_penalty),
                    class_weights,
                    cuts: self.cuts.unwrap_or(defaults.cuts),
                })
            }
            FormulationName::BinOct => {
                let defaults = BinOctParams::default();
                FormulationParams::BinOct(BinOctParams {
                    thresholds: self.thresholds.unwrap_or(defaults.thresholds),
                    objective: objective.unwrap_or(defaults.objective),
                    leaf_penalty: self.leaf_penalty.unwrap_or(defaults.leaf_penalty),
                    class_weights,
                })
            }
            FormulationName::FlowOct => {
                let defaults = FlowOctParams::default();
                FormulationParams::FlowOct(FlowOctParams {
                    thresholds: self.thresholds.unwrap_or(defaults.thresholds),
                    objective: objective.unwrap_or(defaults.objective),
                    class_weights,
                })
            }
            FormulationName::Olct => {
                let defaults = OlctParams::default();
                FormulationParams::Olct(OlctParams {
                    positive_class: self.positive_class.clone(),
                    tangents: match self.tangents {
                        Some(index) => TangentSet::from_index(usize::from(index))?,
                        None => defaults.tangents,
                    },
                    c: self.c.clone().unwrap_or(defaults.c),
                    big_m: self.big_m.unwrap_or(defaults.big_m),
                    epsilon: self.epsilon.unwrap_or(defaults.epsilon),
                    univariate: self.univariate,
                    refine: !self.no_refine,
                    class_weights,
                })
            }
        })
    }

    /// The formulation these settings describe, its parameters checked.
    pub fn formulation(&self, name: FormulationName) -> Result<AnyFormulation> {
        self.formulation_params(name)?.check(self.levels()?)
    }
}

/// What a method must take for `setting` to apply (`None`: every method takes it).
pub fn capability_of(setting: Setting) -> Option<Capability> {
    use Capability as C;
    use Setting as S;
    Some(match setting {
        S::Method | S::Depth | S::TimeLimit | S::RowWeights | S::ProbaSmoothing => return None,
        S::Solver | S::MipGap | S::SolverOptions | S::Log => C::MipSolver,
        S::Objective => C::ErrorCost,
        S::ClassWeight => C::ClassWeights,
        S::PositiveClass => C::PositiveClass,
        S::Alpha | S::MinLeaf => C::SplitCostAndLeafMinimum,
        S::MaxSplits => C::SplitLimit,
        S::LeafPenalty => C::LeafPenalty,
        S::PaucTheta => C::SparseLoss,
        S::Thresholds => C::Thresholds,
        S::Cuts => C::Cuts,
        S::Tangents | S::C | S::BigM | S::Epsilon | S::Univariate | S::NoRefine => {
            C::LogisticSplits
        }
        S::WarmStart => C::WarmStart,
        S::Threads => C::Threads,
        S::MemoryLimit => C::SearchCache,
        S::Certify | S::DpBounds | S::SeparationRounds => C::Certificate,
        S::Constraints
        | S::MaxFeatures
        | S::MaxLeaves
        | S::MinLeafRows
        | S::MaxLeafRows
        | S::ForbiddenFeatures
        | S::GroupColumn
        | S::AllowGroupAsFeature
        | S::MaxParityGap
        | S::MaxOpportunityGap => C::SideConstraints,
    })
}

impl Settings {
    /// The settings of the JSON object `text`, keyed by the settings' Python names (`method`
    /// required; a key whose value is `null` is not given). A key that names no setting, and a
    /// value of the wrong kind, is refused naming it.
    pub fn from_json(text: &str) -> Result<Settings> {
        let object: serde_json::Map<String, Value> = serde_json::from_str(text)
            .map_err(|e| Error::parameter("settings", format!("not a JSON object: {e}")))?;
        let method = match object.get("method") {
            Some(Value::String(name)) => MethodKind::of_name(name).ok_or_else(|| {
                SettingError::invalid(
                    Setting::Method,
                    format!("`{name}` is not one of: dp, sparse, oct, binoct, flowoct, olct"),
                )
            })?,
            _ => return Err(SettingError::invalid(Setting::Method, "is needed").into()),
        };
        let mut settings = Settings::new(method);
        for (key, value) in object {
            if value.is_null() || key == "method" {
                continue;
            }
            let setting = Setting::of_python(&key)
                .ok_or_else(|| Error::parameter("settings", format!("`{key}` is not a setting")))?;
            settings.set(setting, value)?;
        }
        Ok(settings)
    }

    /// Sets `setting` from its JSON `value`.
    fn set(&mut self, setting: Setting, value: Value) -> Result<()> {
        use Setting as S;
        let whole = || whole_number(setting, &value);
        let number = || number(setting, &value);
        let text = || value_of::<String>(setting, &value);
        match setting {
            S::Method => {}
            S::Solver => self.solver = Some(parsed(setting, &text()?)?),
            S::Depth => self.depth = Some(Depth::Levels(whole()?)),
            S::Objective => {
                let name = text()?;
                let objective = ObjectiveName::parse(&name).ok_or_else(|| {
                    let names: Vec<&str> = ObjectiveName::ALL.iter().map(|o| o.name()).collect();
                    SettingError::invalid(
                        setting,
                        format!("`{name}` is not one of: {}", names.join(", ")),
                    )
                })?;
                self.objective = Some(objective);
            }
            S::ClassWeight => self.class_weight = class_weights(&value)?,
            S::PositiveClass => self.positive_class = Some(text()?),
            S::Alpha => self.alpha = Some(number()?),
            S::MinLeaf => self.min_leaf = Some(whole()?),
            S::MaxSplits => self.max_splits = Some(whole()?),
            S::LeafPenalty => self.leaf_penalty = Some(number()?),
            S::PaucTheta => self.pauc_theta = Some(number()?),
            S::Thresholds => self.thresholds = Some(parsed(setting, &text()?)?),
            S::Cuts => self.cuts = Some(value_of(setting, &value)?),
            S::Tangents => self.tangents = Some(value_of(setting, &value)?),
            S::C => self.c = Some(value_of(setting, &value)?),
            S::BigM => self.big_m = Some(number()?),
            S::Epsilon => self.epsilon = Some(number()?),
            S::Univariate => self.univariate = value_of(setting, &value)?,
            S::NoRefine => self.no_refine = value_of(setting, &value)?,
            S::WarmStart => self.warm_start = Some(parsed(setting, &text()?)?),
            S::TimeLimit => self.time_limit = Some(seconds(setting, number()?)?),
            S::Threads => self.threads = Some(whole()?),
            S::MemoryLimit => self.memory_limit = Some(whole()?),
            S::MipGap => self.mip_gap = Some(number()?),
            S::SolverOptions => self.solver_options = solver_options(&value)?,
            S::Log => self.log = value_of(setting, &value)?,
            S::Certify => {
                self.certify = Some(match &value {
                    Value::String(off) if off == "off" => None,
                    // The estimator's booleans: the default budget, or none.
                    Value::Bool(true) => Some(DEFAULT_CERTIFY),
                    Value::Bool(false) => None,
                    _ => Some(seconds(setting, number()?)?),
                })
            }
            S::DpBounds => self.dp_bounds = Some(parsed(setting, &text()?)?),
            S::SeparationRounds => self.separation_rounds = Some(whole()?),
            S::Constraints => self.constraints = Some(value_of(setting, &value)?),
            S::MaxFeatures => self.max_features = Some(whole()?),
            S::MaxLeaves => self.max_leaves = Some(whole()?),
            S::MinLeafRows => self.min_leaf_rows = Some(whole()?),
            S::MaxLeafRows => self.max_leaf_rows = Some(whole()?),
            S::ForbiddenFeatures => self.forbidden_features = value_of(setting, &value)?,
            S::GroupColumn => self.group_column = Some(text()?),
            S::AllowGroupAsFeature => self.allow_group_as_feature = value_of(setting, &value)?,
            S::MaxParityGap => self.max_parity_gap = Some(number()?),
            S::MaxOpportunityGap => self.max_opportunity_gap = Some(number()?),
            S::RowWeights | S::ProbaSmoothing => {
                return Err(SettingError::invalid(setting, "is not a setting of learning").into())
            }
        }
        Ok(())
    }
}

/// `value` as a `T`; an error naming `setting` when it is not one.
fn value_of<T: DeserializeOwned>(setting: Setting, value: &Value) -> Result<T> {
    serde_json::from_value(value.clone())
        .map_err(|e| SettingError::invalid(setting, format!("{value} is not valid: {e}")).into())
}

/// `value` as a number: a JSON number, or the text of one that JSON cannot hold (`nan`,
/// `inf`), for the setting's own check to refuse by name.
fn number(setting: Setting, value: &Value) -> Result<f64> {
    match value {
        Value::String(text) => text.parse().map_err(|_| {
            SettingError::invalid(setting, format!("`{text}` is not a number")).into()
        }),
        _ => value_of(setting, value),
    }
}

/// `value` as a whole number at least 0.
fn whole_number(setting: Setting, value: &Value) -> Result<usize> {
    value
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            SettingError::invalid(setting, format!("{value} is not a whole number at least 0"))
                .into()
        })
}

/// `text` parsed, an error naming `setting` with the parser's own message.
fn parsed<T: std::str::FromStr<Err = Error>>(setting: Setting, text: &str) -> Result<T> {
    text.parse().map_err(|error| renamed(setting, error))
}

/// A number of seconds as a duration, checked.
fn seconds(setting: Setting, seconds: f64) -> Result<Duration> {
    check_seconds(setting.flag(), seconds).map_err(|error| renamed(setting, error))
}

/// A parameter error of the library about `setting`, as a refused setting (its message kept).
fn renamed(setting: Setting, error: Error) -> Error {
    match error {
        Error::Parameter { message, .. } => SettingError::invalid(setting, message).into(),
        other => other,
    }
}

/// `{label: weight}` as class weights.
fn class_weights(value: &Value) -> Result<Vec<ClassWeight>> {
    let given: Vec<(String, f64)> =
        value_of::<std::collections::BTreeMap<String, f64>>(Setting::ClassWeight, value)?
            .into_iter()
            .collect();
    given
        .into_iter()
        .map(|(label, weight)| {
            if weight.is_finite() && weight >= 0.0 {
                Ok(ClassWeight { label, weight })
            } else {
                Err(SettingError::invalid(
                    Setting::ClassWeight,
                    format!("{weight} for `{label}` is not a finite non-negative weight"),
                )
                .into())
            }
        })
        .collect()
}

/// `{name: value}` as the solver's own options, values as text.
fn solver_options(value: &Value) -> Result<Vec<(String, String)>> {
    let given: serde_json::Map<String, Value> = value_of(Setting::SolverOptions, value)?;
    Ok(given
        .into_iter()
        .map(|(name, value)| {
            let text = match value {
                Value::String(text) => text,
                other => other.to_string(),
            };
            (name, text)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setting::Names;

    fn settings(json: &str) -> Result<(Method, LearnOptions)> {
        Settings::from_json(json)?.build()
    }

    #[test]
    fn json_settings_give_the_method_and_run_options() {
        let (method, options) =
            settings(r#"{"method": "dp", "max_depth": 3, "time_limit": 2.5}"#).unwrap();
        assert_eq!((method.name(), method.depth()), ("dp", 3));
        assert_eq!(options.budget.limit_seconds(), Some(2.5));
        assert!(options.budget.interrupt().is_none());
        let (method, _) = settings(r#"{"method": "oct", "max_depth": 1}"#).unwrap();
        assert_eq!((method.name(), method.solver_name()), ("oct", "highs"));
    }

    #[test]
    fn certify_takes_booleans_beside_seconds_and_off() {
        let certify = |value: &str| {
            let json = format!(r#"{{"method": "oct", "max_depth": 1, "certify": {value}}}"#);
            settings(&json).unwrap().1.certify
        };
        assert_eq!(certify("true"), Some(DEFAULT_CERTIFY));
        assert_eq!(certify("false"), None);
        assert_eq!(certify(r#""off""#), None);
        assert_eq!(certify("2"), Some(Duration::from_secs(2)));
        let dp = r#"{"method": "dp", "max_depth": 1, "certify": true}"#;
        let message = settings(dp).unwrap_err().render(Names::Python);
        assert!(
            message.starts_with("invalid certify: does not apply"),
            "{message}"
        );
    }

    #[test]
    fn a_setting_of_the_wrong_kind_or_name_is_refused_by_name() {
        let message = |json: &str| settings(json).unwrap_err().render(Names::Python);
        assert!(message(r#"{"method": "dp", "max_depth": -1}"#).starts_with("invalid max_depth:"));
        assert!(
            message(r#"{"method": "dp", "max_depth": 2, "objective": "nope"}"#)
                .starts_with("invalid objective: `nope` is not one of")
        );
        assert!(
            message(r#"{"method": "dp", "max_depth": 2, "time_limit": -1}"#)
                .starts_with("invalid time_limit: -1 is not a number of seconds")
        );
        assert!(message(r#"{"method": "dp", "max_depth": 2, "nope": 1}"#).contains("`nope`"));
        assert!(message(r#"{"max_depth": 2}"#).contains("method"));
    }

    /// Every setting with a capability, given to every method that lacks it, is refused naming
    /// the setting in both sets of names and the chosen method; given to a method that has it,
    /// it passes the check.
    #[test]
    fn every_setting_that_does_not_apply_is_refused_by_name() {
        let methods = [
            MethodKind::Oct,
            MethodKind::BinOct,
            MethodKind::FlowOct,
            MethodKind::Olct,
            MethodKind::Dp,
            MethodKind::Sparse,
        ];
        let mut refused = 0;
        for &setting in Setting::ALL {
            let Some(needs) = capability_of(setting) else {
                continue;
            };
            for method in methods {
                let mut settings = Settings::new(method);
                give(&mut settings, setting);
                assert!(settings.is_given(setting), "{setting:?}");
                let checked = settings.refuse_what_does_not_apply();
                if method.takes(needs) {
                    assert!(checked.is_ok(), "{setting:?} {method:?}");
                    continue;
                }
                let error = checked.expect_err("refused");
                let flag = error.to_string();
                let python = error.render(Names::Python);
                assert!(
                    flag.starts_with(&format!("invalid {}: does not apply to ", setting.flag()))
                        && flag.contains(&method.chosen().command_line),
                    "{flag}"
                );
                assert!(
                    python
                        .starts_with(&format!("invalid {}: does not apply to ", setting.python()))
                        && python.contains(&format!("method='{}'", method.name())),
                    "{python}"
                );
                refused += 1;
            }
        }
        assert!(refused > 50, "{refused}");
    }

    /// Gives `setting` some value.
    fn give(settings: &mut Settings, setting: Setting) {
        let value = match setting {
            Setting::Objective => "\"accuracy\"".to_string(),
            Setting::Solver => "\"cbc\"".to_string(),
            Setting::Thresholds => "\"all\"".to_string(),
            Setting::Cuts => "\"none\"".to_string(),
            Setting::WarmStart => "\"greedy\"".to_string(),
            Setting::DpBounds => "\"all\"".to_string(),
            Setting::PositiveClass | Setting::GroupColumn => "\"a\"".to_string(),
            Setting::ClassWeight | Setting::SolverOptions => "{\"a\": 1}".to_string(),
            Setting::ForbiddenFeatures => "[\"a\"]".to_string(),
            Setting::C => "[1.0]".to_string(),
            Setting::Univariate
            | Setting::NoRefine
            | Setting::Log
            | Setting::AllowGroupAsFeature => "true".to_string(),
            Setting::Constraints => "{\"max_features\": 1}".to_string(),
            _ => "1".to_string(),
        };
        let value: Value = serde_json::from_str(&value).expect("JSON");
        settings.set(setting, value).expect("a valid value");
    }

    #[test]
    fn pauc_theta_applies_to_the_pauc_objective_only() {
        let error =
            settings(r#"{"method": "sparse", "objective": "auc", "pauc_theta": 0.2}"#).unwrap_err();
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
