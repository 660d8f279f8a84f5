//! The training data as OLCT sees it: two classes (a multiclass dataset relabelled as the
//! positive class against the rest), labels y in {-1, +1}, the weight of each row's loss (its row
//! weight times its class's weight), the standardisation fitted on the training rows, the
//! standardised rows, the weight `C_h` of each level, and the score bound
//! `sum_j Z_j |w_j| + |b| <= S` that keeps the big-M constraints valid.

use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::greedy::logistic_node::{standardised_rows, ScoreBound};
use crate::score::{class_weight_vector, ClassWeight};
use crate::tree::Standardisation;

/// Checked OLCT settings: the per-level weights and the bounds derived from `M` and epsilon.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub depth: usize,
    /// `C_h`, root level first (length `depth`).
    pub c: Vec<f64>,
    pub big_m: f64,
    pub epsilon: f64,
    /// `S = M - max(epsilon, ln 2)`: the largest `|w . z_i + b|` a node may reach.
    pub score_limit: f64,
}

/// The relabelled, standardised training data of one OLCT model.
#[derive(Debug, Clone)]
pub(crate) struct Training {
    /// The two-class training data (relabelled when the input had more classes).
    pub data: Dataset,
    /// The class index (in `data.classes`) of y = +1.
    pub positive_class: usize,
    /// `y_i = +1` for each row.
    pub positive: Vec<bool>,
    /// The weight of each row's loss: its row weight times its class's weight (the class of
    /// the data as given, before any relabelling).
    pub loss_weights: Vec<f64>,
    pub standardisation: Standardisation,
    /// `Z_j` and `S`.
    pub bound: ScoreBound,
    /// Standardised rows, constant features set to exactly 0.
    pub z: Vec<Vec<f64>>,
    pub settings: Settings,
}

impl Training {
    /// `y_i` as a number.
    pub fn y(&self, i: usize) -> f64 {
        if self.positive[i] {
            1.0
        } else {
            -1.0
        }
    }

    /// The class index of y = -1.
    pub fn negative_class(&self) -> usize {
        1 - self.positive_class
    }

    /// Whether some row's loss weighs other than 1.
    pub fn is_weighted(&self) -> bool {
        self.loss_weights.iter().any(|&w| w != 1.0)
    }
}

/// Names the classes for messages.
fn class_list(data: &Dataset) -> String {
    data.classes()
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The dataset relabelled as `positive` against the rest (`not <positive>`), or `None` when
/// it already has two classes. Errors name the classes when the positive class is missing or
/// unknown.
pub(crate) fn relabel(data: &Dataset, positive: Option<&str>) -> Result<Option<Dataset>> {
    let k = data.n_classes();
    if k < 2 {
        return Err(Error::input(
            data.source(),
            format!(
                "OLCT needs two classes, the data has {k} ({})",
                class_list(data)
            ),
        ));
    }
    if let Some(label) = positive {
        if !data.classes().iter().any(|c| c == label) {
            return Err(Error::parameter(
                "--positive-class",
                format!(
                    "`{label}` is not a class of the data; the classes are {}",
                    class_list(data)
                ),
            ));
        }
    }
    if k == 2 {
        return Ok(None);
    }
    let Some(label) = positive else {
        return Err(Error::parameter(
            "--positive-class",
            format!(
                "OLCT is a binary classifier and the data has {k} classes ({}): name the \
                 positive class, the others are then classified together as `not <class>`",
                class_list(data)
            ),
        ));
    };
    let positive_index = data
        .classes()
        .iter()
        .position(|c| c == label)
        .expect("checked above");
    let labels = data
        .labels()
        .iter()
        .map(|&l| usize::from(l == positive_index))
        .collect();
    Ok(Some(data.relabelled(
        vec![format!("not {label}"), label.to_string()],
        labels,
    )?))
}

impl Training {
    /// Prepares `data` (relabelled first when it has more than two classes), each row's loss
    /// weighted by its row weight and by `class_weights` of its class in `data`.
    pub fn new(
        data: &Dataset,
        positive: Option<&str>,
        class_weights: &[ClassWeight],
        settings: Settings,
    ) -> Result<Training> {
        let factors = class_weight_vector(class_weights, data, "--class-weight")?;
        let loss_weights: Vec<f64> = data
            .labels()
            .iter()
            .enumerate()
            .map(|(i, &label)| data.weight(i) * factors[label])
            .collect();
        crate::formulation::costs::check_range(&loss_weights, &factors, data)?;
        let data = match relabel(data, positive)? {
            Some(relabelled) => relabelled,
            None => data.clone(),
        };
        if data.n_rows() == 0 {
            return Err(Error::input(data.source(), "no training rows"));
        }
        let positive_class = match positive {
            Some(label) => data
                .classes()
                .iter()
                .position(|c| c == label)
                .ok_or_else(|| {
                    Error::parameter(
                        "--positive-class",
                        format!(
                            "`{label}` is not a class of the data ({})",
                            class_list(&data)
                        ),
                    )
                })?,
            // scikit-learn's convention: the second class is the positive one.
            None => 1,
        };
        let p = data.n_features();
        // Weighted rows count as often as their weight, as if repeated.
        let standardisation = match data.weights() {
            Some(weights) => Standardisation::fit_weighted(data.rows(), p, weights),
            None => Standardisation::fit(data.rows(), p),
        };
        let plain = standardised_rows(data.rows(), &standardisation, None);
        let bound = ScoreBound::new(&plain, p, settings.score_limit);
        let z = standardised_rows(data.rows(), &standardisation, Some(&bound));
        let positive = data.labels().iter().map(|&l| l == positive_class).collect();
        Ok(Training {
            data,
            positive_class,
            positive,
            loss_weights,
            standardisation,
            bound,
            z,
            settings,
        })
    }
}
