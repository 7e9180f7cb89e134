//! Issue 18 in the real window: a coordinator prints a batch's answer sheets (P,
//! a print window showing each attempt's sheet), reads the scans back (S, a folder
//! typed, Enter), is shown a scan that is not a sheet with the reason, decides
//! each unsure mark on its crop by keyboard (a choice's letter, Backspace for
//! none, Enter), and uploads the attempts (Enter); the server then holds their
//! Results, with the decisions in them.

use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::Client;
use scoredesk_e2e::paper::{print_pages, rng, scan, Damage, Pencil};
use scoredesk_e2e::qti::paper_package;
use scoredesk_e2e::sheets::{mark_sheet, sheet_codes, Expect};
use scoredesk_server::documents::answer_sheets::sheet_questions_of_snapshot;
use scoredesk_sheets::lay_out;
use serde_json::{json, Value};

use crate::support::{
    group_members, imported_paper_batch, open_paper_batch, press, type_into, wait_for, Api,
    DesktopSession,
};

/// The choices a decision presses for the doubt shown: the fully marked ones on a
/// several-marks question (the first of them), none for a faint mark.
fn decision(
    pencil: &std::collections::BTreeMap<(i32, i32), Pencil>,
    question: i32,
    several: bool,
) -> Vec<char> {
    if !several {
        return Vec::new();
    }
    pencil
        .iter()
        .filter(|((q, _), kind)| *q == question && **kind == Pencil::Full)
        .map(|((_, choice), _)| char::from(b'a' + (*choice - 1) as u8))
        .take(1)
        .collect()
}

async fn text_of(client: &Client, css: &str) -> String {
    wait_for(client, css).await.text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coordinator_prints_sheets_reads_the_scans_and_decides_unsure_marks_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // The paper test imported, a snapshot, a batch of the first group, two attempts.
    let mut choices: Vec<(usize, bool)> = (0..26).map(|i| (3 + i % 4, i % 4 != 3)).collect();
    choices[20] = (10, true);
    let package = paper_package("Paper in the window", &choices, &[2, 4]);
    let paper = imported_paper_batch(&api, &package, "Paper sitting", "Hall A").await;
    let (assessment, snapshot, batch) = (paper.assessment.clone(), paper.snapshot, paper.batch);
    let members = group_members(&api, paper.group).await;
    let mut attempts = Vec::new();
    for (n, participant) in members.iter().take(2).enumerate() {
        let made = api
            .post(
                "Attempts",
                json!({"ParticipantID": participant, "AssessmentID": assessment, "AssessmentSnapshotID": snapshot,
                       "ExternalAttemptID": format!("hall-a-{n}")}),
            )
            .await;
        attempts.push(made["ID"].as_i64().unwrap());
    }

    // The sheets as printed, pencilled and scanned into a folder; a photo that is
    // not a sheet beside them.
    let sheets_url = api.get(&format!("PrintBatches({batch})")).await["AnswerSheetsSourceUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let html = reqwest::get(&sheets_url)
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let codes = sheet_codes(&html);
    let print_dir = tempfile::tempdir().unwrap();
    let printed = print_pages(&sheets_url, print_dir.path());
    assert_eq!(printed.len(), codes.len());
    let document = api
        .get_bytes(&format!(
            "AssessmentSnapshots({snapshot})/AssessmentSnapshotData/$value"
        ))
        .await;
    let questions = sheet_questions_of_snapshot(&document).unwrap();
    let layout = lay_out(&questions);
    let scans = tempfile::tempdir().unwrap();
    let mut random = rng(2026);
    let mut marked_sheets = Vec::new();
    for attempt in &attempts {
        let own: Vec<_> = codes
            .iter()
            .zip(&printed)
            .filter(|(code, _)| i64::from(code.attempt) == *attempt)
            .map(|(_, page)| page.clone())
            .collect();
        let marked = mark_sheet(&layout, &questions, &own, &mut random);
        for (index, page) in marked.pages.iter().enumerate() {
            let bytes = scan(page, Damage::random(&mut random, 200.0), *attempt as u64);
            std::fs::write(
                scans.path().join(format!("{attempt}-{}.png", index + 1)),
                bytes,
            )
            .unwrap();
        }
        marked_sheets.push((*attempt, marked));
    }
    let blank = image::GrayImage::from_pixel(1654, 2339, image::Luma([245u8]));
    blank.save(scans.path().join("photo.png")).unwrap();
    let doubts: usize = marked_sheets
        .iter()
        .map(|(_, m)| {
            m.expect
                .values()
                .filter(|e| matches!(e, Expect::Doubt(_)))
                .count()
        })
        .sum();
    assert!(doubts >= 2, "the pencil left marks to decide");

    // The desk, the assessment, its snapshot and batch.
    open_paper_batch(client, &paper).await;

    // P: the sheets in a print window of their own, each attempt's pages.
    let main = client.window().await.unwrap();
    let known = client.windows().await.unwrap();
    press(client, &['p']).await;
    let mut sheets_window = None;
    for _ in 0..200 {
        if let Some(new) = client
            .windows()
            .await
            .unwrap()
            .into_iter()
            .find(|w| !known.contains(w))
        {
            sheets_window = Some(new);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    client
        .switch_to_window(sheets_window.expect("the sheets' window"))
        .await
        .unwrap();
    let mut shown = String::new();
    for _ in 0..100 {
        let text: Value = client
            .execute(
                "return document.body ? document.body.innerText : '';",
                vec![],
            )
            .await
            .unwrap_or(Value::Null);
        shown = text.as_str().unwrap_or_default().to_owned();
        if shown.contains("page 2 of 2") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        shown.contains(&format!("Attempt {} · page 1 of 2", attempts[0])),
        "{shown}"
    );
    assert!(shown.contains("Fill each circle completely"), "{shown}");
    session.screenshot("sheets-print-window").await;
    client.close_window().await.unwrap();
    client.switch_to_window(main).await.unwrap();

    // S, the folder, Enter: read; the review takes the keyboard.
    press(client, &['s']).await;
    type_into(client, "sheet-path", &scans.path().display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;
    let summary = text_of(client, "#sheet-summary").await;
    assert!(summary.starts_with("4 pages read: 2 attempts"), "{summary}");
    assert!(summary.ends_with("1 scan refused"), "{summary}");
    let refused = text_of(client, "#sheet-refused").await;
    assert!(
        refused.contains("photo.png: no registration mark found near the scan's top left corner"),
        "{refused}"
    );

    // Each unsure question on its crop: decided by keyboard.
    let mut decided = Vec::new();
    for step in 0..doubts {
        let shown = wait_for(client, "#sheet-doubt").await;
        let attempt: i64 = shown
            .attr("data-attempt")
            .await
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        let question: i32 = shown
            .attr("data-question")
            .await
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        let why = text_of(client, "#sheet-doubt .why").await;
        let several = why.starts_with("One choice allowed");
        let (_, marked) = marked_sheets.iter().find(|(a, _)| *a == attempt).unwrap();
        assert!(
            matches!(marked.expect.get(&question), Some(Expect::Doubt(_))),
            "question {question} was not ambiguous"
        );
        // What each unsure bubble looks like, and how the participant marked
        // the rest of the sheet (every other fill read as one).
        if !several {
            let unsure = text_of(client, "#sheet-doubt .bubbles li.unsure").await;
            assert!(unsure.contains("a faint fill"), "{unsure}");
        }
        let fills = marked
            .pencil
            .iter()
            .filter(|((q, _), pencil)| {
                *q != question && matches!(pencil, Pencil::Full | Pencil::Partial)
            })
            .count();
        let elsewhere = text_of(client, "#sheet-elsewhere").await;
        assert_eq!(
            elsewhere,
            format!("Elsewhere on this sheet: {fills} fills.")
        );
        let keys = decision(&marked.pencil, question, several);
        if step == 0 {
            // A wrong letter first, then Backspace: no choice.
            press(client, &['a']).await;
            press(client, &[Key::Backspace.into()]).await;
            session.screenshot("sheets-unsure-mark").await;
        }
        press(client, &keys).await;
        let decision_text = text_of(client, "#sheet-decision").await;
        if keys.is_empty() {
            assert!(decision_text.contains("no choice"), "{decision_text}");
        } else {
            assert!(
                decision_text.contains(&keys[0].to_ascii_uppercase().to_string()),
                "{decision_text}"
            );
        }
        press(client, &[Key::Enter.into()]).await;
        decided.push((attempt, question, keys));
        // The next one (or the end) is shown.
        for _ in 0..50 {
            let next = client.find(fantoccini::Locator::Css("#sheet-doubt")).await;
            let moved = match next {
                Ok(element) => {
                    element.attr("data-question").await.unwrap().as_deref()
                        != Some(&question.to_string())
                        || element.attr("data-attempt").await.unwrap().as_deref()
                            != Some(&attempt.to_string())
                }
                Err(_) => true,
            };
            if moved {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let done = text_of(client, "#sheet-decided").await;
    assert!(
        done.contains(&format!(
            "All {doubts} unsure {} decided.",
            if doubts == 1 { "mark" } else { "marks" }
        )),
        "{done}"
    );
    session.screenshot("sheets-decided").await;

    // Enter uploads both attempts; the server holds their Results.
    press(client, &[Key::Enter.into()]).await;
    let uploaded = text_of(client, "#sheet-uploaded").await;
    assert!(uploaded.starts_with("2 of 2 uploaded"), "{uploaded}");
    session.screenshot("sheets-uploaded").await;
    for attempt in &attempts {
        let read = api.get(&format!("Attempts({attempt})")).await;
        let result = read["ResultID"].as_i64().expect("a result");
        let upload: Value = serde_json::from_slice(
            &api.get_bytes(&format!("AnswerUploads({attempt})/$value"))
                .await,
        )
        .unwrap();
        // Each decision is in the upload as the coordinator made it.
        for (_, question, keys) in decided.iter().filter(|(a, _, _)| a == attempt) {
            let entry = upload["QuestionAndChoices"]
                .as_array()
                .unwrap()
                .iter()
                .find(|q| q["QuestionOrderNumber"] == *question);
            match keys.first() {
                None => assert!(entry.is_none(), "question {question}: no choice"),
                Some(key) => assert_eq!(
                    entry.unwrap()["UploadedChoices"][0]["ChoiceOrderNumber"],
                    ((*key as u8 - b'a') + 1).to_string()
                ),
            }
        }
        assert_eq!(api.get(&format!("Results({result})")).await["ID"], result);
    }
    // Enter again leaves the review; the batch's list shows the results.
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        &format!(
            "#attempt-list tr[data-attempt='{}'][data-result]:not([data-result=''])",
            attempts[0]
        ),
    )
    .await;
}
