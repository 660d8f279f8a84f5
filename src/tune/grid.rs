//! The grid of a tuning run: the values given for each tuned parameter (lists, or integer
//! ranges `LOW..HIGH`), which methods each parameter applies to, and their product, one
//! [`Config`] per combination, in the order the values were given (the last parameter varying
//! fastest).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::tree::MAX_DEPTH;

/// The parameters a tuning run can vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    Depth,
    Alpha,
    LeafPenalty,
    C,
    MinLeaf,
    MaxSplits,
}

impl Param {
    /// Every parameter, in the order a configuration lists them.
    pub const ALL: [Param; 6] = [
        Param::Depth,
        Param::Alpha,
        Param::LeafPenalty,
        Param::C,
        Param::MinLeaf,
        Param::MaxSplits,
    ];

    /// The option that gives its values.
    pub fn option(self) -> &'static str {
        match self {
            Param::Depth => "--depth",
            Param::Alpha => "--alpha",
            Param::LeafPenalty => "--leaf-penalty",
            Param::C => "--c",
            Param::MinLeaf => "--min-leaf",
            Param::MaxSplits => "--max-splits",
        }
    }

    /// The name in a configuration's label.
    pub fn name(self) -> &'static str {
        &self.option()[2..]
    }

    /// The methods it applies to.
    pub fn applies_to(self) -> &'static [&'static str] {
        match self {
            Param::Depth => &["dp", "sparse", "oct", "binoct", "flowoct", "olct"],
            Param::Alpha | Param::MinLeaf => &["dp", "oct"],
            Param::LeafPenalty => &["sparse", "oct", "binoct"],
            Param::C => &["olct"],
            Param::MaxSplits => &["dp"],
        }
    }

    /// Whether its values are whole numbers.
    fn integral(self) -> bool {
        matches!(self, Param::Depth | Param::MinLeaf | Param::MaxSplits)
    }
}

/// One configuration: a value for each tuned parameter, `None` for those not tuned (the
/// method's default, or the value given once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Config {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_penalty: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_leaf: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_splits: Option<usize>,
}

impl Config {
    /// The value of `param`, if set.
    pub fn get(&self, param: Param) -> Option<f64> {
        match param {
            Param::Depth => self.depth.map(|v| v as f64),
            Param::Alpha => self.alpha,
            Param::LeafPenalty => self.leaf_penalty,
            Param::C => self.c,
            Param::MinLeaf => self.min_leaf.map(|v| v as f64),
            Param::MaxSplits => self.max_splits.map(|v| v as f64),
        }
    }

    fn set(&mut self, param: Param, value: f64) {
        let whole = value as usize;
        match param {
            Param::Depth => self.depth = Some(whole),
            Param::Alpha => self.alpha = Some(value),
            Param::LeafPenalty => self.leaf_penalty = Some(value),
            Param::C => self.c = Some(value),
            Param::MinLeaf => self.min_leaf = Some(whole),
            Param::MaxSplits => self.max_splits = Some(whole),
        }
    }

    /// `depth=3 alpha=0.01`: the parameters set, in [`Param::ALL`]'s order; `default` when
    /// none is. It names the configuration in tables and in a tuning run's stored fits.
    pub fn label(&self) -> String {
        let parts: Vec<String> = Param::ALL
            .iter()
            .filter_map(|&param| self.get(param).map(|v| format!("{}={v}", param.name())))
            .collect();
        if parts.is_empty() {
            "default".to_string()
        } else {
            parts.join(" ")
        }
    }

    /// The same configuration without a leaf penalty (configurations that differ only in
    /// their penalty share one sparse search path).
    pub fn without_leaf_penalty(&self) -> Config {
        Config {
            leaf_penalty: None,
            ..*self
        }
    }
}

/// The most values one parameter takes (a range longer than this is refused before it is
/// expanded).
pub const MAX_VALUES: usize = 1000;

/// The values of one parameter: `LOW..HIGH` (whole numbers, both ends included) or a
/// comma-separated list, at most [`MAX_VALUES`] of them; each value finite, at least 0
/// (positive for a leaf penalty and C; a depth from 1 to [`MAX_DEPTH`]), given once.
pub fn parse_values(param: Param, text: &str) -> Result<Vec<f64>> {
    let bad = |message: String| Error::parameter(param.option(), message);
    let number = |piece: &str| -> Result<f64> {
        let value: f64 = piece
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{}` is not a number", piece.trim())))?;
        let positive = matches!(param, Param::LeafPenalty | Param::C);
        if !value.is_finite() || value < 0.0 || (positive && value == 0.0) {
            return Err(bad(format!(
                "{value} is not a {} number",
                if positive { "positive" } else { "non-negative" }
            )));
        }
        if param.integral() && value.fract() != 0.0 {
            return Err(bad(format!("{value} is not a whole number")));
        }
        if param == Param::Depth && !(1.0..=MAX_DEPTH as f64).contains(&value) {
            return Err(bad(format!(
                "{value} is not a tree depth from 1 to {MAX_DEPTH}"
            )));
        }
        Ok(value)
    };
    let values: Vec<f64> = match text.split_once("..") {
        Some((low, high)) => {
            if !param.integral() {
                return Err(bad(format!(
                    "`{text}`: a range applies to whole-number parameters; give a list"
                )));
            }
            let (low, high) = (number(low)? as usize, number(high)? as usize);
            if low > high {
                return Err(bad(format!("the range {low}..{high} is empty")));
            }
            if high - low >= MAX_VALUES {
                return Err(bad(format!(
                    "the range {low}..{high} has {} values; a parameter takes at most {MAX_VALUES}",
                    high - low + 1
                )));
            }
            (low..=high).map(|v| v as f64).collect()
        }
        None => text.split(',').map(number).collect::<Result<_>>()?,
    };
    if values.len() > MAX_VALUES {
        return Err(bad(format!(
            "{} values; a parameter takes at most {MAX_VALUES}",
            values.len()
        )));
    }
    for (i, value) in values.iter().enumerate() {
        if values[..i].contains(value) {
            return Err(bad(format!("{value} is given twice")));
        }
    }
    Ok(values)
}

/// The product of the parameters' values (each `(param, values)`, values not empty), in the
/// order given; one default configuration when nothing is tuned. Fails when a parameter does
/// not apply to `method`.
pub fn configurations(method: &str, values: &[(Param, Vec<f64>)]) -> Result<Vec<Config>> {
    let mut configs = vec![Config::default()];
    for (param, list) in values {
        if !param.applies_to().contains(&method) {
            return Err(Error::parameter(
                param.option(),
                format!(
                    "does not apply to --method {method} (it applies to {})",
                    param.applies_to().join(", ")
                ),
            ));
        }
        configs = configs
            .iter()
            .flat_map(|config| {
                list.iter().map(move |&value| {
                    let mut next = *config;
                    next.set(*param, value);
                    next
                })
            })
            .collect();
    }
    Ok(configs)
}
