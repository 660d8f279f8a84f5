//! OLCT's parameter and data errors are clear `Error::Parameter`s naming what is wrong, and
//! multiclass data is learned as one class against the rest.

use milptree::error::Error;
use milptree::formulation::olct::Olct;
use milptree::formulation::{BuiltModel, Formulation};

use crate::common::random_dataset;

fn parameter_error(model: &Olct) -> (String, String) {
    let data = random_dataset(5, 20, 2, 2, 4);
    match model.build(&data) {
        Err(Error::Parameter { parameter, message }) => (parameter, message),
        other => panic!("expected a parameter error, got {other:?}"),
    }
}

#[test]
fn more_than_two_classes_need_a_positive_class() {
    let data = random_dataset(3, 30, 2, 3, 4);
    let model = Olct::new(2);
    for result in [
        model.relabel_data(&data).map(|_| ()),
        model.build(&data).map(|_| ()),
        model.greedy_tree(&data).map(|_| ()),
    ] {
        match result {
            Err(Error::Parameter { parameter, message }) => {
                assert_eq!(parameter, "--positive-class");
                for class in ["`c0`", "`c1`", "`c2`"] {
                    assert!(message.contains(class), "{message}");
                }
            }
            other => panic!("expected a parameter error, got {other:?}"),
        }
    }
    let unknown = Olct {
        positive_class: Some("c7".into()),
        ..Olct::new(2)
    };
    match unknown.relabel_data(&data) {
        Err(Error::Parameter { parameter, message }) => {
            assert_eq!(parameter, "--positive-class");
            assert!(
                message.contains("`c7`") && message.contains("`c2`"),
                "{message}"
            );
        }
        other => panic!("expected a parameter error, got {other:?}"),
    }
}

#[test]
fn a_positive_class_turns_multiclass_data_into_one_against_the_rest() {
    let data = random_dataset(3, 30, 2, 3, 4);
    let model = Olct {
        positive_class: Some("c1".into()),
        ..Olct::new(2)
    };
    let relabelled = model.relabel_data(&data).unwrap().expect("relabelled");
    assert_eq!(
        relabelled.classes(),
        vec!["not c1".to_string(), "c1".to_string()]
    );
    for (old, new) in data.labels().iter().zip(relabelled.labels()) {
        assert_eq!(*new == 1, *old == 1);
    }
    let built = model.build(&relabelled).unwrap();
    let tree = model.greedy_tree(&relabelled).unwrap();
    assert_eq!(tree.classes(), relabelled.classes());
    let encoded = model.encode(&built, &tree).unwrap();
    assert!(built.mip().check(&encoded.assignment).feasible);
    // Two classes: the positive class may be either; by default the second.
    let two = random_dataset(4, 20, 2, 2, 4);
    assert!(Olct::new(1).relabel_data(&two).unwrap().is_none());
    let first = Olct {
        positive_class: Some("c0".into()),
        ..Olct::new(1)
    };
    let tree = first.greedy_tree(&two).unwrap();
    // The right leaf under the last split predicts the positive class.
    assert_eq!(
        tree.node(3).unwrap().kind,
        milptree::tree::NodeKind::Leaf { class: 0 }
    );
}

#[test]
fn bad_parameters_are_named() {
    for depth in [0, 11, 1000] {
        assert_eq!(parameter_error(&Olct::new(depth)).0, "--depth");
    }
    for c in [vec![0.0], vec![-1.0], vec![f64::NAN], vec![1.0, 2.0, 3.0]] {
        let (parameter, message) = parameter_error(&Olct { c, ..Olct::new(2) });
        assert_eq!(parameter, "--c", "{message}");
    }
    for big_m in [1.0, f64::INFINITY, -5.0] {
        assert_eq!(
            parameter_error(&Olct {
                big_m,
                ..Olct::new(2)
            })
            .0,
            "--big-m"
        );
    }
    for epsilon in [0.0, -1e-5, f64::NAN] {
        assert_eq!(
            parameter_error(&Olct {
                epsilon,
                ..Olct::new(2)
            })
            .0,
            "--epsilon"
        );
    }
}
