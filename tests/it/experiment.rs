//! `milptree experiment` end to end on a tiny grid (two small datasets, depth 1, OCT and
//! BinOCT, both solvers, with and without a warm start): every column of `runs.csv` filled or explicitly empty as its meaning requires, a
//! rerun that solves nothing, an interrupted table that resumes with exactly the missing run,
//! `--emit-jobs` lines that run and `--collect` into the same rows, the plots, the summary,
//! the grid file, and the validation errors. Then the primal integral and the performance
//! profile against hand-computed examples and properties.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use milptree::experiment::primal_integral::{primal_gap, primal_integral};
use milptree::experiment::profile::performance_profile;
use milptree::solver::TrajectoryPoint;
use proptest::prelude::*;

use crate::common::{path_str, stderr, stdout};

/// The columns of `runs.csv`, in order, as README documents them.
const COLUMNS: [&str; 65] = [
    "run_key",
    "dataset",
    "dataset_path",
    "rows",
    "features",
    "classes",
    "train_rows",
    "test_rows",
    "formulation",
    "parameters",
    "depth",
    "solver",
    "solver_options",
    "solver_version",
    "warm_start",
    "seed",
    "test_fraction",
    "time_limit",
    "threads",
    "dp_bounds",
    "search_rows",
    "bound_source",
    "variables",
    "binaries",
    "integers",
    "continuous",
    "constraints",
    "nonzeros",
    "build_seconds",
    "termination",
    "has_solution",
    "objective",
    "best_bound",
    "root_bound",
    "abs_gap",
    "rel_gap",
    "seconds",
    "nodes",
    "time_to_first_incumbent",
    "first_incumbent",
    "trajectory_points",
    "trajectory_complete",
    "primal_integral",
    "primal_integral_reference",
    "warm_start_source",
    "warm_start_objective",
    "warm_start_feasible",
    "warm_start_accepted",
    "evaluated_objective",
    "decode_mismatch",
    "certificate",
    "certificate_objective",
    "certificate_bound",
    "certificate_seconds",
    "certificate_difference",
    "train_accuracy",
    "train_balanced_accuracy",
    "test_accuracy",
    "test_balanced_accuracy",
    "greedy_train_accuracy",
    "greedy_train_balanced_accuracy",
    "greedy_test_accuracy",
    "greedy_test_balanced_accuracy",
    "error",
    "side_constraints",
];

/// Columns that measure time and so differ between two runs of one configuration.
const TIMING: [&str; 8] = [
    "build_seconds",
    "certificate_seconds",
    "warm_start_source",
    "seconds",
    "time_to_first_incumbent",
    "trajectory_points",
    "primal_integral",
    "nodes",
];

type CsvRow = BTreeMap<String, String>;

/// The time limit of the tiny grid's runs, which take milliseconds.
const LIMIT: &str = "30";

/// Runs `milptree experiment`, with `MILPTREE_FONT` naming no file: the figures must be drawn
/// with the embedded font, whatever fonts the machine has.
pub(crate) fn experiment(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_milptree"))
        .arg("experiment")
        .args(args)
        .env("MILPTREE_FONT", "/nonexistent/font.ttf")
        .output()
        .expect("the milptree binary runs")
}

fn succeed(args: &[&str]) -> Output {
    let output = experiment(args);
    assert!(
        output.status.success(),
        "milptree experiment {args:?} failed: {}",
        stderr(&output)
    );
    output
}

/// A small two-class dataset with a threshold rule and a little noise.
fn alpha_csv() -> String {
    let mut text = String::from("x0,x1,x2,label\n");
    for i in 0..24u32 {
        let (x0, x1, x2) = ((i * 7) % 6, (i * 5 + 1) % 7, (i * 3) % 4);
        let label = if x0 + x1 > 5 { "yes" } else { "no" };
        let label = if i % 11 == 3 { "yes" } else { label };
        text.push_str(&format!("{x0},{x1},{x2},{label}\n"));
    }
    text
}

/// A small three-class dataset.
fn beta_csv() -> String {
    let mut text = String::from("a,b,class\n");
    for i in 0..30u32 {
        let (a, b) = ((i * 13) % 10, (i * 7 + 3) % 9);
        let class = if a < 3 {
            "red"
        } else if b < 5 {
            "green"
        } else {
            "blue"
        };
        text.push_str(&format!("{a},{b},{class}\n"));
    }
    text
}

/// The tiny grid's formulations: both minimise training errors, which the checks below rely
/// on.
const FORMULATIONS: [&str; 2] = ["oct", "binoct"];

/// The tiny grid's setting: the datasets in a temporary directory and the grid flags.
struct Tiny {
    dir: tempfile::TempDir,
}

impl Tiny {
    fn new() -> Tiny {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(dir.path().join("alpha.csv"), alpha_csv()).expect("written");
        std::fs::write(dir.path().join("beta.csv"), beta_csv()).expect("written");
        Tiny { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn datasets(&self) -> String {
        format!(
            "{},{}",
            path_str(&self.path("alpha.csv")),
            path_str(&self.path("beta.csv"))
        )
    }

    /// The grid flags with `--out out`.
    fn args(&self, out: &Path) -> Vec<String> {
        [
            "--datasets",
            &self.datasets(),
            "--depths",
            "1",
            "--formulations",
            &FORMULATIONS.join(","),
            "--solvers",
            "highs,cbc",
            "--warm-starts",
            "none,greedy",
            "--time-limit",
            LIMIT,
            "--seeds",
            "0",
            "--out",
            path_str(out),
            "--quiet",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn runs(&self) -> usize {
        2 * FORMULATIONS.len() * 2 * 2
    }
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn read_csv(path: &Path) -> (Vec<String>, Vec<CsvRow>) {
    let mut reader = csv::Reader::from_path(path).expect("runs.csv opens");
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_string)
        .collect();
    let rows = reader
        .records()
        .map(|record| {
            let record = record.expect("a CSV record");
            header
                .iter()
                .cloned()
                .zip(record.iter().map(str::to_string))
                .collect()
        })
        .collect();
    (header, rows)
}

fn number(row: &CsvRow, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} = `{}` is a number", row[column]))
}

/// Checks that each column of a row is filled or empty as its meaning requires.
fn check_filled(row: &CsvRow) {
    let key = &row["run_key"];
    let cold = row["warm_start"] == "none";
    assert_eq!(
        row["termination"], "optimal",
        "{key}: the tiny runs are optimal"
    );
    // What must be empty: no error; no thread count and no solver options (the grid leaves the
    // solvers' defaults); no
    // certificate difference (every tiny run is proven optimal, and the certificate agrees); no
    // warm-start figures without a warm start. Both solvers report their solutions as they
    // find them (CBC through its log), so every other column is filled, times of solutions and
    // primal integrals included.
    let mut empty: BTreeSet<&str> = BTreeSet::from([
        "error",
        "side_constraints",
        "threads",
        "solver_options",
        "certificate_difference",
    ]);
    if cold {
        empty.extend([
            "warm_start_source",
            "warm_start_objective",
            "warm_start_feasible",
            "warm_start_accepted",
        ]);
    }
    for column in COLUMNS {
        let value = &row[column];
        // HiGHS's root bound is known when the solve reached the end of the root node, which
        // a tiny model's presolve or root LP may not; CBC does not report it.
        if column == "root_bound" {
            continue;
        }
        if empty.contains(column) {
            assert!(
                value.is_empty(),
                "{key}: {column} should be empty, is `{value}`"
            );
        } else {
            assert!(!value.is_empty(), "{key}: {column} should be filled");
        }
    }
    assert_eq!(row["trajectory_complete"], "true", "{key}");
    assert_eq!(row["decode_mismatch"], "false");
    assert_eq!(row["certificate"], "agrees", "{key}");
    assert_eq!(row["has_solution"], "true");
    let objective = number(row, "objective");
    assert!((objective - number(row, "evaluated_objective")).abs() < 1e-6);
    assert!((objective - number(row, "best_bound")).abs() < 1e-6);
    assert!(number(row, "rel_gap") < 1e-9);
    // The optimal depth-1 tree is at least as accurate on the training rows as greedy's.
    assert!(number(row, "train_accuracy") >= number(row, "greedy_train_accuracy") - 1e-12);
    for column in [
        "train_accuracy",
        "test_accuracy",
        "greedy_test_balanced_accuracy",
    ] {
        let value = number(row, column);
        assert!((0.0..=1.0).contains(&value), "{key}: {column} = {value}");
    }
    assert_eq!(
        number(row, "rows"),
        number(row, "train_rows") + number(row, "test_rows")
    );
    if !cold {
        assert_eq!(row["warm_start_feasible"], "true");
    }
    let integral = number(row, "primal_integral");
    assert!(
        (0.0..=number(row, "time_limit")).contains(&integral),
        "{key}: {integral}"
    );
}

/// An independent primal integral: the incumbent of a trajectory file as a step function,
/// against `reference`, over `[0, limit]`.
fn integral_by_hand(trajectory: &Path, reference: f64, limit: f64) -> f64 {
    let (_, points) = read_csv(trajectory);
    let mut total = 0.0;
    let mut gap = 1.0;
    let mut since = 0.0;
    for point in points {
        let at = number(&point, "seconds").min(limit);
        total += gap * (at - since);
        since = at;
        if let Ok(x) = point["incumbent"].parse::<f64>() {
            gap = if x == reference {
                0.0
            } else {
                (x - reference).abs() / x.abs().max(reference.abs())
            };
        }
    }
    total + gap * (limit - since)
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("a modification time")
}

/// A modification time no file written by a test can have.
fn long_ago() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000)
}

/// Sets the modification time of `path` to [`long_ago`], so that a later write, however soon
/// and whatever the file system's time resolution, is seen as a change.
fn age(path: &Path) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(long_ago()))
        .expect("the modification time is set");
}

fn by_key(rows: Vec<CsvRow>) -> BTreeMap<String, CsvRow> {
    rows.into_iter()
        .map(|row| (row["run_key"].clone(), row))
        .collect()
}

#[test]
fn a_tiny_grid_runs_resumes_and_collects_into_the_same_rows() {
    let tiny = Tiny::new();
    let out = tiny.path("results");
    let args = tiny.args(&out);
    let first = succeed(&strs(&args));
    assert!(
        stdout(&first).contains(&format!(
            "runs solved now: {}; already in the results: 0; failed: 0",
            tiny.runs()
        )),
        "{}",
        stdout(&first)
    );

    // Every column filled or explicitly empty.
    let (header, rows) = read_csv(&out.join("runs.csv"));
    assert_eq!(header, COLUMNS);
    assert_eq!(rows.len(), tiny.runs());
    let keys: BTreeSet<&String> = rows.iter().map(|r| &r["run_key"]).collect();
    assert_eq!(keys.len(), rows.len(), "run keys are distinct");
    for row in &rows {
        check_filled(row);
        let trajectory = out
            .join("trajectories")
            .join(format!("{}.csv", row["run_key"]));
        assert!(trajectory.exists(), "{}", trajectory.display());
        if row["solver"] == "highs" {
            // The integral in the table is the trajectory's, against the best objective of
            // the instance (formulation, dataset, split) over all runs.
            let reference = rows
                .iter()
                .filter(|r| {
                    r["dataset"] == row["dataset"] && r["formulation"] == row["formulation"]
                })
                .map(|r| number(r, "objective"))
                .fold(f64::INFINITY, f64::min);
            assert_eq!(number(row, "primal_integral_reference"), reference);
            let limit: f64 = LIMIT.parse().expect("a number");
            let expected = integral_by_hand(&trajectory, reference, limit);
            let integral = number(row, "primal_integral");
            assert!(
                (integral - expected).abs() < 1e-9,
                "{integral} vs {expected}"
            );
        }
    }
    // The JSON lines hold the same rows.
    let jsonl = std::fs::read_to_string(out.join("runs.jsonl")).expect("runs.jsonl");
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), rows.len());
    for (line, row) in lines.iter().zip(&rows) {
        let object = line.as_object().expect("an object");
        let names: BTreeSet<&str> = object.keys().map(String::as_str).collect();
        assert_eq!(names, COLUMNS.into_iter().collect::<BTreeSet<_>>());
        assert_eq!(line["run_key"], row["run_key"].as_str());
        assert_eq!(line["seconds"].as_f64(), Some(number(row, "seconds")));
        assert_eq!(line["error"], serde_json::Value::Null);
    }

    // A rerun solves nothing: no trajectory file is rewritten, the table is unchanged.
    let trajectories = out.join("trajectories");
    let keys: Vec<String> = rows.iter().map(|r| r["run_key"].clone()).collect();
    let trajectory = |key: &str| trajectories.join(format!("{key}.csv"));
    for key in &keys {
        age(&trajectory(key));
    }
    let again = succeed(&strs(&args));
    assert!(
        stdout(&again).contains(&format!(
            "runs solved now: 0; already in the results: {};",
            tiny.runs()
        )),
        "{}",
        stdout(&again)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("runs.jsonl")).expect("read"),
        jsonl
    );
    for key in &keys {
        assert_eq!(modified(&trajectory(key)), long_ago(), "{key}");
    }

    // A table cut in the middle of its last line (an interrupted write) resumes with exactly
    // that run.
    let last_key = rows.last().expect("rows")["run_key"].clone();
    let cut = jsonl.trim_end().rfind('\n').map_or(0, |i| i + 1) + 20;
    std::fs::write(out.join("runs.jsonl"), &jsonl[..cut]).expect("cut");
    let resumed = experiment(&strs(&args));
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stdout(&resumed).contains(&format!(
        "runs solved now: 1; already in the results: {};",
        tiny.runs() - 1
    )));
    assert!(
        stderr(&resumed).contains("incomplete"),
        "{}",
        stderr(&resumed)
    );
    for key in &keys {
        let rewritten = modified(&trajectory(key)) != long_ago();
        assert_eq!(rewritten, *key == last_key, "{key}");
    }
    let (_, resumed_rows) = read_csv(&out.join("runs.csv"));
    assert_eq!(resumed_rows.len(), tiny.runs());

    // The same grid as jobs: the lines run, and --collect gives the same rows.
    let jobs_out = tiny.path("jobs-results");
    let mut emit = tiny.args(&jobs_out);
    emit.extend(["--emit-jobs", "--program", env!("CARGO_BIN_EXE_milptree")].map(String::from));
    let emitted = succeed(&strs(&emit));
    let job_lines: Vec<String> = stdout(&emitted).lines().map(str::to_string).collect();
    assert_eq!(job_lines.len(), tiny.runs());
    for line in &job_lines {
        assert!(
            line.contains(" solve ") && line.contains("--json --quiet > "),
            "{line}"
        );
        let status = Command::new("sh")
            .arg("-c")
            .arg(line)
            .status()
            .expect("sh runs");
        assert!(status.success(), "{line}");
    }
    let collected = succeed(&["--collect", "--out", path_str(&jobs_out)]);
    assert!(
        stdout(&collected).contains(&format!("job outputs collected: {};", tiny.runs())),
        "{}",
        stdout(&collected)
    );
    let (header, collected_rows) = read_csv(&jobs_out.join("runs.csv"));
    assert_eq!(header, COLUMNS);
    let in_process = by_key(resumed_rows);
    let from_jobs = by_key(collected_rows);
    assert_eq!(
        in_process.keys().collect::<Vec<_>>(),
        from_jobs.keys().collect::<Vec<_>>()
    );
    for (key, row) in &in_process {
        for column in COLUMNS.iter().filter(|c| !TIMING.contains(c)) {
            assert_eq!(row[*column], from_jobs[key][*column], "{key}: {column}");
        }
        check_filled(&from_jobs[key]);
    }
    // Collected jobs are done: nothing more to emit, and collecting again adds nothing.
    let emitted = succeed(&strs(&emit));
    assert_eq!(stdout(&emitted), "");
    let collected = succeed(&["--collect", "--out", path_str(&jobs_out)]);
    assert!(stdout(&collected).contains(&format!(
        "job outputs collected: 0; already in the results: {};",
        tiny.runs()
    )));

    check_plots(&out, &["alpha", "beta"]);
    check_summary(&out, &tiny);
}

fn check_plots(out: &Path, datasets: &[&str]) {
    let plots = out.join("plots");
    let mut stems: Vec<String> = datasets
        .iter()
        .map(|d| format!("trajectories-{d}-d1"))
        .collect();
    stems.extend(["profile-none", "profile-greedy", "accuracy-d1"].map(String::from));
    for stem in stems {
        let svg = plots.join(format!("{stem}.svg"));
        let png = plots.join(format!("{stem}.png"));
        let text = std::fs::read_to_string(&svg).expect("the SVG exists");
        assert!(text.len() > 5_000, "{} is too small", svg.display());
        let document = roxmltree::Document::parse(&text).expect("the SVG parses");
        assert_eq!(document.root_element().tag_name().name(), "svg");
        let texts: Vec<&str> = document
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        let expected = if stem.starts_with("trajectories") {
            "time since the solve started (s, log scale)"
        } else if stem.starts_with("profile") {
            "fraction of problems solved within τ"
        } else {
            "accuracy"
        };
        assert!(texts.contains(&expected), "{stem}: {texts:?}");
        let bytes = std::fs::read(&png).expect("the PNG exists");
        assert!(bytes.len() > 5_000, "{} is too small", png.display());
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
}

fn check_summary(out: &Path, tiny: &Tiny) {
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(
        summary.contains(&format!("{} runs.", tiny.runs())),
        "{summary}"
    );
    for section in [
        "## Outcomes",
        "## Warm start vs cold start",
        "## highs vs cbc",
        "## Formulations against the best",
        "## Model size and build time",
        "## Accuracy",
        "## Notes",
    ] {
        assert!(summary.contains(section), "{section} missing:\n{summary}");
    }
    // Two datasets, every run optimal: runs, optimal, time limit, no solution, error.
    assert!(
        summary.contains("| oct | highs | greedy | 2 | 2 | 0 | 0 | 0 |"),
        "{summary}"
    );
    // Every run's trajectory says when its solutions were found: no note about unknown times.
    assert!(!summary.contains("whose times are unknown"), "{summary}");
}

#[test]
fn a_grid_file_gives_the_same_jobs_as_the_flags() {
    let tiny = Tiny::new();
    let out = tiny.path("results");
    let mut flags = tiny.args(&out);
    flags.extend(["--emit-jobs"].map(String::from));
    let from_flags = succeed(&strs(&flags));
    let grid = format!(
        "datasets = [\"alpha.csv\", \"beta.csv\"]\ndepths = 1\nformulations = [{}]\n\
         solvers = [\"highs\", \"cbc\"]\nwarm_starts = [\"none\", \"greedy\"]\nseeds = [0]\n\
         time_limit = {LIMIT}\nout = \"results\"\n",
        FORMULATIONS
            .iter()
            .map(|f| format!("\"{f}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(tiny.path("grid.toml"), grid).expect("written");
    let from_file = succeed(&["--grid", path_str(&tiny.path("grid.toml")), "--emit-jobs"]);
    assert_eq!(stdout(&from_file), stdout(&from_flags));
    assert_eq!(stdout(&from_file).lines().count(), tiny.runs());
    // Directories expand to their CSV files, in name order.
    let mut from_dir = tiny.args(&out);
    from_dir[1] = path_str(tiny.dir.path()).to_string();
    from_dir.push("--emit-jobs".into());
    assert_eq!(stdout(&succeed(&strs(&from_dir))), stdout(&from_flags));
}

/// The grid file `grid` run in process (into `in-process/`) and as emitted `milptree solve`
/// jobs collected into `as-jobs/`: the in-process results directory, the job lines, and the
/// rows of each by run key.
fn in_process_and_as_jobs(
    tiny: &Tiny,
    grid: &str,
) -> (
    PathBuf,
    Vec<String>,
    BTreeMap<String, CsvRow>,
    BTreeMap<String, CsvRow>,
) {
    let grid_path = tiny.path("grid.toml");
    std::fs::write(&grid_path, grid).expect("written");
    let grid_arg = path_str(&grid_path);
    let in_process = tiny.path("in-process");
    succeed(&[
        "--grid",
        grid_arg,
        "--out",
        path_str(&in_process),
        "--quiet",
    ]);
    let as_jobs = tiny.path("as-jobs");
    let emitted = succeed(&[
        "--grid",
        grid_arg,
        "--out",
        path_str(&as_jobs),
        "--emit-jobs",
    ]);
    let lines: Vec<String> = stdout(&emitted).lines().map(String::from).collect();
    let program = env!("CARGO_BIN_EXE_milptree");
    for line in &lines {
        let line = line.replacen("milptree", &shlex::try_quote(program).expect("quotable"), 1);
        let status = Command::new("sh")
            .args(["-c", &line])
            .status()
            .expect("sh runs");
        assert!(status.success(), "{line}");
    }
    succeed(&["--collect", "--out", path_str(&as_jobs), "--quiet"]);
    let (_, first) = read_csv(&in_process.join("runs.csv"));
    let (_, second) = read_csv(&as_jobs.join("runs.csv"));
    (in_process, lines, by_key(first), by_key(second))
}

/// Formulation parameters and thread counts from a grid file: every setting is a run with its
/// own key; the same grid run in process and as emitted `milptree solve` jobs (whose command
/// lines carry the parameters as options) gives the same keys, parameters and optima.
#[test]
fn grid_parameters_run_in_process_and_as_jobs_alike() {
    let tiny = Tiny::new();
    let grid = format!(
        "datasets = \"alpha.csv\"\ndepths = 1\nformulations = [\"oct\", \"binoct\", \"dp\"]\n\
         solvers = \"highs\"\nwarm_starts = \"greedy\"\nthreads = 1\ntime_limit = {LIMIT}\n\
         [oct]\nalpha = [0, 0.5]\nmin_leaf = [1, 5]\nobjective = \"balanced\"\n\
         [binoct]\nthresholds = [\"all\", \"class-boundary\"]\n\
         [dp]\nmax_splits = [1, 2]\n"
    );
    let (_, lines, first, second) = in_process_and_as_jobs(&tiny, &grid);
    assert_eq!(
        lines.len(),
        8,
        "4 OCT settings, 2 BinOCT settings, 2 settings of the search"
    );
    assert!(
        lines.iter().any(|l| l.contains("--solver dp")
            && l.contains("--max-splits 2")
            && !l.contains("--formulation")
            && !l.contains("--threads")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("--alpha 0.5")
            && l.contains("--min-leaf 5")
            && l.contains("--objective balanced")
            && l.contains("--threads 1")),
        "{lines:?}"
    );
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    assert!(
        first.contains_key(
            "alpha_oct[alpha=0.5,min-leaf=5,objective=balanced]_d1_highs_greedy_s0_t30_f0.25_j1"
        ),
        "{:?}",
        first.keys()
    );
    assert!(first.contains_key("alpha_binoct[thresholds=all]_d1_highs_greedy_s0_t30_f0.25_j1"));
    assert!(first.contains_key("alpha_dp[max-splits=2]_d1_dp_none_s0_t30_f0.25"));
    for (key, row) in &first {
        let other = &second[key];
        assert_eq!(row["parameters"], other["parameters"], "{key}");
        let threads = if row["solver"] == "dp" { "" } else { "1" };
        assert_eq!(row["threads"], threads, "{key}");
        assert_eq!(row["termination"], "optimal", "{key}");
        assert!(
            (number(row, "objective") - number(other, "objective")).abs() < 1e-9,
            "{key}"
        );
        let parameters: serde_json::Value =
            serde_json::from_str(&row["parameters"]).expect("JSON parameters");
        if key.contains("alpha=0.5") {
            assert_eq!(parameters["alpha"], 0.5, "{key}");
        }
        if key.contains("min-leaf=5") {
            assert_eq!(parameters["min_leaf"], 5, "{key}");
        }
    }
}

/// The sparse search in a grid: each `[sparse]` setting is a run at every depth, in process
/// and as emitted `milptree solve --solver sparse` jobs alike; without a leaf penalty its loss
/// is the exact search's count of errors over the training rows, and a penalty never lowers
/// the objective.
#[test]
fn grid_runs_the_sparse_search_beside_the_exact_search() {
    let tiny = Tiny::new();
    let grid = format!(
        "datasets = \"alpha.csv\"\ndepths = [1, 2]\nformulations = [\"dp\", \"sparse\"]\n\
         time_limit = {LIMIT}\n\
         [sparse]\nleaf_penalty = [0, 0.05]\n"
    );
    let (_, lines, first, second) = in_process_and_as_jobs(&tiny, &grid);
    assert_eq!(
        lines.len(),
        6,
        "dp and two sparse settings at two depths: {lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("--solver sparse")
            && l.contains("--leaf-penalty 0.05")
            && !l.contains("--formulation")
            && !l.contains("--warm-start")),
        "{lines:?}"
    );
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for depth in [1, 2] {
        let dp = &first[&format!("alpha_dp_d{depth}_dp_none_s0_t30_f0.25")];
        let free =
            &first[&format!("alpha_sparse[leaf-penalty=0]_d{depth}_sparse_none_s0_t30_f0.25")];
        let penalised =
            &first[&format!("alpha_sparse[leaf-penalty=0.05]_d{depth}_sparse_none_s0_t30_f0.25")];
        for row in [dp, free, penalised] {
            assert_eq!(row["termination"], "optimal", "{row:?}");
        }
        let errors = number(free, "objective") * number(free, "train_rows");
        assert!(
            (errors - number(dp, "objective")).abs() < 1e-6,
            "depth {depth}"
        );
        assert!(number(penalised, "objective") >= number(free, "objective") - 1e-12);
    }
    for (key, row) in &first {
        let other = &second[key];
        assert_eq!(row["parameters"], other["parameters"], "{key}");
        assert!(
            (number(row, "objective") - number(other, "objective")).abs() < 1e-9,
            "{key}"
        );
    }
}

/// Solver options from a grid file: every combination is a solver setting with its own key,
/// the options reach the solver (HiGHS's `time_limit = 0` stops it at once, with the warm start
/// as its incumbent), the emitted jobs carry them as `--solver-option` and collect into the
/// same rows, and options HiGHS does not have are refused before anything runs.
#[test]
fn grid_solver_options_are_settings_that_reach_the_solver() {
    let tiny = Tiny::new();
    let grid = format!(
        "datasets = \"alpha.csv\"\ndepths = 1\nformulations = \"oct\"\n\
         solvers = [\"highs\", \"cbc\"]\nwarm_starts = \"greedy\"\ntime_limit = {LIMIT}\n\
         certify = \"off\"\n\
         [solver_options.highs]\ntime_limit = 0\n\
         [solver_options.cbc]\ncutsOnOff = [\"on\", \"off\"]\n"
    );
    let (in_process, lines, first, second) = in_process_and_as_jobs(&tiny, &grid);
    assert_eq!(lines.len(), 3, "one HiGHS setting, two CBC settings");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("--solver highs") && l.contains("--solver-option 'time_limit=0'")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("--solver cbc") && l.contains("--solver-option 'cutsOnOff=off'")),
        "{lines:?}"
    );
    let keys: Vec<&String> = first.keys().collect();
    assert_eq!(keys, second.keys().collect::<Vec<_>>());
    assert_eq!(
        keys,
        vec![
            "alpha_oct_d1_cbc[cutsOnOff=off]_greedy_s0_t30_f0.25",
            "alpha_oct_d1_cbc[cutsOnOff=on]_greedy_s0_t30_f0.25",
            "alpha_oct_d1_highs[time-limit=0]_greedy_s0_t30_f0.25",
        ]
    );
    for rows in [&first, &second] {
        let highs = &rows["alpha_oct_d1_highs[time-limit=0]_greedy_s0_t30_f0.25"];
        assert_eq!(highs["solver"], "highs");
        assert_eq!(highs["solver_options"], "time_limit=0");
        assert_eq!(highs["termination"], "time_limit", "HiGHS stopped at once");
        assert_eq!(
            number(highs, "objective"),
            number(highs, "warm_start_objective"),
            "the warm start is the incumbent"
        );
        for setting in ["on", "off"] {
            let cbc = &rows[&format!("alpha_oct_d1_cbc[cutsOnOff={setting}]_greedy_s0_t30_f0.25")];
            assert_eq!(cbc["solver_options"], format!("cutsOnOff={setting}"));
            assert_eq!(cbc["termination"], "optimal");
        }
    }
    let summary = std::fs::read_to_string(in_process.join("summary.md")).expect("a summary");
    assert!(summary.contains("cbc[cutsOnOff=off]"), "{summary}");
    // An option HiGHS does not have, or a value of the wrong type, is refused up front.
    for (option, message) in [
        ("no_such_option = 1", "HiGHS has no option `no_such_option`"),
        (
            "time_limit = \"soon\"",
            "HiGHS has no option `time_limit` that takes the value `soon`",
        ),
    ] {
        let bad = format!(
            "datasets = \"alpha.csv\"\ndepths = 1\nformulations = \"oct\"\n\
             solvers = \"highs\"\ntime_limit = 1\nout = \"refused\"\n\
             [solver_options.highs]\n{option}\n"
        );
        std::fs::write(tiny.path("bad.toml"), bad).expect("written");
        refused(
            &tiny,
            &["--grid", path_str(&tiny.path("bad.toml"))],
            message,
        );
    }
    let bad = "datasets = \"alpha.csv\"\ndepths = 1\nformulations = \"oct\"\nsolvers = \"highs\"\n\
               time_limit = 1\nout = \"refused\"\n[solver_options.cbc]\ncutsOnOff = \"off\"\n";
    std::fs::write(tiny.path("bad.toml"), bad).expect("written");
    refused(
        &tiny,
        &["--grid", path_str(&tiny.path("bad.toml"))],
        "solver options are given for cbc, which the grid does not run",
    );
}

/// Runs a grid expected to be refused before anything runs: exit code 2, the message on
/// stderr, no results directory.
fn refused(tiny: &Tiny, args: &[&str], message: &str) {
    let output = experiment(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains(message),
        "{args:?}: `{message}` not in {}",
        stderr(&output)
    );
    assert!(!tiny.path("refused").exists(), "{args:?} wrote results");
}

#[test]
fn bad_grids_are_refused_up_front() {
    let tiny = Tiny::new();
    let out = tiny.path("refused");
    let datasets = tiny.datasets();
    let base = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "--datasets",
            &datasets,
            "--depths",
            "1",
            "--out",
            path_str(&out),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            base(&["--time-limit", "5", "--formulations", "oct,nope"]),
            "`nope` is not one of",
        ),
        (
            base(&["--time-limit", "5", "--solvers", "gurobi"]),
            "`gurobi` is not one of",
        ),
        (
            base(&["--time-limit", "5", "--warm-starts", "hot"]),
            "`hot` is not one of",
        ),
        (
            base(&["--time-limit", "5", "--seeds", "1,1"]),
            "1 is listed twice",
        ),
        (
            base(&["--time-limit", "5", "--dp-bounds", "none,some"]),
            "`some` is not one of: none, objective, splits, all",
        ),
        (
            base(&["--time-limit", "5", "--dp-bounds", "all,all"]),
            "all is listed twice",
        ),
        (
            base(&["--time-limit", "5", "--depths", "0"]),
            "0 is not a depth",
        ),
        (base(&["--formulations", "oct"]), "needs a time limit"),
        (base(&["--time-limit=0"]), "not a positive number"),
        (
            base(&["--time-limit", "5", "--test-fraction", "1.5"]),
            "test-fraction",
        ),
    ];
    for (args, message) in &cases {
        refused(&tiny, &strs(args), message);
    }
    let missing = tiny.path("missing.csv");
    refused(
        &tiny,
        &[
            "--datasets",
            path_str(&missing),
            "--depths",
            "1",
            "--time-limit",
            "5",
            "--out",
            path_str(&out),
        ],
        "missing.csv: no such file or directory",
    );
    std::fs::write(tiny.path("one-class.csv"), "x,y\n1,a\n2,a\n3,a\n").expect("written");
    refused(
        &tiny,
        &[
            "--datasets",
            path_str(&tiny.path("one-class.csv")),
            "--depths",
            "1",
            "--time-limit",
            "5",
            "--out",
            path_str(&out),
        ],
        "one-class.csv",
    );
    for (grid, message) in [
        (
            "datasets = \"alpha.csv\"\ndepths = []\ntime_limit = 5\nout = \"refused\"\n",
            "the list is empty",
        ),
        (
            "datasets = \"alpha.csv\"\ndepths = 1\ntime_limit = 5\ndepht = 2\n",
            "depht",
        ),
    ] {
        std::fs::write(tiny.path("bad.toml"), grid).expect("written");
        refused(
            &tiny,
            &["--grid", path_str(&tiny.path("bad.toml"))],
            message,
        );
    }
    refused(&tiny, &["--collect"], "--out");
}

#[test]
fn collect_skips_unusable_job_outputs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let jobs = dir.path().join("jobs");
    std::fs::create_dir_all(&jobs).expect("created");
    std::fs::write(jobs.join("empty.json"), "").expect("written");
    std::fs::write(jobs.join("cut.json"), "{\"command\": \"solve\", ").expect("written");
    std::fs::write(jobs.join("other.json"), "{\"command\": \"greedy\"}").expect("written");
    let output = succeed(&["--collect", "--out", path_str(dir.path())]);
    assert!(
        stdout(&output)
            .contains("job outputs collected: 0; already in the results: 0; unusable: 3"),
        "{}",
        stdout(&output)
    );
    let warnings = stderr(&output);
    for expected in [
        "empty.json: empty",
        "cut.json: not a complete JSON report",
        "other.json: not a `milptree solve` report",
    ] {
        assert!(
            warnings.contains(expected),
            "`{expected}` not in {warnings}"
        );
    }
    let (header, rows) = read_csv(&dir.path().join("runs.csv"));
    assert_eq!(header, COLUMNS);
    assert!(rows.is_empty());
}

/// The flags that emit the one job of OCT on HiGHS without a warm start on `alpha`, at depth
/// 1 under `limit` seconds, into `out`, with `extra` flags.
fn one_job_args(alpha: &Path, out: &Path, limit: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "--datasets",
        path_str(alpha),
        "--depths",
        "1",
        "--formulations",
        "oct",
        "--solvers",
        "highs",
        "--warm-starts",
        "none",
        "--time-limit",
        limit,
        "--out",
        path_str(out),
        "--emit-jobs",
        "--program",
        env!("CARGO_BIN_EXE_milptree"),
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|flag| flag.to_string()));
    args
}

/// Runs one emitted job line in a shell.
fn run_job(line: &str) {
    let status = Command::new("sh")
        .arg("-c")
        .arg(line.trim())
        .status()
        .expect("sh runs");
    assert!(status.success(), "{line}");
}

#[test]
fn a_job_is_collected_under_the_key_it_was_emitted_with_whatever_its_limit() {
    // 1.118 s is 1.1179999999999999 when a duration's whole seconds and fraction are added
    // as two numbers: the report, the row and the key must all say 1.118.
    let tiny = Tiny::new();
    let out = tiny.path("results");
    let emit_args = one_job_args(
        &tiny.path("alpha.csv"),
        &out,
        "1.118",
        &["--certify", "2.5"],
    );
    let emit = || stdout(&succeed(&strs(&emit_args)));
    let line = emit();
    assert!(line.contains("--certify 2.5 --time-limit 1.118 "), "{line}");
    run_job(&line);
    let key = "alpha_oct_d1_highs_none_s0_t1.118_f0.25";
    let report = std::fs::read_to_string(out.join("jobs").join(format!("{key}.json")))
        .expect("the job's report");
    assert!(report.contains("\"time_limit\": 1.118,"), "{report}");
    let output = succeed(&["--collect", "--out", path_str(&out)]);
    assert!(
        stdout(&output)
            .contains("job outputs collected: 1; already in the results: 0; unusable: 0"),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    let (_, rows) = read_csv(&out.join("runs.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["run_key"], key);
    assert_eq!(rows[0]["time_limit"], "1.118");
    assert_eq!(emit(), "", "a collected job is done");
}

#[test]
fn interrupted_or_misnamed_jobs_are_not_collected_and_are_emitted_again() {
    let tiny = Tiny::new();
    let out = tiny.path("results");
    let emit_args = one_job_args(&tiny.path("alpha.csv"), &out, "60", &[]);
    let emit = || stdout(&succeed(&strs(&emit_args)));
    let line = emit();
    assert_eq!(line.lines().count(), 1);
    run_job(&line);
    assert_eq!(emit(), "", "a finished job is not emitted again");
    let job = out
        .join("jobs")
        .join("alpha_oct_d1_highs_none_s0_t60_f0.25.json");
    let report = std::fs::read_to_string(&job).expect("the job's report");
    assert!(report.contains("\"termination\": \"optimal\""), "{report}");

    // An interrupted solve is no result: not collected, and emitted again.
    std::fs::write(
        &job,
        report.replace(
            "\"termination\": \"optimal\"",
            "\"termination\": \"interrupted\"",
        ),
    )
    .expect("written");
    let output = succeed(&["--collect", "--out", path_str(&out)]);
    assert!(
        stderr(&output).contains("interrupted; rerun the job"),
        "{}",
        stderr(&output)
    );
    assert_eq!(emit(), line);

    // A report under another run's name is refused.
    std::fs::write(&job, &report).expect("written");
    let misnamed = out
        .join("jobs")
        .join("alpha_oct_d1_cbc_none_s0_t60_f0.25.json");
    std::fs::copy(&job, &misnamed).expect("copied");
    let output = succeed(&["--collect", "--out", path_str(&out)]);
    assert!(
        stdout(&output)
            .contains("job outputs collected: 1; already in the results: 0; unusable: 1"),
        "{}",
        stdout(&output)
    );
    assert!(
        stderr(&output).contains("does not match the file name"),
        "{}",
        stderr(&output)
    );
    let (_, rows) = read_csv(&out.join("runs.csv"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["run_key"], "alpha_oct_d1_highs_none_s0_t60_f0.25");
}

fn point(seconds: f64, incumbent: Option<f64>) -> TrajectoryPoint {
    TrajectoryPoint {
        seconds,
        incumbent,
        bound: None,
    }
}

#[test]
fn primal_integrals_by_hand() {
    // Gap 1 on [0, 1), 1/2 on [1, 3), 1/3 on [3, 6), 0 after: 1 + 1 + 1 = 3.
    let improving = [
        point(1.0, Some(4.0)),
        point(3.0, Some(3.0)),
        point(6.0, Some(2.0)),
        point(8.0, Some(2.0)),
    ];
    assert!((primal_integral(&improving, Some(2.0), 10.0) - 3.0).abs() < 1e-12);
    // A solution found after the limit does not count: 2 * 1 + 8 * 0.8.
    let late = [point(2.0, Some(5.0)), point(12.0, Some(1.0))];
    assert!((primal_integral(&late, Some(1.0), 10.0) - 8.4).abs() < 1e-12);
    // Bound-only points (no incumbent yet) keep the gap at 1.
    let bound_first = [point(4.0, None), point(5.0, Some(1.0))];
    assert!((primal_integral(&bound_first, Some(1.0), 10.0) - 5.0).abs() < 1e-12);
    // No solution at all, with or without a reference: the whole limit.
    assert_eq!(primal_integral(&[point(9.0, None)], Some(1.0), 10.0), 10.0);
    assert_eq!(primal_integral(&[], None, 10.0), 10.0);
    assert_eq!(primal_gap(Some(1.0), -1.0), 1.0);
    assert_eq!(primal_gap(Some(0.0), 0.0), 0.0);
    assert_eq!(primal_gap(Some(0.5), 0.0), 1.0);
    assert!((primal_gap(Some(-2.0), -4.0) - 0.5).abs() < 1e-12);
}

fn times(entries: &[(&str, &str, Option<f64>)]) -> BTreeMap<(String, String), Option<f64>> {
    entries
        .iter()
        .map(|(p, s, t)| ((p.to_string(), s.to_string()), *t))
        .collect()
}

#[test]
fn performance_profile_by_hand() {
    // Ratios: p1 A 1, B 2; p2 A 2, B 1; p3 A fails, B 1; p4 both fail; p5 has no B run and is
    // left out. So A: 1/4 at τ = 1, 2/4 from τ = 2; B: 2/4 at τ = 1, 3/4 from τ = 2.
    let profile = performance_profile(&times(&[
        ("p1", "A", Some(1.0)),
        ("p1", "B", Some(2.0)),
        ("p2", "A", Some(4.0)),
        ("p2", "B", Some(2.0)),
        ("p3", "A", None),
        ("p3", "B", Some(3.0)),
        ("p4", "A", None),
        ("p4", "B", None),
        ("p5", "A", Some(1.0)),
    ]));
    assert_eq!(profile.problems, 4);
    assert_eq!(profile.failure_ratio, 4.0);
    let a = &profile.curves[0];
    let b = &profile.curves[1];
    assert_eq!((a.label.as_str(), b.label.as_str()), ("A", "B"));
    assert_eq!(a.steps, vec![(1.0, 0.25), (2.0, 0.5)]);
    assert_eq!(b.steps, vec![(1.0, 0.5), (2.0, 0.75)]);
    assert_eq!((a.solved, b.solved), (2, 3));
    assert_eq!(a.value_at(1.5), 0.25);
    assert_eq!(b.value_at(3.9), 0.75);
    assert_eq!(a.value_at(0.5), 0.0);
    // Instant solves count as 1 ms, so they do not make the other ratios explode.
    let instant = performance_profile(&times(&[("p", "A", Some(0.0)), ("p", "B", Some(0.002))]));
    assert_eq!(instant.curves[1].steps, vec![(2.0, 1.0)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn primal_integral_matches_a_fine_riemann_sum(
        steps in proptest::collection::vec((0.0f64..12.0, proptest::option::of(0.5f64..5.0)), 0..8),
        reference in 0.5f64..5.0,
    ) {
        let mut points: Vec<TrajectoryPoint> = steps.iter().map(|&(t, x)| point(t, x)).collect();
        points.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let limit = 10.0;
        let integral = primal_integral(&points, Some(reference), limit);
        prop_assert!((0.0..=limit + 1e-9).contains(&integral));
        // The incumbent at time t: the last one reported at or before t.
        let n = 20_000;
        let dt = limit / n as f64;
        let mut sum = 0.0;
        for k in 0..n {
            let t = (k as f64 + 0.5) * dt;
            let incumbent = points.iter().filter(|p| p.seconds <= t).filter_map(|p| p.incumbent).next_back();
            sum += primal_gap(incumbent, reference) * dt;
        }
        // Each jump can be misplaced by at most one interval.
        prop_assert!((integral - sum).abs() <= (points.len() as f64 + 1.0) * dt, "{} vs {}", integral, sum);
    }

    #[test]
    fn profiles_are_fractions_that_grow(
        table in proptest::collection::vec(proptest::collection::vec(proptest::option::of(0.0f64..100.0), 3), 1..10),
    ) {
        let mut entries = BTreeMap::new();
        for (p, row) in table.iter().enumerate() {
            for (s, time) in row.iter().enumerate() {
                entries.insert((format!("p{p}"), format!("s{s}")), *time);
            }
        }
        let profile = performance_profile(&entries);
        prop_assert_eq!(profile.problems, table.len());
        let solved_by_someone = table.iter().filter(|row| row.iter().any(Option::is_some)).count();
        let mut at_one = 0.0;
        for (s, curve) in profile.curves.iter().enumerate() {
            let solved = table.iter().filter(|row| row[s].is_some()).count();
            prop_assert_eq!(curve.solved, solved);
            let mut previous = (1.0, 0.0);
            for &(tau, fraction) in &curve.steps {
                prop_assert!(tau >= previous.0 && fraction > previous.1 && fraction <= 1.0);
                prop_assert!(tau < profile.failure_ratio);
                previous = (tau, fraction);
            }
            prop_assert!((curve.value_at(profile.failure_ratio) - solved as f64 / table.len() as f64).abs() < 1e-12);
            at_one += curve.value_at(1.0);
        }
        // On every problem someone solved, the fastest has ratio 1.
        prop_assert!(at_one + 1e-12 >= solved_by_someone as f64 / table.len() as f64);
    }
}

/// `dp_bounds` in a grid file: each setting is a run of its own, whose key says it (the default,
/// `all`, adds nothing), whose row says what was asked and how many rows were added, and whose
/// job line passes it on; in process and as jobs alike, with the same optima.
#[test]
fn grid_dp_bounds_are_settings_of_their_own() {
    let tiny = Tiny::new();
    let grid = format!(
        "datasets = \"alpha.csv\"\ndepths = 1\nformulations = [\"flowoct\", \"dp\"]\n\
         solvers = \"highs\"\nwarm_starts = \"greedy\"\ndp_bounds = [\"none\", \"splits\", \"all\"]\n\
         time_limit = {LIMIT}\n"
    );
    let (_, lines, first, second) = in_process_and_as_jobs(&tiny, &grid);
    assert_eq!(
        lines.len(),
        4,
        "three settings of FlowOCT, the search once: {lines:?}"
    );
    for family in ["none", "splits", "all"] {
        let flag = format!("--dp-bounds {family}");
        assert!(lines.iter().any(|l| l.contains(&flag)), "{lines:?}");
    }
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    let base = "alpha_flowoct_d1_highs_greedy_s0_t30_f0.25";
    for (suffix, family, rows, source) in [
        ("_bnone", "none", "0", "solver"),
        ("_bsplits", "splits", "1", "solver_with_search_rows"),
        ("", "all", "1", "solver_with_search_rows"),
    ] {
        let key = format!("{base}{suffix}");
        for table in [&first, &second] {
            let row = table
                .get(&key)
                .unwrap_or_else(|| panic!("{key} in {:?}", table.keys()));
            assert_eq!(row["dp_bounds"], family, "{key}");
            assert_eq!(row["search_rows"], rows, "{key}");
            assert_eq!(row["bound_source"], source, "{key}");
            assert_eq!(row["termination"], "optimal", "{key}");
        }
        assert!(
            (number(&first[&key], "objective") - number(&first[base], "objective")).abs() < 1e-9,
            "{key}"
        );
    }
    let search = &first["alpha_dp_d1_dp_none_s0_t30_f0.25"];
    assert_eq!(search["dp_bounds"], "", "the search has no rows");
    assert_eq!(search["search_rows"], "");
}
