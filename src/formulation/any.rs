//! One of the formulations, chosen at run time (by the command line or an experiment grid):
//! its name ([`FormulationName`]), its parameters as given ([`FormulationParams`], checked into
//! an [`AnyFormulation`]), and the calls that dispatch to it.
//!
//! A new formulation plugs in here: a variant in each of the three enums, and one arm in each
//! dispatch.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::constraints::SideConstraints;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::binoct::{BinOct, BinOctParams};
use crate::formulation::flowoct::{FlowOct, FlowOctParams};
use crate::formulation::oct::{Oct, OctParams};
use crate::formulation::olct::{Olct, OlctParams};
use crate::formulation::side_constraints::Constrained;
use crate::formulation::{BuiltModel, ClassErrors, Encoded, Formulation, VariableRole};
use crate::mip::{MipModel, RowSense};
use crate::tree::Tree;

/// The name of a formulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormulationName {
    /// Bertsimas & Dunn's OCT (axis-aligned).
    Oct,
    /// Verwer & Zhang's BinOCT (binary-search threshold encoding).
    BinOct,
    /// Aldinucci & Lapucci's optimal logistic classification trees (oblique, binary).
    Olct,
    /// Aghaei, Gomez & Vayanos's flow formulation over binary features.
    FlowOct,
}

impl FormulationName {
    /// Every formulation, in the order reports list them.
    pub const ALL: [FormulationName; 4] = [
        FormulationName::Oct,
        FormulationName::BinOct,
        FormulationName::Olct,
        FormulationName::FlowOct,
    ];

    /// `oct`, `binoct` or `olct`.
    pub fn name(self) -> &'static str {
        match self {
            FormulationName::Oct => "oct",
            FormulationName::BinOct => "binoct",
            FormulationName::Olct => "olct",
            FormulationName::FlowOct => "flowoct",
        }
    }
}

impl fmt::Display for FormulationName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FormulationName {
    type Err = Error;
    fn from_str(text: &str) -> Result<Self> {
        FormulationName::ALL
            .into_iter()
            .find(|name| name.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = FormulationName::ALL.iter().map(|n| n.name()).collect();
                Error::parameter(
                    "formulation",
                    format!("`{text}` is not one of: {}", names.join(", ")),
                )
            })
    }
}

/// A formulation's parameters as given (besides the depth), before they are checked.
#[derive(Debug, Clone, PartialEq)]
pub enum FormulationParams {
    Oct(OctParams),
    BinOct(BinOctParams),
    Olct(OlctParams),
    FlowOct(FlowOctParams),
}

impl FormulationParams {
    /// The default parameters of `name`.
    pub fn defaults(name: FormulationName) -> FormulationParams {
        match name {
            FormulationName::Oct => FormulationParams::Oct(OctParams::default()),
            FormulationName::BinOct => FormulationParams::BinOct(BinOctParams::default()),
            FormulationName::Olct => FormulationParams::Olct(OlctParams::default()),
            FormulationName::FlowOct => FormulationParams::FlowOct(FlowOctParams::default()),
        }
    }

    pub fn name(&self) -> FormulationName {
        match self {
            FormulationParams::Oct(_) => FormulationName::Oct,
            FormulationParams::BinOct(_) => FormulationName::BinOct,
            FormulationParams::Olct(_) => FormulationName::Olct,
            FormulationParams::FlowOct(_) => FormulationName::FlowOct,
        }
    }

    /// The formulation at `depth`, once every parameter is checked.
    pub fn check(&self, depth: usize) -> Result<AnyFormulation> {
        Ok(match self {
            FormulationParams::Oct(p) => AnyFormulation::Oct(p.check(depth)?),
            FormulationParams::BinOct(p) => AnyFormulation::BinOct(p.check(depth)?),
            FormulationParams::Olct(p) => AnyFormulation::Olct(p.check(depth)?),
            FormulationParams::FlowOct(p) => AnyFormulation::FlowOct(p.check(depth)?),
        })
    }

    /// The parameters as a JSON object (every field, defaults included).
    pub fn to_json(&self) -> Value {
        let value = match self {
            FormulationParams::Oct(p) => serde_json::to_value(p),
            FormulationParams::BinOct(p) => serde_json::to_value(p),
            FormulationParams::Olct(p) => serde_json::to_value(p),
            FormulationParams::FlowOct(p) => serde_json::to_value(p),
        };
        value.unwrap_or(Value::Null)
    }

    /// The parameters of `name` from a JSON object (a grid file's table, or a report's
    /// `parameters`, whose `depth` and derived figures are ignored). Unknown fields are errors.
    pub fn from_json(name: FormulationName, value: &Value) -> Result<FormulationParams> {
        let value = super::parameters::without_derived(value);
        let bad =
            |e: serde_json::Error| Error::parameter(format!("{name} parameters"), e.to_string());
        Ok(match name {
            FormulationName::Oct => {
                FormulationParams::Oct(serde_json::from_value(value).map_err(bad)?)
            }
            FormulationName::BinOct => {
                FormulationParams::BinOct(serde_json::from_value(value).map_err(bad)?)
            }
            FormulationName::Olct => {
                FormulationParams::Olct(serde_json::from_value(value).map_err(bad)?)
            }
            FormulationName::FlowOct => {
                FormulationParams::FlowOct(serde_json::from_value(value).map_err(bad)?)
            }
        })
    }

    /// The parameters that differ from the defaults (see [`super::parameters::non_default`]).
    pub fn non_default(&self) -> Vec<(String, String)> {
        super::parameters::non_default(
            &self.to_json(),
            &FormulationParams::defaults(self.name()).to_json(),
        )
    }
}

/// A formulation with its checked parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyFormulation {
    Oct(Oct),
    BinOct(BinOct),
    Olct(Olct),
    FlowOct(FlowOct),
}

/// A model built by any formulation, with what exporting it needs.
pub struct AnyBuilt {
    pub mip: MipModel,
    pub roles: Vec<VariableRole>,
    /// The integrality tolerance the model needs of a solver, if tighter than the defaults.
    pub integrality_tolerance: Option<f64>,
    /// The greedy warm start, encoded, when asked for.
    pub warm_start: Option<Encoded>,
    /// The root's choices, for rows that bound the objective by each (see
    /// [`BuiltModel::root_splits`]).
    pub root_splits: Option<super::RootSplits>,
    /// The relative tolerance within which a model's objective and a plain evaluation agree
    /// ([`BuiltModel::objective_tolerance`]).
    pub objective_tolerance: f64,
    /// The trees given to check rows against ([`AnyFormulation::build_constrained`]), encoded
    /// and evaluated by plain code; a tree the model cannot encode is left out.
    pub evaluated: Vec<EvaluatedTree>,
}

/// A tree encoded in a model, with its objective by plain evaluation
/// ([`Formulation::objective_of`]).
pub struct EvaluatedTree {
    /// The tree's place among those given.
    pub index: usize,
    pub assignment: crate::mip::Assignment,
    pub objective: f64,
}

/// `built` as an [`AnyBuilt`], with `warm_start` and the trees `checked` encoded and evaluated
/// (those the model cannot encode left out).
fn assembled<F: Formulation>(
    f: &F,
    built: &F::Built,
    warm_start: Option<Encoded>,
    checked: &[Tree],
) -> Result<AnyBuilt> {
    let evaluated = checked
        .iter()
        .enumerate()
        .filter_map(|(index, tree)| f.encode(built, tree).ok().map(|e| (index, e)))
        .map(|(index, encoded)| {
            Ok(EvaluatedTree {
                index,
                objective: f.objective_of(built, &encoded.tree)?,
                assignment: encoded.assignment,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(AnyBuilt {
        roles: built.variable_roles(),
        mip: built.mip().clone(),
        integrality_tolerance: built.integrality_tolerance(),
        root_splits: built.root_splits(),
        objective_tolerance: built.objective_tolerance(),
        warm_start,
        evaluated,
    })
}

/// The model of [`AnyFormulation::build_with_max_false_positives`].
fn bounded_false_positives<F: ClassErrors>(
    formulation: &F,
    train: &Dataset,
    max_fp: u32,
) -> Result<AnyBuilt> {
    crate::formulation::costs::refuse_row_weights(train, "a model with at most E false positives")?;
    let counts = train.class_counts();
    if counts.len() != 2 {
        return Err(Error::input(
            train.source(),
            format!(
                "a model with at most E false positives needs two classes, and the data has {}",
                counts.len()
            ),
        ));
    }
    let (built, errors) = formulation.build_with_class_errors(train)?;
    let (false_positives, false_negatives) = (errors[0].clone(), errors[1].clone());
    let scale = counts[0] as f64 + 1.0;
    let mut mip = built.mip().clone();
    mip.set_objective(scale * false_negatives + false_positives.clone());
    mip.add_row("max_fp", false_positives, RowSense::Le, f64::from(max_fp));
    Ok(AnyBuilt {
        roles: built.variable_roles(),
        mip,
        integrality_tolerance: built.integrality_tolerance(),
        warm_start: None,
        root_splits: None,
        objective_tolerance: built.objective_tolerance(),
        evaluated: Vec::new(),
    })
}

macro_rules! dispatch {
    ($self:expr, $f:ident => $body:expr) => {
        match $self {
            AnyFormulation::Oct($f) => $body,
            AnyFormulation::BinOct($f) => $body,
            AnyFormulation::Olct($f) => $body,
            AnyFormulation::FlowOct($f) => $body,
        }
    };
}

impl AnyFormulation {
    /// The formulation `name` at `depth`, with default parameters.
    pub fn from_name(name: FormulationName, depth: usize) -> Result<AnyFormulation> {
        FormulationParams::defaults(name).check(depth)
    }

    pub fn kind(&self) -> FormulationName {
        match self {
            AnyFormulation::Oct(_) => FormulationName::Oct,
            AnyFormulation::BinOct(_) => FormulationName::BinOct,
            AnyFormulation::Olct(_) => FormulationName::Olct,
            AnyFormulation::FlowOct(_) => FormulationName::FlowOct,
        }
    }

    pub fn name(&self) -> &'static str {
        dispatch!(self, f => f.name())
    }

    pub fn depth(&self) -> usize {
        dispatch!(self, f => f.depth())
    }

    /// The parameters as reported (depth included).
    pub fn parameters(&self) -> Value {
        dispatch!(self, f => f.parameters())
    }

    /// The parameters besides the depth.
    pub fn params(&self) -> FormulationParams {
        match self {
            AnyFormulation::Oct(f) => FormulationParams::Oct(f.params()),
            AnyFormulation::BinOct(f) => FormulationParams::BinOct(f.params()),
            AnyFormulation::Olct(f) => FormulationParams::Olct(f.params()),
            AnyFormulation::FlowOct(f) => FormulationParams::FlowOct(f.params()),
        }
    }

    /// The data the formulation learns from: OLCT relabels a multiclass dataset as its positive
    /// class against the rest; the others take the data as it is. Applied to training and test
    /// data alike.
    pub fn prepare(&self, data: Dataset) -> Result<Dataset> {
        match self {
            AnyFormulation::Olct(f) => Ok(f.relabel_data(&data)?.unwrap_or(data)),
            AnyFormulation::Oct(_) | AnyFormulation::BinOct(_) | AnyFormulation::FlowOct(_) => {
                Ok(data)
            }
        }
    }

    /// The formulation's greedy tree: the default warm start.
    pub fn greedy_tree(&self, train: &Dataset) -> Result<Tree> {
        dispatch!(self, f => f.greedy_tree(train))
    }

    /// Builds the model, and encodes the greedy warm start when `warm_start` is true.
    pub fn build(&self, train: &Dataset, warm_start: bool) -> Result<AnyBuilt> {
        self.build_checked(train, warm_start, &[])
    }

    /// [`AnyFormulation::build`], with the trees `checked` encoded and evaluated
    /// ([`AnyBuilt::evaluated`]).
    fn build_checked(
        &self,
        train: &Dataset,
        warm_start: bool,
        checked: &[Tree],
    ) -> Result<AnyBuilt> {
        dispatch!(self, f => {
            let built = f.build(train)?;
            let warm_start = if warm_start {
                Some(f.encode(&built, &f.greedy_tree(train)?)?)
            } else {
                None
            };
            assembled(f, &built, warm_start, checked)
        })
    }

    /// [`AnyFormulation::build`] with the rows of `constraints` (see
    /// [`super::side_constraints`]); a greedy warm start that breaks them is not encoded. The
    /// trees `checked` are encoded and evaluated by plain code ([`AnyBuilt::evaluated`]), to
    /// check rows against, whether or not they meet the side constraints.
    pub fn build_constrained(
        &self,
        train: &Dataset,
        warm_start: bool,
        constraints: Option<&SideConstraints>,
        checked: &[Tree],
    ) -> Result<AnyBuilt> {
        let Some(constraints) = constraints else {
            return self.build_checked(train, warm_start, checked);
        };
        dispatch!(self, inner => {
            let f = Constrained { inner, constraints };
            let built = f.build(train)?;
            let greedy = if warm_start { Some(inner.greedy_tree(train)?) } else { None };
            let warm_start = match greedy {
                Some(tree) if f.refuses_start(&built, &tree, None).is_none() => {
                    Some(f.encode(&built, &tree)?)
                        .filter(|e| f.refuses_start(&built, &e.tree, Some(&e.assignment)).is_none())
                }
                _ => None,
            };
            assembled(&f, &built, warm_start, checked)
        })
    }

    /// One model of the epsilon-constraint front of false positives and false negatives on the
    /// two-class `train` (class 1 positive): minimise `(N + 1) FN + FP` subject to
    /// `FP <= max_fp`, `N` the negative rows, so its optimum is the front's point with the most
    /// false positives up to `max_fp` (the method layer's epsilon-constraint front). OCT and
    /// BinOCT only, whose errors on each class are linear expressions ([`ClassErrors`]); no
    /// warm start.
    pub fn build_with_max_false_positives(&self, train: &Dataset, max_fp: u32) -> Result<AnyBuilt> {
        match self {
            AnyFormulation::Oct(oct) => bounded_false_positives(oct, train, max_fp),
            AnyFormulation::BinOct(binoct) => bounded_false_positives(binoct, train, max_fp),
            other => Err(Error::parameter(
                "--max-fp",
                format!(
                    "applies to oct and binoct, whose errors on each class are linear \
                     expressions; not to {}",
                    other.name()
                ),
            )),
        }
    }
}
