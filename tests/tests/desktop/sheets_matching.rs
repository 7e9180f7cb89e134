//! Issue 35 in the real window: the IMS specification's match, gap match and order
//! items delivered on paper; their answer sheet's grids pencilled, one row marked
//! twice; the scans read on the sheets desk, the row in doubt shown by itself
//! ("question 1, row 4") and decided by keyboard; the upload carries every row as
//! `Parts`, and the Result is scored by pairs.

use fantoccini::key::Key;
use scoredesk_e2e::paper::{mark_bubble, rng, scan, Damage, Pencil};
use scoredesk_e2e::qti::fixture_items;
use scoredesk_e2e::sheets::sheet_codes;
use serde_json::Value;

use crate::support::{
    first_members_attempt, imported_paper_batch, open_paper_batch, press, printed_sheet, type_into,
    wait_for, Api, DesktopSession,
};

fn ims_package() -> Vec<u8> {
    fixture_items("ims", &["match.xml", "gap_match.xml", "order.xml"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matchings_unsure_row_is_decided_by_itself_on_the_sheets_desk() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let paper = imported_paper_batch(&api, &ims_package(), "Matchings", "Hall M").await;
    let attempt = first_members_attempt(&api, &paper, "hall-m-0").await;

    // The sheet printed; every row of the first grid marked (the last twice),
    // the gap match's two rows, the order left blank.
    let (sheets_url, mut page, layout) = printed_sheet(&api, &paper).await;
    let html = reqwest::get(&sheets_url)
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(sheet_codes(&html).len(), 1, "one page");
    let mut random = rng(35);
    let marks = [
        (1, 1, 1),
        (1, 2, 2),
        (1, 3, 3),
        (1, 4, 1),
        (1, 4, 3),
        (2, 1, 1),
        (2, 2, 3),
    ];
    for (question, part, choice) in marks {
        let bubble = layout[0]
            .bubbles
            .iter()
            .find(|b| b.question == question && b.part == part && b.choice == choice)
            .unwrap();
        mark_bubble(&mut page, bubble.center, Pencil::Full, &mut random);
    }
    let scans = tempfile::tempdir().unwrap();
    std::fs::write(
        scans.path().join("sheet.png"),
        scan(&page, Damage::random(&mut random, 200.0), attempt as u64),
    )
    .unwrap();

    // The desk, the batch; S reads the folder.
    open_paper_batch(client, &paper).await;
    press(client, &['s']).await;
    type_into(client, "sheet-path", &scans.path().display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;

    // The one doubt: row 4 of question 1, by itself; C decides it.
    let doubt = wait_for(client, "#sheet-doubt").await;
    assert_eq!(
        doubt.attr("data-question").await.unwrap().as_deref(),
        Some("1")
    );
    assert_eq!(doubt.attr("data-part").await.unwrap().as_deref(), Some("4"));
    let shown = doubt.text().await.unwrap();
    assert!(shown.contains("question 1, row 4"), "{shown}");
    press(client, &['c']).await;
    session.screenshot("sheets-matching-row").await;
    press(client, &[Key::Enter.into()]).await;
    let done = wait_for(client, "#sheet-decided")
        .await
        .text()
        .await
        .unwrap();
    assert!(done.contains("All 1 unsure mark decided."), "{done}");
    press(client, &[Key::Enter.into()]).await;
    let uploaded = wait_for(client, "#sheet-uploaded")
        .await
        .text()
        .await
        .unwrap();
    assert!(uploaded.starts_with("1 of 1 uploaded"), "{uploaded}");

    // The upload holds each row as the sheet and the decision gave it.
    let upload: Value = serde_json::from_slice(
        &api.get_bytes(&format!("AnswerUploads({attempt})/$value"))
            .await,
    )
    .unwrap();
    let parts = |question: i64| -> Vec<(i64, String)> {
        upload["QuestionAndChoices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["QuestionOrderNumber"] == question)
            .map(|q| {
                q["Parts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        (
                            p["PartNumber"].as_i64().unwrap(),
                            p["ChoiceOrderNumber"].as_str().unwrap().to_owned(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let text = |pairs: &[(i64, &str)]| -> Vec<(i64, String)> {
        pairs.iter().map(|(p, c)| (*p, (*c).to_owned())).collect()
    };
    assert_eq!(parts(1), text(&[(1, "1"), (2, "2"), (3, "3"), (4, "3")]));
    assert_eq!(parts(2), text(&[(1, "1"), (2, "3")]));
    assert!(parts(3).is_empty(), "the order was left blank");
    let result = api.get(&format!("Attempts({attempt})")).await["ResultID"]
        .as_i64()
        .expect("a result");
    let read = api.get(&format!("Results({result})")).await;
    assert_eq!(read["MaxScore"], 7);
}
