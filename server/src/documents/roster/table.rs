//! One CSV file of a roster read as a table: its header, then its rows with their
//! line numbers. UTF-8 with or without a byte-order mark, fields quoted as RFC 4180
//! has them (a comma or a line break inside quotes). A file too large, a field not
//! in UTF-8, a row of another width or a missing column is a problem naming the
//! file, line and column.

use std::collections::HashMap;

use crate::model::roster::{Place, RosterProblem};

/// The largest CSV file a roster may have: about 400,000 students' users.csv.
/// Larger files are refused before they are read, so memory stays bounded.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// A CSV file read whole.
pub struct Table {
    file: String,
    columns: HashMap<String, usize>,
    header: Vec<String>,
    rows: Vec<(u64, Vec<String>)>,
}

/// A row of a table, with where it was read.
pub struct Row<'a> {
    table: &'a Table,
    pub place: Place,
    fields: &'a [String],
}

impl Table {
    /// Reads `bytes` as the CSV file `file`.
    pub fn read(file: &str, bytes: &[u8]) -> Result<Table, RosterProblem> {
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large(file, bytes.len() as u64));
        }
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(bytes);
        let mut header: Option<Vec<String>> = None;
        let mut rows = Vec::new();
        for record in reader.byte_records() {
            let record = record.map_err(|e| malformed(file, &e))?;
            let line = record.position().map(|p| p.line()).unwrap_or(0);
            let names = header.as_deref();
            let mut fields = Vec::with_capacity(record.len());
            for (index, field) in record.iter().enumerate() {
                let column = names
                    .and_then(|h| h.get(index).cloned())
                    .unwrap_or_else(|| format!("{}", index + 1));
                let text = std::str::from_utf8(field).map_err(|_| {
                    RosterProblem::at(
                        &Place {
                            file: file.to_owned(),
                            line,
                        },
                        &column,
                        "is not UTF-8 text (save the file as UTF-8)",
                    )
                })?;
                fields.push(text.to_owned());
            }
            match &header {
                None => {
                    // Exports seen in the wild end their header with empty names
                    // ("orgSourcedId,,"): those columns are no columns.
                    let mut names: Vec<String> =
                        fields.iter().map(|f| f.trim().to_owned()).collect();
                    while names.last().is_some_and(String::is_empty) {
                        names.pop();
                    }
                    header = Some(names);
                }
                Some(names) => {
                    // A blank line is no row.
                    if fields.len() == 1 && fields[0].trim().is_empty() {
                        continue;
                    }
                    // Empty fields past the header's end are the same sloppiness.
                    while fields.len() > names.len()
                        && fields.last().is_some_and(|f| f.trim().is_empty())
                    {
                        fields.pop();
                    }
                    if fields.len() != names.len() {
                        return Err(RosterProblem {
                            file: file.to_owned(),
                            line: Some(line),
                            column: None,
                            message: format!(
                                "has {} fields where the header has {}",
                                fields.len(),
                                names.len()
                            ),
                        });
                    }
                    rows.push((line, fields));
                }
            }
        }
        let header = header
            .ok_or_else(|| RosterProblem::in_file(file, "is empty: a header line is needed"))?;
        let columns = header
            .iter()
            .enumerate()
            .map(|(index, name)| (name.to_ascii_lowercase(), index))
            .collect();
        Ok(Table {
            file: file.to_owned(),
            columns,
            header,
            rows,
        })
    }

    /// Checks that the header has every one of `names`.
    pub fn require(&self, names: &[&str]) -> Result<(), RosterProblem> {
        let missing: Vec<&str> = names
            .iter()
            .copied()
            .filter(|name| !self.columns.contains_key(&name.to_ascii_lowercase()))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(RosterProblem {
            file: self.file.clone(),
            line: Some(1),
            column: None,
            message: format!(
                "has no column {} (its header: {})",
                missing.join(", "),
                self.header.join(",")
            ),
        })
    }

    /// Whether the header has column `name`.
    pub fn has(&self, name: &str) -> bool {
        self.columns.contains_key(&name.to_ascii_lowercase())
    }

    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(|(line, fields)| Row {
            table: self,
            place: Place {
                file: self.file.clone(),
                line: *line,
            },
            fields,
        })
    }
}

impl Row<'_> {
    /// The field of column `name` ("" when the header has no such column).
    pub fn get(&self, name: &str) -> &str {
        self.table
            .columns
            .get(&name.to_ascii_lowercase())
            .and_then(|&index| self.fields.get(index))
            .map(String::as_str)
            .unwrap_or("")
    }
}

pub fn too_large(file: &str, bytes: u64) -> RosterProblem {
    RosterProblem::in_file(
        file,
        format!(
            "is {} MB; a roster's file may be at most {} MB",
            bytes.div_ceil(1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
}

fn malformed(file: &str, error: &csv::Error) -> RosterProblem {
    let line = error.position().map(|p| p.line());
    RosterProblem {
        file: file.to_owned(),
        line,
        column: None,
        message: format!("is not CSV: {error}"),
    }
}
