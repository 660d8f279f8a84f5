//! The figures read back from their SVG: every text inside the canvas (measured with the
//! figures' font), and marked points at one place all visible.

use std::collections::HashMap;
use std::path::Path;

use milptree::experiment::plots::accuracy::accuracy_figures;
use milptree::experiment::plots::canvas::{save, text_width};
use milptree::experiment::plots::front::FrontFigure;
use milptree::experiment::plots::trajectories::trajectory_figures;
use milptree::experiment::row::Row;
use milptree::learn::front_document::FrontDocument;
use milptree::learn::WarmStartMode;
use milptree::solver::{Termination, TrajectoryPoint};

use crate::common::{dataset, milptree, path_str, stderr};

/// Every `<text>` of the SVG at `path` lies inside its width, by its anchor and font size.
fn assert_texts_inside(path: &Path) {
    let text = std::fs::read_to_string(path).expect("the SVG exists");
    let document = roxmltree::Document::parse(&text).expect("the SVG parses");
    let root = document.root_element();
    let width: f64 = root
        .attribute("width")
        .and_then(|w| w.parse().ok())
        .expect("a width");
    let mut seen = 0;
    for node in document.descendants().filter(|n| n.has_tag_name("text")) {
        let Some(content) = node.text().map(str::trim).filter(|t| !t.is_empty()) else {
            continue;
        };
        // Rotated axis titles run along the height.
        if node.attribute("transform").is_some() {
            continue;
        }
        let x: f64 = node
            .attribute("x")
            .and_then(|x| x.parse().ok())
            .unwrap_or(0.0);
        let size: f64 = node
            .attribute("font-size")
            .and_then(|s| s.parse().ok())
            .unwrap_or(12.0);
        let drawn = f64::from(text_width(content, size.round() as u32));
        let (left, right) = match node.attribute("text-anchor") {
            Some("middle") => (x - drawn / 2.0, x + drawn / 2.0),
            Some("end") => (x - drawn, x),
            _ => (x, x + drawn),
        };
        assert!(
            left >= -1.0 && right <= width + 1.0,
            "{}: `{content}` spans {left:.0}..{right:.0} of {width}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen > 5, "{}: only {seen} texts", path.display());
}

fn row(dataset: &str, formulation: &str, warm_start: WarmStartMode) -> Row {
    Row {
        run_key: format!("{dataset}-{formulation}"),
        dataset: dataset.to_string(),
        formulation: formulation.to_string(),
        solver: "dp".to_string(),
        warm_start,
        depth: 2,
        time_limit: 10.0,
        termination: Termination::Optimal,
        train_accuracy: Some(0.9),
        test_accuracy: Some(0.85),
        greedy_train_accuracy: Some(0.8),
        greedy_test_accuracy: Some(0.75),
        ..Row::default()
    }
}

#[test]
fn the_accuracy_figure_of_one_dataset_keeps_its_title_and_legend_inside() {
    let dir = tempfile::tempdir().expect("a directory");
    let figures = accuracy_figures(&[row("iris", "dp", WarmStartMode::None)]);
    assert_eq!(figures.len(), 1);
    let stem = dir.path().join(&figures[0].0);
    save(&figures[0].1, &stem).expect("saved");
    assert_texts_inside(&stem.with_extension("svg"));
}

#[test]
fn the_trajectory_figure_of_a_dp_only_grid_keeps_its_title_inside() {
    let dir = tempfile::tempdir().expect("a directory");
    let run = row("a_dataset_with_a_long_name", "dp", WarmStartMode::None);
    let mut trajectories = HashMap::new();
    trajectories.insert(
        run.run_key.clone(),
        vec![
            TrajectoryPoint {
                seconds: 0.01,
                incumbent: Some(5.0),
                bound: Some(0.0),
            },
            TrajectoryPoint {
                seconds: 0.5,
                incumbent: Some(3.0),
                bound: Some(3.0),
            },
        ],
    );
    let figures = trajectory_figures(&[run], &trajectories);
    assert_eq!(figures.len(), 1);
    let stem = dir.path().join(&figures[0].0);
    save(&figures[0].1, &stem).expect("saved");
    assert_texts_inside(&stem.with_extension("svg"));
}

#[test]
fn marks_at_one_point_are_all_drawn_filled_first_then_outlines() {
    // A front, then the F1-optimal, CART and accuracy-optimal trees moved to one point.
    let dir = tempfile::tempdir().expect("a directory");
    let out = dir.path().join("front");
    let output = milptree(&[
        "pareto",
        path_str(&dataset("breast_cancer")),
        "--depth",
        "1",
        "--out",
        path_str(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(out.join("front.json")).expect("front.json");
    let mut document: FrontDocument = serde_json::from_str(&text).expect("a front document");
    let best = document.best["f1"].clone();
    for reference in &mut document.references {
        reference.train.fp = best.fp;
        reference.train.fn_ = best.fn_;
    }
    let stem = dir.path().join("coinciding");
    FrontFigure::new(&document, "breast_cancer")
        .save(&stem)
        .expect("saved")
        .expect("drawn");
    let svg = std::fs::read_to_string(stem.with_extension("svg")).expect("the SVG");
    let document = roxmltree::Document::parse(&svg).expect("parses");
    // The first drawn element of each mark's colour (the legend's swatches come later).
    let first = |colour: &str| {
        document
            .descendants()
            .position(|n| {
                n.attribute("fill")
                    .is_some_and(|f| f.eq_ignore_ascii_case(colour))
                    || n.attribute("stroke")
                        .is_some_and(|s| s.eq_ignore_ascii_case(colour))
            })
            .unwrap_or_else(|| panic!("no element of colour {colour}"))
    };
    let cart = first("#2CA02C");
    let f1 = first("#D62728");
    let accuracy = first("#FF7F0E");
    assert!(cart < f1, "the F1 triangle is drawn over CART's square");
    assert!(
        f1 < accuracy,
        "the accuracy-optimal cross is an outline over the triangle"
    );
    // The triangle reaches past the cross on both sides, so its red stays in view around it.
    let nodes: Vec<_> = document.descendants().collect();
    let triangle_xs: Vec<f64> = nodes[f1]
        .attribute("points")
        .expect("the triangle is a polygon")
        .split_whitespace()
        .filter_map(|p| p.split(',').next()?.parse().ok())
        .collect();
    let cross_xs: Vec<f64> = nodes[accuracy..]
        .iter()
        .filter(|n| n.attribute("stroke") == Some("#FF7F0E") && n.has_attribute("x1"))
        .take(2)
        .flat_map(|n| ["x1", "x2"].map(|a| n.attribute(a).and_then(|v| v.parse().ok())))
        .flatten()
        .collect();
    let span = |xs: &[f64]| {
        let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    };
    let (t_lo, t_hi) = span(&triangle_xs);
    let (c_lo, c_hi) = span(&cross_xs);
    assert_eq!(cross_xs.len(), 4, "the cross is two lines");
    assert!(
        t_lo + 3.0 < c_lo && c_hi + 3.0 < t_hi,
        "the triangle ({t_lo}..{t_hi}) shows around the cross ({c_lo}..{c_hi})"
    );
}
