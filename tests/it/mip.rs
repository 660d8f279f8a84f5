//! The model record: assignments, checks, objective values, sizes, file names and the LP, MPS
//! and start writers.

use milptree::mip::{constraint, Expression, MipModel, RowSense, Variable, ViolationKind};

use crate::models;

/// A tiny model with every kind of column and row, for the golden files.
fn tiny() -> MipModel {
    let mut model = MipModel::new("tiny");
    let x = model.binary("x[i=1]");
    let y = model.integer("y", -2.0, 5.0);
    let z = model.continuous("z[a b]", f64::NEG_INFINITY, f64::INFINITY);
    let w = model.continuous("w", 0.0, f64::INFINITY);
    model.add_constraint("cap[k=1]", constraint!(x + 2.0 * y <= 4.0));
    model.add_constraint("cover", constraint!(x + y >= 1.0));
    model.add_row("link", z - w, RowSense::Eq, 0.5);
    model.set_objective(3.0 * x - y + 0.25 * z + 2.0);
    model
}

fn lp_text(model: &MipModel) -> String {
    let mut out = Vec::new();
    model.write_lp(&mut out).expect("write LP");
    String::from_utf8(out).expect("UTF-8")
}

fn mps_text(model: &MipModel) -> String {
    let mut out = Vec::new();
    model.write_mps(&mut out).expect("write MPS");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn lp_output_is_the_golden_text() {
    let expected = "\
\\ Model tiny
\\ Variables: 4 (1 binary, 1 integer, 2 continuous)
\\ Constraints: 3, non-zeros: 6
Minimize
 obj: 3 x(i1) - y + 0.25 z(a_b) + 2
Subject To
 cap(k1): x(i1) + 2 y <= 4
 cover: x(i1) + y >= 1
 link: z(a_b) - w = 0.5
Bounds
 -2 <= y <= 5
 z(a_b) free
Generals
 y
Binaries
 x(i1)
End
";
    assert_eq!(lp_text(&tiny()), expected);
}

#[test]
fn mps_output_is_the_golden_text() {
    let expected = "\
* Model tiny
* Variables: 4 (1 binary, 1 integer, 2 continuous)
* Constraints: 3, non-zeros: 6
NAME tiny
ROWS
 N  obj
 L  cap(k1)
 G  cover
 E  link
COLUMNS
    MARKER  'MARKER'  'INTORG'
    x(i1)  obj  3
    x(i1)  cap(k1)  1
    x(i1)  cover  1
    y  obj  -1
    y  cap(k1)  2
    y  cover  1
    MARKER  'MARKER'  'INTEND'
    z(a_b)  obj  0.25
    z(a_b)  link  1
    w  link  -1
RHS
    RHS  obj  -2
    RHS  cap(k1)  4
    RHS  cover  1
    RHS  link  0.5
BOUNDS
 BV BND x(i1)
 LO BND y -2
 UP BND y 5
 FR BND z(a_b)
ENDATA
";
    assert_eq!(mps_text(&tiny()), expected);
}

#[test]
fn files_are_byte_stable_across_builds() {
    let first = models::hard_knapsack().0;
    let second = models::hard_knapsack().0;
    assert_eq!(lp_text(&first), lp_text(&second));
    assert_eq!(mps_text(&first), mps_text(&second));
    assert_eq!(lp_text(&first), lp_text(&first));
}

#[test]
fn long_rows_are_wrapped_before_80_characters() {
    let (model, _, _) = models::hard_knapsack();
    let text = lp_text(&model);
    assert!(text.lines().count() > 20, "the rows were not wrapped");
    for line in text.lines() {
        assert!(line.len() < 80, "line too long: {line}");
    }
}

#[test]
fn a_column_used_nowhere_is_declared_in_the_objective() {
    let mut model = MipModel::new("unused");
    let x = model.continuous("x", 0.0, 1.0);
    model.continuous("idle", 0.0, f64::INFINITY);
    model.set_objective(x.into());
    let text = lp_text(&model);
    assert!(text.contains(" obj: x + 0 idle\n"), "{text}");
}

#[test]
fn rows_written_with_greater_or_equal_keep_readable_signs() {
    let known = models::set_cover();
    for row in known.model.rows() {
        assert_eq!(row.sense, RowSense::Ge, "{}", row.name);
        assert_eq!(row.rhs, 1.0);
        assert!(row.terms.iter().all(|&(_, c)| c == 1.0));
    }
    // Mixed signs cannot be told from good_lp's `<=` form: recorded as `<=`, same row.
    let mut model = MipModel::new("mixed signs");
    let x = model.continuous("x", 0.0, 1.0);
    let y = model.continuous("y", 0.0, 1.0);
    model.add_constraint("x_ge_y", constraint!(x >= y));
    let row = &model.rows()[0];
    assert_eq!(row.sense, RowSense::Le);
    assert_eq!(row.terms, vec![(0, -1.0), (1, 1.0)]);
    assert_eq!(row.rhs, 0.0);
    // add_row records the sense as written.
    model.add_row("exact", x, RowSense::Ge, y);
    let row = &model.rows()[1];
    assert_eq!(row.sense, RowSense::Ge);
    assert_eq!(row.terms, vec![(0, 1.0), (1, -1.0)]);
}

#[test]
fn size_counts_every_kind() {
    let size = models::mixed().model.size();
    assert_eq!(size.variables, 5);
    assert_eq!(size.binaries, 1);
    assert_eq!(size.integers, 2);
    assert_eq!(size.continuous, 2);
    assert_eq!(size.constraints, 5);
    assert_eq!(size.nonzeros, 10);
}

#[test]
fn finish_names_the_unset_variables() {
    let mut model = MipModel::new("many");
    let vars: Vec<_> = (0..12).map(|i| model.binary(format!("v[i={i}]"))).collect();
    let mut start = model.start();
    start.set(vars[3], 1.0);
    let error = start.finish().expect_err("incomplete").to_string();
    assert!(error.contains("11 of the 12 variables"), "{error}");
    assert!(
        error.contains("v[i=0]") && error.contains("v[i=10]"),
        "{error}"
    );
    assert!(!error.contains("v[i=11]"), "{error}");
    assert!(error.contains("and 1 more"), "{error}");
    assert!(!error.contains("v[i=3]"), "{error}");
}

#[test]
fn finish_rejects_values_that_are_not_finite() {
    let mut model = MipModel::new("nan");
    let x = model.continuous("x", 0.0, 1.0);
    let mut start = model.start();
    start.set(x, f64::NAN);
    let error = start.finish().expect_err("NaN").to_string();
    assert!(
        error.contains("not finite") && error.contains('x'),
        "{error}"
    );
}

/// Two models built side by side: `one` with x, y and `other` with a, b, c. Every variable
/// of `other` is foreign to `one`, whether its position in `other` is within `one`'s columns
/// (a, b) or past them (c).
fn side_by_side() -> (MipModel, [Variable; 2], MipModel, [Variable; 3]) {
    let mut model = MipModel::new("one");
    let mut other = MipModel::new("other");
    let a = other.binary("a");
    let x = model.binary("x");
    let b = other.binary("b");
    let y = model.binary("y");
    let c = other.binary("c");
    (model, [x, y], other, [a, b, c])
}

#[test]
fn finish_rejects_variables_of_another_model() {
    let (model, [x, y], _other, foreign) = side_by_side();
    for (i, &f) in foreign.iter().enumerate() {
        assert_eq!(model.try_col(f), None, "foreign variable {i}");
        let mut start = model.start();
        start.set(x, 1.0);
        start.set(y, 0.0);
        start.set(f, 1.0);
        assert!(!start.is_set(f), "foreign variable {i}");
        let error = start.finish().expect_err("a foreign variable");
        assert!(error.to_string().contains("did not create"), "{error}");
    }
    // An assignment is read by its own model's variables only.
    let mut start = model.start();
    start.set(x, 1.0);
    start.set(y, 0.0);
    let start = start.finish().expect("complete");
    assert_eq!(start.get(x), Some(1.0));
    for f in foreign {
        assert_eq!(start.get(f), None);
    }
}

#[test]
fn objective_value_includes_the_constant() {
    let known = models::mixed();
    let [a, b, z, w, q] = known.vars[..] else {
        panic!("five variables")
    };
    let mut start = known.model.start();
    for (v, value) in [(a, 4.0), (b, -1.0), (z, 0.0), (w, -3.0), (q, 1.0)] {
        start.set(v, value);
    }
    let start = start.finish().expect("complete");
    assert_eq!(known.model.objective_value(&start), -10.5);
    let feasibility = known.model.check(&start);
    assert!(feasibility.feasible, "{feasibility:?}");
    assert_eq!(feasibility.violations, 0);
    assert_eq!(start.value(b), -1.0);
    assert_eq!(start.values(), &[4.0, -1.0, 0.0, -3.0, 1.0]);
}

#[test]
fn check_names_the_worst_violated_constraint() {
    let known = models::knapsack();
    let mut start = known.model.start();
    for &v in &known.vars {
        start.set(v, 1.0);
    }
    let start = start.finish().expect("complete");
    let feasibility = known.model.check(&start);
    assert!(!feasibility.feasible);
    assert_eq!(feasibility.violations, 1);
    let worst = feasibility.worst.expect("a violation");
    assert_eq!(worst.name, "capacity");
    assert_eq!(worst.kind, ViolationKind::Constraint);
    assert_eq!(worst.amount, 30.0 - 15.0);
    assert_eq!(known.model.objective_value(&start), -52.0);
}

#[test]
fn check_reports_bounds_and_integrality() {
    let known = models::knapsack();
    let mut start = known.model.start();
    for &v in &known.vars {
        start.set(v, 0.0);
    }
    start.set(known.vars[2], 0.5);
    let fractional = start.finish().expect("complete");
    let feasibility = known.model.check(&fractional);
    assert_eq!(feasibility.violations, 1);
    let worst = feasibility.worst.expect("a violation");
    assert_eq!(
        (worst.name.as_str(), worst.kind, worst.amount),
        ("x[i=2]", ViolationKind::Integrality, 0.5)
    );

    let mut start = known.model.start();
    for &v in &known.vars {
        start.set(v, 0.0);
    }
    start.set(known.vars[4], -2.0);
    let below = start.finish().expect("complete");
    let worst = known.model.check(&below).worst.expect("a violation");
    assert_eq!(
        (worst.name.as_str(), worst.kind, worst.amount),
        ("x[i=4]", ViolationKind::Bound, 2.0)
    );

    // Within the tolerance is feasible.
    let mut start = known.model.start();
    for &v in &known.vars {
        start.set(v, 0.0);
    }
    start.set(known.vars[0], 1.0 + 1e-9);
    let near = start.finish().expect("complete");
    assert!(known.model.check(&near).feasible);
}

#[test]
fn round_integers_rounds_only_integer_columns() {
    let known = models::mixed();
    let [a, b, z, w, q] = known.vars[..] else {
        panic!("five variables")
    };
    let mut start = known.model.start();
    for (v, value) in [
        (a, 3.9999999),
        (b, -1.0000002),
        (z, 1e-9),
        (w, -2.5),
        (q, 0.3),
    ] {
        start.set(v, value);
    }
    let rounded = known
        .model
        .round_integers(&start.finish().expect("complete"));
    assert_eq!(rounded.values(), &[4.0, -1.0, 0.0, -2.5, 0.3]);
}

#[test]
fn validate_reports_inconsistent_models() {
    let mut model = MipModel::new("broken");
    let x = model.continuous("x", 0.0, 1.0);
    model.add_constraint("nan", constraint!(f64::NAN * x <= 1.0));
    let error = model.validate().expect_err("NaN").to_string();
    assert!(error.contains("`nan`") && error.contains("NaN"), "{error}");

    let mut model = MipModel::new("bad binary");
    model.add_var("b", milptree::mip::VarKind::Binary, 0.0, 2.0);
    let error = model.validate().expect_err("binary").to_string();
    assert!(error.contains("binary variable `b`"), "{error}");

    for i in 0..3 {
        let (mut model, [x, _], _other, foreign) = side_by_side();
        model.add_constraint("uses_foreign", constraint!(x + foreign[i] <= 1.0));
        let error = model.validate().expect_err("foreign").to_string();
        assert!(error.contains("did not create"), "variable {i}: {error}");
        assert!(model.write_lp(&mut Vec::new()).is_err());

        let (mut model, [x, _], _other, foreign) = side_by_side();
        model.add_row("row", x, RowSense::Ge, foreign[i]);
        assert!(model.validate().is_err(), "variable {i}");

        let (mut model, [x, _], _other, foreign) = side_by_side();
        model.set_objective(x + 2.0 * foreign[i]);
        assert!(model.validate().is_err(), "variable {i}");
    }

    assert!(models::mixed().model.validate().is_ok());

    // A replaced objective takes its defects with it.
    let mut model = MipModel::new("objective");
    let x = model.continuous("x", 0.0, 1.0);
    model.set_objective(x + f64::INFINITY);
    assert!(model.validate().is_err());
    model.set_objective(x + 1.0);
    assert!(model.validate().is_ok());
}

#[test]
fn file_names_are_safe_unique_and_readable() {
    let mut model = MipModel::new("names");
    let names = [
        "a[f=3,n=1]",
        "a[f=3,n=1]",
        "free",
        "e12",
        "3d",
        "",
        "x y:z<w>",
        &"long".repeat(40),
        &"long".repeat(40),
    ];
    for name in names {
        model.binary(name);
    }
    model.add_row("obj", Expression::default(), RowSense::Le, 1.0);
    let file: Vec<&str> = (0..names.len()).map(|j| model.file_name(j)).collect();
    assert_eq!(
        &file[..7],
        &[
            "a(f3,n1)",
            "a(f3,n1)_2",
            "x_free",
            "x_e12",
            "x_3d",
            "x",
            "x_y_z_w_"
        ]
    );
    assert_eq!(file[7].len(), 100);
    assert_eq!(file[8].len(), 100);
    assert!(file[8].ends_with("_2"));
    assert_ne!(file[7], file[8]);
    assert_eq!(model.file_row_name(0), "obj_2");
}

#[test]
fn start_files_list_every_column_by_file_name() {
    let model = tiny();
    let mut start = model.start();
    for (j, value) in [1.0, 0.0, -0.5, 0.0].into_iter().enumerate() {
        start.set_column(j, value);
    }
    let start = start.finish().expect("complete");
    let mut mst = Vec::new();
    model.write_mst(&start, &mut mst).expect("mst");
    assert_eq!(
        String::from_utf8(mst).expect("UTF-8"),
        "# MIP start for model tiny\nx(i1) 1\ny 0\nz(a_b) -0.5\nw 0\n"
    );
    let mut sol = Vec::new();
    model.write_highs_solution(&start, &mut sol).expect("sol");
    // link: z - w = -0.5 instead of 0.5, so the start is infeasible.
    assert_eq!(
        String::from_utf8(sol).expect("UTF-8"),
        "Model status\nNot Set\n\n# Primal solution values\nInfeasible\nObjective 4.875\n\
         # Columns 4\nx(i1) 1\ny 0\nz(a_b) -0.5\nw 0\n# Rows 3\ncap(k1) 1\ncover 1\nlink -0.5\n"
    );
}
