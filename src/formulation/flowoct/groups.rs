//! The rows as FlowOCT sees them: rows with the same bin in every feature (so the same value
//! of every binary feature) are one group, with its count of rows of each class and the summed
//! error costs of those rows (class cost, class weight and row weight). Every split the model can
//! make routes a group's rows together, so a group needs one flow, and its classes' summed costs
//! weigh the flow that reaches a leaf predicting that class: exact, and as strong as one flow per
//! row (the LP relaxation of the grouped model is the per-row one with equal flows).

use std::collections::BTreeMap;

use crate::data::Dataset;
use crate::formulation::binoct::candidates::Candidates;

/// Rows identical on the binary features.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The bin of each feature (`bins[j]` = number of candidates of feature `j` below the value).
    pub bins: Vec<usize>,
    /// Rows of each class.
    pub counts: Vec<usize>,
    /// The summed error costs of the rows of each class.
    pub costs: Vec<f64>,
    /// The rows of the group.
    pub rows: Vec<usize>,
}

/// The groups of `data`'s rows over `candidates`, in the order of their first row, with the
/// cost `row_costs[i]` of an error on row `i`.
pub fn groups(data: &Dataset, candidates: &Candidates, row_costs: &[f64]) -> Vec<Group> {
    let mut index: BTreeMap<&[usize], usize> = BTreeMap::new();
    let mut groups: Vec<Group> = Vec::new();
    for (i, (bins, &label)) in candidates.bins.iter().zip(data.labels()).enumerate() {
        let g = *index.entry(bins.as_slice()).or_insert_with(|| {
            groups.push(Group {
                bins: bins.clone(),
                counts: vec![0; data.n_classes()],
                costs: vec![0.0; data.n_classes()],
                rows: Vec::new(),
            });
            groups.len() - 1
        });
        groups[g].counts[label] += 1;
        groups[g].costs[label] += row_costs[i];
        groups[g].rows.push(i);
    }
    groups
}
