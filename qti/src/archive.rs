//! The zip, read safely: its central directory checked before anything is
//! decompressed, and every member read with a bound that holds whatever the member's
//! header claims (a zip bomb stops at the bound, not at the end of memory).

use std::collections::HashMap;
use std::io::{Cursor, Read};

use crate::error::PackageError;
use crate::limits;
use crate::names;

pub struct Archive<'a> {
    zip: zip::ZipArchive<Cursor<&'a [u8]>>,
    /// Member path → the entry's index.
    members: HashMap<String, usize>,
    /// Uncompressed bytes read so far, against [`limits::MAX_TOTAL_BYTES`].
    read_so_far: u64,
}

impl<'a> Archive<'a> {
    pub fn open(bytes: &'a [u8]) -> Result<Self, PackageError> {
        if bytes.len() > limits::MAX_PACKAGE_BYTES {
            return Err(PackageError::package(format!(
                "{} bytes; a package of at most {} bytes is accepted",
                bytes.len(),
                limits::MAX_PACKAGE_BYTES
            )));
        }
        if let Some(entries) = declared_entries(bytes) {
            if entries > limits::MAX_ENTRIES {
                return Err(PackageError::package(format!(
                    "{entries} entries; a package of at most {} is accepted",
                    limits::MAX_ENTRIES
                )));
            }
        }
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|error| {
            PackageError::package(format!("not a zip file that can be read ({error})"))
        })?;
        // The zip crate keeps one entry per name: a second entry of a name (which
        // another reader might take instead) shows only in the directory's count.
        if let Some(name) = declared_entries(bytes)
            .filter(|declared| *declared != zip.len())
            .and_then(|_| duplicate_name(bytes))
        {
            return Err(PackageError::new(
                name,
                "the package holds two entries of this name",
            ));
        }
        if zip.len() > limits::MAX_ENTRIES {
            return Err(PackageError::package(format!(
                "{} entries; a package of at most {} is accepted",
                zip.len(),
                limits::MAX_ENTRIES
            )));
        }
        let mut members = HashMap::new();
        for index in 0..zip.len() {
            let entry = zip.by_index_raw(index).map_err(|error| {
                PackageError::package(format!("entry {index} cannot be read ({error})"))
            })?;
            let name = entry.name().to_owned();
            if entry.is_dir() {
                continue;
            }
            if entry.encrypted() {
                return Err(PackageError::new(name, "the entry is encrypted"));
            }
            let path = names::entry_path(&name)
                .map_err(|problem| PackageError::new(&name, problem.describe()))?;
            if members.insert(path, index).is_some() {
                return Err(PackageError::new(
                    name,
                    "the package holds two entries of this name",
                ));
            }
        }
        Ok(Self {
            zip,
            members,
            read_so_far: 0,
        })
    }

    pub fn contains(&self, path: &str) -> bool {
        self.members.contains_key(path)
    }

    /// The member at `path`, uncompressed, if it is at most `limit` bytes.
    pub fn read(&mut self, path: &str, limit: u64) -> Result<Vec<u8>, PackageError> {
        let index = *self
            .members
            .get(path)
            .ok_or_else(|| PackageError::new(path, "the package has no such file"))?;
        let too_large = || {
            PackageError::new(
                path,
                format!("larger than {limit} bytes uncompressed, the most accepted for this file"),
            )
        };
        let entry = self
            .zip
            .by_index(index)
            .map_err(|error| PackageError::new(path, format!("cannot be read ({error})")))?;
        if entry.size() > limit {
            return Err(too_large());
        }
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        // The header's size is only a claim: the bound is on what is read.
        entry
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|error| PackageError::new(path, format!("cannot be read ({error})")))?;
        if bytes.len() as u64 > limit {
            return Err(too_large());
        }
        self.read_so_far += bytes.len() as u64;
        if self.read_so_far > limits::MAX_TOTAL_BYTES {
            return Err(PackageError::package(format!(
                "more than {} bytes uncompressed in all",
                limits::MAX_TOTAL_BYTES
            )));
        }
        Ok(bytes)
    }
}

/// The start of the end-of-central-directory record.
fn end_record(bytes: &[u8]) -> Option<usize> {
    const SIGNATURE: [u8; 4] = [0x50, 0x4b, 0x05, 0x06];
    const RECORD: usize = 22;
    let earliest = bytes.len().saturating_sub(RECORD + u16::MAX as usize);
    (earliest..=bytes.len().checked_sub(RECORD)?)
        .rev()
        .find(|&at| bytes[at..at + 4] == SIGNATURE)
}

/// The first name the central directory lists twice, walking its fixed-size
/// headers (only when the zip crate's count says there is one).
fn duplicate_name(bytes: &[u8]) -> Option<String> {
    let u16_at =
        |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?) as usize);
    let u32_at =
        |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize);
    let end = end_record(bytes)?;
    let mut at = u32_at(end + 16)?;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..u16_at(end + 10)? {
        let name_length = u16_at(at + 28)?;
        let name = bytes.get(at + 46..at + 46 + name_length)?;
        let name = String::from_utf8_lossy(name).into_owned();
        if !seen.insert(name.clone()) {
            return Some(name);
        }
        at += 46 + name_length + u16_at(at + 30)? + u16_at(at + 32)?;
    }
    None
}

/// The number of entries the end-of-central-directory record declares, read before
/// the zip crate builds its directory (which costs memory per entry). `None` when
/// there is no such record (the zip crate then refuses the file) or it is ZIP64's
/// placeholder (the directory's own length is then checked after reading).
fn declared_entries(bytes: &[u8]) -> Option<usize> {
    let start = end_record(bytes)?;
    let total = u16::from_le_bytes([bytes[start + 10], bytes[start + 11]]);
    (total != u16::MAX).then_some(total as usize)
}
