//! A roster file read (docs/rosters.md): a OneRoster 1.0, 1.1 or 1.2 bulk CSV
//! export, as a zip or a folder (`manifest.csv`, `users.csv`, `classes.csv`,
//! `enrollments.csv`, and `roles.csv` where 1.2 has it), or a plain CSV
//! (`username,first_name,last_name,email,group`). Reading gives the records; the
//! rules that plan them are model::roster's.

#[cfg(test)]
mod corpus_more_tests;
#[cfg(test)]
mod corpus_tests;
mod oneroster;
mod table;

use std::io::Read;
use std::path::Path;

use crate::model::roster::{
    plan_oneroster, plan_plain, OneRosterExport, PlainRow, RosterPlan, RosterProblem,
};

pub use table::MAX_FILE_BYTES;
use table::{too_large, Table};

/// A roster's records, as read.
pub enum RosterSource {
    OneRoster(OneRosterExport),
    Plain(Vec<PlainRow>),
}

impl RosterSource {
    /// What the roster does, by model::roster's rules.
    pub fn plan(&self) -> Result<RosterPlan, RosterProblem> {
        match self {
            RosterSource::OneRoster(export) => plan_oneroster(export),
            RosterSource::Plain(rows) => plan_plain(rows),
        }
    }
}

/// Reads the roster at `path`: a folder or a zip is a OneRoster export, any other
/// file a plain CSV.
pub fn read_roster(path: &Path) -> Result<RosterSource, RosterProblem> {
    let shown = path.display().to_string();
    let metadata =
        std::fs::metadata(path).map_err(|e| RosterProblem::in_file(&shown, e.to_string()))?;
    if metadata.is_dir() {
        return oneroster::read(&mut |name| read_in_folder(path, name))
            .map(RosterSource::OneRoster);
    }
    // A zip is read entry by entry from the file (each entry bounded as it is
    // inflated), never whole: its size says nothing of what it holds.
    let mut file =
        std::fs::File::open(path).map_err(|e| RosterProblem::in_file(&shown, e.to_string()))?;
    let mut magic = [0u8; 4];
    let is_zip = file.read_exact(&mut magic).is_ok() && &magic == b"PK\x03\x04";
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(shown);
    if is_zip {
        let mut archive = zip::ZipArchive::new(file)
            .map_err(|e| RosterProblem::in_file(&name, format!("is not a readable zip: {e}")))?;
        return oneroster::read(&mut |entry| read_in_zip(&mut archive, entry))
            .map(RosterSource::OneRoster);
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_large(&name, metadata.len()));
    }
    let bytes = std::fs::read(path).map_err(|e| RosterProblem::in_file(&name, e.to_string()))?;
    read_plain(&name, &bytes).map(RosterSource::Plain)
}

/// A roster sent whole (the `ImportRoster` action): a zip is a
/// OneRoster export, anything else a plain CSV; `file` names it in messages.
pub fn read_roster_bytes(file: &str, bytes: Vec<u8>) -> Result<RosterSource, RosterProblem> {
    if bytes.len() as u64 > 8 * MAX_FILE_BYTES {
        return Err(too_large(file, bytes.len() as u64));
    }
    if bytes.starts_with(b"PK\x03\x04") {
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|e| RosterProblem::in_file(file, format!("is not a readable zip: {e}")))?;
        return oneroster::read(&mut |name| read_in_zip(&mut archive, name))
            .map(RosterSource::OneRoster);
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(file, bytes.len() as u64));
    }
    read_plain(file, &bytes).map(RosterSource::Plain)
}

/// The plain CSV's rows.
pub fn read_plain(file: &str, bytes: &[u8]) -> Result<Vec<PlainRow>, RosterProblem> {
    let table = Table::read(file, bytes)?;
    if table.has("sourcedId") {
        return Err(RosterProblem::in_file(
            file,
            "is a file of a OneRoster export: import the whole export (its zip or its folder)",
        ));
    }
    table.require(&["username"])?;
    let rows: Vec<PlainRow> = table
        .rows()
        .map(|row| PlainRow {
            username: row.get("username").to_owned(),
            first_name: row.get("first_name").to_owned(),
            last_name: row.get("last_name").to_owned(),
            email: row.get("email").to_owned(),
            group: row.get("group").to_owned(),
            place: row.place,
        })
        .collect();
    if rows.is_empty() {
        return Err(RosterProblem::in_file(file, "has no participant rows"));
    }
    Ok(rows)
}

/// A file of a folder export, if it is there.
fn read_in_folder(folder: &Path, name: &str) -> Result<Option<Vec<u8>>, RosterProblem> {
    let entries =
        std::fs::read_dir(folder).map_err(|e| RosterProblem::in_file(name, e.to_string()))?;
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .eq_ignore_ascii_case(name)
        {
            let length = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if length > MAX_FILE_BYTES {
                return Err(too_large(name, length));
            }
            return std::fs::read(entry.path())
                .map(Some)
                .map_err(|e| RosterProblem::in_file(name, e.to_string()));
        }
    }
    Ok(None)
}

/// A file of a zipped export (at its root, or in the one folder it holds), if it is there.
fn read_in_zip<R: Read + std::io::Seek>(
    archive: &mut zip::ZipArchive<R>,
    name: &str,
) -> Result<Option<Vec<u8>>, RosterProblem> {
    let found = (0..archive.len()).find(|&index| {
        archive.name_for_index(index).is_some_and(|entry| {
            let base = entry.rsplit('/').next().unwrap_or(entry);
            base.eq_ignore_ascii_case(name) && entry.matches('/').count() <= 1
        })
    });
    let Some(index) = found else { return Ok(None) };
    let entry = archive
        .by_index(index)
        .map_err(|e| RosterProblem::in_file(name, format!("cannot be read from the zip: {e}")))?;
    if entry.size() > MAX_FILE_BYTES {
        return Err(too_large(name, entry.size()));
    }
    // A zip may say less than it holds: never more than the limit is read.
    let mut bytes = Vec::new();
    entry
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| RosterProblem::in_file(name, format!("cannot be read from the zip: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(name, bytes.len() as u64));
    }
    Ok(Some(bytes))
}
