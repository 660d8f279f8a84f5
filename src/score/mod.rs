//! Scores and error costs, the floor every learner and the evaluator stand on: the errors of a
//! two-class classifier ([`Point`]), its confusion counts and the metrics they decide
//! ([`Confusion`], [`Metric`]), errors counted in weight ([`Errors`], [`ClassUnits`]), and
//! what an error on each class costs ([`Objective`], [`ClassWeight`]). Nothing here knows a
//! tree, a model or a search.

mod error_cost;
pub mod metric;
mod point;
mod weighted;

pub use error_cost::{class_index, class_weight_vector, ClassWeight, Objective};
pub use metric::{Confusion, Metric};
pub use point::Point;
pub use weighted::{optional_whole_as_integer, whole_as_integer, ClassUnits, Errors};
