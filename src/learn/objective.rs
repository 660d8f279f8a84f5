//! Every objective a tree is learned for ([`ObjectiveName`]) and the one table of which method
//! takes which ([`ObjectiveName::taken_by`]), matched exhaustively: a new objective is decided
//! for every method (and given its form in each search) before the code compiles. The command
//! line's `--objective`, the lists each command offers and the refusals are read from here.
//!
//! Each method holds the objective in its own form: a cost per error for the MILPs
//! ([`Objective`]), [`DpObjective`] for the exact search, [`SparseObjective`] for the sparse
//! search; [`ObjectiveName::for_milp`], [`ObjectiveName::for_dp`] and
//! [`ObjectiveName::for_sparse`] give it, or refuse by naming the methods that take it.

use crate::constraints::kinds::ConstraintTaker;
use crate::error::{Error, Result};
use crate::learn::capability::MethodKind;
use crate::learn::dp_search::DpObjective;
use crate::learn::sparse_search::SparseObjective;
use crate::score::Objective;
use crate::setting::{Named, Reason, Setting, SettingError};

/// An objective, as `--objective` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectiveName {
    /// Every error costs the same.
    Accuracy,
    /// Errors on class k cost n / (K n_k): every class weighs the same.
    Balanced,
    /// Errors on each class cost its class weight (the sparse search's loss).
    Weighted,
    /// F1 of the positive class.
    F1,
    /// Matthews correlation coefficient.
    Mcc,
    /// Fowlkes-Mallows index, sqrt(precision * recall).
    FowlkesMallows,
    /// One minus the AUC of the ROC convex hull.
    Auc,
    /// One minus the partial AUC of the ROC convex hull.
    Pauc,
}

/// The methods, as far as objectives go, in the order refusals list them.
const TAKERS: [ConstraintTaker; 4] = [
    ConstraintTaker::Milp,
    ConstraintTaker::Dp,
    ConstraintTaker::Sparse,
    ConstraintTaker::Olct,
];

impl ObjectiveName {
    /// Every objective, in the order `--objective` lists them.
    pub const ALL: [ObjectiveName; 8] = [
        ObjectiveName::Accuracy,
        ObjectiveName::Balanced,
        ObjectiveName::Weighted,
        ObjectiveName::F1,
        ObjectiveName::Mcc,
        ObjectiveName::FowlkesMallows,
        ObjectiveName::Auc,
        ObjectiveName::Pauc,
    ];

    /// The name `--objective` takes.
    pub fn name(self) -> &'static str {
        match self {
            ObjectiveName::Accuracy => "accuracy",
            ObjectiveName::Balanced => "balanced",
            ObjectiveName::Weighted => "weighted",
            ObjectiveName::F1 => "f1",
            ObjectiveName::Mcc => "mcc",
            ObjectiveName::FowlkesMallows => "fowlkes-mallows",
            ObjectiveName::Auc => "auc",
            ObjectiveName::Pauc => "pauc",
        }
    }

    /// What the objective is, in a line (help texts).
    pub fn description(self) -> &'static str {
        match self {
            ObjectiveName::Accuracy => "Every error costs the same",
            ObjectiveName::Balanced => {
                "Errors on class k cost n / (K n_k): every class weighs the same"
            }
            ObjectiveName::Weighted => "Errors on each class cost its class weight (default 1)",
            ObjectiveName::F1 => {
                "F1 of the positive class (two classes; the sparse search minimises one minus it \
                 plus the leaf penalty)"
            }
            ObjectiveName::Mcc => "Matthews correlation coefficient (two classes)",
            ObjectiveName::FowlkesMallows => {
                "Fowlkes-Mallows index, sqrt(precision * recall) (two classes)"
            }
            ObjectiveName::Auc => "One minus the AUC of the ROC convex hull (two classes)",
            ObjectiveName::Pauc => {
                "One minus the partial AUC of the ROC convex hull, up to a largest false \
                 positive rate (two classes)"
            }
        }
    }

    /// The setting that parameterises the objective, if any: the class weights of `weighted`,
    /// the largest false positive rate of `pauc`.
    pub fn setting(self) -> Option<Setting> {
        match self {
            ObjectiveName::Weighted => Some(Setting::ClassWeight),
            ObjectiveName::Pauc => Some(Setting::PaucTheta),
            ObjectiveName::Accuracy
            | ObjectiveName::Balanced
            | ObjectiveName::F1
            | ObjectiveName::Mcc
            | ObjectiveName::FowlkesMallows
            | ObjectiveName::Auc => None,
        }
    }

    /// The objective named `text`, or `None`.
    pub fn parse(text: &str) -> Option<ObjectiveName> {
        ObjectiveName::ALL.into_iter().find(|o| o.name() == text)
    }

    /// Whether `method` takes this objective: the one table.
    pub fn taken_by(self, method: ConstraintTaker) -> bool {
        match method {
            ConstraintTaker::Milp => self.milp().is_some(),
            ConstraintTaker::Dp => self.dp().is_some(),
            ConstraintTaker::Sparse => self.sparse().is_some(),
            // OLCT minimises its penalised log-loss and takes no objective.
            ConstraintTaker::Olct => false,
        }
    }

    /// The objectives `method` takes, in the order of [`ObjectiveName::ALL`].
    pub fn taken(method: ConstraintTaker) -> Vec<ObjectiveName> {
        ObjectiveName::ALL
            .into_iter()
            .filter(|o| o.taken_by(method))
            .collect()
    }

    /// A MILP formulation's cost per error (they count errors).
    fn milp(self) -> Option<Objective> {
        match self {
            ObjectiveName::Accuracy => Some(Objective::Accuracy),
            ObjectiveName::Balanced => Some(Objective::Balanced),
            ObjectiveName::Weighted
            | ObjectiveName::F1
            | ObjectiveName::Mcc
            | ObjectiveName::FowlkesMallows
            | ObjectiveName::Auc
            | ObjectiveName::Pauc => None,
        }
    }

    /// The exact search's objective.
    fn dp(self) -> Option<DpObjective> {
        match self {
            ObjectiveName::Accuracy => Some(DpObjective::Accuracy),
            ObjectiveName::Balanced => Some(DpObjective::Balanced),
            ObjectiveName::F1 => Some(DpObjective::F1),
            ObjectiveName::Mcc => Some(DpObjective::Mcc),
            ObjectiveName::FowlkesMallows => Some(DpObjective::FowlkesMallows),
            ObjectiveName::Weighted | ObjectiveName::Auc | ObjectiveName::Pauc => None,
        }
    }

    /// The sparse search's loss.
    fn sparse(self) -> Option<SparseObjective> {
        match self {
            ObjectiveName::Accuracy => Some(SparseObjective::Accuracy),
            ObjectiveName::Balanced => Some(SparseObjective::Balanced),
            ObjectiveName::Weighted => Some(SparseObjective::Weighted),
            ObjectiveName::F1 => Some(SparseObjective::F1),
            ObjectiveName::Auc => Some(SparseObjective::Auc),
            ObjectiveName::Pauc => Some(SparseObjective::Pauc),
            ObjectiveName::Mcc | ObjectiveName::FowlkesMallows => None,
        }
    }

    /// The cost per error of a MILP formulation (`method`), or a refusal naming the methods
    /// that take this objective.
    pub fn for_milp(self, method: MethodKind) -> Result<Objective> {
        self.milp().ok_or_else(|| {
            self.refusal(
                method,
                " (the formulations count errors, and it is not a sum of errors over the leaves)",
            )
        })
    }

    /// The exact search's objective, or a refusal naming the methods that take this one.
    pub fn for_dp(self) -> Result<DpObjective> {
        self.dp().ok_or_else(|| self.refusal(MethodKind::Dp, ""))
    }

    /// The sparse search's loss, or a refusal naming the methods that take this one.
    pub fn for_sparse(self) -> Result<SparseObjective> {
        self.sparse()
            .ok_or_else(|| self.refusal(MethodKind::Sparse, ""))
    }

    /// The methods that take this objective, as each caller chooses them.
    fn takers(self) -> Named {
        let (command_line, python): (Vec<&str>, Vec<&str>) = TAKERS
            .into_iter()
            .filter(|&m| self.taken_by(m))
            .map(|m| match m {
                ConstraintTaker::Milp => (
                    "--formulation oct, binoct or flowoct",
                    "method='oct', 'binoct' or 'flowoct'",
                ),
                ConstraintTaker::Dp => ("--solver dp", "method='dp'"),
                ConstraintTaker::Sparse => ("--solver sparse", "method='sparse'"),
                ConstraintTaker::Olct => ("--formulation olct", "method='olct'"),
            })
            .unzip();
        Named {
            command_line: command_line.join(" and "),
            python: python.join(" and "),
        }
    }

    /// `method` does not take this objective (`why`): an error naming it and the methods that
    /// do, as the caller names them.
    fn refusal(self, method: MethodKind, why: &str) -> Error {
        Error::from(SettingError {
            setting: Setting::Objective,
            reason: Reason::ValueDoesNotApply {
                value: self.name().to_string(),
                method: method.chosen(),
                why: why.to_string(),
                takers: self.takers(),
            },
        })
    }
}

impl From<Objective> for ObjectiveName {
    fn from(objective: Objective) -> ObjectiveName {
        match objective {
            Objective::Accuracy => ObjectiveName::Accuracy,
            Objective::Balanced => ObjectiveName::Balanced,
        }
    }
}

impl From<DpObjective> for ObjectiveName {
    fn from(objective: DpObjective) -> ObjectiveName {
        match objective {
            DpObjective::Accuracy => ObjectiveName::Accuracy,
            DpObjective::Balanced => ObjectiveName::Balanced,
            DpObjective::F1 => ObjectiveName::F1,
            DpObjective::Mcc => ObjectiveName::Mcc,
            DpObjective::FowlkesMallows => ObjectiveName::FowlkesMallows,
        }
    }
}

impl From<SparseObjective> for ObjectiveName {
    fn from(objective: SparseObjective) -> ObjectiveName {
        match objective {
            SparseObjective::Accuracy => ObjectiveName::Accuracy,
            SparseObjective::Balanced => ObjectiveName::Balanced,
            SparseObjective::Weighted => ObjectiveName::Weighted,
            SparseObjective::F1 => ObjectiveName::F1,
            SparseObjective::Auc => ObjectiveName::Auc,
            SparseObjective::Pauc => ObjectiveName::Pauc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each method's form of an objective names it back: the forms and the table agree.
    #[test]
    fn each_form_is_the_objective_it_came_from() {
        for objective in ObjectiveName::ALL {
            assert_eq!(ObjectiveName::parse(objective.name()), Some(objective));
            if let Ok(form) = objective.for_milp(MethodKind::Oct) {
                assert_eq!(ObjectiveName::from(form), objective);
            }
            if let Ok(form) = objective.for_dp() {
                assert_eq!(ObjectiveName::from(form), objective);
            }
            if let Ok(form) = objective.for_sparse() {
                assert_eq!(ObjectiveName::from(form), objective);
                assert_eq!(form.name(), objective.name());
            }
            assert!(
                TAKERS.iter().any(|&m| objective.taken_by(m)),
                "{} is taken by no method",
                objective.name()
            );
        }
    }

    #[test]
    fn a_refusal_names_the_objective_the_method_and_the_methods_that_take_it() {
        let text = ObjectiveName::Mcc.for_sparse().unwrap_err().to_string();
        assert!(
            text.contains("mcc does not apply to --solver sparse; it applies to --solver dp"),
            "{text}"
        );
        let error = ObjectiveName::F1.for_milp(MethodKind::BinOct).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("f1 does not apply to --formulation binoct (the formulations count")
                && text.contains("it applies to --solver dp and --solver sparse"),
            "{text}"
        );
        let text = error.render(crate::setting::Names::Python);
        assert!(
            text.starts_with("invalid objective: f1 does not apply to method='binoct' (the")
                && text.ends_with("it applies to method='dp' and method='sparse'"),
            "{text}"
        );
        assert_eq!(
            ObjectiveName::taken(ConstraintTaker::Milp),
            [ObjectiveName::Accuracy, ObjectiveName::Balanced]
        );
        assert!(ObjectiveName::taken(ConstraintTaker::Olct).is_empty());
    }
}
