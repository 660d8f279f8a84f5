//! `solve` and `export-lp` end to end: the optimum on iris, options that do not fit the
//! formulation, OLCT's relabelling carried to `predict`, and exported models solved by the
//! solvers' own file readers.

use milptree::learn::SolveDocument;
use milptree::solver::{solve_file, SolveOptions, SolverKind, Termination};

use crate::common::{dataset, milptree, milptree_json, path_str, stderr};

#[test]
fn oct_depth_one_on_iris_is_fifty_errors_on_both_solvers() {
    let data = dataset("iris");
    for solver in ["highs", "cbc"] {
        let report = milptree_json(&[
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--solver",
            solver,
            "--json",
            "--quiet",
        ]);
        assert_eq!(report["termination"], "optimal", "{solver}");
        assert_eq!(report["train"]["misclassified"], 50, "{solver}");
        // Objective = errors / baseline errors (100 of 150 for three classes of 50).
        assert!((report["objective"].as_f64().expect("objective") - 0.5).abs() < 1e-9);
        assert!(report["decode_mismatch"].is_null());
        assert_eq!(report["evaluated_objective"], report["objective"]);
        // The report is the typed document: read back and written again, nothing changes.
        let document = SolveDocument::from_value(&report).expect("a solve document");
        assert_eq!(
            serde_json::to_value(&document).expect("serialises"),
            report,
            "{solver}"
        );
        assert_eq!(report["warm_start"]["feasible"], true);
        assert_eq!(report["solver"], solver);
    }
}

#[test]
fn more_threads_than_the_machine_has_are_a_usage_error() {
    let data = dataset("iris");
    let machine = std::thread::available_parallelism().map_or(1, usize::from);
    for threads in [machine + 1, 10_000] {
        let output = milptree(&[
            "solve",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--threads",
            &threads.to_string(),
            "--json",
            "--quiet",
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let message = stderr(&output);
        assert!(
            message.contains("threads") && message.contains(&format!("{machine} hardware threads")),
            "{message}"
        );
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn options_of_another_formulation_are_errors() {
    let data = dataset("iris");
    for (formulation, option, value) in [
        ("binoct", "--alpha", "0.1"),
        ("oct", "--thresholds", "all"),
        ("oct", "--positive-class", "setosa"),
        ("olct", "--min-leaf", "3"),
        ("binoct", "--tangents", "2"),
        ("olct", "--objective", "balanced"),
    ] {
        let output = milptree(&[
            "solve",
            path_str(&data),
            "--formulation",
            formulation,
            "--depth",
            "1",
            option,
            value,
        ]);
        assert_eq!(output.status.code(), Some(2), "{formulation} {option}");
        let message = stderr(&output);
        assert!(
            message.contains(&format!(
                "invalid {option}: does not apply to --formulation {formulation}"
            )),
            "{message}"
        );
    }
    // Flags without a value, and export-lp, alike.
    for (command, formulation, flag) in [
        ("solve", "oct", "--univariate"),
        ("export-lp", "binoct", "--no-refine"),
    ] {
        let output = milptree(&[
            command,
            path_str(&data),
            "--formulation",
            formulation,
            "--depth",
            "1",
            flag,
            "-o",
            "/nonexistent/model.lp",
        ]);
        assert_eq!(output.status.code(), Some(2), "{command} {flag}");
        assert!(
            stderr(&output).contains(&format!(
                "invalid {flag}: does not apply to --formulation {formulation}"
            )),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn olct_needs_a_positive_class_on_multiclass_data() {
    let data = dataset("iris");
    let output = milptree(&[
        "solve",
        path_str(&data),
        "--formulation",
        "olct",
        "--depth",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("--positive-class"), "{message}");
    assert!(
        message.contains("`setosa`, `versicolor`, `virginica`"),
        "{message}"
    );
}

#[test]
fn predict_relabels_like_the_olct_training_data() {
    let data = dataset("iris");
    let dir = tempfile::tempdir().expect("temp dir");
    let tree = dir.path().join("tree.json");
    let solved = milptree_json(&[
        "solve",
        path_str(&data),
        "--formulation",
        "olct",
        "--depth",
        "1",
        "--positive-class",
        "versicolor",
        "--time-limit",
        "30",
        "--json",
        "--quiet",
        "--output",
        path_str(&tree),
    ]);
    assert_eq!(
        solved["tree"]["learned_by"]["relabel"]["map"],
        serde_json::json!({"setosa": "not versicolor", "versicolor": "versicolor", "virginica": "not versicolor"})
    );
    let predicted = milptree_json(&[
        "predict",
        "--tree",
        path_str(&tree),
        path_str(&data),
        "--json",
    ]);
    assert_eq!(predicted["test"], solved["train"]);
    assert_eq!(
        predicted["evaluation"]["classes"],
        serde_json::json!(["not versicolor", "versicolor"])
    );
}

#[test]
fn exported_models_solve_to_the_same_optimum_in_both_solvers_readers() {
    let data = dataset("iris");
    let dir = tempfile::tempdir().expect("temp dir");
    for (formulation, extra) in [("oct", vec![]), ("binoct", vec!["--thresholds", "all"])] {
        let solved = milptree_json(
            &[
                &[
                    "solve",
                    path_str(&data),
                    "--formulation",
                    formulation,
                    "--depth",
                    "1",
                    "--json",
                    "--quiet",
                ][..],
                &extra[..],
            ]
            .concat(),
        );
        let optimum = solved["objective"].as_f64().expect("objective");
        for extension in ["lp", "mps"] {
            let model = dir.path().join(format!("{formulation}.{extension}"));
            let exported = milptree_json(
                &[
                    &[
                        "export-lp",
                        path_str(&data),
                        "--formulation",
                        formulation,
                        "--depth",
                        "1",
                        "-o",
                        path_str(&model),
                        "--json",
                    ][..],
                    &extra[..],
                ]
                .concat(),
            );
            let files = exported["files"].as_array().expect("files");
            assert_eq!(files.len(), 4, "model, variable map, .mst, .sol");
            let map: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.path().join(format!("{formulation}.vars.json")))
                    .expect("map"),
            )
            .expect("JSON");
            assert_eq!(
                map["variables"].as_array().map(Vec::len),
                exported["model_size"]["variables"]
                    .as_u64()
                    .map(|v| v as usize)
            );
            for solver in SolverKind::ALL {
                // CBC's LP reader drops the objective constant; these models have none.
                let result = solve_file(solver, &model, None, &SolveOptions::default())
                    .expect("the solver reads the file");
                assert_eq!(
                    result.report.termination,
                    Termination::Optimal,
                    "{formulation} {extension} {solver}"
                );
                let objective = result.report.objective.expect("objective");
                assert!(
                    (objective - optimum).abs() < 1e-6,
                    "{formulation} {extension} {solver}: {objective} vs {optimum}"
                );
            }
        }
    }
}

#[test]
fn export_lp_is_byte_stable_and_refuses_unknown_extensions() {
    let data = dataset("wine");
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("a.lp");
    let second = dir.path().join("b.lp");
    for path in [&first, &second] {
        let output = milptree(&[
            "export-lp",
            path_str(&data),
            "--formulation",
            "oct",
            "--depth",
            "2",
            "-o",
            path_str(path),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert_eq!(
        std::fs::read(&first).expect("written"),
        std::fs::read(&second).expect("written")
    );
    let output = milptree(&[
        "export-lp",
        path_str(&data),
        "--formulation",
        "oct",
        "--depth",
        "1",
        "-o",
        path_str(&dir.path().join("model.txt")),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("must end in .lp or .mps"));
}

#[test]
fn solver_options_reach_the_solver_after_milptrees_own_and_bad_ones_are_errors() {
    let data = dataset("iris");
    let base = [
        "solve",
        path_str(&data),
        "--time-limit",
        "60",
        "--certify",
        "off",
        "--json",
        "--quiet",
    ];
    let run = |formulation: &str, extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(&["--formulation", formulation]);
        args.extend_from_slice(extra);
        milptree(&args)
    };

    let refused = |option: &str, solver: &str, said: &str| {
        let args = [
            "--depth",
            "2",
            "--solver",
            solver,
            "--solver-option",
            option,
        ];
        let output = run("flowoct", &args);
        assert!(!output.status.success(), "{option} was taken");
        assert!(stderr(&output).contains(said), "{}", stderr(&output));
    };
    refused("cutsOnOff", "cbc", "NAME=VALUE");
    refused("no_such_option=1", "highs", "no option `no_such_option`");
    refused(
        "mip_rel_gap=tight",
        "highs",
        "no option `mip_rel_gap` that takes the value `tight`",
    );

    // HiGHS's own time limit, set after milptree's 60 s, stops the solve at once: with the
    // warm start as its incumbent, unproven (iris at depth 2 takes seconds to prove).
    let stopped = run(
        "flowoct",
        &[
            "--depth",
            "2",
            "--solver",
            "highs",
            "--solver-option",
            "time_limit=0",
        ],
    );
    assert!(stopped.status.success(), "{}", stderr(&stopped));
    let report: serde_json::Value = serde_json::from_slice(&stopped.stdout).expect("JSON");
    assert_eq!(report["termination"], "time_limit", "{report}");
    assert!(report["has_solution"].as_bool().expect("has_solution"));

    // FlowOCT's CBC defaults with a warm start are said, and none without one.
    let notes_of = |formulation: &str, extra: &[&str]| {
        let output = run(
            formulation,
            &[&["--solver", "cbc", "--depth", "1"][..], extra].concat(),
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(report["termination"], "optimal", "{report}");
        assert_eq!(report["train"]["misclassified"], 50, "{report}");
        report["notes"].to_string()
    };
    assert!(notes_of("flowoct", &[]).contains("cutsOnOff=off heuristicsOnOff=off"));
    assert!(!notes_of("flowoct", &["--warm-start", "none"]).contains("cutsOnOff"));
    // BinOCT's only from the exact search's proven optimum.
    assert!(notes_of("binoct", &["--warm-start", "dp"]).contains("cutsOnOff=off"));
    assert!(!notes_of("binoct", &[]).contains("cutsOnOff"));
    // FlowOCT's HiGHS root LP by the interior point method from the proven optimum only, with
    // the same optimum.
    let highs_notes = |extra: &[&str]| {
        let output = run(
            "flowoct",
            &[&["--solver", "highs", "--depth", "1"][..], extra].concat(),
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(report["termination"], "optimal", "{report}");
        assert_eq!(report["train"]["misclassified"], 50, "{report}");
        report["notes"].to_string()
    };
    assert!(highs_notes(&["--warm-start", "dp"]).contains("mip_lp_solver=ipx"));
    assert!(!highs_notes(&[]).contains("mip_lp_solver"));
}

/// A stop at a limit of HiGHS's own options (`mip_max_improving_sols`) is a limit, as the time
/// limit is: termination `solver_limit` naming the limit, the incumbent kept, exit 0, no error.
#[test]
fn a_stop_at_a_limit_of_the_solvers_options_is_a_limit_not_an_error() {
    let data = dataset("iris");
    let output = milptree(&[
        "solve",
        path_str(&data),
        "--formulation",
        "flowoct",
        "--depth",
        "2",
        "--warm-start",
        "none",
        "--certify",
        "off",
        "--solver-option",
        "mip_max_improving_sols=1",
        "--json",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["termination"], "solver_limit", "{report}");
    assert!(report["error"].is_null(), "{report}");
    assert_eq!(report["has_solution"], true, "{report}");
    assert!(
        report["notes"].to_string().contains("solution limit"),
        "{}",
        report["notes"]
    );
}

/// A tree without errors reports 0 errors, never `-0.0` (a sum over no row).
#[test]
fn no_errors_are_zero_not_negative_zero() {
    let (_dir, path) = crate::common::temp_file(
        "clean.csv",
        "x,grp,class\n1,g1,a\n2,g2,a\n3,g1,a\n4,g2,b\n5,g1,b\n6,g2,b\n",
    );
    for args in [
        &[
            "solve",
            path_str(&path),
            "--solver",
            "dp",
            "--depth",
            "1",
            "--json",
        ][..],
        &["solve", path_str(&path), "--solver", "sparse", "--json"],
        &["greedy", path_str(&path), "--depth", "1", "--json"],
        &[
            "pareto",
            path_str(&path),
            "--depth",
            "1",
            "--group-column",
            "grp",
            "--json",
        ],
        &["pareto", path_str(&path), "--depth", "1", "--json"],
    ] {
        let output = milptree(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(!text.contains("-0.0"), "{args:?}: {text}");
    }
}

/// Under `best`, when the exact search's tree breaks a side constraint the search does not
/// take (a user row) and the greedy tree meets it, the greedy tree starts, not a single leaf.
#[test]
fn best_falls_back_on_the_greedy_tree_when_the_searchs_breaks_a_user_row() {
    // On breast_cancer at depth 2 the search's tree splits on worst_perimeter (22) and
    // worst_area (23), and not on mean_radius (0); CART's on neither pair. With a negative
    // weight the row is not a limit on the features used, which the search would take.
    let (_dir, constraints) =
        // `max_features` at the count of features gives the model its `used` columns.
        crate::common::temp_file(
            "rows.toml",
            "max_features = 30\nrows = [\"used[j=22] + used[j=23] - used[j=0] <= 1\"]\n",
        );
    let data = dataset("breast_cancer");
    let report = milptree_json(&[
        "solve",
        path_str(&data),
        "--formulation",
        "flowoct",
        "--depth",
        "2",
        "--warm-start",
        "best",
        "--constraints",
        path_str(&constraints),
        "--time-limit",
        "5",
        "--threads",
        "1",
        "--json",
        "--quiet",
    ]);
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("the greedy tree, which meets them, starts instead"),
        "{notes}"
    );
    assert!(
        report["warm_start_source"]
            .as_str()
            .is_some_and(|s| s.starts_with("greedy")),
        "{report}"
    );
    // The greedy tree's errors, not the single leaf's 212.
    let start = report["warm_start_tree_objective"]
        .as_f64()
        .expect("a start");
    assert!(start < 100.0, "{report}");
    let used = report["side_constraints"]["features_used"].to_string();
    assert!(
        !(used.contains("worst_perimeter") && used.contains("worst_area")),
        "{used}"
    );
}
