//! Reading CSV files into a [`Dataset`] (training) or into [`Observations`] against a tree's
//! schema (prediction), with every validation the data needs and errors that name the file,
//! line and column.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use crate::data::line_index::LineIndex;
use crate::data::missing::MissingValues;
use crate::data::{Column, ColumnKind, Dataset, Observations, Schema};
use crate::error::{Error, Result};

/// Which column holds the labels.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TargetColumn {
    /// The last column of the file.
    #[default]
    Last,
    /// A column given by name, or, when no column has that name and it is a whole number,
    /// by its 0-based position.
    Named(String),
}

/// A cell parsed as a number: `Some(Ok(v))` finite, `Some(Err(()))` a number that is not
/// finite (`inf`, `1e999`), `None` not a number at all.
fn parse_number(cell: &str) -> Option<Result<f64, ()>> {
    match cell.parse::<f64>() {
        Ok(value) if value.is_finite() => Some(Ok(value)),
        Ok(_) => Some(Err(())),
        Err(_) => None,
    }
}

/// The raw content of a CSV file: its header and its records with their line numbers.
struct RawTable {
    path: String,
    header: Vec<String>,
    records: Vec<(u64, Vec<String>)>,
}

impl RawTable {
    fn cell_error(&self, line: u64, column: usize, message: impl Into<String>) -> Error {
        Error::Cell {
            path: self.path.clone(),
            line,
            column: column + 1,
            name: self.header[column].clone(),
            message: message.into(),
        }
    }
}

fn read_raw(path: &Path) -> Result<RawTable> {
    let display = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| Error::input(&display, format!("cannot open: {e}")))?;
    let lines = LineIndex::new(&bytes);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes.as_slice());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| csv_error(&display, &lines, e))?
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if i == 0 {
                name.trim_start_matches('\u{feff}').to_string()
            } else {
                name.to_string()
            }
        })
        .collect();
    if header.is_empty() || (header.len() == 1 && header[0].is_empty()) {
        return Err(Error::input(&display, "the file is empty (no header row)"));
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        if name.is_empty() {
            return Err(Error::input(
                &display,
                format!("line 1: column {} has an empty name in the header", i + 1),
            ));
        }
        if let Some(first) = seen.insert(name.as_str(), i) {
            return Err(Error::input(
                &display,
                format!(
                    "line 1: duplicate column name `{name}` (columns {} and {})",
                    first + 1,
                    i + 1
                ),
            ));
        }
    }
    let mut records = Vec::new();
    for result in reader.records() {
        let record = result.map_err(|e| csv_error(&display, &lines, e))?;
        let line = record
            .position()
            .map_or(0, |p| lines.line_of_record(p.byte()));
        if record.len() == 1 && record[0].is_empty() && header.len() > 1 {
            // A blank line: the csv crate yields one empty field. Skip it.
            continue;
        }
        if record.len() != header.len() {
            return Err(Error::input(
                &display,
                format!(
                    "line {line}: {} fields, but the header has {} columns",
                    record.len(),
                    header.len()
                ),
            ));
        }
        records.push((line, record.iter().map(str::to_string).collect()));
    }
    if records.is_empty() {
        return Err(Error::input(
            &display,
            "the file has a header but no data rows",
        ));
    }
    Ok(RawTable {
        path: display,
        header,
        records,
    })
}

fn csv_error(path: &str, lines: &LineIndex<'_>, error: csv::Error) -> Error {
    let line = error.position().map(|p| lines.line_of_record(p.byte()));
    let message = match error.kind() {
        csv::ErrorKind::Utf8 { .. } => "the file is not valid UTF-8 text".to_string(),
        csv::ErrorKind::Io(io) => format!("cannot read: {io}"),
        _ => error.to_string(),
    };
    match line {
        Some(line) => Error::input(path, format!("line {line}: {message}")),
        None => Error::input(path, message),
    }
}

fn resolve_target(table: &RawTable, target: &TargetColumn) -> Result<usize> {
    match target {
        TargetColumn::Last => Ok(table.header.len() - 1),
        TargetColumn::Named(spec) => resolve_column(table, spec, "--target"),
    }
}

/// The column `spec` names (by name, or by 0-based position when no column has that name);
/// errors name `option`.
fn resolve_column(table: &RawTable, spec: &str, option: &str) -> Result<usize> {
    if let Some(i) = table.header.iter().position(|name| name == spec) {
        return Ok(i);
    }
    if let Ok(index) = spec.parse::<usize>() {
        if index < table.header.len() {
            return Ok(index);
        }
        return Err(Error::parameter(
            option,
            format!(
                "column index {index} is out of range: {} has {} columns (0 to {})",
                table.path,
                table.header.len(),
                table.header.len() - 1
            ),
        ));
    }
    Err(Error::parameter(
        option,
        format!(
            "no column named `{spec}` in {}; its columns are: {}",
            table.path,
            table.header.join(", ")
        ),
    ))
}

/// Refuses a cell that is a number but not a finite one (`inf`, `1e999`); missing cells pass.
fn check_cells(table: &RawTable, missing: &MissingValues) -> Result<()> {
    for (line, cells) in &table.records {
        for (column, cell) in cells.iter().enumerate() {
            if missing.is_missing(cell) {
                continue;
            }
            if let Some(Err(())) = parse_number(cell) {
                return Err(table.cell_error(
                    *line,
                    column,
                    format!("`{cell}` is not a finite number"),
                ));
            }
        }
    }
    Ok(())
}

/// Decides whether a feature column is numeric or categorical, from its cells that are not
/// missing (a column with no other cell is numeric).
fn column_kind(table: &RawTable, column: usize, missing: &MissingValues) -> Result<ColumnKind> {
    let mut first_number: Option<(u64, &str)> = None;
    let mut first_text: Option<(u64, &str)> = None;
    for (line, cells) in &table.records {
        let cell = cells[column].as_str();
        if missing.is_missing(cell) {
            continue;
        }
        if parse_number(cell).is_some() {
            first_number.get_or_insert((*line, cell));
        } else {
            first_text.get_or_insert((*line, cell));
        }
    }
    match (first_number, first_text) {
        (_, None) => Ok(ColumnKind::Numeric),
        (None, Some(_)) => {
            let categories: BTreeSet<&str> = table
                .records
                .iter()
                .map(|(_, cells)| cells[column].as_str())
                .filter(|cell| !missing.is_missing(cell))
                .collect();
            Ok(ColumnKind::Categorical {
                categories: categories.into_iter().map(str::to_string).collect(),
            })
        }
        (Some((number_line, number)), Some((text_line, text))) => Err(table.cell_error(
            text_line,
            column,
            format!(
                "`{text}` is not a number, but line {number_line} of this column has the number \
                 `{number}`; a feature column must be all numbers, or all text to be one-hot encoded"
            ),
        )),
    }
}

/// Whether two labels name the same class: the same text, or two numbers of the same value
/// (`1`, `1.0` and `1e0`; `0` and `-0`).
pub fn same_label(a: &str, b: &str) -> bool {
    a == b
        || matches!(
            (parse_number(a), parse_number(b)),
            (Some(Ok(x)), Some(Ok(y))) if x == y
        )
}

/// The spelling of each label's class: a label that is a number is spelled as the first label
/// of the same value in `labels` (in file order); any other label as it is.
fn class_spellings<'a>(labels: impl Iterator<Item = &'a str>) -> HashMap<&'a str, &'a str> {
    let mut first_of_value: Vec<(f64, &str)> = Vec::new();
    let mut spellings = HashMap::new();
    for label in labels {
        if spellings.contains_key(label) {
            continue;
        }
        let spelling = match parse_number(label) {
            Some(Ok(value)) => match first_of_value.iter().find(|(v, _)| *v == value) {
                Some(&(_, first)) => first,
                None => {
                    first_of_value.push((value, label));
                    label
                }
            },
            _ => label,
        };
        spellings.insert(label, spelling);
    }
    spellings
}

/// Orders class labels: numerically when every label is a number, as text otherwise.
fn sorted_classes(labels: &BTreeSet<&str>) -> Vec<String> {
    let numeric: Option<Vec<(f64, &str)>> = labels
        .iter()
        .map(|&label| match parse_number(label) {
            Some(Ok(value)) => Some((value, label)),
            _ => None,
        })
        .collect();
    match numeric {
        Some(mut pairs) => {
            pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(b.1)));
            pairs
                .into_iter()
                .map(|(_, label)| label.to_string())
                .collect()
        }
        None => labels.iter().map(|label| label.to_string()).collect(),
    }
}

/// Encodes one record's cells into feature values; `columns` is aligned with `cells` (one entry
/// per file column) and the label column is skipped. Unknown categories encode as all zeros and
/// are counted in `unseen`. A missing cell encodes as `NaN` (in each feature of a text column).
fn encode_row(
    table: &RawTable,
    columns: &[Column],
    line: u64,
    cells: &[String],
    unseen: &mut Vec<UnseenCategory>,
    missing: &MissingValues,
) -> Result<Vec<f64>> {
    let mut row = Vec::new();
    for (index, (column, cell)) in columns.iter().zip(cells).enumerate() {
        match &column.kind {
            ColumnKind::Numeric if missing.is_missing(cell) => row.push(f64::NAN),
            ColumnKind::Categorical { categories } if missing.is_missing(cell) => {
                row.extend(std::iter::repeat_n(f64::NAN, categories.len()))
            }
            ColumnKind::Numeric => match parse_number(cell) {
                Some(Ok(value)) => row.push(value),
                _ => {
                    return Err(table.cell_error(
                        line,
                        index,
                        format!("`{cell}` is not a number, but this column is numeric"),
                    ))
                }
            },
            ColumnKind::Categorical { categories } => {
                let position = categories.iter().position(|c| c == cell);
                if position.is_none() {
                    match unseen
                        .iter_mut()
                        .find(|u| u.column == column.name && u.value == *cell)
                    {
                        Some(entry) => entry.rows += 1,
                        None => unseen.push(UnseenCategory {
                            column: column.name.clone(),
                            value: cell.clone(),
                            rows: 1,
                        }),
                    }
                }
                row.extend((0..categories.len()).map(|k| f64::from(u8::from(Some(k) == position))));
            }
            ColumnKind::Target | ColumnKind::Weight => {}
        }
    }
    Ok(row)
}

/// A category value in prediction data that the training data did not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnseenCategory {
    pub column: String,
    pub value: String,
    pub rows: usize,
}

/// Reads a labelled dataset for training.
///
/// Errors (all with file, and line and column where they apply): missing or unreadable file,
/// empty file, header only, duplicate or empty column names, ragged rows, infinite cells, a
/// feature column mixing numbers and text, an unknown target column,
/// no feature column, a single class.
pub fn read_dataset(path: &Path, target: &TargetColumn) -> Result<Dataset> {
    read_weighted_dataset(path, target, None)
}

/// Reads a labelled dataset for training, with row weights from the column `weight_column`
/// (by name, or 0-based position) when given: that column is not a feature, and each of its
/// cells must be a finite non-negative number (an error naming the line otherwise); not every
/// weight may be 0. Without it, as [`read_dataset`].
pub fn read_weighted_dataset(
    path: &Path,
    target: &TargetColumn,
    weight_column: Option<&str>,
) -> Result<Dataset> {
    read_training_data(path, target, weight_column, &MissingValues::default())
}

/// [`read_weighted_dataset`] with the options about missing cells: a missing feature cell is
/// `NaN` in the dataset; a row whose label is missing is dropped with one warning line giving
/// the count, or refused (an error naming its line) when `missing.strict` is set.
pub fn read_training_data(
    path: &Path,
    target: &TargetColumn,
    weight_column: Option<&str>,
    missing: &MissingValues,
) -> Result<Dataset> {
    let mut table = read_raw(path)?;
    let target_index = resolve_target(&table, target)?;
    drop_unlabelled_rows(&mut table, target_index, missing)?;
    let weight_index = weight_column
        .map(|spec| resolve_column(&table, spec, "--weight-column"))
        .transpose()?;
    if weight_index == Some(target_index) {
        return Err(Error::parameter(
            "--weight-column",
            format!(
                "`{}` is the label column; the weights need a column of their own",
                table.header[target_index]
            ),
        ));
    }
    check_cells(&table, missing)?;
    let n_special = 1 + usize::from(weight_index.is_some());
    if table.header.len() <= n_special {
        return Err(Error::input(
            &table.path,
            if weight_index.is_some() {
                "the file has no feature column besides the label and the weights"
            } else {
                "the file has only one column: there is no feature column besides the label"
            },
        ));
    }
    let mut columns = Vec::with_capacity(table.header.len());
    for (index, name) in table.header.iter().enumerate() {
        let kind = if index == target_index {
            ColumnKind::Target
        } else if Some(index) == weight_index {
            ColumnKind::Weight
        } else {
            column_kind(&table, index, missing)?
        };
        columns.push(Column {
            name: name.clone(),
            kind,
        });
    }
    let spellings = class_spellings(
        table
            .records
            .iter()
            .map(|(_, cells)| cells[target_index].as_str()),
    );
    let label_texts: BTreeSet<&str> = spellings.values().copied().collect();
    let classes = sorted_classes(&label_texts);
    let target_name = table.header[target_index].clone();
    if classes.len() < 2 {
        return Err(Error::input(
            &table.path,
            format!(
                "the label column `{target_name}` has only one class (`{}`); a classifier needs at \
                 least two",
                classes[0]
            ),
        ));
    }
    let class_index: HashMap<&str, usize> = classes
        .iter()
        .enumerate()
        .map(|(i, label)| (label.as_str(), i))
        .collect();
    let features = Schema::features_of(&columns);
    let mut rows = Vec::with_capacity(table.records.len());
    let mut labels = Vec::with_capacity(table.records.len());
    let mut unseen = Vec::new();
    for (line, cells) in &table.records {
        rows.push(encode_row(
            &table,
            &columns,
            *line,
            cells,
            &mut unseen,
            missing,
        )?);
        let label = cells[target_index].as_str();
        let class = spellings
            .get(label)
            .and_then(|spelling| class_index.get(spelling))
            .copied()
            .ok_or_else(|| Error::Internal(format!("label `{label}` has no class")))?;
        labels.push(class);
    }
    debug_assert!(unseen.is_empty());
    let weights = weight_index
        .map(|column| read_weights(&table, column))
        .transpose()?;
    let schema = Schema {
        columns,
        target: target_name,
        features,
    };
    let data = Dataset::with_schema(table.path.clone(), schema, classes, rows, labels)?;
    match weights {
        Some(weights) => data.with_weights(weights),
        None => Ok(data),
    }
}

/// Drops the records whose label cell is missing, with one warning line giving the count; with
/// `missing.strict`, refuses the first one instead. Fails when no labelled row is left.
fn drop_unlabelled_rows(
    table: &mut RawTable,
    target: usize,
    missing: &MissingValues,
) -> Result<()> {
    let unlabelled = |cells: &Vec<String>| missing.is_missing(&cells[target]);
    let Some((line, _)) = table.records.iter().find(|(_, cells)| unlabelled(cells)) else {
        return Ok(());
    };
    if missing.strict {
        return Err(table.cell_error(
            *line,
            target,
            "the label is missing (--strict refuses rows without a label)",
        ));
    }
    let before = table.records.len();
    table.records.retain(|(_, cells)| !unlabelled(cells));
    let dropped = before - table.records.len();
    if table.records.is_empty() {
        return Err(Error::input(
            &table.path,
            format!(
                "every row has a missing label in the label column `{}`",
                table.header[target]
            ),
        ));
    }
    crate::noteln!(
        "warning: {}: {dropped} row{} with a missing label (column `{}`) dropped",
        table.path,
        if dropped == 1 { "" } else { "s" },
        table.header[target]
    );
    Ok(())
}

/// The row weights in column `column`: each cell a finite non-negative number (an error naming
/// the line and column otherwise), not all 0.
fn read_weights(table: &RawTable, column: usize) -> Result<Vec<f64>> {
    let mut weights = Vec::with_capacity(table.records.len());
    for (line, cells) in &table.records {
        let cell = cells[column].as_str();
        match parse_number(cell) {
            Some(Ok(weight)) if weight >= 0.0 => weights.push(weight),
            _ => {
                return Err(table.cell_error(
                    *line,
                    column,
                    format!("`{cell}` is not a row weight (a finite number, 0 or more)"),
                ))
            }
        }
    }
    if weights.iter().all(|&w| w == 0.0) {
        return Err(Error::input(
            &table.path,
            format!(
                "every row has weight 0 in the weight column `{}`: there is nothing to learn from",
                table.header[column]
            ),
        ));
    }
    Ok(weights)
}

/// Reads data for prediction against a tree's `schema` and `classes`.
///
/// The file must have the tree's columns in the tree's order; the label column may be left
/// out (then no labels are returned). Category values the training data did not have are
/// encoded as all zeros and listed in the second return value.
pub fn read_for_schema(
    path: &Path,
    schema: &Schema,
    classes: &[String],
) -> Result<(Observations, Vec<UnseenCategory>)> {
    read_for_schema_with(path, schema, classes, &MissingValues::default())
}

/// [`read_for_schema`] with the options about missing cells: a missing feature cell is `NaN`;
/// a missing label cell is refused (an error naming its line), since its row would have no
/// label to be scored against.
pub fn read_for_schema_with(
    path: &Path,
    schema: &Schema,
    classes: &[String],
    missing: &MissingValues,
) -> Result<(Observations, Vec<UnseenCategory>)> {
    let table = read_raw(path)?;
    let expected: Vec<&str> = schema.columns.iter().map(|c| c.name.as_str()).collect();
    let header: Vec<&str> = table.header.iter().map(String::as_str).collect();
    // The label column and the weight column (when the tree has one) may each be left out.
    let optional = |kind: &ColumnKind| matches!(kind, ColumnKind::Target | ColumnKind::Weight);
    let mut columns: Option<Vec<Column>> = None;
    for (keep_target, keep_weight) in [(true, true), (true, false), (false, true), (false, false)] {
        let kept: Vec<Column> = schema
            .columns
            .iter()
            .filter(|c| match c.kind {
                ColumnKind::Target => keep_target,
                ColumnKind::Weight => keep_weight,
                _ => !optional(&c.kind),
            })
            .cloned()
            .collect();
        if kept
            .iter()
            .map(|c| c.name.as_str())
            .eq(header.iter().copied())
        {
            columns = Some(kept);
            break;
        }
    }
    let Some(columns) = columns else {
        return Err(Error::TreeMismatch(describe_column_mismatch(
            &table.path,
            &expected,
            &schema.target,
            &header,
        )));
    };
    let has_target = columns.iter().any(|c| c.kind == ColumnKind::Target);
    check_cells(&table, missing)?;
    let target_index = columns.iter().position(|c| c.kind == ColumnKind::Target);
    if let Some(target) = target_index {
        if let Some((line, _)) = table
            .records
            .iter()
            .find(|(_, cells)| missing.is_missing(&cells[target]))
        {
            return Err(table.cell_error(
                *line,
                target,
                "the label is missing; leave the label column out to predict without scoring",
            ));
        }
    }
    let weights = columns
        .iter()
        .position(|c| c.kind == ColumnKind::Weight)
        .map(|column| read_weights(&table, column))
        .transpose()?;
    let mut all_classes: Vec<String> = classes.to_vec();
    let mut rows = Vec::with_capacity(table.records.len());
    let mut labels = Vec::with_capacity(table.records.len());
    let mut unseen = Vec::new();
    for (line, cells) in &table.records {
        rows.push(encode_row(
            &table,
            &columns,
            *line,
            cells,
            &mut unseen,
            missing,
        )?);
        if let Some(target) = target_index {
            let label = &cells[target];
            let index = match all_classes.iter().position(|c| same_label(c, label)) {
                Some(index) => index,
                None => {
                    all_classes.push(label.clone());
                    all_classes.len() - 1
                }
            };
            labels.push(index);
        }
    }
    Ok((
        Observations {
            source: table.path.clone(),
            rows,
            labels: has_target.then_some(labels),
            weights,
            classes: all_classes,
        },
        unseen,
    ))
}

fn describe_column_mismatch(path: &str, expected: &[&str], target: &str, found: &[&str]) -> String {
    let missing: Vec<&str> = expected
        .iter()
        .filter(|name| **name != target && !found.contains(name))
        .copied()
        .collect();
    let extra: Vec<&str> = found
        .iter()
        .filter(|name| !expected.contains(name))
        .copied()
        .collect();
    let mut detail = format!(
        "{path} has columns [{}], but the tree was learned on [{}] (the label column `{target}` \
         may be left out)",
        found.join(", "),
        expected.join(", ")
    );
    if !missing.is_empty() {
        detail.push_str(&format!("; missing: {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        detail.push_str(&format!("; not in the tree: {}", extra.join(", ")));
    }
    if missing.is_empty() && extra.is_empty() {
        detail.push_str("; the same columns in another order");
    }
    detail
}
