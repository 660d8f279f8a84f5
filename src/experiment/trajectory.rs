//! The trajectory of one run (incumbent and bound over time, as the solver reported them) and
//! its file `trajectories/<run key>.csv` with the columns `seconds,incumbent,bound,rel_gap`
//! (empty cells: not known at that time).
//!
//! HiGHS reports every improving solution and its bound as it goes, through callbacks; CBC
//! through its log, which the parent reads as it is printed.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::solver::{gaps, TrajectoryPoint};

/// One line of a trajectory file.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    seconds: f64,
    incumbent: Option<f64>,
    bound: Option<f64>,
    rel_gap: Option<f64>,
}

/// Writes `points` to the CSV file `path`.
pub fn write_trajectory(path: &Path, points: &[TrajectoryPoint]) -> Result<()> {
    let output = |source: std::io::Error| Error::Output {
        path: path.display().to_string(),
        source,
    };
    let mut writer = csv::Writer::from_path(path).map_err(|e| output(e.into()))?;
    for point in points {
        let line = Line {
            seconds: point.seconds,
            incumbent: point.incumbent,
            bound: point.bound,
            rel_gap: gaps(point.incumbent, point.bound).1,
        };
        writer.serialize(line).map_err(|e| output(e.into()))?;
    }
    writer.flush().map_err(output)
}

/// Reads a trajectory file.
pub fn read_trajectory(path: &Path) -> Result<Vec<TrajectoryPoint>> {
    let format = |message: String| Error::Format {
        path: path.display().to_string(),
        message,
    };
    let mut reader = csv::Reader::from_path(path).map_err(|e| format(e.to_string()))?;
    let mut points = Vec::new();
    for line in reader.deserialize::<Line>() {
        let line = line.map_err(|e| format(e.to_string()))?;
        points.push(TrajectoryPoint {
            seconds: line.seconds,
            incumbent: line.incumbent,
            bound: line.bound,
        });
    }
    Ok(points)
}
