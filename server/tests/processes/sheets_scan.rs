//! `scoredesk-server sheets scan` as an operator runs it (docs/paper-sheets.md), on
//! both databases: a folder of scanned sheets, printed through the real print path
//! and pencilled, read back. A page of another batch is refused by name, an attempt
//! with a missing page or an unsure mark is held and says why; with the
//! coordinator's decisions the attempts are uploaded, through the upload checks;
//! run again, nothing is uploaded twice.

use std::path::Path;
use std::process::Output;

use scoredesk_e2e::paper::{rng, scan, Damage};
use scoredesk_e2e::sheets::{deliver_paper, printed, scan_attempts, Style};
use scoredesk_e2e::{Backend, TestApp};
use serde_json::json;

use crate::scanning::{said, sheets_scan};

fn run(app: &TestApp, dir: &Path, batch: i64, decisions: Option<&Path>) -> Output {
    sheets_scan(app, dir, batch, decisions)
        .output()
        .expect("the binary runs")
}

async fn scanned_folder(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_paper(&app, 2).await;
    let (batch, attempts) = &delivery.batches[0];
    let (other_batch, _) = &delivery.batches[1];
    let print_dir = tempfile::tempdir().unwrap();
    let pages = printed(&app, *batch, print_dir.path()).await;
    let other_dir = tempfile::tempdir().unwrap();
    let other_pages = printed(&app, *other_batch, other_dir.path()).await;

    let scans = tempfile::tempdir().unwrap();
    let mut random = rng(7);
    let (mut files, decisions) = scan_attempts(
        Style::Fill,
        &delivery,
        &pages,
        &attempts[..2],
        300.0,
        &mut random,
        scans.path(),
    );
    assert!(!decisions.is_empty(), "the pencil left something unsure");
    // A page of the other batch, and a note the scanner software wrote.
    let foreign = scans.path().join("scan-other.png");
    std::fs::write(
        &foreign,
        scan(&other_pages[0].1, Damage::random(&mut random, 150.0), 1),
    )
    .unwrap();
    std::fs::write(scans.path().join("notes.txt"), "batch scanned on Tuesday").unwrap();
    // The second attempt's second page is not there yet.
    let late = files.pop().unwrap();
    let kept_aside = print_dir.path().join("late.jpg");
    std::fs::rename(&late, &kept_aside).unwrap();

    let first = run(&app, scans.path(), *batch, None);
    let text = said(&first);
    assert!(!first.status.success(), "{text}");
    assert!(
        text.contains(&format!("scan-other.png: refused: the page belongs to print batch {other_batch}, not to print batch {batch}")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "attempt {}: not uploaded: attempt {}: page 2 of 2 is missing",
            attempts[1], attempts[1]
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("attempt {}: question", attempts[0])) && text.contains("is unsure"),
        "{text}"
    );
    assert!(
        !text.contains("uploaded\n") || text.contains("0 uploaded"),
        "{text}"
    );
    let results = format!(
        "SELECT COUNT(*) FROM attempts WHERE id IN ({}, {}) AND result_id IS NOT NULL",
        attempts[0], attempts[1]
    );
    assert_eq!(
        app.sql_i64(&results).await,
        0,
        "nothing uploaded while held"
    );

    // The late page scanned, the foreign one taken out, the doubts decided.
    std::fs::rename(&kept_aside, &late).unwrap();
    std::fs::remove_file(&foreign).unwrap();
    // The decisions file also holds two that no longer apply (issue 36): a
    // question not in doubt and a key that names none. Each is reported and
    // passed over; the run goes on and uploads both attempts.
    let decided = scans.path().join("decisions.json");
    let mut file = json!(decisions);
    let first_attempt = file
        .as_object_mut()
        .unwrap()
        .entry(attempts[0].to_string())
        .or_insert_with(|| json!({}));
    first_attempt["99"] = json!([1]);
    first_attempt["x"] = json!([1]);
    std::fs::write(&decided, serde_json::to_vec(&file).unwrap()).unwrap();
    let second = run(&app, scans.path(), *batch, Some(&decided));
    let text = said(&second);
    assert!(second.status.success(), "{text}");
    assert!(
        text.contains(&format!(
            "attempt {}: --decisions '99' passed over: question 99 is not in doubt",
            attempts[0]
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "attempt {}: --decisions 'x' passed over: not a question (3) or a row of one (3.2)",
            attempts[0]
        )),
        "{text}"
    );
    assert!(
        text.contains("2 attempts: 2 uploaded, 0 held for a person's decision, 0 refused; 0 pages refused; 2 decisions passed over"),
        "{text}"
    );
    assert_eq!(app.sql_i64(&results).await, 2);

    let third = run(&app, scans.path(), *batch, Some(&decided));
    let text = said(&third);
    assert!(third.status.success(), "{text}");
    assert_eq!(text.matches("already uploaded").count(), 2, "{text}");
    assert!(text.contains("0 uploaded"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_of_scans_is_uploaded_once_its_doubts_are_decided_on_sqlite() {
    scanned_folder(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_of_scans_is_uploaded_once_its_doubts_are_decided_on_postgres() {
    scanned_folder(Backend::Postgres).await;
}
