//! Options and tables at their edges, command by command: data with no split at all, time
//! limits that are not numbers of seconds (NaN, negative, infinite, past what a duration
//! holds), negative numbers given to options that refuse them. Each must end with a
//! result or with exit 2 and a message naming the option, never a panic.

use crate::common::{dataset, milptree, milptree_json, path_str, stderr, temp_file};

/// Tables where no split exists: a constant feature, and identical rows over two features.
const NO_SPLIT: [&str; 2] = [
    "x,class\n1,a\n1,b\n1,a\n",
    "x,y,class\n1,2,a\n1,2,b\n1,2,a\n1,2,b\n1,2,b\n",
];

/// The single leaf's errors: the rows outside the most frequent class.
fn minority(table: &str) -> (usize, usize) {
    let labels: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|line| line.rsplit(',').next().expect("a label"))
        .collect();
    let most = labels
        .iter()
        .map(|l| labels.iter().filter(|m| *m == l).count())
        .max()
        .expect("rows");
    (labels.len() - most, labels.len())
}

#[test]
fn the_sparse_search_and_path_return_the_single_leaf_when_no_split_exists() {
    for table in NO_SPLIT {
        let (_dir, path) = temp_file("flat.csv", table);
        let (errors, rows) = minority(table);
        let loss = errors as f64 / rows as f64;
        let report = milptree_json(&[
            "solve",
            path_str(&path),
            "--solver",
            "sparse",
            "--leaf-penalty",
            "0.01",
            "--json",
        ]);
        assert_eq!(report["depth"], 0, "{table}");
        let objective = report["objective"].as_f64().expect("an objective");
        assert!((objective - (loss + 0.01)).abs() < 1e-12, "{objective}");
        assert_eq!(report["termination"], "optimal");
        let path_report = milptree_json(&["path", path_str(&path), "--steps", "2", "--json"]);
        let steps = path_report["rows"].as_array().expect("rows");
        assert_eq!(steps.len(), 2);
        for step in steps {
            assert_eq!(step["leaves"], 1, "{step}");
            let lambda = step["lambda"].as_f64().expect("lambda");
            let objective = step["objective"].as_f64().expect("objective");
            assert!((objective - (loss + lambda)).abs() < 1e-12, "{step}");
        }
        // The other searches and a MILP agree: one leaf, the same errors.
        for args in [
            &["--solver", "dp", "--depth", "2"][..],
            &["--formulation", "oct", "--depth", "1", "--certify", "off"][..],
        ] {
            let mut line = vec!["solve", path_str(&path), "--json", "--quiet"];
            line.extend_from_slice(args);
            let report = milptree_json(&line);
            assert_eq!(
                report["train"]["misclassified"].as_u64(),
                Some(errors as u64),
                "{args:?}"
            );
        }
    }
}

/// Every command line that takes a time limit or a budget in seconds, as the arguments before
/// the option and the option's name.
fn timed_commands(iris: &str, dir: &str) -> Vec<(Vec<String>, &'static str)> {
    let lines: [(&[&str], &str); 9] = [
        (
            &["solve", iris, "--solver", "dp", "--depth", "2"],
            "--time-limit",
        ),
        (&["solve", iris, "--solver", "sparse"], "--time-limit"),
        (
            &["solve", iris, "--formulation", "oct", "--depth", "1"],
            "--time-limit",
        ),
        (
            &[
                "solve",
                iris,
                "--formulation",
                "binoct",
                "--depth",
                "1",
                "--solver",
                "cbc",
            ],
            "--time-limit",
        ),
        (
            &["solve", iris, "--formulation", "oct", "--depth", "1"],
            "--certify",
        ),
        (
            &["pareto", iris, "--depth", "1", "--positive-class", "0"],
            "--time-limit",
        ),
        (&["path", iris, "--steps", "2"], "--time-limit"),
        (
            &[
                "experiment",
                "--datasets",
                iris,
                "--depths",
                "1",
                "--out",
                dir,
                "--emit-jobs",
            ],
            "--time-limit",
        ),
        (
            &[
                "experiment",
                "--datasets",
                iris,
                "--depths",
                "1",
                "--time-limit",
                "1",
                "--out",
                dir,
                "--emit-jobs",
            ],
            "--certify",
        ),
    ];
    lines
        .iter()
        .map(|(line, option)| (line.iter().map(|s| s.to_string()).collect(), *option))
        .collect()
}

/// Runs `milptree args` and checks that it ends with exit 2 and a message naming `option`
/// (not clap's guess that a negative number is a flag).
fn assert_refused(args: &[&str], option: &str) {
    let output = milptree(args);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
    assert!(message.contains(option), "{args:?}: {message}");
    assert!(
        !message.contains("unexpected argument"),
        "{args:?}: {message}"
    );
    assert!(!message.contains("tip:"), "{args:?}: {message}");
}

#[test]
fn every_time_limit_refuses_nan_negatives_infinities_and_values_past_a_duration() {
    let iris = dataset("iris");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("results");
    for (line, option) in timed_commands(path_str(&iris), path_str(&out)) {
        for value in ["1e20", "1e300", "nan", "inf", "-1", "-0.5", "ten", ""] {
            for joined in [false, true] {
                let mut args = line.clone();
                if joined {
                    args.push(format!("{option}={value}"));
                } else {
                    args.push(option.to_string());
                    args.push(value.to_string());
                }
                let refs: Vec<&str> = args.iter().map(String::as_str).collect();
                assert_refused(&refs, option);
            }
        }
    }
}

#[test]
fn negative_numbers_reach_the_check_of_their_option() {
    let iris = dataset("iris");
    let iris = path_str(&iris);
    let dp = ["solve", iris, "--solver", "dp", "--depth", "1", "--quiet"];
    for (option, value) in [
        ("--test-fraction", "-0.1"),
        ("--seed", "-1"),
        ("--time-limit", "-1"),
        ("--alpha", "-1"),
        ("--min-leaf", "-1"),
        ("--max-splits", "-2"),
        ("--memory-limit", "-5"),
    ] {
        let mut args = dp.to_vec();
        args.extend([option, value]);
        assert_refused(&args, option);
    }
    let output = milptree(&["greedy", iris, "--depth", "-1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--depth"), "{}", stderr(&output));
}

#[test]
fn the_largest_time_limit_is_a_limit_that_never_stops_a_quick_search() {
    let iris = dataset("iris");
    let report = milptree_json(&[
        "solve",
        path_str(&iris),
        "--solver",
        "dp",
        "--depth",
        "2",
        "--time-limit",
        "1e9",
        "--json",
    ]);
    assert_eq!(report["termination"], "optimal");
}

#[test]
fn a_grid_file_refuses_a_time_limit_or_budget_past_a_duration() {
    let iris = dataset("iris");
    // The file's limit is checked where it is read, with the file's key and line.
    for (line, key) in [
        ("time_limit = 1e20", "3 | time_limit = 1e20"),
        (
            "time_limit = -1",
            "invalid time_limit: -1 is not a number of seconds",
        ),
        ("time_limit = nan", "invalid time_limit: NaN"),
        ("time_limit = \"ten\"", "time_limit = \"ten\""),
        (
            "time_limit = 0",
            "invalid time-limit: 0 is not a positive number",
        ),
        ("time_limit = 1\ncertify = 1e20", "certify"),
        ("time_limit = 1\ncertify = -2", "certify"),
    ] {
        let grid = format!("datasets = \"{}\"\ndepths = 1\n{line}\n", path_str(&iris));
        let (dir, path) = temp_file("grid.toml", &grid);
        let out = dir.path().join("results");
        let output = milptree(&[
            "experiment",
            "--grid",
            path_str(&path),
            "--out",
            path_str(&out),
            "--emit-jobs",
        ]);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{line}: {message}");
        assert!(message.contains(key), "{line}: {message}");
    }
}

#[test]
fn an_experiment_refuses_more_threads_than_the_machine_has_up_front() {
    let machine = std::thread::available_parallelism().map_or(1, usize::from);
    let too_many = (machine + 1).to_string();
    let iris = dataset("iris");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("results");
    let output = milptree(&[
        "experiment",
        "--datasets",
        path_str(&iris),
        "--depths",
        "1",
        "--formulations",
        "oct",
        "--solvers",
        "highs",
        "--warm-starts",
        "none",
        "--time-limit",
        "1",
        "--threads",
        &too_many,
        "--certify",
        "off",
        "--out",
        path_str(&out),
        "--quiet",
    ]);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("threads"), "{message}");
    assert!(!out.join("runs.csv").exists(), "nothing is run");
    // A grid file alike.
    let grid = format!(
        "datasets = \"{}\"\ndepths = 1\ntime_limit = 1\nthreads = {too_many}\n",
        path_str(&iris)
    );
    let (_grid_dir, path) = temp_file("grid.toml", &grid);
    let output = milptree(&[
        "experiment",
        "--grid",
        path_str(&path),
        "--out",
        path_str(&out),
        "--emit-jobs",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("threads"));
}

#[test]
fn options_for_another_objective_or_method_are_refused_not_ignored() {
    let iris = dataset("iris");
    let iris = path_str(&iris);
    let (_dir, two) = temp_file("two.csv", "x,class\n1,a\n2,a\n3,b\n4,b\n5,a\n");
    let two = path_str(&two);
    let cases: [(&[&str], &str); 5] = [
        (
            &["solve", two, "--solver", "sparse", "--pauc-theta", "0.5"],
            "--pauc-theta",
        ),
        (
            &[
                "solve",
                two,
                "--solver",
                "sparse",
                "--objective",
                "auc",
                "--pauc-theta",
                "0.5",
            ],
            "--pauc-theta",
        ),
        (
            &["path", two, "--steps", "2", "--pauc-theta", "0.5"],
            "--pauc-theta",
        ),
        (
            &[
                "solve",
                iris,
                "--formulation",
                "olct",
                "--depth",
                "1",
                "--positive-class",
                "0",
                "--certify",
                "10",
            ],
            "--certify",
        ),
        (
            &[
                "solve",
                iris,
                "--solver",
                "dp",
                "--depth",
                "1",
                "--certify",
                "1",
            ],
            "--certify",
        ),
    ];
    for (args, option) in cases {
        assert_refused(args, option);
    }
    // Where they apply, they are taken.
    let report = milptree_json(&[
        "solve",
        two,
        "--solver",
        "sparse",
        "--objective",
        "pauc",
        "--pauc-theta",
        "0.5",
        "--json",
    ]);
    assert_eq!(report["parameters"]["pauc_theta"], 0.5);
}

#[test]
fn an_olct_big_m_past_what_the_model_can_hold_is_refused_naming_its_range() {
    let (_dir, path) = temp_file("two.csv", "x,class\n1,a\n2,a\n3,b\n4,b\n5,a\n");
    for big_m in ["1e15", "1e14", "1001"] {
        for solver in ["highs", "cbc"] {
            let output = milptree(&[
                "solve",
                path_str(&path),
                "--formulation",
                "olct",
                "--depth",
                "1",
                "--solver",
                solver,
                "--big-m",
                big_m,
                "--time-limit",
                "5",
                "--quiet",
            ]);
            let message = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{big_m} {solver}: {message}");
            assert!(message.contains("--big-m"), "{message}");
            assert!(message.contains("at most"), "{message}");
        }
    }
    // The largest usable M (epsilon / 1e-8 with the default epsilon 1e-5) solves.
    let output = milptree(&[
        "solve",
        path_str(&path),
        "--formulation",
        "olct",
        "--depth",
        "1",
        "--big-m",
        "1000",
        "--time-limit",
        "5",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// A text column `c` whose category `x` names the same feature as the numeric column `c=x`.
const CLASHING_NAMES: &str = "c,c=x,class\nx,1,a\ny,0,b\nx,0,a\ny,1,b\nx,1,b\ny,0,a\n";

#[test]
fn feature_names_are_distinct_and_a_written_tree_reads_back() {
    let (dir, path) = temp_file("h.csv", CLASHING_NAMES);
    let tree = dir.path().join("t.json");
    for learner in [
        &["solve", "--solver", "dp", "--depth", "2"][..],
        &["solve", "--solver", "sparse", "--leaf-penalty", "0.01"][..],
        &["greedy", "--depth", "2"][..],
        &["solve", "--formulation", "oct", "--depth", "2"][..],
    ] {
        let mut args = vec![learner[0], path_str(&path), "-o", path_str(&tree), "--json"];
        args.extend_from_slice(&learner[1..]);
        let report = milptree_json(&args);
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&tree).expect("the tree file"))
                .expect("JSON");
        let features: Vec<&str> = written["features"]
            .as_array()
            .expect("features")
            .iter()
            .map(|f| f.as_str().expect("a name"))
            .collect();
        let distinct: std::collections::HashSet<&&str> = features.iter().collect();
        assert_eq!(distinct.len(), features.len(), "{features:?}");
        assert!(
            features.contains(&"c=x"),
            "the column keeps its name: {features:?}"
        );
        // The tree reads back, and predicts on its own data what the learner measured.
        let shown = milptree(&["show", path_str(&tree)]);
        assert_eq!(shown.status.code(), Some(0), "{}", stderr(&shown));
        let predicted = milptree_json(&[
            "predict",
            "--tree",
            path_str(&tree),
            path_str(&path),
            "--json",
        ]);
        assert_eq!(
            predicted["evaluation"]["misclassified"], report["train"]["misclassified"],
            "{learner:?}: {predicted}"
        );
    }
}

#[test]
fn labels_are_read_without_surrounding_spaces_as_the_readme_says() {
    let (_dir, path) = temp_file("spaces.csv", "x,class\n1, a\n2,a\n3,a \n4,b\n5, b \n");
    let report = milptree_json(&["greedy", path_str(&path), "--depth", "1", "--json"]);
    assert_eq!(report["tree"]["classes"], serde_json::json!(["a", "b"]));
    assert_eq!(report["train"]["misclassified"], 0);
}

#[test]
fn a_split_cost_past_every_target_gives_the_single_leaf() {
    // Iris has three classes of 50 rows: the single leaf misclassifies 100.
    let iris = dataset("iris");
    for args in [
        &["--solver", "dp", "--depth", "2", "--alpha", "1e20"][..],
        &["--solver", "sparse", "--leaf-penalty", "1e20"][..],
        &["--formulation", "oct", "--depth", "1", "--alpha", "1e20"][..],
    ] {
        let mut line = vec![
            "solve",
            path_str(&iris),
            "--json",
            "--quiet",
            "--time-limit",
            "20",
        ];
        line.extend_from_slice(args);
        let report = milptree_json(&line);
        // Any split of iris makes fewer errors: 100 is the single leaf's count.
        assert_eq!(report["train"]["misclassified"], 100, "{args:?}");
    }
}
