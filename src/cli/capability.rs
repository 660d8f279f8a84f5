//! What each method takes: every method the command line names ([`CliMethod`]: a formulation,
//! a search, or the model of one point of the front) declares its [`Capability`] set, and each
//! group of model options needs one capability. An option given for a method without that
//! capability is refused by naming the option, the chosen method and the methods that take it.
//! A new method declares its set here; a new option group names the capability it needs.

use crate::error::{Error, Result};
use crate::formulation::FormulationName;

/// A method as the command line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CliMethod {
    Oct,
    BinOct,
    FlowOct,
    Olct,
    /// `--solver dp`, the exact search.
    Dp,
    /// `--solver sparse`, the sparse search.
    Sparse,
    /// `export-lp --max-fp`: the model of one point of the front of false positives and false
    /// negatives (its options add to the formulation's).
    MaxFp,
}

/// What a method takes beyond the data and its depth: one per group of options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// `--objective`: what an error costs, or a metric.
    ErrorCost,
    /// `--class-weight`: a factor per class on what an error costs.
    ClassWeights,
    /// `--leaf-penalty`: a cost per leaf.
    LeafPenalty,
    /// `--pauc-theta`: the sparse search's own losses.
    SparseLoss,
    /// `--positive-class`: the class of the two-class objectives.
    PositiveClass,
    /// `--memory-limit`: a search's cache.
    SearchCache,
    /// `--alpha`, `--min-leaf`: a cost per split and a leaf minimum.
    SplitCostAndLeafMinimum,
    /// `--thresholds`: a choice of candidate thresholds.
    Thresholds,
    /// `--cuts`: strengthenings of the model built up front.
    Cuts,
    /// OLCT's own options.
    LogisticSplits,
    /// `--max-splits`: a limit on the split nodes.
    SplitLimit,
    /// The MIP solver's options.
    MipSolver,
    /// `--threads`: the MIP solver's threads, or the exact search's.
    Threads,
    /// `--certify`: a certificate by the exact search.
    Certificate,
    /// `--warm-start`: a start for the solver.
    WarmStart,
    /// `--constraints`, `--max-features`, `--forbid-feature`, `--max-leaves`: side constraints
    /// on the tree (which method takes which kind is the table of
    /// [`crate::constraints::kinds`]).
    SideConstraints,
}

impl CliMethod {
    const ALL: [CliMethod; 7] = [
        CliMethod::Oct,
        CliMethod::BinOct,
        CliMethod::FlowOct,
        CliMethod::Olct,
        CliMethod::Dp,
        CliMethod::Sparse,
        CliMethod::MaxFp,
    ];

    /// The method of a formulation.
    pub fn formulation(name: FormulationName) -> CliMethod {
        match name {
            FormulationName::Oct => CliMethod::Oct,
            FormulationName::BinOct => CliMethod::BinOct,
            FormulationName::FlowOct => CliMethod::FlowOct,
            FormulationName::Olct => CliMethod::Olct,
        }
    }

    /// The name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            CliMethod::Oct => "oct",
            CliMethod::BinOct => "binoct",
            CliMethod::FlowOct => "flowoct",
            CliMethod::Olct => "olct",
            CliMethod::Dp => "dp",
            CliMethod::Sparse => "sparse",
            CliMethod::MaxFp => "export-lp --max-fp",
        }
    }

    /// How the command line chooses it (`--formulation oct`, `--solver dp`, ...).
    pub fn chosen_by(self) -> String {
        match self {
            CliMethod::Dp | CliMethod::Sparse => format!("--solver {}", self.name()),
            CliMethod::MaxFp => "--max-fp".to_string(),
            _ => format!("--formulation {}", self.name()),
        }
    }

    /// Everything the method takes.
    pub fn capabilities(self) -> &'static [Capability] {
        use Capability::*;
        match self {
            CliMethod::Oct => &[
                SideConstraints,
                ErrorCost,
                ClassWeights,
                LeafPenalty,
                SplitCostAndLeafMinimum,
                Cuts,
                MipSolver,
                Threads,
                Certificate,
                WarmStart,
            ],
            CliMethod::BinOct => &[
                SideConstraints,
                ErrorCost,
                ClassWeights,
                LeafPenalty,
                Thresholds,
                MipSolver,
                Threads,
                Certificate,
                WarmStart,
            ],
            CliMethod::FlowOct => &[
                SideConstraints,
                ErrorCost,
                ClassWeights,
                Thresholds,
                MipSolver,
                Threads,
                Certificate,
                WarmStart,
            ],
            CliMethod::Olct => &[
                ClassWeights,
                PositiveClass,
                LogisticSplits,
                MipSolver,
                Threads,
                WarmStart,
            ],
            CliMethod::Dp => &[
                SideConstraints,
                ErrorCost,
                ClassWeights,
                PositiveClass,
                SearchCache,
                SplitCostAndLeafMinimum,
                Thresholds,
                SplitLimit,
                Threads,
            ],
            CliMethod::Sparse => &[
                SideConstraints,
                ErrorCost,
                ClassWeights,
                LeafPenalty,
                SparseLoss,
                PositiveClass,
                SearchCache,
                Thresholds,
                Threads,
            ],
            CliMethod::MaxFp => &[PositiveClass],
        }
    }

    pub fn takes(self, capability: Capability) -> bool {
        self.capabilities().contains(&capability)
    }
}

/// Fails when `method` (with the `--max-fp` model's options when `max_fp`) lacks `capability`,
/// naming `option`, the chosen method and the methods that take it.
pub fn check(method: CliMethod, max_fp: bool, capability: Capability, option: &str) -> Result<()> {
    if method.takes(capability) || (max_fp && CliMethod::MaxFp.takes(capability)) {
        return Ok(());
    }
    let takers: Vec<&str> = CliMethod::ALL
        .iter()
        .filter(|m| m.takes(capability))
        .map(|m| m.name())
        .collect();
    Err(Error::parameter(
        option,
        format!(
            "does not apply to {} (it applies to {})",
            method.chosen_by(),
            takers.join(", ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_option_the_method_and_the_methods_that_take_it() {
        let error = check(
            CliMethod::Sparse,
            false,
            Capability::SplitLimit,
            "--max-splits",
        )
        .expect_err("sparse has no split limit");
        assert_eq!(error.exit_code(), 2);
        let text = error.to_string();
        assert!(
            text.contains("--max-splits")
                && text.contains("--solver sparse")
                && text.contains("(it applies to dp)"),
            "{text}"
        );
        assert!(check(
            CliMethod::Oct,
            true,
            Capability::PositiveClass,
            "--positive-class"
        )
        .is_ok());
        assert!(check(CliMethod::Oct, false, Capability::PositiveClass, "x").is_err());
        for method in CliMethod::ALL {
            assert!(
                check(method, false, Capability::ClassWeights, "x").is_ok()
                    || method == CliMethod::MaxFp
            );
        }
    }
}
