//! The rows of side constraints, shared by every formulation that says which feature each node
//! splits on ([`BuiltModel::feature_usage`]), and the formulation that wraps another with them
//! ([`Constrained`]). With `u[n,j]` the model's expression of "node `n` splits on feature
//! `j`":
//! - `forbid[n=..,j=..]`: `u[n,j] <= 0` for every node whose depth the constraints do not
//!   permit `j` at (forbidden features, features allowed only at given depths);
//! - with a count or a budget, a binary `used[j=..]` per feature of the data, with `use[n=..,j=..]`:
//!   `u[n,j] - used[j] <= 0`, then `max_features`: `sum_j used[j] <= K` and `budget`:
//!   `sum_j c_j used[j] <= B`;
//! - `max_leaves`: `sum_{n,j} u[n,j] <= L - 1` (a node splits on at most one feature, so the
//!   sum counts the splits, and a tree has one leaf more than splits);
//! - `min_leaf_rows`, `max_leaf_rows`: bounds on the rows of each leaf
//!   ([`crate::formulation::leaf_rows`]);
//! - each row of the user's, `user_row[r]`, over the model's variables by name;
//! - fairness between groups: the rows of [`crate::formulation::fairness_rows`] over the model's
//!   predictions of the positive class ([`BuiltModel::class_predictions`]).
//!
//! Decoding re-evaluates the constraints on the returned tree by plain code
//! ([`crate::constraints::evaluate`]) and the user's rows on the solution; a tree or solution
//! that breaks one is an error. A warm start that breaks one is refused
//! ([`Formulation::refuses_start`]).

use std::collections::HashMap;

use crate::constraints::{evaluate, SideConstraints};
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::formulation::fairness_rows::FairnessRows;
use crate::formulation::leaf_rows::{add_bounds, LeafRowColumns};
use crate::formulation::{BuiltModel, Decoded, Encoded, Formulation, StartKind, VariableRole};
use crate::mip::{Assignment, Expression, MipModel, RowSense, Variable, FEASIBILITY_TOLERANCE};
use crate::solver::SolverKind;
use crate::tree::{node_depth, Tree};

/// A formulation with side constraints.
#[derive(Debug, Clone, Copy)]
pub struct Constrained<'a, F> {
    pub inner: &'a F,
    pub constraints: &'a SideConstraints,
}

/// A user's row resolved against the model: its text and `(column, coefficient)` terms.
#[derive(Debug, Clone)]
struct ResolvedRow {
    row: crate::constraints::UserRow,
    terms: Vec<(usize, f64)>,
}

/// The inner formulation's model with the rows of the side constraints.
#[derive(Debug)]
pub struct ConstrainedModel<B> {
    inner: B,
    mip: MipModel,
    /// `used[j]` of each feature that has one.
    used: Vec<(usize, Variable)>,
    rows: Vec<ResolvedRow>,
    /// The columns of the fairness rows, if any.
    fairness: Option<FairnessRows>,
    /// The columns of the bounds on the rows per leaf, when there are some.
    leaf_rows: Option<LeafRowColumns>,
}

/// The column of `name`: a readable name or the name written to LP files.
fn column_of(mip: &MipModel, names: &HashMap<String, usize>, name: &str) -> Result<usize> {
    names.get(name).copied().ok_or_else(|| {
        let known: Vec<&str> = mip.vars().iter().take(8).map(|v| v.name.as_str()).collect();
        Error::parameter(
            "--constraints",
            format!(
                "rows: `{name}` is not a variable of model `{}` (its variables are named as \
                 `export-lp` lists them, e.g. {}, ...)",
                mip.name(),
                known.join(", ")
            ),
        )
    })
}

impl<B: BuiltModel> ConstrainedModel<B> {
    /// The rows of `constraints` added to a copy of `inner`'s model.
    fn new(
        inner: B,
        constraints: &SideConstraints,
        formulation: &str,
        n_rows: usize,
    ) -> Result<Self> {
        let usage = inner.feature_usage().ok_or_else(|| {
            Error::parameter(
                "--constraints",
                format!(
                    "{formulation} does not take side constraints (oct, binoct and flowoct do)"
                ),
            )
        })?;
        let mut mip = inner.mip().clone();
        for u in usage
            .iter()
            .filter(|u| !constraints.permits(u.feature, node_depth(u.node)))
        {
            mip.add_row(
                format!("forbid[n={},j={}]", u.node, u.feature),
                u.expression.clone(),
                RowSense::Le,
                0.0,
            );
        }
        let mut used = Vec::new();
        if constraints.counts_features() {
            // One indicator per feature of the data, split on or not, so that rows of the
            // user's name the same columns in every model.
            used = (0..constraints.costs.len())
                .map(|j| (j, mip.binary(format!("used[j={j}]"))))
                .collect();
            for u in &usage {
                mip.add_row(
                    format!("use[n={},j={}]", u.node, u.feature),
                    u.expression.clone() - used[u.feature].1,
                    RowSense::Le,
                    0.0,
                );
            }
            if let Some(k) = constraints.max_features {
                let sum: Expression = used.iter().map(|&(_, y)| Expression::from(y)).sum();
                mip.add_row("max_features", sum, RowSense::Le, k as f64);
            }
            if let Some(budget) = constraints.budget {
                let sum: Expression = used.iter().map(|&(j, y)| constraints.costs[j] * y).sum();
                mip.add_row("budget", sum, RowSense::Le, budget);
            }
        }
        if let Some(most) = constraints.max_leaves {
            let splits: Expression = usage.iter().map(|u| u.expression.clone()).sum();
            mip.add_row("max_leaves", splits, RowSense::Le, most as f64 - 1.0);
        }
        let fairness = match &constraints.fairness {
            Some(f) => {
                let units = inner.class_predictions(f.positive).ok_or_else(|| {
                    Error::parameter(
                        "--group-column",
                        format!(
                            "{formulation} does not take fairness constraints (oct, binoct and \
                             flowoct do)"
                        ),
                    )
                })?;
                Some(FairnessRows::add(&mut mip, &units, f))
            }
            None => None,
        };
        let leaf_rows = if constraints.bounds_leaf_rows() {
            Some(add_bounds(
                &inner,
                &mut mip,
                constraints.min_leaf_rows,
                constraints.max_leaf_rows,
                n_rows,
                formulation,
            )?)
        } else {
            None
        };
        let mut names: HashMap<String, usize> = HashMap::new();
        for (column, var) in mip.vars().iter().enumerate() {
            names.insert(var.name.clone(), column);
            names.insert(mip.file_name(column).to_string(), column);
        }
        let mut rows = Vec::new();
        for (r, row) in constraints.rows.iter().enumerate() {
            let terms = row
                .terms
                .iter()
                .map(|(c, name)| Ok((column_of(&mip, &names, name)?, *c)))
                .collect::<Result<Vec<_>>>()?;
            let lhs: Expression = terms.iter().map(|&(c, w)| w * mip.variable(c)).sum();
            mip.add_row(format!("user_row[{r}]"), lhs, row.sense, row.rhs);
            rows.push(ResolvedRow {
                row: row.clone(),
                terms,
            });
        }
        Ok(ConstrainedModel {
            inner,
            mip,
            used,
            rows,
            fairness,
            leaf_rows,
        })
    }

    /// The user's rows at `values`, each as `{row, activity, holds}`, and whether all hold.
    fn rows_at(&self, values: &[f64]) -> (serde_json::Value, bool) {
        let mut all = true;
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|r| {
                let activity: f64 = r.terms.iter().map(|&(c, w)| w * values[c]).sum();
                let holds = r.row.holds(activity, FEASIBILITY_TOLERANCE);
                all &= holds;
                serde_json::json!({ "row": r.row.text, "activity": activity, "holds": holds })
            })
            .collect();
        (rows.into(), all)
    }
}

impl<B: BuiltModel> BuiltModel for ConstrainedModel<B> {
    fn mip(&self) -> &MipModel {
        &self.mip
    }

    fn variable_roles(&self) -> Vec<VariableRole> {
        let mut roles = self.inner.variable_roles();
        let inner_columns = self.inner.mip().vars().len();
        for (column, var) in self.mip.vars().iter().enumerate().skip(inner_columns) {
            let meaning = match self.used.iter().find(|&&(_, y)| self.mip.col(y) == column) {
                Some(&(j, _)) => format!("1 if some node splits on feature {j}"),
                None => "a column of the side constraints".to_string(),
            };
            roles.push(VariableRole {
                name: var.name.clone(),
                node: None,
                meaning,
            });
        }
        roles
    }

    fn objective_tolerance(&self) -> f64 {
        self.inner.objective_tolerance()
    }

    fn integrality_tolerance(&self) -> Option<f64> {
        self.inner.integrality_tolerance()
    }

    fn solver_options(&self, solver: SolverKind, start: StartKind) -> Vec<(String, String)> {
        self.inner.solver_options(solver, start)
    }

    fn feature_usage(&self) -> Option<Vec<crate::formulation::FeatureUse>> {
        self.inner.feature_usage()
    }

    fn node_choices(&self, node: usize) -> Option<crate::formulation::RootSplits> {
        self.inner.node_choices(node)
    }

    fn post_process(&self, tree: Tree) -> Result<(Tree, serde_json::Value)> {
        self.inner.post_process(tree)
    }
}

impl<F: Formulation> Constrained<'_, F> {
    /// The constraints' values on `tree` as reported, with the user's rows at `values` (the
    /// solution), and whether the tree and solution meet them all.
    fn report(
        &self,
        built: &ConstrainedModel<F::Built>,
        tree: &Tree,
        values: Option<&[f64]>,
    ) -> (serde_json::Value, bool) {
        let (mut report, mut ok) = crate::constraints::report(self.constraints, tree);
        if let Some(values) = values.filter(|_| !built.rows.is_empty()) {
            let (rows, hold) = built.rows_at(values);
            ok &= hold;
            report["rows"] = rows;
        }
        (report, ok)
    }
}

impl<F: Formulation> Formulation for Constrained<'_, F> {
    type Built = ConstrainedModel<F::Built>;

    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn depth(&self) -> usize {
        self.inner.depth()
    }

    fn parameters(&self) -> serde_json::Value {
        self.inner.parameters()
    }

    fn build(&self, data: &Dataset) -> Result<Self::Built> {
        let inner = self.inner.build_under(data, self.constraints)?;
        ConstrainedModel::new(inner, self.constraints, self.inner.name(), data.n_rows())
    }

    fn refuses_start(
        &self,
        built: &Self::Built,
        tree: &Tree,
        assignment: Option<&Assignment>,
    ) -> Option<String> {
        let mut broken = evaluate(self.constraints, tree).broken;
        if let Some(values) = assignment.and_then(|a| built.mip.values_of(a).ok()) {
            let (rows, _) = built.rows_at(values);
            for row in rows.as_array().into_iter().flatten() {
                if row["holds"] == false {
                    broken.push(format!(
                        "it breaks the row `{}`",
                        row["row"].as_str().unwrap_or_default()
                    ));
                }
            }
        }
        (!broken.is_empty()).then(|| broken.join("; "))
    }

    /// The inner model's encoding, with `used[j]` = 1 for the features the tree splits on and
    /// the columns of the bounds on the rows per leaf set from the inner model's values (the
    /// user's rows are left to the solver to check).
    fn encode(&self, built: &Self::Built, tree: &Tree) -> Result<Encoded> {
        let encoded = self.inner.encode(&built.inner, tree)?;
        let mut values = encoded.assignment.values().to_vec();
        let used = evaluate(self.constraints, &encoded.tree).features_used;
        values.resize(built.mip.vars().len(), 0.0);
        if let Some(fairness) = &built.fairness {
            fairness.fill(&built.mip, &mut values);
        }
        for &(j, y) in &built.used {
            let on = used.contains(&self.constraints.feature_names[j]);
            values[built.mip.col(y)] = f64::from(u8::from(on));
        }
        if let Some(leaf_rows) = &built.leaf_rows {
            leaf_rows.start(&built.mip, &mut values);
        }
        Ok(Encoded {
            assignment: built.mip.assignment_from_values(values)?,
            tree: encoded.tree,
            notes: encoded.notes,
        })
    }

    /// The inner model's decoding of the solution's inner columns; a tree or solution that
    /// breaks a side constraint is an error.
    fn decode(&self, built: &Self::Built, solution: &Assignment) -> Result<Decoded> {
        let values = built.mip.values_of(solution)?;
        let inner_columns = built.inner.mip().vars().len();
        let inner = built
            .inner
            .mip()
            .assignment_from_values(values[..inner_columns].to_vec())?;
        let decoded = self.inner.decode(&built.inner, &inner)?;
        let (report, ok) = self.report(built, &decoded.tree, Some(values));
        if !ok {
            return Err(Error::Model(format!(
                "the decoded tree or the solution breaks the side constraints: {report}"
            )));
        }
        Ok(decoded)
    }

    fn objective_of(&self, built: &Self::Built, tree: &Tree) -> Result<f64> {
        self.inner.objective_of(&built.inner, tree)
    }

    fn side_constraints_report(
        &self,
        built: &Self::Built,
        tree: &Tree,
        solution: Option<&Assignment>,
    ) -> serde_json::Value {
        let values = solution.and_then(|s| built.mip.values_of(s).ok());
        self.report(built, tree, values).0
    }
}
