//! OLCT: the L1-logistic regression against scikit-learn, the tangent sets, the greedy
//! logistic tree, the model (encode / decode / objective), refinement and probabilities.

mod greedy;
mod logistic_regression;
mod probability;
mod tangents;
