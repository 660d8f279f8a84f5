//! The command blocks of the README and of the guide's pages (`docs/*.md`) run as the pages say
//! they do. Every ```sh and ```console block is either runnable (each command line is
//! `milptree ...`, `cargo run --release -- ...` or one of the shell's tools of [`SHELL_TOOLS`];
//! in a console block, the lines after `$ `) or marked on the line before it by
//! `<!-- not run in tests: reason -->`. A runnable block's commands run in order, through `sh`,
//! with the test binary first on `PATH`, in a fresh directory holding the bundled `datasets/`;
//! each must exit 0, or with the code its `# exit N` comment names. (The Python blocks run in
//! `python/tests/test_docs.py`.)

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::root;

/// The mark of a block that does not run in tests.
const NOT_RUN: &str = "<!-- not run in tests:";

/// The commands besides milptree's that a runnable block may use, to handle its files.
const SHELL_TOOLS: [&str; 8] = ["cat", "for", "grep", "head", "ls", "sed", "sh", "wc"];

/// The pages whose blocks run: the README, then the guide's pages in name order.
fn pages() -> Vec<PathBuf> {
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("the docs folder")
        .map(|entry| entry.expect("a docs entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    let mut pages = vec![root().join("README.md")];
    pages.extend(guide);
    pages
}

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
        } else if command.starts_with("milptree ")
            || SHELL_TOOLS.contains(&command.split_whitespace().next().unwrap_or(""))
        {
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

/// Runs the runnable blocks of `page`; returns the number of commands run.
fn run_page(page: &Path) -> usize {
    let text = std::fs::read_to_string(page).expect("the page");
    let name = page.strip_prefix(root()).unwrap_or(page).display();
    let mut ran = 0;
    for block in blocks(&text) {
        if !matches!(block.language.as_str(), "sh" | "console") || block.not_run {
            continue;
        }
        let commands = commands(&block).unwrap_or_else(|reason| {
            panic!(
                "{name} line {}: the block is neither runnable nor marked \
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
                "{name} line {}: `{}`: {stderr}",
                block.line,
                command.shell
            );
            if command.exit == 2 {
                assert!(stderr.contains("error"), "{}: {stderr}", command.shell);
            }
            ran += 1;
        }
    }
    ran
}

#[test]
fn the_command_blocks_of_the_readme_and_the_guide_run_as_they_say() {
    let pages = pages();
    assert!(pages.len() >= 10, "the guide's pages: {pages:?}");
    let ran: Vec<usize> = pages.iter().map(|page| run_page(page)).collect();
    assert!(ran[0] >= 5, "only {} README commands ran", ran[0]);
    let guide: usize = ran[1..].iter().sum();
    assert!(guide >= 20, "only {guide} commands of the guide ran");
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
