//! Issue 35 in the real window: a test of a choice, a keyed word, a number and
//! two blanks delivered on paper; handwriting in the short answers' boxes and
//! pencil in the number's rows (one row marked lightly); the scan read on the
//! sheets desk, where each box comes up with its crop and its field already
//! focused, so the coordinator types what is written and Enter goes on, and the
//! light row comes up with its digits, decided by pressing one; keyboard only.
//! The upload carries the words and the number as `TextResponse` (the blanks' in
//! `Parts`), and the keys mark them.

use fantoccini::key::Key;
use scoredesk_e2e::paper::{mark_bubble, rng, scan, write_essay, Damage, Pencil};
use scoredesk_e2e::qti::short_answer_package;
use scoredesk_sheets::layout::NUMBER_KEYS;
use serde_json::Value;

use crate::support::{
    first_members_attempt, imported_paper_batch, open_paper_batch, press, printed_sheet, type_into,
    wait_for, Api, DesktopSession,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_answers_are_typed_from_their_boxes_on_the_sheets_desk() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let paper = imported_paper_batch(&api, &short_answer_package(), "Short", "Hall S").await;
    let attempt = first_members_attempt(&api, &paper, "hall-s-0").await;

    // The sheet printed; every box written in, the choice left blank.
    let (_, mut page, layout) = printed_sheet(&api, &paper).await;
    let mut random = rng(351);
    for area in layout[0].essays.iter().filter(|e| e.typed) {
        write_essay(&mut page, area.frame, &mut random);
    }
    // The number's rows: 9 and the point filled, the 8 light.
    for (row, key, pencil) in [
        (1, '9', Pencil::Full),
        (2, '.', Pencil::Full),
        (3, '8', Pencil::Light),
    ] {
        let choice = NUMBER_KEYS.iter().position(|k| *k == key).unwrap() as i32 + 1;
        let bubble = layout[0]
            .bubbles
            .iter()
            .find(|b| b.question == 3 && b.part == row && b.choice == choice)
            .unwrap();
        mark_bubble(&mut page, bubble.center, pencil, &mut random);
    }
    let scans = tempfile::tempdir().unwrap();
    std::fs::write(
        scans.path().join("sheet.png"),
        scan(&page, Damage::random(&mut random, 200.0), attempt as u64),
    )
    .unwrap();

    open_paper_batch(client, &paper).await;
    press(client, &['s']).await;
    type_into(client, "sheet-path", &scans.path().display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;

    // Question 2's box, its field focused: the keys type into it.
    let summary = wait_for(client, "#sheet-summary")
        .await
        .text()
        .await
        .unwrap();
    assert!(summary.contains("3 short answers to type"), "{summary}");
    assert!(
        summary.contains("1 with unsure marks to decide"),
        "{summary}"
    );
    let doubt = wait_for(client, "#sheet-doubt[data-question='2']").await;
    let shown = doubt.text().await.unwrap();
    assert!(shown.contains("To type 1 of 4"), "{shown}");
    assert!(shown.contains("type what is written in the box"), "{shown}");
    wait_for(client, "#sheet-typed:focus").await;
    press(client, &"Starch".chars().collect::<Vec<_>>()).await;
    let decision = wait_for(client, "#sheet-decision")
        .await
        .text()
        .await
        .unwrap();
    assert!(decision.contains("“Starch”"), "{decision}");
    session.screenshot("sheets-short-answer").await;
    press(client, &[Key::Enter.into()]).await;

    // Question 3's light row next, its bubbles labelled by their keys: the
    // digit pressed marks it.
    let doubt = wait_for(client, "#sheet-doubt[data-question='3'][data-part='3']").await;
    let shown = doubt.text().await.unwrap();
    assert!(shown.contains("question 3, row 3"), "{shown}");
    press(client, &['8']).await;
    let decision = wait_for(client, "#sheet-decision")
        .await
        .text()
        .await
        .unwrap();
    assert!(decision.contains('8'), "{decision}");
    session.screenshot("sheets-number-row").await;
    press(client, &[Key::Enter.into()]).await;

    // Then each blank of question 4 by itself.
    for (part, words) in [(1, "hydrogen"), (2, "oxygen")] {
        let doubt = wait_for(
            client,
            &format!("#sheet-doubt[data-question='4'][data-part='{part}']"),
        )
        .await;
        let shown = doubt.text().await.unwrap();
        assert!(
            shown.contains(&format!("question 4, blank {part}")),
            "{shown}"
        );
        wait_for(client, "#sheet-typed:focus").await;
        press(client, &words.chars().collect::<Vec<_>>()).await;
        press(client, &[Key::Enter.into()]).await;
    }
    let done = wait_for(client, "#sheet-decided")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        done.starts_with("All 1 unsure mark decided and 3 short answers typed."),
        "{done}"
    );
    press(client, &[Key::Enter.into()]).await;
    let uploaded = wait_for(client, "#sheet-uploaded")
        .await
        .text()
        .await
        .unwrap();
    assert!(uploaded.starts_with("1 of 1 uploaded"), "{uploaded}");

    // The upload holds the words as typed; the keys marked them.
    let upload: Value = serde_json::from_slice(
        &api.get_bytes(&format!("AnswerUploads({attempt})/$value"))
            .await,
    )
    .unwrap();
    let typed: Vec<(i64, String)> = upload["QuestionAndChoices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let words = match q["TextResponse"].as_str() {
                Some(words) => words.to_owned(),
                None => q["Parts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        format!(
                            "{}={}",
                            p["PartNumber"],
                            p["TextResponse"].as_str().unwrap()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            (q["QuestionOrderNumber"].as_i64().unwrap(), words)
        })
        .collect();
    let wanted = [(2, "Starch"), (3, "9.8"), (4, "1=hydrogen 2=oxygen")];
    assert_eq!(typed, wanted.map(|(q, w)| (q, w.to_owned())));
    let result = api.get(&format!("Attempts({attempt})")).await["ResultID"]
        .as_i64()
        .expect("a result");
    let read = api.get(&format!("Results({result})")).await;
    assert_eq!(
        read["TotalScore"], 6,
        "starch 2, 9.8 within 0.05 of 9.81 2, both blanks 2"
    );
}
