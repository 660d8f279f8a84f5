//! The L1-regularised logistic regression against scikit-learn 1.9.1 on seven standardised
//! columns of the bundled breast-cancer data (`malignant` is the positive class).
//!
//! liblinear minimises `||(w, w_b)||_1 + C sum_i log(1 + exp(-y_i (w . x_i + s w_b)))` with the
//! intercept `s w_b` penalised through an extra feature of value `s = intercept_scaling`: our
//! `Intercept::Penalised { scaling: s }`. saga penalises only `w`, as the OLCT objective does:
//! our `Intercept::Unpenalised`. The numbers were produced by:
//!
//! ```text
//! python3 -c "
//! import pandas as pd
//! from sklearn.linear_model import LogisticRegression as LR
//! from sklearn.preprocessing import StandardScaler
//! d = pd.read_csv('datasets/breast_cancer.csv')
//! cols = ['mean_texture','mean_smoothness','mean_concave_points','mean_symmetry',
//!         'radius_error','worst_texture','worst_area']
//! X = StandardScaler().fit_transform(d[cols].values); y = d['class'].values == 'malignant'
//! for C in [0.02, 0.3, 1.0]:
//!     for s in [1.0, 10.0]:
//!         m = LR(solver='liblinear', l1_ratio=1.0, C=C, tol=1e-12, max_iter=100000,
//!                intercept_scaling=s).fit(X, y)
//!         print(C, s, m.coef_.ravel().tolist(), m.intercept_.tolist())
//! for C in [0.02, 1.0]:
//!     m = LR(solver='saga', l1_ratio=1.0, C=C, tol=1e-13, max_iter=10000000).fit(X, y)
//!     print(C, m.coef_.ravel().tolist(), m.intercept_.tolist())"
//! ```

use milptree::data::{read_dataset, TargetColumn};
use milptree::greedy::{Intercept, L1Logistic};
use milptree::tree::Standardisation;

use crate::common::dataset;

const COLUMNS: [&str; 7] = [
    "mean_texture",
    "mean_smoothness",
    "mean_concave_points",
    "mean_symmetry",
    "radius_error",
    "worst_texture",
    "worst_area",
];

/// The seven columns, standardised with the population standard deviation (as StandardScaler).
fn breast_cancer() -> (Vec<Vec<f64>>, Vec<bool>) {
    let data = read_dataset(&dataset("breast_cancer"), &TargetColumn::Last).unwrap();
    let index: Vec<usize> = COLUMNS
        .iter()
        .map(|name| {
            data.schema()
                .features
                .iter()
                .position(|f| f == name)
                .unwrap()
        })
        .collect();
    let rows: Vec<Vec<f64>> = data
        .rows()
        .iter()
        .map(|row| index.iter().map(|&j| row[j]).collect())
        .collect();
    let scaling = Standardisation::fit(&rows, COLUMNS.len());
    let malignant = data
        .classes()
        .iter()
        .position(|c| c == "malignant")
        .unwrap();
    (
        rows.iter().map(|row| scaling.apply(row)).collect(),
        data.labels().iter().map(|&l| l == malignant).collect(),
    )
}

fn check(solver: &L1Logistic, expected_weights: &[f64], expected_intercept: f64, tolerance: f64) {
    let (rows, positive) = breast_cancer();
    let rows: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
    let fit = solver.fit(&rows, &positive, None).unwrap();
    assert!(fit.converged, "{fit:?}");
    for (j, (w, e)) in fit.weights.iter().zip(expected_weights).enumerate() {
        assert!(
            (w - e).abs() <= tolerance,
            "{solver:?}: weight {j} is {w}, scikit-learn {e}"
        );
        // The zeros of the lasso are exact zeros.
        assert_eq!(*e == 0.0, *w == 0.0, "{solver:?}: support of weight {j}");
    }
    assert!(
        (fit.intercept - expected_intercept).abs() <= tolerance,
        "{solver:?}: intercept {} vs scikit-learn {expected_intercept}",
        fit.intercept
    );
}

fn liblinear(c: f64, scaling: f64) -> L1Logistic {
    L1Logistic {
        intercept: Intercept::Penalised { scaling },
        ..L1Logistic::new(c)
    }
}

#[test]
fn penalised_intercept_matches_liblinear() {
    let cases: [(f64, f64, [f64; 7], f64); 6] = [
        (
            0.02,
            1.0,
            [
                0.0,
                0.0,
                1.1572943566802754,
                0.0,
                0.0,
                0.16773774337385833,
                0.913880934340918,
            ],
            0.0,
        ),
        (
            0.02,
            10.0,
            [
                0.0,
                0.0,
                1.181425643805714,
                0.0,
                0.0,
                0.2045284621676607,
                0.6823837698175885,
            ],
            -0.5017813974036234,
        ),
        (
            0.3,
            1.0,
            [
                0.0,
                0.3687211179528771,
                1.9538644572281634,
                0.3311290568514014,
                0.18774990117700582,
                1.2934805247632335,
                4.390761644810118,
            ],
            0.0,
        ),
        (
            0.3,
            10.0,
            [
                0.0,
                0.3529505510719594,
                1.9953471444009574,
                0.32249402924450854,
                0.1414446639344736,
                1.3022391131914726,
                4.263479018524936,
            ],
            -0.10052298070960544,
        ),
        (
            1.0,
            1.0,
            [
                0.0,
                0.6818502097219838,
                2.0413074040861883,
                0.506554068724906,
                0.4454163208565343,
                1.711436327825482,
                5.960870391520956,
            ],
            0.09552700022238587,
        ),
        (
            1.0,
            10.0,
            [
                0.0,
                0.7028769688077182,
                2.0096017412864438,
                0.5156351880018427,
                0.4884480402742162,
                1.7122549328727743,
                6.099956201382415,
            ],
            0.18075185158853574,
        ),
    ];
    for (c, scaling, weights, intercept) in cases {
        check(&liblinear(c, scaling), &weights, intercept, 1e-7);
    }
}

#[test]
fn free_intercept_matches_saga() {
    let cases: [(f64, [f64; 7], f64); 2] = [
        (
            0.02,
            [
                0.0,
                0.0,
                1.1907593088937056,
                0.0,
                0.0,
                0.21047715365529293,
                0.6627142218713092,
            ],
            -0.5656774537867149,
        ),
        (
            1.0,
            [
                0.0,
                0.7052951230174209,
                2.0061816337931155,
                0.5167012806509622,
                0.4932254391433857,
                1.7125143717116789,
                6.116103299871522,
            ],
            0.1903260536737196,
        ),
    ];
    for (c, weights, intercept) in cases {
        check(&L1Logistic::new(c), &weights, intercept, 1e-7);
    }
}
