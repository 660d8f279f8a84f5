//! Greedy trees: CART with Gini impurity ([`cart`]) and the greedy logistic tree
//! ([`mod@logistic_tree`]) with its L1-regularised logistic regression ([`logistic_regression`])
//! and per-node fits ([`logistic_node`]).
//! They are milptree's baselines and the warm starts of the optimal formulations.

mod cart;
pub mod logistic_node;
pub mod logistic_regression;
pub mod logistic_tree;

pub use cart::{cart, check_depth, majority, CartParams};
pub use logistic_node::ScoreBound;
pub use logistic_regression::{Intercept, L1Logistic, LogisticFit};
pub use logistic_tree::{logistic_tree, LogisticTreeParams};
