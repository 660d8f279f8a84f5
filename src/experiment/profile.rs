//! Performance profiles (Dolan & Moré 2002) of time to optimality.
//!
//! For a set of problems `P` and of configurations `S` (here: formulation × solver), with
//! `t[p,s]` the seconds configuration `s` took to solve problem `p` to proven optimality, the
//! performance ratio is `r[p,s] = t[p,s] / min_s' t[p,s']`, and the profile of `s` is
//! `ρ_s(τ) = |{p : r[p,s] <= τ}| / |P|`: the fraction of problems `s` solved within a factor
//! `τ` of the fastest. A run that did not prove optimality (time limit, error, no solution)
//! gets the failure ratio `r_M`, larger than every finite ratio, so it never counts for
//! `τ < r_M`; a problem no configuration solved counts as failed for all. Here `r_M` is twice
//! the largest finite ratio (at least 2), and the curves are drawn on `[1, r_M)`. Times below
//! [`MIN_SECONDS`] count as that, so instant solves do not make ratios explode.

use std::collections::{BTreeMap, BTreeSet};

/// The smallest time a ratio uses, in seconds.
pub const MIN_SECONDS: f64 = 0.001;

/// The profile of one configuration: `(τ, ρ(τ))` where `ρ` steps up, from `τ = 1`.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub label: String,
    /// Step points: at each `τ` the curve jumps to the given fraction.
    pub steps: Vec<(f64, f64)>,
    /// Problems solved to optimality (its `ρ` just below `r_M`).
    pub solved: usize,
}

/// A performance profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub curves: Vec<Curve>,
    /// Number of problems.
    pub problems: usize,
    /// The failure ratio `r_M`.
    pub failure_ratio: f64,
}

/// The profile of `times`: `(problem, configuration) -> seconds to optimality` (`None`: not
/// solved to optimality). Only problems that every configuration ran are used.
pub fn performance_profile(times: &BTreeMap<(String, String), Option<f64>>) -> Profile {
    let configurations: BTreeSet<&String> = times.keys().map(|(_, s)| s).collect();
    let problems: BTreeSet<&String> = times.keys().map(|(p, _)| p).collect();
    let complete: Vec<&String> = problems
        .into_iter()
        .filter(|p| {
            configurations
                .iter()
                .all(|s| times.contains_key(&((*p).clone(), (*s).clone())))
        })
        .collect();
    let mut ratios: BTreeMap<&String, Vec<f64>> = BTreeMap::new();
    let mut largest: f64 = 1.0;
    for problem in &complete {
        let time = |s: &String| {
            times
                .get(&((*problem).clone(), s.clone()))
                .copied()
                .flatten()
                .map(|t| t.max(MIN_SECONDS))
        };
        let best = configurations
            .iter()
            .filter_map(|s| time(s))
            .fold(f64::INFINITY, f64::min);
        for s in &configurations {
            if let Some(t) = time(s) {
                let ratio = t / best;
                largest = largest.max(ratio);
                ratios.entry(*s).or_default().push(ratio);
            }
        }
    }
    let n = complete.len();
    let curves = configurations
        .iter()
        .map(|s| {
            let mut finite = ratios.remove(*s).unwrap_or_default();
            finite.sort_by(f64::total_cmp);
            let mut steps: Vec<(f64, f64)> = Vec::new();
            for (index, &ratio) in finite.iter().enumerate() {
                let fraction = (index + 1) as f64 / n as f64;
                match steps.last_mut() {
                    Some(last) if last.0 == ratio => last.1 = fraction,
                    _ => steps.push((ratio, fraction)),
                }
            }
            Curve {
                label: (*s).clone(),
                steps,
                solved: finite.len(),
            }
        })
        .collect();
    Profile {
        curves,
        problems: n,
        failure_ratio: 2.0 * largest,
    }
}

impl Curve {
    /// `ρ(τ)`: the fraction of problems solved within a factor `τ` of the fastest.
    pub fn value_at(&self, tau: f64) -> f64 {
        self.steps
            .iter()
            .take_while(|(ratio, _)| *ratio <= tau)
            .last()
            .map_or(0.0, |(_, fraction)| *fraction)
    }
}
