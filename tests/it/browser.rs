//! A headless Chromium for the page tests: it opens a file with the network off (every host
//! name resolves to nothing), runs the page's script, and returns the DOM it ended with and
//! every request the page started, read from Chromium's own network log (the browser's
//! background requests, which no page starts, are told apart by their initiator). Also the
//! few DOM readings the tests need: elements by tag and attribute, their text, entities
//! undone.
//!
//! Without Chromium the page tests skip with a message, unless `CI` is set (not empty, not
//! `false`): then a missing browser fails them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a page may take to open, render and be dumped.
const OPEN_TIMEOUT: Duration = Duration::from_secs(90);

/// The Chromium to use, or `None` (with the reason printed) when none is installed and `CI` is
/// not set; panics when `CI` is set and none is installed.
pub fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|path| path.is_file())
        })
    });
    if found.is_none() {
        let ci = std::env::var("CI").unwrap_or_default();
        if !ci.is_empty() && ci != "false" && ci != "0" {
            panic!("CI={ci} but no `chromium` on PATH: scripts/setup installs Debian's chromium");
        }
        eprintln!(
            "SKIPPED: no `chromium` on PATH (scripts/setup installs it); the HTML pages were not \
             opened in a browser"
        );
    }
    found
}

/// What a page became in the browser.
pub struct Opened {
    /// The DOM after the page's script ran, serialised.
    pub dom: String,
    /// The URLs of the requests the page started (none expected).
    pub requests: Vec<String>,
}

/// Opens `page` (with `fragment` after `#`, the page's own actions) in headless Chromium,
/// 1400 x 1000, with the network off; saves a screenshot to `screenshot` when given.
pub fn open(browser: &Path, page: &Path, fragment: &str, screenshot: Option<&Path>) -> Opened {
    let dir = tempfile::tempdir().expect("a directory for the browser's profile");
    let netlog = dir.path().join("netlog.json");
    let dom_file = dir.path().join("dom.html");
    let page = page.canonicalize().expect("the page exists");
    let mut url = format!("file://{}", page.display());
    if !fragment.is_empty() {
        url.push('#');
        url.push_str(fragment);
    }
    let mut command = Command::new(browser);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--window-size=1400,1000",
        "--virtual-time-budget=3000",
    ]);
    command
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("--log-net-log={}", netlog.display()));
    if let Some(path) = screenshot {
        command.arg(format!("--screenshot={}", path.display()));
    }
    command.arg("--dump-dom").arg(&url);
    let stdout = std::fs::File::create(&dom_file).expect("the DOM file");
    let mut child = command
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("chromium runs") {
            assert!(status.success(), "chromium failed on {url}: {status}");
            break;
        }
        if started.elapsed() > OPEN_TIMEOUT {
            // The child is ours: it is killed by its own handle.
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish {url} within {OPEN_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = std::fs::read_to_string(&dom_file).expect("the DOM was dumped");
    assert!(dom.contains("</html>"), "no DOM for {url}: {dom}");
    Opened {
        dom,
        requests: page_requests(&netlog),
    }
}

/// The URLs of the requests a page started, from a Chromium network log: the jobs whose
/// initiator is an origin (the browser's own background requests have none).
fn page_requests(netlog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(netlog).expect("chromium wrote its network log");
    // A log cut short by the browser's exit lacks its closing brackets.
    let log: serde_json::Value = serde_json::from_str(&text)
        .or_else(|_| serde_json::from_str(&format!("{}]}}", text.trim_end().trim_end_matches(','))))
        .expect("the network log is JSON");
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        .as_u64()
        .expect("the log names its event types");
    log["events"]
        .as_array()
        .expect("the log's events")
        .iter()
        .filter(|event| event["type"].as_u64() == Some(start_job))
        .filter(|event| {
            event["params"]["initiator"]
                .as_str()
                .is_some_and(|initiator| initiator != "not an origin")
        })
        .filter_map(|event| event["params"]["url"].as_str().map(str::to_string))
        .collect()
}

/// `text` with the entities an HTML serialiser writes undone.
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// One element of a serialised DOM: its attributes and where its content starts.
pub struct Element<'a> {
    pub attributes: Vec<(String, String)>,
    /// The DOM from the end of the start tag on.
    pub rest: &'a str,
}

impl Element<'_> {
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The text up to the element's end tag, for an element with no child element of its
    /// own tag.
    pub fn text(&self, tag: &str) -> String {
        let end = self
            .rest
            .find(&format!("</{tag}>"))
            .expect("the element ends");
        unescape(&strip_tags(&self.rest[..end]))
    }
}

/// `html` without its tags.
fn strip_tags(html: &str) -> String {
    let mut text = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => text.push(c),
            _ => {}
        }
    }
    text
}

/// The attributes of a start tag's text (`a="x" b="y"`).
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq]
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .to_string();
        let value_start = eq + 2;
        let Some(len) = rest[value_start..].find('"') else {
            break;
        };
        found.push((name, unescape(&rest[value_start..value_start + len])));
        rest = &rest[value_start + len + 1..];
    }
    found
}

/// Every `tag` element of `dom` whose attribute `name` starts with `prefix`, in document
/// order.
pub fn elements<'a>(dom: &'a str, tag: &str, name: &str, prefix: &str) -> Vec<Element<'a>> {
    let open = format!("<{tag} ");
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(start) = dom[at..].find(&open) {
        let start = at + start;
        let end = start + dom[start..].find('>').expect("a start tag ends");
        let element = Element {
            attributes: attributes(&dom[start + open.len()..end]),
            rest: &dom[end + 1..],
        };
        if element
            .attribute(name)
            .is_some_and(|v| v.starts_with(prefix))
        {
            found.push(element);
        }
        at = end + 1;
    }
    found
}

/// The one `tag` element whose attribute `name` is `value`.
pub fn element<'a>(dom: &'a str, tag: &str, name: &str, value: &str) -> Element<'a> {
    let mut all: Vec<Element<'a>> = elements(dom, tag, name, value)
        .into_iter()
        .filter(|e| e.attribute(name) == Some(value))
        .collect();
    assert_eq!(all.len(), 1, "one <{tag} {name}=\"{value}\">");
    all.remove(0)
}

/// The value of the provenance fact `key` (the first list that has it).
pub fn fact(dom: &str, key: &str) -> Option<String> {
    elements(dom, "div", "data-key", key)
        .into_iter()
        .find(|e| e.attribute("data-key") == Some(key))
        .map(|e| {
            let dd = e.rest.find("<dd>").expect("a fact has a value") + 4;
            Element {
                attributes: Vec::new(),
                rest: &e.rest[dd..],
            }
            .text("dd")
        })
}
