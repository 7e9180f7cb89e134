//! Scanned answer sheets read back on this computer (docs/paper-sheets.md): the
//! scans chosen (files or folders), read against the batch's sheet layout (the
//! snapshot's document gives the questions), pages of another area or batch
//! refused by name, each attempt's pages put together; what the reader was unsure
//! of kept with a crop of the question's row for the coordinator to decide, and
//! each short answer's box with writing in it for them to type. An attempt goes
//! up as an upload file (documents::sheet_upload) through `AnswerUploads` only
//! once every doubt is decided and every short answer typed; nothing is guessed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rayon::prelude::*;
use scoredesk_server::documents::answer_sheets::sheet_questions_of_snapshot;
use scoredesk_server::documents::sheet_upload::upload_file;
use scoredesk_sheets::{
    assemble, layout::bubble_label, layout::Shape, read_batch_page, recognise::marking_in_words,
    DoubtReason, Doubted, PageReading, SheetQuestion, Verdict,
};
use serde::Serialize;

use super::scan_files::scan_files;
use ts_rs::TS;

pub use super::sheet_decisions::HeldSheets;
use super::uploads::{upload_answers, UploadOutcome};
use crate::client::ODataClient;
use crate::error::CommandError;
use crate::literals::int64_key;

/// A doubt's crop: about 200 dpi, enough to see a pencil's trace.
const CROP_PX_PER_MM: f32 = 8.0;

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SheetBubble {
    pub choice: i32,
    pub label: String,
    /// 0 (paper) to 1 (ink).
    pub darkness: f32,
    /// `marked`, `blank` or `unsure`.
    pub verdict: String,
    /// What its ink looks like, in words: "a tick", "a faint fill", "nothing".
    pub kind: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SheetDoubt {
    pub attempt_id: i32,
    pub question: i32,
    /// A matching's row in doubt, or a blank to decide or type (the upload's
    /// PartNumber); 0 for a choice question or a short answer.
    pub part: i32,
    /// The part is a fill-in-the-blanks question's blank (picked from its list
    /// or typed), not a matching's row.
    pub blank: bool,
    pub page: u16,
    pub single: bool,
    /// A point question's picture: its bubbles are the crosses found on it,
    /// ringed and lettered on the crop, of which the person picks those that
    /// count.
    pub picture: bool,
    /// An essay's frame with a little ink (the crop): its one bubble (A) picked
    /// sends it to a scorer as an answer; none leaves it blank.
    pub essay: bool,
    /// `faint`, `severalMarks`, or `written`: a short answer's box with writing
    /// in it, for the coordinator to type (no bubbles).
    pub reason: String,
    pub bubbles: Vec<SheetBubble>,
    /// How the participant marked the rest of the sheet ("14 ticks and 1
    /// fill"): their way of marking, to judge this one by.
    pub elsewhere: String,
    /// The question's row on the scan (a short answer: its box), straightened, as
    /// a `data:image/png` URL.
    pub crop: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SheetAttempt {
    pub attempt_id: i32,
    pub pages: u16,
    /// Why the attempt cannot go up at all (a page missing or scanned twice).
    pub problem: Option<String>,
    pub doubts: Vec<SheetDoubt>,
}

#[derive(Debug, Clone, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SheetScanReport {
    pub pages: u32,
    /// `file: why`, for each scan refused.
    pub refused: Vec<String>,
    pub attempts: Vec<SheetAttempt>,
}

#[derive(Debug, Serialize, PartialEq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SheetUpload {
    pub attempt_id: i32,
    pub outcome: UploadOutcome,
}

/// One page read, with a crop of each question row it is unsure of.
struct ReadPage {
    reading: PageReading,
    /// By `(question, part)`: a choice question's row, or a grid's row.
    crops: BTreeMap<(i32, i32), Vec<u8>>,
}

fn read_page(
    file: &PathBuf,
    questions: &[SheetQuestion],
    area: i32,
    batch: i32,
) -> Result<ReadPage, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot be read: {e}"))?;
    let read = read_batch_page(&bytes, questions, area, batch)?;
    let (scan, page, reading) = (read.scan, read.layout, read.reading);
    let mut crops = BTreeMap::new();
    let rows: std::collections::BTreeSet<(i32, i32)> = reading
        .bubbles
        .iter()
        .map(|b| (b.question, b.part))
        .collect();
    for (question, part) in rows {
        let bubbles = reading
            .bubbles
            .iter()
            .filter(|b| b.question == question && b.part == part);
        let unsure = bubbles.clone().any(|b| b.verdict == Verdict::Unsure);
        if unsure || bubbles.filter(|b| b.verdict == Verdict::Marked).count() > 1 {
            if let Some(row) = page.question_row(question, part) {
                crops.insert(
                    (question, part),
                    scan.crop_png(row, CROP_PX_PER_MM)
                        .map_err(|e| e.to_string())?,
                );
            }
        }
    }
    // A picture's marks, ringed and lettered as its doubt names them.
    for read in reading
        .places
        .iter()
        .filter(|p| p.unsure || !p.marks.is_empty())
    {
        if let Some(area) = page.pictures.iter().find(|a| a.question == read.question) {
            crops.insert(
                (read.question, 0),
                scan.lettered_picture_png(area, &read.marks)
                    .map_err(|e| e.to_string())?,
            );
        }
    }
    Ok(ReadPage { reading, crops })
}

/// The batch's sheet's questions, from the snapshot's document.
async fn batch_questions(
    client: &ODataClient,
    batch: &str,
) -> Result<Vec<SheetQuestion>, CommandError> {
    let read = client
        .get_json(
            &format!("PrintBatches({batch})"),
            &[("$select", "SnapshotID")],
        )
        .await?;
    let snapshot = read["SnapshotID"]
        .as_i64()
        .ok_or_else(|| CommandError::Server("The print batch names no snapshot.".into()))?;
    let document = client
        .get_media(&format!(
            "AssessmentSnapshots({snapshot})/AssessmentSnapshotData/$value"
        ))
        .await?;
    sheet_questions_of_snapshot(&document.bytes).map_err(CommandError::Server)
}

/// Reads the scans among `paths` for print batch `batch_id`, keeps the readings,
/// and reports them; `progress` hears of each page read.
pub async fn read_sheet_scans(
    client: &ODataClient,
    held: &HeldSheets,
    batch_id: &str,
    paths: Vec<String>,
    progress: impl Fn(u32, u32) + Send + Sync + 'static,
) -> Result<SheetScanReport, CommandError> {
    let batch_key = int64_key("Print batch", batch_id)?;
    let batch: i32 = batch_key.parse().map_err(|_| {
        CommandError::InvalidInput(format!("Print batch {batch_id} is not a batch number."))
    })?;
    let questions = batch_questions(client, &batch_key).await?;
    let area = client.customer_id;
    let for_pages = questions.clone();
    let (pages, mut refused) = tokio::task::spawn_blocking(move || {
        let mut refused = Vec::new();
        // A PDF's pages are taken out here, and go once they are read.
        let pdf_pages = tempfile::tempdir();
        let files = match &pdf_pages {
            Ok(dir) => scan_files(&paths, dir.path(), &mut refused),
            Err(error) => {
                refused.push(format!("A temporary folder for PDF pages: {error}"));
                Vec::new()
            }
        };
        let total = files.len() as u32;
        let done = std::sync::atomic::AtomicU32::new(0);
        let read: Vec<(String, Result<ReadPage, String>)> = files
            .into_par_iter()
            .map(|(name, file)| {
                let page = read_page(&file, &for_pages, area, batch);
                progress(
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                    total,
                );
                (name, page)
            })
            .collect();
        (read, refused)
    })
    .await
    .map_err(|e| CommandError::Server(format!("Reading the scans stopped: {e}")))?;
    let mut report = SheetScanReport {
        pages: 0,
        refused: Vec::new(),
        attempts: Vec::new(),
    };
    let mut by_attempt: BTreeMap<i32, Vec<ReadPage>> = BTreeMap::new();
    for (name, page) in pages {
        match page {
            Ok(page) => {
                report.pages += 1;
                by_attempt
                    .entry(page.reading.code.attempt)
                    .or_default()
                    .push(page);
            }
            Err(message) => refused.push(format!("{name}: {message}")),
        }
    }
    report.refused = refused;
    let mut kept = BTreeMap::new();
    for (attempt, pages) in by_attempt {
        let readings: Vec<PageReading> = pages.iter().map(|p| p.reading.clone()).collect();
        let count = readings.len() as u16;
        match assemble(&questions, &readings) {
            Ok(reading) => {
                let shape_of = |question: i32| {
                    questions
                        .iter()
                        .find(|q| q.order == question)
                        .map_or(&Shape::Written, |q| &q.shape)
                };
                let is_blank = |question| matches!(shape_of(question), Shape::Blanks { .. });
                let mut doubts: Vec<SheetDoubt> = reading
                    .doubts
                    .iter()
                    .map(|doubt| SheetDoubt {
                        attempt_id: attempt,
                        question: doubt.question,
                        part: doubt.part,
                        blank: is_blank(doubt.question),
                        page: doubt.page,
                        single: doubt.most == 1,
                        picture: matches!(doubt.doubted, Doubted::Picture { .. }),
                        essay: matches!(doubt.doubted, Doubted::Essay { .. }),
                        reason: match doubt.reason {
                            DoubtReason::Faint => "faint",
                            DoubtReason::SeveralMarks => "severalMarks",
                        }
                        .into(),
                        bubbles: lettered(shape_of(doubt.question), &doubt.bubbles),
                        elsewhere: marking_in_words(
                            readings
                                .iter()
                                .flat_map(|r| &r.bubbles)
                                .filter(|b| b.question != doubt.question),
                        ),
                        crop: match &doubt.doubted {
                            Doubted::Essay { png } => Some(png),
                            _ => pages
                                .iter()
                                .find_map(|p| p.crops.get(&(doubt.question, doubt.part))),
                        }
                        .map(|png| format!("data:image/png;base64,{}", STANDARD.encode(png)))
                        .unwrap_or_default(),
                    })
                    .collect();
                doubts.extend(reading.written.iter().map(|written| SheetDoubt {
                    attempt_id: attempt,
                    question: written.question,
                    part: written.part,
                    blank: written.part > 0,
                    page: written.page,
                    single: false,
                    picture: false,
                    essay: false,
                    reason: "written".into(),
                    bubbles: Vec::new(),
                    elsewhere: String::new(),
                    crop: format!("data:image/png;base64,{}", STANDARD.encode(&written.png)),
                }));
                // Down the sheet: question by question, a marks' row beside a box.
                doubts.sort_by_key(|doubt| (doubt.question, doubt.part));
                report.attempts.push(SheetAttempt {
                    attempt_id: attempt,
                    pages: count,
                    problem: None,
                    doubts,
                });
                kept.insert(attempt, reading);
            }
            Err(error) => report.attempts.push(SheetAttempt {
                attempt_id: attempt,
                pages: count,
                problem: Some(error.to_string()),
                doubts: Vec::new(),
            }),
        }
    }
    held.keep(batch, kept)?;
    Ok(report)
}

/// A row's bubbles, labelled as the sheet labels them: lettered from A (a
/// picked blank's options carry the snapshot's numbers, which go on from the
/// blanks before), a number's rows by their digits, point and minus.
fn lettered(shape: &Shape, bubbles: &[scoredesk_sheets::BubbleReading]) -> Vec<SheetBubble> {
    let first = bubbles.iter().map(|b| b.choice).min().unwrap_or(1);
    bubbles.iter().map(|b| bubble(shape, b, first)).collect()
}

fn bubble(shape: &Shape, reading: &scoredesk_sheets::BubbleReading, first: i32) -> SheetBubble {
    SheetBubble {
        choice: reading.choice,
        label: bubble_label(shape, first, reading.choice),
        darkness: reading.darkness,
        verdict: match reading.verdict {
            Verdict::Marked => "marked",
            Verdict::Blank => "blank",
            Verdict::Unsure => "unsure",
        }
        .into(),
        kind: reading.kind.words().into(),
    }
}

/// Uploads every attempt read whose doubts are all decided, each as its own upload
/// file; those that went in (or were already in) are let go.
pub async fn upload_sheet_readings(
    client: &ODataClient,
    held: &HeldSheets,
) -> Result<Vec<SheetUpload>, CommandError> {
    let files: Vec<(i32, Vec<u8>)> = held
        .decided()?
        .into_iter()
        .filter_map(|(batch, reading)| {
            let file = upload_file(batch, &reading).ok()?;
            Some((reading.attempt, serde_json::to_vec(&file).ok()?))
        })
        .collect();
    let mut outcomes = Vec::new();
    for (attempt, bytes) in files {
        let outcome = upload_answers(client, bytes).await;
        if matches!(
            outcome,
            UploadOutcome::Scored { .. } | UploadOutcome::Stored { .. }
        ) {
            held.let_go(attempt);
        }
        outcomes.push(SheetUpload {
            attempt_id: attempt,
            outcome,
        });
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use scoredesk_sheets::BubbleReading;

    #[test]
    fn a_rows_bubbles_are_lettered_from_a_as_the_sheet_letters_them() {
        let reading = |choice| BubbleReading {
            question: 1,
            part: 2,
            choice,
            darkness: 0.3,
            verdict: Verdict::Unsure,
            kind: scoredesk_sheets::MarkKind::Faint,
        };
        // A picked blank's options 4 and 5 of the snapshot: A and B on the sheet.
        let grid = Shape::Grid {
            parts: 2,
            options: 2,
        };
        let labels: Vec<(i32, String)> = lettered(&grid, &[reading(4), reading(5)])
            .into_iter()
            .map(|b| (b.choice, b.label))
            .collect();
        assert_eq!(labels, [(4, "A".to_owned()), (5, "B".to_owned())]);
        let first: Vec<String> = lettered(&grid, &[reading(1), reading(2), reading(3)])
            .into_iter()
            .map(|b| b.label)
            .collect();
        assert_eq!(first, ["A", "B", "C"]);
        // A number's row: its keys.
        let number = Shape::Number { positions: 6 };
        let keys: Vec<String> = lettered(
            &number,
            &[reading(1), reading(10), reading(11), reading(12)],
        )
        .into_iter()
        .map(|b| b.label)
        .collect();
        assert_eq!(keys, ["0", "9", ".", "-"]);
    }
}
