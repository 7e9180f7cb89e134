//! Answer files uploaded from this computer: chosen one by one or as a folder
//! (picked, dropped on the window, or typed), each posted as it is to
//! `AnswerUploads`, so the server's rules judge it, and its outcome read back:
//! the Result's score and band and the scoring tasks it opened, or the server's
//! message naming the bad field.
//!
//! Nothing is retried here: a file that could not be sent is reported as such,
//! and the coordinator retries it. A file the server stored but whose result could
//! not be read after is reported as stored, so it is never posted a second time.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::client::{ODataClient, RequestFailure};

/// The server's body limit (`max_body_bytes`): a larger file is refused here,
/// without sending it.
const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AnswerFile {
    pub path: String,
    pub name: String,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AnswerFiles {
    /// The `.json` files, folders' contents by name.
    pub files: Vec<AnswerFile>,
    /// What was left out, and why (another kind of file, a path that is not there).
    pub skipped: Vec<String>,
}

#[derive(Debug, Serialize, PartialEq, Eq, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum UploadOutcome {
    /// Stored and scored: the Result as the server computed it.
    Scored {
        attempt_id: String,
        result_id: String,
        total_score: Option<i64>,
        max_score: Option<i64>,
        band: Option<String>,
        /// Answers left for a scorer: one scoring task each.
        scoring_tasks: u32,
    },
    /// Stored, but its result could not be read after: not to be sent again.
    Stored { attempt_id: String, message: String },
    /// The server (or the file's own reading) refused it; nothing was stored.
    Refused { message: String },
    /// No answer from the server: it can be sent again.
    Unreachable { message: String },
}

/// The answer files among `paths`: a file is taken as it is, a folder for the
/// `.json` files directly in it.
pub fn answer_files(paths: &[String]) -> AnswerFiles {
    let mut found = AnswerFiles {
        files: Vec::new(),
        skipped: Vec::new(),
    };
    for path in paths.iter().map(PathBuf::from) {
        if path.is_dir() {
            match std::fs::read_dir(&path) {
                Ok(entries) => {
                    let mut inside: Vec<PathBuf> = entries
                        .filter_map(|entry| entry.ok().map(|e| e.path()))
                        .filter(|p| p.is_file())
                        .collect();
                    inside.sort();
                    for file in inside {
                        if is_json(&file) {
                            found.files.push(answer_file(&file));
                        } else {
                            found
                                .skipped
                                .push(format!("{}: not a .json file", name_of(&file)));
                        }
                    }
                }
                Err(error) => found.skipped.push(format!(
                    "{}: the folder cannot be read ({error})",
                    path.display()
                )),
            }
        } else if path.is_file() {
            found.files.push(answer_file(&path));
        } else {
            found
                .skipped
                .push(format!("{}: no such file or folder", path.display()));
        }
    }
    found
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("json"))
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn answer_file(path: &Path) -> AnswerFile {
    AnswerFile {
        path: path.display().to_string(),
        name: name_of(path),
    }
}

/// Posts one answer file and reads back what it made.
pub async fn upload_answer_file(client: &ODataClient, path: &str) -> UploadOutcome {
    match read_file(Path::new(path)).await {
        Ok(bytes) => upload_answers(client, bytes).await,
        Err(message) => UploadOutcome::Refused { message },
    }
}

/// Posts an upload file's bytes (a file read from disk, or one written from a
/// scanned answer sheet) and reads back what it made.
pub async fn upload_answers(client: &ODataClient, bytes: Vec<u8>) -> UploadOutcome {
    let upload = match client
        .post_bytes("AnswerUploads", bytes, "application/json")
        .await
    {
        Ok(upload) => upload,
        Err(RequestFailure::Unreachable(message)) => return UploadOutcome::Unreachable { message },
        Err(other) => {
            return UploadOutcome::Refused {
                message: other.message().to_owned(),
            }
        }
    };
    let Some(attempt) = upload["AttemptID"].as_i64() else {
        return UploadOutcome::Stored {
            attempt_id: String::new(),
            message: "The server's answer did not name the attempt.".into(),
        };
    };
    match result_of(client, attempt).await {
        Ok(outcome) => outcome,
        Err(failure) => UploadOutcome::Stored {
            attempt_id: attempt.to_string(),
            message: format!(
                "Stored, but its result could not be read: {}",
                failure.message()
            ),
        },
    }
}

async fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let size = tokio::fs::metadata(path)
        .await
        .map_err(|e| format!("The file cannot be read: {e}"))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "The file is {} MiB; the server takes at most {} MiB.",
            size / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    tokio::fs::read(path)
        .await
        .map_err(|e| format!("The file cannot be read: {e}"))
}

/// The Result an upload made: the attempt names it, and its answers without a
/// score are the scoring tasks it opened (spec: one per unscored answer).
async fn result_of(client: &ODataClient, attempt: i64) -> Result<UploadOutcome, RequestFailure> {
    let read = client
        .get_json(&format!("Attempts({attempt})"), &[])
        .await?;
    let Some(result) = read["ResultID"].as_i64() else {
        return Err(RequestFailure::Failed(format!(
            "Attempt {attempt} has no result."
        )));
    };
    let (entity, answers) = (
        format!("Results({result})"),
        format!("Results({result})/Answers"),
    );
    let (scores, answers) = futures::try_join!(
        client.get_json(
            &entity,
            &[("$select", "TotalScore,MaxScore,ScoreBandTitle")]
        ),
        client.get_all(&answers, &[("$select", "ActualScore")], usize::MAX),
    )?;
    Ok(UploadOutcome::Scored {
        attempt_id: attempt.to_string(),
        result_id: result.to_string(),
        total_score: scores["TotalScore"].as_i64(),
        max_score: scores["MaxScore"].as_i64(),
        band: scores["ScoreBandTitle"].as_str().map(str::to_owned),
        scoring_tasks: unscored(&answers),
    })
}

fn unscored(answers: &[Value]) -> u32 {
    answers
        .iter()
        .filter(|a| a["ActualScore"].is_null())
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_folder_gives_its_json_files_by_name_and_says_what_it_left() {
        let folder = tempfile::tempdir().unwrap();
        for name in ["b.json", "a.JSON", "notes.txt"] {
            std::fs::write(folder.path().join(name), "{}").unwrap();
        }
        std::fs::create_dir(folder.path().join("inner")).unwrap();
        let lone = folder.path().join("notes.txt").display().to_string();
        let missing = folder.path().join("gone.json").display().to_string();
        let found = answer_files(&[folder.path().display().to_string(), lone, missing]);
        let names: Vec<&str> = found.files.iter().map(|f| f.name.as_str()).collect();
        // A file named on its own is taken whatever its name: it was chosen.
        assert_eq!(names, ["a.JSON", "b.json", "notes.txt"]);
        assert_eq!(found.skipped.len(), 2, "{:?}", found.skipped);
        assert!(found.skipped[0].starts_with("notes.txt: not a .json file"));
        assert!(found.skipped[1].ends_with("gone.json: no such file or folder"));
    }

    #[test]
    fn the_unscored_answers_are_the_scoring_tasks() {
        let answers = [
            json!({"ActualScore": 1}),
            json!({"ActualScore": null}),
            json!({"ActualScore": 0}),
            json!({"ActualScore": null}),
        ];
        assert_eq!(unscored(&answers), 2);
    }
}
