//! The tangent sets V0..V3: the points are the paper's, every line touches the logistic loss
//! at its point with the loss's slope, and every line (so their maximum) lies below the loss.
//! The loss and its slope are computed here by their textbook formulas, independently of the
//! library's.

use milptree::formulation::olct::{TangentLine, TangentPoint, TangentSet};

fn loss(u: f64) -> f64 {
    (1.0 + (-u).exp()).ln()
}

fn slope(u: f64) -> f64 {
    -(-u).exp() / (1.0 + (-u).exp())
}

const SETS: [TangentSet; 4] = [
    TangentSet::V0,
    TangentSet::V1,
    TangentSet::V2,
    TangentSet::V3,
];

#[test]
fn the_points_are_the_papers() {
    let magnitudes: [&[f64]; 4] = [
        &[],
        &[1.9],
        &[1.9, 0.89, 3.55],
        &[1.9, 0.89, 3.55, 0.44, 1.37, 2.63, 5.16],
    ];
    for (set, magnitudes) in SETS.iter().zip(magnitudes) {
        let mut expected: Vec<f64> = vec![0.0];
        for m in magnitudes {
            expected.push(*m);
            expected.push(-m);
        }
        expected.sort_by(f64::total_cmp);
        assert_eq!(set.finite_points(), expected, "{set}");
        let lines = set.lines();
        assert_eq!(
            lines.len(),
            expected.len() + 2,
            "{set}: finite points and two asymptotes"
        );
        assert!(lines.iter().any(|l| l.point == TangentPoint::PlusInfinity));
        assert!(lines.iter().any(|l| l.point == TangentPoint::MinusInfinity));
    }
    assert_eq!(TangentSet::default(), TangentSet::V0);
    for k in 0..4 {
        assert_eq!(TangentSet::from_index(k).unwrap().index(), k);
    }
    let err = TangentSet::from_index(4).unwrap_err().to_string();
    assert!(err.contains("0, 1, 2 or 3"), "{err}");
}

#[test]
fn each_line_touches_the_loss_with_its_slope() {
    for set in SETS {
        for line in set.lines() {
            match line.point {
                TangentPoint::Finite(v) => {
                    assert!((line.value(v) - loss(v)).abs() < 1e-14, "{set} at {v}");
                    assert!((line.slope - slope(v)).abs() < 1e-14, "{set} at {v}");
                    let h = 1e-5;
                    let numeric = (loss(v + h) - loss(v - h)) / (2.0 * h);
                    assert!((line.slope - numeric).abs() < 1e-9, "{set} at {v}");
                }
                TangentPoint::PlusInfinity => {
                    assert_eq!((line.intercept, line.slope), (0.0, 0.0));
                    // The loss approaches the asymptote 0 from above.
                    assert!(loss(30.0) < 1e-12 && loss(30.0) > 0.0);
                }
                TangentPoint::MinusInfinity => {
                    assert_eq!((line.intercept, line.slope), (0.0, -1.0));
                    assert!((loss(-40.0) - 40.0).abs() < 1e-16);
                }
            }
        }
    }
}

#[test]
fn every_line_and_their_maximum_underestimate_the_loss() {
    for set in SETS {
        let lines: Vec<TangentLine> = set.lines();
        for k in -6000..=6000 {
            let u = f64::from(k) * 0.01;
            let f = loss(u);
            for line in &lines {
                assert!(
                    line.value(u) <= f + 1e-13,
                    "{set}: line at {} at u = {u}",
                    line.point
                );
            }
            let surrogate = set.surrogate(u);
            assert!(
                surrogate <= f + 1e-13 && surrogate >= 0.0,
                "{set} at u = {u}"
            );
        }
        // The maximum equals the loss at every finite tangent point.
        for v in set.finite_points() {
            assert!((set.surrogate(v) - loss(v)).abs() < 1e-14, "{set} at {v}");
        }
    }
}

#[test]
fn larger_sets_approximate_better() {
    let worst = |set: TangentSet| {
        (-1000..=1000)
            .map(|k| f64::from(k) * 0.01)
            .map(|u| loss(u) - set.surrogate(u))
            .fold(0.0, f64::max)
    };
    let gaps: Vec<f64> = SETS.iter().map(|&s| worst(s)).collect();
    for pair in gaps.windows(2) {
        assert!(pair[1] < pair[0], "{gaps:?}");
    }
    // V0's largest gap is at u = +-2 ln 2 where log 2 - u/2 meets an asymptote.
    let corner = 2.0 * 2f64.ln();
    assert!((gaps[0] - loss(corner)).abs() < 1e-3, "{gaps:?}");
}
