//! One of the formulations, chosen at run time (by the command line or an experiment grid),
//! with the calls that dispatch to it.

use crate::data::Dataset;
use crate::error::Result;
use crate::formulation::binoct::BinOct;
use crate::formulation::oct::Oct;
use crate::formulation::olct::Olct;
use crate::formulation::pipeline::{self, Outcome, RunOptions};
use crate::formulation::{BuiltModel, Encoded, Formulation, VariableRole};
use crate::mip::MipModel;
use crate::tree::Tree;

/// A formulation with its parameters.
#[derive(Debug, Clone)]
pub enum AnyFormulation {
    Oct(Oct),
    BinOct(BinOct),
    Olct(Olct),
}

/// A model built by any formulation, with what exporting it needs.
pub struct AnyBuilt {
    pub mip: MipModel,
    pub roles: Vec<VariableRole>,
    /// The greedy warm start, encoded, when asked for.
    pub warm_start: Option<Encoded>,
}

macro_rules! dispatch {
    ($self:expr, $f:ident => $body:expr) => {
        match $self {
            AnyFormulation::Oct($f) => $body,
            AnyFormulation::BinOct($f) => $body,
            AnyFormulation::Olct($f) => $body,
        }
    };
}

impl AnyFormulation {
    /// The names `from_name` accepts.
    pub const NAMES: [&'static str; 3] = ["oct", "binoct", "olct"];

    /// The formulation called `name` (`oct`, ...) at `depth`, with default parameters.
    pub fn from_name(name: &str, depth: usize) -> Result<AnyFormulation> {
        match name {
            "oct" => Ok(AnyFormulation::Oct(Oct::new(depth))),
            "binoct" => Ok(AnyFormulation::BinOct(BinOct::new(depth))),
            "olct" => Ok(AnyFormulation::Olct(Olct::new(depth))),
            other => Err(crate::Error::parameter(
                "formulation",
                format!("`{other}` is not one of: {}", Self::NAMES.join(", ")),
            )),
        }
    }

    pub fn name(&self) -> &'static str {
        dispatch!(self, f => f.name())
    }

    pub fn depth(&self) -> usize {
        dispatch!(self, f => f.depth())
    }

    pub fn parameters(&self) -> serde_json::Value {
        dispatch!(self, f => f.parameters())
    }

    /// The integrality tolerance the formulation needs of a solver, if tighter than the
    /// solvers' defaults (see [`Formulation::integrality_tolerance`]).
    pub fn integrality_tolerance(&self) -> Option<f64> {
        dispatch!(self, f => f.integrality_tolerance())
    }

    /// The data the formulation learns from (see [`Formulation::relabel`]).
    pub fn relabel(&self, data: Dataset) -> Result<Dataset> {
        dispatch!(self, f => Ok(f.relabel(&data)?.unwrap_or(data)))
    }

    /// Runs the formulation end to end (see [`pipeline::run`]).
    pub fn run(&self, train: &Dataset, options: RunOptions) -> Result<Outcome> {
        dispatch!(self, f => pipeline::run(f, train, options))
    }

    /// The formulation's greedy tree.
    pub fn greedy_tree(&self, train: &Dataset) -> Result<Tree> {
        dispatch!(self, f => f.greedy_tree(train))
    }

    /// Builds the model, and encodes the greedy warm start when `warm_start` is true.
    pub fn build(&self, train: &Dataset, warm_start: bool) -> Result<AnyBuilt> {
        dispatch!(self, f => {
            let built = f.build(train)?;
            let warm_start = if warm_start {
                Some(f.encode(&built, &f.greedy_tree(train)?)?)
            } else {
                None
            };
            Ok(AnyBuilt {
                roles: built.variable_roles(),
                mip: built.mip().clone(),
                warm_start,
            })
        })
    }
}
