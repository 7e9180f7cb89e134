//! Scorers' drafts, kept on disk until the server has them. The UI writes every
//! change here (not to the web view's localStorage, which WebKit writes to disk
//! lazily, so that a crash or a killed app could lose the last minutes of work).
//! One file per task, replaced atomically: a crash mid-write leaves the previous
//! version whole. Each server (the built-in one, each remote one and area) has its
//! own folder, so that one server's drafts are never listed or resumed on another.

use std::path::{Path, PathBuf};
use ts_rs::TS;

use serde::Serialize;

use crate::error::CommandError;

const DRAFTS_DIR: &str = "drafts";

/// A kept draft as the UI wrote it: its key and its JSON text.
#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[ts(export)]
pub struct KeptDraft {
    pub key: String,
    pub text: String,
}

/// The drafts folder of a server, named after `scope` (see
/// `DesktopState::draft_scope`) with anything but letters and digits replaced.
pub fn folder(data_dir: &Path, scope: &str) -> PathBuf {
    let name: String = scope
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    data_dir.join(DRAFTS_DIR).join(name)
}

/// The file of a draft key; keys are `scoredesk.draft.<question>.<result>`, digits
/// only, so that a key can never name a path outside the drafts directory.
fn file_of(dir: &Path, key: &str) -> Result<PathBuf, CommandError> {
    let ids = key
        .strip_prefix("scoredesk.draft.")
        .filter(|ids| {
            let mut parts = ids.split('.');
            let numeric = |p: Option<&str>| {
                p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            };
            numeric(parts.next()) && numeric(parts.next()) && parts.next().is_none()
        })
        .ok_or_else(|| CommandError::InvalidInput(format!("'{key}' is not a draft key.")))?;
    Ok(dir.join(format!("{ids}.json")))
}

fn io_error(error: std::io::Error) -> CommandError {
    CommandError::Server(format!(
        "The draft could not be kept on this computer: {error}"
    ))
}

pub fn keep(dir: &Path, key: &str, text: &str) -> Result<(), CommandError> {
    let path = file_of(dir, key)?;
    std::fs::create_dir_all(dir).map_err(io_error)?;
    crate::private_file::write_private(&path, text).map_err(io_error)
}

pub fn forget(dir: &Path, key: &str) -> Result<(), CommandError> {
    match std::fs::remove_file(file_of(dir, key)?) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(io_error(error)),
        _ => Ok(()),
    }
}

pub fn all(dir: &Path) -> Vec<KeptDraft> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut drafts: Vec<KeptDraft> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let ids = name.strip_suffix(".json")?;
            let text = std::fs::read_to_string(entry.path()).ok()?;
            Some(KeptDraft {
                key: format!("scoredesk.draft.{ids}"),
                text,
            })
        })
        .collect();
    drafts.sort_by(|a, b| a.key.cmp(&b.key));
    drafts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_are_kept_replaced_listed_and_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        keep(dir.path(), "scoredesk.draft.12.3", "{\"a\":1}").unwrap();
        keep(dir.path(), "scoredesk.draft.12.3", "{\"a\":2}").unwrap();
        keep(dir.path(), "scoredesk.draft.7.1", "{}").unwrap();
        assert_eq!(
            all(dir.path()),
            vec![
                KeptDraft {
                    key: "scoredesk.draft.12.3".into(),
                    text: "{\"a\":2}".into()
                },
                KeptDraft {
                    key: "scoredesk.draft.7.1".into(),
                    text: "{}".into()
                },
            ]
        );
        forget(dir.path(), "scoredesk.draft.12.3").unwrap();
        forget(dir.path(), "scoredesk.draft.12.3").unwrap();
        assert_eq!(all(dir.path()).len(), 1);
    }

    #[test]
    fn each_server_has_its_own_drafts() {
        let data = tempfile::tempdir().unwrap();
        let built_in = folder(data.path(), "embedded");
        let remote = folder(data.path(), "remote http://scoring.test:8080/#3");
        keep(&built_in, "scoredesk.draft.12.3", "{}").unwrap();
        assert_eq!(all(&built_in).len(), 1);
        assert!(
            all(&remote).is_empty(),
            "another server's drafts are not listed"
        );
        assert!(remote.starts_with(data.path().join(DRAFTS_DIR)));
        assert_eq!(
            remote.file_name().unwrap(),
            "remote_http___scoring_test_8080__3"
        );
    }

    #[test]
    fn a_key_cannot_name_another_path() {
        let dir = tempfile::tempdir().unwrap();
        for key in [
            "scoredesk.draft.../x",
            "scoredesk.draft.1",
            "other.1.2",
            "scoredesk.draft.1.2.3",
            "scoredesk.draft.1./2",
        ] {
            assert!(keep(dir.path(), key, "{}").is_err(), "{key}");
        }
    }
}
