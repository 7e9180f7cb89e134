//! `scoredesk-server sheets scan DIR --customer N --batch N`: a print batch's
//! scanned answer sheets read back (scoredesk-sheets), each attempt's pages made
//! into an upload file (documents::sheet_upload) and stored through the checks of
//! `POST AnswerUploads`, so nothing a scanner reads bypasses them. A page of
//! another area or batch is refused; an attempt with an unsure mark, or a short
//! answer's box with writing in it, is held until a person decides the mark or
//! types the writing (`--decisions FILE`, with `--crops DIR` to see the boxes; or
//! the desktop's Sheets screen).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use scoredesk_sheets::layout::{bubble_label, Shape};
use scoredesk_sheets::pdf::{is_pdf, page_images};
use scoredesk_sheets::{
    assemble, read_batch_page, DoubtReason, MarkKind, PageReading, SheetQuestion, Verdict,
};

use crate::documents::answer_sheets::sheet_questions;
use crate::documents::sheet_upload::upload_file;
use crate::model::area::CustomerArea;
use crate::store::{Store, UploadWriter};
use crate::uploads::{self, Refusal, SnapshotCache};

#[derive(Subcommand)]
pub enum SheetsCommand {
    /// Read the scanned sheets in DIR (PNG, JPEG or TIFF, one page a file, and
    /// scanners' PDFs), or in one PDF, and upload each attempt's answers.
    Scan {
        dir: PathBuf,
        #[arg(long)]
        customer: i32,
        #[arg(long)]
        batch: i32,
        /// A person's decisions on unsure marks, as JSON:
        /// `{"<attempt>": {"<question>": [<choice>, ...]}}` (`[]`: no choice); a
        /// matching's row as `"<question>.<row>"`; a short answer as the words
        /// read in its box, `{"<attempt>": {"<question>": "<words>"}}` (`""`:
        /// nothing written), a blank's as `"<question>.<blank>"`.
        #[arg(long)]
        decisions: Option<PathBuf>,
        /// A folder to write each short answer's box into, as
        /// `attempt-<attempt>-question-<question>.png`, for a person to read
        /// before typing it in the decisions.
        #[arg(long)]
        crops: Option<PathBuf>,
    },
}

/// A person's decision on one question: the choices they see marked, or the
/// words they read in a short answer's box.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Decision {
    Choices(Vec<i32>),
    Typed(String),
}

/// `{attempt: {question or question.row: decision}}`.
type Decisions = BTreeMap<i32, BTreeMap<String, Decision>>;

/// `3` (a question) or `3.2` (its row 2) as `(question, part)`, part 0 for none.
fn doubt_key(key: &str) -> Option<(i32, i32)> {
    match key.split_once('.') {
        None => Some((key.trim().parse().ok()?, 0)),
        Some((question, part)) => {
            let part: i32 = part.trim().parse().ok()?;
            (part > 0).then_some((question.trim().parse().ok()?, part))
        }
    }
}

const SCAN_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "tif", "tiff"];

pub async fn run(store: &Store, command: SheetsCommand) -> anyhow::Result<()> {
    let SheetsCommand::Scan {
        dir,
        customer,
        batch,
        decisions,
        crops,
    } = command;
    let area = CustomerArea::new(customer)
        .ok_or_else(|| anyhow::anyhow!("{customer} is not a customer area ID"))?;
    let decisions: Decisions = match decisions {
        None => Decisions::new(),
        Some(path) => serde_json::from_slice(
            &std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?,
        )
        .with_context(|| {
            format!(
                "{}: not decisions as `{{\"<attempt>\": {{\"<question>\": [<choice>] or \"<words>\"}}}}`",
                path.display()
            )
        })?,
    };
    let snapshots = SnapshotCache::new(16);
    let writer = UploadWriter::new(store.clone());
    let sheets = store
        .batch_sheets(area, batch)
        .await?
        .ok_or_else(|| anyhow::anyhow!("customer area {customer} has no print batch {batch}"))?;
    let paper = store
        .snapshot_paper(area, sheets.snapshot_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the batch's snapshot {} is gone", sheets.snapshot_id))?;
    let questions: Vec<_> = paper.questions.into_iter().map(|(q, _)| q).collect();
    let questions = sheet_questions(&questions);
    if let Some(dir) = &crops {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }

    // A PDF's pages are taken out here, and go when the run ends.
    let pdf_pages = tempfile::tempdir().context("a temporary folder for PDF pages")?;
    let (files, unreadable) = scans_at(&dir, pdf_pages.path())?;
    for refusal in &unreadable {
        println!("{refusal}");
    }
    let bar = ProgressBar::new(files.len() as u64).with_style(
        ProgressStyle::with_template("reading [{bar:40}] {pos}/{len} pages ({per_sec})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let read: Vec<(ScanFile, Result<PageReading, String>)> = tokio::task::spawn_blocking({
        let bar = bar.clone();
        let questions = questions.clone();
        move || {
            files
                .into_par_iter()
                .map(|file| {
                    let page = read_page(&file.path, &questions, area.id(), batch);
                    bar.inc(1);
                    (file, page)
                })
                .collect()
        }
    })
    .await?;
    bar.finish_and_clear();

    let mut refused_pages = unreadable.len();
    let mut by_attempt: BTreeMap<i32, Vec<PageReading>> = BTreeMap::new();
    for (file, page) in read {
        match page {
            Ok(page) => by_attempt.entry(page.code.attempt).or_default().push(page),
            Err(message) => {
                refused_pages += 1;
                println!("{}: refused: {message}", file.name);
            }
        }
    }
    let (mut uploaded, mut held, mut failed) = (0, 0, 0);
    // Decisions that no longer apply (a question no longer in doubt, one that
    // has no such choice): each reported, and the run goes on.
    let mut passed_over = 0;
    for (attempt, pages) in &by_attempt {
        let mut reading = match assemble(&questions, pages) {
            Ok(reading) => reading,
            Err(error) => {
                failed += 1;
                println!("attempt {attempt}: not uploaded: {error}");
                continue;
            }
        };
        for (key, decision) in decisions.get(attempt).into_iter().flatten() {
            let Some((question, part)) = doubt_key(key) else {
                passed_over += 1;
                println!(
                    "attempt {attempt}: --decisions '{key}' passed over: not a question (3) or a row of one (3.2)"
                );
                continue;
            };
            let applied = match decision {
                Decision::Choices(choices) => reading.resolve_part(question, part, choices.clone()),
                Decision::Typed(words) => reading.transcribe_part(question, part, words),
            };
            if let Err(error) = applied {
                passed_over += 1;
                println!("attempt {attempt}: --decisions '{key}' passed over: {error}");
            }
        }
        if !reading.is_decided() {
            held += 1;
            for written in &reading.written {
                let crop = match &crops {
                    Some(dir) => {
                        let blank = if written.part > 0 {
                            format!("-blank-{}", written.part)
                        } else {
                            String::new()
                        };
                        let file = dir.join(format!(
                            "attempt-{attempt}-question-{}{blank}.png",
                            written.question
                        ));
                        std::fs::write(&file, &written.png)
                            .with_context(|| format!("writing {}", file.display()))?;
                        format!("its box is {}", file.display())
                    }
                    None => "--crops DIR writes its box out".to_owned(),
                };
                let blank = if written.part > 0 {
                    format!(", blank {}", written.part)
                } else {
                    String::new()
                };
                println!(
                    "attempt {attempt}: question {}{blank} (page {}) is a short answer to type: {crop}",
                    written.question, written.page
                );
            }
            for doubt in &reading.doubts {
                let row = if doubt.part > 0 {
                    format!(", row {}", doubt.part)
                } else {
                    String::new()
                };
                println!(
                    "attempt {attempt}: question {}{row} (page {}) is unsure: {}",
                    doubt.question,
                    doubt.page,
                    describe(doubt, &questions)
                );
            }
            continue;
        }
        let file = upload_file(batch, &reading).map_err(anyhow::Error::msg)?;
        let body = bytes::Bytes::from(serde_json::to_vec(&file)?);
        let stored = match uploads::check(store, &snapshots, area, body).await {
            Ok(upload) => uploads::record(&writer, upload).await,
            Err(error) => Err(error),
        };
        match stored {
            Ok(()) => {
                uploaded += 1;
                println!("attempt {attempt}: uploaded");
            }
            Err(Refusal::Conflict(message)) => {
                println!("attempt {attempt}: already uploaded: {message}")
            }
            Err(error) => {
                failed += 1;
                println!("attempt {attempt}: refused: {error}");
            }
        }
    }
    let passed = if passed_over > 0 {
        format!("; {passed_over} decisions passed over")
    } else {
        String::new()
    };
    println!(
        "{} attempts: {uploaded} uploaded, {held} held for a person's decision, {failed} refused; {refused_pages} pages refused{passed}",
        by_attempt.len()
    );
    if held + failed + refused_pages > 0 {
        bail!("not every attempt was uploaded");
    }
    Ok(())
}

/// A scan to read: how messages name it, and its file.
struct ScanFile {
    name: String,
    path: PathBuf,
}

/// The scans at `path`, a folder (its images and PDFs, in name order) or one
/// PDF: each PDF's pages taken out into `pdf_pages` and named by their page
/// ("batch.pdf, page 3"). The second list: each PDF that could not be read, as
/// its refusal.
fn scans_at(path: &Path, pdf_pages: &Path) -> anyhow::Result<(Vec<ScanFile>, Vec<String>)> {
    let mut entries: Vec<PathBuf> = if path.is_dir() {
        std::fs::read_dir(path)
            .with_context(|| format!("reading {}", path.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| {
                is_pdf(path)
                    || path
                        .extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| SCAN_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
            })
            .collect()
    } else if is_pdf(path) {
        vec![path.to_owned()]
    } else {
        bail!("{} is neither a folder of scans nor a PDF", path.display());
    };
    entries.sort();
    let (mut files, mut unreadable) = (Vec::new(), Vec::new());
    for (index, entry) in entries.into_iter().enumerate() {
        if !is_pdf(&entry) {
            files.push(ScanFile {
                name: entry.display().to_string(),
                path: entry,
            });
            continue;
        }
        let into = pdf_pages.join(index.to_string());
        std::fs::create_dir_all(&into).with_context(|| format!("creating {}", into.display()))?;
        match page_images(&entry, &into) {
            Ok(pages) => files.extend(pages.into_iter().map(|(page, path)| ScanFile {
                name: format!("{}, page {page}", entry.display()),
                path,
            })),
            Err(error) => unreadable.push(format!("{}: refused: {error}", entry.display())),
        }
    }
    if files.is_empty() && unreadable.is_empty() {
        bail!(
            "{} holds no scans (PNG, JPEG or TIFF files, or PDFs)",
            path.display()
        );
    }
    Ok((files, unreadable))
}

/// One scan read against the batch's layout, or why it is refused.
fn read_page(
    file: &Path,
    questions: &[SheetQuestion],
    area: i32,
    batch: i32,
) -> Result<PageReading, String> {
    let bytes = std::fs::read(file).map_err(|error| error.to_string())?;
    read_batch_page(&bytes, questions, area, batch).map(|page| page.reading)
}

fn describe(doubt: &scoredesk_sheets::Doubt, questions: &[SheetQuestion]) -> String {
    let shape = questions
        .iter()
        .find(|q| q.order == doubt.question)
        .map_or(&Shape::Written, |q| &q.shape);
    let first = doubt.bubbles.iter().map(|b| b.choice).min().unwrap_or(1);
    let one = |b: &scoredesk_sheets::BubbleReading| {
        let label = bubble_label(shape, first, b.choice);
        format!("{label} (choice {}, {:.2})", b.choice, b.darkness)
    };
    let of = |verdict: Verdict| doubt.bubbles.iter().filter(move |b| b.verdict == verdict);
    let letters = |verdict: Verdict| -> Vec<String> { of(verdict).map(one).collect() };
    if let scoredesk_sheets::Doubted::Essay { .. } = &doubt.doubted {
        let ink = doubt.bubbles.first().map_or(0.0, |b| b.darkness);
        return format!(
            "a little ink in the essay's frame ({:.2} % of it): an answer (choice 1: [1]) or blank ([])?",
            ink * 100.0
        );
    }
    // A picture: its crosses, lettered left to right, where they are.
    if let scoredesk_sheets::Doubted::Picture { places } = &doubt.doubted {
        let marks: Vec<String> = places
            .iter()
            .enumerate()
            .map(|(index, (x, y))| {
                format!(
                    "{} (choice {}, at {x}, {y})",
                    bubble_label(shape, 1, index as i32 + 1),
                    index + 1
                )
            })
            .collect();
        let marks = if marks.is_empty() {
            "no cross".to_owned()
        } else {
            format!("crosses {}", marks.join(", "))
        };
        return match doubt.reason {
            DoubtReason::Faint => format!("ink on the picture that is no cross; {marks}"),
            DoubtReason::SeveralMarks => format!("at most {} places, {marks}", doubt.most),
        };
    }
    match doubt.reason {
        // A faint fill as before; a tick, a cross or strokes the reader could
        // not be sure of by their name.
        DoubtReason::Faint
            if of(Verdict::Unsure)
                .all(|b| matches!(b.kind, MarkKind::Faint | MarkKind::Nothing)) =>
        {
            format!("a faint mark on {}", letters(Verdict::Unsure).join(", "))
        }
        DoubtReason::Faint => {
            let named: Vec<String> = of(Verdict::Unsure)
                .map(|b| format!("{} on {}", b.kind.words(), one(b)))
                .collect();
            format!("not sure of {}", named.join(", "))
        }
        DoubtReason::SeveralMarks => format!(
            "one choice allowed, marked {}",
            letters(Verdict::Marked).join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::doubt_key;

    #[test]
    fn a_decision_names_a_question_or_a_row_of_one() {
        assert_eq!(doubt_key("3"), Some((3, 0)));
        assert_eq!(doubt_key("12.2"), Some((12, 2)));
        assert_eq!(doubt_key("3.0"), None);
        assert_eq!(doubt_key("3.x"), None);
        assert_eq!(doubt_key("three"), None);
    }
}
