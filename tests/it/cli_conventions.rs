//! The command line's conventions across commands: one spelling for an output directory
//! (`--out-dir`) and one for an output file (`-o`, `--output`), the older spellings still taken;
//! each command's help lists only the options that apply to it, and the others are refused;
//! `pareto` tree files carry their provenance.

use std::path::Path;

use milptree::tree::Tree;

use crate::common::{dataset, milptree, path_str, stderr, stdout};

/// The files and directories (ending in `/`) under `dir`, sorted, relative to it.
fn files_under(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current).expect("a directory") {
            let path = entry.expect("an entry").path();
            let relative = path
                .strip_prefix(dir)
                .expect("under dir")
                .display()
                .to_string();
            if path.is_dir() {
                names.push(format!("{relative}/"));
                stack.push(path);
            } else {
                names.push(relative);
            }
        }
    }
    names.sort();
    names
}

/// The long options a help text lists (the lines that start with one).
fn listed_options(help: &str) -> Vec<String> {
    help.lines()
        .filter_map(|line| {
            let text = line.trim_start();
            // An option's line is indented by at most six spaces; its wrapped help, by more.
            if line.len() - text.len() > 6 {
                return None;
            }
            let line = text
                .strip_prefix('-')
                .filter(|rest| rest.chars().nth(1) == Some(','))
                .map_or(line, |rest| rest[2..].trim_start());
            line.starts_with("--")
                .then(|| line.split([' ', '=']).next().unwrap_or(line).to_string())
        })
        .collect()
}

/// Runs `milptree` with `args`, asserting success.
fn run(args: &[&str]) -> String {
    let output = milptree(args);
    assert!(
        output.status.success(),
        "milptree {args:?}: {}",
        stderr(&output)
    );
    stdout(&output)
}

#[test]
fn output_directories_are_out_dir_and_out_still_works() {
    let iris = dataset("iris");
    let breast = dataset("breast_cancer");
    let experiment = |spelling: &str, dir: &Path| {
        run(&[
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
            "--emit-jobs",
            "--quiet",
            spelling,
            path_str(dir),
        ])
    };
    let pareto = |spelling: &str, dir: &Path| {
        run(&[
            "pareto",
            path_str(&breast),
            "--depth",
            "1",
            "--quiet",
            spelling,
            path_str(dir),
        ])
    };
    let tune = |spelling: &str, dir: &Path| {
        run(&[
            "tune",
            path_str(&iris),
            "--method",
            "dp",
            "--depth",
            "1,2",
            "--folds",
            "2",
            "--quiet",
            spelling,
            path_str(dir),
        ])
    };
    let path = |spelling: &str, dir: &Path| {
        run(&[
            "path",
            path_str(&iris),
            "--leaf-penalty",
            "0.01,0.1",
            "--depth",
            "2",
            "--quiet",
            spelling,
            path_str(dir),
        ])
    };
    type Command<'a> = &'a dyn Fn(&str, &Path) -> String;
    let commands: [(&str, Command, &[&str]); 4] = [
        ("experiment", &experiment, &["--out-dir", "--out"]),
        ("pareto", &pareto, &["--out-dir", "--out"]),
        ("tune", &tune, &["--out-dir", "--out"]),
        ("path", &path, &["--out-dir"]),
    ];
    for (name, command, spellings) in commands {
        let mut written = Vec::new();
        for spelling in spellings {
            let dir = tempfile::tempdir().expect("a directory");
            command(spelling, dir.path());
            let files = files_under(dir.path());
            assert!(!files.is_empty(), "{name} {spelling} wrote nothing");
            written.push(files);
        }
        assert!(
            written.windows(2).all(|pair| pair[0] == pair[1]),
            "{name}: the spellings wrote different files: {written:?}"
        );
        match name {
            "pareto" => {
                let files = &written[0];
                for file in ["front.json", "front.csv", "front.svg"] {
                    assert!(files.contains(&file.to_string()), "{files:?}");
                }
                assert!(files.iter().any(|f| f.starts_with("trees/fp")), "{files:?}");
            }
            "path" => {
                let files = &written[0];
                for file in [
                    "path.csv",
                    "path.svg",
                    "trees/lambda-0.01.json",
                    "trees/lambda-0.1.json",
                ] {
                    assert!(files.contains(&file.to_string()), "{files:?}");
                }
            }
            _ => {}
        }
    }
}

#[test]
fn output_files_are_o_and_output_and_csv_still_works() {
    let iris = dataset("iris");
    for command in ["path", "tune"] {
        let mut tables = Vec::new();
        for spelling in ["-o", "--output", "--csv"] {
            let dir = tempfile::tempdir().expect("a directory");
            let file = dir.path().join("table.csv");
            let mut args = vec![
                command,
                path_str(&iris),
                "--quiet",
                spelling,
                path_str(&file),
            ];
            if command == "path" {
                args.extend(["--leaf-penalty", "0.01,0.1", "--depth", "2"]);
            } else {
                args.extend(["--method", "dp", "--depth", "1,2", "--folds", "2"]);
            }
            run(&args);
            let table = std::fs::read_to_string(&file).expect("the table is written");
            // A header and one row per penalty or depth.
            assert_eq!(table.lines().count(), 3, "{command} {spelling}: {table}");
            tables.push(table);
        }
        // The tables differ only in their seconds; their first columns are the same.
        let keys: Vec<Vec<String>> = tables
            .iter()
            .map(|t| {
                t.lines()
                    .map(|l| l.split(',').take(2).collect::<Vec<_>>().join(","))
                    .collect()
            })
            .collect();
        assert!(keys.windows(2).all(|p| p[0] == p[1]), "{command}: {keys:?}");
    }
    // The commands that write one file have taken -o and --output all along.
    for command in ["solve", "greedy", "predict", "export-lp"] {
        let help = run(&[command, "--help"]);
        assert!(help.contains("-o, --output <"), "{command}: {help}");
    }
}

#[test]
fn older_output_options_of_path_and_pareto_still_write_where_they_say() {
    let iris = dataset("iris");
    let dir = tempfile::tempdir().expect("a directory");
    let trees = dir.path().join("my-trees");
    let plot = dir.path().join("figure");
    run(&[
        "path",
        path_str(&iris),
        "--leaf-penalty",
        "0.05",
        "--depth",
        "2",
        "--quiet",
        "--trees",
        path_str(&trees),
        "--plot",
        path_str(&plot),
    ]);
    assert_eq!(files_under(&trees), ["lambda-0.05.json"]);
    assert!(dir.path().join("figure.svg").exists());
    let out = dir.path().join("front");
    let pareto_trees = dir.path().join("front-trees");
    run(&[
        "pareto",
        path_str(&dataset("breast_cancer")),
        "--depth",
        "1",
        "--quiet",
        "--out",
        path_str(&out),
        "--trees",
        path_str(&pareto_trees),
    ]);
    assert!(!out.join("trees").exists());
    assert!(!files_under(&pareto_trees).is_empty());
}

/// For each command, options of other commands that do not apply to it: none is in its help,
/// and each is refused with exit 2. The arguments before them are a valid command line.
#[test]
fn each_command_lists_only_what_applies_and_refuses_the_rest() {
    let iris = dataset("iris");
    let iris = path_str(&iris);
    let dir = tempfile::tempdir().expect("a directory");
    let tree = dir.path().join("tree.json");
    run(&[
        "greedy",
        iris,
        "--depth",
        "1",
        "-o",
        path_str(&tree),
        "--json",
    ]);
    let tree = path_str(&tree);
    let model = dir.path().join("model.lp");
    let model = path_str(&model);
    let cases: Vec<(&str, Vec<&str>, &[&str])> = vec![
        (
            "export-lp",
            vec![iris, "--formulation", "oct", "--depth", "1", "-o", model],
            &[
                "--max-splits",
                "--memory-limit",
                "--pauc-theta",
                "--solver",
                "--time-limit",
                "--out-dir",
            ],
        ),
        (
            "path",
            vec![iris, "--depth", "1", "--leaf-penalty", "0.1"],
            &[
                "--formulation",
                "--solver",
                "--alpha",
                "--min-leaf",
                "--max-splits",
                "--warm-start",
                "--certify",
            ],
        ),
        (
            "pareto",
            vec![iris, "--depth", "1", "--positive-class", "Iris-setosa"],
            &["--objective", "--leaf-penalty", "--alpha", "--warm-start"],
        ),
        (
            "greedy",
            vec![iris, "--depth", "1"],
            &["--formulation", "--solver", "--time-limit", "--out-dir"],
        ),
        (
            "predict",
            vec!["--tree", tree, iris],
            &["--depth", "--test-fraction", "--seed", "--out-dir"],
        ),
        ("show", vec![tree], &["--out-dir", "--json", "--depth"]),
        (
            "solve",
            vec![iris, "--solver", "dp", "--depth", "1"],
            &["--steps", "--max-fp", "--folds", "--out-dir"],
        ),
        (
            "tune",
            vec![iris, "--method", "dp", "--depth", "1", "--folds", "2"],
            &["--weight-column", "--formulation", "--certify"],
        ),
        (
            "experiment",
            vec!["--report-only", "--out-dir", "missing"],
            &["--depth", "--formulation", "--output"],
        ),
    ];
    for (command, valid, refused) in cases {
        let help = run(&[command, "--help"]);
        for option in refused {
            assert!(
                !listed_options(&help).contains(&option.to_string()),
                "{command} --help lists {option}: {help}"
            );
            let mut args = vec![command];
            args.extend(&valid);
            args.extend([*option, "1"]);
            let output = milptree(&args);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{args:?} is not refused: {}",
                stderr(&output)
            );
            assert!(
                stderr(&output).contains(option),
                "{args:?}: {}",
                stderr(&output)
            );
        }
    }
    // The objectives a command's methods do not optimise are not among its values.
    for (command, absent) in [
        ("path", &["mcc", "fowlkes-mallows"][..]),
        (
            "export-lp",
            &["weighted", "f1", "mcc", "fowlkes-mallows", "auc", "pauc"][..],
        ),
    ] {
        let help = run(&[command, "--help"]);
        let objective = help
            .split("--objective")
            .nth(1)
            .and_then(|rest| rest.split("\n      --").next())
            .expect("the objective's help");
        for value in absent {
            assert!(
                !objective.contains(&format!("- {value}:")),
                "{command}: {objective}"
            );
        }
    }
    crate::common::assert_usage_error(
        &["path", iris, "--objective", "mcc", "--depth", "1"],
        "--objective",
    );
    crate::common::assert_usage_error(
        &[
            "export-lp",
            iris,
            "--formulation",
            "oct",
            "--depth",
            "1",
            "-o",
            model,
            "--objective",
            "f1",
        ],
        "--objective",
    );
}

/// Each tree file `pareto` writes says how it was made, as `solve -o` files do: the method, its
/// parameters and point on the front, why the search ended, the training rows it was learned on;
/// and the tree's false positives and negatives, counted here, are that point.
#[test]
fn pareto_tree_files_carry_their_provenance() {
    let breast = dataset("breast_cancer");
    let dir = tempfile::tempdir().expect("a directory");
    run(&[
        "pareto",
        path_str(&breast),
        "--depth",
        "1",
        "--test-fraction",
        "0.2",
        "--seed",
        "3",
        "--quiet",
        "--out-dir",
        path_str(dir.path()),
    ]);
    let all = milptree::data::read_dataset(&breast, &Default::default()).expect("breast_cancer");
    let sets = milptree::data::Sets::split(&all, Some(0.2), 3).expect("split");
    let train = &sets.train;
    let files = files_under(&dir.path().join("trees"));
    assert!(files.len() >= 2, "{files:?}");
    for name in files {
        let path = dir.path().join("trees").join(&name);
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("json");
        assert_eq!(file["version"], 2);
        let made = &file["provenance"];
        assert_eq!(made["method"], "pareto", "{made:#}");
        assert_eq!(made["solver"], "dp");
        assert_eq!(made["termination"], "optimal");
        assert_eq!(made["parameters"]["parameters"]["depth"], 1);
        assert_eq!(made["milptree_version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(made["training"]["rows"], train.n_rows());
        assert_eq!(made["training"]["fingerprint"], train.fingerprint());
        assert_eq!(made["training"]["split_seed"], 3);
        assert_eq!(made["training"]["test_fraction"], 0.2);
        let tree = Tree::read(&path).expect("the file reads");
        let predicted = tree.predict(train.rows());
        let (mut fp, mut fn_) = (0u64, 0u64);
        for (&p, &actual) in predicted.iter().zip(train.labels()) {
            match (p, actual) {
                (1, 0) => fp += 1,
                (0, 1) => fn_ += 1,
                _ => {}
            }
        }
        let point = &made["parameters"]["point"];
        assert_eq!(point["fp"], fp, "{name}");
        assert_eq!(point["fn"], fn_, "{name}");
        assert_eq!(name, format!("fp{fp}-fn{fn_}.json"));
        let shown = run(&["show", path_str(&path)]);
        assert!(shown.starts_with("learned by: pareto (dp)\n"), "{shown}");
    }
}

#[test]
fn an_unknown_forbidden_feature_names_the_option_it_came_from() {
    let iris = dataset("iris");
    let cancer = dataset("breast_cancer");
    let (_dir, file) = crate::common::temp_file("c.toml", "forbidden = [\"nope\"]\n");
    let commands: [Vec<&str>; 3] = [
        vec!["solve", path_str(&iris), "--depth", "2", "--solver", "dp"],
        vec![
            "rashomon",
            path_str(&iris),
            "--depth",
            "2",
            "--epsilon",
            "0",
        ],
        vec![
            "pareto",
            path_str(&cancer),
            "--depth",
            "1",
            "--group-column",
            "mean_radius",
        ],
    ];
    for command in &commands {
        let flagged = [&command[..], &["--forbid-feature", "nope"]].concat();
        crate::common::assert_usage_error(&flagged, "invalid --forbid-feature: `nope`");
        if command[0] != "pareto" {
            let filed = [&command[..], &["--constraints", path_str(&file)]].concat();
            crate::common::assert_usage_error(&filed, "invalid --constraints: forbidden: `nope`");
        }
    }
}
