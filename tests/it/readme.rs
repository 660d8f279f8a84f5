//! The README's command blocks run as the README says they do. Every ```sh and ```console block
//! is either runnable (each command line is `milptree ...` or `cargo run --release -- ...`; in a
//! console block, the lines after `$ `) or marked on the line before it by
//! `<!-- not run in tests: reason -->`. A runnable block's commands run in order, through `sh`,
//! with the test binary first on `PATH`, in a fresh directory holding the bundled `datasets/`;
//! each must exit 0, or with the code its `# exit N` comment names.

use std::path::Path;
use std::process::Command;

use crate::common::root;

/// The mark of a block that does not run in tests.
const NOT_RUN: &str = "<!-- not run in tests:";

/// One fenced block of the README: the line its fence opens on (1-based), its language, whether
/// the line before it marks it as not run, and its lines.
struct Block {
    line: usize,
    language: String,
    not_run: bool,
    lines: Vec<String>,
}

fn blocks(readme: &str) -> Vec<Block> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some(language) = lines[index].strip_prefix("```") else {
            index += 1;
            continue;
        };
        let not_run = index > 0 && lines[index - 1].trim_start().starts_with(NOT_RUN);
        let start = index;
        index += 1;
        let mut body = Vec::new();
        while index < lines.len() && !lines[index].starts_with("```") {
            body.push(lines[index].to_string());
            index += 1;
        }
        found.push(Block {
            line: start + 1,
            language: language.trim().to_string(),
            not_run,
            lines: body,
        });
        index += 1;
    }
    found
}

/// A command of a block: the shell line run and the exit code expected.
#[derive(Debug)]
struct BlockCommand {
    shell: String,
    exit: i32,
}

/// The commands of a runnable block, or why the block is not runnable.
fn commands(block: &Block) -> Result<Vec<BlockCommand>, String> {
    let mut commands = Vec::new();
    for line in &block.lines {
        let line = line.trim();
        let command = if block.language == "console" {
            // Lines without a prompt are output.
            match line.strip_prefix("$ ") {
                Some(command) => command,
                None => continue,
            }
        } else {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            line
        };
        let (command, comment) = match command.split_once("  #") {
            Some((command, comment)) => (command.trim(), Some(comment.trim())),
            None => (command.trim(), None),
        };
        let exit = match comment.and_then(|c| c.strip_prefix("exit ")) {
            Some(code) => code
                .trim()
                .parse()
                .map_err(|_| format!("`# exit {code}` is not an exit code"))?,
            None => 0,
        };
        let shell = if let Some(rest) = command.strip_prefix("cargo run --release -- ") {
            format!("milptree {rest}")
        } else if command.starts_with("milptree ") {
            command.to_string()
        } else {
            return Err(format!("`{command}` is not a milptree command"));
        };
        commands.push(BlockCommand { shell, exit });
    }
    if commands.is_empty() {
        return Err("it has no command".to_string());
    }
    Ok(commands)
}

/// Runs `command` through `sh` in `dir` with the test binary first on `PATH`.
fn run(command: &BlockCommand, dir: &Path) -> (Option<i32>, String) {
    let binary = Path::new(env!("CARGO_BIN_EXE_milptree"));
    let bin_dir = binary.parent().expect("the binary's directory");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let output = Command::new("sh")
        .arg("-c")
        .arg(&command.shell)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .output()
        .expect("sh runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_readme_command_blocks_run_as_it_says() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README");
    let mut ran = 0;
    for block in blocks(&readme) {
        if !matches!(block.language.as_str(), "sh" | "console") || block.not_run {
            continue;
        }
        let commands = commands(&block).unwrap_or_else(|reason| {
            panic!(
                "README.md line {}: the block is neither runnable nor marked \
                 `{NOT_RUN} reason -->`: {reason}",
                block.line
            )
        });
        let dir = tempfile::tempdir().expect("a directory");
        std::os::unix::fs::symlink(root().join("datasets"), dir.path().join("datasets"))
            .expect("the datasets are linked");
        for command in &commands {
            let (code, stderr) = run(command, dir.path());
            assert_eq!(
                code,
                Some(command.exit),
                "README.md line {}: `{}`: {stderr}",
                block.line,
                command.shell
            );
            if command.exit == 2 {
                assert!(stderr.contains("error"), "{}: {stderr}", command.shell);
            }
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} README commands ran");
}

#[test]
fn a_block_neither_runnable_nor_marked_is_found() {
    let readme = "text\n```sh\nscripts/setup\n```\n\n<!-- not run in tests: setup -->\n```sh\n\
                  scripts/setup\n```\n```console\n$ milptree show t.json  # exit 1\noutput\n```\n";
    let found = blocks(readme);
    assert_eq!(found.len(), 3);
    assert!(!found[0].not_run);
    assert!(commands(&found[0]).is_err());
    assert!(found[1].not_run);
    let console = commands(&found[2]).expect("runnable");
    assert_eq!(console.len(), 1);
    assert_eq!(console[0].shell, "milptree show t.json");
    assert_eq!(console[0].exit, 1);
}
