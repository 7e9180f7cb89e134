//! What the answer-sheet tests share (the API tests, the `sheets scan` test and
//! the window's): a paper test imported and delivered to the demo's groups, its
//! sheets printed through the real print path, and pencil on them with what a
//! reader must make of it.

// Test helpers: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use image::GrayImage;
use reqwest::StatusCode;
use scoredesk_paper::{print_pages, scan, ChaCha8Rng, Damage};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use scoredesk_sheets::layout::{lay_out, PageLayout, SheetQuestion};
use scoredesk_sheets::SheetCode;
use serde_json::{json, Value};

mod marking;

pub use marking::{mark_sheet, mark_sheet_as, Expect, Marked, Style};

use crate::qti::paper_package;
use crate::TestApp;

/// A paper test delivered: the snapshot's questions as the sheet asks them, and
/// per print batch its attempts.
pub struct PaperDelivery {
    /// The import's report: its questions' IDs and types.
    pub report: Value,
    pub questions: Vec<SheetQuestion>,
    pub layout: Vec<PageLayout>,
    pub batches: Vec<(i64, Vec<i64>)>,
}

/// The first batch's first attempt as printed: its batch, the attempt, its
/// snapshot and its one page (a delivery whose sheet takes one page).
pub async fn first_attempts_page(
    app: &TestApp,
    delivery: &PaperDelivery,
    dir: &std::path::Path,
) -> (i64, i64, i64, GrayImage) {
    let (batch, attempts) = &delivery.batches[0];
    let attempt = attempts[0];
    let snapshot = app
        .sql_i64(&format!(
            "SELECT CAST(snapshot_id AS BIGINT) FROM attempts WHERE id = {attempt}"
        ))
        .await;
    let pages: Vec<GrayImage> = printed(app, *batch, dir)
        .await
        .into_iter()
        .filter(|(code, _)| i64::from(code.attempt) == attempt)
        .map(|(_, page)| page)
        .collect();
    assert_eq!(pages.len(), 1, "the sheet takes one page");
    (*batch, attempt, snapshot, pages[0].clone())
}

/// The paper test: 26 choice questions (3 to 6 choices, every fourth with several
/// right; one of 10), then two essays; two pages a sheet.
pub fn paper_test() -> Vec<u8> {
    let mut choices: Vec<(usize, bool)> = (0..26).map(|i| (3 + i % 4, i % 4 != 3)).collect();
    choices[20] = (10, true);
    paper_package("Paper test", &choices, &[2, 4])
}

/// Creates an entity as the coordinator; its ID.
async fn created(app: &TestApp, set: &str, body: Value) -> i64 {
    let response = app
        .client
        .post(app.url(&format!("{}{set}", app.root())))
        .basic_auth("northwind-coordinator", Some(DEMO_PASSWORD))
        .json(&body)
        .send()
        .await
        .expect("request sent");
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{set} {body}: {text}");
    serde_json::from_str::<Value>(&text).unwrap()["ID"]
        .as_i64()
        .unwrap()
}

/// The paper test imported into Northwind, a snapshot of it, an attempt for each
/// member of `groups` of the demo's groups, and a print batch per group.
pub async fn deliver_paper(app: &TestApp, groups: usize) -> PaperDelivery {
    deliver_package(app, &paper_test(), groups).await
}

/// `package` (a QTI package of choice and essay items) delivered as
/// [`deliver_paper`] delivers the paper test.
pub async fn deliver_package(app: &TestApp, package: &[u8], groups: usize) -> PaperDelivery {
    let report = import(app, package).await;
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let snapshot = created(
        app,
        "AssessmentSnapshots",
        json!({"ID": 0, "AssessmentID": assessment, "Name": "Paper"}),
    )
    .await;
    let group_ids: Vec<i64> = app
        .sql_column(&format!(
            "SELECT CAST(id AS BIGINT) FROM groups WHERE customer_id = {} ORDER BY id LIMIT {groups}",
            app.northwind()
        ))
        .await;
    let mut batches = Vec::new();
    for group in group_ids {
        let batch = created(app, "PrintBatches", json!({"ID": 0, "GroupID": group, "SnapshotID": snapshot, "Name": format!("Group {group}")})).await;
        let members: Vec<i64> = app
            .sql_column(&format!(
                "SELECT CAST(participant_id AS BIGINT) FROM group_participants WHERE group_id = {group} ORDER BY participant_id"
            ))
            .await;
        let mut attempts = Vec::new();
        for participant in members {
            let attempt = created(
                app,
                "Attempts",
                json!({"ID": 0, "ParticipantID": participant, "AssessmentID": assessment, "AssessmentSnapshotID": snapshot,
                       "ExternalAttemptID": format!("paper-{group}-{participant}"), "LockStatus": false, "LockRequired": false}),
            )
            .await;
            attempts.push(attempt);
        }
        batches.push((batch, attempts));
    }
    let questions = sheet_questions(app, snapshot).await;
    let layout = lay_out(&questions);
    PaperDelivery {
        report,
        questions,
        layout,
        batches,
    }
}

/// Imports `package` into Northwind as its administrator; the report.
async fn import(app: &TestApp, package: &[u8]) -> Value {
    use base64::Engine;
    let response = app
        .client
        .post(app.url(&format!("{}ImportQtiPackage", app.root())))
        .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
        .json(&json!({
            "Package": base64::engine::general_purpose::STANDARD.encode(package),
            "FileName": "paper.zip",
            "Preview": false,
        }))
        .send()
        .await
        .expect("request sent");
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.expect("the report")
}

/// The snapshot's questions as a sheet asks them: from its XML document, fetched
/// over HTTP and read as a client that reads scans back reads it.
pub async fn sheet_questions(app: &TestApp, snapshot: i64) -> Vec<SheetQuestion> {
    let xml = app
        .client
        .get(app.url(&format!(
            "{}AssessmentSnapshots({snapshot})/AssessmentSnapshotData/$value",
            app.root()
        )))
        .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
        .send()
        .await
        .expect("request sent")
        .bytes()
        .await
        .expect("the snapshot document");
    scoredesk_server::documents::answer_sheets::sheet_questions_of_snapshot(&xml)
        .expect("the snapshot's questions")
}

/// A batch's sheets as printed: each page with the code the page was printed with.
pub async fn printed(
    app: &TestApp,
    batch: i64,
    dir: &std::path::Path,
) -> Vec<(SheetCode, GrayImage)> {
    let (status, read) = app
        .get_json_with(
            "northwind-coordinator",
            &format!("{}PrintBatches({batch})", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let url = read["AnswerSheetsSourceUrl"].as_str().unwrap().to_owned();
    let html = app
        .client
        .get(&url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let codes = sheet_codes(&html);
    let pages = print_pages(&url, dir);
    assert_eq!(pages.len(), codes.len(), "one printed page per sheet page");
    codes.into_iter().zip(pages).collect()
}

/// The codes of a batch's sheets' pages, in the printed page's order.
pub fn sheet_codes(html: &str) -> Vec<SheetCode> {
    html.split("data-code=\"")
        .skip(1)
        .map(|rest| SheetCode::decode(&rest[..rest.find('"').unwrap()]).unwrap())
        .collect()
}

/// What a coordinator decided for each attempt's doubts (attempt → question →
/// choices), as `sheets scan --decisions` reads it.
pub type Decisions = BTreeMap<String, BTreeMap<String, Vec<i32>>>;

/// Each of `attempts`' printed pages pencilled at random and scanned at `dpi` with
/// random damage into `dir`, as `scan-<attempt>-<page>.jpg`: the files, in order,
/// and the coordinator's decisions for every doubt (no clear mark, so nothing).
pub fn scan_attempts(
    style: Style,
    delivery: &PaperDelivery,
    pages: &[(SheetCode, GrayImage)],
    attempts: &[i64],
    dpi: f32,
    random: &mut ChaCha8Rng,
    dir: &std::path::Path,
) -> (Vec<std::path::PathBuf>, Decisions) {
    let mut decisions = Decisions::new();
    let mut files = Vec::new();
    for attempt in attempts {
        let own: Vec<_> = pages
            .iter()
            .filter(|(code, _)| i64::from(code.attempt) == *attempt)
            .map(|(_, page)| page.clone())
            .collect();
        let marked = mark_sheet_as(
            style,
            false,
            &delivery.layout,
            &delivery.questions,
            &own,
            random,
        );
        for (question, expect) in &marked.expect {
            if let Expect::Doubt(_) = expect {
                decisions
                    .entry(attempt.to_string())
                    .or_default()
                    .insert(question.to_string(), vec![]);
            }
        }
        for (index, page) in marked.pages.iter().enumerate() {
            let bytes = scan(page, Damage::random(random, dpi), *attempt as u64);
            let file = dir.join(format!("scan-{attempt}-{}.jpg", index + 1));
            std::fs::write(&file, bytes).unwrap();
            files.push(file);
        }
    }
    (files, decisions)
}
