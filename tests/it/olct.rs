//! OLCT: the L1-logistic regression against scikit-learn, the tangent sets, the greedy
//! logistic tree, the model (encode / decode / objective), refinement and probabilities.

mod errors;
mod greedy;
mod independent;
mod logistic_regression;
mod model;
mod probability;
mod solve;
mod tangents;
mod weights;
