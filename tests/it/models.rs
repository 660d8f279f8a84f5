//! Hand-made models with known optima, shared by the `mip`, `solver` and `round_trip` tests.

use milptree::mip::{constraint, Expression, MipModel, RowSense, Variable};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A model, its proven optimum (objective constant included) and its variables.
pub struct Known {
    pub model: MipModel,
    pub optimum: f64,
    pub vars: Vec<Variable>,
}

/// Binary knapsack: values 10 13 7 8 5 9, weights 5 7 4 5 3 6, capacity 15; the maximum value
/// is 28 (items 0, 1, 4), so the minimum of `-value` is -28.
pub fn knapsack() -> Known {
    let values = [10.0, 13.0, 7.0, 8.0, 5.0, 9.0];
    let weights = [5.0, 7.0, 4.0, 5.0, 3.0, 6.0];
    let mut model = MipModel::new("knapsack");
    let x: Vec<Variable> = (0..values.len())
        .map(|i| model.binary(format!("x[i={i}]")))
        .collect();
    let weight: Expression = x.iter().zip(weights).map(|(&v, w)| w * v).sum();
    model.add_constraint("capacity", constraint!(weight <= 15.0));
    let value: Expression = x.iter().zip(values).map(|(&v, c)| c * v).sum();
    model.set_objective(-value);
    Known {
        model,
        optimum: -28.0,
        vars: x,
    }
}

/// 4x4 assignment (equality rows); the cheapest assignment costs 13.
pub fn assignment() -> Known {
    let cost = [
        [9.0, 2.0, 7.0, 8.0],
        [6.0, 4.0, 3.0, 7.0],
        [5.0, 8.0, 1.0, 8.0],
        [7.0, 6.0, 9.0, 4.0],
    ];
    let mut model = MipModel::new("assignment");
    let mut x = Vec::new();
    for i in 0..4 {
        for j in 0..4 {
            x.push(model.binary(format!("x[w={i},t={j}]")));
        }
    }
    for i in 0..4 {
        let row: Expression = (0..4).map(|j| x[4 * i + j]).sum();
        model.add_constraint(format!("worker[w={i}]"), constraint!(row == 1.0));
    }
    for j in 0..4 {
        let column: Expression = (0..4).map(|i| x[4 * i + j]).sum();
        model.add_constraint(format!("task[t={j}]"), constraint!(column == 1.0));
    }
    let objective: Expression = (0..16).map(|k| cost[k / 4][k % 4] * x[k]).sum();
    model.set_objective(objective);
    Known {
        model,
        optimum: 13.0,
        vars: x,
    }
}

/// Set cover of elements 0..6 by five sets ({0,1,2}: 3, {2,3}: 2, {3,4,5}: 4, {0,5}: 2,
/// {1,4}: 2); the cheapest cover costs 6 (sets 1, 3, 4). Rows are `>=` rows.
pub fn set_cover() -> Known {
    let sets: [(&[usize], f64); 5] = [
        (&[0, 1, 2], 3.0),
        (&[2, 3], 2.0),
        (&[3, 4, 5], 4.0),
        (&[0, 5], 2.0),
        (&[1, 4], 2.0),
    ];
    let mut model = MipModel::new("set cover");
    let s: Vec<Variable> = (0..sets.len())
        .map(|k| model.binary(format!("s[k={k}]")))
        .collect();
    for element in 0..6 {
        let covering: Expression = sets
            .iter()
            .zip(&s)
            .filter(|((members, _), _)| members.contains(&element))
            .map(|(_, &v)| v)
            .sum();
        model.add_constraint(format!("cover[e={element}]"), constraint!(covering >= 1.0));
    }
    let cost: Expression = sets.iter().zip(&s).map(|((_, c), &v)| *c * v).sum();
    model.set_objective(cost);
    Known {
        model,
        optimum: 6.0,
        vars: s,
    }
}

/// General integers (one with negative bounds), a binary, a bounded and a free continuous
/// column, `<=`, `>=` and `=` rows, an objective constant of 5; optimum -10.5 at a = 4, b = -1,
/// z = 0, w = -3, q = 1. Variables: a, b, z, w, q.
pub fn mixed() -> Known {
    let mut model = MipModel::new("mixed");
    let a = model.integer("a", 0.0, f64::INFINITY);
    let b = model.integer("b", -4.0, 2.0);
    let z = model.binary("z");
    let w = model.continuous("w", -3.0, 7.0);
    let q = model.continuous("q", f64::NEG_INFINITY, f64::INFINITY);
    model.add_constraint("c1", constraint!(a + z <= 4.0));
    model.add_row("c2", a - w, RowSense::Ge, -2.0);
    model.add_constraint("c3", constraint!(z + q == 1.0));
    model.add_row("c4", a + b, RowSense::Ge, 1.0);
    model.add_constraint("c5", constraint!(2.0 * a - 3.0 * b <= 11.0));
    model.set_objective(-3.0 * a + b - 2.0 * z + w + 0.5 * q + 5.0);
    Known {
        model,
        optimum: -10.5,
        vars: vec![a, b, z, w, q],
    }
}

/// An LP (no integer column): min x + y, x + 2y >= 3, 3x + y >= 4; optimum 2 at (1, 1).
pub fn lp() -> Known {
    let mut model = MipModel::new("lp");
    let x = model.continuous("x", 0.0, f64::INFINITY);
    let y = model.continuous("y", 0.0, f64::INFINITY);
    model.add_constraint("r1", constraint!(x + 2.0 * y >= 3.0));
    model.add_constraint("r2", constraint!(3.0 * x + y >= 4.0));
    model.set_objective(x + y);
    Known {
        model,
        optimum: 2.0,
        vars: vec![x, y],
    }
}

/// Infeasible even as an LP: two binaries summing to at least 3.
pub fn infeasible() -> MipModel {
    let mut model = MipModel::new("infeasible");
    let x = model.binary("x");
    let y = model.binary("y");
    model.add_constraint("too_much", constraint!(x + y >= 3.0));
    model.set_objective(x + y);
    model
}

/// Feasible as an LP, infeasible with integrality: 2x = 1, x integer.
pub fn integer_infeasible() -> MipModel {
    let mut model = MipModel::new("integer infeasible");
    let x = model.integer("x", 0.0, 10.0);
    model.add_constraint("half", constraint!(2.0 * x == 1.0));
    model.set_objective(Expression::from(x));
    model
}

/// Unbounded: min -x - y, x integer >= 0, y >= 0, x - y <= 3.
pub fn unbounded() -> MipModel {
    let mut model = MipModel::new("unbounded");
    let x = model.integer("x", 0.0, f64::INFINITY);
    let y = model.continuous("y", 0.0, f64::INFINITY);
    model.add_constraint("link", constraint!(x - y <= 3.0));
    model.set_objective(-x - y);
    model
}

/// A multi-dimensional knapsack of 60 binaries and 5 rows (fixed seed) that neither solver
/// finishes with a time limit of 0, and a feasible greedy start for it.
pub fn hard_knapsack() -> (MipModel, Vec<Variable>, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let n = 60;
    let mut model = MipModel::new("hard knapsack");
    let x: Vec<Variable> = (0..n).map(|i| model.binary(format!("x[i={i}]"))).collect();
    let mut rows = Vec::new();
    for k in 0..5 {
        let weights: Vec<f64> = (0..n).map(|_| f64::from(rng.random_range(5..65))).collect();
        let capacity = weights.iter().sum::<f64>() / 2.0;
        let load: Expression = x.iter().zip(&weights).map(|(&v, &w)| w * v).sum();
        model.add_constraint(format!("capacity[k={k}]"), constraint!(load <= capacity));
        rows.push((weights, capacity));
    }
    let values: Vec<f64> = (0..n)
        .map(|_| f64::from(rng.random_range(10..100)))
        .collect();
    let value: Expression = x.iter().zip(&values).map(|(&v, &c)| c * v).sum();
    model.set_objective(-value);
    // Greedy start: take items in order while every row has room.
    let mut start = vec![0.0; n];
    let mut loads = vec![0.0; rows.len()];
    for i in 0..n {
        if rows
            .iter()
            .zip(&loads)
            .all(|((weights, capacity), load)| load + weights[i] <= *capacity)
        {
            start[i] = 1.0;
            for ((weights, _), load) in rows.iter().zip(loads.iter_mut()) {
                *load += weights[i];
            }
        }
    }
    (model, x, start)
}

/// A multi-dimensional knapsack of 200 binaries and 20 rows (fixed seed) that neither solver
/// proves optimal within a second on the test machines.
pub fn slow_knapsack() -> MipModel {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let n = 200;
    let mut model = MipModel::new("slow knapsack");
    let x: Vec<Variable> = (0..n).map(|i| model.binary(format!("x[i={i}]"))).collect();
    for k in 0..20 {
        let load: Expression = x
            .iter()
            .map(|&v| f64::from(rng.random_range(5..60)) * v)
            .sum();
        model.add_constraint(
            format!("capacity[k={k}]"),
            constraint!(load <= 10.0 * n as f64),
        );
    }
    let value: Expression = x
        .iter()
        .map(|&v| f64::from(rng.random_range(3..34)) * v)
        .sum();
    model.set_objective(-value);
    model
}
