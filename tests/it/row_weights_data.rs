//! Row weights as data: the weight column is read, checked and kept apart from the features;
//! weights follow rows through subsets, splits and relabelling.

use milptree::data::{
    read_for_schema, read_weighted_dataset, ColumnKind, ColumnOptions, MissingValues, Sets,
    TargetColumn,
};

use crate::common::temp_file;

const TABLE: &str = "a,w,b,class\n1,2,5,x\n2,0.5,6,y\n3,0,7,x\n4,1,8,y\n";

#[test]
fn the_weight_column_is_read_and_is_not_a_feature() {
    let (_dir, path) = temp_file("w.csv", TABLE);
    let data = read_weighted_dataset(&path, &TargetColumn::Last, Some("w")).unwrap();
    assert_eq!(data.schema().features, vec!["a", "b"]);
    assert_eq!(data.weights(), Some(&[2.0, 0.5, 0.0, 1.0][..]));
    assert_eq!(data.rows()[1], vec![2.0, 6.0]);
    assert_eq!(data.total_weight(), 3.5);
    assert_eq!(data.class_weight_totals(), vec![2.0, 1.5]);
    assert!(!data.has_integer_weights());
    let kinds: Vec<&ColumnKind> = data.schema().columns.iter().map(|c| &c.kind).collect();
    assert_eq!(kinds[1], &ColumnKind::Weight);
    // By position, as the label column.
    let by_index = read_weighted_dataset(&path, &TargetColumn::Last, Some("1")).unwrap();
    assert_eq!(by_index.weights(), data.weights());
}

#[test]
fn weights_follow_rows_through_subsets_splits_and_relabelling() {
    let (_dir, path) = temp_file("w.csv", TABLE);
    let data = read_weighted_dataset(&path, &TargetColumn::Last, Some("w")).unwrap();
    let subset = data.subset(&[3, 0]);
    assert_eq!(subset.weights(), Some(&[1.0, 2.0][..]));
    let sets = Sets::split(&data, Some(0.5), 1).unwrap();
    let test = sets.test.unwrap();
    let mut seen: Vec<f64> = sets.train.weights().unwrap().to_vec();
    seen.extend_from_slice(test.weights().unwrap());
    seen.sort_by(f64::total_cmp);
    assert_eq!(seen, vec![0.0, 0.5, 1.0, 2.0]);
    let relabelled = data
        .relabelled(vec!["p".into(), "q".into()], vec![1, 0, 1, 0])
        .unwrap();
    assert_eq!(relabelled.weights(), data.weights());
    assert_eq!(relabelled.class_weight_totals(), vec![1.5, 2.0]);
}

#[test]
fn bad_weights_are_refused_naming_the_line() {
    for (cell, line) in [("-1", 3), ("nan", 3), ("inf", 3), ("heavy", 3)] {
        let table = format!("a,w,class\n1,1,x\n2,{cell},y\n3,1,x\n");
        let (_dir, path) = temp_file("w.csv", &table);
        let message = read_weighted_dataset(&path, &TargetColumn::Last, Some("w"))
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(&format!("line {line}")),
            "{cell}: {message}"
        );
        assert!(message.contains('w'), "{message}");
    }
    let (_dir, path) = temp_file("w.csv", "a,w,class\n1,0,x\n2,0,y\n");
    let message = read_weighted_dataset(&path, &TargetColumn::Last, Some("w"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("weight 0"), "{message}");
    let message = read_weighted_dataset(&path, &TargetColumn::Last, Some("class"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("label column"), "{message}");
    let message = read_weighted_dataset(&path, &TargetColumn::Last, Some("nope"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("--weight-column"), "{message}");
    let (_dir, path) = temp_file("w.csv", "w,class\n1,x\n2,y\n");
    assert!(read_weighted_dataset(&path, &TargetColumn::Last, Some("w")).is_err());
}

#[test]
fn with_weights_checks_every_weight() {
    let (_dir, path) = temp_file("w.csv", TABLE);
    let data = read_weighted_dataset(&path, &TargetColumn::Last, None).unwrap();
    assert!(!data.is_weighted());
    assert_eq!(data.weight(2), 1.0);
    assert!(data.clone().with_weights(vec![1.0; 3]).is_err());
    let message = data
        .clone()
        .with_weights(vec![1.0, f64::NAN, 1.0, 1.0])
        .unwrap_err()
        .to_string();
    assert!(message.contains("row 1"), "{message}");
    assert!(data.clone().with_weights(vec![0.0; 4]).is_err());
    let weighted = data.with_weights(vec![3.0, 1.0, 0.0, 2.0]).unwrap();
    assert!(weighted.has_integer_weights());
    assert!(!weighted.clone().without_weights().is_weighted());
}

#[test]
fn prediction_files_may_have_or_leave_out_the_weight_column() {
    let (_dir, path) = temp_file("w.csv", TABLE);
    let data = read_weighted_dataset(&path, &TargetColumn::Last, Some("w")).unwrap();
    let read = |path: &std::path::Path| {
        read_for_schema(
            path,
            data.schema(),
            data.classes(),
            &ColumnOptions::default(),
            &MissingValues::default(),
        )
    };
    let (observations, _) = read(&path).unwrap();
    assert_eq!(observations.weights, Some(vec![2.0, 0.5, 0.0, 1.0]));
    assert_eq!(observations.rows, data.rows());
    for table in ["a,b,class\n1,5,x\n", "a,b\n1,5\n", "a,w,b\n1,3,5\n"] {
        let (_dir, path) = temp_file("p.csv", table);
        let (observations, _) = read(&path).unwrap();
        assert_eq!(observations.rows, vec![vec![1.0, 5.0]], "{table}");
    }
    let (_dir, path) = temp_file("p.csv", "b,class,a\n1,x,5\n");
    let (observations, _) = read(&path).unwrap();
    assert_eq!(observations.rows, vec![vec![5.0, 1.0]]);
    let (_dir, path) = temp_file("p.csv", "b,class\n1,x\n");
    assert!(read(&path).is_err());
}

#[test]
fn row_costs_weigh_the_class_cost_by_the_row_weight() {
    use milptree::score::Objective;
    let (_dir, path) = temp_file("w.csv", TABLE);
    let data = read_weighted_dataset(&path, &TargetColumn::Last, Some("w")).unwrap();
    assert_eq!(
        Objective::Accuracy.row_costs(&data, &[]),
        vec![2.0, 0.5, 0.0, 1.0]
    );
    // Balanced: W = 3.5, W_x = 2, W_y = 1.5, K = 2; user factor 3 on class y.
    let costs = Objective::Balanced.row_costs(&data, &[1.0, 3.0]);
    let expected = [2.0 * 3.5 / 4.0, 0.5 * 3.0 * 3.5 / 3.0, 0.0, 3.0 * 3.5 / 3.0];
    for (c, e) in costs.iter().zip(expected) {
        assert!((c - e).abs() < 1e-12, "{costs:?}");
    }
    // Without weights, balanced costs are n / (K n_k).
    let plain = data.without_weights();
    assert_eq!(Objective::Balanced.class_weights(&plain), vec![1.0, 1.0]);
}

#[test]
fn a_weighted_csv_reads_back_with_its_weights() {
    use crate::common::{random_dataset, to_weighted_csv, with_random_weights};
    let data = with_random_weights(random_dataset(3, 12, 2, 2, 3), 3, false);
    let (_dir, path) = temp_file("w.csv", &to_weighted_csv(&data));
    let read = read_weighted_dataset(&path, &TargetColumn::Last, Some("w")).unwrap();
    assert_eq!(read.weights(), data.weights());
    assert_eq!(read.rows(), data.rows());
}
