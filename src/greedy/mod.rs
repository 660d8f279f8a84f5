//! Greedy trees: CART with Gini impurity ([`cart`]). They are milptree's baseline and the warm
//! starts of the optimal formulations.

mod cart;

pub use cart::{cart, check_depth, majority, CartParams};
