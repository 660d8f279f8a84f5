//! Standard streams that cannot be written: a full stdout is an error with exit 1, a closed
//! pipe on stdout ends the program quietly with exit 0 (as `| head -1` expects), and a full
//! stderr never makes the program panic. Every command that prints is run with its stdout at
//! `/dev/full` and into a pipe whose reading end is already closed.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{dataset, milptree, path_str, stderr};

/// The exit code a panicking Rust program ends with.
const PANIC_EXIT: i32 = 101;

/// A greedy tree of iris saved in a temporary directory.
fn saved_tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tree = dir.path().join("tree.json");
    let data = dataset("iris");
    let output = milptree(&[
        "greedy",
        path_str(&data),
        "--depth",
        "2",
        "--output",
        path_str(&tree),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    (dir, tree)
}

/// The command lines that print on stdout, with a tree file they may use.
fn printing_commands(tree: &Path) -> Vec<Vec<String>> {
    let iris = path_str(&dataset("iris")).to_string();
    let dir = tree.parent().expect("the tree's directory");
    let model = path_str(&dir.join("model.lp")).to_string();
    let results = path_str(&dir.join("results")).to_string();
    let tree = path_str(tree).to_string();
    let lines: [&[&str]; 10] = [
        &["greedy", &iris, "--depth", "1"],
        &["greedy", &iris, "--depth", "1", "--json"],
        &["predict", "--tree", &tree, &iris],
        &["predict", "--tree", &tree, &iris, "--json"],
        &["show", &tree],
        &["show", &tree, "--format", "dot"],
        &[
            "solve",
            &iris,
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--quiet",
        ],
        &[
            "solve",
            &iris,
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--quiet",
            "--json",
        ],
        &[
            "export-lp",
            &iris,
            "--formulation",
            "oct",
            "--depth",
            "1",
            "-o",
            &model,
        ],
        &[
            "experiment",
            "--datasets",
            &iris,
            "--depths",
            "1",
            "--formulations",
            "oct",
            "--solvers",
            "highs",
            "--time-limit",
            "5",
            "--out",
            &results,
            "--emit-jobs",
            "--quiet",
        ],
    ];
    lines
        .iter()
        .map(|line| line.iter().map(|s| s.to_string()).collect())
        .collect()
}

fn run_with(args: &[String], stdout: Stdio, stderr: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_milptree"))
        .args(args)
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("the milptree binary runs")
}

fn dev_full() -> Stdio {
    Stdio::from(
        OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full can be opened"),
    )
}

/// The writing end of a pipe whose reading end is already closed: every write to it fails
/// with a broken pipe, whenever it happens.
fn closed_pipe() -> Stdio {
    let (reader, writer) = nix::unistd::pipe().expect("a pipe");
    drop(reader);
    Stdio::from(writer)
}

#[test]
fn a_full_stdout_is_an_error_with_exit_one() {
    let (_dir, tree) = saved_tree();
    for args in printing_commands(&tree) {
        let output = run_with(&args, dev_full(), Stdio::piped());
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {text}");
        assert!(
            text.contains("error: cannot write to stdout"),
            "{args:?}: {text}"
        );
        assert!(!text.contains("panicked"), "{args:?}: {text}");
    }
}

#[test]
fn a_closed_pipe_on_stdout_ends_quietly_with_exit_zero() {
    let (_dir, tree) = saved_tree();
    for args in printing_commands(&tree) {
        let output = run_with(&args, closed_pipe(), Stdio::piped());
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {text}");
        assert!(!text.contains("error"), "{args:?}: {text}");
        assert!(!text.contains("panicked"), "{args:?}: {text}");
    }
}

#[test]
fn head_reads_the_first_line_and_the_rest_ends_quietly() {
    // More predictions than a pipe holds (64 KiB): `head -1` exits long before the last write.
    let (_dir, tree) = saved_tree();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rows = dir.path().join("many.csv");
    let mut text =
        String::from("sepal_length_cm,sepal_width_cm,petal_length_cm,petal_width_cm,class\n");
    for i in 0..20_000 {
        text.push_str(&format!("5.{},3.5,{}.4,0.2,setosa\n", i % 10, 1 + i % 6));
    }
    std::fs::write(&rows, text).expect("rows written");
    let script = format!(
        "'{}' predict --tree '{}' '{}' 2>'{}' | head -1; echo \"status ${{PIPESTATUS[0]}}\"",
        env!("CARGO_BIN_EXE_milptree"),
        path_str(&tree),
        path_str(&rows),
        path_str(&dir.path().join("stderr.txt")),
    );
    let output = Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash runs");
    let shown = String::from_utf8_lossy(&output.stdout);
    assert_eq!(shown, "row,leaf,predicted,actual\nstatus 0\n");
    let errors = std::fs::read_to_string(dir.path().join("stderr.txt")).expect("stderr");
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(!errors.contains("error"), "{errors}");
}

#[test]
fn a_full_stderr_never_panics() {
    let (_dir, tree) = saved_tree();
    let iris = path_str(&dataset("iris")).to_string();
    let tree = path_str(&tree).to_string();
    // Predictions on stdout, metrics on stderr: the metrics cannot be written.
    let metrics = run_with(
        &[
            "predict".into(),
            "--tree".into(),
            tree.clone(),
            iris.clone(),
        ],
        Stdio::null(),
        dev_full(),
    );
    assert_eq!(metrics.status.code(), Some(1));
    // An error message that cannot be written still ends with the error's exit code.
    let missing = run_with(
        &[
            "greedy".into(),
            "/nonexistent.csv".into(),
            "--depth".into(),
            "1".into(),
        ],
        Stdio::null(),
        dev_full(),
    );
    assert_eq!(missing.status.code(), Some(2));
    // A usage error, likewise.
    let usage = run_with(&["frobnicate".into()], Stdio::null(), dev_full());
    assert_eq!(usage.status.code(), Some(2));
    // Nothing goes to stderr on success: a full stderr changes nothing.
    let quiet = run_with(
        &["show".into(), tree, "--format".into(), "json".into()],
        Stdio::null(),
        dev_full(),
    );
    assert_eq!(quiet.status.code(), Some(0));
    for output in [&metrics, &missing, &usage, &quiet] {
        assert_ne!(output.status.code(), Some(PANIC_EXIT));
    }
}

#[test]
fn the_command_line_run_in_memory_leaves_cbc_its_worker() {
    // A test program is not milptree: running the command line in it must not make it the
    // program CBC's workers run.
    let (code, _) = milptree::cli::run_in_memory(["milptree", "show", "/nonexistent.json"]);
    assert_eq!(code, 2);
    let known = crate::models::knapsack();
    let report = milptree::solver::solve(
        &known.model,
        milptree::solver::SolverKind::Cbc,
        &milptree::solver::SolveOptions::default(),
    )
    .expect("CBC solves")
    .report;
    assert_eq!(
        report.termination,
        milptree::solver::Termination::Optimal,
        "{report:?}"
    );
}

#[test]
fn a_solver_log_to_a_full_or_closed_stderr_is_lost_without_a_panic() {
    let iris = path_str(&dataset("iris")).to_string();
    for solver in ["cbc", "highs"] {
        let args: Vec<String> = [
            "solve",
            &iris,
            "--formulation",
            "oct",
            "--depth",
            "1",
            "--solver",
            solver,
            "--time-limit",
            "2",
            "--certify",
            "off",
            "--log",
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for stderr in [dev_full(), closed_pipe()] {
            let output = run_with(&args, Stdio::piped(), stderr);
            assert_eq!(output.status.code(), Some(0), "{solver}");
            let report: serde_json::Value =
                serde_json::from_slice(&output.stdout).expect("the report is written");
            // The log is lost; the result is not: the depth-1 optimum of iris misses 50 rows.
            assert_eq!(report["train"]["misclassified"], 50, "{solver}");
        }
    }
}

/// Runs `milptree args` with its stdout closed (`>&-`), stderr captured.
fn with_stdout_closed(args: &[&str]) -> Output {
    let mut line = format!("'{}'", env!("CARGO_BIN_EXE_milptree"));
    for arg in args {
        line.push_str(&format!(" '{arg}'"));
    }
    Command::new("bash")
        .args(["-c", &format!("{line} >&-")])
        .output()
        .expect("bash runs")
}

#[test]
fn help_and_version_that_cannot_be_written_and_a_closed_stdout_exit_one() {
    for args in [
        &["--version"][..],
        &["--help"][..],
        &["solve", "--help"][..],
    ] {
        let strings: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let full = run_with(&strings, dev_full(), Stdio::piped());
        assert_eq!(full.status.code(), Some(1), "{args:?}: {}", stderr(&full));
        assert!(stderr(&full).contains("cannot write to stdout"), "{args:?}");
        // A reader that has gone is not a failure, as for every command.
        let gone = run_with(&strings, closed_pipe(), Stdio::piped());
        assert_eq!(gone.status.code(), Some(0), "{args:?}: {}", stderr(&gone));
        let closed = with_stdout_closed(args);
        assert_eq!(
            closed.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&closed)
        );
    }
    let (_dir, tree) = saved_tree();
    for args in printing_commands(&tree) {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = with_stdout_closed(&refs);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {text}");
        assert!(text.contains("cannot write to stdout"), "{args:?}: {text}");
        assert!(!text.contains("panicked"), "{args:?}: {text}");
    }
}

#[test]
fn pareto_prints_its_summary_as_the_result_when_the_files_go_to_a_directory() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("front");
    let data = dataset("breast_cancer");
    let output = milptree(&[
        "pareto",
        path_str(&data),
        "--depth",
        "1",
        "--out",
        path_str(&out),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = crate::common::stdout(&output);
    assert!(printed.starts_with("front of `"), "{printed}");
    assert!(
        printed.contains("best F1:") || printed.contains("best f1"),
        "{printed}"
    );
    assert!(printed.contains("front.json"), "{printed}");
    assert!(!stderr(&output).contains("front of `"));
    // Beside a CSV on stdout, the summary is a diagnostic on stderr.
    let output = milptree(&["pareto", path_str(&data), "--depth", "1"]);
    assert!(
        crate::common::stdout(&output).starts_with("fp,"),
        "{}",
        crate::common::stdout(&output)
    );
    assert!(stderr(&output).contains("front of `"));
}

/// `milptree ARGS` under a pseudo terminal (`script`), stderr and stdout together; `None`
/// when `script` is not installed.
fn under_terminal(args: &str) -> Option<String> {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_milptree"));
    let output = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    assert!(output.status.success(), "{}", stderr(&output));
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn searches_draw_a_progress_line_on_a_terminal_only() {
    let data = dataset("breast_cancer");
    let args = format!(
        "solve {} --solver dp --depth 4 --time-limit 1",
        path_str(&data)
    );
    // On a terminal: the line with the program, the limit and the incumbent.
    let Some(shown) = under_terminal(&args) else {
        eprintln!("skipped: `script` is not installed");
        return;
    };
    assert!(shown.contains("dp 00:00:0"), "{shown}");
    assert!(shown.contains(" / 1.0 s"), "{shown}");
    assert!(shown.contains("incumbent "), "{shown}");
    // `--quiet` silences it.
    let quiet = under_terminal(&format!("{args} --quiet")).expect("script ran before");
    assert!(!quiet.contains(" / 1.0 s"), "{quiet}");
    // Never on a pipe.
    let piped = milptree(&[
        "solve",
        path_str(&data),
        "--solver",
        "dp",
        "--depth",
        "4",
        "--time-limit",
        "1",
    ]);
    let text = stderr(&piped);
    assert!(
        !text.contains(" / 1.0 s") && !text.contains('\u{1b}'),
        "{text}"
    );
}
