//! Reading CSV files into a [`Dataset`] (training) or into [`Observations`] against a tree's
//! schema (prediction), with every validation the data needs and errors that name the file,
//! line and column. The path `-` reads standard input; [`ColumnOptions`] says which columns are
//! categorical or left out and which character separates the fields.

use std::collections::{BTreeSet, HashMap};
use std::io::Read as _;
use std::path::Path;

use crate::data::line_index::LineIndex;
use crate::data::missing::MissingValues;
use crate::data::{Column, ColumnKind, ColumnOptions, Dataset, Observations, Schema};
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

/// The bytes of the file at `path`, or of standard input when `path` is `-`; with the name
/// messages give the source.
fn read_bytes(path: &Path) -> Result<(String, Vec<u8>)> {
    if path.as_os_str() == "-" {
        let display = "standard input".to_string();
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Error::input(&display, format!("cannot read: {e}")))?;
        return Ok((display, bytes));
    }
    let display = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| Error::input(&display, format!("cannot open: {e}")))?;
    Ok((display, bytes))
}

fn read_raw(path: &Path, delimiter: u8) -> Result<RawTable> {
    let (display, bytes) = read_bytes(path)?;
    let lines = LineIndex::new(&bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
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
    if let [only] = header.as_slice() {
        if let Some(other) = [b',', b';', b'\t', b'|']
            .into_iter()
            .find(|&d| d != delimiter && only.as_bytes().contains(&d))
        {
            let shown = if other == b'\t' {
                "tab".to_string()
            } else {
                char::from(other).to_string()
            };
            return Err(Error::input(
                &display,
                format!(
                    "line 1: the header is one column, `{only}`, whose name holds `{shown}`: \
                     give --delimiter '{shown}' if that separates the fields"
                ),
            ));
        }
    }
    for (i, name) in header.iter().enumerate() {
        if name.is_empty() {
            let hint = if i == 0 {
                " (a row index written without a name, as pandas' to_csv does? write the file \
                 without it, with index=False)"
            } else if i + 1 == header.len() {
                " (a delimiter at the end of the header line?)"
            } else {
                ""
            };
            return Err(Error::input(
                &display,
                format!(
                    "line 1: column {} has an empty name in the header{hint}",
                    i + 1
                ),
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

/// Checks the cells of the columns `used` (file positions): none a number that is not finite
/// (`inf`, `1e999`); missing cells pass.
fn check_cells(table: &RawTable, used: &[usize], missing: &MissingValues) -> Result<()> {
    for (line, cells) in &table.records {
        for &column in used {
            let cell = &cells[column];
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

/// Decides whether a feature column is numeric or categorical: categorical when `declared`
/// (its categories spelled as [`class_spellings`] spells labels: `1` and `1.0` are one
/// category), else numeric when every cell is a number, else categorical when no cell is a
/// number and it has at most `max_categories` categories. Missing cells are passed over (a
/// column with no other cell is numeric).
fn column_kind(
    table: &RawTable,
    column: usize,
    declared: bool,
    max_categories: usize,
    missing: &MissingValues,
) -> Result<ColumnKind> {
    let present = || {
        table
            .records
            .iter()
            .map(move |(_, cells)| cells[column].as_str())
            .filter(|cell| !missing.is_missing(cell))
    };
    if declared {
        let spellings = class_spellings(present());
        let categories: BTreeSet<&str> = spellings.values().copied().collect();
        return Ok(ColumnKind::Categorical {
            categories: sorted_classes(&categories),
        });
    }
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
            let categories: BTreeSet<&str> = present().collect();
            let categories: Vec<String> = categories.into_iter().map(str::to_string).collect();
            if categories.len() > max_categories {
                let name = &table.header[column];
                let looks = text_resemblance(table.records.len(), &categories)
                    .map(|what| format!(" (it looks like {what})"))
                    .unwrap_or_default();
                return Err(Error::input(
                    &table.path,
                    format!(
                        "column `{name}` has {} categories, more than --max-categories \
                         {max_categories}{looks}; leave it out with --ignore {name}, keep it \
                         with --categorical {name}, or raise --max-categories",
                        categories.len()
                    ),
                ));
            }
            Ok(ColumnKind::Categorical { categories })
        }
        (Some((number_line, number)), Some((text_line, text))) => Err(table.cell_error(
            text_line,
            column,
            format!(
                "`{text}` is not a number, but line {number_line} of this column has the number \
                 `{number}`; a feature column must be all numbers, or all text to be categorical \
                 (declare it categorical with --categorical {})",
                table.header[column]
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

/// The rows fewer than which no column is said to look like an identifier or free text.
pub const RESEMBLANCE_MIN_ROWS: usize = 20;

/// What a text column with these `categories` over `n_rows` rows looks like, when it looks like
/// something other than a category: `free text` (at least half its cells distinct, and at
/// least half its categories 20 characters or more, or 4 words or more) or `an identifier`
/// (every cell distinct). `None` below [`RESEMBLANCE_MIN_ROWS`] rows.
fn text_resemblance(n_rows: usize, categories: &[String]) -> Option<&'static str> {
    if n_rows < RESEMBLANCE_MIN_ROWS {
        return None;
    }
    let long = categories
        .iter()
        .filter(|c| c.chars().count() >= 20 || c.split_whitespace().count() >= 4)
        .count();
    if 2 * categories.len() >= n_rows && 2 * long >= categories.len() {
        Some("free text")
    } else if categories.len() == n_rows {
        Some("an identifier")
    } else {
        None
    }
}

/// The warning for a feature column that looks like an identifier (a text column with every
/// cell distinct, or a whole-number column holding each number of a range once) or like free
/// text, with at least [`RESEMBLANCE_MIN_ROWS`] rows.
fn column_warning(table: &RawTable, column: &Column, index: usize) -> Option<String> {
    let n_rows = table.records.len();
    let name = &column.name;
    let what = match &column.kind {
        ColumnKind::Categorical { categories } => text_resemblance(n_rows, categories)?,
        ColumnKind::Numeric if n_rows >= RESEMBLANCE_MIN_ROWS => {
            let mut values: Vec<f64> = table
                .records
                .iter()
                .filter_map(|(_, cells)| parse_number(&cells[index])?.ok())
                .collect();
            values.sort_by(f64::total_cmp);
            let consecutive = values.windows(2).all(|w| w[1] - w[0] == 1.0);
            if !(consecutive && values.iter().all(|v| v.fract() == 0.0)) {
                return None;
            }
            "an identifier"
        }
        _ => return None,
    };
    let why = if what == "free text" {
        "many distinct long texts".to_string()
    } else {
        format!("its {n_rows} values are all different")
    };
    Some(format!(
        "column `{name}` looks like {what} ({why}) and is used as a feature; leave it out with \
         --ignore {name}"
    ))
}

/// The index of `cell` among `categories`: the same text, or the same number (`1` is `1.0`).
fn category_position(categories: &[String], cell: &str) -> Option<usize> {
    categories
        .iter()
        .position(|c| c == cell)
        .or_else(|| match parse_number(cell) {
            Some(Ok(_)) => categories.iter().position(|c| same_label(c, cell)),
            _ => None,
        })
}

/// Encodes one record's cells into feature values; `columns` pairs each column the features
/// come from (in feature order) with its position in `cells`, and the label and weight columns
/// are skipped. Unknown categories encode as all zeros and are counted in `unseen`. A missing
/// cell encodes as `NaN` (in each feature of a categorical column).
fn encode_row(
    table: &RawTable,
    columns: &[(usize, &Column)],
    line: u64,
    cells: &[String],
    unseen: &mut Vec<UnseenCategory>,
    missing: &MissingValues,
) -> Result<Vec<f64>> {
    let mut row = Vec::new();
    for &(index, column) in columns {
        let cell = &cells[index];
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
                let position = category_position(categories, cell);
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

/// The file positions named by `specs` (names, or 0-based positions); errors name `option`.
fn resolve_columns(table: &RawTable, specs: &[String], option: &str) -> Result<Vec<usize>> {
    specs
        .iter()
        .map(|spec| resolve_column(table, spec, option))
        .collect()
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
    read_table(
        path,
        target,
        weight_column,
        &ColumnOptions::default(),
        &MissingValues::default(),
    )
    .map(|(data, warnings)| {
        for warning in warnings {
            crate::noteln!("warning: {warning}");
        }
        data
    })
}

/// [`read_weighted_dataset`] with the column `options`: the columns `options.ignore` names are
/// left out, those `options.categorical` names are categorical, a text column with more than
/// `options.max_categories` categories is refused (naming it) unless declared categorical.
/// Cells `missing` recognises are missing: a missing feature cell is `NaN` in the dataset; a
/// row whose label is missing is dropped with a warning giving the count, or refused (an error
/// naming its line) when `missing.strict` is set. Returns the dataset and its warnings: one
/// per feature column that looks like an identifier or like free text, and the dropped rows.
pub fn read_table(
    path: &Path,
    target: &TargetColumn,
    weight_column: Option<&str>,
    options: &ColumnOptions,
    missing: &MissingValues,
) -> Result<(Dataset, Vec<String>)> {
    let mut table = read_raw(path, options.delimiter_for(path))?;
    let target_index = resolve_target(&table, target)?;
    let mut warnings: Vec<String> = drop_unlabelled_rows(&mut table, target_index, missing)?
        .into_iter()
        .collect();
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
    let ignored = resolve_columns(&table, &options.ignore, "--ignore")?;
    let declared = resolve_columns(&table, &options.categorical, "--categorical")?;
    check_listed_columns(&table, (target_index, weight_index), &ignored, &declared)?;
    let used: Vec<usize> = (0..table.header.len())
        .filter(|i| !ignored.contains(i))
        .collect();
    check_cells(&table, &used, missing)?;
    check_features_left(
        &table,
        used.len(),
        weight_index.is_some(),
        !ignored.is_empty(),
    )?;
    let mut columns = Vec::with_capacity(used.len());
    for &index in &used {
        let kind = if index == target_index {
            ColumnKind::Target
        } else if Some(index) == weight_index {
            ColumnKind::Weight
        } else {
            column_kind(
                &table,
                index,
                declared.contains(&index),
                options.max_categories,
                missing,
            )?
        };
        let column = Column {
            name: table.header[index].clone(),
            kind,
        };
        warnings.extend(column_warning(&table, &column, index));
        columns.push(column);
    }
    let encoding: Vec<(usize, &Column)> = used.iter().copied().zip(&columns).collect();
    let (classes, labels) = read_labels(&table, target_index)?;
    let target_name = table.header[target_index].clone();
    let features = Schema::features_of(&columns);
    let mut rows = Vec::with_capacity(table.records.len());
    let mut unseen = Vec::new();
    for (line, cells) in &table.records {
        rows.push(encode_row(
            &table,
            &encoding,
            *line,
            cells,
            &mut unseen,
            missing,
        )?);
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
    let data = match weights {
        Some(weights) => data.with_weights(weights)?,
        None => data,
    };
    Ok((data, warnings))
}

/// Refuses a column `--ignore` or `--categorical` lists that is the label column or the weight
/// column, and one both list.
fn check_listed_columns(
    table: &RawTable,
    (target_index, weight_index): (usize, Option<usize>),
    ignored: &[usize],
    declared: &[usize],
) -> Result<()> {
    for (option, indices) in [("--ignore", ignored), ("--categorical", declared)] {
        for &index in indices {
            let name = &table.header[index];
            if index == target_index {
                return Err(Error::parameter(
                    option,
                    format!("`{name}` is the label column"),
                ));
            }
            if Some(index) == weight_index {
                return Err(Error::parameter(
                    option,
                    format!("`{name}` is the weight column"),
                ));
            }
        }
    }
    if let Some(&both) = declared.iter().find(|i| ignored.contains(i)) {
        return Err(Error::parameter(
            "--categorical",
            format!("`{}` is also left out with --ignore", table.header[both]),
        ));
    }
    Ok(())
}

/// Refuses a table left without a feature column: `used` columns, of which the label and the
/// weights (when `weighted`) are not features; `ignoring` says whether `--ignore` left some
/// out.
fn check_features_left(
    table: &RawTable,
    used: usize,
    weighted: bool,
    ignoring: bool,
) -> Result<()> {
    if used > 1 + usize::from(weighted) {
        return Ok(());
    }
    if ignoring {
        return Err(Error::input(
            &table.path,
            "every feature column is left out with --ignore",
        ));
    }
    Err(Error::input(
        &table.path,
        if weighted {
            "the file has no feature column besides the label and the weights"
        } else {
            "the file has only one column: there is no feature column besides the label"
        },
    ))
}

/// The classes of the label column `target_index` (sorted, each spelling of a number read
/// as one class) and each record's class; at least two classes.
fn read_labels(table: &RawTable, target_index: usize) -> Result<(Vec<String>, Vec<usize>)> {
    let spellings = class_spellings(
        table
            .records
            .iter()
            .map(|(_, cells)| cells[target_index].as_str()),
    );
    let label_texts: BTreeSet<&str> = spellings.values().copied().collect();
    let classes = sorted_classes(&label_texts);
    if classes.len() < 2 {
        return Err(Error::input(
            &table.path,
            format!(
                "the label column `{}` has only one class (`{}`); a classifier needs at least two",
                table.header[target_index], classes[0]
            ),
        ));
    }
    let class_index: HashMap<&str, usize> = classes
        .iter()
        .enumerate()
        .map(|(i, label)| (label.as_str(), i))
        .collect();
    let mut labels = Vec::with_capacity(table.records.len());
    for (_, cells) in &table.records {
        let label = cells[target_index].as_str();
        let class = spellings
            .get(label)
            .and_then(|spelling| class_index.get(spelling))
            .copied()
            .ok_or_else(|| Error::Internal(format!("label `{label}` has no class")))?;
        labels.push(class);
    }
    Ok((classes, labels))
}

/// Drops the records whose label cell is missing, returning the warning that gives the count; with
/// `missing.strict`, refuses the first one instead. Fails when no labelled row is left.
fn drop_unlabelled_rows(
    table: &mut RawTable,
    target: usize,
    missing: &MissingValues,
) -> Result<Option<String>> {
    let unlabelled = |cells: &Vec<String>| missing.is_missing(&cells[target]);
    let Some((line, _)) = table.records.iter().find(|(_, cells)| unlabelled(cells)) else {
        return Ok(None);
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
    Ok(Some(format!(
        "{}: {dropped} row{} with a missing label (column `{}`) dropped",
        table.path,
        if dropped == 1 { "" } else { "s" },
        table.header[target]
    )))
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

/// Reads data for prediction against a tree's `schema` and `classes`, with the field
/// delimiter of `options` (the other column options do not apply: the schema says how each
/// column is read).
///
/// Columns are matched by name: they may come in any order and columns the tree does not read
/// are passed over; the label column and the weight column may be left out (then no labels, or
/// no weights, are returned), and any other column of the tree missing is an error naming it.
/// Category values the training data did not have are encoded as all zeros (every split on
/// their column sends them the `!=` way) and listed in the second return value. A cell
/// `missing` recognises is `NaN` in a feature; a missing label cell is refused (an error naming
/// its line), since its row would have no label to be scored against.
pub fn read_for_schema(
    path: &Path,
    schema: &Schema,
    classes: &[String],
    options: &ColumnOptions,
    missing: &MissingValues,
) -> Result<(Observations, Vec<UnseenCategory>)> {
    let table = read_raw(path, options.delimiter_for(path))?;
    let position: HashMap<&str, usize> = table
        .header
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let optional = |kind: &ColumnKind| matches!(kind, ColumnKind::Target | ColumnKind::Weight);
    let mut columns: Vec<(usize, &Column)> = Vec::new();
    let mut absent: Vec<&str> = Vec::new();
    for column in &schema.columns {
        match position.get(column.name.as_str()) {
            Some(&index) => columns.push((index, column)),
            None if optional(&column.kind) => {}
            None => absent.push(&column.name),
        }
    }
    if !absent.is_empty() {
        let plural = if absent.len() == 1 { "" } else { "s" };
        return Err(Error::TreeMismatch(format!(
            "{} has no column{plural} named {}, which the tree reads; its columns are: {}",
            table.path,
            absent
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", "),
            table.header.join(", ")
        )));
    }
    let used: Vec<usize> = columns.iter().map(|&(index, _)| index).collect();
    check_cells(&table, &used, missing)?;
    let target_index = columns
        .iter()
        .find(|(_, c)| c.kind == ColumnKind::Target)
        .map(|&(index, _)| index);
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
        .find(|(_, c)| c.kind == ColumnKind::Weight)
        .map(|&(index, _)| read_weights(&table, index))
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
            labels: target_index.is_some().then_some(labels),
            weights,
            classes: all_classes,
        },
        unseen,
    ))
}
