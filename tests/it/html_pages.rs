//! The HTML pages (`show --format html`, `solve --html`, `pareto`, `tune`, `path` and `rashomon` pages)
//! opened in headless Chromium with the network off: from the DOM their script leaves, every
//! node of the tree shown, every split's condition and missing side as the tree file states
//! them, every node's class counts (and row weights) equal to those of the rows `milptree
//! predict` routes, the provenance of the tree file and the report, the charts' points; and
//! no request from the page (Chromium's network log, and the page's own count). A depth-8
//! tree of 255 splits over 120 features opens, collapses and expands. A screenshot of each kind
//! of page goes to `target/html-pages/`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::browser::{chromium, element, elements, fact, open, Opened};
use crate::common::{dataset, milptree, path_str, root, stderr, stdout};

/// Where the screenshots go.
fn screenshots() -> PathBuf {
    let dir = root().join("target").join("html-pages");
    std::fs::create_dir_all(&dir).expect("the screenshot directory");
    dir
}

/// Runs milptree expecting success; returns stdout.
fn run(args: &[&str]) -> String {
    let output = milptree(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the file is written"))
        .expect("JSON")
}

/// Per node id, the rows of each class (the tree's classes) and their total weight.
/// Per node: its rows of each class, their total weight, and each class's weight.
type NodeCounts = HashMap<usize, (Vec<usize>, f64, Vec<f64>)>;

/// The counts of the rows of `data` routed by `milptree predict` with `tree` (a row counts at
/// its leaf and every ancestor; `weight_column` names the weights in `data`, if any), and
/// each row's leaf.
fn routed_counts(
    tree: &Path,
    data: &Path,
    weight_column: Option<&str>,
) -> (NodeCounts, Vec<usize>) {
    let dir = tempfile::tempdir().expect("a directory");
    let predictions = dir.path().join("predictions.csv");
    run(&[
        "predict",
        "--tree",
        path_str(tree),
        path_str(data),
        "-o",
        path_str(&predictions),
    ]);
    let classes: Vec<String> = read_json(tree)["classes"]
        .as_array()
        .expect("classes")
        .iter()
        .map(|c| c.as_str().expect("a label").to_string())
        .collect();
    let mut weights = Vec::new();
    let mut reader = csv::Reader::from_path(data).expect("the data reads");
    let header = reader.headers().expect("a header").clone();
    let weight_at = weight_column.map(|name| header.iter().position(|h| h == name).expect("w"));
    for record in reader.records() {
        let record = record.expect("a record");
        weights.push(weight_at.map_or(1.0, |i| record[i].parse::<f64>().expect("a weight")));
    }
    let mut counts = NodeCounts::new();
    let mut leaves = Vec::new();
    let mut reader = csv::Reader::from_path(&predictions).expect("the predictions read");
    for (i, record) in reader.records().enumerate() {
        let record = record.expect("a prediction");
        let leaf: usize = record[1].parse().expect("a leaf id");
        let class = classes
            .iter()
            .position(|c| c == &record[3])
            .expect("a label of the tree's classes");
        leaves.push(leaf);
        let mut id = leaf;
        while id >= 1 {
            let entry = counts
                .entry(id)
                .or_insert_with(|| (vec![0; classes.len()], 0.0, vec![0.0; classes.len()]));
            entry.0[class] += 1;
            entry.1 += weights[i];
            entry.2[class] += weights[i];
            id /= 2;
        }
    }
    (counts, leaves)
}

/// What a node of the page shows: its head line, its counts line and its tooltip.
struct ShownNode {
    head: String,
    counts: String,
    title: String,
}

fn shown_nodes(dom: &str) -> HashMap<usize, ShownNode> {
    elements(dom, "g", "class", "node ")
        .iter()
        .map(|node| {
            let id: usize = node
                .attribute("data-id")
                .and_then(|v| v.parse().ok())
                .expect("a node id");
            let text_of = |class: &str| {
                let at = node
                    .rest
                    .find(&format!("class=\"{class}"))
                    .expect("the node's text");
                let start = at + node.rest[at..].find('>').expect("a tag") + 1;
                crate::browser::unescape(
                    &node.rest[start..start + node.rest[start..].find("</text>").expect("text")],
                )
            };
            let title_start = node.rest.find("<title>").expect("a title") + 7;
            let title_end = node.rest.find("</title>").expect("a title");
            let shown = ShownNode {
                head: text_of("head"),
                counts: text_of("counts"),
                title: crate::browser::unescape(&node.rest[title_start..title_end]),
            };
            (id, shown)
        })
        .collect()
}

/// `shown` equals `full`, or is its start and its end around an ellipsis (the full text then
/// in the tooltip).
fn assert_shows(shown: &str, full: &str, title: &str) {
    match shown.split_once('\u{2026}') {
        Some((start, end)) => {
            assert!(
                full.starts_with(start)
                    && full.ends_with(end)
                    && start.len() + end.len() < full.len(),
                "`{shown}` does not shorten `{full}`"
            );
            assert!(title.contains(full), "the tooltip lacks `{full}`: {title}");
        }
        None => assert_eq!(shown, full),
    }
}

/// The condition a split of a tree file sends left, as the renderings write it.
fn condition(node: &Value) -> String {
    match (node["column"].as_str(), node["category"].as_str()) {
        (Some(column), Some(category)) => format!("{column} != {category}"),
        _ => format!(
            "{} <= {}",
            node["feature_name"].as_str().expect("a feature"),
            node["threshold"].as_f64().expect("a threshold")
        ),
    }
}

/// Checks the tree of `tree_file` as the page shows it, every node expanded: the nodes, each
/// split's condition and missing side, each leaf's class, and each node's counts against
/// `data` routed by `predict` (with the weights of `weight_column`).
fn check_tree(dom: &str, tree_file: &Path, data: &Path, weight_column: Option<&str>) {
    let tree = read_json(tree_file);
    let nodes = tree["nodes"].as_array().expect("nodes");
    let shown = shown_nodes(dom);
    assert_eq!(shown.len(), nodes.len(), "every node is drawn");
    let (routed, _) = routed_counts(tree_file, data, weight_column);
    for node in nodes {
        let id = node["id"].as_u64().expect("an id") as usize;
        let page = &shown[&id];
        match node["kind"].as_str() {
            Some("split") => {
                let condition = condition(node);
                assert_shows(&page.head, &condition, &page.title);
                for (child, side) in [(2 * id, "left"), (2 * id + 1, "right")] {
                    let label = element(dom, "g", "id", &format!("edge-{child}")).text("g");
                    let missing = node["missing"].as_str() == Some(side);
                    assert_eq!(label.contains("missing"), missing, "node {id}: `{label}`");
                }
            }
            Some("leaf") => {
                let label = node["label"].as_str().expect("a label");
                assert!(
                    page.head.starts_with(&format!("{label} \u{b7} p ")),
                    "{}",
                    page.head
                );
            }
            other => panic!("a node of kind {other:?}"),
        }
        let n_classes = tree["classes"].as_array().expect("classes").len();
        let (counts, weight, class_weights) = routed
            .get(&id)
            .cloned()
            .unwrap_or_else(|| (vec![0; n_classes], 0.0, vec![0.0; n_classes]));
        let list: Vec<String> = counts.iter().map(usize::to_string).collect();
        let rows: usize = counts.iter().sum();
        let plural = if rows == 1 { "" } else { "s" };
        let weighted = weight_column.map_or_else(String::new, |_| format!(" \u{b7} w {weight}"));
        let expected = format!("{rows} row{plural}{weighted} [{}]", list.join(", "));
        assert_shows(&page.counts, &expected, &page.title);
        // The tree file's own counts follow the one rule of a learned tree: with whole row
        // weights (as here), each class's weight; without weights, its rows.
        let expected_stored: Vec<usize> = match weight_column {
            Some(_) => class_weights.iter().map(|&w| w as usize).collect(),
            None => counts.clone(),
        };
        let stored: Vec<usize> = node["counts"]
            .as_array()
            .expect("counts")
            .iter()
            .map(|c| c.as_u64().expect("a count") as usize)
            .collect();
        assert_eq!(stored, expected_stored, "node {id}");
    }
}

/// Checks the provenance facts against a tree file's `provenance`.
fn check_provenance(dom: &str, made: &Value) {
    for key in ["method", "termination"] {
        assert_eq!(fact(dom, key).as_deref(), made[key].as_str(), "{key}");
    }
    for key in ["objective", "bound"] {
        let shown: f64 = fact(dom, key).expect(key).parse().expect("a number");
        let stored = made[key].as_f64().expect(key);
        assert!(
            (shown - stored).abs() <= 1e-9 * stored.abs().max(1.0),
            "{key}"
        );
    }
    let gap = made["gap"].as_f64().expect("a gap");
    assert_eq!(fact(dom, "gap"), Some(format!("{:.4}%", 100.0 * gap)));
    assert_eq!(
        fact(dom, "fingerprint").as_deref(),
        made["training"]["fingerprint"].as_str()
    );
    let rows = made["training"]["rows"].as_u64().expect("rows");
    assert!(fact(dom, "training")
        .expect("training")
        .starts_with(&format!("{rows} of ")));
}

/// No request left the page: none in the browser's network log, none counted by the page.
fn check_offline(opened: &Opened) {
    assert!(
        opened.requests.is_empty(),
        "requests: {:?}",
        opened.requests
    );
    let counted = element(&opened.dom, "output", "id", "requests");
    assert_eq!(counted.attribute("data-resources"), Some("0"));
    assert_eq!(counted.attribute("data-blocked"), Some("0"));
}

/// The number of points the chart `chart` draws for its series `name`.
fn series_points(dom: &str, name: &str) -> usize {
    element(dom, "g", "data-name", name)
        .attribute("data-points")
        .and_then(|n| n.parse().ok())
        .expect("a count of points")
}

#[test]
fn a_tree_page_shows_every_split_count_and_fact_and_routes_rows_as_predict() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let (tree, page) = (dir.path().join("tree.json"), dir.path().join("tree.html"));
    let penguins = dataset("penguins");
    run(&[
        "solve",
        path_str(&penguins),
        "--solver",
        "dp",
        "--depth",
        "3",
        "--quiet",
        "-o",
        path_str(&tree),
    ]);
    run(&[
        "show",
        path_str(&tree),
        "--format",
        "html",
        "-o",
        path_str(&page),
        "--data",
        path_str(&penguins),
    ]);
    let shot = screenshots().join("tree.png");
    let opened = open(&browser, &page, "route=all", Some(&shot));
    check_offline(&opened);
    // The penguins' tree splits on categories (`sex != female`) with learned missing sides.
    let text = std::fs::read_to_string(&tree).expect("the tree");
    assert!(text.contains("\"category\"") && text.contains("\"missing\""));
    check_tree(&opened.dom, &tree, &penguins, None);
    check_provenance(&opened.dom, &read_json(&tree)["provenance"]);
    // The page's own routing of every row (missing values and categories included) reaches
    // predict's leaf.
    let (_, leaves) = routed_counts(&tree, &penguins, None);
    let routes = element(&opened.dom, "pre", "id", "routes").text("pre");
    let page_leaves: Vec<usize> = routes
        .split(',')
        .map(|l| l.parse().expect("a leaf"))
        .collect();
    assert_eq!(page_leaves, leaves);
    assert!(shot.is_file());
}

#[test]
fn a_solve_page_shows_the_certificate_side_constraints_weights_and_trajectory() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    // Iris with a whole row weight 1, 2 or 3 in a column `w`.
    let text = std::fs::read_to_string(dataset("iris")).expect("iris");
    let mut weighted = String::new();
    for (i, line) in text.lines().enumerate() {
        let (features, label) = line.rsplit_once(',').expect("a label");
        let weight = if i == 0 {
            "w".to_string()
        } else {
            (1 + i % 3).to_string()
        };
        weighted.push_str(&format!("{features},{weight},{label}\n"));
    }
    let data = dir.path().join("iris-weighted.csv");
    std::fs::write(&data, weighted).expect("written");
    let (tree, page) = (dir.path().join("tree.json"), dir.path().join("solve.html"));
    let report: Value = serde_json::from_str(&run(&[
        "solve",
        path_str(&data),
        "--weight-column",
        "w",
        "--formulation",
        "oct",
        "--depth",
        "1",
        "--max-features",
        "1",
        "--json",
        "--quiet",
        "-o",
        path_str(&tree),
        "--html",
        path_str(&page),
    ]))
    .expect("the report");
    let opened = open(&browser, &page, "", Some(&screenshots().join("solve.png")));
    check_offline(&opened);
    check_tree(&opened.dom, &tree, &data, Some("w"));
    check_provenance(&opened.dom, &read_json(&tree)["provenance"]);
    let verdict = report["certificate"]["verdict"]
        .as_str()
        .expect("a verdict");
    assert!(fact(&opened.dom, "certificate")
        .expect("certificate")
        .starts_with(verdict));
    let constraints = fact(&opened.dom, "side_constraints").expect("side constraints");
    let used = report["side_constraints"]["features_used"][0]
        .as_str()
        .expect("a feature");
    assert!(
        constraints.contains(&format!("features used: {used}")),
        "{constraints}"
    );
    assert!(constraints.contains("max_features"), "{constraints}");
    let trajectory = report["trajectory"].as_array().expect("a trajectory");
    let with = |key: &str| trajectory.iter().filter(|p| !p[key].is_null()).count();
    assert!(with("incumbent") > 0);
    assert_eq!(series_points(&opened.dom, "incumbent"), with("incumbent"));
    if with("bound") > 0 {
        assert_eq!(series_points(&opened.dom, "bound"), with("bound"));
    }
}

#[test]
fn a_front_page_shows_every_point_and_each_points_tree() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let out = dir.path().join("front");
    let data = dataset("breast_cancer");
    run(&[
        "pareto",
        path_str(&data),
        "--depth",
        "2",
        "--quiet",
        "--out-dir",
        path_str(&out),
    ]);
    let front = read_json(&out.join("front.json"));
    let points = front["points"].as_array().expect("points");
    let page = out.join("front.html");
    // First the best F1's tree, then the first point's.
    let best = &front["best"]["f1"];
    let first = &points[0];
    for (fragment, point, shot) in [("", best, Some("front.png")), ("select=0", first, None)] {
        let opened = open(
            &browser,
            &page,
            fragment,
            shot.map(|name| screenshots().join(name)).as_deref(),
        );
        check_offline(&opened);
        assert_eq!(series_points(&opened.dom, "front"), points.len());
        assert_eq!(
            elements(&opened.dom, "tr", "data-tree", "").len(),
            points.len(),
            "a table row per point"
        );
        let tree = out
            .join("trees")
            .join(format!("fp{}-fn{}.json", point["fp"], point["fn"]));
        let caption = element(&opened.dom, "h2", "id", "tree-caption").text("h2");
        assert!(
            caption.starts_with(&format!("FP {}, FN {}:", point["fp"], point["fn"])),
            "{caption}"
        );
        check_tree(&opened.dom, &tree, &data, None);
        assert_eq!(
            fact(&opened.dom, "fingerprint").as_deref(),
            read_json(&tree)["provenance"]["training"]["fingerprint"].as_str()
        );
        assert_eq!(fact(&opened.dom, "fp"), Some(point["fp"].to_string()));
        assert_eq!(
            fact(&opened.dom, "termination").as_deref(),
            front["termination"].as_str()
        );
    }
}

#[test]
fn a_tune_page_shows_the_curve_the_choice_and_the_refitted_tree() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let out = dir.path().join("tuning");
    let data = dataset("iris");
    run(&[
        "tune",
        path_str(&data),
        "--method",
        "dp",
        "--depth",
        "1..3",
        "--folds",
        "3",
        "--quiet",
        "--out-dir",
        path_str(&out),
    ]);
    let results = read_json(&out.join("results.json"));
    let opened = open(
        &browser,
        &out.join("tune.html"),
        "",
        Some(&screenshots().join("tune.png")),
    );
    check_offline(&opened);
    let rows = results["rows"].as_array().expect("rows");
    assert_eq!(
        series_points(&opened.dom, "validation (mean +/- 1 sd)"),
        rows.len()
    );
    assert_eq!(opened.dom.matches("class=\"chosen-ring\"").count(), 1);
    assert_eq!(
        fact(&opened.dom, "chosen").as_deref(),
        results["chosen"].as_str()
    );
    let tree = out.join("tree.json");
    check_tree(&opened.dom, &tree, &data, None);
    check_provenance(&opened.dom, &read_json(&tree)["provenance"]);
}

#[test]
fn a_path_page_shows_the_loss_against_leaves_and_each_penaltys_tree() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let out = dir.path().join("path");
    let data = dataset("iris");
    let report: Value = serde_json::from_str(&run(&[
        "path",
        path_str(&data),
        "--depth",
        "3",
        "--leaf-penalty",
        "0.002..0.1",
        "--steps",
        "3",
        "--quiet",
        "--json",
        "--out-dir",
        path_str(&out),
    ]))
    .expect("the report");
    let rows = report["rows"].as_array().expect("rows");
    let last = rows.len() - 1;
    let opened = open(
        &browser,
        &out.join("path.html"),
        &format!("select={last}"),
        Some(&screenshots().join("path.png")),
    );
    check_offline(&opened);
    assert_eq!(series_points(&opened.dom, "train"), rows.len());
    // The penalties give trees of more than one size.
    let leaves: std::collections::HashSet<u64> =
        rows.iter().filter_map(|r| r["leaves"].as_u64()).collect();
    assert!(leaves.len() > 1, "{leaves:?}");
    let tree = PathBuf::from(rows[last]["tree_file"].as_str().expect("a tree file"));
    check_tree(&opened.dom, &tree, &data, None);
    check_provenance(&opened.dom, &read_json(&tree)["provenance"]);
}

#[test]
fn a_rashomon_page_shows_the_counts_the_features_and_each_listed_tree() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let (page, trees) = (dir.path().join("set.html"), dir.path().join("trees.jsonl"));
    let data = dataset("iris");
    let report: Value = serde_json::from_str(&run(&[
        "rashomon",
        path_str(&data),
        "--depth",
        "2",
        "--max-errors",
        "8",
        "--sample",
        "3",
        "--html-trees",
        "40",
        "--out",
        path_str(&trees),
        "--json",
        "--html",
        path_str(&page),
    ]))
    .expect("the report");
    // The tree of rank 7, as `--out` wrote it.
    let line = std::fs::read_to_string(&trees).expect("the trees");
    let ranked: Value = serde_json::from_str(line.lines().nth(7).expect("rank 7")).expect("JSON");
    assert_eq!(ranked["rank"], "7");
    let tree_file = dir.path().join("rank7.json");
    std::fs::write(&tree_file, ranked["tree"].to_string()).expect("written");
    let opened = open(
        &browser,
        &page,
        "select=7",
        Some(&screenshots().join("rashomon.png")),
    );
    check_offline(&opened);
    let dom = &opened.dom;
    assert_eq!(fact(dom, "count").as_deref(), report["count"].as_str());
    let by_objective = report["by_objective"].as_array().expect("by objective");
    assert_eq!(series_points(dom, "trees"), by_objective.len());
    let used = report["features"]
        .as_array()
        .expect("features")
        .iter()
        .filter(|f| f["trees"] != "0")
        .count();
    assert!(used >= 2, "{used} features");
    assert_eq!(series_points(dom, "share"), used);
    for series in ["mean", "median", "min", "max"] {
        assert_eq!(series_points(dom, series), used, "{series}");
    }
    // Every bar drawn: one per objective, one per used feature in each of two charts.
    assert_eq!(
        elements(dom, "rect", "class", "bar").len(),
        by_objective.len() + 2 * used
    );
    // The browser: the first 40 trees, then the 3 samples, each a row that shows it.
    let rows = elements(dom, "tr", "data-tree", "");
    assert_eq!(rows.len(), 43);
    assert!(rows[42].text("td").contains("(sample)"));
    check_tree(dom, &tree_file, &data, None);
    assert!(fact(dom, "fairness").is_none());
    // Under a fairness bound, the page says which, and each objective's least and largest gap
    // as the report gives them.
    let fair_page = dir.path().join("fair.html");
    let fair: Value = serde_json::from_str(&run(&[
        "rashomon",
        path_str(&dataset("penguins")),
        "--target",
        "sex",
        "--depth",
        "2",
        "--epsilon",
        "0.05",
        "--group-column",
        "island",
        "--max-parity-gap",
        "0.1",
        "--json",
        "--html",
        path_str(&fair_page),
    ]))
    .expect("the report");
    let opened = open(&browser, &fair_page, "", None);
    let dom = &opened.dom;
    let said = fact(dom, "fairness").expect("a fairness fact");
    assert!(
        said.contains("max_parity_gap 0.1") && said.contains("`island`"),
        "{said}"
    );
    let wanted: Vec<String> = fair["gaps_by_objective"]
        .as_array()
        .expect("gaps")
        .iter()
        .map(|row| {
            format!(
                "{}: {:.4} to {:.4}",
                milptree::data::short_number(row["objective"].as_f64().unwrap()),
                row["least_gap"].as_f64().unwrap(),
                row["largest_gap"].as_f64().unwrap()
            )
        })
        .collect();
    assert!(!wanted.is_empty());
    assert_eq!(fact(dom, "gaps"), Some(wanted.join("; ")));
}

/// A complete tree of depth 8 (255 splits) over 120 features with long names, counted on 600
/// random rows, as a tree file and a data file.
fn deep_tree(dir: &Path) -> (PathBuf, PathBuf) {
    use milptree::data::Dataset;
    use milptree::tree::{Split, TreeBuilder};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let features: Vec<String> = (0..120)
        .map(|j| format!("a rather long measurement name number {j}"))
        .collect();
    let rows: Vec<Vec<f64>> = (0..600)
        .map(|_| {
            (0..120)
                .map(|_| f64::from(rng.random_range(0..100u32)))
                .collect()
        })
        .collect();
    let labels: Vec<usize> = (0..600).map(|i| i % 3).collect();
    let classes = vec!["low".to_string(), "middle".to_string(), "high".to_string()];
    let data = Dataset::from_parts("deep", features.clone(), classes.clone(), rows, labels)
        .expect("a dataset");
    let mut builder = TreeBuilder::new(data.schema().clone(), classes, 8).expect("depth 8");
    for id in 1..256 {
        let split = Split::Axis {
            feature: rng.random_range(0..120),
            threshold: f64::from(rng.random_range(0..100u32)) + 0.5,
        };
        builder.split(id, split).expect("a split");
    }
    for id in 256..512 {
        builder.leaf(id, id % 3).expect("a leaf");
    }
    let mut tree = builder.build().expect("a valid tree");
    tree.recount(data.rows(), data.labels()).expect("counted");
    let tree_file = dir.join("deep.json");
    std::fs::write(&tree_file, tree.to_json_string()).expect("written");
    let mut csv = features.join(",") + ",class\n";
    for (row, &label) in data.rows().iter().zip(data.labels()) {
        let cells: Vec<String> = row.iter().map(f64::to_string).collect();
        csv.push_str(&format!("{},{}\n", cells.join(","), data.classes()[label]));
    }
    let data_file = dir.join("deep.csv");
    std::fs::write(&data_file, csv).expect("written");
    (tree_file, data_file)
}

#[test]
fn a_depth_eight_tree_of_255_splits_opens_collapses_and_expands() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let (tree, data) = deep_tree(dir.path());
    let page = dir.path().join("deep.html");
    run(&[
        "show",
        path_str(&tree),
        "--format",
        "html",
        "-o",
        path_str(&page),
        "--data",
        path_str(&data),
    ]);
    let size = std::fs::metadata(&page).expect("the page").len();
    let opened = open(&browser, &page, "", Some(&screenshots().join("deep.png")));
    check_offline(&opened);
    check_tree(&opened.dom, &tree, &data, None);
    // 600 rows of 120 features are more than a page embeds: it says so.
    assert!(opened.dom.contains("are not embedded"));
    let body = element(&opened.dom, "body", "data-tree", "0");
    eprintln!(
        "depth-8 page: {size} bytes, drawn in {} ms",
        body.attribute("data-render-ms").unwrap_or("?")
    );
    // The root's two subtrees collapsed: three nodes left, each child saying what it hides.
    let collapsed = open(&browser, &page, "click=toggle-2,toggle-3", None);
    assert_eq!(shown_nodes(&collapsed.dom).len(), 3);
    let hidden = elements(&collapsed.dom, "text", "class", "hidden-count");
    assert_eq!(hidden.len(), 2);
    assert!(hidden.iter().all(|h| h.text("text") == "254 nodes"));
    // Everything collapsed, then everything expanded again.
    let root_only = open(&browser, &page, "click=collapse-all", None);
    assert_eq!(shown_nodes(&root_only.dom).len(), 1);
    let again = open(&browser, &page, "click=collapse-all,expand-all", None);
    assert_eq!(shown_nodes(&again.dom).len(), 511);
}

#[test]
fn a_depth_four_tree_page_with_its_rows_is_at_most_300_kb() {
    // No browser needed: the page's size.
    let dir = tempfile::tempdir().expect("a directory");
    let (tree, page) = (dir.path().join("tree.json"), dir.path().join("tree.html"));
    let data = dataset("breast_cancer");
    run(&[
        "greedy",
        path_str(&data),
        "--depth",
        "4",
        "-o",
        path_str(&tree),
    ]);
    run(&[
        "show",
        path_str(&tree),
        "--format",
        "html",
        "-o",
        path_str(&page),
        "--data",
        path_str(&data),
    ]);
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(read_json(&tree)["nodes"].as_array().expect("nodes").len() > 15);
    // The 569 rows of 30 features are embedded, and the page stays under 300 KB.
    assert!(!html.contains("are not embedded"));
    assert!(html.len() <= 300_000, "{} bytes", html.len());
}

#[test]
fn the_request_checks_see_a_request_when_a_page_makes_one() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let tree = dir.path().join("tree.json");
    run(&[
        "greedy",
        path_str(&dataset("iris")),
        "--depth",
        "1",
        "-o",
        path_str(&tree),
    ]);
    let html = run(&["show", path_str(&tree), "--format", "html"]);
    let image = "<img src=\"http://192.0.2.1/pixel.png\"></body>";
    // With the page's policy, the image is blocked before it leaves, and the page counts it.
    let blocked = dir.path().join("blocked.html");
    std::fs::write(&blocked, html.replace("</body>", image)).expect("written");
    let opened = open(&browser, &blocked, "", None);
    assert!(opened.requests.is_empty(), "{:?}", opened.requests);
    let counted = element(&opened.dom, "output", "id", "requests");
    assert_eq!(counted.attribute("data-blocked"), Some("1"));
    // Without it, the request starts (and fails: the network is off), and the log has it.
    let policy_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .expect("a policy");
    let policy_end = policy_start + html[policy_start..].find('>').expect("its end") + 1;
    let open_page = format!("{}{}", &html[..policy_start], &html[policy_end..]);
    let leaky = dir.path().join("leaky.html");
    std::fs::write(&leaky, open_page.replace("</body>", image)).expect("written");
    let opened = open(&browser, &leaky, "", None);
    assert_eq!(opened.requests, ["http://192.0.2.1/pixel.png"]);
}

#[test]
fn show_writes_every_format_to_o_as_to_stdout_and_data_needs_html() {
    let dir = tempfile::tempdir().expect("a directory");
    let tree = dir.path().join("tree.json");
    let iris = dataset("iris");
    run(&[
        "greedy",
        path_str(&iris),
        "--depth",
        "2",
        "-o",
        path_str(&tree),
    ]);
    for format in ["text", "dot", "json", "html"] {
        let file = dir.path().join(format!("tree.{format}"));
        let printed = run(&["show", path_str(&tree), "--format", format]);
        assert_eq!(
            run(&[
                "show",
                path_str(&tree),
                "--format",
                format,
                "-o",
                path_str(&file)
            ]),
            ""
        );
        assert_eq!(
            std::fs::read_to_string(&file).expect("written"),
            printed,
            "{format}"
        );
    }
    crate::common::assert_usage_error(
        &["show", path_str(&tree), "--data", path_str(&iris)],
        "--data",
    );
    // Rows without a column the tree reads are refused, naming it.
    let (_dir, partial) =
        crate::common::temp_file("rows.csv", "sepal_length_cm,class\n5.1,setosa\n");
    let output = milptree(&[
        "show",
        path_str(&tree),
        "--format",
        "html",
        "--data",
        path_str(&partial),
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("petal"), "{}", stderr(&output));
}
