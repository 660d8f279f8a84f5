//! What each method takes: every method the library learns with and the command line names ([`MethodKind`]: a formulation,
//! a search, or the model of one point of the front) declares its [`Capability`] set, and each
//! group of model options needs one capability. An option given for a method without that
//! capability is refused by naming the option, the chosen method and the methods that take it.
//! A new method declares its set here; a new option group names the capability it needs.

use crate::error::{Error, Result};
use crate::formulation::FormulationName;
use crate::setting::Named;

/// A method as the command line names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodKind {
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

impl MethodKind {
    const ALL: [MethodKind; 7] = [
        MethodKind::Oct,
        MethodKind::BinOct,
        MethodKind::FlowOct,
        MethodKind::Olct,
        MethodKind::Dp,
        MethodKind::Sparse,
        MethodKind::MaxFp,
    ];

    /// The method of a formulation.
    pub fn formulation(name: FormulationName) -> MethodKind {
        match name {
            FormulationName::Oct => MethodKind::Oct,
            FormulationName::BinOct => MethodKind::BinOct,
            FormulationName::FlowOct => MethodKind::FlowOct,
            FormulationName::Olct => MethodKind::Olct,
        }
    }

    /// The name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            MethodKind::Oct => "oct",
            MethodKind::BinOct => "binoct",
            MethodKind::FlowOct => "flowoct",
            MethodKind::Olct => "olct",
            MethodKind::Dp => "dp",
            MethodKind::Sparse => "sparse",
            MethodKind::MaxFp => "export-lp --max-fp",
        }
    }

    /// The method named `name` as the Python estimator's `method` names it (`dp`, `oct`, ...).
    pub fn of_name(name: &str) -> Option<MethodKind> {
        MethodKind::ALL
            .into_iter()
            .filter(|m| *m != MethodKind::MaxFp)
            .find(|m| m.name() == name)
    }

    /// How a caller chooses it: `--formulation oct` or `--solver dp` on the command line,
    /// `method='oct'` in Python.
    pub fn chosen(self) -> Named {
        Named {
            command_line: self.chosen_by(),
            python: match self {
                MethodKind::MaxFp => "max_fp".to_string(),
                _ => format!("method='{}'", self.name()),
            },
        }
    }

    /// How the command line chooses it (`--formulation oct`, `--solver dp`, ...).
    pub fn chosen_by(self) -> String {
        match self {
            MethodKind::Dp | MethodKind::Sparse => format!("--solver {}", self.name()),
            MethodKind::MaxFp => "--max-fp".to_string(),
            _ => format!("--formulation {}", self.name()),
        }
    }

    /// Everything the method takes.
    pub fn capabilities(self) -> &'static [Capability] {
        use Capability::*;
        match self {
            MethodKind::Oct => &[
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
            MethodKind::BinOct => &[
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
            MethodKind::FlowOct => &[
                SideConstraints,
                ErrorCost,
                ClassWeights,
                Thresholds,
                MipSolver,
                Threads,
                Certificate,
                WarmStart,
            ],
            MethodKind::Olct => &[
                ClassWeights,
                PositiveClass,
                LogisticSplits,
                MipSolver,
                Threads,
                WarmStart,
            ],
            MethodKind::Dp => &[
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
            MethodKind::Sparse => &[
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
            MethodKind::MaxFp => &[PositiveClass],
        }
    }

    pub fn takes(self, capability: Capability) -> bool {
        self.capabilities().contains(&capability)
    }
}

/// Fails when `method` (with the `--max-fp` model's options when `max_fp`) lacks `capability`,
/// naming `option`, the chosen method and the methods that take it.
pub fn check(method: MethodKind, max_fp: bool, capability: Capability, option: &str) -> Result<()> {
    if method.takes(capability) || (max_fp && MethodKind::MaxFp.takes(capability)) {
        return Ok(());
    }
    Err(Error::parameter(
        option,
        format!(
            "does not apply to {} (it applies to {})",
            method.chosen_by(),
            takers(capability)
        ),
    ))
}

/// The methods that take `capability`, as a list (`oct, dp`).
pub fn takers(capability: Capability) -> String {
    let takers: Vec<&str> = MethodKind::ALL
        .iter()
        .filter(|m| m.takes(capability))
        .map(|m| m.name())
        .collect();
    takers.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_option_the_method_and_the_methods_that_take_it() {
        let error = check(
            MethodKind::Sparse,
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
            MethodKind::Oct,
            true,
            Capability::PositiveClass,
            "--positive-class"
        )
        .is_ok());
        assert!(check(MethodKind::Oct, false, Capability::PositiveClass, "x").is_err());
        for method in MethodKind::ALL {
            assert!(
                check(method, false, Capability::ClassWeights, "x").is_ok()
                    || method == MethodKind::MaxFp
            );
        }
    }
}
